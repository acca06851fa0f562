// accel/kdtree/kd_quality.h — is a kd-tree a good tree? Its SAH cost next to
// the binned-SAH BVH's over the same triangles in one cost model, its
// references per triangle, and a node-for-node comparison of two kd-trees
// (the CPU reference against the GPU build).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "accel/kdtree/kd_layout.h"

namespace strata {

// SAH cost of a kd-tree with traversal cost ct per inner node and ci per leaf
// reference, areas relative to the root cell's. The root's own traversal is
// not counted, as validateBvh counts a BVH's (so the two compare).
double kdSahCost(const KdView& kd, double ct, double ci);

// A kd-tree's SAH is this many times the binned-SAH BVH's or more: the tree
// has degraded (the number validate and bench warn at).
constexpr double kKdSahWarnRatio = 3.0;

struct KdQuality {
    double kdSah = 0.0, bvhSah = 0.0;  // C_t = C_i = 1, relative to each root's area
    uint32_t refs = 0, triangles = 0;
    double ratio() const { return bvhSah > 0.0 ? kdSah / bvhSah : 0.0; }
    double refsPerTriangle() const { return triangles ? double(refs) / triangles : 0.0; }
    bool degraded() const { return ratio() >= kKdSahWarnRatio; }
    std::string summary() const;  // "SAH 59.4 = 1.49x the binned-SAH BVH's (39.8), 7.87 refs/triangle"
    std::string warning() const;  // empty unless degraded()
};

// triBounds: the bounds of the triangles the kd-tree was built over (one per
// triangle, as the BVH builders take them).
KdQuality measureKdQuality(const KdView& kd, const std::vector<Aabb>& triBounds);

struct KdComparison {
    uint32_t nodes = 0;      // nodes of `a` visited
    uint32_t differing = 0;  // nodes whose kind, axis, split or leaf set differ (their subtrees are not visited)
    std::string first;       // the first difference, in words
    bool same() const { return differing == 0; }
};

// Walks both trees from the root together; leaves compare as sets of
// primitive ids. Child indices may differ (builders allocate in any order).
KdComparison compareKdTrees(const KdView& a, const KdView& b);

}  // namespace strata
