// The clustered top level (accel/toplevel/top_cluster.h) against an
// independent reference: the greedy agglomerative clustering that merges the
// one nearest pair of all at each step (Walter et al. 2008 show the
// locally-ordered rounds make its tree where no two costs tie). Also: the
// tree's invariants (each instance in one leaf of its own, n - 1 nodes, the
// root last), a large box among small ones merged last, and the option.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "accel/bvh_validate.h"
#include "accel/host_accel.h"
#include "accel/toplevel/top_cluster.h"
#include "accel/toplevel/top_walk.h"
#include "core/options.h"

namespace strata {
namespace {

using LeafSet = std::vector<uint32_t>;  // sorted instances under a node

// Boxes of random centres and sizes; with `hall`, box 0 surrounds the rest
// (a room around its props).
std::vector<Aabb> randomBoxes(uint32_t n, uint32_t seed, bool hall) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-10.0f, 10.0f), s(0.05f, 1.5f);
    std::vector<Aabb> boxes(n);
    for (Aabb& b : boxes) {
        const Vec3 c{u(rng), u(rng), u(rng)}, h{s(rng), s(rng), s(rng)};
        b = Aabb{c - h, c + h};
    }
    if (hall && n > 0) boxes[0] = Aabb{Vec3{-12.0f, -12.5f, -13.0f}, Vec3{12.5f, 13.0f, 12.0f}};
    return boxes;
}

// The greedy clustering: the pair of least plocDistance of all merges, one
// pair at a time. Returns each merge's leaf set.
std::set<LeafSet> greedyClusters(const std::vector<Aabb>& boxes) {
    std::vector<Aabb> box = boxes;
    std::vector<LeafSet> sets;
    for (uint32_t i = 0; i < boxes.size(); ++i) sets.push_back({i});
    std::set<LeafSet> out;
    while (box.size() > 1) {
        size_t bi = 0, bj = 1;
        float best = INFINITY;
        for (size_t i = 0; i < box.size(); ++i)
            for (size_t j = i + 1; j < box.size(); ++j) {
                const float d = plocDistance(box[i], box[j]);
                if (d < best) {
                    best = d;
                    bi = i;
                    bj = j;
                }
            }
        LeafSet m = sets[bi];
        m.insert(m.end(), sets[bj].begin(), sets[bj].end());
        std::sort(m.begin(), m.end());
        out.insert(m);
        box[bi] = merge(box[bi], box[bj]);
        sets[bi] = m;
        box.erase(box.begin() + long(bj));
        sets.erase(sets.begin() + long(bj));
    }
    return out;
}

// The leaf set of every node of a tree (from node v down), into `out`.
LeafSet collect(const HostBvh& t, int32_t v, std::set<LeafSet>& out) {
    const BvhNode& n = t.nodes[size_t(v)];
    LeafSet s;
    auto child = [&](int32_t index, int32_t count) {
        if (index < 0) return;
        if (count > 0) {
            for (int32_t k = 0; k < count; ++k) s.push_back(t.primIndex[size_t(index + k)]);
        } else {
            const LeafSet c = collect(t, index, out);
            s.insert(s.end(), c.begin(), c.end());
        }
    };
    child(n.left, n.leftCount);
    child(n.right, n.rightCount);
    std::sort(s.begin(), s.end());
    out.insert(s);
    return s;
}

TEST(TopCluster, SameClustersAsTheGreedyClustering) {
    for (uint32_t n : {2u, 3u, 7u, 40u, 161u}) {
        for (bool hall : {false, true}) {
            const std::vector<Aabb> boxes = randomBoxes(n, 7 * n + hall, hall);
            const HostBvh t = clusterTopLevel(boxes);
            std::set<LeafSet> got;
            collect(t, int32_t(t.root), got);
            EXPECT_EQ(got, greedyClusters(boxes)) << n << " boxes, hall " << hall;
        }
    }
}

