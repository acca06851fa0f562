#include "accel/kdtree/kd_cpu_builder.h"

#include <algorithm>
#include <cstdio>

#include "accel/kdtree/kd_clip.h"

namespace strata {
namespace {

struct Ref {
    uint32_t tri;
    Aabb box;  // triangle bounds clipped to the node's cell
};

struct NodeWork {
    uint32_t node;  // index in the output
    Aabb cell;
    int depth;
    std::vector<Ref> refs;
    uint32_t stalls = 0;  // splits in a row that did not pay (kdLargeStep)
};

struct Builder {
    const Vec3* pos;
    const Tri* tris;
    const KdConfig& cfg;
    HostKdTree out;
    uint32_t nodeBudget, refBudget;
    bool warnedDepth = false, warnedNodes = false, warnedRefs = false;

    Vec3 vert(uint32_t t, int k) const { return pos[tris[t].v[k]]; }

    void warn(bool& once, const std::string& msg) {
        if (once) return;
        once = true;
        out.stats.warnings.push_back(msg);
    }

    uint32_t allocPair() {
        uint32_t i = uint32_t(out.nodes.size());
        out.nodes.resize(i + 2);
        return i;
    }
    bool canSplit(const NodeWork& w) {
        if (w.depth >= cfg.maxDepth) {
            warn(warnedDepth,
                 "kd-tree: depth cap " + std::to_string(cfg.maxDepth) + " reached; deeper nodes are leaves");
            return false;
        }
        if (out.nodes.size() + 2 > nodeBudget) {
            warn(warnedNodes,
                 "kd-tree: node cap " + std::to_string(nodeBudget) + " reached; remaining nodes are leaves");
            return false;
        }
        return true;
    }
    void note(int depth) { out.stats.maxDepth = std::max(out.stats.maxDepth, uint32_t(depth)); }

    void makeLeaf(uint32_t node, const std::vector<uint32_t>& triIds, int depth) {
        out.nodes[node] = KdNode::leaf(uint32_t(out.primIndex.size()), uint32_t(triIds.size()));
        out.primIndex.insert(out.primIndex.end(), triIds.begin(), triIds.end());
        out.stats.leaves++;
        out.stats.emptyLeaves += triIds.empty();
        note(depth);
    }
    void makeLeaf(const NodeWork& w) {
        std::vector<uint32_t> ids;
        for (const Ref& r : w.refs) ids.push_back(r.tri);
        makeLeaf(w.node, ids, w.depth);
    }

    // Zhou08 large-node stage, empty-space cutting: each empty slab wider than
    // the ratio becomes an empty leaf; the node continues in the other child.
    void cutEmptySpace(NodeWork& w, const Aabb& tight) {
        for (int axis = 0; axis < 3; ++axis)
            for (int side = 0; side < 2; ++side) {
                float plane;
                if (!kdEmptyCut(w.cell, tight, axis, side, cfg.emptySpaceRatio, plane) || !canSplit(w)) continue;
                uint32_t c = allocPair();
                out.nodes[w.node] = KdNode::inner(axis, plane, c);
                out.stats.innerNodes++;
                makeLeaf(side == 0 ? c : c + 1, {}, w.depth + 1);
                w.node = side == 0 ? c + 1 : c;
                w.cell = kdChildCell(w.cell, axis, plane, side == 0);
                w.depth++;
            }
    }

    // Zhou08 large-node stage, split triangles: classify by the clipped bounds;
    // a straddling triangle is clipped to each child cell (polygon, not box).
    void classify(const NodeWork& w, int axis, float split, NodeWork& l, NodeWork& r) {
        l.cell = kdChildCell(w.cell, axis, split, false);
        r.cell = kdChildCell(w.cell, axis, split, true);
        l.refs.clear();
        r.refs.clear();
        for (const Ref& ref : w.refs) {
            const float lo = ref.box.lo[axis], hi = ref.box.hi[axis];
            const bool toL = kdGoesLeft(lo, hi, split), toR = kdGoesRight(lo, hi, split);
            if (toL && toR) {
                Aabb b;
                if (clipTriangleToBox(vert(ref.tri, 0), vert(ref.tri, 1), vert(ref.tri, 2), l.cell, b))
                    l.refs.push_back({ref.tri, b});
                if (clipTriangleToBox(vert(ref.tri, 0), vert(ref.tri, 1), vert(ref.tri, 2), r.cell, b))
                    r.refs.push_back({ref.tri, b});
            } else {
                (toL ? l : r).refs.push_back(ref);
            }
        }
    }

