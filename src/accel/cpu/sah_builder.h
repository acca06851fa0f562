// accel/cpu/sah_builder.h — the CPU reference BVH builder: binned SAH (Wald
// 2007) over primitive bounds. Small and obviously correct: it validates the
// GPU builders and is the structure of the CPU backend.
#pragma once

#include <cstdint>
#include <vector>

#include "accel/bvh.h"

namespace strata {

struct SahConfig {
    int bins = 16;
    int maxLeafSize = 4;
    float traversalCost = 1.0f;  // relative to one primitive test
    float intersectionCost = 1.0f;
};

struct HostBvh {
    std::vector<BvhNode> nodes;
    std::vector<uint32_t> primIndex;
    uint32_t root = 0;
    size_t bytes() const { return nodes.size() * sizeof(BvhNode) + primIndex.size() * sizeof(uint32_t); }
    BvhView view() const {
        BvhView v{nodes.data(), primIndex.data(), uint32_t(nodes.size()), uint32_t(primIndex.size())};
        v.root = root;
        return v;
    }
};

// Builders see only bounding boxes (and their centres), never triangles.
HostBvh buildSahBvh(const std::vector<Aabb>& primBounds, const SahConfig& config = {});

}  // namespace strata
