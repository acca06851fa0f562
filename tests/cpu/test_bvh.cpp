#include <gtest/gtest.h>

#include <random>

#include "accel/bvh_validate.h"
#include "accel/cpu/sah_builder.h"
#include "render/flat_scene.h"
#include "render/scene_view.h"
#include "test_util.h"

using namespace strata;

namespace {

std::vector<Aabb> boundsOf(const Mesh& m) {
    std::vector<Aabb> b;
    triangleBounds(m.positions, m.triangles, b);
    return b;
}

GeometryView geoOf(const Mesh& m) {
    GeometryView g;
    g.pos = m.positions.data();
    g.tris = m.triangles.data();
    g.numTris = uint32_t(m.triangles.size());
    return g;
}

Ray randomRay(std::mt19937& rng) {
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    Ray r;
    r.org = Vec3{u(rng), u(rng), u(rng)} * 1.4f - make3(0.2f);
    r.dir = normalize(Vec3{u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f});
    return r;
}

}  // namespace

TEST(SahBuilder, InvariantsOnRandomTriangles) {
    for (uint32_t n : {1u, 2u, 3u, 7u, 100u, 5000u}) {
        Mesh m = test::makeRandomTriangles(n, 0.05f, n);
        auto bounds = boundsOf(m);
        HostBvh bvh = buildSahBvh(bounds);
        BvhReport r = validateBvh(bvh.view(), bounds);
        EXPECT_TRUE(r.ok) << n << ": " << (r.errors.empty() ? "" : r.errors[0]);
        EXPECT_GT(r.sahCost, 0.0f);
    }
}

TEST(SahBuilder, CoincidentPrimitivesStayShallow) {
    Mesh m = test::makeRandomTriangles(1, 0.05f, 1);
    std::vector<Aabb> bounds(10000, boundsOf(m)[0]);
    HostBvh bvh = buildSahBvh(bounds);
    BvhReport r = validateBvh(bvh.view(), bounds);
    EXPECT_TRUE(r.ok);
    EXPECT_LE(r.maxDepth, 20u);
}

TEST(Validator, DetectsBrokenTrees) {
    Mesh m = test::makeRandomTriangles(200, 0.05f, 3);
    auto bounds = boundsOf(m);
    HostBvh bvh = buildSahBvh(bounds);
    HostBvh shrunk = bvh;
    shrunk.nodes[0].lxHi -= 0.5f;  // a child box too small
    EXPECT_FALSE(validateBvh(shrunk.view(), bounds).ok);
    HostBvh dup = bvh;
    dup.primIndex[1] = dup.primIndex[0];  // a primitive twice, another never
    EXPECT_FALSE(validateBvh(dup.view(), bounds).ok);
}

TEST(Traversal, ClosestAndAnyHitMatchBruteForce) {
    Mesh m = test::makeRandomTriangles(3000, 0.08f, 7);
    auto bounds = boundsOf(m);
    HostBvh bvh = buildSahBvh(bounds);
    SceneView s;
    s.geo = geoOf(m);
    s.bvh = bvh.view();
    std::mt19937 rng(11);
    int hits = 0;
    for (int i = 0; i < 4000; ++i) {
        Ray r = randomRay(rng);
        HitRecord a = traceClosest(s, r), ref = traceBruteForce(s.geo, r);
        ASSERT_EQ(isHit(a), isHit(ref)) << i;
        if (isHit(ref)) {
            ++hits;
            EXPECT_EQ(hitPayload(a), hitPayload(ref)) << i;
            EXPECT_FLOAT_EQ(hitDistance(a), hitDistance(ref)) << i;
        }
        EXPECT_EQ(traceAny(s, r), isHit(ref)) << i;
    }
    EXPECT_GT(hits, 1000);
}

TEST(HitRecord, OrdersByDistanceThenPayload) {
    EXPECT_LT(packHit(1.0f, 99), packHit(2.0f, 0));
    EXPECT_LT(packHit(1.0f, 3), packHit(1.0f, 4));
    EXPECT_LT(packHit(1e30f, ~0u - 1), kNoHit);
    EXPECT_FLOAT_EQ(hitDistance(packHit(3.25f, 7)), 3.25f);
    EXPECT_EQ(hitPayload(packHit(3.25f, 7)), 7u);
}
