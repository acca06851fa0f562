// What both backends must render alike, one typed test per subject (the CUDA
// instance skips without a GPU): the furnace, bit-identical frames for the
// same seed, the same image with every builder and traversal, refitted trees
// following the animation, instanced mode showing the flat scene while
// options switch live, and the VD last bounce's any-hit rays changing nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "accel/leaf_tris.h"
#include "backend_types.h"
#include "determinism_scene.h"
#include "instanced_scene.h"
#include "loader_test_util.h"
#include "scene/scene_loader.h"
#include "test_util.h"
#include "vd_test_scene.h"

namespace strata {
namespace {

template <class B>
class BackendRender : public ::testing::Test {};
TYPED_TEST_SUITE(BackendRender, test::Backends, test::BackendName);

// The lit VD test scene (written into dir) on backend B at w x h, spp.
template <class B>
Scene litVdScene(const test::TempDir& dir, int w, int h, int spp, bool mixed = false) {
    const std::string text = test::vdLitTestScene(mixed ? test::vdMixedTestScene(dir) : test::kVdTestScene);
    Scene s = test::onBackend<B>(loadScene(dir.write("s.json", text)));
    s.options.render.width = w;
    s.options.render.height = h;
    s.options.render.spp = spp;
    return s;
}

// The animated test scene on backend B at 48 x 32, 2 spp (two CPU threads):
// the frames the structure-switch tests compare.
template <class B>
Scene smallAnimatedScene() {
    Scene s = test::onBackend<B>(test::animatedScene());
    s.options.render.width = 48;
    s.options.render.height = 32;
    s.options.render.spp = 2;
    s.options.render.threads = 2;
    return s;
}

// Two renderers of s that differ in one option: key = off, then key = on
// (s keeps on).
template <class B>
std::pair<std::unique_ptr<Renderer>, std::unique_ptr<Renderer>> renderersWith(Scene& s, const char* key,
                                                                              const char* off, const char* on) {
    s.options.set(key, off);
    auto a = test::makeOn<B>(s);
    s.options.set(key, on);
    return {std::move(a), test::makeOn<B>(s)};
}

double sum(const std::vector<float>& v) {
    double s = 0;
    for (float x : v) s += x;
    return s;
}

// The furnace: a convex diffuse object of albedo a under a uniform environment
// of radiance L shows radiance a*L everywhere on it, with and without next
// event estimation; the corners see the environment itself.
TYPED_TEST(BackendRender, FurnaceConvexDiffuseShowsAlbedoTimesL) {
    REQUIRE_BACKEND();
    constexpr int w = 48;
    Material m;
    m.albedo = make3(0.6f);
    Scene s = test::onBackend<TypeParam>(test::sceneWith(test::makeSphere({0, 0, 0}, 1.0f, 48)));
    s.materials[0] = m;
    s.environment.color = make3(2.0f);
    s.camera.position = {0, 0, 3};
    s.camera.target = {0, 0, 0};
    s.camera.fovYDegrees = 40;
    s.options.render.width = w;
    s.options.render.height = w;
    s.options.render.spp = 64;
    s.options.render.bounces = 3;
    s.options.render.threads = 2;
    for (bool nee : {true, false}) {
        s.options.render.nee = nee;
        auto r = test::makeOn<TypeParam>(s);
        r->renderFrame(0.0f, 0);
        r->finish();
        std::vector<float> rad;
        r->readRadiance(rad);
        double centre = 0;
        int n = 0;
        for (int y = 16; y < 32; ++y)
            for (int x = 16; x < 32; ++x, ++n) centre += rad[3 * (y * w + x)];
        EXPECT_NEAR(centre / n, 0.6 * 2.0, 0.03) << "nee " << nee;
        EXPECT_NEAR(rad[0], 2.0f, 1e-4f);
        FrameRecord rec;
        ASSERT_TRUE(r->popRecord(rec));
        EXPECT_EQ(rec.triangles, s.triangleCount());
        EXPECT_GE(rec.rays, uint64_t(w * w * 64));
        EXPECT_GT(rec.stageMs("build"), 0.0);
    }
}

// The same scene, options, seed and frames give bit-identical frames (two
// renderers, each made from scratch) with every builder and traversal the
// backend runs; the frames differ from one another (time moves, samples add)
// and are not black.
TYPED_TEST(BackendRender, SameSceneOptionsSeedAndFramesGiveBitIdenticalImagesWithEveryBuilder) {
    REQUIRE_BACKEND();
    const Scene base = test::onBackend<TypeParam>(test::animatedScene());
    for (const test::AccelVariant& v : test::accelVariantsOf<TypeParam>(base.options)) {
        Scene s = base;
        test::applyVariant(s.options, v);
        test::Frames a = test::renderFrames(s, test::makeOn<TypeParam>),
                     b = test::renderFrames(s, test::makeOn<TypeParam>);
        ASSERT_EQ(a.radiance.size(), b.radiance.size());
        for (size_t f = 0; f < a.radiance.size(); ++f)
            EXPECT_TRUE(test::bitIdentical(a.radiance[f], b.radiance[f]))
                << v.name() << ": frame " << f << ": " << test::differing(a.radiance[f], b.radiance[f]) << " of "
                << a.radiance[f].size() << " values differ";
        EXPECT_EQ(a.image, b.image) << v.name();
        EXPECT_FALSE(test::bitIdentical(a.radiance[0], a.radiance[1])) << v.name();
        EXPECT_GT(sum(a.radiance[2]), 0.0) << v.name();
    }
}

TYPED_TEST(BackendRender, ADifferentSeedGivesADifferentImage) {
    REQUIRE_BACKEND();
    Scene s = test::onBackend<TypeParam>(test::animatedScene());
    test::Frames a = test::renderFrames(s, test::makeOn<TypeParam>);
    s.options.render.seed = 8;
    test::Frames b = test::renderFrames(s, test::makeOn<TypeParam>);
    EXPECT_FALSE(test::bitIdentical(a.radiance[0], b.radiance[0]));
}

// Every builder and traversal renders the same image: the structures differ,
// the closest hits do not (but for a few pixels whose rays pass exactly
// through an edge two triangles share).
TYPED_TEST(BackendRender, EveryBuilderAndTraversalRendersTheSameImage) {
    REQUIRE_BACKEND();
    Scene s = test::onBackend<TypeParam>(test::sceneWith(test::makeRandomTriangles(3000, 0.08f, 3)));
    s.camera.position = {0.5f, 0.5f, 2.5f};
    s.camera.target = {0.5f, 0.5f, 0.5f};
    s.environment.color = {0.4f, 0.45f, 0.5f};
    s.sun.enabled = true;
    s.sun.direction = normalize(Vec3{0.3f, 1.0f, 0.4f});
    s.options.render.width = 48;
    s.options.render.height = 32;
    s.options.render.spp = 2;
    s.options.render.threads = 2;
    std::vector<float> ref;
    for (const test::AccelVariant& v : test::accelVariantsOf<TypeParam>(s.options)) {
        test::applyVariant(s.options, v);
        std::vector<float> rad = test::renderOn<TypeParam>(s, 0.0f, 2);
        if (ref.empty()) {
            ref = rad;
            ASSERT_GT(sum(ref), 0.0);
        }
        ASSERT_EQ(rad.size(), ref.size());
        size_t differ = 0;
        for (size_t i = 0; i < rad.size(); ++i) differ += std::fabs(rad[i] - ref[i]) > 1e-3f * (1 + ref[i]);
        EXPECT_LE(differ, rad.size() / 200) << v.name();
    }
}

namespace {

// Frame `frame` at scene time t from both renderers: the same image (at
// most one pixel in 200 apart by more than 1e-3 relative).
void expectSameFrame(Renderer& rebuilt, Renderer& refitted, float t, uint64_t frame, const std::string& what) {
    std::vector<float> a, b;
    rebuilt.renderFrame(t, frame, false);
    rebuilt.readRadiance(a);
    refitted.renderFrame(t, frame, false);
    refitted.readRadiance(b);
    ASSERT_EQ(a.size(), b.size());
    ASSERT_GT(sum(a), 0.0);
    size_t differ = 0;
    for (size_t i = 0; i < a.size(); ++i) differ += std::fabs(a[i] - b[i]) > 1e-3f * (1 + a[i]);
    EXPECT_LE(differ, a.size() / 200) << what << " at t = " << t;
}

}  // namespace

// accel.rebuild = refit (and auto) follows the animation: a renderer that
// refits its tree (built at the first frame) renders each later frame of the
// animated scene as one that rebuilds every frame does, with every
// Morton-order builder; on the GPU refit's later frames refit
// ("build/refit") and sort nothing.
TYPED_TEST(BackendRender, RefitRendersTheFramesOfRebuilding) {
    REQUIRE_BACKEND();
    Scene s = smallAnimatedScene<TypeParam>();
    // Each Morton-order builder's binary tree, and two collapsed 8 wide
    // after each refit (accel.width = 8).
    const std::pair<const char*, const char*> trees[] = {{"lbvh-karras", "2"}, {"lbvh-apetrei", "2"},
                                                         {"lbvh-skip", "2"},   {"hploc", "2"},
                                                         {"lbvh-karras", "8"}, {"hploc", "8"}};
    for (auto [builder, width] : trees)
        for (const char* rebuild : {"refit", "auto"}) {
            s.options.set("accel.builder", builder);
            s.options.set("accel.width", width);
            s.options.set("accel.rebuild", "every-frame");
            auto rebuilt = test::makeOn<TypeParam>(s);
            s.options.set("accel.rebuild", rebuild);
            auto refitted = test::makeOn<TypeParam>(s);
            uint64_t frame = 0;
            for (float t : {0.0f, 0.4f, 0.9f})
                expectSameFrame(*rebuilt, *refitted, t, frame++, std::string(builder) + " " + rebuild);
            refitted->finish();
            std::vector<FrameRecord> recs;
            for (FrameRecord rec; refitted->popRecord(rec);) recs.push_back(rec);
            ASSERT_EQ(recs.size(), 3u);
            // The records (the CSV's refits_since_build, sah_growth): refit
            // counts every frame since the first; auto measures the SAH (the
            // GPU a frame late), 0 for a tree just built.
            for (size_t k = 0; k < recs.size(); ++k) {
                if (std::string(rebuild) == "refit") {
                    EXPECT_EQ(recs[k].refitsSinceBuild, k) << builder << " frame " << k;
                    EXPECT_EQ(recs[k].sahGrowth, 0.0f) << builder << " frame " << k;
                } else {
                    EXPECT_LE(recs[k].refitsSinceBuild, k) << builder << " frame " << k;
                    if (recs[k].refitsSinceBuild == 0) EXPECT_EQ(recs[k].sahGrowth, 0.0f) << builder;
                    if (TypeParam::kind == Backend::Cpu && recs[k].refitsSinceBuild > 0)
                        EXPECT_NE(recs[k].sahGrowth, 0.0f) << builder << " frame " << k;
                }
            }
            if (TypeParam::kind == Backend::Cuda && std::string(rebuild) == "refit") {
                EXPECT_EQ(recs[0].stageMs("build/refit"), 0.0) << builder << ": the first frame builds";
                EXPECT_GT(recs[0].stageMs("build/sort"), 0.0) << builder;
                for (size_t k = 1; k < recs.size(); ++k) {
                    EXPECT_GT(recs[k].stageMs("build/refit"), 0.0) << builder << " frame " << k;
                    EXPECT_EQ(recs[k].stageMs("build/sort"), 0.0) << builder << " frame " << k;
                }
            }
        }
}

// accel.copy_leaf_tris: the triangles copied in the leaf order give the
// indexed triangles' frames exactly (the same hits), built every frame and
// refitted (the copy follows the moving vertices), in flat mode (the binary
// tree's order, and the 8-wide tree's in its own) and in instanced mode
// (each BLAS's copy: the ball's in object space, scaled and turned; the
// swaying tree's in world space), and the copy is a stage of the build.
TYPED_TEST(BackendRender, CopiedLeafTrianglesRenderTheIndexedFrames) {
    REQUIRE_BACKEND();
    Scene s = smallAnimatedScene<TypeParam>();
    for (const char* mode : {"flat", "instanced", "flat, 8 wide"})
        for (const char* builder : {"lbvh-karras", "hploc", "lbvh-skip"})
            for (const char* rebuild : {"every-frame", "refit"}) {
                SCOPED_TRACE(std::string(mode) + " " + builder + " " + rebuild);
                const bool wide = std::string(mode) == "flat, 8 wide";  // the copy in the wide tree's order
                s.options.set("accel.mode", wide ? "flat" : mode);
                s.options.set("accel.width", wide ? "8" : "2");
                s.options.set("accel.builder", builder);
                s.options.set("accel.rebuild", rebuild);
                auto [indexed, copied] = renderersWith<TypeParam>(s, "accel.copy_leaf_tris", "false", "true");
                uint64_t frame = 0;
                for (float t : {0.0f, 0.4f, 0.9f}) {
                    std::vector<float> a, b;
                    indexed->renderFrame(t, frame, false);
                    indexed->readRadiance(a);
                    copied->renderFrame(t, frame++, false);
                    copied->readRadiance(b);
                    ASSERT_GT(sum(a), 0.0);
                    EXPECT_EQ(a, b) << builder << " " << rebuild << " at t = " << t;
                }
                // The copy is there (48 bytes a triangle) and made each frame.
                size_t triangles = 0;
                for (auto* r : {indexed.get(), copied.get()}) {
                    r->finish();
                    std::vector<FrameRecord> recs;
                    for (FrameRecord rec; r->popRecord(rec);) recs.push_back(rec);
                    ASSERT_EQ(recs.size(), 3u);
                    triangles = recs[2].triangles;
                    if (TypeParam::kind == Backend::Cuda)
                        EXPECT_EQ(recs[2].stageMs("build/leaf_tris") > 0.0, r == copied.get())
                            << builder << " " << rebuild;
                }
                EXPECT_GT(triangles, 0u);
                // Instanced: each mesh has one instance, so the BLASes copy each triangle once.
                EXPECT_EQ(copied->accelBytes() - indexed->accelBytes(), triangles * sizeof(LeafTri))
                    << builder << " " << rebuild;
            }
}

// accel.rebraid: the static ball opened into parts of the top level renders
// the plain two levels' frames (the same triangles tested in the same object
// space), for Karras's LBVH, Apetrei's (its root found on the device) and
// H-PLOC, built every frame and refitted; the top level holds more leaves.
// One renderer kept through the switches of builder (its static BLAS built
// again, the nodes the cut reads with it) renders them too.
TYPED_TEST(BackendRender, RebraidedTopLevelRendersThePlainFrames) {
    REQUIRE_BACKEND();
    Scene s = smallAnimatedScene<TypeParam>();
    s.options.set("accel.mode", "instanced");
    s.options.set("accel.rebraid", "64");
    auto kept = test::makeOn<TypeParam>(s);
    for (const char* builder : {"lbvh-karras", "lbvh-apetrei", "hploc"})
        for (const char* rebuild : {"every-frame", "refit"}) {
            SCOPED_TRACE(std::string(builder) + " " + rebuild);
            s.options.set("accel.builder", builder);
            s.options.set("accel.rebuild", rebuild);
            auto [plain, braided] = renderersWith<TypeParam>(s, "accel.rebraid", "0", "64");
            kept->setOptions(s.options);
            uint64_t frame = 0;
            for (float t : {0.0f, 0.4f, 0.9f}) {
                std::vector<float> a, b, c;
                plain->renderFrame(t, frame, false);
                plain->readRadiance(a);
                braided->renderFrame(t, frame, false);
                braided->readRadiance(b);
                kept->renderFrame(t, frame++, false);
                kept->readRadiance(c);
                ASSERT_GT(sum(a), 0.0);
                EXPECT_EQ(a, b) << "at t = " << t;
                EXPECT_EQ(a, c) << "the kept renderer at t = " << t;
            }
            EXPECT_GT(braided->accelBytes(), plain->accelBytes());
        }
}

// A scene of VD patches alone (direct mode, the middle level separate) has
// no flat triangles to copy: it renders, with the copy switched on.
TYPED_TEST(BackendRender, CopiedLeafTrianglesOfASceneWithoutTriangles) {
    REQUIRE_BACKEND();
    test::TempDir dir;
    const std::string text = R"({"meshes": [{"name": "m", "generator": "vd-mushroom", "params": {"patches": 2, "resolution": 32}}],
  "instances": [{"mesh": "m"}], "camera": {"position": [0, 1.2, 3], "target": [0, 0.3, 0]},
  "vd": {"max_level": 3, "middle_level": "separate"}, "lights": {"environment": {"color": [0.5, 0.55, 0.6]}}})";
    Scene s = test::onBackend<TypeParam>(loadScene(dir.write("s.json", text)));
    s.options.render.width = 32;
    s.options.render.height = 24;
    s.options.render.threads = 2;
    ASSERT_TRUE(s.options.accel.copyLeafTris);
    auto r = test::makeOn<TypeParam>(s);
    r->renderFrame(0.0f, 0, false);
    std::vector<float> rad;
    r->readRadiance(rad);
    EXPECT_GT(sum(rad), 0.0);
}

