// accel/kdtree/kd_validate.h — the kd-tree checker: structural invariants of
// a KdNode tree against the triangles it was built from, and its SAH cost.
#pragma once

#include <string>
#include <vector>

#include "accel/kdtree/kd_rules.h"
#include "core/geometry.h"

namespace strata {

struct KdReport {
    bool ok = true;
    std::vector<std::string> errors;  // first few problems found
    uint32_t innerNodes = 0, leaves = 0, emptyLeaves = 0, maxDepth = 0, maxLeafSize = 0, refs = 0;
    uint32_t looseRefs = 0;  // references whose triangle misses the leaf cell (allowed: conservative leaves)
    float sahCost = 0;       // KdConfig's costs, cell areas relative to the root cell
};

// Checks: every node reachable from the root exactly once; child and
// primIndex indices in range; every split inside its cell (so the two child
// cells partition the parent); depth within kKdMaxDepth; the root cell holds
// every finite triangle; and every triangle that overlaps a leaf's cell
// (exact separating-axis test against the cell shrunk by a tolerance relative
// to the scene's coordinates) is referenced by that leaf.
KdReport validateKdTree(const KdView& kd, const std::vector<Vec3>& pos, const std::vector<Tri>& tris,
                        const KdConfig& costs = {});

// Separating-axis triangle/box overlap (Akenine-Möller 2001); the box is
// grown by `margin` on every side (shrunk when negative; empty then misses).
bool triangleOverlapsBox(Vec3 p0, Vec3 p1, Vec3 p2, const Aabb& box, float margin);

}  // namespace strata
