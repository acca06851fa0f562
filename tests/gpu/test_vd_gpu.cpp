// vd.mode direct on the GPU: the bottom kernel (persistent blocks, trees built
// in shared memory up to level 5 and in global memory above, 64-bit atomicMin
// hits) renders what the CPU reference renders, covers exactly what
// pre-tessellation covers at the same level, finds the patches through the
// instance hierarchy in instanced mode, and the live options (level, frozen
// LOD) change what they should.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "loader_test_util.h"
#include "test_util.h"
#include "core/error.h"
#include "render/cuda_renderer.h"
#include "render/renderer.h"
#include "require_gpu.h"
#include "scene/scene_loader.h"

using namespace strata;

namespace {

const char* kScene = R"({"meshes": [{"name": "f", "generator": "plane", "params": {"size": 6}},
    {"name": "m", "generator": "vd-mushroom", "params": {"patches": 2, "resolution": 96}},
    {"name": "h", "generator": "vd-hook", "params": {"patches": 2, "resolution": 96}},
    {"name": "b", "generator": "vd-bark", "params": {"around": 6, "up": 3, "resolution": 64, "height": 1}}],
  "instances": [{"mesh": "f"}, {"mesh": "m", "translate": [-0.6, 0, 0.2], "scale": 0.8},
    {"mesh": "h", "translate": [0.7, 0.1, -0.3], "rotate": {"axis": [0.2, 1, 0.1], "degrees": 40}, "scale": [1, 1.3, 0.9]},
    {"mesh": "b", "translate": [0.1, 0, -1.2]}],
  "camera": {"position": [0, 1.2, 3], "target": [0, 0.3, 0]},
  "lights": {"environment": {"color": [0.5, 0.55, 0.6]}, "sun": {"direction": [0.4, 1, 0.3], "radiance": [3, 3, 3]}},
  "vd": {"max_level": 4, "lod_bias": 8}})";

Scene loadTestScene() {
    std::string path = (std::filesystem::temp_directory_path() / "strata_vd_gpu_test.json").string();
    std::ofstream(path) << kScene;
    Scene s = loadScene(path);
    std::filesystem::remove(path);
    return s;
}

std::vector<float> render(Scene s, const std::string& backend, const std::string& mode, int bounces, int spp,
                          FrameRecord* rec = nullptr, const std::string& accelMode = "flat",
                          uint64_t* pairs = nullptr) {
    s.options.set("render.backend", backend);
    s.options.set("vd.mode", mode);
    s.options.set("accel.mode", accelMode);
    s.options.render.width = 96;
    s.options.render.height = 64;
    s.options.render.spp = spp;
    s.options.render.bounces = bounces;
    std::unique_ptr<Renderer> r = backend == "cuda" ? makeCudaRenderer(s) : makeCpuRenderer(s);
    r->renderFrame(0.0f, 1);
    r->finish();
    std::vector<float> img;
    r->readRadiance(img);
    FrameRecord fr;
    while (r->popRecord(fr))
        if (rec) *rec = fr;
    if (pairs) *pairs = r->vdPairsResolved();
    return img;
}

}  // namespace

TEST(GpuVd, DirectCoversWhatPretessCoversAtTheSameLevel) {
    REQUIRE_GPU();
    Scene s = loadTestScene();
    std::vector<float> direct = render(s, "cuda", "direct", 0, 1), pre = render(s, "cuda", "pretess", 0, 1);
    ASSERT_EQ(direct.size(), pre.size());
    int differ = 0;
    for (size_t i = 0; i < direct.size(); ++i) differ += direct[i] != pre[i];
    EXPECT_LE(differ, 6) << "camera-ray coverage differs between direct and pre-tessellated patches";
}

// Instanced mode: the patches are found through the instances' top level and
// their mesh's object-space BLAS. Camera rays cover exactly what flat mode
// covers, the image matches flat mode and the CPU backend's instanced image
// within noise, from no more pairs (the object ray meets the patch's own
// quadrant and sixteenth boxes: vd.pair_cull).
TEST(GpuVd, InstancedModeFindsThePatchesThroughTheInstanceHierarchy) {
    REQUIRE_GPU();
    Scene s = loadTestScene();
    uint64_t flatPairs = 0, instPairs = 0;
    std::vector<float> flat = render(s, "cuda", "direct", 0, 1, nullptr, "flat", &flatPairs),
                       inst = render(s, "cuda", "direct", 0, 1, nullptr, "instanced", &instPairs);
    ASSERT_EQ(flat.size(), inst.size());
    int differ = 0;
    for (size_t i = 0; i < flat.size(); ++i) differ += (flat[i] > 0) != (inst[i] > 0);
    EXPECT_LE(differ, 3) << "camera-ray coverage differs between flat and instanced mode";
    EXPECT_LE(instPairs, flatPairs);
    EXPECT_GT(instPairs, flatPairs / 2);
    std::vector<float> g = render(s, "cuda", "direct", 2, 8, nullptr, "instanced"),
                       f = render(s, "cuda", "direct", 2, 8, nullptr, "flat"),
                       c = render(s, "cpu", "direct", 2, 8, nullptr, "instanced");
    for (const std::vector<float>* other : {&f, &c}) {
        test::ImageDiff d = test::compareImages(g, *other);
        EXPECT_LT(d.meanAbsDiff, 0.01 * d.mean);
        EXPECT_GT(d.fractionClose, 0.95);
    }
}

