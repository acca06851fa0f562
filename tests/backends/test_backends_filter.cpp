// view.filter on both backends: frames of a moving camera at 1 spp, filtered,
// come closer to the converged image than the frame as rendered (temporal,
// and more so svgf); the filter is a stage of its own, and off (or a still
// image that accumulates) shows the film unchanged.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "backend_types.h"
#include "determinism_scene.h"
#include "scene/keyframes.h"
#include "test_util.h"

namespace strata {
namespace {

template <class B>
class BackendFilter : public ::testing::Test {};
TYPED_TEST_SUITE(BackendFilter, test::Backends, test::BackendName);

Scene filterScene() {
    Scene s = test::animatedScene();
    s.options.render.width = 64;
    s.options.render.height = 48;
    s.options.render.spp = 1;
    s.options.render.bounces = 2;
    return s;
}

// The camera of frame f: a small pan (the history must be reprojected).
CameraPose poseAt(const Scene& s, int f) {
    CameraPose p = cameraAt(s.camera, 0.0f);
    p.position = p.position + Vec3{0.01f * float(f), 0, 0};
    p.target = p.target + Vec3{0.01f * float(f), 0, 0};
    return p;
}

double meanAbsDiff(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
    double d = 0;
    for (size_t i = 0; i < a.size(); ++i) d += std::fabs(double(a[i]) - double(b[i]));
    return d / double(a.size());
}

// The last of `frames` frames of the panning camera (scene time still,
// every frame starting over) as shown, and its record.
template <class B>
std::vector<uint8_t> shownAfter(Scene s, ViewFilter mode, int frames, FrameRecord* rec = nullptr) {
    s.options.view.filter = mode;
    auto r = test::makeOn<B>(s);
    for (int f = 0; f < frames; ++f) {
        const CameraPose p = poseAt(s, f);
        r->setCamera(&p);
        r->renderFrame(0.0f, uint64_t(f), false);
    }
    r->finish();
    FrameRecord last;
    while (r->popRecord(last))
        if (rec) *rec = last;
    std::vector<uint8_t> rgb;
    r->readImage(rgb);
    return rgb;
}

TYPED_TEST(BackendFilter, FilteredFramesComeCloserToTheConvergedImage) {
    REQUIRE_BACKEND();
    const Scene s = test::onBackend<TypeParam>(filterScene());
    const int frames = 16;
    // The converged image of the last frame's camera.
    Scene ref = s;
    ref.options.render.spp = 256;
    const std::vector<uint8_t> converged = [&] {
        auto r = test::makeOn<TypeParam>(ref);
        const CameraPose p = poseAt(s, frames - 1);
        r->setCamera(&p);
        r->renderFrame(0.0f, 0, false);
        r->finish();
        std::vector<uint8_t> rgb;
        r->readImage(rgb);
        return rgb;
    }();
    FrameRecord off, temporal, svgf;
    const double eOff = meanAbsDiff(shownAfter<TypeParam>(s, ViewFilter::Off, frames, &off), converged);
    const double eTemporal = meanAbsDiff(shownAfter<TypeParam>(s, ViewFilter::Temporal, frames, &temporal), converged);
    const double eSvgf = meanAbsDiff(shownAfter<TypeParam>(s, ViewFilter::Svgf, frames, &svgf), converged);
    std::printf("mean |error| in 8-bit levels after %d panning frames: off %.2f, temporal %.2f, svgf %.2f\n", frames,
                eOff, eTemporal, eSvgf);
    EXPECT_LT(eTemporal, 0.6 * eOff);
    EXPECT_LT(eSvgf, 0.6 * eOff);
    EXPECT_LT(eSvgf, eTemporal);
    EXPECT_EQ(off.stageMs("filter"), 0.0);
    EXPECT_GT(temporal.stageMs("filter"), 0.0);
    EXPECT_GT(svgf.stageMs("filter"), 0.0);
}

// A still camera that accumulates shows its film: the filter does not run
// (the same image as with the filter off, bit for bit).
TYPED_TEST(BackendFilter, AccumulatingFramesShowTheFilm) {
    REQUIRE_BACKEND();
    Scene s = test::onBackend<TypeParam>(filterScene());
    std::vector<uint8_t> shown[2];
    double filterMs[2] = {};
    for (int k = 0; k < 2; ++k) {
        s.options.view.filter = k ? ViewFilter::Svgf : ViewFilter::Off;
        auto r = test::makeOn<TypeParam>(s);
        for (int f = 0; f < 4; ++f) r->renderFrame(0.0f, uint64_t(f), f > 0);
        r->finish();
        FrameRecord rec;
        while (r->popRecord(rec)) filterMs[k] = rec.stageMs("filter");
        r->readImage(shown[k]);
    }
    EXPECT_EQ(shown[0], shown[1]);
    EXPECT_EQ(filterMs[1], 0.0);
}

}  // namespace
}  // namespace strata
