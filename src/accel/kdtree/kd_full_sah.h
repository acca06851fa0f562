// accel/kdtree/kd_full_sah.h — a kd-tree built by the full SAH with perfect
// splits (Wald & Havran 2006, "On building fast kd-trees for ray tracing,
// and on doing that in O(N log^2 N)"): at every node every triangle's
// clipped bounds give candidate planes on all three axes, each costed
// exactly by a sweep, straddling triangles clipped to each child; a leaf
// when no plane costs less than intersecting all. No large-node stage, no
// median, no bins, no 64-triangle small roots.
//
// It is not a frame builder (sequential, seconds on 300K triangles): it is
// the quality reference that says what a kd-tree can be on given geometry,
// so that a gap between strata's kd-trees (Zhou08's two stages) and a BVH
// can be split into the builder's share and the data structure's.
// The tree has the layout and membership rules of the other kd builders
// (kd_layout.h, kdGoesLeft/kdGoesRight) and is traced by the same walk.
#pragma once

#include "accel/kdtree/kd_cpu_builder.h"

namespace strata {

struct KdFullSahConfig {
    float traversalCost = 1.0f;     // as KdConfig's, so the trees compare
    float intersectionCost = 1.5f;  // as KdConfig's
    float emptyBonus = 0.8f;        // Wald & Havran's lambda: a split with an empty side costs this fraction
    int maxDepth = kKdMaxDepth;
    uint32_t maxNodes = 0;  // 0: 64 per triangle + 4096 (its leaves are small and its empty cuts many)
    uint32_t maxRefs = 0;   // leaf references in all; 0: 32 per triangle + 8192 (over it: leaves)
};

HostKdTree buildKdTreeFullSah(const Vec3* pos, const Tri* tris, uint32_t numTris, const KdFullSahConfig& config = {});
inline HostKdTree buildKdTreeFullSah(const std::vector<Vec3>& pos, const std::vector<Tri>& tris,
                                     const KdFullSahConfig& config = {}) {
    return buildKdTreeFullSah(pos.data(), tris.data(), uint32_t(tris.size()), config);
}

}  // namespace strata
