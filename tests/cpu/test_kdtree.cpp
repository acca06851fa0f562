// The CPU reference kd-tree (Zhou08 stages), its checker and its traversal:
// the checker against good and deliberately broken trees, the traversal
// against brute force.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "kd_test_util.h"
#include "test_util.h"

using namespace strata;
using namespace strata::test;

TEST(KdCpuBuilder, ValidOnRandomTriangles) {
    for (uint32_t n : {0u, 1u, 2u, 3u, 7u, 64u, 65u, 200u, 5000u, 20000u}) {
        Mesh m = test::makeRandomTriangles(n, n > 1000 ? 0.02f : 0.1f, n + 11);
        HostKdTree kd = buildKdTreeCpu(m.positions, m.triangles);
        KdReport r = check(m, kd);
        EXPECT_TRUE(r.ok) << n << ": " << (r.errors.empty() ? "" : r.errors[0]);
        EXPECT_TRUE(kd.stats.warnings.empty()) << n << ": " << kd.stats.warnings[0];
        if (n > 64) {
            EXPECT_GT(kd.stats.largeIterations, 1u) << n;
            EXPECT_GT(kd.stats.smallRoots, 1u) << n;
            EXPECT_LT(r.maxLeafSize, 64u) << n;
        }
        if (n == 0) EXPECT_EQ(kd.nodes.size(), 0u);
    }
}

TEST(KdCpuBuilder, ValidOnBadInput) {
    Mesh one = test::makeRandomTriangles(1, 0.05f, 5);
    std::vector<Vec3> same, point, planar;
    for (int i = 0; i < 3000; ++i) same.insert(same.end(), one.positions.begin(), one.positions.end());
    for (int i = 0; i < 3000; ++i) point.insert(point.end(), 3, Vec3{0.3f, 0.3f, 0.3f});
    std::mt19937 rng(9);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    for (int i = 0; i < 3000; ++i)
        for (int k = 0; k < 3; ++k) planar.push_back(Vec3{u(rng), u(rng), 0.5f});
    std::vector<Vec3> lines;  // zero-area slivers
    for (int i = 0; i < 3000; ++i) {
        Vec3 a{u(rng), u(rng), u(rng)}, b{u(rng), u(rng), u(rng)};
        lines.insert(lines.end(), {a, b, lerp(a, b, 0.5f)});
    }
    struct Case {
        const char* name;
        Mesh mesh;
    } cases[] = {
        {"coincident", fromTriangles(same)},
        {"one point", fromTriangles(point)},
        {"planar", fromTriangles(planar)},
        {"slivers", fromTriangles(lines)},
        {"grid boxes", makeGridBoxes(8)},
        {"tiny", scaled(test::makeRandomTriangles(3000, 0.05f, 3), 1e-20f)},
        {"huge", scaled(test::makeRandomTriangles(3000, 0.05f, 4), 1e20f)},
        {"far offset", scaled(test::makeRandomTriangles(3000, 0.05f, 6), 1.0f, make3(1e5f))},
    };
    for (const Case& c : cases) {
        HostKdTree kd = buildKdTreeCpu(c.mesh.positions, c.mesh.triangles);
        KdReport r = check(c.mesh, kd);
        EXPECT_TRUE(r.ok) << c.name << ": " << (r.errors.empty() ? "" : r.errors[0]);
        EXPECT_LE(r.maxDepth, uint32_t(kKdMaxDepth)) << c.name;
        EXPECT_GT(kd.nodes.size(), 0u) << c.name;
    }
}

TEST(KdCpuBuilder, CapsEndTheBuildWithAMessage) {
    Mesh m = test::makeRandomTriangles(3000, 0.05f, 8);
    KdConfig cfg;
    cfg.maxDepth = 3;
    HostKdTree kd = buildKdTreeCpu(m.positions, m.triangles, cfg);
    EXPECT_TRUE(check(m, kd).ok);
    ASSERT_FALSE(kd.stats.warnings.empty());
    EXPECT_NE(kd.stats.warnings[0].find("depth cap"), std::string::npos);
    cfg = KdConfig{};
    cfg.maxNodes = 20;
    kd = buildKdTreeCpu(m.positions, m.triangles, cfg);
    EXPECT_TRUE(check(m, kd).ok);
    EXPECT_LE(kd.nodes.size(), 20u);
    ASSERT_FALSE(kd.stats.warnings.empty());
    EXPECT_NE(kd.stats.warnings[0].find("node cap"), std::string::npos);
}

