// app/recorder.h — records one CSV row per frame while on. Rows go through
// an OutputFile (core/output_file.h: a temporary beside the target, every
// write checked); stop() (also run when the window closes) commits it, so
// the file at the target path is always complete and valid. Each row is one
// write, and the file is marked keepOnSignal: a crash or Ctrl-C moves the
// rows recorded so far into place. A failed write ends the recording with a
// message and leaves nothing.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/output_file.h"
#include "render/frame_csv.h"

namespace strata {

class Recorder {
public:
    ~Recorder();
    // Throws strata::Error naming the path if it cannot be created.
    void start(const std::string& path, const std::vector<std::string>& stages);
    // As start, from the keyboard or the panel: a file that cannot be created
    // is error() (the panel shows it), and the viewer keeps running.
    void startOrSay(const std::string& path, const std::vector<std::string>& stages);
    void add(const FrameRecord& r, const Options& o);
    void stop();
    bool recording() const { return file_ != nullptr; }
    // Why the last recording ended early or was not saved (empty: it was).
    const std::string& error() const { return error_; }
    const std::string& path() const { return path_; }
    size_t rows() const { return rows_; }

private:
    void add(const std::string& text);  // ends the recording on a failed write
    std::unique_ptr<OutputFile> file_;
    std::string path_, error_;
    size_t rows_ = 0;
};

// "DIR/strata-YYYYmmdd-HHMMSS-N.ext": a name not yet taken in folder `dir`
// (empty: the working directory).
std::string uniqueName(const std::string& dir, const std::string& stem, const std::string& ext);

// `name` in folder `dir`: unchanged when it is absolute or `dir` is empty.
std::string inFolder(const std::string& dir, const std::string& name);

// Checks that `dir` (named by `what`, e.g. "--output-dir") is an existing
// folder; throws strata::Error naming it otherwise. Empty passes.
void checkOutputFolder(const std::string& what, const std::string& dir);

}  // namespace strata