// Instanced mode with accel.rebuild = refit | auto: each deforming
// instance's BLAS is refitted (accel/toplevel/blas_refit.h) and the frames
// are the frames of rebuilding every frame; the renderer reports each BLAS
// by its instance's name with its refits.
TYPED_TEST(BackendRender, InstancedRefitRendersTheFramesOfRebuilding) {
    REQUIRE_BACKEND();
    Scene s = smallAnimatedScene<TypeParam>();
    s.instances.push_back(Instance{"tree2", 1, translation({1.1f, 0.0f, -0.6f}), {}});  // a second deforming BLAS
    s.options.set("accel.mode", "instanced");
    for (const char* builder : {"lbvh-karras", "hploc"})
        for (const char* rebuild : {"refit", "auto"}) {
            s.options.set("accel.builder", builder);
            s.options.set("accel.rebuild", "every-frame");
            auto rebuilt = test::makeOn<TypeParam>(s);
            s.options.set("accel.rebuild", rebuild);
            s.options.set("accel.refit_growth", "100");  // auto: never grown enough, so it refits as refit does
            auto refitted = test::makeOn<TypeParam>(s);
            s.options.set("accel.refit_growth", "0.02");
            uint64_t frame = 0;
            for (float t : {0.0f, 0.4f, 0.9f}) {
                expectSameFrame(*rebuilt, *refitted, t, frame, std::string(builder) + " " + rebuild);
                const RefitStatus r = refitted->refitStatus();
                ASSERT_EQ(r.blas.size(), 2u) << builder << " " << rebuild;
                EXPECT_EQ(r.blas[0].name, "tree");
                EXPECT_EQ(r.blas[1].name, "tree2");
                for (const BlasRefit& x : r.blas)
                    EXPECT_EQ(x.refits, frame) << builder << " " << rebuild << " " << x.name;
                EXPECT_TRUE(rebuilt->refitStatus().blas.empty()) << "every frame: nothing refitted, nothing listed";
                ++frame;
            }
            // A frame in flat mode between: the next instanced frame builds its BLASes anew.
            Options flat = s.options;
            flat.set("accel.rebuild", rebuild);
            flat.set("accel.mode", "flat");
            refitted->setOptions(flat);
            refitted->renderFrame(1.0f, frame++, false);
            flat.set("accel.mode", "instanced");
            refitted->setOptions(flat);
            refitted->renderFrame(1.1f, frame++, false);
            for (const BlasRefit& x : refitted->refitStatus().blas)
                EXPECT_EQ(x.refits, 0u) << builder << " " << rebuild << ": refitted a tree from before the flat frame";
            refitted->renderFrame(1.2f, frame++, false);
            for (const BlasRefit& x : refitted->refitStatus().blas)
                EXPECT_EQ(x.refits, 1u) << builder << " " << rebuild;
            refitted->finish();
        }
}

