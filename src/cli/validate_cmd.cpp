// strata-cli validate: build every available structure for the scene's frame
// and check it against the CPU reference: the structure's invariants, and for
// random rays the same closest hit as brute force. Exit 0 only if all agree.
#include <cstdio>
#include <cmath>
#include <cstring>
#include <random>

#include "accel/bvh_validate.h"
#include "accel/cpu/sah_builder.h"
#include "accel/kdtree/kd_cpu_builder.h"
#include "accel/kdtree/kd_validate.h"
#include "accel/lbvh/lbvh_host.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "gpu/device.h"
#include "render/flat_scene.h"
#include "render/thread_pool.h"
#if defined(STRATA_HAVE_CUDA)
#include "render/cuda_renderer.h"
#endif

namespace strata::cli {
namespace {

std::vector<Ray> makeRays(const Scene& scene, const FlatScene& flat, const std::vector<Vec3>& pos, float t,
                          uint32_t n, uint32_t seed) {
    (void)flat;
    Aabb box;
    for (const Vec3& p : pos) box.grow(p);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    CameraView cam = makeCameraView(scene, t, scene.options.render.width, scene.options.render.height);
    std::vector<Ray> rays(n);
    for (uint32_t i = 0; i < n; ++i) {
        Ray& r = rays[i];
        if (i % 2 == 0) {  // camera rays through random pixels
            r.org = cam.position;
            r.dir = normalize(cam.forward + cam.right * (2 * u(rng) - 1) + cam.up * (1 - 2 * u(rng)));
        } else {  // rays from random points inside the scene box
            r.org = box.lo + box.extent() * Vec3{u(rng), u(rng), u(rng)};
            r.dir = normalize(Vec3{u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f});
        }
    }
    return rays;
}

// Same closest hit: both miss, or both hit at the same distance (the same
// triangle, or a tie between triangles at that distance).
bool sameHit(HitRecord a, HitRecord b) {
    if (isHit(a) != isHit(b)) return false;
    if (!isHit(a)) return true;
    if (hitPayload(a) == hitPayload(b)) return true;
    float ta = hitDistance(a), tb = hitDistance(b);
    return std::fabs(ta - tb) <= 1e-5f * std::max(1.0f, std::fabs(tb));
}

struct Checker {
    ThreadPool pool;
    int failures = 0;

    void report(const std::string& what, bool ok, const std::string& detail) {
        std::printf("%-34s %s  %s\n", what.c_str(), ok ? "ok  " : "FAIL", detail.c_str());
        if (!ok) ++failures;
    }

    void structure(const std::string& name, const BvhView& bvh, const std::vector<Aabb>& bounds) {
        BvhReport r = validateBvh(bvh, bounds);
        char buf[160];
        std::snprintf(buf, sizeof buf, "%u inner, %u leaves, depth %u, SAH %.1f", r.innerNodes, r.leaves,
                      r.maxDepth, r.sahCost);
        report(name + " invariants", r.ok, r.ok ? buf : r.errors[0]);
    }

    void hits(const std::string& name, const std::vector<HitRecord>& got, const std::vector<HitRecord>& ref) {
        size_t bad = 0, hitCount = 0;
        for (size_t i = 0; i < ref.size(); ++i) {
            bad += !sameHit(got[i], ref[i]);
            hitCount += isHit(ref[i]);
        }
        report(name + " closest hits", bad == 0,
               std::to_string(ref.size() - bad) + "/" + std::to_string(ref.size()) + " agree with brute force (" +
                   std::to_string(hitCount) + " hits)");
    }

    void kdStructure(const std::string& name, const HostKdTree& kd, const std::vector<Vec3>& pos,
                     const std::vector<Tri>& tris) {
        KdReport r = validateKdTree(kd.view(), pos, tris);
        char buf[200];
        std::snprintf(buf, sizeof buf, "%u inner, %u leaves (%u empty), depth %u, %u refs, SAH %.1f", r.innerNodes,
                      r.leaves, r.emptyLeaves, r.maxDepth, r.refs, r.sahCost);
        report(name + " invariants", r.ok, r.ok ? buf : r.errors[0]);
        for (const std::string& w : kd.stats.warnings) std::printf("%-34s note  %s\n", name.c_str(), w.c_str());
    }

