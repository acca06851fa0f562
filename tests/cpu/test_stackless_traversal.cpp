// Stackless traversal (Algorithm 1) and the stack traversal's deep-tree
// fallback: every traversal of every LBVH variant finds the brute-force
// closest hit, and no node is dropped when a tree is deeper than the stack.
#include <gtest/gtest.h>

#include <cmath>

#include "check/hit_compare.h"
#include "accel/bvh_validate.h"
#include "accel/host_accel.h"
#include "accel/lbvh/lbvh_host.h"
#include "core/error.h"
#include "lbvh_cases.h"
#include "render/renderer.h"

using namespace strata;

namespace {

// Both miss, or both hit at the same distance (each traversal calls the same
// triangle test, so distances are bit-identical; coincident triangles may
// tie, so the triangle may differ only where the distance is shared).
::testing::AssertionResult bitSameHit(HitRecord got, HitRecord ref) {
    if (strata::sameHit(got, ref, 0.0f)) return ::testing::AssertionSuccess();  // check/hit_compare.h, exactly
    return ::testing::AssertionFailure() << std::hex << got << " vs " << ref;
}

SceneView viewOf(const Mesh& m, const BvhView& bvh) {
    SceneView s;
    s.geo = test::geometryOf(m);
    s.bvh = bvh;
    return s;
}

BvhView withSkipLinks(BvhView v, const LbvhHostResult& r, BvhTraversal t) {
    v.skipNodes = r.skipNodes.data();
    v.numSkipNodes = uint32_t(r.skipNodes.size());
    v.traversal = t;
    return v;
}

}  // namespace

// Stack (over the BvhNodes) and stackless (over the skip links) traversal of
// each variant give the brute-force closest hit and the same any-hit answer.
TEST(StacklessTraversal, ClosestAndAnyHitEqualStackAndBruteForce) {
    for (int bits : {30, 63})
        for (const test::LbvhCase& c : test::lbvhCases(false)) {
            std::vector<Ray> rays = test::raysAtTriangles(c.mesh, 1000, 21);
            auto bounds = test::boundsOf(c.mesh);
            LbvhHostResult skip = buildLbvhHost(bounds, bits, LbvhVariant::ApetreiSkip);
            LbvhHostResult ap = buildLbvhHost(bounds, bits, LbvhVariant::Apetrei);
            SceneView brute = viewOf(c.mesh, BvhView{});
            SceneView stack = viewOf(c.mesh, withSkipLinks(skip.bvh.view(), skip, BvhTraversal::Stack));
            SceneView stackless = viewOf(c.mesh, withSkipLinks(skip.bvh.view(), skip, BvhTraversal::Stackless));
            SceneView apetrei = viewOf(c.mesh, ap.bvh.view());
            size_t hits = 0;
            for (size_t i = 0; i < rays.size(); ++i) {
                HitRecord ref = traceBruteForce(brute.geo, rays[i]);
                hits += isHit(ref);
                HitRecord a = traceClosest(stack, rays[i]), b = traceClosest(stackless, rays[i]);
                ASSERT_TRUE(bitSameHit(a, ref)) << c.name << " stack, ray " << i;
                ASSERT_TRUE(bitSameHit(b, ref)) << c.name << " stackless, ray " << i;
                ASSERT_TRUE(bitSameHit(a, b)) << c.name << " ray " << i;
                ASSERT_TRUE(bitSameHit(traceClosest(apetrei, rays[i]), ref)) << c.name << " apetrei, ray " << i;
                ASSERT_EQ(traceAny(stack, rays[i]), isHit(ref)) << c.name << " ray " << i;
                ASSERT_EQ(traceAny(stackless, rays[i]), isHit(ref)) << c.name << " ray " << i;
            }
            EXPECT_GT(hits, rays.size() / 4) << c.name;
        }
}

