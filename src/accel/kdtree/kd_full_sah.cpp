#include "accel/kdtree/kd_full_sah.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "accel/kdtree/kd_clip.h"

namespace strata {
namespace {

struct Ref {
    uint32_t tri;
    Aabb box;  // the triangle clipped to the node's cell
};

struct Plane {
    int axis = -1;
    float pos = 0.0f;
    float cost = 0.0f;
};

struct Builder {
    const Vec3* pos;
    const Tri* tris;
    const KdFullSahConfig& cfg;
    uint32_t nodeBudget;
    uint64_t refBudget;
    HostKdTree out;
    // References alive: in the leaves made and in the nodes still to build.
    uint64_t liveRefs = 0;
    bool warnedDepth = false, warnedNodes = false, warnedRefs = false;

    void warn(bool& once, const std::string& msg) {
        if (once) return;
        once = true;
        out.stats.warnings.push_back(msg);
    }

    void makeLeaf(uint32_t node, const std::vector<Ref>& refs, int depth) {
        out.nodes[node] = KdNode::leaf(uint32_t(out.primIndex.size()), uint32_t(refs.size()));
        for (const Ref& r : refs) out.primIndex.push_back(r.tri);
        out.stats.leaves++;
        out.stats.emptyLeaves += refs.empty();
        out.stats.maxDepth = std::max(out.stats.maxDepth, uint32_t(depth));
    }

    // The cheapest plane of one axis. Candidates: each box's two ends; for a
    // box flat on the axis the floats below and above its plane
    // (kdCandidatePlane, as Zhou08's small-node stage: a wall on the cell's
    // face can be cut off). Counts by the builders' membership rule: left
    // when lo < p; right when lo >= p or hi > p.
    void sweepAxis(const std::vector<Ref>& refs, const Aabb& cell, int a, float area, float inv, Plane& best,
                   std::vector<float>& lo, std::vector<float>& hi, std::vector<float>& flat,
                   std::vector<float>& cand) const {
        lo.clear(), hi.clear(), flat.clear(), cand.clear();
        for (const Ref& r : refs) {
            lo.push_back(r.box.lo[a]);
            hi.push_back(r.box.hi[a]);
            cand.push_back(kdCandidatePlane(r.box.lo[a], r.box.hi[a], false));
            cand.push_back(kdCandidatePlane(r.box.lo[a], r.box.hi[a], true));
            if (r.box.lo[a] == r.box.hi[a]) flat.push_back(r.box.lo[a]);
        }
        std::sort(lo.begin(), lo.end());
        std::sort(hi.begin(), hi.end());
        std::sort(flat.begin(), flat.end());
        std::sort(cand.begin(), cand.end());
        cand.erase(std::unique(cand.begin(), cand.end()), cand.end());
        const size_t n = refs.size();
        // The candidates ascend, so each count is a pointer moving forward.
        size_t loBelow = 0, hiAtOrBelow = 0, flatBelow = 0, flatAtOrBelow = 0;
        for (float p : cand) {
            if (!(p > cell.lo[a] && p < cell.hi[a])) continue;
            while (loBelow < n && lo[loBelow] < p) ++loBelow;
            while (hiAtOrBelow < n && hi[hiAtOrBelow] <= p) ++hiAtOrBelow;
            while (flatBelow < flat.size() && flat[flatBelow] < p) ++flatBelow;
            while (flatAtOrBelow < flat.size() && flat[flatAtOrBelow] <= p) ++flatAtOrBelow;
            const size_t nl = loBelow;
            const size_t nr = n - hiAtOrBelow + (flatAtOrBelow - flatBelow);  // flat at p: right only
            const float aL = kdScaledArea(kdChildCell(cell, a, p, false), inv);
            const float aR = kdScaledArea(kdChildCell(cell, a, p, true), inv);
            float cost = cfg.traversalCost + cfg.intersectionCost * (aL * float(nl) + aR * float(nr)) / area;
            if (nl == 0 || nr == 0) cost *= cfg.emptyBonus;
            if (cost < best.cost) best = Plane{a, p, cost};
        }
    }

    // A triangle's part in a child cell: clipped (perfect splits). Where
    // the clipped box's side is an interpolated value (not a vertex's
    // coordinate, not the cell's face) it is moved out by 16 floats at the
    // triangle's largest coordinate there: clipping rounds, the rounding
    // compounds down the tree, and a box a float too tight sends a triangle
    // to one side of a plane it crosses (the real SR3 lost a closest hit in
    // 4,000). Sides that are exact stay, so triangles that only meet a plane
    // at a vertex or an edge are not copied across it.
    // One whose clip rounding loses it while it touches the cell keeps its
    // box cut to the cell. False when it does not reach the cell.
    bool clipToChild(const Ref& r, const Aabb& child, Ref& outRef) const {
        const Tri& t = tris[r.tri];
        const Vec3 p0 = pos[t.v[0]], p1 = pos[t.v[1]], p2 = pos[t.v[2]];
        Aabb b;
        if (clipTriangleToBox(p0, p1, p2, child, b)) {
            for (int a = 0; a < 3; ++a) {
                const float slack = 16.0f * std::numeric_limits<float>::epsilon() *
                                    std::max(std::fabs(p0[a]), std::max(std::fabs(p1[a]), std::fabs(p2[a])));
                auto exact = [&](float v, float face) { return v == p0[a] || v == p1[a] || v == p2[a] || v == face; };
                if (!exact(b.lo[a], child.lo[a])) b.lo[a] = std::max(b.lo[a] - slack, child.lo[a]);
                if (!exact(b.hi[a], child.hi[a])) b.hi[a] = std::min(b.hi[a] + slack, child.hi[a]);
            }
            outRef = Ref{r.tri, b};
            return true;
        }
        if (!triangleInCell(p0, p1, p2, child)) return false;
        b.lo = vmin(vmax(r.box.lo, child.lo), child.hi);
        b.hi = vmin(vmax(r.box.hi, child.lo), child.hi);
        outRef = Ref{r.tri, b};
        return true;
    }

