// accel/kdtree/kd_rules.h — the decisions both kd-tree builders (CPU
// reference, GPU Zhou08) make identically: build parameters, which side of a
// split plane a triangle's bounds go to, the empty-space cut and the SAH.
#pragma once

#include <cstdint>

#include "accel/kdtree/kd_layout.h"

namespace strata {

struct KdConfig {
    uint32_t smallNodeMax = 64;      // Zhou08: nodes of <= 64 triangles go to the small-node stage (64-bit masks)
    float emptySpaceRatio = 0.25f;   // Zhou08: cut off an empty slab wider than 25% of the node
    float traversalCost = 1.0f;      // SAH, relative units
    float intersectionCost = 1.5f;
    int maxDepth = kKdMaxDepth;      // nodes at this depth become leaves (with a message)
    uint32_t maxStalls = 2;          // GPU large-node stage: a node given every triangle of its parent
                                     // more often than this in a row is a leaf (see kd_gpu.cu)
    uint32_t maxNodes = 0;           // 0: 8 * triangles + 4096 (over it: remaining nodes become leaves)
    uint32_t maxRefs = 0;            // 0: 16 * triangles + 4096 (large-node stage duplicates by clipping)
};

STRATA_HD uint32_t kdNodeBudget(const KdConfig& c, uint32_t numTris) {
    uint64_t v = c.maxNodes ? c.maxNodes : 8ull * numTris + 4096;
    return uint32_t(v < kKdMaxField ? v : kKdMaxField);
}
STRATA_HD uint32_t kdRefBudget(const KdConfig& c, uint32_t numTris) {
    uint64_t v = c.maxRefs ? c.maxRefs : 16ull * numTris + 4096;
    return uint32_t(v < kKdMaxField ? v : kKdMaxField);
}

// Side of a split plane p for a triangle whose bounds on the split axis are
// [lo, hi] (the chapter's appendix kernel): left when it starts below p,
// right when it ends above p or starts at p (a triangle lying in the plane
// goes right). A triangle touching p from one side is not referenced by the
// other cell; the traversal visits both cells of a ray lying in a plane.
STRATA_HD bool kdGoesLeft(float lo, float /*hi*/, float p) { return lo < p; }
STRATA_HD bool kdGoesRight(float lo, float hi, float p) { return lo >= p || hi > p; }

// Zhou08 large-node stage, empty-space cutting: the plane that cuts off the
// empty slab on one side (side 0: below the triangles, 1: above), or false.
STRATA_HD bool kdEmptyCut(const Aabb& cell, const Aabb& tris, int axis, int side, float ratio, float& plane) {
    const float ext = cell.hi[axis] - cell.lo[axis];
    const float gap = side == 0 ? tris.lo[axis] - cell.lo[axis] : cell.hi[axis] - tris.hi[axis];
    plane = side == 0 ? tris.lo[axis] : tris.hi[axis];
    return gap > ratio * ext && plane > cell.lo[axis] && plane < cell.hi[axis];
}

// SAH cost of splitting a cell of area `area` into children of areas aL, aR
// holding nL, nR triangles (the leaf costs intersectionCost * n).
STRATA_HD float kdSplitCost(const KdConfig& c, float area, float aL, float aR, uint32_t nL, uint32_t nR) {
    return c.traversalCost + c.intersectionCost * (aL * float(nL) + aR * float(nR)) / area;
}

STRATA_HD Aabb kdChildCell(const Aabb& cell, int axis, float split, bool right) {
    Aabb c = cell;
    if (right) c.lo[axis] = split;
    else c.hi[axis] = split;
    return c;
}

}  // namespace strata

namespace strata {

// Surface area up to a constant factor, of the box scaled by `invScale` (the
// inverse of the parent's largest extent), so the SAH neither overflows on
// enormous scenes nor underflows on tiny ones.
STRATA_HD float kdScaledArea(const Aabb& b, float invScale) {
    Vec3 e = (b.hi - b.lo) * invScale;
    return e.x * e.y + e.y * e.z + e.z * e.x;
}

}  // namespace strata