TEST(KdCpuBuilder, SahSplitsBeatOneLeaf) {
    Mesh m = test::makeRandomTriangles(5000, 0.02f, 12);
    HostKdTree kd = buildKdTreeCpu(m.positions, m.triangles);
    KdReport r = check(m, kd);
    ASSERT_TRUE(r.ok);
    KdConfig c;
    EXPECT_LT(r.sahCost, 0.05f * c.intersectionCost * 5000);
    EXPECT_EQ(r.refs, kd.stats.refs);
}

TEST(KdValidator, DetectsBrokenTrees) {
    Mesh m = test::makeRandomTriangles(2000, 0.05f, 3);
    const HostKdTree good = buildKdTreeCpu(m.positions, m.triangles);
    ASSERT_TRUE(check(m, good).ok);
    auto firstLeaf = [&](const HostKdTree& t, uint32_t minCount) {
        for (uint32_t i = 0; i < t.nodes.size(); ++i)
            if (t.nodes[i].isLeaf() && t.nodes[i].primCount() >= minCount) return i;
        return 0u;
    };
    auto firstInner = [&](const HostKdTree& t) {
        for (uint32_t i = 0; i < t.nodes.size(); ++i)
            if (!t.nodes[i].isLeaf()) return i;
        return 0u;
    };
    {  // a leaf loses a triangle
        HostKdTree t = good;
        uint32_t l = firstLeaf(t, 2);
        t.nodes[l] = KdNode::leaf(t.nodes[l].firstPrim(), t.nodes[l].primCount() - 1);
        EXPECT_FALSE(check(m, t).ok);
    }
    {  // a leaf references a wrong triangle
        HostKdTree t = good;
        uint32_t l = firstLeaf(t, 1);
        uint32_t& id = t.primIndex[t.nodes[l].firstPrim()];
        id = (id + 1000) % 2000;
        EXPECT_FALSE(check(m, t).ok);
    }
    {  // triangle id out of range
        HostKdTree t = good;
        t.primIndex[t.nodes[firstLeaf(t, 1)].firstPrim()] = 2000;
        EXPECT_FALSE(check(m, t).ok);
    }
    {  // leaf range past primIndex
        HostKdTree t = good;
        uint32_t l = firstLeaf(t, 1);
        t.nodes[l] = KdNode::leaf(uint32_t(t.primIndex.size()) - 1, 5);
        EXPECT_FALSE(check(m, t).ok);
    }
    {  // children out of range
        HostKdTree t = good;
        uint32_t i = firstInner(t);
        t.nodes[i] = KdNode::inner(t.nodes[i].axis(), t.nodes[i].split(), uint32_t(t.nodes.size()) - 1);
        EXPECT_FALSE(check(m, t).ok);
    }
    {  // a cycle back to the root
        HostKdTree t = good;
        uint32_t i = t.nodes[0].leftChild();
        while (t.nodes[i].isLeaf()) ++i;
        t.nodes[i] = KdNode::inner(t.nodes[i].axis(), t.nodes[i].split(), 0);
        EXPECT_FALSE(check(m, t).ok);
    }
    {  // a split outside its cell: the children no longer partition the parent
        HostKdTree t = good;
        t.nodes[0] = KdNode::inner(t.nodes[0].axis(), 5.0f, t.nodes[0].leftChild());
        EXPECT_FALSE(check(m, t).ok);
    }
    {  // a moved split plane: cells no longer match the triangles
        HostKdTree t = good;
        const KdNode r = t.nodes[0];
        t.nodes[0] = KdNode::inner(r.axis(), r.split() + 0.1f, r.leftChild());
        EXPECT_FALSE(check(m, t).ok);
    }
    {  // a root cell that misses part of the scene
        HostKdTree t = good;
        t.bounds.hi.x -= 0.2f;
        EXPECT_FALSE(check(m, t).ok);
    }
    {  // an empty tree over triangles
        HostKdTree t;
        EXPECT_FALSE(check(m, t).ok);
    }
}

TEST(KdTraversal, ClosestAndAnyHitMatchBruteForce) {
    for (uint32_t n : {1u, 3u, 100u, 5000u}) {
        Mesh m = test::makeRandomTriangles(n, n > 1000 ? 0.03f : 0.2f, n * 3 + 1);
        HostKdTree kd = buildKdTreeCpu(m.positions, m.triangles);
        std::mt19937 rng(n);
        std::vector<Ray> rays;
        for (int i = 0; i < 3000; ++i) rays.push_back(randomRay(rng));
        for (int i = 0; i < 200; ++i) {  // bounded rays
            Ray r = randomRay(rng);
            r.tmax = 0.3f;
            r.tmin = 0.01f;
            rays.push_back(r);
        }
        expectTracesMatch(m, kd, rays);
    }
    Mesh sphere = test::makeSphere(make3(0.5f), 0.4f, 64);
    expectTracesMatch(sphere, buildKdTreeCpu(sphere.positions, sphere.triangles), [] {
        std::mt19937 rng(2);
        std::vector<Ray> rays;
        for (int i = 0; i < 3000; ++i) rays.push_back(randomRay(rng));
        return rays;
    }());
}

