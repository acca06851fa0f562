#include "app/recorder.h"

#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <filesystem>

#include "core/error.h"

namespace strata {

Recorder::~Recorder() { stop(); }

void Recorder::start(const std::string& path, const std::vector<std::string>& stages) {
    stop();
    file_ = std::make_unique<OutputFile>(path);  // throws naming the path
    file_->keepOnSignal();  // every row is one write: a crash or Ctrl-C keeps the rows recorded so far
    path_ = path;
    rows_ = 0;
    error_.clear();
    add(csvHeader(stages));
}

void Recorder::startOrSay(const std::string& path, const std::vector<std::string>& stages) {
    try {
        start(path, stages);
    } catch (const Error& e) {
        error_ = e.what();
        std::fprintf(stderr, "strata: %s; not recording\n", e.what());
    }
}

void Recorder::add(const std::string& text) {
    if (!file_) return;
    try {
        file_->write(text);
    } catch (const Error& e) {
        error_ = e.what();
        std::fprintf(stderr, "strata: %s; the recording is not saved\n", e.what());
        file_.reset();  // abandoned: nothing at the path
    }
}

void Recorder::add(const FrameRecord& r, const Options& o) {
    if (!file_) return;
    add(csvRow(r, o));
    if (file_) ++rows_;
}

void Recorder::stop() {
    if (!file_) return;
    try {
        file_->commit();
    } catch (const Error& e) {
        error_ = e.what();
        std::fprintf(stderr, "strata: %s; the recording is not saved\n", e.what());
    }
    file_.reset();
}

std::string inFolder(const std::string& dir, const std::string& name) {
    if (dir.empty() || name.empty() || name[0] == '/') return name;
    return (std::filesystem::path(dir) / name).string();
}

std::string uniqueName(const std::string& dir, const std::string& stem, const std::string& ext) {
    char stamp[32];
    std::time_t now = std::time(nullptr);
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
    for (int i = 0;; ++i) {
        std::string name = inFolder(dir, stem + "-" + stamp + (i ? "-" + std::to_string(i) : "") + "." + ext);
        if (access(name.c_str(), F_OK) != 0) return name;
    }
}

void checkOutputFolder(const std::string& what, const std::string& dir) {
    if (dir.empty()) return;
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec))
        throw Error(what + ": '" + dir + "' is not a folder (screenshots and recordings go there; create it first)");
}

}  // namespace strata
