// GPU tests: each skips (never passes) when no CUDA device is present.
#include <gtest/gtest.h>

#include "check/hit_compare.h"
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <random>

#include "lbvh_cases.h"
#include "test_util.h"
#include "accel/bvh_validate.h"
#include "core/error.h"
#include "accel/lbvh/lbvh_host.h"
#include "gpu/device.h"
#include "check/gpu_probe.h"
#include "render/cuda_renderer.h"
#include "render/flat_scene.h"
#include "render/ray_order.h"
#include "render/ray_sort_gpu.h"
#include "render/renderer.h"
#include "render/scene_view.h"
#include "require_gpu.h"

using namespace strata;

namespace {

std::vector<Aabb> boundsOf(const std::vector<Vec3>& pos, const Mesh& m) {
    std::vector<Aabb> b;
    triangleBounds(pos, m.triangles, b);
    return b;
}

}  // namespace

// The GPU Karras build equals the CPU run of the same per-node code, node for
// node, and is a valid BVH over the GPU-posed triangles.
TEST(GpuLbvh, MatchesCpuRunNodeForNodeAndIsValid) {
    REQUIRE_GPU();
    for (int bits : {30, 63})
        for (uint32_t n : {1u, 2u, 3u, 1000u, 100000u}) {
            Scene s = test::sceneWith(test::makeRandomTriangles(n, 0.01f, n * 7 + bits));
            s.options.accel.mortonBits = bits;
            GpuBuildResult g = buildOnGpuForValidation(s, 0.0f);
            auto bounds = boundsOf(g.positions, s.meshes[0]);
            BvhView view{g.nodes.data(), g.primIndex.data(), uint32_t(g.nodes.size()), uint32_t(g.primIndex.size())};
            BvhReport rep = validateBvh(view, bounds);
            EXPECT_TRUE(rep.ok) << n << " " << bits << ": " << (rep.errors.empty() ? "" : rep.errors[0]);
            LbvhHostResult ref = buildLbvhHost(bounds, bits);
            ASSERT_EQ(ref.bvh.nodes.size(), g.nodes.size());
            EXPECT_EQ(ref.bvh.primIndex, g.primIndex) << n << " " << bits;
            size_t diff = 0;
            for (size_t i = 0; i < g.nodes.size(); ++i)
                diff += std::memcmp(&ref.bvh.nodes[i], &g.nodes[i], sizeof(BvhNode)) != 0;
            EXPECT_EQ(diff, 0u) << n << " " << bits;
        }
}

TEST(GpuLbvh, CoincidentPrimitivesValidAndShallowEnough) {
    REQUIRE_GPU();
    Mesh one = test::makeRandomTriangles(1, 0.02f, 5);
    Mesh m;
    for (int i = 0; i < 20000; ++i) {
        for (int k = 0; k < 3; ++k) m.positions.push_back(one.positions[k]);
        m.triangles.push_back(Tri{{uint32_t(3 * i), uint32_t(3 * i + 1), uint32_t(3 * i + 2)}});
    }
    m.triMaterial.assign(m.triangles.size(), 0);
    Scene s = test::sceneWith(m);
    GpuBuildResult g = buildOnGpuForValidation(s, 0.0f);
    BvhView view{g.nodes.data(), g.primIndex.data(), uint32_t(g.nodes.size()), uint32_t(g.primIndex.size())};
    BvhReport rep = validateBvh(view, boundsOf(g.positions, s.meshes[0]));
    EXPECT_TRUE(rep.ok) << (rep.errors.empty() ? "" : rep.errors[0]);
}

TEST(GpuTrace, ClosestHitsEqualBruteForce) {
    REQUIRE_GPU();
    Scene s = test::sceneWith(test::makeRandomTriangles(20000, 0.03f, 17));
    std::vector<Ray> rays = test::randomRays(20000, 5);
    std::vector<HitRecord> got = traceOnGpuForValidation(s, 0.0f, rays);
    GeometryView g;
    g.pos = s.meshes[0].positions.data();
    g.tris = s.meshes[0].triangles.data();
    g.numTris = uint32_t(s.meshes[0].triangles.size());
    size_t hits = 0;
    for (size_t i = 0; i < rays.size(); ++i) {
        HitRecord ref = traceBruteForce(g, rays[i]);
        hits += isHit(ref);
        ASSERT_EQ(isHit(got[i]), isHit(ref)) << i;
        // nvcc contracts to FMA where g++ does not: distances agree to a few ulps (check/hit_compare.h).
        EXPECT_TRUE(sameHit(got[i], ref)) << i << ": " << hitDistance(got[i]) << " vs " << hitDistance(ref);
    }
    EXPECT_GT(hits, rays.size() / 5);
}

