// core/input_file.h — the one way strata reads an input file whole (scene
// and config JSON, OBJ, MTL, images, displacement maps, camera bookmarks):
// the partner of output_file.h.
//   - A regular file is read as it is.
//   - A FIFO or a character device (process substitution, /dev/stdin) is
//     read up to a limit and refused past it, so /dev/zero or an endless
//     pipe ends with a message instead of filling the memory. A FIFO that
//     gives no data for 10 s after it is opened (nothing writes to it, or a
//     writer that already left) is refused instead of hanging.
//   - A directory, a socket or a block device is refused.
// Every error is a strata::Error "PATH: cannot open|read WHAT: REASON".
#pragma once

#include <cstddef>
#include <cstdint>
#include <ios>
#include <streambuf>
#include <string>

namespace strata {

// Inputs that are text a person writes: scene and config JSON, MTL, bookmarks.
constexpr size_t kMaxTextStreamBytes = size_t(64) << 20;
// Inputs that may be large: OBJ, images, displacement maps.
constexpr size_t kMaxDataStreamBytes = size_t(2) << 30;

// How long a FIFO may stay silent before its first bytes.
constexpr int kFifoWaitMs = 10000;

// The whole contents of PATH. `what` names the kind of file in messages
// ("scene file", "OBJ file"); maxStreamBytes limits what a FIFO or device
// may give, maxFileBytes a regular file (checked from its size first).
std::string readInputFile(const std::string& path, const std::string& what, size_t maxStreamBytes,
                          size_t maxFileBytes = SIZE_MAX, int fifoWaitMs = kFifoWaitMs);

// A read-only stream buffer over text already in memory (no copy: C++17's
// istringstream copies its string), for parsers that take a std::istream.
class TextStreamBuf : public std::streambuf {
public:
    explicit TextStreamBuf(const std::string& text) {
        char* p = const_cast<char*>(text.data());  // only read: the get area
        setg(p, p, p + text.size());
    }

protected:
    // tellg/seekg within the text (the PFM reader finds its data by them).
    pos_type seekoff(off_type off, std::ios_base::seekdir dir, std::ios_base::openmode which) override {
        if (which & std::ios_base::out) return pos_type(off_type(-1));
        const off_type base = dir == std::ios_base::beg   ? 0
                              : dir == std::ios_base::cur ? gptr() - eback()
                                                          : egptr() - eback();
        const off_type to = base + off;
        if (to < 0 || to > egptr() - eback()) return pos_type(off_type(-1));
        setg(eback(), eback() + to, egptr());
        return pos_type(to);
    }
    pos_type seekpos(pos_type pos, std::ios_base::openmode which) override {
        return seekoff(off_type(pos), std::ios_base::beg, which);
    }
};

}  // namespace strata
