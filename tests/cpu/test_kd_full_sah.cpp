// The full-SAH kd-tree (Wald & Havran 2006, accel/kdtree/kd_full_sah.h), the
// quality reference the kd-tree's builders are measured against: valid
// trees that trace like brute force on the real-geometry cases, the root's
// plane the cheapest of every candidate costed here by counting, clusters
// separated, caps that end the build with a message.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "accel/kdtree/kd_full_sah.h"
#include "accel/kdtree/kd_quality.h"
#include "kd_test_util.h"
#include "test_util.h"

using namespace strata;
using namespace strata::test;

namespace {

std::vector<Ray> rays(uint32_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<Ray> rs;
    for (uint32_t i = 0; i < n; ++i) rs.push_back(randomRay(rng));
    return rs;
}

// The SAH cost of cutting the root cell at plane p of axis a, counted
// triangle by triangle with the builders' membership rule over the
// triangles' bounds (kdGoesLeft / kdGoesRight), Wald & Havran's bonus for
// an empty side: the brute-force form of the builder's sweep.
float bruteCost(const std::vector<Aabb>& boxes, const Aabb& cell, int a, float p, const KdFullSahConfig& c) {
    uint32_t nl = 0, nr = 0;
    for (const Aabb& b : boxes) {
        nl += kdGoesLeft(b.lo[a], b.hi[a], p);
        nr += kdGoesRight(b.lo[a], b.hi[a], p);
    }
    const float inv = 1.0f / maxComponent(cell.extent());
    const float area = kdScaledArea(cell, inv);
    float cost = c.traversalCost + c.intersectionCost *
                                       (kdScaledArea(kdChildCell(cell, a, p, false), inv) * float(nl) +
                                        kdScaledArea(kdChildCell(cell, a, p, true), inv) * float(nr)) /
                                       area;
    if (nl == 0 || nr == 0) cost *= c.emptyBonus;
    return cost;
}

}  // namespace

TEST(KdFullSah, ValidTreesThatTraceLikeBruteForce) {
    struct Case {
        const char* name;
        Mesh mesh;
    };
    const Case cases[] = {
        {"random", makeRandomTriangles(3000, 0.05f, 3)},
        {"grid boxes (triangles in split planes)", makeGridBoxes(6)},
        {"slivers", slivers(3000)},
        {"coplanar walls + fan", wallsAndFan(20, 200)},
        {"cluster + long triangles", clusterWithLongTriangles(3000, 30)},
        {"fan around one vertex", quarterFan(300)},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        const HostKdTree kd = buildKdTreeFullSah(c.mesh.positions, c.mesh.triangles);
        const KdReport r = check(c.mesh, kd);
        ASSERT_TRUE(r.ok) << r.errors[0];
        EXPECT_TRUE(kd.stats.warnings.empty()) << kd.stats.warnings[0];
        expectTracesMatch(c.mesh, kd, rays(400, 7));
        const KdQuality full = measureKdQuality(kd.view(), boundsOf(c.mesh));
        const KdQuality zhou =
            measureKdQuality(buildKdTreeCpu(c.mesh.positions, c.mesh.triangles).view(), boundsOf(c.mesh));
        EXPECT_LT(full.ratio(), kKdSahWarnRatio) << full.summary();
        std::printf("%s: full SAH %s; Zhou08's stages %.2f\n", c.name, full.summary().c_str(), zhou.kdSah);
    }
}

// The root's plane is the cheapest candidate by brute-force counting (each
// box's ends; the floats below and above a flat box), or the root is a leaf when
// no plane beats intersecting every triangle.
TEST(KdFullSah, RootPlaneIsTheCheapestCandidate) {
    const KdFullSahConfig cfg;
    Mesh walls = wallsAndFan(4, 0);
    append(walls, scaled(makeRandomTriangles(60, 0.1f, 8), 0.6f, Vec3{0.2f, 0.2f, 0.2f}));
    const Mesh cases[] = {makeRandomTriangles(300, 0.1f, 21), slivers(200), walls, makeGridBoxes(3)};
    for (const Mesh& m : cases) {
        const std::vector<Aabb> boxes = boundsOf(m);
        Aabb cell;
        for (const Aabb& b : boxes) cell.grow(b);
        float best = cfg.intersectionCost * float(boxes.size());
        for (int a = 0; a < 3; ++a)
            for (const Aabb& b : boxes) {
                const bool flat = b.lo[a] == b.hi[a];
                const float below = flat ? std::nextafter(b.lo[a], -INFINITY) : b.lo[a];
                const float above = flat ? std::nextafter(b.hi[a], INFINITY) : b.hi[a];
                for (float p : {below, above})
                    if (p > cell.lo[a] && p < cell.hi[a]) best = std::min(best, bruteCost(boxes, cell, a, p, cfg));
            }
        const HostKdTree kd = buildKdTreeFullSah(m.positions, m.triangles, cfg);
        ASSERT_FALSE(kd.nodes.empty());
        const KdNode root = kd.nodes[0];
        if (root.isLeaf()) {
            EXPECT_GE(best, cfg.intersectionCost * float(boxes.size()));
            continue;
        }
        const float got = bruteCost(boxes, cell, root.axis(), root.split(), cfg);
        EXPECT_NEAR(got, best, 1e-5f * best) << "root cut on axis " << root.axis() << " at " << root.split();
    }
}

