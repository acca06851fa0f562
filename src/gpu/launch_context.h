// gpu/launch_context.h — where a piece of GPU work goes (a stream) and who
// keeps its books (a stage timer, a caller's launch tally). Plain C++: host
// code passes it to the builders; gpu/launch.cuh launches with it.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "gpu/stage_timer.h"

namespace strata {

// Where a piece of GPU work goes and who keeps its books.
struct LaunchContext {
    cudaStream_t stream = nullptr;
    StageTimer* timer = nullptr;  // null: untimed, uncounted
    uint32_t* tally = nullptr;    // optional: the caller's own launch count (the kd-tree's, as the chapter counts)

    // k launches made outside launch() (a library call's kernels).
    void counted(uint32_t k = 1) const {
        if (timer) timer->countLaunches(k);
        if (tally) *tally += k;
    }
    LaunchContext withTally(uint32_t* t) const { return {stream, timer, t}; }
};

// A library call's kernels, counted for the last `key` (gpu/launch.cuh:
// countedLibraryCall).
struct LibraryLaunchCount {
    uint32_t kernels = 0;
    uint64_t key = ~0ull;
};

}  // namespace strata
