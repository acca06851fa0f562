#include "app/recorder.h"

#include <unistd.h>

#include <ctime>

#include "core/error.h"

namespace strata {

Recorder::~Recorder() { stop(); }

void Recorder::start(const std::string& path, const std::vector<std::string>& stages) {
    stop();
    tmp_ = path + ".tmp-" + std::to_string(getpid());
    file_ = std::fopen(tmp_.c_str(), "wb");
    if (!file_) throw Error(path + ": cannot create the recording");
    path_ = path;
    rows_ = 0;
    std::string h = csvHeader(stages);
    std::fwrite(h.data(), 1, h.size(), file_);
    std::fflush(file_);
}

void Recorder::add(const FrameRecord& r, const Options& o) {
    if (!file_) return;
    std::string row = csvRow(r, o);
    std::fwrite(row.data(), 1, row.size(), file_);
    std::fflush(file_);
    ++rows_;
}

void Recorder::stop() {
    if (!file_) return;
    bool ok = std::fclose(file_) == 0;
    file_ = nullptr;
    if (!ok || std::rename(tmp_.c_str(), path_.c_str()) != 0) {
        std::remove(tmp_.c_str());
        std::fprintf(stderr, "strata: %s: could not finish the recording\n", path_.c_str());
    }
}

std::string uniqueName(const std::string& stem, const std::string& ext) {
    char stamp[32];
    std::time_t now = std::time(nullptr);
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
    for (int i = 0;; ++i) {
        std::string name = stem + "-" + stamp + (i ? "-" + std::to_string(i) : "") + "." + ext;
        if (access(name.c_str(), F_OK) != 0) return name;
    }
}

}  // namespace strata