// vd.pair_cull drops the pairs whose ray misses the boxes of the patch's
// quadrants and sixteenths: the hits are the same (the image too, bit for
// bit: same hits, same shading), the pairs far fewer.
TEST(GpuVd, PairCullingKeepsTheHitsFromFewerPairs) {
    REQUIRE_GPU();
    Scene s = loadTestScene();
    for (int bounces : {0, 2}) {
        uint64_t culled = 0, all = 0;
        Scene off = s;
        off.options.vd.pairCull = false;
        FrameRecord rec;
        const std::vector<float> a = render(s, "cuda", "direct", bounces, 2, &rec, "flat", &culled),
                                 b = render(off, "cuda", "direct", bounces, 2, nullptr, "flat", &all);
        EXPECT_EQ(a, b) << bounces << " bounces";
        EXPECT_EQ(rec.vdPairs, culled) << "the frame's record carries its pairs";
        EXPECT_GT(rec.stageMs("vd/pairs"), 0.0) << "pair generation is a stage of its own";
        EXPECT_LT(culled, all * 3 / 4) << bounces << " bounces";
        EXPECT_GT(culled, 0u);
    }
}

// Pre-tessellation that does not fit in GPU memory is one clear error that
// says what to change; direct mode fits the same scene.
TEST(GpuVd, PretessTooLargeForTheGpuSaysWhatToLower) {
    REQUIRE_GPU();
    Scene s = loadTestScene();
    s.path = "vd.json";
    s.options.set("vd.mode", "pretess");
    s.options.vd.maxLevel = 7;  // 852 K triangles: about 280 MiB with their LBVH
    s.options.render.width = 96;
    s.options.render.height = 64;
    setenv("STRATA_GPU_MEMORY_LIMIT_MB", "150", 1);
    std::string message;
    try {
        makeCudaRenderer(s);
    } catch (const Error& e) {
        message = e.what();
    }
    s.options.set("vd.mode", "direct");
    s.options.vd.maxLevel = 4;
    bool directFits = true;
    try {
        makeCudaRenderer(s);
    } catch (const Error&) {
        directFits = false;
    }
    unsetenv("STRATA_GPU_MEMORY_LIMIT_MB");
    EXPECT_NE(message.find("vd.json"), std::string::npos) << message;
    EXPECT_NE(message.find("lower vd.max_level or use vd.mode direct"), std::string::npos) << message;
    EXPECT_NE(message.find("traced directly they take about"), std::string::npos) << message;
    EXPECT_TRUE(directFits);
}

TEST(GpuVd, DirectImageEqualsTheCpuReferenceWithinNoise) {
    REQUIRE_GPU();
    Scene s = loadTestScene();
    FrameRecord rec;
    std::vector<float> g = render(s, "cuda", "direct", 2, 8, &rec), c = render(s, "cpu", "direct", 2, 8);
    ASSERT_EQ(g.size(), c.size());
    test::ImageDiff d = test::compareImages(g, c);
    EXPECT_LT(d.meanAbsDiff, 0.01 * d.mean);
    EXPECT_GT(d.fractionClose, 0.95);
    // The VD stages ran and were timed.
    EXPECT_GT(rec.stageMs("vd/bottom"), 0.0);
    EXPECT_GT(rec.stageMs("build/vd_boxes"), 0.0);
    for (float v : g) ASSERT_TRUE(std::isfinite(v));
}

TEST(GpuVd, LevelOptionsChangeTheSurfaceAndFrozenLodHolds) {
    REQUIRE_GPU();
    Scene s = loadTestScene();
    s.options.set("vd.mode", "direct");
    s.options.render.width = 128;
    s.options.render.height = 96;
    s.options.render.bounces = 0;
    auto r = makeCudaRenderer(s);
    auto renderWith = [&](const Options& o) {
        r->setOptions(o);
        for (int f = 0; f < 6; ++f) r->renderFrame(0.0f, uint64_t(f));
        r->finish();
        FrameRecord fr;
        while (r->popRecord(fr)) {}
        std::vector<float> img;
        r->readRadiance(img);
        return img;
    };
    // The level changes the surface the rays meet (not a timing: the work it
    // costs is the benchmark's business).
    Options o = s.options;
    o.vd.maxLevel = 2;
    const std::vector<float> coarse = renderWith(o);
    o.vd.maxLevel = 6;
    const std::vector<float> fine = renderWith(o);
    EXPECT_NE(coarse, fine) << "level 6 trees (4,096 leaves) and level 2 (16 leaves) must give other surfaces";
    // Frozen while at level 2 (the levels of the frame it was turned on in), a
    // finer vd.max_level no longer changes the trees.
    o.vd.maxLevel = 2;
    renderWith(o);
    o.vd.freezeLod = true;
    renderWith(o);
    o.vd.maxLevel = 6;
    const std::vector<float> frozenImg = renderWith(o);
    o.vd.freezeLod = false;
    o.vd.maxLevel = 2;
    const std::vector<float> coarseImg = renderWith(o);
    EXPECT_EQ(frozenImg, coarseImg) << "with vd.freeze_lod the level-2 trees must stay";
}

