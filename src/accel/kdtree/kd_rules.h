// accel/kdtree/kd_rules.h — the decisions both kd-tree builders (CPU
// reference, GPU Zhou08) make identically: build parameters, which side of a
// split plane a triangle's bounds go to, the empty-space cut and the SAH.
#pragma once

#include <cmath>
#include <cstdint>

#include "accel/kdtree/kd_layout.h"
#include "core/kd_opts.h"

namespace strata {

struct KdConfig {
    // Table 13.1's [A]-[E] (GPU builder; the tree is the same with any set).
    KdOpts opts;
    uint32_t smallNodeMax = 64;     // Zhou08: nodes of <= 64 triangles go to the small-node stage (64-bit masks)
    float emptySpaceRatio = 0.25f;  // Zhou08: cut off an empty slab wider than 25% of the node
    float traversalCost = 1.0f;     // SAH, relative units
    float intersectionCost = 1.5f;
    int maxDepth = kKdMaxDepth;   // nodes at this depth become leaves (with a message)
    uint32_t maxStalls = 2;       // large-node stage: splits in a row that do not pay (kdLargeStep)
    float largeSplitGain = 0.9f;  // large-node stage: a split pays when its SAH cost is below this
                                  // fraction of the leaf's (kdLargeStep)
    uint32_t maxNodes = 0;        // 0: 8 * triangles + 4096 (over it: remaining nodes become leaves)
    // GPU large-node stage scheduling (strata's, accel.kd_lookahead; the tree
    // is the same): levels the host enqueues before it reads a level's sizes
    // back, up to kKdMaxLookahead, the level sizes staying on the device and
    // the segmented scans and reductions strata's own kernels that read them
    // there. 0: a host round trip per level and CUB's segmented scans and
    // reductions sized by the host, as Zhou08 with CUDPP.
    uint32_t lookahead = 0;
    // GPU small-node stage (strata's, accel.kd_small = subtree; the tree is
    // the same): one block builds a small root's whole subtree in shared
    // memory in one launch. Off (zhou): Zhou08's level-by-level stage, one
    // launch and one host round trip per level over all small nodes.
    bool snsSubtree = false;
    // Large-node split plane (strata's, accel.kd_large_split = sah; both
    // builders): the binned SAH over kKdBins bins per axis of the node's
    // triangle box (kdBinnedSplit). Off: Zhou08's spatial median of the
    // box's longest axis.
    bool largeSah = false;
    // GPU small-node stage (strata's, accel.kd_sns_compact; the tree is the
    // same): a node's candidates from a compact list of its triangles, and
    // the SAH minimum by warp shuffles. Off: every root candidate's mask bit
    // tested, a shared-memory tree reduction (Zhou08, Table 13.1's [E] too).
    bool snsCompact = false;
    // Small-node stage leaves clipped to their cells (strata's,
    // accel.kd_clip_leaves; both builders): a leaf the SAH makes keeps only
    // the triangles that cross its cell (triangleInCell); the splits are
    // Zhou08's. Off: Zhou08's masks from the bounds at the small root keep a
    // triangle in every leaf those bounds reach. (Deciding every small node
    // with its triangles clipped to its cell was tried: with a clip that
    // loses no touching triangle it traced more triangles per ray than
    // Zhou08's masks on the real Sponza, the Conference room and the forest.)
    bool clipLeaves = false;
    uint32_t maxRefs = 0;  // 0: 8 * triangles + 8192 references in one level of the large-node
                           // stage, counted as 2 per triangle of each node split (Fig. 13.2)
};

constexpr uint32_t kKdMaxLookahead = 2;

STRATA_HD uint32_t kdNodeBudget(const KdConfig& c, uint32_t numTris) {
    uint64_t v = c.maxNodes ? c.maxNodes : 8ull * numTris + 4096;
    return uint32_t(v < kKdMaxField ? v : kKdMaxField);
}
STRATA_HD uint32_t kdRefBudget(const KdConfig& c, uint32_t numTris) {
    uint64_t v = c.maxRefs ? c.maxRefs : 8ull * numTris + 8192;
    return uint32_t(v < kKdMaxField ? v : kKdMaxField);
}

// Side of a split plane p for a triangle whose bounds on the split axis are
// [lo, hi] (the chapter's appendix kernel): left when it starts below p,
// right when it ends above p or starts at p (a triangle lying in the plane
// goes right). A triangle touching p from one side is not referenced by the
// other cell; the traversal visits both cells of a ray lying in a plane.
STRATA_HD bool kdGoesLeft(float lo, float /*hi*/, float p) { return lo < p; }
STRATA_HD bool kdGoesRight(float lo, float hi, float p) { return lo >= p || hi > p; }

// Zhou08 small-node stage: the split candidates of a triangle on one axis
// are its bounds' min and max there. A triangle flat on that axis (lo == hi:
// a wall, a floor) gets the planes one float below and above it instead, so
// a split can cut it off in a slab of its own on either side; at its own
// plane it could only go right, and a wall on a cell's face (the walls of a
// room) could never be separated from the empty space in front of it
// (coplanar walls: SAH 4.6x the binned-SAH BVH's without this).
STRATA_HD float kdCandidatePlane(float lo, float hi, bool isMax) {
    if (lo < hi) return isMax ? hi : lo;
    return isMax ? nextafterf(hi, INFINITY) : nextafterf(lo, -INFINITY);
}

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

// Surface area up to a constant factor, of the box scaled by `invScale` (the
// inverse of the parent's largest extent), so the SAH neither overflows on
// enormous scenes nor underflows on tiny ones.
STRATA_HD float kdScaledArea(const Aabb& b, float invScale) {
    Vec3 e = (b.hi - b.lo) * invScale;
    return e.x * e.y + e.y * e.z + e.z * e.x;
}

STRATA_HD Aabb kdChildCell(const Aabb& cell, int axis, float split, bool right) {
    Aabb c = cell;
    if (right)
        c.lo[axis] = split;
    else
        c.hi[axis] = split;
    return c;
}

// Binned SAH for the large-node stage (strata's, KdConfig::largeSah). Each
// triangle (its clipped box) counts in the bin of its box's low end and in
// the bin of its high end, per axis, kKdBins equal bins over the node's
// triangle box; the candidate planes are the inner bin boundaries. The two
// builders must bin alike, so the arithmetic is spelled out without fused
// multiply-adds (core/hd.h's mulRn, addRn: the GPU would contract `a + b * c`).
constexpr int kKdBins = 32;

// Bins per unit length over an extent (0 for an empty extent: no bins).
STRATA_HD float kdBinScale(float ext) { return ext > 0.0f ? float(kKdBins) / ext : 0.0f; }

// The bin of coordinate x of a box whose low end on this axis is lo.
STRATA_HD int kdBin(float x, float lo, float scale) {
    const float f = mulRn(addRn(x, -lo), scale);
    const int b = f > 0.0f ? int(f) : 0;
    return b < kKdBins ? b : kKdBins - 1;
}

// Plane of the boundary below bin i (1 .. kKdBins - 1).
STRATA_HD float kdBinPlane(float lo, float ext, int i) { return addRn(lo, mulRn(ext, float(i) / float(kKdBins))); }

// The SAH cost of cutting `cell` at the boundary below bin i (1 .. kKdBins
// - 1) of axis a, with nL triangles starting below it and nR ending above;
// false when the plane is not inside the cell. area and inv as kdLargeStep
// computes them for the cell.
STRATA_HD bool kdBinCost(const KdConfig& c, const Aabb& cell, float area, float inv, const Aabb& tight, int a, int i,
                         uint32_t nL, uint32_t nR, float& cost) {
    const float ext = tight.hi[a] - tight.lo[a];
    if (!(ext > 0.0f)) return false;
    const float p = kdBinPlane(tight.lo[a], ext, i);
    if (!(p > cell.lo[a] && p < cell.hi[a])) return false;
    cost = kdSplitCost(c, area, kdScaledArea(kdChildCell(cell, a, p, false), inv),
                       kdScaledArea(kdChildCell(cell, a, p, true), inv), nL, nR);
    return true;
}

// The cheapest bin boundary over the three axes by SAH, the cell being cut:
// starts[axis * kKdBins + b] counts the triangles whose box starts in bin b,
// ends[...] those whose box ends in it. Ties go to the lower axis, then the
// lower boundary (the GPU's warp-parallel search keeps this order). False
// when no boundary lies inside the cell.
STRATA_HD bool kdBinnedSplit(const KdConfig& c, const Aabb& cell, const Aabb& tight, const uint32_t* starts,
                             const uint32_t* ends, uint32_t n, int& axis, float& plane) {
    const float maxExt = maxComponent(cell.extent());
    const float inv = maxExt > 0.0f ? 1.0f / maxExt : 0.0f;
    const float area = kdScaledArea(cell, inv);
    float best = 3.0e38f;
    bool found = false;
    for (int a = 0; a < 3; ++a) {
        uint32_t nL = 0, nR = n;
        for (int i = 1; i < kKdBins; ++i) {
            nL += starts[a * kKdBins + i - 1];  // boxes starting below the boundary
            nR -= ends[a * kKdBins + i - 1];    // boxes ending below it
            float cost;
            if (kdBinCost(c, cell, area, inv, tight, a, i, nL, nR, cost) && cost < best) {
                best = cost, axis = a, plane = kdBinPlane(tight.lo[a], tight.hi[a] - tight.lo[a], i);
                found = true;
            }
        }
    }
    return found;
}

// When the large-node stage stops. Zhou08 splits a large node at the median
// until it is small; it has no other rule, so a node whose triangles all
// reach the median (the fan around a vertex shared by more than
// smallNodeMax triangles) would be split to the depth cap, duplicating its
// triangles at every level. strata's rule, after the split's triangles are
// counted (with clipping) and before the children exist:
//   - a split that separates nothing (both children keep all n) is not made;
//   - a split pays when its SAH cost is below largeSplitGain (0.9) of the
//     leaf's. One that does not pay is made (later splits of the smaller
//     cells may), but after maxStalls of them in a row the next one that
//     does not pay is not made.
// A split not made leaves the node one leaf with all its triangles. Counting
// stalls by the SAH and not by "a child kept every triangle" matters on
// real models: a dense cluster with a few long triangles reaching out of it
// gives one child every triangle split after split while the cell shrinks
// to the cluster (Conference: a leaf of 108,816 triangles). The 10% margin
// ends the chain around the apex of a fan, where each halving leaves the
// apex's cell every triangle and the other cell about half of them: a gain
// of a few percent per level, 34 levels to the depth cap without it (the
// Conference tree is the same with and without it: SAH 56.8).
struct KdLargeStep {
    bool split;       // make the split; otherwise the node is a leaf
    uint32_t stalls;  // the children's count of splits in a row that did not pay
};
STRATA_HD KdLargeStep kdLargeStep(const KdConfig& c, const Aabb& cell, int axis, float plane, uint32_t n, uint32_t nL,
                                  uint32_t nR, uint32_t stalls) {
    if (nL >= n && nR >= n) return {false, stalls};
    const float maxExt = maxComponent(cell.extent());
    const float inv = maxExt > 0.0f ? 1.0f / maxExt : 0.0f;
    const float area = kdScaledArea(cell, inv);
    const bool pays = area > 0.0f && kdSplitCost(c, area, kdScaledArea(kdChildCell(cell, axis, plane, false), inv),
                                                 kdScaledArea(kdChildCell(cell, axis, plane, true), inv), nL,
                                                 nR) < c.largeSplitGain * c.intersectionCost * float(n);
    if (pays) return {true, 0u};
    return {stalls < c.maxStalls, stalls + 1};
}

}  // namespace strata
