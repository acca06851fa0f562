#include "accel/lbvh/split_sort.h"

#include <algorithm>
#include <atomic>
#include <cub/block/block_radix_sort.cuh>

#include "gpu/cuda_check.h"
#include "gpu/device.h"
#include "gpu/launch.cuh"

namespace strata {
namespace {

constexpr uint32_t kRunThreads = 1024;  // a block sorting a long run
constexpr uint32_t kRunItems = kSplitBlockRun / kRunThreads;
constexpr uint32_t kWarps = kRunThreads / 32;
constexpr uint32_t kMergeItems = 8;  // outputs a thread merges in one go
constexpr uint32_t kLowMask = (1u << kSplitTopShift) - 1;
// lbvh_memory.h counts the run lists with these lengths.
static_assert(kSplitThreadRun == 8 && kSplitWarpRun == 256, "update lbvhBytes");
static_assert(kSplitBlockRun % kRunThreads == 0 && kSplitBlockRun % kMergeItems == 0, "whole items per thread");

// Within a run the tops are equal: the codes order as their low bits.
using BlockSort = cub::BlockRadixSort<uint32_t, kRunThreads, kRunItems, uint32_t>;
struct WarpSlice {
    uint64_t code[kSplitWarpRun];
    uint32_t prim[kSplitWarpRun];
};
union RunShared {
    typename BlockSort::TempStorage block;
    WarpSlice warp[kWarps];
};

// The order of a run: by code, equal codes by primitive. (code, primitive)
// pairs are all distinct, so an unstable sort by it is the stable sort.
__device__ bool pairLess(uint64_t codeA, uint32_t primA, uint64_t codeB, uint32_t primB) {
    return codeA < codeB || (codeA == codeB && primA < primB);
}

// The first position past the run of `top` that starts at i: galloping
// (i+1, i+2, i+4, ...), then a binary search (sorted tops).
__device__ uint32_t runEnd(const uint32_t* tops, uint32_t n, uint32_t i, uint32_t top) {
    uint32_t lo = i + 1, hi = n;  // the end lies in [lo, hi]
    for (uint32_t step = 1;; step *= 2) {
        const uint32_t probe = i + step;
        if (probe >= n) break;
        if (tops[probe] != top) {
            hi = probe;
            break;
        }
        lo = probe + 1;
    }
    while (lo < hi) {
        const uint32_t m = lo + (hi - lo) / 2;
        if (tops[m] == top)
            lo = m + 1;
        else
            hi = m;
    }
    return lo;
}

// A run of 2..kSplitThreadRun at `first`, by its thread: odd-even
// transposition in registers, swapping only strictly greater codes (equal
// codes keep their order, primitive order); padding sorts last.
__device__ void sortThreadRun(const SplitSortRuns& s, uint32_t first, uint32_t len) {
    uint64_t code[kSplitThreadRun];
    uint32_t prim[kSplitThreadRun];
#pragma unroll
    for (uint32_t q = 0; q < kSplitThreadRun; ++q) {
        prim[q] = q < len ? s.sortedPrim[first + q] : ~0u;
        code[q] = q < len ? s.codes[prim[q]] : ~uint64_t(0);
    }
#pragma unroll
    for (uint32_t round = 0; round < kSplitThreadRun; ++round)
#pragma unroll
        for (uint32_t q = round & 1; q + 1 < kSplitThreadRun; q += 2)
            if (code[q] > code[q + 1]) {
                const uint64_t c = code[q];
                code[q] = code[q + 1];
                code[q + 1] = c;
                const uint32_t p = prim[q];
                prim[q] = prim[q + 1];
                prim[q + 1] = p;
            }
#pragma unroll
    for (uint32_t q = 0; q < kSplitThreadRun; ++q)
        if (q < len) {
            s.sortedCodes[first + q] = code[q];
            s.sortedPrim[first + q] = prim[q];
        }
}

// Thread per position: a run's first thread writes a run of 1's code with
// its top alone (split_sort.h: no read of the code), sorts a run of a
// thread's length, and lists a longer one for runsKernel. Full occupancy
// (32 registers) is worth the spills of the rarer sorting path.
__global__ void __launch_bounds__(256, 8) firstOfRunKernel(SplitSortRuns s) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= s.n) return;
    const uint32_t top = s.sortedTops[i];
    const uint32_t before = i > 0 ? s.sortedTops[i - 1] : ~top;  // anything but top at the ends
    const uint32_t after = i + 1 < s.n ? s.sortedTops[i + 1] : ~top;
    if (before == top) return;  // not a run's first
    if (after != top) {
        s.sortedCodes[i] = uint64_t(top) << kSplitTopShift;
        return;
    }
    const uint32_t len = runEnd(s.sortedTops, s.n, i, top) - i;
    if (len <= kSplitThreadRun) {
        sortThreadRun(s, i, len);
    } else {
        const bool warp = len <= kSplitWarpRun;
        const uint32_t k = atomicAdd(&s.runList[warp ? 0 : 1], 1u);
        uint32_t* pair = s.runList + 2 + 2 * (warp ? k : splitSortWarpRunsMost(s.n) + k);
        pair[0] = i;
        pair[1] = len;
    }
}