// The side-by-side memory report (render/vd_memory.h) estimates from counts
// what each mode costs; here it is held against what the renderer allocates
// on the GPU in both modes: direct against the patches' own buffers, and
// pre-tessellation against what its scene adds over direct's scene without
// the patches (vd-party at level 3, flat and instanced, two builders).
TEST(GpuVd, MemoryReportEstimatesWhatEachModeAllocates) {
    REQUIRE_GPU();
    for (const char* accelMode : {"flat", "instanced"})
        for (const char* builder : {"lbvh-karras", "lbvh-skip"}) {
            Scene s = loadScene(test::sourceFile("assets/scenes/vd-party.json"));
            s.options.set("accel.mode", accelMode);
            s.options.set("accel.builder", builder);
            s.options.vd.maxLevel = 3;
            s.options.render.width = 64;
            s.options.render.height = 48;
            auto measure = [&](const char* mode, size_t* vdBytes, VdMemoryComparison* estimate) {
                s.options.set("vd.mode", mode);
                std::unique_ptr<Renderer> r = makeCudaRenderer(s);
                r->renderFrame(0.0f, 1);
                r->finish();
                *vdBytes = r->vdBytes();
                *estimate = r->vdMemory();
                return r->geometryBytes() + r->accelBytes();
            };
            size_t directVd = 0, pretessVd = 0;
            VdMemoryComparison e, e2;
            const size_t direct = measure("direct", &directVd, &e), pretess = measure("pretess", &pretessVd, &e2);
            const double directMeasured = double(directVd), pretessMeasured = double(pretess - (direct - directVd));
            SCOPED_TRACE(std::string(accelMode) + " " + builder);
            std::printf("%s %s: direct %zu estimated %llu; pretess %.0f estimated %llu (%llu triangles)\n", accelMode,
                        builder, directVd, (unsigned long long)e.direct.total(), pretessMeasured,
                        (unsigned long long)e.pretess.total(), (unsigned long long)e.pretessTriangles);
            EXPECT_EQ(pretessVd, 0u);
            EXPECT_EQ(e.pretess.total(), e2.pretess.total());  // the estimate does not depend on the mode it runs in
            EXPECT_NEAR(double(e.direct.total()), directMeasured, 0.1 * directMeasured);
            EXPECT_NEAR(double(e.pretess.total()), pretessMeasured, 0.1 * pretessMeasured);
        }
}

// The whole device, like for like (panel and bench): each mode's estimate of
// the other's whole-device memory is near what the other mode, run next,
// holds (within 15%: the estimate swaps only the VD share).
TEST(GpuVd, WholeDeviceEstimateOfTheOtherModeIsNearItsMeasure) {
    REQUIRE_GPU();
    Scene s = loadScene(test::sourceFile("assets/scenes/vd-party.json"));
    s.options.vd.maxLevel = 4;
    s.options.render.width = 320;
    s.options.render.height = 180;
    auto measure = [&](const char* mode) {
        s.options.set("vd.mode", mode);
        std::unique_ptr<Renderer> r = makeCudaRenderer(s);
        r->renderFrame(0.0f, 1);
        r->finish();
        return r->vdDeviceMemory();
    };
    const VdDeviceComparison direct = measure("direct"), pretess = measure("pretess");
    ASSERT_TRUE(direct.measured() && pretess.measured());
    std::printf("direct run: %s; pretess run: %s\n", describeVdDeviceMemory(direct).c_str(),
                describeVdDeviceMemory(pretess).c_str());
    EXPECT_NEAR(double(direct.pretess), double(pretess.pretess), 0.15 * double(pretess.pretess));
    EXPECT_NEAR(double(pretess.direct), double(direct.direct), 0.15 * double(direct.direct));
}

// vd.shared_trees false: the per-patch trees live in a global-memory buffer per
// block, as Harada kept them, instead of the block's shared memory: the same
// trees and traversal, so the same image, bit for bit (closest hits and shadow
// rays); the memory report counts the work buffers.
TEST(GpuVd, GlobalMemoryTreesRenderTheSameImage) {
    REQUIRE_GPU();
    Scene s = loadTestScene();
    Scene global = s;
    global.options.vd.sharedTrees = false;
    for (int bounces : {0, 1}) {
        const std::vector<float> a = render(s, "cuda", "direct", bounces, 2), b = render(global, "cuda", "direct", bounces, 2);
        ASSERT_EQ(a.size(), b.size());
        EXPECT_EQ(a, b) << bounces << " bounces";
    }
    global.options.set("render.backend", "cuda");
    auto r = makeCudaRenderer(global);
    s.options.set("render.backend", "cuda");
    auto shared = makeCudaRenderer(s);
    EXPECT_GT(r->vdMemory().direct.accel, shared->vdMemory().direct.accel) << "the global-memory work buffers";
}