// auto's rebuilds are staggered: with a threshold of 0 (any growth), each
// frame after the first rebuilds at most one of the three deforming BLASes
// and refits the others (blas_refit.h's plan itself: tests/cpu/test_refit.cpp).
TYPED_TEST(BackendRender, InstancedAutoRebuildsOneBlasAFrame) {
    REQUIRE_BACKEND();
    Scene s = test::onBackend<TypeParam>(test::animatedScene());
    s.instances.push_back(Instance{"tree2", 1, translation({1.1f, 0.0f, -0.6f}), {}});
    s.instances.push_back(Instance{"tree3", 1, translation({-1.1f, 0.0f, -0.6f}), {}});
    s.options.render.width = 16;
    s.options.render.height = 16;
    s.options.render.spp = 1;
    s.options.set("accel.mode", "instanced");
    s.options.set("accel.rebuild", "auto");
    s.options.set("accel.refit_growth", "0");
    auto r = test::makeOn<TypeParam>(s);
    size_t rebuilds = 0;
    for (uint64_t frame = 0; frame < 12; ++frame) {
        r->renderFrame(0.15f * float(frame), frame, false);
        const RefitStatus st = r->refitStatus();
        ASSERT_EQ(st.blas.size(), 3u);
        size_t built = 0;
        for (const BlasRefit& x : st.blas) built += x.refits == 0;
        if (frame == 0)
            EXPECT_EQ(built, 3u);
        else
            EXPECT_LE(built, 1u) << "frame " << frame;
        if (frame > 0) rebuilds += built;
    }
    EXPECT_GT(rebuilds, 0u) << "the swaying trees' SAH grows: auto rebuilds some";
    r->finish();
}

