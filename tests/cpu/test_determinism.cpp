// Determinism: the same scene, options, seed and frames give a bit-identical
// image — on the CPU backend with every builder and traversal, whatever the
// thread count. (tests/gpu/test_determinism_gpu.cpp checks the CUDA backend.)
#include <gtest/gtest.h>

#include <cstring>

#include "render/renderer.h"
#include "determinism_scene.h"

using namespace strata;

namespace {

using test::bitIdentical;
using test::Frames;

Frames render(const Scene& s) { return test::renderFrames(s, makeCpuRenderer); }

void expectIdentical(const Frames& a, const Frames& b, const std::string& what) {
    ASSERT_EQ(a.radiance.size(), b.radiance.size());
    for (size_t f = 0; f < a.radiance.size(); ++f)
        EXPECT_TRUE(bitIdentical(a.radiance[f], b.radiance[f])) << what << ": frame " << f << " differs";
    EXPECT_EQ(a.image, b.image) << what;
}

struct Variant {
    const char* builder;
    const char* traversal;
};
const Variant kVariants[] = {{"lbvh-karras", "stack"},   {"lbvh-apetrei", "stack"}, {"lbvh-skip", "stack"},
                             {"lbvh-skip", "stackless"}, {"cpu-sah", "stack"},      {"kdtree", "stack"}};

}  // namespace

TEST(Determinism, SameSceneOptionsSeedAndFramesGiveBitIdenticalImagesWithEveryBuilder) {
    for (const Variant& v : kVariants) {
        Scene s = test::animatedScene();
        s.options.set("accel.builder", v.builder);
        s.options.set("accel.traversal", v.traversal);
        std::string what = std::string(v.builder) + " / " + v.traversal;
        Frames a = render(s), b = render(s);
        expectIdentical(a, b, what);
        // Not vacuous: the frames differ from one another (time moves, samples add) and are not black.
        EXPECT_FALSE(bitIdentical(a.radiance[0], a.radiance[1])) << what;
        double sum = 0;
        for (float x : a.radiance[2]) sum += x;
        EXPECT_GT(sum, 0.0) << what;
    }
}

TEST(Determinism, ADifferentSeedGivesADifferentImage) {
    Scene s = test::animatedScene();
    Frames a = render(s);
    s.options.render.seed = 8;
    Frames b = render(s);
    EXPECT_FALSE(bitIdentical(a.radiance[0], b.radiance[0]));
}

TEST(Determinism, ThreadCountDoesNotChangeTheImage) {
    Scene s = test::animatedScene();
    s.options.render.threads = 1;
    Frames one = render(s);
    s.options.render.threads = 3;
    Frames three = render(s);
    expectIdentical(one, three, "1 vs 3 threads");
}