namespace {
Scene furnace() {
    Material m;
    m.albedo = make3(0.6f);
    Scene s = test::sceneWith(test::makeSphere({0, 0, 0}, 1.0f, 48));
    s.materials[0] = m;
    s.environment.color = make3(2.0f);
    s.camera.position = {0, 0, 3};
    s.camera.target = {0, 0, 0};
    s.camera.fovYDegrees = 40;
    s.options.render.width = 64;
    s.options.render.height = 64;
    s.options.render.spp = 256;
    s.options.render.bounces = 3;
    return s;
}
}  // namespace

// Same seed, same sample pattern: the GPU image equals the CPU image up to
// floating-point differences (mean absolute difference far below the noise).
TEST(GpuRender, ImageEqualsCpuImageWithinNoise) {
    REQUIRE_GPU();
    Scene s = furnace();
    s.options.render.spp = 16;
    Material m2;
    m2.type = MaterialType::Conductor;
    m2.albedo = {0.9f, 0.6f, 0.3f};
    m2.roughness = 0.3f;
    s.materials.push_back(m2);
    Mesh floor = test::makeSphere({0, -101, 0}, 100.0f, 64, 1);
    s.meshes.push_back(floor);
    s.instances.push_back(Instance{"floor", 1, Affine{}, {}});
    s.sun.enabled = true;
    s.sun.direction = normalize(Vec3{0.3f, 1.0f, 0.4f});
    s.sun.radiance = make3(3.0f);
    std::vector<float> a, b;
    auto g = makeCudaRenderer(s);
    g->renderFrame(0.0f, 1);
    g->readRadiance(a);
    s.options.render.threads = 4;
    auto c = makeCpuRenderer(s);
    c->renderFrame(0.0f, 1);
    c->readRadiance(b);
    ASSERT_EQ(a.size(), b.size());
    test::ImageDiff d = test::compareImages(a, b);
    EXPECT_LT(d.meanAbsDiff, 0.01 * d.mean);
    EXPECT_GT(d.fractionClose, 0.95);
}

// Whitted (render.integrator = whitted, one mirror reflection) with every
// builder: the same image as the CPU backend's, the kd-tree included.
TEST(GpuRender, WhittedImageEqualsTheCpuImage) {
    REQUIRE_GPU();
    Scene s = furnace();
    s.options.render.spp = 4;
    s.options.render.bounces = 1;
    s.options.set("render.integrator", "whitted");
    Mesh floor = test::makeSphere({0, -101, 0}, 100.0f, 64);
    s.meshes.push_back(floor);
    s.instances.push_back(Instance{"floor", 1, Affine{}, {}});
    s.sun.enabled = true;
    s.sun.direction = normalize(Vec3{0.3f, 1.0f, 0.4f});
    s.sun.radiance = make3(3.0f);
    for (const char* builder : {"lbvh-karras", "kdtree"}) {
        s.options.set("accel.builder", builder);
        std::vector<float> a, b;
        auto g = makeCudaRenderer(s);
        g->renderFrame(0.0f, 1);
        g->readRadiance(a);
        auto c = makeCpuRenderer(s);
        c->renderFrame(0.0f, 1);
        c->readRadiance(b);
        ASSERT_EQ(a.size(), b.size());
        test::ImageDiff d = test::compareImages(a, b);
        EXPECT_LT(d.meanAbsDiff, 0.01 * d.mean) << builder;
        EXPECT_GT(d.fractionClose, 0.98) << builder;
    }
}

// RaySortGpu against the host: the first *count slots come out in the order
// of (key, slot), each ray with its own path, the slots past the count left
// out; twice, to reuse the buffers.
TEST(GpuRaySort, QueueComesOutInKeyOrderWithItsPaths) {
    REQUIRE_GPU();
    const uint32_t n = 5000, count = 3777;
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<Ray> rays(n);
    std::vector<uint32_t> paths(n);
    for (uint32_t i = 0; i < n; ++i) {
        rays[i].org = {u(rng), u(rng), u(rng)};
        rays[i].dir = normalize(Vec3{u(rng), u(rng), u(rng)});
        if (i % 9 == 0) rays[i].org = rays[i - i % 18].org;  // equal keys: ties kept in slot order
        if (i % 9 == 0) rays[i].dir = rays[i - i % 18].dir;
        paths[i] = 7 * i + 3;
    }
    DeviceBuffer<Ray> dRays;
    DeviceBuffer<uint32_t> dPaths, dCount;
    dRays.upload(rays);
    dPaths.upload(paths);
    dCount.upload(std::vector<uint32_t>{count});
    SceneView sv;  // no structure: origins in the unit cube's box [-1, 1]
    const Aabb box = rayOrderBox(sv);
    std::vector<uint64_t> order(count);
    for (uint32_t i = 0; i < count; ++i) order[i] = uint64_t(rayOrderKey(rays[i], box)) << 32 | i;
    std::sort(order.begin(), order.end());
    RaySortGpu sorter;
    for (int round = 0; round < 2; ++round) {
        const RaySortGpu::Sorted q = sorter.sort(sv, dRays.data(), dPaths.data(), dCount.data(), n, LaunchContext{});
        STRATA_CUDA_CHECK(cudaDeviceSynchronize());
        std::vector<Ray> outRays(count);
        std::vector<uint32_t> outPaths(count);
        STRATA_CUDA_CHECK(cudaMemcpy(outRays.data(), q.rays, count * sizeof(Ray), cudaMemcpyDeviceToHost));
        STRATA_CUDA_CHECK(cudaMemcpy(outPaths.data(), q.paths, count * sizeof(uint32_t), cudaMemcpyDeviceToHost));
        for (uint32_t i = 0; i < count; ++i) {
            const uint32_t slot = uint32_t(order[i]);
            ASSERT_EQ(outPaths[i], paths[slot]) << i;
            ASSERT_EQ(std::memcmp(&outRays[i], &rays[slot], sizeof(Ray)), 0) << i;
        }
    }
}