// Instanced mode traces the flat scene: one renderer switching flat ->
// instanced -> other builders (kd-tree BLASes too) -> flat, as the viewer
// does, renders the same image each time (each frame from scratch), and only
// instanced frames build a top level over BLASes.
TYPED_TEST(BackendRender, InstancedModeRendersTheImageOfFlatModeAndSwitchesLive) {
    REQUIRE_BACKEND();
    test::TempDir dir;
    Scene s = test::onBackend<TypeParam>(test::loadInstancedScene(dir));
    s.options.render.width = 48;
    s.options.render.height = 32;
    s.options.render.spp = 2;
    s.options.render.bounces = 2;
    s.options.render.threads = 2;
    auto r = test::makeOn<TypeParam>(s);
    std::vector<std::vector<float>> img;
    for (auto [mode, builder] :
         {std::pair{"flat", "lbvh-karras"}, std::pair{"instanced", "lbvh-karras"}, std::pair{"instanced", "lbvh-skip"},
          std::pair{"instanced", "kdtree"}, std::pair{"instanced", "lbvh-apetrei"}, std::pair{"flat", "kdtree"},
          std::pair{"flat", "lbvh-apetrei"}}) {
        Options o = r->options();
        o.set("accel.mode", mode);
        o.set("accel.builder", builder);
        r->setOptions(o);
        r->renderFrame(0.5f, 3, false);
        img.emplace_back();
        r->readRadiance(img.back());
    }
    const double mean = sum(img[0]);
    ASSERT_GT(mean, 0.0);
    for (size_t k = 1; k < img.size(); ++k) {
        double diff = 0;
        for (size_t i = 0; i < img[0].size(); ++i) diff += std::fabs(img[0][i] - img[k][i]);
        EXPECT_LE(diff, 1e-3 * mean) << "frame " << k << " must show the same scene";
    }
    r->finish();
    std::vector<FrameRecord> recs;
    for (FrameRecord rec; r->popRecord(rec);) recs.push_back(rec);
    ASSERT_EQ(recs.size(), 7u);
    EXPECT_EQ(recs[0].stageMs("build/top"), 0.0) << "flat mode builds no top level";
    EXPECT_GT(recs[1].stageMs("build/top"), 0.0);
    EXPECT_GT(recs[1].stageMs("build/blas"), 0.0);
    EXPECT_GT(recs[3].stageMs("build/blas"), 0.0) << "kd-tree BLASes";
    if (TypeParam::kind == Backend::Cuda) {  // the GPU kd builder's own stages, inside build/blas
        EXPECT_GT(recs[3].stageMs("build/kd_large"), 0.0) << "kd-tree BLASes";
        EXPECT_EQ(recs[4].stageMs("build/kd_large"), 0.0) << "LBVH BLASes again";
    }
    EXPECT_EQ(recs[5].stageMs("build/top"), 0.0) << "the flat kd-tree";
}