// Rays parallel to the axes (so to every split plane of one axis), and rays
// lying exactly in the tree's split planes, over axis-aligned boxes whose
// faces lie in split planes.
TEST(KdTraversal, ParallelRaysAndTrianglesInSplitPlanes) {
    for (Mesh m : {makeGridBoxes(8), test::makeRandomTriangles(3000, 0.05f, 21)}) {
        HostKdTree kd = buildKdTreeCpu(m.positions, m.triangles);
        ASSERT_TRUE(check(m, kd).ok);
        std::mt19937 rng(4);
        std::uniform_real_distribution<float> u(0.0f, 1.0f);
        std::vector<Ray> rays;
        const Vec3 axes[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
        for (int i = 0; i < 1200; ++i) {
            Ray r;
            r.org = Vec3{u(rng), u(rng), u(rng)} * 1.2f - make3(0.1f);
            r.dir = axes[i % 6];
            rays.push_back(r);
        }
        // Rays in split planes: origin on the plane, direction in it. Planes
        // through vertices only: a plane one float beside a wall
        // (kdCandidatePlane) passes one float outside the wall's edges, where
        // brute force's own rounding decides hit or miss.
        std::set<std::pair<int, float>> onGeometry;
        for (const Vec3& p : m.positions)
            for (int a = 0; a < 3; ++a) onGeometry.insert({a, p[a]});
        std::vector<std::pair<int, float>> planes;
        for (const KdNode& n : kd.nodes)
            if (!n.isLeaf() && onGeometry.count({n.axis(), n.split()})) planes.push_back({n.axis(), n.split()});
        for (int i = 0; i < 2400 && !planes.empty(); ++i) {
            auto [a, s] = planes[size_t(rng() % planes.size())];
            Ray r;
            r.org = Vec3{u(rng), u(rng), u(rng)} * 1.2f - make3(0.1f);
            r.org[a] = s;
            r.dir = normalize(Vec3{u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f});
            r.dir[a] = 0.0f;
            if (i % 3 == 0) r.dir = axes[2 * ((a + 1 + i % 2) % 3)];  // axis-aligned within the plane
            r.dir = normalize(r.dir);
            rays.push_back(r);
        }
        // Grid-aligned rays along box edges and faces.
        for (int i = 0; i < 600; ++i) {
            Ray r;
            r.org = Vec3{float(rng() % 17) / 16.0f, float(rng() % 17) / 16.0f, -0.5f};
            r.org[i % 2] = -0.5f + 0.0f * r.org[i % 2];
            r.org.z = float(rng() % 17) / 16.0f;
            r.dir = axes[2 * (i % 2)];
            rays.push_back(r);
        }
        expectTracesMatch(m, kd, rays);
    }
}

// The CPU backend traces the kd-tree when accel.builder = kdtree: the same
// image as over the SAH BVH (closest hits agree; ties on shared edges may
// change a few pixels).
TEST(KdCpuBackend, RendersLikeTheBvh) {
    Scene s = test::sceneWith(test::makeSphere({0, 0, 0}, 1.0f, 48));
    s.environment.color = make3(1.0f);
    s.camera.position = {0, 0, 3};
    s.camera.target = {0, 0, 0};
    s.camera.fovYDegrees = 40;
    s.options.render.width = 40;
    s.options.render.height = 40;
    s.options.render.spp = 2;
    s.options.render.threads = 2;
    std::vector<uint8_t> img[2];
    for (int k = 0; k < 2; ++k) {
        s.options.set("accel.builder", k ? "kdtree" : "cpu-sah");
        auto r = makeCpuRenderer(s);
        r->renderFrame(0.0f, 0);
        r->readImage(img[k]);
    }
    ASSERT_EQ(img[0].size(), img[1].size());
    size_t differ = 0;
    for (size_t i = 0; i < img[0].size(); ++i) differ += img[0][i] != img[1][i];
    EXPECT_LE(differ, img[0].size() / 100);
}