    // strata's binned SAH split of a large node (KdConfig::largeSah).
    bool binnedSplit(const NodeWork& w, const Aabb& tight, int& axis, float& plane) const {
        uint32_t starts[3 * kKdBins] = {}, ends[3 * kKdBins] = {};
        for (int a = 0; a < 3; ++a) {
            const float scale = kdBinScale(tight.hi[a] - tight.lo[a]);
            for (const Ref& r : w.refs) {
                starts[a * kKdBins + kdBin(r.box.lo[a], tight.lo[a], scale)]++;
                ends[a * kKdBins + kdBin(r.box.hi[a], tight.lo[a], scale)]++;
            }
        }
        return kdBinnedSplit(cfg, w.cell, tight, starts, ends, uint32_t(w.refs.size()), axis, plane);
    }

    // One level of the large-node stage over the active list; returns the next list.
    std::vector<NodeWork> largeIteration(std::vector<NodeWork>& active, std::vector<NodeWork>& smallRoots) {
        std::vector<NodeWork> next;
        size_t levelRefs = 0;  // the GPU's reservation: 2 per triangle of each node split
        for (NodeWork& w : active) {
            if (w.refs.size() <= cfg.smallNodeMax) {
                smallRoots.push_back(std::move(w));
                continue;
            }
            // Zhou08 large-node stage: node bounding box of its (clipped) triangles.
            Aabb tight;
            for (const Ref& r : w.refs) tight.grow(r.box);
            cutEmptySpace(w, tight);
            // Zhou08 large-node stage: spatial median of the box's longest
            // axis (or strata's binned SAH); kdLargeStep (kd_rules.h)
            // decides whether it is made.
            int axis = tight.longestAxis();
            const float ext = tight.extent()[axis];
            float plane = tight.lo[axis] + 0.5f * ext;
            bool splittable = ext > 0.0f;
            if (cfg.largeSah) splittable = binnedSplit(w, tight, axis, plane);
            NodeWork l, r;
            bool split = splittable && canSplit(w);
            if (split && levelRefs + 2 * w.refs.size() > refBudget) {
                warn(warnedRefs, "kd-tree: reference cap " + std::to_string(refBudget) +
                                     " reached (clipped triangles duplicated); remaining large nodes are leaves");
                split = false;
            }
            if (split) levelRefs += 2 * w.refs.size();
            KdLargeStep step{false, w.stalls};
            if (split) {
                classify(w, axis, plane, l, r);
                step = kdLargeStep(cfg, w.cell, axis, plane, uint32_t(w.refs.size()), uint32_t(l.refs.size()),
                                   uint32_t(r.refs.size()), w.stalls);
            }
            if (!step.split) {
                makeLeaf(w);
                continue;
            }
            uint32_t c = allocPair();
            out.nodes[w.node] = KdNode::inner(axis, plane, c);
            out.stats.innerNodes++;
            l.node = c;
            r.node = c + 1;
            l.depth = r.depth = w.depth + 1;
            l.stalls = r.stalls = step.stalls;
            next.push_back(std::move(l));
            next.push_back(std::move(r));
        }
        return next;
    }

    // Zhou08 small-node stage, per small root: candidates = bounds min/max of
    // every triangle on 3 axes, each with masks of the triangles on each side.
    struct SmallRoot {
        uint32_t n = 0;
        std::vector<float> plane;
        std::vector<int> axis;
        std::vector<uint64_t> left, right;
        std::vector<uint32_t> triOf;
    };

    // strata's accel.kd_clip_leaves: the triangles of the mask that cross
    // the cell (KdConfig::clipLeaves).
    uint64_t inCell(const SmallRoot& s, const Aabb& cell, uint64_t mask) const {
        for (uint32_t i = 0; i < s.n; ++i)
            if ((mask >> i & 1) && !triangleInCell(vert(s.triOf[i], 0), vert(s.triOf[i], 1), vert(s.triOf[i], 2), cell))
                mask &= ~(1ull << i);
        return mask;
    }