// vd.last_bounce_any_hit: the path tracer's last bounce's rays stop at any
// VD hit before their closest triangle (such a ray gathers nothing either
// way), so the image is the same, bit for bit; Whitted shades the last
// bounce's hits with their lights, so it keeps the closest hit there.
TYPED_TEST(BackendRender, VdLastBounceAnyHitRendersTheSameImage) {
    REQUIRE_BACKEND();
    test::TempDir dir;
    const Scene base = test::onBackend<TypeParam>(loadScene(dir.write("s.json", test::vdLitTestScene())));
    for (auto [integrator, bounces] :
         {std::pair{"path", 1}, std::pair{"path", 2}, std::pair{"whitted", 0}, std::pair{"whitted", 1}}) {
        std::vector<float> img[2];
        for (int k = 0; k < 2; ++k) {
            Scene s = base;
            s.options.set("render.integrator", integrator);
            s.options.render.width = 48;
            s.options.render.height = 32;
            s.options.render.spp = 2;
            s.options.render.bounces = bounces;
            s.options.vd.mode = VdMode::Direct;
            s.options.vd.lastBounceAnyHit = k == 0;
            img[k] = test::renderOn<TypeParam>(s, 0.0f, 1);
        }
        EXPECT_EQ(img[0], img[1]) << integrator << ", " << bounces << " bounces";
        EXPECT_GT(sum(img[0]), 0.0);
    }
}