// A closed box seen from inside: every ray hits; rays with tmax short of the
// walls hit nothing; tmin past the first wall skips it.
TEST(StacklessTraversal, RespectsTheRayInterval) {
    Mesh m = test::makeSphere({0, 0, 0}, 1.0f, 32);
    auto bounds = test::boundsOf(m);
    LbvhHostResult skip = buildLbvhHost(bounds, 63, LbvhVariant::ApetreiSkip);
    SceneView s = viewOf(m, withSkipLinks(skip.bvh.view(), skip, BvhTraversal::Stackless));
    Ray r;
    r.org = {0, 0, 0};
    r.dir = normalize(Vec3{0.3f, 0.5f, -0.2f});
    EXPECT_TRUE(isHit(traceClosest(s, r)));
    r.tmax = 0.5f;
    EXPECT_FALSE(isHit(traceClosest(s, r)));
    EXPECT_FALSE(traceAny(s, r));
    r.org = {0, 0, 3};
    r.dir = {0, 0, -1};
    r.tmax = 1e30f;
    HitRecord front = traceClosest(s, r);
    ASSERT_TRUE(isHit(front));
    EXPECT_NEAR(hitDistance(front), 2.0f, 1e-2f);
    r.tmin = 3.0f;  // past the front wall: the back wall
    HitRecord back = traceClosest(s, r);
    ASSERT_TRUE(isHit(back));
    EXPECT_NEAR(hitDistance(back), 4.0f, 1e-2f);
}

// 2^17 coincident primitives plus one pair per Morton bit, 63-bit codes: a
// tree deeper than the fast stack (the depth is in the test log). Rays that
// overflow it restart with the deep stack; every traversal equals brute force.
TEST(DeepTree, StackOverflowRestartsAndFindsEveryHit) {
    Mesh m = test::makeDeepCoincident(1u << 17);
    auto bounds = test::boundsOf(m);
    LbvhHostResult skip = buildLbvhHost(bounds, 63, LbvhVariant::ApetreiSkip);
    BvhReport rep = validateBvh(skip.bvh.view(), bounds);
    EXPECT_TRUE(rep.ok) << (rep.errors.empty() ? "" : rep.errors[0]);
    std::printf("deep tree: %zu primitives, 63-bit codes, depth %u (fast stack %d, deep stack %d)\n", bounds.size(),
                rep.maxDepth, kBvhStackSize, kBvhDeepStackSize);
    EXPECT_GT(rep.maxDepth, uint32_t(kBvhStackSize) + 1);
    // The same construction with 30-bit codes stays within the fast stack.
    LbvhHostResult k30 = buildLbvhHost(bounds, 30, LbvhVariant::Karras);
    BvhReport rep30 = validateBvh(k30.bvh.view(), bounds);
    std::printf("same scene, 30-bit codes: depth %u\n", rep30.maxDepth);
    EXPECT_LE(rep30.maxDepth, uint32_t(kBvhStackSize) + 1);

    SceneView brute = viewOf(m, BvhView{});
    SceneView stack = viewOf(m, withSkipLinks(skip.bvh.view(), skip, BvhTraversal::Stack));
    SceneView stackless = viewOf(m, withSkipLinks(skip.bvh.view(), skip, BvhTraversal::Stackless));
    std::vector<Ray> rays = test::raysIntoDeepCoincident(24, 4);
    uint32_t overflowed = 0;
    for (size_t i = 0; i < rays.size(); ++i) {
        HitRecord ref = traceBruteForce(brute.geo, rays[i]);
        ASSERT_TRUE(isHit(ref)) << i;
        TraversalStats st;
        HitRecord a = traceClosest(stack, rays[i], &st);
        overflowed += st.stackOverflow;
        EXPECT_EQ(st.scanRestarts, 0u);
        EXPECT_TRUE(bitSameHit(a, ref)) << "stack, ray " << i;
        EXPECT_TRUE(bitSameHit(traceClosest(stackless, rays[i]), ref)) << "stackless, ray " << i;
        EXPECT_TRUE(traceAny(stack, rays[i])) << i;
        EXPECT_TRUE(traceAny(stackless, rays[i])) << i;
    }
    EXPECT_EQ(overflowed, rays.size()) << "every ray should need the whole depth";
}

