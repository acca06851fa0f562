// render.sort_rays: the key (render/ray_order.h) against its definition, and
// the CPU backend's frames with the bounces' rays sorted equal to its frames
// without (the order of a queue changes nothing a path computes).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "render/make_renderer.h"
#include "render/ray_order.h"
#include "render/renderer.h"
#include "scene/scene_loader.h"
#include "loader_test_util.h"

using namespace strata;

namespace {
Ray rayAt(Vec3 org, Vec3 dir) {
    Ray r;
    r.org = org;
    r.dir = dir;
    return r;
}
// The key written out: coordinate d's level (0..15 of its range) bit by bit.
uint32_t referenceKey(const uint32_t level[6]) {
    uint32_t k = 0;
    for (int bit = 0; bit < kRayOrderBits; ++bit)
        for (int d = 0; d < 6; ++d)
            if (level[d] & (1u << bit)) k += 1u << (6 * bit + d);
    return k;
}
}  // namespace

TEST(RayOrder, KeyInterleavesTheLevelsOfDirectionThenOrigin) {
    const Aabb box{{0, 0, 0}, {16, 32, 64}};
    std::mt19937 rng(5);
    std::uniform_int_distribution<uint32_t> level(0, 15);
    for (int i = 0; i < 500; ++i) {
        uint32_t q[6];
        for (uint32_t& x : q) x = level(rng);
        // A point in the middle of each level's cell: direction in [-1, 1], origin in the box.
        const Vec3 dir{-1.0f + (q[0] + 0.5f) / 8.0f, -1.0f + (q[1] + 0.5f) / 8.0f, -1.0f + (q[2] + 0.5f) / 8.0f};
        const Vec3 org{(q[3] + 0.5f) * 1.0f, (q[4] + 0.5f) * 2.0f, (q[5] + 0.5f) * 4.0f};
        ASSERT_EQ(rayOrderKey(rayAt(org, dir), box), referenceKey(q)) << i;
    }
    // The coarsest level decides first: the top bit of origin z above every lower bit of all six.
    const uint32_t low[6] = {15, 15, 15, 15, 15, 7}, high[6] = {0, 0, 0, 0, 0, 8};
    EXPECT_LT(referenceKey(low), referenceKey(high));
    EXPECT_LT(referenceKey(high), 1u << kRayOrderKeyBits);
}

TEST(RayOrder, KeyStaysInRangeOutsideTheBoxAndForNaN) {
    const Aabb box{{-1, -1, -1}, {1, 1, 1}};
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    for (const Ray& r :
         {rayAt({-5, 7, 1e30f}, {0, 0, 1}), rayAt({nan, 0, 0}, {nan, 1, 0}), rayAt({inf, -inf, 0}, {1, 0, 0})})
        EXPECT_LT(rayOrderKey(r, box), 1u << kRayOrderKeyBits);
    // NaN and what lies below the range take level 0, what lies above it the last.
    EXPECT_EQ(rayOrderLevel(nan, 0.0f, 1.0f), 0u);
    EXPECT_EQ(rayOrderLevel(-3.0f, 0.0f, 1.0f), 0u);
    EXPECT_EQ(rayOrderLevel(inf, 0.0f, 1.0f), (1u << kRayOrderBits) - 1);
    // A flat box (all origins in one plane) does not divide by zero.
    EXPECT_LT(rayOrderKey(rayAt({0, 0, 0}, {0, 1, 0}), Aabb{{0, 0, 0}, {1, 0, 1}}), 1u << kRayOrderKeyBits);
}

// The sort ran (its stage has time) and the frames are the unsorted ones,
// bit for bit: flat and instanced.
TEST(RayOrder, SortedBouncesRenderTheSameFrames) {
    Scene s = loadScene(test::sourceFile("assets/scenes/cornell.json"));
    s.options.render.width = 48;
    s.options.render.height = 32;
    s.options.render.spp = 1;
    s.options.render.bounces = 3;
    s.options.render.threads = 2;
    s.options.set("accel.builder", "hploc");
    for (const char* mode : {"flat", "instanced"}) {
        SCOPED_TRACE(mode);
        s.options.set("accel.mode", mode);
        std::vector<float> image[2];
        for (int sorted = 0; sorted < 2; ++sorted) {
            s.options.render.sortRays = sorted == 1;
            auto r = makeCpuRenderer(s);
            r->renderFrame(1.3f, 0);
            r->renderFrame(1.4f, 1);
            r->readRadiance(image[sorted]);
            FrameRecord a, b;
            ASSERT_TRUE(r->popRecord(a) && r->popRecord(b));
            if (sorted)
                EXPECT_GT(b.stageMs("trace/sort"), 0.0);
            else
                EXPECT_EQ(b.stageMs("trace/sort"), 0.0);
        }
        ASSERT_EQ(image[0].size(), image[1].size());
        EXPECT_TRUE(image[0] == image[1]);
    }
}
