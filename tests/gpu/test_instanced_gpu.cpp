// Instanced mode on the CUDA backend: the GPU top level over instances and
// the per-mesh BLASes (object space for static meshes, world space per
// deforming instance) give the closest hits of brute force over the posed
// flat scene for every LBVH variant and traversal, at several scene times,
// and the GPU renders the image it renders in flat mode.
#include <gtest/gtest.h>

#include "check/hit_compare.h"
#include <cmath>

#include <cstring>
#include <random>

#include "accel/toplevel/top_cluster.h"
#include "accel/toplevel/top_cluster_gpu.h"
#include "gpu/device_buffer.h"
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
        const char* cluster = "true";  // accel.cluster_top_level
    };
    for (float t : {0.0f, 0.7f, 1.9f}) {
        Scene s = test::loadInstancedScene(dir);
        FlatScene flat = flattenScene(s);
        std::vector<Vec3> pos, nrm;
        poseFlatScene(s, flat, t, pos, nrm);
        SceneView base = hostSceneView(s, flat, pos, nrm, BvhView{}, CameraView{});
        for (Case c : {Case{"lbvh-karras", "stack"}, Case{"lbvh-apetrei", "stack"}, Case{"lbvh-skip", "stack"},
                       Case{"lbvh-skip", "stackless"}, Case{"lbvh-karras", "stack", "false"},
                       Case{"lbvh-apetrei", "stack", "false"}, Case{"lbvh-skip", "stackless", "false"},
                       Case{"hploc", "stack", "false"}}) {
            s.options.set("accel.mode", "instanced");
            s.options.set("accel.cluster_top_level", c.cluster);
            s.options.set("accel.builder", c.builder);
            s.options.set("accel.traversal", c.traversal);
            const std::vector<HitRecord> got = traceOnGpuForValidation(s, t, rays);
            ASSERT_EQ(got.size(), rays.size());
            int hits = 0, far = 0;
            for (size_t i = 0; i < rays.size(); ++i) {
                const HitRecord ref = traceBruteForce(base.geo, rays[i]);
                ASSERT_EQ(isHit(got[i]), isHit(ref))
                    << c.builder << " " << c.traversal << " cluster " << c.cluster << " t=" << t << " ray " << i;
                if (!isHit(ref)) continue;
                ++hits;
                // Static instances are hit in object space: distances differ by rounding only,
                // and where two triangles meet at an edge the other one may win.
                far += !sameHit(got[i], ref, 10 * kHitDistanceTolerance);
            }
            EXPECT_GT(hits, 700) << c.builder;
            EXPECT_LE(far, 4) << c.builder << " " << c.traversal << " cluster " << c.cluster << " t=" << t;
        }
    }
}

// accel.cluster_top_level: the block's rounds build the host's tree node for
// node (the same distances and ties, no fused multiply-adds), from one leaf
// to the most one block takes: random boxes with and without a large box
// around the rest, coincident boxes, and a row of equal ones evenly spaced.
TEST(GpuInstanced, ClusteredTopLevelIsTheHostsTree) {
    REQUIRE_GPU();
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> u(-10.0f, 10.0f), e(0.05f, 1.5f);
    for (uint32_t n : {1u, 2u, 3u, 33u, 161u, 200u, kClusterMaxLeaves})
        for (int kind : {0, 1, 2, 3}) {  // random, random with a hall, coincident, a row
            std::vector<Aabb> boxes(n);
            for (uint32_t k = 0; k < n; ++k) {
                const Vec3 c{u(rng), u(rng), u(rng)}, h{e(rng), e(rng), e(rng)};
                boxes[k] = kind < 2 ? Aabb{c - h, c + h}
                           : kind == 2
                               ? Aabb{Vec3{0.0f, 0.0f, 0.0f}, Vec3{1.0f, 1.0f, 1.0f}}
                               : Aabb{Vec3{2.0f * float(k), 0.0f, 0.0f}, Vec3{2.0f * float(k) + 1.0f, 1.0f, 1.0f}};
            }
            if (kind == 1) boxes[0] = Aabb{Vec3{-12.0f, -12.0f, -12.0f}, Vec3{12.0f, 12.0f, 12.0f}};
            const HostBvh want = clusterTopLevel(boxes);
            DeviceBuffer<Aabb> in;
            in.upload(boxes);
            DeviceBuffer<BvhNode> nodes(want.nodes.size());
            DeviceBuffer<uint32_t> prims(n);
            clusterTopLevelGpu(in.data(), n, nodes.data(), prims.data(), LaunchContext{});
            STRATA_CUDA_CHECK(cudaDeviceSynchronize());
            std::vector<BvhNode> got;
            std::vector<uint32_t> gotPrims;
            nodes.download(got);
            prims.download(gotPrims);
            EXPECT_EQ(gotPrims, want.primIndex) << n;
            ASSERT_EQ(got.size(), want.nodes.size());
            for (size_t k = 0; k < got.size(); ++k)
                ASSERT_EQ(std::memcmp(&got[k], &want.nodes[k], sizeof(BvhNode)), 0)
                    << n << " leaves, kind " << kind << ": node " << k;
        }
}

}  // namespace
}  // namespace strata