// A hand-made tree deeper than even the deep stack (200 levels, both
// children inner at every level): the ray falls back to a scan of the leaf
// entries and still finds the closest hit; the validator rejects the tree.
TEST(DeepTree, BeyondTheDeepStackScansTheLeaves) {
    const int levels = 200;
    Mesh m;
    const float a = 1000.0f;
    // Triangle k is a big triangle in the plane x + z = k * 0.01.
    for (int k = 0; k < 2 * levels + 1; ++k) {
        Vec3 c{k * 0.005f, 0, k * 0.005f};
        test::addTriangle(m, c + Vec3{-a, -a, a}, c + Vec3{a, -a, -a}, c + Vec3{0, a, 0});
    }
    auto bounds = test::boundsOf(m);
    Aabb all;
    for (const Aabb& b : bounds) all.grow(b);
    // Node i (i < levels): left = node i+1 (the chain), right = node levels+i
    // (a pair node with leaves 2i, 2i+1); the last chain node holds leaf 2*levels.
    HostBvh t;
    t.nodes.resize(2 * levels);
    t.primIndex.resize(2 * levels + 1);
    for (uint32_t e = 0; e < t.primIndex.size(); ++e) t.primIndex[e] = uint32_t(t.primIndex.size()) - 1 - e;
    for (int i = 0; i < levels; ++i) {
        if (i + 1 < levels)
            t.nodes[i].setLeft(all, i + 1, 0);
        else
            t.nodes[i].setLeft(all, 2 * levels, 1);
        t.nodes[i].setRight(all, levels + i, 0);
        t.nodes[levels + i].setLeft(all, 2 * i, 1);
        t.nodes[levels + i].setRight(all, 2 * i + 1, 1);
    }
    BvhReport rep = validateBvh(t.view(), bounds);
    EXPECT_FALSE(rep.ok);
    EXPECT_EQ(rep.maxDepth, uint32_t(levels + 1));
    SceneView s = viewOf(m, t.view());
    Ray r;
    r.org = {-50, -40, -50};
    r.dir = normalize(Vec3{1, 0.8f, 1});
    TraversalStats st;
    HitRecord got = traceClosest(s, r, &st);
    EXPECT_EQ(st.deepRestarts, 1u);
    EXPECT_EQ(st.scanRestarts, 1u);
    EXPECT_TRUE(bitSameHit(got, traceBruteForce(s.geo, r)));
    EXPECT_EQ(hitPayload(got), 0u);  // the plane nearest the origin side
}

TEST(AccelOptions, StacklessNeedsTheSkipBuilder) {
    Options o;
    o.set("accel.traversal", "stackless");
    try {
        o.check();
        FAIL() << "expected an error";
    } catch (const Error& e) {
        std::string m = e.what();
        EXPECT_NE(m.find("accel.traversal"), std::string::npos) << m;
        EXPECT_NE(m.find("lbvh-skip"), std::string::npos) << m;
    }
    EXPECT_EQ(traversalOf(o.accel), BvhTraversal::Stack);  // what a renderer does meanwhile
    o.set("accel.builder", "lbvh-skip");
    EXPECT_NO_THROW(o.check());
    EXPECT_EQ(traversalOf(o.accel), BvhTraversal::Stackless);
    EXPECT_EQ(lbvhVariantOf(o.accel), LbvhVariant::ApetreiSkip);
    o.set("accel.builder", "lbvh-apetrei");
    EXPECT_EQ(lbvhVariantOf(o.accel), LbvhVariant::Apetrei);
    EXPECT_THROW(o.set("accel.traversal", "rope"), Error);
}

