// accel/lbvh/hploc_gpu.h — H-PLOC on the GPU (accel/lbvh/hploc.h): one
// kernel after LbvhBuilder's bounds/morton/sort stages. Each thread starts
// at a sorted leaf and climbs Apetrei's LBVH (apetrei.h's hand-over through
// the store array); whenever a thread completes a range of more than
// kHplocThreshold leaves, its whole warp loads the two halves' clusters and
// merges them by PLOC rounds, one range at a time ("build/hierarchy").
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "accel/bvh.h"
#include "accel/lbvh/apetrei_gpu.h"
#include "gpu/launch_context.h"

namespace strata {

// nodes: n-1 BvhNodes, numbered as hploc.h says. store: n-1 entries, all ◇
// (-1) on entry, left so. slots: 2n float4, the n cluster slots with their
// boxes (no state between builds). root: the root's index, written.
void launchHploc(const LbvhSortedLeaves& in, BvhNode* nodes, int32_t* store, float4* slots, uint32_t* root,
                 const LaunchContext& ctx);

}  // namespace strata
