// H-PLOC on the CPU (accel/lbvh/hploc.h, hploc_host.cpp): a valid tree of
// one primitive per leaf, each node numbered by the first leaf of its right
// child (the one its merge retires) minus one; for at most 9 leaves (every
// pair within PLOC's radius) the tree greedy agglomerative clustering builds
// (Walter et al. 2008: locally-ordered clustering gives the greedy result);
// independent of the order in which Apetrei's pass meets the leaves; a lower
// SAH than the LBVH it starts from; closest hits equal brute force.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <random>
#include <set>

#include "accel/bvh_validate.h"
#include "accel/lbvh/hploc.h"
#include "accel/lbvh/lbvh_compare.h"
#include "accel/lbvh/lbvh_host.h"
#include "cluster_reference.h"
#include "lbvh_cases.h"

using namespace strata;

namespace {

using test::clustersOf;
using test::greedyClusters;
using test::LeafSet;

// The lowest sorted position under a child (a leaf's is its own), and
// whether every inner node below is numbered as hploc.h says: its right
// child's lowest position minus one, above its left child's.
uint32_t firstLeafChecked(const HostBvh& t, int32_t index, int32_t count, bool& numbered) {
    if (count > 0) return uint32_t(index);
    const BvhNode& n = t.nodes[index];
    const uint32_t left = firstLeafChecked(t, n.left, n.leftCount, numbered);
    const uint32_t right = firstLeafChecked(t, n.right, n.rightCount, numbered);
    numbered = numbered && left < right && right == uint32_t(index) + 1u;
    return left;
}

::testing::AssertionResult sameTree(const LbvhHostResult& a, const LbvhHostResult& b) {
    std::string why = compareFromRoots(a.bvh, b.bvh);
    if (why.empty()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << why;
}

}  // namespace

TEST(Hploc, ValidTreeNumberedByTheFirstLeavesMergesRetire) {
    for (const test::LbvhCase& c : test::lbvhCases())
        for (int bits : {30, 63}) {
            auto bounds = test::boundsOf(c.mesh);
            LbvhHostResult r = buildLbvhHost(bounds, bits, LbvhVariant::Hploc);
            const size_t n = bounds.size();
            ASSERT_EQ(r.bvh.nodes.size(), n > 1 ? n - 1 : 1) << c.name;
            ASSERT_LT(r.bvh.root, r.bvh.nodes.size()) << c.name;
            bool numbered = true;
            if (n > 1) EXPECT_EQ(firstLeafChecked(r.bvh, int32_t(r.bvh.root), 0, numbered), 0u) << c.name;
            EXPECT_TRUE(numbered) << c.name;
            BvhReport rep = validateBvh(r.bvh.view(), bounds);
            EXPECT_TRUE(rep.ok) << c.name << ": " << (rep.errors.empty() ? "" : rep.errors[0]);
            EXPECT_EQ(rep.maxLeafSize, 1u) << c.name;
            EXPECT_EQ(rep.leaves, n) << c.name;
        }
}

TEST(Hploc, SmallInputsGiveGreedyAgglomerativeClustering) {
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    for (int trial = 0; trial < 300; ++trial) {
        const int n = 2 + trial % 8;  // 2..9: every pair within the radius
        ASSERT_LE(n - 1, kHplocRadius);
        std::vector<Aabb> bounds(n);
        for (Aabb& b : bounds) {
            Vec3 p{u(rng), u(rng), u(rng)};
            b = Aabb{p, p + Vec3{u(rng), u(rng), u(rng)} * 0.2f};
        }
        LbvhHostResult r = buildLbvhHost(bounds, 63, LbvhVariant::Hploc);
        EXPECT_EQ(clustersOf(r.bvh), greedyClusters(bounds)) << "trial " << trial << ", " << n << " boxes";
    }
}

// The GPU takes a cluster's nearest as the minimum of plocNearKey: the keys
// must order every pair of candidates as plocNearer does, ties and infinite
// distances included, and name their candidate.
TEST(Hploc, NearKeysOrderAsPlocNearer) {
    std::mt19937 rng(11);
    const float distances[] = {0.0f, 0.5f, 1.0f, 2.0f, INFINITY};
    for (int trial = 0; trial < 20000; ++trial) {
        const int j = int(rng() % 32u);
        auto candidate = [&] {
            int gap = 1 + int(rng() % unsigned(kHplocRadius));
            int i = (rng() & 1u) ? j + gap : j - gap;
            return i < 0 || i > 31 ? j + 1 > 31 ? j - 1 : j + 1 : i;
        };
        const int a = candidate(), b = candidate();
        const float da = distances[rng() % 5u], db = distances[rng() % 5u];
        const uint64_t ka = plocNearKey(da, a, j), kb = plocNearKey(db, b, j);
        ASSERT_EQ(plocKeyCandidate(ka, j), a) << j;
        ASSERT_EQ(ka < kb, plocNearer(da, a, db, b, j)) << j << ": " << a << " at " << da << ", " << b << " at " << db;
        ASSERT_EQ(ka == kb, a == b && da == db);
    }
    // The keys order distances by their bits: plocDistance is never -0 or
    // negative, also for a box inverted on one axis (NaN coordinates).
    const Aabb inverted{{FLT_MAX, 0.0f, 0.0f}, {-FLT_MAX, 1.0f, 1.0f}};
    const Aabb point{{1.0f, 2.0f, 3.0f}, {1.0f, 2.0f, 3.0f}};
    for (const Aabb& b : {inverted, point}) {
        const float d = plocDistance(b, b);
        EXPECT_FALSE(std::signbit(d)) << d;
        EXPECT_EQ(plocNearKey(d, 1, 0) >> 32, 0u) << d;
    }
}

// Three boxes in a row, the first two close: they pair first.
TEST(Hploc, NearestBoxesPairFirst) {
    std::vector<Aabb> b = {Aabb{{0, 0, 0}, {1, 1, 1}}, Aabb{{1.5f, 0, 0}, {2.5f, 1, 1}}, Aabb{{9, 0, 0}, {10, 1, 1}}};
    LbvhHostResult r = buildLbvhHost(b, 63, LbvhVariant::Hploc);
    std::set<LeafSet> want = {{0, 1}, {0, 1, 2}};
    EXPECT_EQ(clustersOf(r.bvh), want);
}

// GPU threads climb in any order; Apetrei's ranges, and so the clusters
// merged in each, depend only on the keys.
TEST(Hploc, LeafArrivalOrderDoesNotChangeTheTree) {
    for (const test::LbvhCase& c : test::lbvhCases(false)) {
        auto bounds = test::boundsOf(c.mesh);
        LbvhHostResult ref = buildLbvhHost(bounds, 63, LbvhVariant::Hploc);
        for (uint32_t seed : {1u, 2u}) {
            LbvhHostConfig cfg;
            cfg.variant = LbvhVariant::Hploc;
            cfg.leafOrderSeed = seed;
            EXPECT_TRUE(sameTree(buildLbvhHost(bounds, 63, cfg), ref)) << c.name;
        }
    }
}

// Triangles in clusters of very different sizes and densities, as real
// models have them (uniform random triangles are the LBVH's best case: its
// spatial-median splits are what the SAH would choose there).
Mesh makeClustered(uint32_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    std::normal_distribution<float> g(0.0f, 1.0f);
    struct Cluster {
        Vec3 centre;
        float sigma;
    };
    std::vector<Cluster> clusters(64);
    for (Cluster& c : clusters) c = {Vec3{u(rng), u(rng), u(rng)} * 10.0f, 0.01f * std::pow(50.0f, u(rng))};
    Mesh m;
    for (uint32_t i = 0; i < n; ++i) {
        const Cluster& c = clusters[rng() % clusters.size()];
        Vec3 p = c.centre + Vec3{g(rng), g(rng), g(rng)} * c.sigma;
        float s = 0.1f * c.sigma;
        test::addTriangle(m, p, p + Vec3{u(rng), u(rng), u(rng)} * s, p + Vec3{u(rng), u(rng), u(rng)} * s);
    }
    return m;
}

// The point of the builder: the LBVH's leaves regrouped by PLOC cost less.
TEST(Hploc, LowerSahThanTheLbvhItStartsFrom) {
    auto bounds = test::boundsOf(makeClustered(30000, 3));
    BvhReport lbvh = validateBvh(buildLbvhHost(bounds, 63, LbvhVariant::Karras).bvh.view(), bounds);
    BvhReport hploc = validateBvh(buildLbvhHost(bounds, 63, LbvhVariant::Hploc).bvh.view(), bounds);
    ASSERT_TRUE(hploc.ok);
    std::printf("clustered: SAH(1.2,1) lbvh %.1f, hploc %.1f\n", lbvh.peerSah(), hploc.peerSah());
    EXPECT_LT(hploc.peerSah(), 0.9 * lbvh.peerSah());
}

TEST(Hploc, ClosestHitsEqualBruteForce) {
    Mesh m = test::makeRandomTriangles(20000, 0.03f, 21);
    auto bounds = test::boundsOf(m);
    LbvhHostResult r = buildLbvhHost(bounds, 63, LbvhVariant::Hploc);
    SceneView s;
    s.geo = test::geometryOf(m);
    s.bvh = r.bvh.view();
    std::vector<Ray> rays = test::raysAtTriangles(m, 5000, 8);
    size_t hits = 0;
    for (size_t i = 0; i < rays.size(); ++i) {
        HitRecord got = traceClosest(s, rays[i]), ref = traceBruteForce(s.geo, rays[i]);
        ASSERT_EQ(got, ref) << "ray " << i;
        EXPECT_EQ(traceAny(s, rays[i]), isHit(ref)) << "ray " << i;
        hits += isHit(ref);
    }
    EXPECT_GT(hits, rays.size() / 3);
}
