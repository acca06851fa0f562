// Determinism on the CUDA backend: the same scene, options, seed and frames
// give a bit-identical image on the same GPU, with every builder the backend
// has (the LBVH variants, the skip-link layout with stackless traversal, the
// kd-tree with [A]-[E] off and on). Two renderers, each made from scratch.
// Skips (never passes) without a GPU.
#include <gtest/gtest.h>

#include <cstring>

#include "determinism_scene.h"
#include "render/cuda_renderer.h"
#include "render/renderer.h"
#include "require_gpu.h"

using namespace strata;

namespace {

using test::bitIdentical;
using test::differing;
using test::Frames;

Frames render(const Scene& s) { return test::renderFrames(s, makeCudaRenderer); }

struct Variant {
    const char* builder;
    const char* traversal;
    bool kdAll;  // kd-tree: every [A]-[E] optimization on (else the Original)
};

}  // namespace

TEST(GpuDeterminism, SameSceneOptionsSeedAndFramesGiveBitIdenticalImagesWithEveryBuilder) {
    REQUIRE_GPU();
    const Variant variants[] = {{"lbvh-karras", "stack", false}, {"lbvh-apetrei", "stack", false},
                                {"lbvh-skip", "stack", false},   {"lbvh-skip", "stackless", false},
                                {"kdtree", "stack", false},      {"kdtree", "stack", true}};
    for (const Variant& v : variants) {
        Scene s = test::animatedScene();
        s.options.set("render.backend", "cuda");
        s.options.set("accel.builder", v.builder);
        s.options.set("accel.traversal", v.traversal);
        s.options.accel.kdOpts = v.kdAll ? KdOpts::all() : KdOpts{};
        std::string what = std::string(v.builder) + " / " + v.traversal + (v.kdAll ? " / [A]-[E]" : "");
        Frames a = render(s), b = render(s);
        ASSERT_EQ(a.radiance.size(), b.radiance.size());
        for (size_t f = 0; f < a.radiance.size(); ++f)
            EXPECT_TRUE(bitIdentical(a.radiance[f], b.radiance[f]))
                << what << ": frame " << f << ": " << differing(a.radiance[f], b.radiance[f]) << " of "
                << a.radiance[f].size() << " values differ";
        EXPECT_EQ(a.image, b.image) << what;
        // Not vacuous: time moves and samples add, and the image is not black.
        EXPECT_FALSE(bitIdentical(a.radiance[0], a.radiance[1])) << what;
        double sum = 0;
        for (float x : a.radiance[2]) sum += x;
        EXPECT_GT(sum, 0.0) << what;
    }
}

TEST(GpuDeterminism, ADifferentSeedGivesADifferentImage) {
    REQUIRE_GPU();
    Scene s = test::animatedScene();
    Frames a = render(s);
    s.options.render.seed = 8;
    Frames b = render(s);
    EXPECT_FALSE(bitIdentical(a.radiance[0], b.radiance[0]));
}
