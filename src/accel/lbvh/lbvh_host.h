// accel/lbvh/lbvh_host.h — the LBVH of Karras 2012 built on the CPU with the
// same per-node code as the CUDA builder (accel/lbvh/karras.h), run
// sequentially: it lets CI test the hierarchy logic and is the oracle of the
// GPU builder's node-for-node test.
#pragma once

#include <vector>

#include "accel/cpu/sah_builder.h"

namespace strata {

struct LbvhHostResult {
    HostBvh bvh;
    std::vector<uint64_t> sortedKeys;  // 30-bit codes widen to 64 bits here
    std::vector<int32_t> parent;
};

// Scene box of primitive centroids, as the GPU's bounds stage computes it.
Aabb centroidBounds(const std::vector<Aabb>& primBounds);

LbvhHostResult buildLbvhHost(const std::vector<Aabb>& primBounds, int mortonBits);

}  // namespace strata
