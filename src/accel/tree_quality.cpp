#include "accel/tree_quality.h"

#include <algorithm>
#include <cstdio>

#include "accel/bvh_validate.h"
#include "accel/kdtree/kd_quality.h"
#include "accel/kdtree/kd_rules.h"
#include "accel/wide/collapse_host.h"

namespace strata {

std::string TreeQuality::summary() const {
    if (!measured()) return "not measured";
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s: SAH %.1f, depth %u, %.2f refs/triangle, %zu nodes", structure.c_str(), sah,
                  depth, refsPerTriangle, nodes);
    return buf;
}

TreeQuality bvhTreeQuality(const BvhView& bvh, const std::vector<Aabb>& primBounds) {
    TreeQuality q;
    q.structure = "binary BVH";
    const BvhReport r = validateBvh(bvh, primBounds);
    q.sah = r.sahCost;
    q.depth = r.maxDepth;
    q.nodes = bvh.numNodes;
    q.refsPerTriangle = primBounds.empty() ? 0.0 : double(bvh.numPrims) / double(primBounds.size());
    return q;
}

TreeQuality wideTreeQuality(const CwbvhView& wide, const std::vector<Aabb>& primBounds) {
    TreeQuality q;
    q.structure = "8-wide BVH";
    const CwbvhReport r = validateCwbvh(wide, primBounds);
    q.sah = r.sahCost;
    q.depth = r.maxDepth;
    q.nodes = r.nodes;
    q.refsPerTriangle = primBounds.empty() ? 0.0 : double(wide.numPrims) / double(primBounds.size());
    return q;
}

TreeQuality kdTreeQuality(const KdView& kd, size_t triangles) {
    TreeQuality q;
    q.structure = "kd-tree";
    q.sah = kdSahCost(kd, 1.0, 1.0);
    q.nodes = kd.numNodes;
    q.refsPerTriangle = triangles ? double(kd.numRefs) / double(triangles) : 0.0;
    struct Entry {
        uint32_t node, depth;
    };
    std::vector<Entry> stack;
    if (kd.numNodes) stack.push_back({0, 0});
    while (!stack.empty()) {
        const Entry e = stack.back();
        stack.pop_back();
        if (e.node >= kd.numNodes || e.depth > uint32_t(kKdMaxDepth)) continue;  // validateKdTree reports such trees
        const KdNode& n = kd.nodes[e.node];
        if (n.isLeaf()) {
            q.depth = std::max(q.depth, e.depth);
            continue;
        }
        stack.push_back({n.leftChild(), e.depth + 1});
        stack.push_back({n.rightChild(), e.depth + 1});
    }
    return q;
}

}  // namespace strata