// The warp sorts its run of len (kSplitThreadRun < len <= kSplitWarpRun) at
// `first` in its slice: a bitonic sort over the next power of two, padded
// with pairs that sort last.
__device__ void sortWarpRun(const SplitSortRuns& s, uint32_t first, uint32_t len, WarpSlice& w, uint32_t lane) {
    uint32_t p = 2;
    while (p < len) p <<= 1;
    for (uint32_t t = lane; t < p; t += 32) {
        const uint32_t q = t < len ? s.sortedPrim[first + t] : ~0u;
        w.prim[t] = q;
        w.code[t] = t < len ? s.codes[q] : ~uint64_t(0);  // above any 63-bit code
    }
    __syncwarp();
    for (uint32_t k = 2; k <= p; k <<= 1)
        for (uint32_t j = k >> 1; j > 0; j >>= 1) {
            for (uint32_t t = lane; t < p / 2; t += 32) {
                const uint32_t a = ((t & ~(j - 1)) << 1) | (t & (j - 1)), b = a + j;
                const bool ascending = (a & k) == 0;
                const uint64_t ca = w.code[a], cb = w.code[b];
                const uint32_t pa = w.prim[a], pb = w.prim[b];
                if (pairLess(cb, pb, ca, pa) == ascending) {
                    w.code[a] = cb;
                    w.code[b] = ca;
                    w.prim[a] = pb;
                    w.prim[b] = pa;
                }
            }
            __syncwarp();
        }
    for (uint32_t t = lane; t < len; t += 32) {
        s.sortedCodes[first + t] = w.code[t];
        s.sortedPrim[first + t] = w.prim[t];
    }
    __syncwarp();  // the slice free again
}

// The block sorts `len` (up to kSplitBlockRun) primitives, prim[0..len), of
// one run (codes high | low bits) by CUB's stable block radix sort of the
// low bits, in a blocked arrangement (position order is the stable order);
// writes them and their codes to out*[0..len) (which may be prim itself).
__device__ void sortBlockPiece(const uint64_t* codes, const uint32_t* prim, uint32_t len, uint64_t high,
                               uint64_t* outCodes, uint32_t* outPrim, RunShared& shared) {
    uint32_t key[kRunItems], value[kRunItems];
#pragma unroll
    for (uint32_t q = 0; q < kRunItems; ++q) {
        const uint32_t t = threadIdx.x * kRunItems + q;
        value[q] = t < len ? prim[t] : ~0u;
        key[q] = t < len ? uint32_t(codes[value[q]]) & kLowMask : kLowMask;  // padding last (stable)
    }
    BlockSort(shared.block).Sort(key, value, 0, kSplitTopShift);
#pragma unroll
    for (uint32_t q = 0; q < kRunItems; ++q) {
        const uint32_t t = threadIdx.x * kRunItems + q;
        if (t < len) {
            outCodes[t] = high | key[q];
            outPrim[t] = value[q];
        }
    }
    __syncthreads();  // shared memory free again; the writes seen by the block
}

// How many of a's first elements are among the first d of a and b merged
// (merge path: a binary search along the diagonal d).
__device__ uint32_t mergePath(const uint64_t* ac, const uint32_t* ap, uint32_t la, const uint64_t* bc,
                              const uint32_t* bp, uint32_t lb, uint32_t d) {
    uint32_t lo = d > lb ? d - lb : 0, hi = min(d, la);
    while (lo < hi) {
        const uint32_t m = lo + (hi - lo) / 2;
        if (pairLess(ac[m], ap[m], bc[d - 1 - m], bp[d - 1 - m]))
            lo = m + 1;
        else
            hi = m;
    }
    return lo;
}

