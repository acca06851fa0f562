// strata-cli soak: render many frames while switching the acceleration
// structure every frame (every builder, traversal and kd-tree [A]-[E] set the
// backend has), and check that the renderer survives it: GPU memory and host
// memory stay flat after the first cycle, no pixel is ever NaN or infinite,
// and at intervals the running renderer's frame equals a fresh renderer's
// frame bit for bit and (CUDA) the structure validates against brute force.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <malloc.h>
#include <unistd.h>

#include "check/checker.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "core/error.h"
#include "gpu/device.h"
#if defined(STRATA_HAVE_CUDA)
#include "check/gpu_probe.h"
#endif

namespace strata::cli {
namespace {

struct Combo {
    Builder builder;
    Traversal traversal = Traversal::Stack;
    KdOpts kdOpts;
    AccelMode mode = AccelMode::Flat;
    std::string label() const {
        return std::string(name(builder)) +
               (builder == Builder::KdTree ? " [" + kdOpts.letters() + "]" : std::string(" ") + name(traversal)) +
               (mode == AccelMode::Flat ? "" : std::string(" ") + name(mode));
    }
};

std::vector<Combo> combosFor(Backend backend) {
    using B = Builder;
    const Traversal stack = Traversal::Stack, stackless = Traversal::Stackless;
    const AccelMode instanced = AccelMode::Instanced;
    std::vector<Combo> c = {{B::LbvhKarras, stack},
                            {B::LbvhApetrei, stack},
                            {B::LbvhSkip, stack},
                            {B::LbvhSkip, stackless},
                            {B::LbvhKarras, stack, {}, instanced},
                            {B::LbvhApetrei, stack, {}, instanced},
                            {B::LbvhSkip, stackless, {}, instanced}};
    if (backend == Backend::Cpu) {
        c.push_back({B::CpuSah, stack});
        c.push_back({B::KdTree, stack});  // the CPU backend's kd-tree has no [A]-[E]
        return c;
    }
    for (unsigned m = 0; m < 32; ++m)
        c.push_back({B::KdTree, stack, KdOpts::fromMask(m)});  // every subset of Table 13.1's
    return c;
}

Options withCombo(Options o, const Combo& c) {
    o.accel.builder = c.builder;
    o.accel.traversal = c.traversal;
    o.accel.kdOpts = c.kdOpts;
    o.accel.mode = c.mode;
    return o;
}

// Resident bytes after handing freed heap memory back to the system, so the
// number follows live allocations rather than the allocator's high-water mark.
size_t residentBytes() {
    malloc_trim(0);
    std::ifstream f("/proc/self/statm");
    size_t pages = 0, resident = 0;
    f >> pages >> resident;
    return resident * size_t(sysconf(_SC_PAGESIZE));
}

size_t gpuFreeBytes() {
#if defined(STRATA_HAVE_CUDA)
    return queryGpu().freeBytes;
#else
    return 0;  // built without CUDA: the cpu backend only
#endif
}

size_t countNonFinite(const std::vector<float>& v) {
    size_t n = 0;
    for (float x : v) n += !std::isfinite(x);
    return n;
}

#if defined(STRATA_HAVE_CUDA)
// The current option set's structure built afresh on the GPU: invariants and
// closest hits of random rays against brute force.
void validateOnGpu(Checker& c, const Scene& scene, const FlatScene& flat, const Combo& combo, float t, uint32_t rays) {
    const std::string name = combo.label() + " @t=" + std::to_string(t);
    if (combo.builder == Builder::KdTree) {
        GpuKdResult kd = buildKdOnGpuForValidation(scene, t);
        c.kdStructure(name, kd.tree, kd.positions, flat.tris);
        SceneView s = hostSceneView(scene, flat, kd.positions, {}, BvhView{}, CameraView{});
        std::vector<Ray> rs = makeRays(scene, kd.positions, t, rays, scene.options.render.seed);
        std::vector<HitRecord> ref = c.traceAll(s, rs, true);
        s.kd = kd.tree.view();
        c.hits(name, c.traceAll(s, rs, false), ref);
        return;
    }
    if (combo.mode == AccelMode::Instanced) {  // the two levels against brute force over the CPU-posed scene
        std::vector<Vec3> pos, nrm;
        poseFlatScene(scene, flat, t, pos, nrm);
        SceneView s = hostSceneView(scene, flat, pos, {}, BvhView{}, CameraView{});
        std::vector<Ray> rs = makeRays(scene, pos, t, rays, scene.options.render.seed);
        // Static instances are hit in object space: a ray grazing an edge may
        // take the neighbouring triangle a little farther on.
        c.hits(name, traceOnGpuForValidation(scene, t, rs), c.traceAll(s, rs, true), rs.size() / 200);
        return;
    }
    GpuBuildResult g = buildOnGpuForValidation(scene, t);
    std::vector<Aabb> bounds;
    triangleBounds(g.positions, flat.tris, bounds);
    HostBvh bvh{g.nodes, g.primIndex, g.root};
    c.structure(name, bvh.view(), bounds);
    SceneView s = hostSceneView(scene, flat, g.positions, {}, BvhView{}, CameraView{});
    std::vector<Ray> rs = makeRays(scene, g.positions, t, rays, scene.options.render.seed);
    c.hits(name + " " + strata::name(combo.traversal), traceOnGpuForValidation(scene, t, rs), c.traceAll(s, rs, true));
}
#endif

}  // namespace

std::function<int()> addSoakCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "soak",
        "render many frames switching builder, traversal and kd-tree [A]-[E] every frame; check memory "
        "stays flat, pixels stay finite and structures keep validating");
    auto a = std::make_shared<CommonArgs>();
    auto every = std::make_shared<int>(500);
    auto rays = std::make_shared<uint32_t>(500);
    auto maxGrowthMiB = std::make_shared<double>(1.0);
    addCommonOptions(*cmd, *a, 10000);
    cmd->add_option("--validate-every", *every, "frames between validations (0: only the last frame)")
        ->capture_default_str();
    cmd->add_option("--rays", *rays, "random rays per validation")->capture_default_str();
    cmd->add_option("--max-growth-mib", *maxGrowthMiB,
                    "fail when GPU or host memory grows by more than this after the first cycle")
        ->capture_default_str();
    return [a, every, rays, maxGrowthMiB]() {
        if (!(*maxGrowthMiB >= 0 && *maxGrowthMiB <= 1e9))
            throw strata::Error("--max-growth-mib: " + std::to_string(*maxGrowthMiB) +
                                " is not a size in MiB (0 to 1e9)");
        if (a->res.empty()) a->res = "256x256";
        Scene scene = loadWithOverrides(*a);
        const Options base = scene.options;
        const bool cuda = base.render.backend == Backend::Cuda;
        const std::vector<Combo> combos = combosFor(base.render.backend);
        const int frames = a->frames;
        const int firstCheck = std::min(frames, int(combos.size())) - 1;  // end of the first cycle
        scene.options = withCombo(base, combos[0]);
        auto r = makeRenderer(scene);
        FlatScene flat = flattenScene(scene);
        std::printf("soak: %s on %s, %dx%d, %d frames cycling %zu structure settings, validating every %d frames\n",
                    scene.path.c_str(), r->name().c_str(), base.render.width, base.render.height, frames, combos.size(),
                    *every);

        Checker checker;
        checker.quiet = true;
        size_t gpuBaseline = 0, gpuMinFree = 0, hostBaseline = 0, hostMax = 0, nonFinite = 0;
        int validations = 0, mismatches = 0;
        std::vector<float> radiance, fresh;
        FrameRecord rec;
        Progress progress("soak frame");
        for (int f = 0; f < frames; ++f) {
            const Combo& combo = combos[size_t(f) % combos.size()];
            Options o = withCombo(base, combo);
            const float t = o.animation.startTime + (o.animation.play ? float(f) / o.animation.fps : 0.0f);
            r->setOptions(o);
            r->renderFrame(t, uint64_t(f));
            while (r->popRecord(rec)) {}
            r->readRadiance(radiance);
            size_t bad = countNonFinite(radiance);
            if (bad && !nonFinite)
                std::printf("frame %d (%s): %zu non-finite radiance values\n", f, combo.label().c_str(), bad);
            nonFinite += bad;

            const bool last = f + 1 == frames;
            if (last || f == firstCheck || (*every > 0 && f > 0 && f % *every == 0)) {
                ++validations;
                // The long-running renderer against a fresh one: the same frame, bit for bit.
                Scene fs = scene;
                fs.options = o;
                {
                    auto fr = makeRenderer(fs);
                    fr->renderFrame(t, uint64_t(f));
                    fr->finish();
                    fr->readRadiance(fresh);
                }
                const bool same = fresh == radiance;
                mismatches += !same;
                checker.report("frame " + std::to_string(f) + " " + combo.label() + " == fresh renderer", same,
                               same ? "bit-identical" : "images differ");
#if defined(STRATA_HAVE_CUDA)
                if (cuda) validateOnGpu(checker, fs, flat, combo, t, *rays);
#endif
            }
            // Memory after the first full cycle (and its validation) is the
            // baseline: every buffer any setting needs has been allocated once.
            // GPU memory is sampled every frame; host memory at each validation
            // (after the same work each time, and a trim of the heap).
            const size_t gpuFree = cuda ? gpuFreeBytes() : 0;
            const bool checked = last || f == firstCheck || (*every > 0 && f > 0 && f % *every == 0);
            const size_t host = checked ? residentBytes() : 0;
            if (f == firstCheck) {
                gpuBaseline = gpuMinFree = gpuFree;
                hostBaseline = hostMax = host;
            } else if (f > firstCheck) {
                gpuMinFree = std::min(gpuMinFree, gpuFree);
                if (checked) hostMax = std::max(hostMax, host);
            }
            if (checked)
                std::printf("frame %6d  %-22s host %.1f MiB resident%s\n", f, combo.label().c_str(),
                            double(host) / (1024.0 * 1024.0),
                            cuda ? (", GPU " + std::to_string(gpuFree >> 20) + " MiB free").c_str() : "");
            progress.update(uint64_t(f + 1), uint64_t(frames));
        }
        progress.finish();
        r->finish();

        const double mib = 1024.0 * 1024.0;
        const double gpuGrowth = cuda && gpuBaseline > gpuMinFree ? double(gpuBaseline - gpuMinFree) / mib : 0.0;
        const double hostGrowth = hostMax > hostBaseline ? double(hostMax - hostBaseline) / mib : 0.0;
        const size_t toggles = size_t(frames) - 1;
        std::printf("frames:              %d (%zu structure switches)\n", frames, toggles);
        if (cuda)
            std::printf("GPU memory growth:   %.2f MiB after the first cycle (baseline %.0f MiB free)\n", gpuGrowth,
                        double(gpuBaseline) / mib);
        std::printf(
            "host memory growth:  %.2f MiB resident after the first cycle (at validations, heap trimmed; "
            "baseline %.0f MiB)\n",
            hostGrowth, double(hostBaseline) / mib);
        std::printf("non-finite pixels:   %zu\n", nonFinite);
        std::printf("validations:         %d (%d fresh-renderer mismatches, %d failed checks in all)\n", validations,
                    mismatches, checker.failures);
        const bool ok =
            nonFinite == 0 && checker.failures == 0 && gpuGrowth <= *maxGrowthMiB && hostGrowth <= *maxGrowthMiB;
        std::printf("%s\n", ok ? "soak passed" : "soak FAILED");
        return ok ? 0 : 1;
    };
}

}  // namespace strata::cli
