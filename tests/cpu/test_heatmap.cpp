// view.heatmap's parts on the host: the traversal counters on cases whose
// counts are known, the colour scale, and the tree quality the panel and
// bench print (against validate's measures of the same trees).
#include <gtest/gtest.h>

#include <cmath>

#include "accel/bvh_validate.h"
#include "accel/kdtree/kd_cpu_builder.h"
#include "accel/kdtree/kd_quality.h"
#include "accel/lbvh/lbvh_host.h"
#include "accel/tree_quality.h"
#include "lbvh_cases.h"
#include "render/heatmap.h"

using namespace strata;

namespace {

SceneView viewOf(const Mesh& m) {
    SceneView s;
    s.geo = test::geometryOf(m);
    return s;
}

// A ray that misses the scene's box reads the root and stops: one node, no
// triangle, no step back, with every traversal.
TEST(HeatmapCounters, ARayPastTheSceneReadsOnlyTheRoot) {
    Mesh m = test::makeRandomTriangles(500, 0.05f, 7);
    const auto bounds = test::boundsOf(m);
    LbvhHostResult skip = buildLbvhHost(bounds, 63, LbvhVariant::ApetreiSkip);
    Ray r;
    r.org = {5, 5, 5};
    r.dir = normalize(Vec3{1, 0.2f, 0.1f});  // away from the unit cube
    for (BvhTraversal t : {BvhTraversal::Stack, BvhTraversal::Stackless}) {
        SceneView s = viewOf(m);
        s.bvh = skip.bvh.view();
        s.bvh.skipNodes = skip.skipNodes.data();
        s.bvh.numSkipNodes = uint32_t(skip.skipNodes.size());
        s.bvh.traversal = t;
        TraversalStats st;
        EXPECT_FALSE(isHit(traceClosest(s, r, &st)));
        EXPECT_EQ(st.nodesVisited, 1u);
        EXPECT_EQ(st.primsTested, 0u);
        EXPECT_EQ(st.steps, 0u);
    }
}

// Over many rays: a step back always leads to a node read (steps <
// nodes, or none at all), every hit tested its triangle (triangles >= 1), and the stackless
// walk's reads are its moves down plus its steps along skip links; the stack
// walk reads fewer nodes than the stackless one, which visits in no order.
TEST(HeatmapCounters, StepsAndReadsAgreeWithTheWalks) {
    Mesh m = test::makeRandomTriangles(3000, 0.05f, 11);
    const auto bounds = test::boundsOf(m);
    LbvhHostResult skip = buildLbvhHost(bounds, 63, LbvhVariant::ApetreiSkip);
    HostKdTree kd = buildKdTreeCpu(m.positions, m.triangles);
    std::vector<Ray> rays = test::raysAtTriangles(m, 500, 3);
    uint64_t stackNodes = 0, skipNodes = 0;
    for (const Ray& r : rays) {
        SceneView s = viewOf(m);
        s.bvh = skip.bvh.view();
        s.bvh.skipNodes = skip.skipNodes.data();
        s.bvh.numSkipNodes = uint32_t(skip.skipNodes.size());
        TraversalStats a, b, k;
        s.bvh.traversal = BvhTraversal::Stack;
        const bool hit = isHit(traceClosest(s, r, &a));
        s.bvh.traversal = BvhTraversal::Stackless;
        traceClosest(s, r, &b);
        SceneView kv = viewOf(m);
        kv.kd = kd.view();
        traceClosest(kv, r, &k);
        for (const TraversalStats* st : {&a, &b, &k}) {
            // (A kd ray that misses the root cell reads no node.)
            EXPECT_TRUE(st->nodesVisited == 0 ? st->steps == 0 : st->steps < st->nodesVisited);
            if (hit) EXPECT_GE(st->primsTested, 1u);
        }
        // Stackless: each read after the root moves down (to a left child) or
        // along a skip link (a step); a leaf's primitive is tested once.
        EXPECT_LE(b.steps + 1, b.nodesVisited);
        EXPECT_LE(b.primsTested, b.nodesVisited);
        stackNodes += a.nodesVisited;
        skipNodes += b.nodesVisited;
    }
    EXPECT_LT(stackNodes, skipNodes);
}

TEST(HeatmapColours, ScaleRunsFromDarkBlueThroughRedToWhite) {
    auto rgb = [](uint32_t c) { return std::array<int, 3>{int(c & 255), int((c >> 8) & 255), int((c >> 16) & 255)}; };
    const auto zero = rgb(heatColor(0, 40)), top = rgb(heatColor(40, 40)), past = rgb(heatColor(80, 40));
    EXPECT_LT(zero[0] + zero[1] + zero[2], 80);  // dark
    EXPECT_GT(zero[2], zero[0]);                 // blue
    EXPECT_GT(top[0], 200);                      // red at the top
    EXPECT_LT(top[1], 60);
    EXPECT_EQ(past, (std::array<int, 3>{255, 255, 255}));  // white at twice the top
    EXPECT_EQ(heatColor(1e9f, 40) >> 24, 255u);
    EXPECT_EQ(heatColor(-3, 40), heatColor(0, 40));
    // Defaults per quantity, the user's scale over them.
    EXPECT_EQ(heatmapScaleOf(Heatmap::Nodes, 0), 100.0f);
    EXPECT_EQ(heatmapScaleOf(Heatmap::Triangles, 0), 20.0f);
    EXPECT_EQ(heatmapScaleOf(Heatmap::Steps, 0), 30.0f);
    EXPECT_EQ(heatmapScaleOf(Heatmap::Steps, 12.5f), 12.5f);
    EXPECT_EQ(heatmapScaleOf(Heatmap::Blas, 0), 4.0f);
    TraversalStats st;
    st.nodesVisited = 7;
    st.primsTested = 5;
    st.steps = 3;
    st.blasEntries = 2;
    EXPECT_EQ(heatOf(st, Heatmap::Nodes), 7u);
    EXPECT_EQ(heatOf(st, Heatmap::Triangles), 5u);
    EXPECT_EQ(heatOf(st, Heatmap::Steps), 3u);
    EXPECT_EQ(heatOf(st, Heatmap::Blas), 2u);
}

// The panel's and bench's tree line: the BVH's SAH and depth as validate
// measures them, one reference per triangle; the kd-tree's SAH as
// kdSahCost's, its depth at least the balanced depth of its leaves, its
// references its leaf entries.
TEST(TreeQuality, MatchesValidateAndTheKdTreesOwnMeasures) {
    Mesh m = test::makeRandomTriangles(4000, 0.03f, 5);
    const auto bounds = test::boundsOf(m);
    LbvhHostResult karras = buildLbvhHost(bounds, 63, LbvhVariant::Karras);
    const TreeQuality b = bvhTreeQuality(karras.bvh.view(), bounds);
    const BvhReport rep = validateBvh(karras.bvh.view(), bounds);
    EXPECT_EQ(b.structure, "binary BVH");
    EXPECT_FLOAT_EQ(float(b.sah), rep.sahCost);
    EXPECT_EQ(b.depth, rep.maxDepth);
    EXPECT_GE(b.depth, 12u);  // 4000 leaves
    EXPECT_DOUBLE_EQ(b.refsPerTriangle, 1.0);

    HostKdTree kd = buildKdTreeCpu(m.positions, m.triangles);
    const TreeQuality k = kdTreeQuality(kd.view(), m.triangles.size());
    EXPECT_EQ(k.structure, "kd-tree");
    EXPECT_DOUBLE_EQ(k.sah, kdSahCost(kd.view(), 1.0, 1.0));
    EXPECT_DOUBLE_EQ(k.refsPerTriangle, double(kd.primIndex.size()) / m.triangles.size());
    EXPECT_GE(k.refsPerTriangle, 1.0);
    uint32_t leaves = 0;
    for (const KdNode& n : kd.nodes) leaves += n.isLeaf();
    EXPECT_GE(double(k.depth), std::ceil(std::log2(double(leaves))));
    EXPECT_LE(k.depth, uint32_t(kKdMaxDepth));
    EXPECT_NE(k.summary().find("kd-tree: SAH"), std::string::npos);
    EXPECT_EQ(TreeQuality{}.summary(), "not measured");
}

}  // namespace
