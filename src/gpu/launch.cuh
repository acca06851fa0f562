// gpu/launch.cuh — every kernel launch through one helper (pbrt-v4's
// GPUParallelFor, ArborX's labelled parallel_for): launched on the context's
// stream, checked (a failure names the label), counted in the timer's open
// stages and in the caller's own tally, and timed when the label is one of
// the timer's stages (and not open already: a stage of several launches is
// a StageScope around them). Labels are the stage table's vocabulary: a stage's name
// ("build/morton"), or a kernel under it ("build/kd_large/split_nodes").
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <utility>

#include "gpu/cuda_check.h"
#include "gpu/launch_context.h"

namespace strata {

// A launch's shape: blocks of `threads` threads, dynamic shared memory.
struct LaunchShape {
    dim3 blocks, threads;
    size_t sharedBytes = 0;
};

// One thread per item: ceil(n / threads) blocks.
inline LaunchShape perItem(uint32_t n, uint32_t threads) { return {dim3((n + threads - 1) / threads), dim3(threads)}; }

template <class... Params, class... Args>
void launch(const LaunchContext& ctx, const char* label, const LaunchShape& shape, void (*kernel)(Params...),
            Args&&... args) {
    StageScope timed = StageScope::ifStage(ctx.timer, label);
    kernel<<<shape.blocks, shape.threads, shape.sharedBytes, ctx.stream>>>(std::forward<Args>(args)...);
    checkCuda(cudaGetLastError(), label, __FILE__, __LINE__);
    ctx.counted();
}

// A library call (CUB) that enqueues `kernels` kernels on ctx.stream and
// returns its error: checked under the label, its kernels counted, timed
// as launch() times.
template <class Call>
void libraryCall(const LaunchContext& ctx, const char* label, uint32_t kernels, Call&& call) {
    StageScope timed = StageScope::ifStage(ctx.timer, label);
    checkCuda(call(ctx.stream), label, __FILE__, __LINE__);
    checkCuda(cudaGetLastError(), label, __FILE__, __LINE__);
    ctx.counted(kernels);
}

// CUB chooses its kernels at run time: a library call whose kernel count is
// found once per `key` (the size, or whatever else changes CUB's choice) by
// capturing one call into a graph that is not run, and remembered in `c`
// (launch_context.h).
template <class Call>
void countedLibraryCall(const LaunchContext& ctx, const char* label, LibraryLaunchCount& c, uint64_t key, Call&& call) {
    const bool fresh = c.key != key;
    // The call is enqueued first: the capture (on the host) then overlaps it.
    libraryCall(ctx, label, fresh ? 0 : c.kernels, call);
    if (!fresh) return;
    c.kernels = countKernelLaunches(call);
    c.key = key;
    ctx.counted(c.kernels);
}

}  // namespace strata