// vd.method harada on both backends: strata's switches that change no hit
// (one job per patch or many; the CUDA backend's trees in global or shared
// memory) render the same image bit for bit; the image is lit, and near
// pre-tessellation's at the same level (vd.lod_bias 8: every patch at
// vd.max_level), far nearer than to the plain quads' (vd.mode off). (Box
// leaves: faceted normals, boxes met where silhouettes graze them, and the
// flat patches on the floor win over it: their boxes are rounded outward.)
TYPED_TEST(BackendRender, VdHaradaMethodRendersAlikeWithItsNeutralSwitchesAndNearPretessellation) {
    REQUIRE_BACKEND();
    test::TempDir dir;
    Scene base = litVdScene<TypeParam>(dir, 64, 48, 16);
    base.options.render.bounces = 1;
    base.options.vd.lodBias = 8;
    auto render = [&](const std::vector<std::string>& sets) {
        Scene s = base;
        for (const std::string& kv : sets) s.options.setAssignment(kv);
        return test::renderOn<TypeParam>(s, 0.0f, 1);
    };
    const std::vector<float> harada = render({"vd.method=harada"});
    EXPECT_GT(sum(harada), 0.0);
    auto differing = [&](const std::vector<float>& img) {
        size_t n = 0;
        for (size_t i = 0; i < img.size(); ++i) n += img[i] != harada[i];
        return n;
    };
    // Also against a second run of the same options: leaf boxes of adjacent
    // patches meet at one distance, and ties must not go to the patch traced
    // first (vdTraceRay).
    EXPECT_EQ(differing(render({"vd.method=harada"})), 0u) << "the same options again";
    EXPECT_EQ(differing(render({"vd.method=harada", "vd.split_jobs=true"})), 0u) << "one job per patch or many";
    if (TypeParam::kind == Backend::Cuda)
        EXPECT_EQ(differing(render({"vd.method=harada", "vd.shared_trees=true"})), 0u) << "trees in shared memory";
    const std::vector<float> pre = render({"vd.mode=pretess"}), off = render({"vd.mode=off"});
    auto meanDiff = [](const std::vector<float>& a, const std::vector<float>& b) {
        double d = 0;
        for (size_t i = 0; i < a.size(); ++i) d += std::fabs(a[i] - b[i]);
        return d / double(a.size());
    };
    const double toPre = meanDiff(harada, pre), toOff = meanDiff(harada, off), preToOff = meanDiff(pre, off);
    std::printf("mean |harada - pretess| %.4f, |harada - off| %.4f, |pretess - off| %.4f\n", toPre, toOff, preToOff);
    EXPECT_LT(toPre, 0.5 * toOff) << "(0.27x when written)";
}

