// The clustered top level (accel/toplevel/top_cluster.h) against an
// independent reference: the greedy agglomerative clustering that merges the
// one nearest pair of all at each step (Walter et al. 2008 show the
// locally-ordered rounds make its tree where no two costs tie). Also: the
// tree's invariants (each instance in one leaf of its own, n - 1 nodes, the
// root last), a large box among small ones merged last, and the option.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "accel/bvh_validate.h"
#include "accel/host_accel.h"
#include "accel/toplevel/top_cluster.h"
#include "accel/toplevel/top_walk.h"
#include "core/options.h"
#include "cluster_reference.h"
#include "test_util.h"

namespace strata {
namespace {

// Boxes of random centres and sizes; with `hall`, box 0 surrounds the rest
// (a room around its props).
std::vector<Aabb> randomBoxes(uint32_t n, uint32_t seed, bool hall) {
    std::vector<Aabb> boxes = test::randomBoxes(n, seed, 10.0f, 0.05f, 1.5f);
    if (hall && n > 0) boxes[0] = Aabb{Vec3{-12.0f, -12.5f, -13.0f}, Vec3{12.5f, 13.0f, 12.0f}};
    return boxes;
}

TEST(TopCluster, SameClustersAsTheGreedyClustering) {
    for (uint32_t n : {2u, 3u, 7u, 40u, 161u}) {
        for (bool hall : {false, true}) {
            const std::vector<Aabb> boxes = randomBoxes(n, 7 * n + hall, hall);
            EXPECT_EQ(test::clustersOf(clusterTopLevel(boxes)), test::greedyClusters(boxes))
                << n << " boxes, hall " << hall;
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
    const AccelOptions before = o.accel;
    o.set("accel.cluster_top_level", "false");
    EXPECT_FALSE(o.accel.clusterTopLevel);
    EXPECT_FALSE(o.accel == before);                              // a build option: a switch rebuilds
    EXPECT_TRUE(test::namesInert(o, "accel.cluster_top_level"));  // flat mode: it builds nothing
    o.set("accel.mode", "instanced");
    EXPECT_FALSE(test::namesInert(o, "accel.cluster_top_level"));
}

}  // namespace
}  // namespace strata
