// Instanced mode (accel.mode = instanced) on the CPU: the top level over
// instances and the middle level per mesh (shared object-space BLAS for
// static meshes, a world-space BLAS per deforming instance) give the same
// closest and any hits as flat mode and as brute force, for every builder and
// traversal, and the CPU backend renders the same image.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "loader_test_util.h"
#include "render/flat_scene.h"
#include "render/instanced_host.h"
#include "render/renderer.h"
#include "scene/scene_loader.h"

namespace strata {
namespace {

const char* kScene = R"({"meshes": [{"name": "floor", "generator": "plane", "params": {"size": 8, "subdivisions": 4}},
    {"name": "ball", "generator": "sphere", "params": {"radius": 0.5, "segments": 24}},
    {"name": "box", "generator": "box", "params": {"size": [0.6, 1.2, 0.4]}},
    {"name": "plant", "generator": "sphere", "params": {"radius": 0.4, "segments": 16}}],
  "instances": [{"mesh": "floor"},
    {"mesh": "ball", "translate": [-1, 0.5, 0]}, {"mesh": "ball", "translate": [1, 0.7, -0.5], "scale": [1.5, 0.8, 1]},
    {"mesh": "box", "translate": [0, 0.6, -1], "rotate": {"axis": [0.3, 1, 0.2], "degrees": 35},
     "animation": {"keys": [{"time": 0}, {"time": 2, "translate": [0.5, 0.2, 0]}]}},
    {"mesh": "plant", "translate": [0.3, 0.4, 0.8]}, {"mesh": "plant", "translate": [-0.8, 0.4, 1.0]}],
  "camera": {"position": [0, 1.5, 4], "target": [0, 0.4, 0]},
  "lights": {"environment": {"color": [0.4, 0.45, 0.5]}, "sun": {"direction": [0.3, 1, 0.4]}}})";

Scene loadTestScene(test::TempDir& dir) {
    Scene s = loadScene(dir.write("s.json", kScene));
    // The "plant" sways: a deforming mesh (a BLAS per instance, world space).
    Mesh& plant = s.meshes[3];
    plant.animation = MeshAnimationKind::Sway;
    plant.sway.amplitude = 0.3f;
    plant.sway.height = 0.8f;
    plant.sway.base = -0.4f;
    return s;
}

TEST(Instanced, HitsEqualFlatModeAndBruteForceForEveryBuilder) {
    test::TempDir dir;
    Scene s = loadTestScene(dir);
    FlatScene flat = flattenScene(s);
    const float t = 0.7f;
    std::vector<Vec3> pos, nrm;
    poseFlatScene(s, flat, t, pos, nrm);
    std::vector<Aabb> bounds;
    triangleBounds(pos, flat.tris, bounds);
    SceneView base = hostSceneView(s, flat, pos, nrm, BvhView{}, CameraView{});

    std::mt19937 rng(9);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<Ray> rays(3000);
    for (Ray& r : rays) {
        r.org = Vec3{u(rng) * 3, 0.6f + u(rng) * 1.2f, u(rng) * 3};
        r.dir = normalize(Vec3{u(rng), u(rng), u(rng)});
        r.tmin = 1e-4f;
        r.tmax = u(rng) > 0.5f ? 2.0f : 1e30f;
    }
    struct Case {
        const char* builder;
        const char* traversal;
    };
    for (Case c : {Case{"lbvh-karras", "stack"}, Case{"lbvh-apetrei", "stack"}, Case{"lbvh-skip", "stack"},
                   Case{"lbvh-skip", "stackless"}, Case{"cpu-sah", "stack"}}) {
        AccelOptions o;
        o.builder = c.builder;
        o.traversal = c.traversal;
        o.mode = "instanced";
        InstancedHost inst;
        inst.build(s, flat, pos, bounds, t, o);
        SceneView sv = base;
        sv.tl = inst.view();
        ASSERT_EQ(sv.tl.numInstances, 6u);
        int hits = 0, far = 0;
        for (const Ray& r : rays) {
            HitRecord ref = traceBruteForce(base.geo, r);
            HitRecord h = traceClosest(sv, r);
            ASSERT_EQ(isHit(h), isHit(ref)) << c.builder << " " << c.traversal;
            ASSERT_EQ(traceAny(sv, r), isHit(ref)) << c.builder << " " << c.traversal;
            if (!isHit(ref)) continue;
            ++hits;
            // Object-space hits of static instances differ from world space by rounding only.
            far += std::fabs(hitDistance(h) - hitDistance(ref)) > 1e-4f * std::max(1.0f, hitDistance(ref));
        }
        EXPECT_GT(hits, 500);
        EXPECT_LE(far, 3) << c.builder << " " << c.traversal;
    }
}

TEST(Instanced, StaticMeshesShareOneBlasAndOptionsRefuseTheKdTree) {
    test::TempDir dir;
    Scene s = loadTestScene(dir);
    FlatScene flat = flattenScene(s);
    std::vector<Vec3> pos, nrm;
    poseFlatScene(s, flat, 0.0f, pos, nrm);
    std::vector<Aabb> bounds;
    triangleBounds(pos, flat.tris, bounds);
    AccelOptions o;
    o.mode = "instanced";
    InstancedHost inst;
    inst.build(s, flat, pos, bounds, 0.0f, o);
    TwoLevelView v = inst.view();
    EXPECT_EQ(v.instances[1].blas, v.instances[2].blas) << "two balls, one BLAS";
    EXPECT_NE(v.instances[4].blas, v.instances[5].blas) << "each swaying plant has its own";
    Options opt;
    opt.set("accel.mode", "instanced");
    opt.set("accel.builder", "kdtree");
    EXPECT_THROW(opt.check(), Error);
}

TEST(Instanced, CpuBackendRendersTheSameImageAsFlatMode) {
    test::TempDir dir;
    std::vector<float> img[2];
    const char* modes[2] = {"flat", "instanced"};
    for (int k = 0; k < 2; ++k) {
        Scene s = loadTestScene(dir);
        s.options.accel.mode = modes[k];
        s.options.render.backend = "cpu";
        s.options.render.width = 40;
        s.options.render.height = 30;
        s.options.render.spp = 2;
        auto r = makeCpuRenderer(s);
        r->renderFrame(0.5f, 3);
        r->readRadiance(img[k]);
    }
    double diff = 0, mean = 0;
    for (size_t i = 0; i < img[0].size(); ++i) {
        diff += std::fabs(img[0][i] - img[1][i]);
        mean += img[0][i];
    }
    EXPECT_GT(mean, 0.0);
    EXPECT_LE(diff, 1e-3 * mean) << "instanced mode must trace the same scene";
}

}  // namespace
}  // namespace strata
