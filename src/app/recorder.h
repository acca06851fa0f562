// app/recorder.h — records one CSV row per frame while on. Rows go to a
// temporary file next to the target, flushed per row; stop() (also run when
// the window closes) renames it into place, so the file at the target path is
// always complete and valid.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "render/frame_csv.h"

namespace strata {

class Recorder {
public:
    ~Recorder();
    // Throws strata::Error naming the path if it cannot be created.
    void start(const std::string& path, const std::vector<std::string>& stages);
    void add(const FrameRecord& r, const Options& o);
    void stop();
    bool recording() const { return file_ != nullptr; }
    const std::string& path() const { return path_; }
    size_t rows() const { return rows_; }

private:
    std::FILE* file_ = nullptr;
    std::string path_, tmp_;
    size_t rows_ = 0;
};

// "strata-YYYYmmdd-HHMMSS-N.ext" in the current folder: a name not yet taken.
std::string uniqueName(const std::string& stem, const std::string& ext);

}  // namespace strata
