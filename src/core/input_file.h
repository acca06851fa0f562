// core/input_file.h — the one way strata reads an input file whole (scene
// and config JSON, OBJ, MTL, images, displacement maps, camera bookmarks):
// the partner of output_file.h.
//   - A regular file is read as it is.
//   - A FIFO or a character device (process substitution, /dev/stdin) is
//     read up to a limit and refused past it, so /dev/zero or an endless
//     pipe ends with a message instead of filling the memory. A FIFO that
//     nothing writes to is refused after 10 s instead of hanging.
//   - A directory, a socket or a block device is refused.
// Every error is a strata::Error "PATH: cannot open|read WHAT: REASON".
#pragma once

#include <cstddef>
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
// may give.
std::string readInputFile(const std::string& path, const std::string& what, size_t maxStreamBytes,
                          int fifoWaitMs = kFifoWaitMs);

}  // namespace strata