TEST(TopCluster, EveryInstanceInALeafOfItsOwnAndTheRootLast) {
    for (uint32_t n : {1u, 2u, 5u, 161u, kClusterMaxLeaves}) {
        const std::vector<Aabb> boxes = randomBoxes(n, n, n > 2);
        const HostBvh t = clusterTopLevel(boxes);
        const BvhReport r = validateBvh(t.view(), boxes);
        EXPECT_TRUE(r.ok) << n << ": " << (r.errors.empty() ? "" : r.errors[0]);
        EXPECT_EQ(r.leaves, n);
        EXPECT_EQ(r.maxLeafSize, 1u);
        EXPECT_EQ(t.nodes.size(), n > 1 ? n - 1 : 1u);
        EXPECT_EQ(t.root, clusterRootOf(n));
    }
}

// Equal distances pair up by a key of the pair (plocNearer): coincident
// boxes, empty ones, and a row of equal boxes evenly spaced make balanced
// trees, not a chain of one merge a round.
TEST(TopCluster, TiesPairUpIntoABalancedTree) {
    const uint32_t n = kClusterMaxLeaves;
    const Aabb unit{Vec3{0.0f, 0.0f, 0.0f}, Vec3{1.0f, 1.0f, 1.0f}};
    std::vector<Aabb> coincident(n, unit), empty(n), row(n);
    for (uint32_t i = 0; i < n; ++i)
        row[i] = Aabb{unit.lo + Vec3{2.0f * float(i), 0.0f, 0.0f}, unit.hi + Vec3{2.0f * float(i), 0.0f, 0.0f}};
    for (const auto* boxes : {&coincident, &empty, &row}) {
        const HostBvh t = clusterTopLevel(*boxes);
        const BvhReport r = validateBvh(t.view(), *boxes);
        EXPECT_EQ(r.leaves, n);
        EXPECT_LE(r.maxDepth, 9u);  // log2(256) = 8 levels of nodes
    }
}

// The hall (box 0) is the root's leaf child; Karras's LBVH over the centres
// puts it deep among the props, and a ray walks more of the top level.
TEST(TopCluster, ALargeBoxAmongSmallOnesIsMergedLast) {
    const std::vector<Aabb> boxes = randomBoxes(161, 3, true);
    const HostBvh t = clusterTopLevel(boxes);
    const BvhNode& root = t.nodes[t.root];
    const bool left = root.leftCount == 1 && t.primIndex[size_t(root.left)] == 0;
    const bool right = root.rightCount == 1 && t.primIndex[size_t(root.right)] == 0;
    EXPECT_TRUE(left || right);

    HostAccel lbvh;
    buildHostAccel(boxes, AccelOptions{}, lbvh);
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    uint64_t clustered = 0, karras = 0;
    for (int k = 0; k < 500; ++k) {
        Ray r;
        r.org = Vec3{8.0f * u(rng), 8.0f * u(rng), 8.0f * u(rng)};
        r.dir = normalize(Vec3{u(rng), u(rng), u(rng)} + Vec3{0.0f, 0.0f, 1e-3f});
        auto walk = [&](const BvhView& v) {
            TraversalStats st;
            TopLevelWalk::Stack stack;
            TopLevelWalk w(v, r, stack);
            while (w.next(r.tmax, &st) != ~0u) {}
            return st.topNodes;
        };
        clustered += walk(t.view());
        karras += walk(lbvh.bvh.view());
    }
    EXPECT_LT(5 * clustered, 4 * karras);  // a fifth fewer at least (here 29%: rays that hit nothing)
}

TEST(TopCluster, OptionOnByDefaultNamedInertInFlatMode) {
    Options o;
    EXPECT_TRUE(o.accel.clusterTopLevel);
    EXPECT_TRUE(clustersTopLevel(o.accel, 1));
    EXPECT_TRUE(clustersTopLevel(o.accel, kClusterMaxLeaves));
    EXPECT_FALSE(clustersTopLevel(o.accel, kClusterMaxLeaves + 1));  // accel.builder's tree then
    EXPECT_FALSE(clustersTopLevel(o.accel, 0));
    o.set("accel.cluster_top_level", "false");
    EXPECT_FALSE(o.accel.clusterTopLevel);
    bool named = false;
    for (const std::string& n : o.inert()) named |= n.find("accel.cluster_top_level") != std::string::npos;
    EXPECT_TRUE(named);  // flat mode: it builds nothing
    o.set("accel.mode", "instanced");
    named = false;
    for (const std::string& n : o.inert()) named |= n.find("accel.cluster_top_level") != std::string::npos;
    EXPECT_FALSE(named);
}

}  // namespace
}  // namespace strata
