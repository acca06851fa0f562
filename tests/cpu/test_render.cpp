#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <vector>

#include "core/number_format.h"
#include "render/frame_csv.h"
#include "render/lights.h"
#include "render/stages.h"
#include "render/make_renderer.h"
#include "render/renderer.h"
#include "test_util.h"

using namespace strata;

namespace {
Scene furnaceScene(float albedo, float L, int bounces) {
    Material m;
    m.albedo = make3(albedo);
    Scene s = test::sceneWith(test::makeSphere({0, 0, 0}, 1.0f, 48));
    s.materials[0] = m;
    s.environment.color = make3(L);
    s.camera.position = {0, 0, 3};
    s.camera.target = {0, 0, 0};
    s.camera.fovYDegrees = 40;
    s.options.render.width = 48;
    s.options.render.height = 48;
    s.options.render.spp = 64;
    s.options.render.bounces = bounces;
    s.options.render.threads = 2;
    return s;
}
}  // namespace

TEST(CpuRender, SameSeedSameImage) {
    Scene s = furnaceScene(0.5f, 1.0f, 2);
    s.options.render.spp = 2;
    std::vector<uint8_t> a, b;
    auto r1 = makeCpuRenderer(s);
    r1->renderFrame(0.0f, 3);
    r1->readImage(a);
    auto r2 = makeCpuRenderer(s);
    r2->renderFrame(0.0f, 3);
    r2->readImage(b);
    EXPECT_EQ(a, b);
}

TEST(CpuRender, RebuildOnlyWhenAnimatedSkipsAStillFrame) {
    Scene s = furnaceScene(0.5f, 1.0f, 1);
    s.options.render.spp = 1;
    s.options.set("accel.rebuild", "animated");
    auto r = makeCpuRenderer(s);
    r->renderFrame(0.5f, 0);
    r->renderFrame(0.5f, 1);  // same time: no animate, no build
    r->renderFrame(0.6f, 2);  // time moved: rebuild
    FrameRecord a, b, c;
    ASSERT_TRUE(r->popRecord(a) && r->popRecord(b) && r->popRecord(c));
    EXPECT_GT(a.stageMs("build"), 0.0);
    EXPECT_EQ(b.stageMs("build"), 0.0);
    EXPECT_EQ(b.stageMs("animate"), 0.0);
    EXPECT_GT(c.stageMs("build"), 0.0);
    // Switching the builder forces a build even at the same time.
    Options o = r->options();
    o.set("accel.builder", "cpu-sah");
    r->setOptions(o);
    r->renderFrame(0.6f, 3);
    FrameRecord d;
    ASSERT_TRUE(r->popRecord(d));
    EXPECT_GT(d.stageMs("build"), 0.0);
}

// The environment lookup stays inside the map for any direction: a direction
// that is not finite reads some texel of it (UBSan found the float-to-int
// conversion of NaN undefined), extreme ones their edge texels.
TEST(Environment, LookupStaysInTheMapForAnyDirection) {
    std::vector<Vec3> pixels;
    for (int i = 0; i < 8; ++i) pixels.push_back(make3(float(i + 1)));
    const std::vector<float> marginal = {0.5f, 1.0f};
    const std::vector<float> conditional = {0.25f, 0.5f, 0.75f, 1.0f, 0.25f, 0.5f, 0.75f, 1.0f};
    EnvView env;
    env.pixels = pixels.data();
    env.width = 4;
    env.height = 2;
    env.scale = make3(1.0f);
    env.marginalCdf = marginal.data();
    env.conditionalCdf = conditional.data();
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    for (Vec3 d : {Vec3{nan, nan, nan}, Vec3{nan, 0, 1}, Vec3{0, 1, 0}, Vec3{0, -1, 0}, Vec3{inf, 0, 0},
                   Vec3{0, -inf, 0}, Vec3{1e30f, -1e30f, 1e-30f}}) {
        const float r = envRadiance(env, d).x;
        EXPECT_GE(r, 1.0f);
        EXPECT_LE(r, 8.0f);
        if (!std::isnan(d.x)) EXPECT_FALSE(std::isnan(envPdf(env, d)));
    }
}

// One backend policy (render/make_renderer.h). Where the CUDA backend cannot
// run (CI: built without CUDA, or no GPU): a cuda request runs on the CPU for
// the viewer (with a note) and is refused for the CLI (with what to do). The
// options' rules are checked first, everywhere.
TEST(Render, BackendPolicyRunsOnTheCpuOrRefusesAndChecksTheRules) {
    Scene s = furnaceScene(0.5f, 1.0f, 1);
    s.options.render.backend = Backend::Cuda;
    s.options.accel.builder = Builder::CpuSah;
    try {
        makeRenderer(s);
        FAIL() << "cpu-sah on the cuda backend";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("CPU backend only"), std::string::npos) << e.what();
    }
    s.options.accel.builder = Builder::LbvhKarras;
    if (cudaBackendUnavailable().empty()) {
        EXPECT_EQ(chooseBackend(s.options, WithoutGpu::RunOnCpu), Backend::Cuda);
        GTEST_SKIP() << "a usable GPU here: the CPU fallback is not exercised";
    }
    std::string note;
    EXPECT_EQ(chooseBackend(s.options, WithoutGpu::RunOnCpu, &note), Backend::Cpu);
    EXPECT_NE(note.find("running the CPU backend"), std::string::npos) << note;
    try {
        chooseBackend(s.options, WithoutGpu::Refuse);
        FAIL() << "a cuda request without CUDA";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("--backend cpu"), std::string::npos) << e.what();
    }
    EXPECT_THROW(makeRenderer(s), Error);
    s.options.accel.builder = Builder::CpuSah;
    s.options.render.backend = chooseBackend(s.options, WithoutGpu::RunOnCpu);
    EXPECT_NE(makeRenderer(s), nullptr);  // cpu-sah on the CPU backend
}

// The timings CSV names each column once (Python's csv.DictReader keeps one
// of two equal names), and every row has as many fields as the header.
TEST(FrameCsv, EveryColumnNameOnceAndRowsAsWideAsTheHeader) {
    const std::string header = csvHeader(stageTable());
    std::set<std::string> names;
    size_t columns = 0;
    for (size_t start = 0; start < header.size();) {
        const size_t end = header.find_first_of(",\n", start);
        EXPECT_TRUE(names.insert(header.substr(start, end - start)).second) << header.substr(start, end - start);
        ++columns;
        start = end + 1;
    }
    FrameRecord rec;
    for (const std::string& s : stageTable()) rec.stages.push_back({s, 0, 0});
    const std::string row = csvRow(rec, Options{});
    EXPECT_EQ(size_t(std::count(row.begin(), row.end(), ',')) + 1, columns);
}

// Rates and ratios keep three significant digits: small ones are not "0".
TEST(NumberFormat, ThreeSignificantDigitsNeverDropTheValue) {
    EXPECT_EQ(threeDigits(3403.2), "3403");
    EXPECT_EQ(threeDigits(123.4), "123");
    EXPECT_EQ(threeDigits(12.34), "12.3");
    EXPECT_EQ(threeDigits(3.4), "3.40");
    EXPECT_EQ(threeDigits(0.857), "0.857");
    EXPECT_EQ(threeDigits(0.06123), "0.0612");
    EXPECT_EQ(threeDigits(0.0), "0");
    EXPECT_EQ(threeDigits(-0.5), "-0.500");
}
