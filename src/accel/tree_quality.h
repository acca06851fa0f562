// accel/tree_quality.h — the current tree at a glance (the viewer's panel,
// bench): its SAH cost, depth and references per triangle, in the cost model
// validate uses for every structure (C_t = C_i = 1, areas relative to the
// root's, the root's own traversal not counted), so a BVH and a kd-tree
// over the same triangles compare.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "accel/bvh.h"
#include "accel/kdtree/kd_layout.h"
#include "accel/wide/cwbvh.h"

namespace strata {

struct TreeQuality {
    std::string structure;  // "binary BVH", "8-wide BVH", "kd-tree"; empty: not measured
    double sah = 0;
    uint32_t depth = 0;  // inner levels from the root to the deepest leaf
    double refsPerTriangle = 0;
    size_t nodes = 0;
    bool measured() const { return !structure.empty(); }
    std::string summary() const;  // "kd-tree: SAH 57.3, depth 47, 8.39 refs/triangle, 1342911 nodes"
};

// primBounds: the boxes the tree was built over (one per primitive).
TreeQuality bvhTreeQuality(const BvhView& bvh, const std::vector<Aabb>& primBounds);
TreeQuality kdTreeQuality(const KdView& kd, size_t triangles);
// accel.width = 8: the collapsed tree, its quantized boxes (host memory).
TreeQuality wideTreeQuality(const CwbvhView& wide, const std::vector<Aabb>& primBounds);

}  // namespace strata
