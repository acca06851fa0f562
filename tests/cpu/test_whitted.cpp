// render.integrator = whitted: direct light through shadow rays at every hit
// and one mirror reflection per bounce (the kd-tree chapter's R). Checked
// against the path tracer where the two must agree, and against the
// reflection's exact radiance.
#include <gtest/gtest.h>

#include "render/integrator.h"
#include "render/renderer.h"
#include "test_util.h"

using namespace strata;

namespace {

// A square in the plane y = h from -s to s, facing down (faceDown) or up.
void addSquare(Mesh& m, float h, float s, bool faceDown, int32_t material) {
    const uint32_t b = uint32_t(m.positions.size());
    for (Vec3 p : {Vec3{-s, h, -s}, Vec3{s, h, -s}, Vec3{s, h, s}, Vec3{-s, h, s}}) m.positions.push_back(p);
    if (faceDown) {
        m.triangles.push_back(Tri{{b, b + 1, b + 2}});
        m.triangles.push_back(Tri{{b, b + 2, b + 3}});
    } else {
        m.triangles.push_back(Tri{{b, b + 2, b + 1}});
        m.triangles.push_back(Tri{{b, b + 3, b + 2}});
    }
    m.triMaterial.push_back(material);
    m.triMaterial.push_back(material);
}

Scene baseScene(Mesh m) {
    Scene s = test::sceneWith(std::move(m));
    s.camera.position = {0, 1, 3};
    s.camera.target = {0, 0, 0};
    s.camera.fovYDegrees = 40;
    s.options.render.width = 32;
    s.options.render.height = 32;
    s.options.render.spp = 1;
    s.options.render.threads = 2;
    s.options.set("accel.builder", "cpu-sah");
    return s;
}

std::vector<float> render(Scene s, const std::string& integrator, int bounces) {
    s.options.set("render.integrator", integrator);
    s.options.render.bounces = bounces;
    auto r = makeCpuRenderer(s);
    r->renderFrame(0.0f, 0);
    std::vector<float> rad;
    r->readRadiance(rad);
    return rad;
}

}  // namespace

// Under a sun alone (black sky), Whitted without reflections is the path
// tracer's next-event estimate at the first hit: the same image.
TEST(Whitted, DirectLightIsThePathTracersFirstHitUnderASun) {
    Mesh m = test::makeSphere({0, 0.5f, 0}, 0.4f, 24);
    addSquare(m, 0.0f, 5.0f, false, 0);
    Scene s = baseScene(std::move(m));
    s.sun.enabled = true;
    s.sun.direction = normalize(Vec3{0.3f, 1.0f, 0.2f});
    s.sun.radiance = {3, 3, 3};
    s.environment.color = {0, 0, 0};
    const std::vector<float> whitted = render(s, "whitted", 0), path = render(s, "path", 1);
    ASSERT_EQ(whitted.size(), path.size());
    int lit = 0, shadowed = 0;
    for (size_t i = 0; i < path.size(); ++i) {
        EXPECT_NEAR(whitted[i], path[i], 1e-5f * std::max(1.0f, path[i])) << i;
        lit += path[i] > 0.1f;
        shadowed += path[i] == 0.0f;
    }
    EXPECT_GT(lit, 100);      // the sun reaches most of what the camera sees
    EXPECT_GT(shadowed, 10);  // and the sphere's shadow and far side are dark
}

// A black floor under an emitting ceiling: the floor's only light is its
// mirror reflection of the ceiling, kWhittedMirror times the emission.
TEST(Whitted, OneMirrorReflectionSeesTheCeiling) {
    Mesh m;
    addSquare(m, 0.0f, 50.0f, false, 0);
    addSquare(m, 3.0f, 50.0f, true, 1);
    Scene s = baseScene(std::move(m));
    s.materials[0].albedo = {0, 0, 0};
    Material lamp;
    lamp.type = MaterialType::Emissive;
    lamp.emission = {2.0f, 1.0f, 0.5f};
    s.materials.push_back(lamp);
    s.materialNames.push_back("lamp");
    const std::vector<float> one = render(s, "whitted", 1), none = render(s, "whitted", 0);
    const int w = 32;
    for (int y = 20; y < 32; ++y)  // the lower rows see the floor
        for (int x = 0; x < w; ++x) {
            const size_t i = 3 * size_t(y * w + x);
            for (int c = 0; c < 3; ++c) {
                EXPECT_NEAR(one[i + c], kWhittedMirror * lamp.emission[c], 1e-5f) << x << "," << y;
                EXPECT_EQ(none[i + c], 0.0f) << x << "," << y;
            }
        }
}
