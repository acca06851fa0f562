// accel/lbvh/lbvh_host.h — the LBVHs built on the CPU with the same
// host-device code as the CUDA builder (accel/lbvh/karras.h, apetrei.h,
// apetrei_skip.h), run sequentially with the CAS shim: it lets CI test the
// hierarchy logic, is the oracle of the GPU builder's node-for-node tests,
// and is the CPU backend's LBVH.
#pragma once

#include <vector>

#include "accel/cpu/sah_builder.h"
#include "accel/lbvh/lbvh_variant.h"

namespace strata {

struct LbvhHostConfig {
    LbvhVariant variant = LbvhVariant::Karras;
    // Nonzero: the bottom-up pass takes the leaves in an order shuffled with
    // this seed, as GPU threads may arrive in any order (the result must not
    // depend on it).
    uint32_t leafOrderSeed = 0;
};

struct LbvhHostResult {
    HostBvh bvh;                           // BvhNodes from bvh.root; sorted primitive order
    std::vector<StacklessNode> skipNodes;  // lbvh-skip: the skip-link layout (2n-1 nodes)
    std::vector<uint64_t> sortedKeys;      // 30-bit codes widen to 64 bits here
    std::vector<int32_t> parent;           // lbvh-karras: parent entries of nodes, then of leaves (karras.h)
};

// Scene box of primitive centroids, as the GPU's bounds stage computes it.
Aabb centroidBounds(const std::vector<Aabb>& primBounds);

LbvhHostResult buildLbvhHost(const std::vector<Aabb>& primBounds, int mortonBits, const LbvhHostConfig& config = {});
inline LbvhHostResult buildLbvhHost(const std::vector<Aabb>& primBounds, int mortonBits, LbvhVariant variant) {
    LbvhHostConfig c;
    c.variant = variant;
    return buildLbvhHost(primBounds, mortonBits, c);
}

}  // namespace strata
