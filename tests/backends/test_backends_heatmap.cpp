// view.heatmap on both backends: the frame's totals and every pixel's colour
// are the traversal's own counts, summed here over the same camera rays
// through a structure built on the host from the same posed triangles (the
// CPU builders; the GPU's LBVH variants build the same trees). The GPU's
// kd-tree walk is Aila & Laine's speculative one (accel/kdtree/kd_traverse.h:
// a thread walks on past a leaf until its warp agrees): it reads more nodes
// and steps back more often than the host's one-thread walk over the same
// tree, as many as its warps make it, and tests the same triangles. On the
// GPU a ray whose two nearest hits differ in the last bit of their
// distances may be counted one node off (fused multiply-adds: see the
// test); the triangles copied in leaf order count exactly as the indexed ones.
#include <gtest/gtest.h>

#include <vector>

#include "accel/host_accel.h"
#include "accel/kdtree/kd_cpu_builder.h"
#include "backend_types.h"
#include "determinism_scene.h"
#include "render/flat_scene.h"
#include "render/heatmap.h"
#include "render/instancing.h"
#include "accel/kdtree/kd_config.h"
#include "test_util.h"

namespace strata {
namespace {

template <class B>
class BackendHeatmap : public ::testing::Test {};
TYPED_TEST_SUITE(BackendHeatmap, test::Backends, test::BackendName);

struct HeatReference {
    std::vector<TraversalStats> pixels;
    uint64_t nodes = 0, triangles = 0, steps = 0, blas = 0;
};

// Each pixel's camera ray through its centre, traced with counters through
// the structure s.options.accel builds on the host at time t (flat mode,
// collapsed 8 wide with accel.width = 8; or instanced mode's two levels).
HeatReference heatReference(const Scene& s, float t) {
    const int w = s.options.render.width, h = s.options.render.height;
    FlatScene flat = flattenScene(s);
    std::vector<Vec3> pos, nrm;
    poseFlatScene(s, flat, t, pos, nrm);
    std::vector<Aabb> bounds;
    triangleBounds(pos, flat.tris, bounds);
    HostAccel accel;
    HostKdTree kd;
    InstancedHost instanced;
    const CameraView cam = makeCameraView(s, t, w, h);
    SceneView sv;
    if (s.options.accel.mode == AccelMode::Instanced) {
        instanced.build(s, flat, pos, bounds, t, s.options.accel);
        sv = hostSceneView(s, flat, pos, nrm, BvhView{}, cam);
        sv.tl = instanced.view();
    } else if (s.options.accel.builder == Builder::KdTree) {
        kd = buildKdTreeCpu(pos, flat.tris, kdConfigOf(s.options.accel));
        sv = hostSceneView(s, flat, pos, nrm, BvhView{}, cam);
        sv.kd = kd.view();
    } else {
        buildHostAccel(bounds, s.options.accel, accel);  // the LBVH variants with the GPU's code
        sv = hostSceneView(s, flat, pos, nrm, accel.view(s.options.accel), cam);
        collapseHostAccel(s.options.accel, accel);  // accel.width = 8: the collapsed tree
        sv.wide = accel.wideView(s.options.accel);
    }
    HeatReference ref;
    ref.pixels.resize(size_t(w) * h);
    for (uint32_t i = 0; i < uint32_t(w * h); ++i) {
        TraversalStats& st = ref.pixels[i];
        traceClosest(sv, pixelCentreRay(cam, uint32_t(w), uint32_t(h), i), &st);
        ref.nodes += st.nodesVisited;
        ref.triangles += st.primsTested;
        ref.steps += st.steps;
        ref.blas += st.blasEntries;
    }
    return ref;
}

// One frame with view.heatmap = shown: its record, its image.
struct HeatFrame {
    FrameRecord rec;
    std::vector<uint8_t> rgb;
};
template <class B>
HeatFrame heatFrame(Scene s, Heatmap shown, float t) {
    s.options.view.heatmap = shown;
    auto r = test::makeOn<B>(s);
    r->renderFrame(t, 0);
    r->finish();
    HeatFrame f;
    EXPECT_TRUE(r->popRecord(f.rec));
    r->readImage(f.rgb);
    return f;
}

Scene heatScene() {
    Scene s = test::animatedScene();  // triangles only, moving: the posed frame is what is counted
    s.options.render.width = 40;
    s.options.render.height = 24;
    s.options.render.threads = 2;
    return s;
}

TYPED_TEST(BackendHeatmap, TotalsAndColoursAreTheTraversalsOwnCountsWithEveryBuilder) {
    REQUIRE_BACKEND();
    const float t = 0.3f;
    const Scene base = test::onBackend<TypeParam>(heatScene());
    for (const test::AccelVariant& v : test::accelVariantsOf<TypeParam>(base.options)) {
        Scene s = base;
        test::applyVariant(s.options, v);
        const HeatReference ref = heatReference(s, t);
        ASSERT_GT(ref.triangles, 0u) << v.name();
        // The GPU kd-tree's walk speculates (above), and its tree may move a
        // plane by a float against the CPU's (1% of triangles tested).
        const bool cuda = TypeParam::kind == Backend::Cuda;
        const bool kd = cuda && v.builder == Builder::KdTree;
        // The GPU fuses multiply-adds (the camera ray's direction, the
        // triangle test), as the host does not: a ray whose two nearest
        // candidates are a last bit apart may cull one node more or less on
        // the GPU (2 of these 960 rays in the 8-wide H-PLOC tree). At most 3
        // pixels, and the totals within 0.1%; the host's walk is exact.
        const bool exact = !cuda;
        const size_t offPixels = exact ? 0 : kd ? ref.pixels.size() / 20 : 3;
        // accel.copy_leaf_tris changes nothing the walk counts, on either
        // backend: the frame with the copy against one without it, exactly.
        Scene indexed = s;
        indexed.options.accel.copyLeafTris = false;
        const bool copies = copiesLeafTris(s.options.accel, false);
        for (Heatmap shown : {Heatmap::Nodes, Heatmap::Triangles, Heatmap::Steps}) {
            const HeatFrame f = heatFrame<TypeParam>(s, shown, t);
            if (!kd) {
                const double slack = exact ? 0.0 : 0.001;
                EXPECT_NEAR(double(f.rec.heatNodes), double(ref.nodes), slack * ref.nodes) << v.name();
                EXPECT_NEAR(double(f.rec.heatTriangles), double(ref.triangles), slack * ref.triangles) << v.name();
                EXPECT_NEAR(double(f.rec.heatSteps), double(ref.steps), slack * ref.steps) << v.name();
            } else {
                EXPECT_NEAR(double(f.rec.heatTriangles), double(ref.triangles), 0.01 * ref.triangles) << v.name();
                EXPECT_GE(double(f.rec.heatNodes), 0.99 * ref.nodes) << v.name();
                EXPECT_LE(double(f.rec.heatNodes), 1.25 * ref.nodes) << v.name();
                EXPECT_GE(double(f.rec.heatSteps), 0.99 * ref.steps) << v.name();
                EXPECT_LE(double(f.rec.heatSteps), 1.25 * ref.steps) << v.name();
            }
            EXPECT_GT(f.rec.stageMs("heatmap"), 0.0) << v.name();
            // Every pixel shows its own count on the default scale.
            const float top = heatmapScaleOf(shown, 0);
            size_t differ = 0;
            for (size_t i = 0; i < ref.pixels.size(); ++i) {
                const uint32_t c = heatColor(float(heatOf(ref.pixels[i], shown)), top);
                differ += f.rgb[3 * i] != (c & 255) || f.rgb[3 * i + 1] != ((c >> 8) & 255) ||
                          f.rgb[3 * i + 2] != ((c >> 16) & 255);
            }
            if (!kd || shown == Heatmap::Triangles) EXPECT_LE(differ, offPixels) << v.name() << " " << name(shown);
            if (copies) {
                const HeatFrame g = heatFrame<TypeParam>(indexed, shown, t);
                EXPECT_EQ(g.rec.heatNodes, f.rec.heatNodes) << v.name() << ", copy off";
                EXPECT_EQ(g.rec.heatTriangles, f.rec.heatTriangles) << v.name() << ", copy off";
                EXPECT_EQ(g.rec.heatSteps, f.rec.heatSteps) << v.name() << ", copy off";
                EXPECT_EQ(g.rgb, f.rgb) << v.name() << " " << name(shown) << ", copy off";
            }
        }
    }
}

// Off: no heatmap stage time, zero totals, the rendered image; the counts
// of a stack traversal and of the skip links differ (what the view is for),
// and instanced mode counts its two levels.
TYPED_TEST(BackendHeatmap, OffCountsNothingAndTraversalsDiffer) {
    REQUIRE_BACKEND();
    Scene s = test::onBackend<TypeParam>(heatScene());
    s.options.accel.builder = Builder::LbvhSkip;
    const HeatFrame off = heatFrame<TypeParam>(s, Heatmap::Off, 0.0f);
    EXPECT_EQ(off.rec.heatNodes + off.rec.heatTriangles + off.rec.heatSteps + off.rec.heatBlas, 0u);
    EXPECT_EQ(off.rec.stageMs("heatmap"), 0.0);
    const HeatFrame stack = heatFrame<TypeParam>(s, Heatmap::Nodes, 0.0f);
    s.options.accel.traversal = Traversal::Stackless;
    const HeatFrame skip = heatFrame<TypeParam>(s, Heatmap::Nodes, 0.0f);
    EXPECT_NE(stack.rec.heatNodes, skip.rec.heatNodes);
    EXPECT_NE(stack.rgb, skip.rgb);
    EXPECT_NE(off.rgb, stack.rgb);
    EXPECT_GT(skip.rec.heatSteps, 0u);
    // Instanced mode counts both levels: the top level's nodes come on top
    // of the meshes' (its triangles are the same ones, tested in object space).
    s.options.accel.traversal = Traversal::Stack;
    s.options.accel.builder = Builder::LbvhKarras;
    const HeatFrame flat = heatFrame<TypeParam>(s, Heatmap::Nodes, 0.0f);
    s.options.accel.mode = AccelMode::Instanced;
    const HeatFrame two = heatFrame<TypeParam>(s, Heatmap::Nodes, 0.0f);
    EXPECT_GT(two.rec.heatTriangles, 0u);
    EXPECT_GT(two.rec.heatNodes, 0u);
    EXPECT_NE(two.rec.heatNodes, flat.rec.heatNodes);
    EXPECT_NE(two.rgb, off.rgb);
    // ... and the BLASes its rays enter, apart from the triangles: none in
    // flat mode; in instanced mode the host's two-level walk's counts of
    // both, and view.heatmap = blas draws each pixel's own count.
    EXPECT_EQ(flat.rec.heatBlas, 0u);
    const HeatReference ref = heatReference(s, 0.0f);
    ASSERT_GT(ref.blas, 0u);
    const double slack = TypeParam::kind == Backend::Cuda ? 0.001 : 0.0;  // fused multiply-adds (above)
    EXPECT_NEAR(double(two.rec.heatBlas), double(ref.blas), slack * ref.blas);
    EXPECT_NEAR(double(two.rec.heatTriangles), double(ref.triangles), slack * ref.triangles);
    const HeatFrame blas = heatFrame<TypeParam>(s, Heatmap::Blas, 0.0f);
    EXPECT_EQ(blas.rec.heatBlas, two.rec.heatBlas);
    EXPECT_NE(blas.rgb, two.rgb);
    size_t differ = 0;
    for (size_t i = 0; i < ref.pixels.size(); ++i) {
        const uint32_t c = heatColor(float(heatOf(ref.pixels[i], Heatmap::Blas)), heatmapScaleOf(Heatmap::Blas, 0));
        differ += blas.rgb[3 * i] != (c & 255) || blas.rgb[3 * i + 1] != ((c >> 8) & 255) ||
                  blas.rgb[3 * i + 2] != ((c >> 16) & 255);
    }
    EXPECT_LE(differ, TypeParam::kind == Backend::Cuda ? 3u : 0u);
}

}  // namespace
}  // namespace strata
