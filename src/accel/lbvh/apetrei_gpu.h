// accel/lbvh/apetrei_gpu.h — the single bottom-up pass of Apetrei's
// algorithm (Algorithm 3, lbvh-apetrei) and of the modified one with skip
// links (Algorithm 4, lbvh-skip), one CUDA thread per leaf, over the sorted
// Morton codes of LbvhBuilder's bounds/morton/sort stages. Each launch is one
// kernel (the hierarchy and the boxes together: the "build/hierarchy" stage).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "accel/bvh.h"
#include "gpu/launch_context.h"

namespace strata {

struct LbvhSortedLeaves {
    const void* keys;  // n sorted Morton codes: uint64_t if wide, else uint32_t
    bool wide;
    uint32_t n;
    const Aabb* primBounds;      // per primitive, unsorted
    const uint32_t* sortedPrim;  // sorted position -> primitive id
    // strata's: the votes of parents whose range lies within a block's
    // leaves in shared memory (lbvh_block.cuh; the same tree). Off: in
    // global memory, as published.
    bool blockHandOver = false;
};

// Apetrei's ordering: n-1 BvhNodes (node p = split p), root index to *root.
// store: n-1 entries, all ◇ (-1) on entry, left so.
void launchApetreiBottomUp(const LbvhSortedLeaves& in, BvhNode* nodes, int32_t* store, uint32_t* root,
                           const LaunchContext& ctx);

// Karras's ordering: the 2n-1 skip-link nodes and the n-1 BvhNodes.
void launchApetreiSkipBottomUp(const LbvhSortedLeaves& in, StacklessNode* skipNodes, BvhNode* nodes, int32_t* store,
                               const LaunchContext& ctx);

}  // namespace strata
