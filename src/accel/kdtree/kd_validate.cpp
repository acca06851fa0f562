#include "accel/kdtree/kd_validate.h"

#include <algorithm>
#include <cstdio>
#include <unordered_set>

namespace strata {

bool triangleOverlapsBox(Vec3 p0, Vec3 p1, Vec3 p2, const Aabb& box, float margin) {
    const Vec3 c = box.center();
    Vec3 h = box.extent() * 0.5f + make3(margin);
    if (h.x < 0.0f || h.y < 0.0f || h.z < 0.0f) return false;
    Vec3 v[3] = {p0 - c, p1 - c, p2 - c};
    // Rescale to unit size so the cross and dot products neither underflow
    // (tiny scenes) nor overflow (enormous ones).
    float m = maxComponent(h);
    for (const Vec3& p : v) m = std::max(m, maxComponent(vmax(p, -p)));
    if (m > 0.0f) {
        const float s = 1.0f / m;
        h = h * s;
        for (Vec3& p : v) p = p * s;
    }
    auto separated = [&](Vec3 axis) {
        float a = dot(v[0], axis), b = dot(v[1], axis), d = dot(v[2], axis);
        float lo = std::min(a, std::min(b, d)), hi = std::max(a, std::max(b, d));
        float r = h.x * std::fabs(axis.x) + h.y * std::fabs(axis.y) + h.z * std::fabs(axis.z);
        return lo > r || hi < -r;
    };
    const Vec3 e[3] = {v[1] - v[0], v[2] - v[1], v[0] - v[2]};
    const Vec3 u[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (const Vec3& a : u)
        if (separated(a)) return false;
    if (separated(cross(e[0], e[1]))) return false;
    for (const Vec3& a : u)
        for (const Vec3& ed : e)
            if (separated(cross(a, ed))) return false;
    return true;
}

namespace {

struct Cell {
    uint32_t node;
    Aabb box;
    uint32_t depth;
};

}  // namespace

KdReport validateKdTree(const KdView& kd, const std::vector<Vec3>& pos, const std::vector<Tri>& tris,
                        const KdConfig& costs) {
    KdReport rep;
    auto fail = [&](const std::string& m) {
        rep.ok = false;
        if (rep.errors.size() < 8) rep.errors.push_back(m);
    };
    const uint32_t numTris = uint32_t(tris.size());
    Aabb scene;
    float maxAbs = 0.0f;
    std::vector<bool> finite(numTris);
    for (uint32_t t = 0; t < numTris; ++t) {
        Aabb b;
        for (int k = 0; k < 3; ++k) b.grow(pos[tris[t].v[k]]);
        finite[t] = isFinite(b.lo) && isFinite(b.hi);
        if (!finite[t]) continue;
        scene.grow(b);
        maxAbs = std::max({maxAbs, maxComponent(vmax(b.hi, -b.lo)), maxComponent(vmax(-b.hi, b.lo))});
    }
    if (kd.numNodes == 0) {
        if (!scene.isEmpty()) fail("empty tree over " + std::to_string(numTris) + " triangles");
        return rep;
    }
    const float tol = 1e-5f * std::max(maxAbs, maxComponent(scene.extent())) + 1e-30f;
    if (!scene.isEmpty()) {
        Aabb grown{kd.bounds.lo - make3(tol), kd.bounds.hi + make3(tol)};
        if (!grown.contains(scene)) fail("root cell does not contain every triangle");
    }

    // Walk: every node once, indices in range, splits inside cells, depth.
    std::vector<uint8_t> seen(kd.numNodes, 0);
    std::vector<Cell> leafCells;  // by node index via leafOf
    std::vector<int32_t> leafOf(kd.numNodes, -1);
    std::vector<Cell> stack{{0, kd.bounds, 0}};
    const float rootInv = 1.0f / std::max(maxComponent(kd.bounds.extent()), 1e-30f);
    const float rootArea = kdScaledArea(kd.bounds, rootInv);
    double sah = 0.0;
    while (!stack.empty()) {
        Cell c = stack.back();
        stack.pop_back();
        if (seen[c.node]++) {
            fail("node " + std::to_string(c.node) + " reached twice");
            continue;
        }
        rep.maxDepth = std::max(rep.maxDepth, c.depth);
        const KdNode n = kd.nodes[c.node];
        const double rel = rootArea > 0 ? kdScaledArea(c.box, rootInv) / rootArea : 0.0;
        if (n.isLeaf()) {
            const uint64_t first = n.firstPrim(), count = n.primCount();
            rep.leaves++;
            rep.emptyLeaves += count == 0;
            rep.maxLeafSize = std::max(rep.maxLeafSize, uint32_t(count));
            rep.refs += uint32_t(count);
            sah += costs.intersectionCost * double(count) * rel;
            if (first + count > kd.numRefs) {
                fail("leaf " + std::to_string(c.node) + " range [" + std::to_string(first) + ", +" +
                     std::to_string(count) + ") past primIndex size " + std::to_string(kd.numRefs));
                continue;
            }
            for (uint64_t k = first; k < first + count; ++k)
                if (kd.primIndex[k] >= numTris)
                    fail("leaf " + std::to_string(c.node) + " references triangle " + std::to_string(kd.primIndex[k]) +
                         " of " + std::to_string(numTris));
            leafOf[c.node] = int32_t(leafCells.size());
            leafCells.push_back(c);
            continue;
        }
        rep.innerNodes++;
        sah += costs.traversalCost * rel;
        const int a = n.axis();
        const float s = n.split();
        if (!(s >= c.box.lo[a] && s <= c.box.hi[a])) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "node %u split %g on axis %d outside its cell [%g, %g]", c.node, s, a,
                          c.box.lo[a], c.box.hi[a]);
            fail(buf);
        }
        if (uint64_t(n.leftChild()) + 1 >= kd.numNodes) {
            fail("node " + std::to_string(c.node) + " children " + std::to_string(n.leftChild()) + "+1 past " +
                 std::to_string(kd.numNodes) + " nodes");
            continue;
        }
        if (c.depth + 1 > uint32_t(kKdMaxDepth)) {
            fail("node " + std::to_string(c.node) + " deeper than the cap " + std::to_string(kKdMaxDepth));
            continue;
        }
        stack.push_back({n.rightChild(), kdChildCell(c.box, a, s, true), c.depth + 1});
        stack.push_back({n.leftChild(), kdChildCell(c.box, a, s, false), c.depth + 1});
    }
    for (uint32_t i = 0; i < kd.numNodes; ++i)
        if (!seen[i]) {
            fail("node " + std::to_string(i) + " unreachable");
            break;
        }
    rep.sahCost = float(sah);
    if (!rep.ok) return rep;  // coverage needs a sound structure