// Two clusters far apart: no triangle is referenced on both sides of the
// plane that separates them, and the tree has no more references than a
// tree per cluster would.
TEST(KdFullSah, SeparatesClusters) {
    Mesh m = scaled(makeRandomTriangles(500, 0.05f, 4), 0.2f);
    append(m, scaled(makeRandomTriangles(500, 0.05f, 5), 0.2f, Vec3{0.8f, 0.8f, 0.8f}));
    const HostKdTree kd = buildKdTreeFullSah(m.positions, m.triangles);
    ASSERT_TRUE(check(m, kd).ok);
    const Mesh a = scaled(makeRandomTriangles(500, 0.05f, 4), 0.2f);
    const Mesh b = scaled(makeRandomTriangles(500, 0.05f, 5), 0.2f, Vec3{0.8f, 0.8f, 0.8f});
    const uint32_t apart = buildKdTreeFullSah(a.positions, a.triangles).stats.refs +
                           buildKdTreeFullSah(b.positions, b.triangles).stats.refs;
    EXPECT_LE(kd.stats.refs, apart);
    // The root's plane lies between the clusters.
    const KdNode root = kd.nodes[0];
    ASSERT_FALSE(root.isLeaf());
    EXPECT_GE(root.split(), 0.2f - 1e-3f);
    EXPECT_LE(root.split(), 0.8f + 1e-3f);
    expectTracesMatch(m, kd, rays(300, 9));
}

// Overlapping triangles in one plane: every split that pays by the SAH
// copies most of them to both sides, level after level (8.6 million
// references for 2,500 triangles without a cap); the reference cap ends it
// with a message, and the tree still traces like brute force.
TEST(KdFullSah, OverlappingCoplanarTrianglesStopAtTheReferenceCap) {
    std::mt19937 rng(12);
    std::uniform_real_distribution<float> u(0.0f, 0.7f);
    std::vector<Vec3> c;
    for (int i = 0; i < 2500; ++i) {
        const Vec3 a{u(rng), u(rng), 0.5f};
        c.insert(c.end(), {a, a + Vec3{0.3f, 0.02f, 0.0f}, a + Vec3{0.05f, 0.3f, 0.0f}});
    }
    const Mesh m = fromTriangles(c);
    const HostKdTree kd = buildKdTreeFullSah(m.positions, m.triangles);
    ASSERT_TRUE(check(m, kd).ok);
    EXPECT_LE(kd.stats.refs, 32u * 2500u + 8192u);
    ASSERT_FALSE(kd.stats.warnings.empty());
    EXPECT_NE(kd.stats.warnings[0].find("reference cap"), std::string::npos) << kd.stats.warnings[0];
    expectTracesMatch(m, kd, rays(300, 4));
}

TEST(KdFullSah, CapsEndTheBuildWithAMessage) {
    const Mesh m = makeRandomTriangles(2000, 0.05f, 6);
    KdFullSahConfig cfg;
    cfg.maxNodes = 64;
    HostKdTree kd = buildKdTreeFullSah(m.positions, m.triangles, cfg);
    ASSERT_TRUE(check(m, kd).ok);
    ASSERT_FALSE(kd.stats.warnings.empty());
    EXPECT_NE(kd.stats.warnings[0].find("node cap"), std::string::npos) << kd.stats.warnings[0];
    EXPECT_LE(kd.nodes.size(), 64u);
    expectTracesMatch(m, kd, rays(200, 2));
    cfg = {};
    cfg.maxDepth = 3;
    kd = buildKdTreeFullSah(m.positions, m.triangles, cfg);
    ASSERT_TRUE(check(m, kd).ok);
    ASSERT_FALSE(kd.stats.warnings.empty());
    EXPECT_NE(kd.stats.warnings[0].find("depth cap"), std::string::npos) << kd.stats.warnings[0];
    EXPECT_LE(kd.stats.maxDepth, 3u);
    expectTracesMatch(m, kd, rays(200, 2));
    // Empty and non-finite input.
    EXPECT_TRUE(buildKdTreeFullSah(std::vector<Vec3>{}, std::vector<Tri>{}).nodes.empty());
    const std::vector<Vec3> bad{Vec3{0, 0, 0}, Vec3{INFINITY, 0, 0}, Vec3{0, 1, 0}};
    const HostKdTree none = buildKdTreeFullSah(bad, std::vector<Tri>{Tri{{0, 1, 2}}});
    EXPECT_TRUE(none.nodes.empty());
    ASSERT_EQ(none.stats.warnings.size(), 1u);
}
