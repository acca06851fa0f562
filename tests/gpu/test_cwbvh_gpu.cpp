// GPU tests of the 8-wide BVH (each skips without a CUDA device): the GPU's
// per-frame collapse makes the tree the host collapse makes from the same
// binary tree (the same tree read from the root: the GPU numbers nodes and
// leaf entries as its threads make them), also under races over a million
// primitives, and the wide traversal's closest hits equal brute force for
// every builder, on a tree deeper than the fast stack too.
#include <gtest/gtest.h>

#include "accel/cpu/sah_builder.h"
#include "accel/wide/collapse_host.h"
#include "check/gpu_probe.h"
#include "check/hit_compare.h"
#include "lbvh_cases.h"
#include "require_gpu.h"

using namespace strata;

namespace {

// The GPU's wide tree against the host collapse of the GPU's binary tree.
std::string wideDifferences(const Scene& s, float t) {
    const GpuBuildResult g = buildOnGpuForValidation(s, t);
    const HostBvh binary{g.nodes, g.primIndex, g.root};
    std::vector<Aabb> bounds;
    triangleBounds(g.positions, s.meshes[0].triangles, bounds);
    const CwbvhReport rep = validateCwbvh(g.wide.view(), bounds);
    if (!rep.ok) return "invalid: " + (rep.errors.empty() ? std::string() : rep.errors[0]);
    return compareCwbvhFromRoots(collapseToCwbvh(binary.view(), s.options.accel.wideCollapse), g.wide);
}

}  // namespace

TEST(GpuCwbvh, CollapseEqualsTheHostCollapse) {
    REQUIRE_GPU();
    for (const char* how : {"sah", "greedy"})
        for (const char* builder : {"lbvh-karras", "lbvh-apetrei", "lbvh-skip", "hploc"})
            for (const test::LbvhCase& c : test::lbvhCases()) {
                Scene s = test::sceneWith(c.mesh);
                s.options.set("accel.builder", builder);
                s.options.set("accel.width", "8");
                s.options.set("accel.wide_collapse", how);
                EXPECT_EQ(wideDifferences(s, 0.0f), "") << c.name << ", " << builder << ", " << how;
            }
}

// Many threads making nodes at once: every collapse of a million
// duplicate-heavy triangles equals the host's.
TEST(GpuCwbvh, CollapseIsDeterministicUnderRaces) {
    REQUIRE_GPU();
    Scene s = test::sceneWith(test::makeDuplicateHeavy(1000000, 1000, 7));
    s.options.set("accel.width", "8");
    for (const char* how : {"sah", "greedy"})
        for (const char* builder : {"lbvh-karras", "hploc"}) {
            s.options.set("accel.builder", builder);
            s.options.set("accel.wide_collapse", how);
            for (int r = 0; r < 2; ++r) EXPECT_EQ(wideDifferences(s, 0.0f), "") << builder << " " << how << " " << r;
        }
}

// Closest hits through the wide tree on the GPU equal those through the
// binary tree it was made from (the same triangle test, FMA-contracted on
// the GPU: no ray may differ), and brute force's (the same triangle, or the
// same distance to a few ulps), for every builder; the deep tree's too.
TEST(GpuCwbvh, HitsEqualTheBinaryTreesAndBruteForce) {
    REQUIRE_GPU();
    struct Case {
        Mesh mesh;
        std::vector<Ray> rays;
    };
    Mesh random = test::makeRandomTriangles(30000, 0.03f, 17);
    Mesh deep = test::makeDeepCoincident(1u << 17);
    const Case cases[] = {{random, test::raysAtTriangles(random, 20000, 5)},
                          {deep, test::raysIntoDeepCoincident(2000, 3)}};
    for (const Case& c : cases) {
        Scene s = test::sceneWith(c.mesh);
        const GeometryView geo = test::geometryOf(c.mesh);
        for (const char* builder : {"lbvh-karras", "lbvh-apetrei", "lbvh-skip", "hploc"}) {
            s.options.set("accel.builder", builder);
            s.options.set("accel.width", "2");
            const std::vector<HitRecord> binary = traceOnGpuForValidation(s, 0.0f, c.rays);
            s.options.set("accel.width", "8");
            for (const char* how : {"sah", "greedy"}) {
                s.options.set("accel.wide_collapse", how);
                const std::vector<HitRecord> got = traceOnGpuForValidation(s, 0.0f, c.rays);
                size_t differ = 0, brute = 0, hits = 0;
                for (size_t i = 0; i < c.rays.size(); ++i) {
                    const HitRecord ref = traceBruteForce(geo, c.rays[i]);
                    hits += isHit(ref);
                    differ += !sameHit(got[i], binary[i], 0.0f);
                    brute += !sameHit(got[i], ref);
                }
                EXPECT_EQ(differ, 0u) << builder << " " << how << ": rays whose wide and binary hits differ";
                EXPECT_LE(brute, c.rays.size() / 2000)
                    << builder << " " << how << ": rays that disagree with brute force";
                EXPECT_GT(hits, c.rays.size() / 4) << builder << " " << how;
            }
        }
    }
}
