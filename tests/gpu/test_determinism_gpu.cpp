// Determinism on the CUDA backend: the same scene, options, seed and frames
// give a bit-identical image on the same GPU, with every builder the backend
// has (the LBVH variants, the skip-link layout with stackless traversal, the
// kd-tree with [A]-[E] off and on). Two renderers, each made from scratch.
// Skips (never passes) without a GPU.
#include <gtest/gtest.h>

#include <cstring>

#include "../cpu/determinism_scene.h"
#include "render/cuda_renderer.h"
#include "render/renderer.h"
#include "require_gpu.h"

using namespace strata;

namespace {

struct Frames {
    std::vector<std::vector<float>> radiance;  // after each frame
    std::vector<uint8_t> image;                // tone mapped, after the last
};

// Three animation frames (scene time advancing), the last two accumulating.
Frames render(const Scene& s) {
    Frames out;
    auto r = makeCudaRenderer(s);
    for (uint64_t f = 0; f < 3; ++f) {
        r->renderFrame(float(f) / s.options.animation.fps, f, /*accumulate=*/f > 0);
        r->finish();
        out.radiance.emplace_back();
        r->readRadiance(out.radiance.back());
    }
    r->readImage(out.image);
    return out;
}

bool bitIdentical(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// How many floats differ, for the message.
size_t differing(const std::vector<float>& a, const std::vector<float>& b) {
    size_t n = 0;
    for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) n += std::memcmp(&a[i], &b[i], sizeof(float)) != 0;
    return n + (a.size() > b.size() ? a.size() - b.size() : b.size() - a.size());
}

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
        s.options.render.backend = "cuda";
        s.options.accel.builder = v.builder;
        s.options.accel.traversal = v.traversal;
        s.options.accel.kdA = s.options.accel.kdB = s.options.accel.kdC = s.options.accel.kdD =
            s.options.accel.kdE = v.kdAll;
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
