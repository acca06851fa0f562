// gpu/block_reduce.cuh — box unions across a warp and a block (the LBVH's
// centroid box, the instanced top level's per-instance boxes).
#pragma once

#include "core/aabb.h"

namespace strata {

// The union of the warp's boxes, in every lane (xor butterfly).
__device__ __forceinline__ void warpUnion(Aabb& b) {
    for (int d = 16; d >= 1; d >>= 1) {
        b.lo.x = fminf(b.lo.x, __shfl_xor_sync(0xffffffffu, b.lo.x, d));
        b.lo.y = fminf(b.lo.y, __shfl_xor_sync(0xffffffffu, b.lo.y, d));
        b.lo.z = fminf(b.lo.z, __shfl_xor_sync(0xffffffffu, b.lo.z, d));
        b.hi.x = fmaxf(b.hi.x, __shfl_xor_sync(0xffffffffu, b.hi.x, d));
        b.hi.y = fmaxf(b.hi.y, __shfl_xor_sync(0xffffffffu, b.hi.y, d));
        b.hi.z = fmaxf(b.hi.z, __shfl_xor_sync(0xffffffffu, b.hi.z, d));
    }
}

// The union of the block's boxes (Threads threads, a multiple of 32, all
// calling), returned in the first warp's lanes; the others get their warp's.
template <int Threads>
__device__ __forceinline__ Aabb blockUnion(Aabb b) {
    static_assert(Threads % 32 == 0 && Threads <= 1024, "whole warps, one block");
    __shared__ Aabb warps[Threads / 32];
    warpUnion(b);
    if ((threadIdx.x & 31) == 0) warps[threadIdx.x >> 5] = b;
    __syncthreads();
    if (threadIdx.x < 32) {
        b = threadIdx.x < Threads / 32 ? warps[threadIdx.x] : Aabb{};
        warpUnion(b);
    }
    return b;
}

}  // namespace strata