    void smallNode(const SmallRoot& s, uint32_t node, const Aabb& cell, uint64_t mask, int depth) {
        const uint32_t n = uint32_t(__builtin_popcountll(mask));
        auto leaf = [&] {
            std::vector<uint32_t> ids;
            for (uint32_t i = 0; i < s.n; ++i)
                if (mask >> i & 1) ids.push_back(s.triOf[i]);
            makeLeaf(node, ids, depth);
        };
        // A leaf the SAH makes (no split beats it; not a cap's): with
        // clipped leaves, only the triangles that cross its cell.
        auto sahLeaf = [&] {
            if (cfg.clipLeaves) mask = inCell(s, cell, mask);
            leaf();
        };
        const float maxExt = maxComponent(cell.extent());
        if (n == 0 || !(maxExt > 0.0f)) return sahLeaf();
        const float inv = 1.0f / maxExt, area = kdScaledArea(cell, inv);
        if (!(area > 0.0f)) return sahLeaf();
        // Zhou08 small-node stage: SAH of every candidate plane inside the
        // cell, counts by bit counting on the masks; first minimum wins.
        float best = cfg.intersectionCost * float(n);
        int bestC = -1;
        for (size_t c = 0; c < s.plane.size(); ++c) {
            if (!(mask >> (c / 6) & 1)) continue;  // candidates of this node's triangles only
            const int a = s.axis[c];
            const float p = s.plane[c];
            if (!(p > cell.lo[a] && p < cell.hi[a])) continue;
            const uint32_t nl = uint32_t(__builtin_popcountll(mask & s.left[c]));
            const uint32_t nr = uint32_t(__builtin_popcountll(mask & s.right[c]));
            const float cost = kdSplitCost(cfg, area, kdScaledArea(kdChildCell(cell, a, p, false), inv),
                                           kdScaledArea(kdChildCell(cell, a, p, true), inv), nl, nr);
            if (cost < best) {
                best = cost;
                bestC = int(c);
            }
        }
        if (bestC < 0) return sahLeaf();
        NodeWork probe{node, cell, depth, {}};
        if (!canSplit(probe)) return leaf();
        const int a = s.axis[size_t(bestC)];
        const float p = s.plane[size_t(bestC)];
        uint32_t c = allocPair();
        out.nodes[node] = KdNode::inner(a, p, c);
        out.stats.innerNodes++;
        smallNode(s, c, kdChildCell(cell, a, p, false), mask & s.left[size_t(bestC)], depth + 1);
        smallNode(s, c + 1, kdChildCell(cell, a, p, true), mask & s.right[size_t(bestC)], depth + 1);
    }

    void smallStage(const NodeWork& w) {
        // Candidate c = 6 * i + 2 * axis + (0: min, 1: max) of triangle i.
        SmallRoot s;
        s.n = uint32_t(w.refs.size());
        for (const Ref& r : w.refs) s.triOf.push_back(r.tri);
        for (uint32_t i = 0; i < s.n; ++i)
            for (int a = 0; a < 3; ++a)
                for (int m = 0; m < 2; ++m) {
                    const float p = kdCandidatePlane(w.refs[i].box.lo[a], w.refs[i].box.hi[a], m == 1);
                    uint64_t l = 0, r = 0;
                    for (uint32_t j = 0; j < s.n; ++j) {
                        l |= uint64_t(kdGoesLeft(w.refs[j].box.lo[a], w.refs[j].box.hi[a], p)) << j;
                        r |= uint64_t(kdGoesRight(w.refs[j].box.lo[a], w.refs[j].box.hi[a], p)) << j;
                    }
                    s.plane.push_back(p);
                    s.axis.push_back(a);
                    s.left.push_back(l);
                    s.right.push_back(r);
                }
        const uint64_t all = s.n == 64 ? ~0ull : ((1ull << s.n) - 1);
        smallNode(s, w.node, w.cell, all, w.depth);
    }
};

}  // namespace

HostKdTree buildKdTreeCpu(const std::vector<Vec3>& pos, const std::vector<Tri>& tris, const KdConfig& config) {
    return buildKdTreeCpu(pos.data(), tris.data(), uint32_t(tris.size()), config);
}

HostKdTree buildKdTreeCpu(const Vec3* pos, const Tri* tris, uint32_t numTris, const KdConfig& config) {
    KdConfig cfg = config;
    if (cfg.smallNodeMax > 64 || cfg.smallNodeMax == 0) cfg.smallNodeMax = 64;  // masks are 64 bits
    if (cfg.maxDepth > kKdMaxDepth || cfg.maxDepth < 0) cfg.maxDepth = kKdMaxDepth;
    Builder bb{pos, tris, cfg, {}, kdNodeBudget(cfg, numTris), kdRefBudget(cfg, numTris)};
    NodeWork root{0, Aabb{}, 0, {}};
    const uint32_t skipped = kdCollectTriangles(pos, tris, numTris, root.refs, root.cell);
    if (skipped)
        bb.out.stats.warnings.push_back("kd-tree: " + std::to_string(skipped) +
                                        " triangles with non-finite vertices left out");
    if (root.refs.empty()) return std::move(bb.out);  // empty tree
    bb.out.bounds = root.cell;
    bb.out.nodes.resize(1);
    std::vector<NodeWork> active, smallRoots;
    active.push_back(std::move(root));
    while (!active.empty()) {
        bb.out.stats.largeIterations++;
        active = bb.largeIteration(active, smallRoots);
    }
    bb.out.stats.smallRoots = uint32_t(smallRoots.size());
    for (const NodeWork& w : smallRoots) {
        const size_t before = bb.out.nodes.size(), refsBefore = bb.out.primIndex.size();
        bb.smallStage(w);
        bb.out.stats.maxSmallNodes = std::max(bb.out.stats.maxSmallNodes, uint32_t(bb.out.nodes.size() - before));
        bb.out.stats.maxSmallRefs = std::max(bb.out.stats.maxSmallRefs, uint32_t(bb.out.primIndex.size() - refsBefore));
    }
    bb.out.stats.refs = uint32_t(bb.out.primIndex.size());
    return std::move(bb.out);
}

}  // namespace strata
