// accel/lbvh/split_sort.h — accel.morton_sort = split (strata's): 63-bit
// Morton codes sorted in two steps. CUB's radix sort first orders the
// primitives by their codes' top 32 bits (4 passes of 8 bits instead of 8,
// over 32-bit keys); then every run of equal tops is ordered by the whole
// code, here. The radix sort is stable and the runs keep equal codes in
// primitive order, so the order is the one-step radix sort's exactly, and so
// is every tree built on it.
//
// A run of 1 (almost every primitive of a random mesh) keeps its top alone:
// its sorted code is written with the low bits zero, without reading its
// code. The builders read the sorted codes only through the XOR of
// neighbours (karrasDelta's prefix length, apetreiDelta's value, whose
// compared values differ in their highest set bit: apetrei.h), and between
// different tops the highest differing bit is a top bit, so every
// comparison, and the tree, is the one of the true codes (the GPU tests
// compare it with the CPU run node for node).
//
// The longer runs, by length:
//   up to kSplitThreadRun  by the thread at the run's first position
//                          (odd-even transposition sort in registers);
//   up to kSplitWarpRun    by a warp (bitonic sort of (code, primitive)
//                          pairs in shared memory; the pairs are distinct);
//   up to kSplitBlockRun   by a block (CUB's stable block radix sort of the
//                          codes' low bits: a run's tops are equal);
//   longer                 by a block: pieces of kSplitBlockRun sorted as
//                          above, then merged pairwise in global memory (a
//                          pass per doubling). Correct at any length but
//                          serial per run: a mesh whose primitives nearly all
//                          share their top 32 bits (a tiny model beside a
//                          huge one) sorts slower this way than by radix.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "core/hd.h"
#include "gpu/launch_context.h"

namespace strata {

constexpr int kSplitTopShift = 31;  // tops = code >> 31: the top 32 of 63 bits
constexpr uint32_t kSplitThreadRun = 8;
constexpr uint32_t kSplitWarpRun = 256;
constexpr uint32_t kSplitBlockRun = 8192;

// What the run step reads and writes (device pointers).
struct SplitSortRuns {
    const uint64_t* codes = nullptr;       // per primitive, in primitive order
    const uint32_t* sortedTops = nullptr;  // codes >> kSplitTopShift, sorted
    uint32_t* sortedPrim = nullptr;        // in: primitives by tops (stable); out: by code
    uint64_t* sortedCodes = nullptr;       // out: the codes in that order
    uint32_t* runList = nullptr;           // splitSortRunListWords(n): the warps' and the blocks' runs
    uint64_t* scratchCodes = nullptr;      // n each: the merge passes' other side
    uint32_t* scratchPrim = nullptr;
    uint32_t n = 0;
};

// The run lists' layout in 32-bit words: the warps' count, the blocks'
// count, then (start, length) pairs, the warps' first (as many as runs
// longer than a thread's can be), then the blocks'.
STRATA_HD size_t splitSortWarpRunsMost(uint32_t n) { return size_t(n) / (kSplitThreadRun + 1) + 1; }
STRATA_HD size_t splitSortBlockRunsMost(uint32_t n) { return size_t(n) / (kSplitWarpRun + 1) + 1; }
STRATA_HD size_t splitSortRunListWords(uint32_t n) {
    return 2 + 2 * (splitSortWarpRunsMost(n) + splitSortBlockRunsMost(n));
}

// Every run of equal tops ordered by code, on ctx.stream (two launches,
// labelled `label`); the run lists' two counts must be zero (the caller
// clears them in a kernel of its own, sparing a memset).
void launchSplitSortRuns(const SplitSortRuns& s, const char* label, const LaunchContext& ctx);

}  // namespace strata