    void build(uint32_t node, const Aabb& cell, std::vector<Ref>& refs, int depth) {
        const float maxExt = maxComponent(cell.extent());
        const float inv = maxExt > 0.0f ? 1.0f / maxExt : 0.0f;
        const float area = kdScaledArea(cell, inv);
        if (refs.empty() || !(area > 0.0f)) return makeLeaf(node, refs, depth);
        Plane best{-1, 0.0f, cfg.intersectionCost * float(refs.size())};  // the leaf's cost
        {
            std::vector<float> lo, hi, flat, cand;
            for (int a = 0; a < 3; ++a) sweepAxis(refs, cell, a, area, inv, best, lo, hi, flat, cand);
        }
        if (best.axis < 0) return makeLeaf(node, refs, depth);
        if (depth >= cfg.maxDepth) {
            warn(warnedDepth, "full-SAH kd-tree: depth cap " + std::to_string(cfg.maxDepth) + " reached");
            return makeLeaf(node, refs, depth);
        }
        if (out.nodes.size() + 2 > nodeBudget) {
            warn(warnedNodes, "full-SAH kd-tree: node cap " + std::to_string(nodeBudget) + " reached");
            return makeLeaf(node, refs, depth);
        }
        const int a = best.axis;
        const float p = best.pos;
        const Aabb lc = kdChildCell(cell, a, p, false), rc = kdChildCell(cell, a, p, true);
        std::vector<Ref> left, right;
        for (const Ref& r : refs) {
            const float lo = r.box.lo[a], hi = r.box.hi[a];
            const bool toL = kdGoesLeft(lo, hi, p), toR = kdGoesRight(lo, hi, p);
            Ref c;
            if (toL && toR) {
                if (clipToChild(r, lc, c)) left.push_back(c);
                if (clipToChild(r, rc, c)) right.push_back(c);
            } else {
                (toL ? left : right).push_back(r);
            }
        }
        // Overlapping coplanar triangles make splits that pay by the SAH and
        // copy every triangle to both sides, level after level: the
        // references are capped as Zhou08's large-node stage caps them.
        const uint64_t after = liveRefs + left.size() + right.size() - refs.size();
        if (left.size() + right.size() > refs.size() && after > refBudget) {
            warn(warnedRefs, "full-SAH kd-tree: reference cap " + std::to_string(refBudget) +
                                 " reached (straddling triangles copied to both sides); remaining nodes are leaves");
            return makeLeaf(node, refs, depth);
        }
        liveRefs = after;
        std::vector<Ref>().swap(refs);  // the parent's list is not needed below
        const uint32_t c = uint32_t(out.nodes.size());
        out.nodes.resize(c + 2);
        out.nodes[node] = KdNode::inner(a, p, c);
        out.stats.innerNodes++;
        build(c, lc, left, depth + 1);
        build(c + 1, rc, right, depth + 1);
    }
};

}  // namespace

HostKdTree buildKdTreeFullSah(const Vec3* pos, const Tri* tris, uint32_t numTris, const KdFullSahConfig& config) {
    KdFullSahConfig cfg = config;
    if (cfg.maxDepth > kKdMaxDepth || cfg.maxDepth < 0) cfg.maxDepth = kKdMaxDepth;  // the traversal's stack
    KdConfig budget;
    budget.maxNodes =
        config.maxNodes ? config.maxNodes : uint32_t(std::min<uint64_t>(64ull * numTris + 4096, kKdMaxField));
    const uint64_t refBudget =
        std::min<uint64_t>(config.maxRefs ? config.maxRefs : 32ull * numTris + 8192, kKdMaxField);
    Builder b{pos, tris, cfg, kdNodeBudget(budget, numTris), refBudget, {}};
    std::vector<Ref> refs;
    Aabb cell;
    const uint32_t skipped = kdCollectTriangles(pos, tris, numTris, refs, cell);
    if (skipped)
        b.out.stats.warnings.push_back("full-SAH kd-tree: " + std::to_string(skipped) +
                                       " triangles with non-finite vertices left out");
    if (refs.empty()) return std::move(b.out);
    b.out.bounds = cell;
    b.out.nodes.resize(1);
    b.liveRefs = refs.size();
    b.build(0, cell, refs, 0);
    b.out.stats.refs = uint32_t(b.out.primIndex.size());
    return std::move(b.out);
}

}  // namespace strata
