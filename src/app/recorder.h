// app/recorder.h — records one CSV row per frame while on. Rows go through
// an OutputFile (core/output_file.h: a temporary beside the target, every
// write checked); stop() (also run when the window closes) commits it, so
// the file at the target path is always complete and valid. A failed write
// ends the recording with a message and leaves nothing.
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

// "strata-YYYYmmdd-HHMMSS-N.ext" in the current folder: a name not yet taken.
std::string uniqueName(const std::string& stem, const std::string& ext);

}  // namespace strata
