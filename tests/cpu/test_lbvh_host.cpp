#include <gtest/gtest.h>

#include <random>

#include "accel/bvh_validate.h"
#include "accel/lbvh/karras.h"
#include "accel/lbvh/lbvh_host.h"
#include "render/flat_scene.h"
#include "render/scene_view.h"
#include "test_util.h"

using namespace strata;

TEST(Morton, InterleavesBits) {
    EXPECT_EQ(expandBits10(0x3ff), 0x09249249u);
    EXPECT_EQ(expandBits21(0x1fffff), 0x1249249249249249ull);
    EXPECT_EQ(morton30({1, 0, 0}), expandBits10(1023) << 2);
    EXPECT_EQ(morton30({0, 0, 0}), 0u);
    // x is the most significant of each triple.
    EXPECT_GT(morton30({0.6f, 0, 0}), morton30({0.4f, 1, 1}));
    EXPECT_GT(morton63({0.6f, 0, 0}), morton63({0.4f, 1, 1}));
    EXPECT_LT(morton63({1, 1, 1}), 1ull << 63);
    // Brute-force interleave check.
    for (uint32_t v : {0u, 1u, 5u, 513u, 1023u}) {
        uint32_t e = expandBits10(v), ref = 0;
        for (int b = 0; b < 10; ++b) ref |= ((v >> b) & 1u) << (3 * b);
        EXPECT_EQ(e, ref);
    }
}

TEST(Karras, DeltaAugmentsDuplicateKeysWithIndex) {
    uint32_t keys[4] = {5, 5, 5, 9};
    EXPECT_EQ(karrasDelta(keys, 4, 0, 1), 32 + clz32(0u ^ 1u));
    EXPECT_GT(karrasDelta(keys, 4, 0, 1), karrasDelta(keys, 4, 0, 3));
    EXPECT_EQ(karrasDelta(keys, 4, 0, -1), -1);
    EXPECT_EQ(karrasDelta(keys, 4, 3, 4), -1);
}

// The Karras hierarchy, run on the CPU, is a valid BVH: every prim once,
// boxes contain their subtrees, every internal node reached once.
TEST(Karras, HierarchyInvariants) {
    for (int bits : {30, 63})
        for (uint32_t n : {1u, 2u, 3u, 4u, 17u, 1000u, 20000u}) {
            Mesh m = test::makeRandomTriangles(n, 0.02f, n + bits);
            std::vector<Aabb> bounds;
            triangleBounds(m.positions, m.triangles, bounds);
            LbvhHostResult r = buildLbvhHost(bounds, bits);
            BvhReport rep = validateBvh(r.bvh.view(), bounds);
            EXPECT_TRUE(rep.ok) << n << " " << bits << ": " << (rep.errors.empty() ? "" : rep.errors[0]);
            EXPECT_EQ(rep.innerNodes, n > 1 ? n - 1 : 1);
            EXPECT_EQ(rep.leaves, n);
            EXPECT_TRUE(std::is_sorted(r.sortedKeys.begin(), r.sortedKeys.end()));
            // Boxes are tight: the root's children cover exactly the scene.
            Aabb all;
            for (const Aabb& b : bounds) all.grow(b);
            Aabb root = merge(r.bvh.nodes[0].leftBox(), r.bvh.nodes[0].rightBox());
            EXPECT_FLOAT_EQ(root.lo.x, all.lo.x);
            EXPECT_FLOAT_EQ(root.hi.z, all.hi.z);
        }
}

TEST(Karras, ManyDuplicateKeysStillValid) {
    // Every primitive at the same centroid: all keys equal, the index
    // augmentation alone orders the tree (depth ~ log2 n).
    Mesh m = test::makeRandomTriangles(1, 0.02f, 5);
    std::vector<Aabb> one;
    triangleBounds(m.positions, m.triangles, one);
    std::vector<Aabb> bounds(5000, one[0]);
    LbvhHostResult r = buildLbvhHost(bounds, 30);
    BvhReport rep = validateBvh(r.bvh.view(), bounds);
    EXPECT_TRUE(rep.ok) << (rep.errors.empty() ? "" : rep.errors[0]);
    EXPECT_LE(rep.maxDepth, 14u);
}

TEST(Karras, TraversalMatchesBruteForce) {
    Mesh m = test::makeRandomTriangles(4000, 0.06f, 9);
    std::vector<Aabb> bounds;
    triangleBounds(m.positions, m.triangles, bounds);
    LbvhHostResult r = buildLbvhHost(bounds, 63);
    SceneView s;
    s.geo.pos = m.positions.data();
    s.geo.tris = m.triangles.data();
    s.geo.numTris = uint32_t(m.triangles.size());
    s.bvh = r.bvh.view();
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    for (int i = 0; i < 3000; ++i) {
        Ray ray;
        ray.org = Vec3{u(rng), u(rng), u(rng)} * 1.4f - make3(0.2f);
        ray.dir = normalize(Vec3{u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f});
        HitRecord a = traceClosest(s, ray), ref = traceBruteForce(s.geo, ray);
        ASSERT_EQ(a, ref) << i;
    }
}
