// render/denoise.h's parts: a hit projects back to the pixel whose centre ray
// found it, and the surface test tells the same surface from another one.
#include <gtest/gtest.h>

#include <cmath>

#include "render/denoise.h"
#include "render/flat_scene.h"

using namespace strata;

TEST(Denoise, AHitProjectsBackToItsPixelCentre) {
    CameraPose pose;
    pose.position = {1, 2, 3};
    pose.target = {-0.5f, 0.3f, -2};
    pose.up = {0, 1, 0};
    pose.fovYDegrees = 55;
    const uint32_t w = 64, h = 40;
    const CameraView c = makeCameraView(pose, int(w), int(h));
    for (uint32_t pixel : {0u, 63u, 640u, 1234u, 2559u})
        for (float t : {0.5f, 3.0f, 40.0f}) {
            const Ray r = pixelCentreRay(c, w, h, pixel);
            float px = -1, py = -1;
            ASSERT_TRUE(projectToPixel(c, r.org + r.dir * t, w, h, px, py));
            EXPECT_NEAR(px, float(pixel % w) + 0.5f, 2e-3f * w) << pixel << " " << t;
            EXPECT_NEAR(py, float(pixel / w) + 0.5f, 2e-3f * h) << pixel << " " << t;
        }
    float px, py;
    EXPECT_FALSE(projectToPixel(c, c.position - c.forward, w, h, px, py));  // behind the camera
}

TEST(Denoise, SameSurfaceNeedsTheSamePointAndFacing) {
    FilterPixel a;
    a.pos = {0, 0, -5};
    a.nrm = {0, 0, 1};
    a.depth = 5;
    FilterPixel b = a;
    EXPECT_TRUE(sameSurface(a, b));
    b.pos.z += 0.04f;  // within 1% of the depth
    EXPECT_TRUE(sameSurface(a, b));
    b.pos.z += 0.2f;  // a surface in front of it
    EXPECT_FALSE(sameSurface(a, b));
    b = a;
    b.nrm = {1, 0, 0};
    EXPECT_FALSE(sameSurface(a, b));
    b = a;
    b.depth = 0;  // a miss
    EXPECT_FALSE(sameSurface(a, b));
}