// vd.middle_level unified (Harada's one middle level): the patch boxes in
// the triangles' tree, their pairs appended while the trace walks it (and
// again by a walk of that tree when they overflow), give the image of
// strata's separate middle level bit for bit: the same closest hits and
// shadow verdicts, from more pairs (those of boxes behind the closest
// triangle too). Both leaf kinds, with and without pair culling, the path
// tracer and Whitted, stack and stackless traversal, flat and instanced
// (each VD mesh's BLAS holding its patch boxes under one top level);
// rebuilt on the switch.
TYPED_TEST(BackendRender, VdUnifiedMiddleLevelRendersTheImageOfTheSeparateOne) {
    REQUIRE_BACKEND();
    test::TempDir dir;
    const Scene plain = litVdScene<TypeParam>(dir, 64, 48, 2);
    const Scene mixed = litVdScene<TypeParam>(dir, 64, 48, 2, true);  // a mesh of triangles and patches, twice
    for (const char* sets : {"vd.leaf=triangles,vd.pair_cull=true,render.integrator=path,render.bounces=2",
                             "vd.leaf=box,vd.pair_cull=false,render.integrator=path,render.bounces=2",
                             "vd.leaf=box,vd.pair_cull=true,render.integrator=whitted,render.bounces=1",
                             "vd.leaf=triangles,vd.pair_cull=false,accel.builder=lbvh-skip,accel.traversal=stackless,"
                             "render.integrator=path,render.bounces=1",
                             "accel.mode=instanced,vd.leaf=triangles,vd.pair_cull=true,render.integrator=path,"
                             "render.bounces=2",
                             "accel.mode=instanced,vd.leaf=box,vd.pair_cull=false,accel.builder=lbvh-apetrei,"
                             "render.integrator=whitted,render.bounces=1",
                             "accel.mode=instanced,vd.leaf=triangles,vd.pair_cull=false,accel.builder=lbvh-skip,"
                             "accel.traversal=stackless,render.integrator=path,render.bounces=1"}) {
        const std::string list = sets;
        Scene s = list.find("instanced") != std::string::npos ? mixed : plain;
        for (size_t from = 0, comma; from < list.size(); from = comma + 1) {
            comma = list.find(',', from);
            if (comma == std::string::npos) comma = list.size();
            s.options.setAssignment(list.substr(from, comma - from));
        }
        std::unique_ptr<Renderer> r = test::makeOn<TypeParam>(s);
        std::vector<float> img[2];
        uint64_t pairs[2] = {0, 0};
        for (int unified = 0; unified < 2; ++unified) {  // one renderer, switched live
            Options o = s.options;
            o.vd.middle = unified ? VdMiddle::Unified : VdMiddle::Separate;
            r->setOptions(o);
            const uint64_t before = r->vdPairsResolved();
            r->renderFrame(0.0f, 1);
            r->finish();
            r->readRadiance(img[unified]);
            pairs[unified] = r->vdPairsResolved() - before;
        }
        EXPECT_GT(sum(img[0]), 0.0) << sets;
        size_t differ = 0;
        for (size_t i = 0; i < img[0].size(); ++i) differ += img[0][i] != img[1][i];
        EXPECT_EQ(differ, 0u) << sets;
        EXPECT_GE(pairs[1], pairs[0]) << sets << ": the fused trace appends the pairs behind the closest hit too";
        if (list.find("instanced") != std::string::npos)  // (a unified level that fell back to separate: as many)
            EXPECT_GT(pairs[1], pairs[0]) << sets << ": the pairs come from the fused walk through the instances";
        EXPECT_GT(pairs[0], 0u) << sets;
    }
}