    // Coverage: descend each triangle into every cell it overlaps (shrunk by
    // the tolerance) and require it in every leaf reached.
    std::vector<std::unordered_set<uint32_t>> members(leafCells.size());
    for (size_t l = 0; l < leafCells.size(); ++l) {
        const KdNode n = kd.nodes[leafCells[l].node];
        for (uint32_t k = 0; k < n.primCount(); ++k) members[l].insert(kd.primIndex[n.firstPrim() + k]);
    }
    uint64_t missing = 0;
    std::vector<Cell> work;
    for (uint32_t t = 0; t < numTris; ++t) {
        if (!finite[t]) continue;
        const Vec3 p0 = pos[tris[t].v[0]], p1 = pos[tris[t].v[1]], p2 = pos[tris[t].v[2]];
        work.assign(1, {0, kd.bounds, 0});
        while (!work.empty()) {
            Cell c = work.back();
            work.pop_back();
            if (!triangleOverlapsBox(p0, p1, p2, c.box, -tol)) continue;
            const KdNode n = kd.nodes[c.node];
            if (n.isLeaf()) {
                if (!members[size_t(leafOf[c.node])].count(t) && missing++ < 4)
                    fail("triangle " + std::to_string(t) + " overlaps leaf " + std::to_string(c.node) +
                         "'s cell but is not referenced by it");
                continue;
            }
            work.push_back({n.leftChild(), kdChildCell(c.box, n.axis(), n.split(), false), 0});
            work.push_back({n.rightChild(), kdChildCell(c.box, n.axis(), n.split(), true), 0});
        }
    }
    if (missing > 4) fail(std::to_string(missing) + " missing references in all");
    for (size_t l = 0; l < leafCells.size(); ++l)
        for (uint32_t t : members[l]) {
            const Vec3 p0 = pos[tris[t].v[0]], p1 = pos[tris[t].v[1]], p2 = pos[tris[t].v[2]];
            rep.looseRefs += !triangleOverlapsBox(p0, p1, p2, leafCells[l].box, tol);
        }
    return rep;
}

}  // namespace strata