// One merge pass over a run of `len` held as sorted sequences of `width`
// (a multiple of kMergeItems): each pair merged into dst, a last unpaired
// sequence copied.
__device__ void mergePass(const uint64_t* sc, const uint32_t* sp, uint64_t* dc, uint32_t* dp, uint32_t len,
                          uint32_t width) {
    for (uint32_t o = threadIdx.x * kMergeItems; o < len; o += blockDim.x * kMergeItems) {
        const uint32_t pair = o / (2 * width) * (2 * width);
        const uint32_t la = min(width, len - pair), lb = min(width, len - pair - la);
        const uint64_t *ac = sc + pair, *bc = ac + la;
        const uint32_t *ap = sp + pair, *bp = ap + la;
        uint32_t i = mergePath(ac, ap, la, bc, bp, lb, o - pair);
        uint32_t j = o - pair - i;
        const uint32_t end = min(o + kMergeItems, len);
        for (uint32_t q = o; q < end; ++q) {
            if (j >= lb || (i < la && pairLess(ac[i], ap[i], bc[j], bp[j]))) {
                dc[q] = ac[i];
                dp[q] = ap[i];
                ++i;
            } else {
                dc[q] = bc[j];
                dp[q] = bp[j];
                ++j;
            }
        }
    }
}

// A run of `len` at `start` by the block: pieces of kSplitBlockRun sorted in
// shared memory, then (longer runs) merged pass by pass between the sorted
// arrays and the scratch (__syncthreads makes a pass's global writes
// visible to the block).
__device__ void sortBlockRun(const SplitSortRuns& s, uint32_t start, uint32_t len, RunShared& shared) {
    const uint64_t high = uint64_t(s.sortedTops[start]) << kSplitTopShift;
    uint64_t* codes[2] = {s.sortedCodes + start, s.scratchCodes + start};
    uint32_t* prims[2] = {s.sortedPrim + start, s.scratchPrim + start};
    for (uint32_t p = 0; p < len; p += kSplitBlockRun)
        sortBlockPiece(s.codes, prims[0] + p, min(kSplitBlockRun, len - p), high, codes[0] + p, prims[0] + p, shared);
    int from = 0;
    for (uint32_t width = kSplitBlockRun; width < len; width *= 2) {
        mergePass(codes[from], prims[from], codes[1 - from], prims[1 - from], len, width);
        from = 1 - from;
        __syncthreads();
    }
    if (from == 1) {
        for (uint32_t t = threadIdx.x; t < len; t += blockDim.x) {
            codes[0][t] = codes[1][t];
            prims[0][t] = prims[1][t];
        }
        __syncthreads();
    }
}

// The listed runs: the blocks' runs first (the longest), a block each, then
// the warps' runs, a warp each (grid-stride over both lists).
__global__ void __launch_bounds__(kRunThreads) runsKernel(SplitSortRuns s) {
    extern __shared__ __align__(16) unsigned char sharedBytes[];
    RunShared& shared = *reinterpret_cast<RunShared*>(sharedBytes);
    const uint32_t* blockRuns = s.runList + 2 + 2 * splitSortWarpRunsMost(s.n);
    for (uint32_t r = blockIdx.x; r < s.runList[1]; r += gridDim.x)
        sortBlockRun(s, blockRuns[2 * r], blockRuns[2 * r + 1], shared);
    const uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const uint32_t* warpRuns = s.runList + 2;
    for (uint32_t r = blockIdx.x * kWarps + warp; r < s.runList[0]; r += gridDim.x * kWarps)
        sortWarpRun(s, warpRuns[2 * r], warpRuns[2 * r + 1], shared.warp[warp], lane);
}

// The runs kernel's dynamic shared memory past 48 KB, allowed once per device.
void allowRunsKernelShared(size_t bytes) {
    static std::atomic<uint64_t> allowed{0};  // bit d: device d (devices past 63 every time)
    int device = 0;
    STRATA_CUDA_CHECK(cudaGetDevice(&device));
    const uint64_t bit = device < 64 ? uint64_t(1) << device : 0;
    if (bit && (allowed.load(std::memory_order_relaxed) & bit)) return;
    STRATA_CUDA_CHECK(cudaFuncSetAttribute(runsKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
    allowed.fetch_or(bit, std::memory_order_relaxed);
}

}  // namespace

void launchSplitSortRuns(const SplitSortRuns& s, const char* label, const LaunchContext& ctx) {
    // The lists' counts are zero: build/morton cleared them.
    constexpr size_t kShared = sizeof(RunShared);
    const int sms = currentDeviceSmCount();
    allowRunsKernelShared(kShared);
    launch(ctx, label, perItem(s.n, 256), firstOfRunKernel, s);
    // Twice as many blocks as multiprocessors (as measured; at 64 registers a
    // thread one block of 1,024 is resident per multiprocessor, so the
    // second half waits for the first), no more than there can be warps'
    // runs for.
    const uint32_t mostRuns = uint32_t(splitSortWarpRunsMost(s.n));
    const uint32_t blocks = std::min((mostRuns + kWarps - 1) / kWarps, 2u * uint32_t(sms));
    launch(ctx, label, LaunchShape{dim3(blocks), dim3(kRunThreads), kShared}, runsKernel, s);
}

}  // namespace strata