// The kd-tree as the middle level in instanced mode (issue 20, item 3): kd-
// tree BLASes under a BVH top level, the VD patches found through their own
// hierarchy, render the image of the flat kd-tree and of LBVH BLASes (a
// mesh of triangles and patches in the scene; each frame from scratch).
TYPED_TEST(BackendRender, VdSceneWithKdTreeBlasesRendersTheFlatImage) {
    REQUIRE_BACKEND();
    test::TempDir dir;
    Scene s = litVdScene<TypeParam>(dir, 64, 48, 2, true);
    s.options.render.bounces = 2;
    std::vector<std::vector<float>> img;
    for (auto [mode, builder] :
         {std::pair{"flat", "kdtree"}, std::pair{"instanced", "kdtree"}, std::pair{"instanced", "lbvh-karras"}}) {
        Scene v = s;
        v.options.set("accel.mode", mode);
        v.options.set("accel.builder", builder);
        img.push_back(test::renderOn<TypeParam>(v, 0.0f, 1));
    }
    const double mean = sum(img[0]);
    ASSERT_GT(mean, 0.0);
    for (size_t k = 1; k < img.size(); ++k) {
        double diff = 0;
        for (size_t i = 0; i < img[0].size(); ++i) diff += std::fabs(img[0][i] - img[k][i]);
        EXPECT_LE(diff, 1e-3 * mean) << "variant " << k << " must show the same scene";
    }
}

// vd.tree_cache: trees kept across ray casts and frames give the frames
// that building every tree gives, bit for bit, with both leaf kinds, while
// the animation moves the instances (the trees are in object space), the
// LOD changes between frames (a slot is rebuilt at its new level) and the
// leaf kind flips on the live renderer (every slot starts over).
TYPED_TEST(BackendRender, VdTreeCacheRendersTheFramesOfBuildingEveryTree) {
    REQUIRE_BACKEND();
    test::TempDir dir;
    Scene base = litVdScene<TypeParam>(dir, 96, 64, 2);
    base.options.render.bounces = 2;
    for (const char* leaf : {"triangles", "box"}) {
        std::vector<std::vector<float>> frames[2];
        for (int cached = 0; cached < 2; ++cached) {
            Scene s = base;
            s.options.set("vd.leaf", leaf);
            s.options.vd.treeCache = cached == 1;
            std::unique_ptr<Renderer> r = test::makeOn<TypeParam>(s);
            for (int f = 0; f < 6; ++f) {
                Options o = s.options;
                o.vd.lodBias = f == 2 ? 1.0f : 0.0f;  // frame 2: finer trees, frame 3 back again
                if (f == 4) o.vd.leaf = o.vd.leaf == VdLeaf::Box ? VdLeaf::Triangles : VdLeaf::Box;  // 5: back
                r->setOptions(o);
                r->renderFrame(0.25f * float(f), uint64_t(f));
                r->finish();
                std::vector<float> img;
                r->readRadiance(img);
                frames[cached].push_back(img);
            }
        }
        for (size_t f = 0; f < frames[0].size(); ++f) {
            EXPECT_EQ(frames[1][f], frames[0][f]) << leaf << " leaves, frame " << f;
            EXPECT_GT(sum(frames[0][f]), 0.0);
        }
        EXPECT_NE(frames[0][1], frames[0][2]) << "the finer level should change the image";
    }
}

}  // namespace
}  // namespace strata
