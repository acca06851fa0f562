// Determinism on the CPU backend: its thread count does not change the image.
// (The same scene, options, seed and frames giving bit-identical frames with
// every builder, on both backends: tests/backends/test_backends_render.cpp.)
#include <gtest/gtest.h>

#include "determinism_scene.h"
#include "render/renderer.h"

using namespace strata;

TEST(Determinism, ThreadCountDoesNotChangeTheImage) {
    Scene s = test::animatedScene();
    s.options.render.threads = 1;
    test::Frames one = test::renderFrames(s, makeCpuRenderer);
    s.options.render.threads = 3;
    test::Frames three = test::renderFrames(s, makeCpuRenderer);
    ASSERT_EQ(one.radiance.size(), three.radiance.size());
    for (size_t f = 0; f < one.radiance.size(); ++f)
        EXPECT_TRUE(test::bitIdentical(one.radiance[f], three.radiance[f]))
            << "frame " << f << ": " << test::differing(one.radiance[f], three.radiance[f]) << " values differ";
    EXPECT_EQ(one.image, three.image);
}