    std::vector<HitRecord> traceAll(const SceneView& s, const std::vector<Ray>& rays, bool brute) {
        std::vector<HitRecord> out(rays.size());
        pool.parallelFor(uint32_t(rays.size()), [&](uint32_t i) {
            out[i] = brute ? traceBruteForce(s.geo, rays[i]) : traceClosest(s, rays[i]);
        });
        return out;
    }
};

}  // namespace

std::function<int()> addValidateCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("validate", "check every available structure against the CPU reference");
    auto a = std::make_shared<CommonArgs>();
    auto rays = std::make_shared<uint32_t>(2000);
    auto time = std::make_shared<float>(0.0f);
    addCommonOptions(*cmd, *a, 1);
    cmd->add_option("--rays", *rays, "random rays compared with brute force")->capture_default_str();
    cmd->add_option("--time", *time, "scene time of the frame to validate (s)")->capture_default_str();
    return [a, rays, time]() {
        Scene scene = loadWithOverrides(*a);
        FlatScene flat = flattenScene(scene);
        float t = *time;
        std::vector<Vec3> pos, nrm;
        poseFlatScene(scene, flat, t, pos, nrm);
        std::vector<Aabb> bounds;
        triangleBounds(pos, flat.tris, bounds);
        std::printf("validating %s at t=%.3f s: %zu triangles, %u rays\n", scene.path.c_str(), t, flat.tris.size(), *rays);

        Checker c;
        SceneView base = hostSceneView(scene, flat, pos, nrm, BvhView{}, CameraView{});
        std::vector<Ray> rs = makeRays(scene, flat, pos, t, *rays, scene.options.render.seed);
        std::vector<HitRecord> ref = c.traceAll(base, rs, true);

        HostBvh sah = buildSahBvh(bounds);
        c.structure("cpu-sah", sah.view(), bounds);
        SceneView s = base;
        s.bvh = sah.view();
        c.hits("cpu-sah", c.traceAll(s, rs, false), ref);

        LbvhHostResult lb = buildLbvhHost(bounds, scene.options.accel.mortonBits);
        c.structure("lbvh-karras (cpu run)", lb.bvh.view(), bounds);
        s.bvh = lb.bvh.view();
        c.hits("lbvh-karras (cpu run)", c.traceAll(s, rs, false), ref);

        HostKdTree kd = buildKdTreeCpu(pos, flat.tris);
        c.kdStructure("kdtree (cpu)", kd, pos, flat.tris);
        s = base;
        s.kd = kd.view();
        c.hits("kdtree (cpu)", c.traceAll(s, rs, false), ref);

#if defined(STRATA_HAVE_CUDA)
        GpuInfo gpu = queryGpu();
        if (!gpu.available) {
            std::printf("%-34s skip  no GPU (%s)\n", "lbvh-karras (cuda)", gpu.reason.c_str());
        } else {
            GpuBuildResult g = buildOnGpuForValidation(scene, t);
            float maxDiff = 0;
            for (size_t i = 0; i < pos.size(); ++i) maxDiff = std::max(maxDiff, length(g.positions[i] - pos[i]));
            Aabb box;
            for (const Vec3& p : pos) box.grow(p);
            float tol = 1e-4f * (1.0f + maxComponent(box.extent()));
            c.report("animate (cuda) vs cpu", maxDiff <= tol, "max vertex difference " + std::to_string(maxDiff));
            std::vector<Aabb> gb;
            triangleBounds(g.positions, flat.tris, gb);
            HostBvh gpuBvh{g.nodes, g.primIndex};
            c.structure("lbvh-karras (cuda)", gpuBvh.view(), gb);
            LbvhHostResult ref2 = buildLbvhHost(gb, scene.options.accel.mortonBits);
            size_t diff = 0;
            for (size_t i = 0; i < std::min(ref2.bvh.nodes.size(), g.nodes.size()); ++i)
                diff += std::memcmp(&ref2.bvh.nodes[i], &g.nodes[i], sizeof(BvhNode)) != 0;
            bool sameOrder = ref2.bvh.primIndex == g.primIndex;
            c.report("lbvh-karras cuda == cpu run", diff == 0 && sameOrder && ref2.bvh.nodes.size() == g.nodes.size(),
                     std::to_string(diff) + " nodes differ, primitive order " + (sameOrder ? "equal" : "differs"));
            std::vector<HitRecord> gh = traceOnGpuForValidation(scene, t, rs);
            SceneView gs = base;
            gs.geo.pos = g.positions.data();
            std::vector<HitRecord> gref = c.traceAll(gs, rs, true);
            c.hits("lbvh-karras (cuda)", gh, gref);
        }
#else
        std::printf("%-34s skip  built without CUDA\n", "lbvh-karras (cuda)");
#endif
        std::printf("%s\n", c.failures ? "validation FAILED" : "all structures agree with the reference");
        return c.failures ? 1 : 0;
    };
}

}  // namespace strata::cli