// render.sort_rays: the bounces' rays traced in rayOrderKey's order give the
// frame of the unsorted queues bit for bit (BVH traversals do not depend on
// a warp's other rays), flat and instanced; the sort's stage has time.
TEST(GpuRender, SortedBouncesRenderTheSameImage) {
    REQUIRE_GPU();
    Scene s = furnace();
    s.options.render.spp = 4;
    Mesh floor = test::makeSphere({0, -101, 0}, 100.0f, 64);
    s.meshes.push_back(floor);
    s.instances.push_back(Instance{"floor", 1, Affine{}, {}});
    for (const char* mode : {"flat", "instanced"}) {
        SCOPED_TRACE(mode);
        s.options.set("accel.mode", mode);
        s.options.set("accel.builder", "hploc");
        std::vector<float> image[2];
        for (int sorted = 0; sorted < 2; ++sorted) {
            s.options.render.sortRays = sorted == 1;
            auto g = makeCudaRenderer(s);
            g->renderFrame(0.0f, 1);
            g->finish();
            g->readRadiance(image[sorted]);
            FrameRecord rec;
            ASSERT_TRUE(g->popRecord(rec));
            if (sorted)
                EXPECT_GT(rec.stageMs("trace/sort"), 0.0);
            else
                EXPECT_EQ(rec.stageMs("trace/sort"), 0.0);
        }
        ASSERT_EQ(image[0].size(), image[1].size());
        EXPECT_TRUE(image[0] == image[1]);
    }
}

TEST(GpuRender, DeformingSceneAnimatesLikeTheCpuReference) {
    REQUIRE_GPU();
    // Sway: crown vertices move with time; GPU posing equals the CPU reference.
    Mesh m = test::makeSphere({0, 2, 0}, 1.0f, 32);
    m.animation = MeshAnimationKind::Sway;
    m.sway.amplitude = 0.3f;
    m.sway.height = 3.0f;
    Scene s = test::sceneWith(m);
    s.instances[0].animation.times = {0.0f, 2.0f};
    s.instances[0].animation.translation = {{0, 0, 0}, {1, 0, 0}};
    s.instances[0].animation.rotation = {Quat{}, axisAngle({0, 1, 0}, 1.0f)};
    s.instances[0].animation.scale = {make3(1.0f), make3(1.0f)};
    for (float t : {0.3f, 1.1f}) {
        GpuBuildResult g = buildOnGpuForValidation(s, t);
        FlatScene flat = flattenScene(s);
        std::vector<Vec3> pos, nrm;
        poseFlatScene(s, flat, t, pos, nrm);
        float maxDiff = 0;
        for (size_t i = 0; i < pos.size(); ++i) maxDiff = std::max(maxDiff, length(pos[i] - g.positions[i]));
        EXPECT_LT(maxDiff, 1e-4f) << t;
    }
}

TEST(GpuRender, SceneLargerThanFreeMemoryIsAClearError) {
    REQUIRE_GPU();
    Scene s = test::sceneWith(test::makeRandomTriangles(1000, 0.01f, 1));
    s.path = "big.json";
    s.options.render.width = 4096;
    s.options.render.height = 4096;
    setenv("STRATA_GPU_MEMORY_LIMIT_MB", "100", 1);
    try {
        makeCudaRenderer(s);
        unsetenv("STRATA_GPU_MEMORY_LIMIT_MB");
        FAIL() << "expected an error";
    } catch (const Error& e) {
        unsetenv("STRATA_GPU_MEMORY_LIMIT_MB");
        std::string m = e.what();
        EXPECT_NE(m.find("big.json"), std::string::npos) << m;
        EXPECT_NE(m.find("MiB of GPU memory"), std::string::npos) << m;
        EXPECT_NE(m.find("MiB free"), std::string::npos) << m;
    }
}
