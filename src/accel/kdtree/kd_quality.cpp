#include "accel/kdtree/kd_quality.h"

#include <algorithm>
#include <cstdio>

#include "accel/bvh_validate.h"
#include "accel/cpu/sah_builder.h"
#include "accel/kdtree/kd_rules.h"

namespace strata {

double kdSahCost(const KdView& kd, double ct, double ci) {
    if (kd.numNodes == 0) return 0.0;
    struct Cell {
        uint32_t node;
        Aabb box;
        int depth;
    };
    const float inv = 1.0f / std::max(maxComponent(kd.bounds.extent()), 1e-30f);
    const double rootArea = kdScaledArea(kd.bounds, inv);
    if (!(rootArea > 0.0)) return 0.0;
    double sum = 0.0;
    std::vector<Cell> stack{{0, kd.bounds, 0}};
    while (!stack.empty()) {
        const Cell c = stack.back();
        stack.pop_back();
        if (c.node >= kd.numNodes) continue;  // validateKdTree reports it
        const KdNode n = kd.nodes[c.node];
        const double area = kdScaledArea(c.box, inv);
        if (n.isLeaf()) {
            sum += ci * double(n.primCount()) * area;
            continue;
        }
        if (c.node != 0) sum += ct * area;
        if (c.depth >= kKdMaxDepth) continue;  // a cycle or a tree past the cap: validateKdTree reports it
        stack.push_back({n.leftChild(), kdChildCell(c.box, n.axis(), n.split(), false), c.depth + 1});
        stack.push_back({n.rightChild(), kdChildCell(c.box, n.axis(), n.split(), true), c.depth + 1});
    }
    return sum / rootArea;
}

std::string KdQuality::summary() const {
    char buf[200];
    std::snprintf(buf, sizeof buf, "SAH %.1f = %.2fx the binned-SAH BVH's (%.1f), %.2f refs/triangle", kdSah, ratio(),
                  bvhSah, refsPerTriangle());
    return buf;
}

std::string KdQuality::warning() const {
    if (!degraded()) return {};
    char buf[240];
    std::snprintf(buf, sizeof buf,
                  "the kd-tree has degraded: its SAH cost is %.1fx the binned-SAH BVH's (%.1f against %.1f; "
                  "%.0fx or more means its traces will be slow)",
                  ratio(), kdSah, bvhSah, kKdSahWarnRatio);
    return buf;
}

KdQuality measureKdQuality(const KdView& kd, const std::vector<Aabb>& triBounds) {
    KdQuality q;
    q.kdSah = kdSahCost(kd, 1.0, 1.0);
    q.refs = kd.numRefs;
    q.triangles = uint32_t(triBounds.size());
    SahConfig unit;
    unit.traversalCost = unit.intersectionCost = 1.0f;
    const HostBvh bvh = buildSahBvh(triBounds, unit);
    q.bvhSah = validateBvh(bvh.view(), triBounds).sahCost;
    return q;
}

KdComparison compareKdTrees(const KdView& a, const KdView& b) {
    KdComparison r;
    auto differ = [&](uint32_t na, const char* what) {
        if (r.differing++ == 0) r.first = "node " + std::to_string(na) + ": " + what;
    };
    if (a.numNodes == 0 || b.numNodes == 0) {
        if (a.numNodes != b.numNodes) differ(0, "one tree is empty");
        return r;
    }
    struct Pair {
        uint32_t a, b;
        int depth;
    };
    std::vector<Pair> stack{{0u, 0u, 0}};
    std::vector<uint32_t> la, lb;
    while (!stack.empty()) {
        const auto [ia, ib, depth] = stack.back();
        stack.pop_back();
        if (ia >= a.numNodes || ib >= b.numNodes) {
            differ(ia, "child index out of range");
            continue;
        }
        ++r.nodes;
        const KdNode na = a.nodes[ia], nb = b.nodes[ib];
        if (na.isLeaf() != nb.isLeaf()) {
            differ(ia, na.isLeaf() ? "leaf in the first tree, inner in the second"
                                   : "inner in the first tree, leaf in the second");
            continue;
        }
        if (na.isLeaf()) {
            la.assign(a.primIndex + std::min(na.firstPrim(), a.numRefs),
                      a.primIndex + std::min(na.firstPrim() + na.primCount(), a.numRefs));
            lb.assign(b.primIndex + std::min(nb.firstPrim(), b.numRefs),
                      b.primIndex + std::min(nb.firstPrim() + nb.primCount(), b.numRefs));
            std::sort(la.begin(), la.end());
            std::sort(lb.begin(), lb.end());
            if (la != lb) differ(ia, "leaves hold different triangles");
            continue;
        }
        if (na.axis() != nb.axis() || na.split() != nb.split()) {
            differ(ia, "different split planes");
            continue;
        }
        if (depth >= kKdMaxDepth) {
            differ(ia, "deeper than the depth cap");
            continue;
        }
        stack.push_back({na.rightChild(), nb.rightChild(), depth + 1});
        stack.push_back({na.leftChild(), nb.leftChild(), depth + 1});
    }
    return r;
}

}  // namespace strata
