// gpu/block_scan.cuh — the plain block-wide scan (Hillis & Steele) that the
// builders' bookkeeping kernels share. The kd-tree's [B]/[E] scans, which
// are Table 13.1's experiment, stay in accel/kdtree/kd_gpu_primitives.cuh.
#pragma once

#include <cstdint>

namespace strata {

// Inclusive scan of tile[0 .. n) in shared memory, in place. Every thread of
// the block calls it (n = blockDim.x, or a constant equal to it), having
// written tile[threadIdx.x] and synchronised.
__device__ __forceinline__ void blockInclusiveScan(uint32_t* tile, uint32_t n) {
    for (uint32_t d = 1; d < n; d <<= 1) {
        const uint32_t v = threadIdx.x >= d ? tile[threadIdx.x - d] : 0u;
        __syncthreads();
        tile[threadIdx.x] += v;
        __syncthreads();
    }
}

}  // namespace strata
