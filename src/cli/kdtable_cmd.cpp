// strata-cli kdtable: the kd-tree chapter's Table 13.2 for one or more
// scenes. Each [A]-[E] variant is first validated (the GPU tree's invariants,
// its SAH against the CPU reference's, closest hits against brute force) and
// only then timed:
//   build ms    GPU time of the frame's build stage (CUDA events around it)
//   kernels ms  the sum of the build's kernel durations, from CUPTI's kernel
//               activity records (gpu/kernel_activity.h), in builds of their
//               own; "n/a" where CUPTI cannot be loaded
//   calls       kernel calls per build as the chapter counts them (a library
//               call, the Original's CUB segmented scans and reductions, is
//               one), averaged over the timed frames as the chapter did
//   kernels     kernels per build of the frame at time 0 as CUPTI records
//               them: CUB's launches inside its calls included
//   R ms        trace + shade + shadow of a Whitted frame (render.integrator
//               = whitted, one mirror reflection), the chapter's R
//   T ms        the whole frame
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>

#include "accel/kdtree/kd_cpu_builder.h"
#include "accel/kdtree/kd_quality.h"
#include "accel/kdtree/kd_validate.h"
#include "check/checker.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/frame_runs.h"
#include "core/error.h"
#include "gpu/device.h"
#include "render/flat_scene.h"
#include "accel/kdtree/kd_config.h"
#include "scene/data_folder.h"
#include "scene/scene_loader.h"
#include "scene/vd_scene.h"
#if defined(STRATA_HAVE_CUDA)
#include "gpu/kernel_activity.h"
#include "check/gpu_probe.h"
#endif

namespace strata::cli {
namespace {

struct KdTableArgs {
    std::vector<std::string> scenes;
    std::string variants = "prefixes";
    int frames = 60, warmup = 10, builds = 20;
    uint32_t rays = 1000;
    std::string res = "1024x1024";
    std::string csv, data;
    std::vector<std::string> sets;
    bool byKernel = false;
};

// A variant: an [A]-[E] subset as accel.kd_opts takes it ("none", "A", ...,
// "ABCDE"), then "+switch" for each of strata's on top: lookahead
// (accel.kd_lookahead), subtree (accel.kd_small = subtree), compact
// (accel.kd_sns_compact), sah (accel.kd_large_split = sah: a different
// tree), clip (accel.kd_clip_leaves: leaves keep only the triangles that
// cross their cells), or strata (the first four, as accel.kd_preset =
// all+strata).
struct Variant {
    std::string opts, label;
    bool lookahead = false, subtree = false, compact = false, sah = false, clip = false;
};

Variant parseVariant(const std::string& text) {
    Variant v;
    size_t plus = text.find('+');
    v.opts = text.substr(0, plus);
    while (plus != std::string::npos) {
        const size_t next = text.find('+', plus + 1);
        const std::string sw = text.substr(plus + 1, next == std::string::npos ? std::string::npos : next - plus - 1);
        if (sw == "lookahead" || sw == "strata") v.lookahead = true;
        if (sw == "subtree" || sw == "strata") v.subtree = true;
        if (sw == "compact" || sw == "strata") v.compact = true;
        if (sw == "sah" || sw == "strata") v.sah = true;
        if (sw == "clip") v.clip = true;
        if (sw != "lookahead" && sw != "subtree" && sw != "compact" && sw != "strata" && sw != "sah" && sw != "clip")
            throw Error("--variants: '" + text +
                        "': expected +lookahead, +subtree, +compact, +sah, +clip or +strata after "
                        "the [A]-[E] subset, got '+" +
                        sw + "'");
        plus = next;
    }
    Options probe;  // the subset is checked as accel.kd_opts checks it
    probe.set("accel.kd_opts", v.opts);
    v.label = v.opts == "none" ? "Original" : v.opts == "ABCDE" ? "All" : v.opts;
    if (v.lookahead && v.subtree && v.compact && v.sah) {
        v.label += " + strata's";
        if (v.clip) v.label += " + clipped leaves";
    } else {
        if (v.lookahead) v.label += " + lookahead";
        if (v.subtree) v.label += " + subtree";
        if (v.compact) v.label += " + compact";
        if (v.sah) v.label += " + SAH splits";
        if (v.clip) v.label += " + clipped leaves";
    }
    return v;
}

// The variants: the chapter's prefixes with All + strata's switches, all 32
// subsets, strata's switches one at a time on the Original and on All, or a
// comma-separated list of variants.
std::vector<Variant> variantList(const std::string& which) {
    std::vector<std::string> names;
    if (which == "prefixes")
        names = {"none", "A", "AB", "ABC", "ABCD", "ABCDE", "ABCDE+strata"};
    else if (which == "strata")
        names = {"none",          "none+lookahead", "none+strata", "ABCDE",       "ABCDE+lookahead",
                 "ABCDE+subtree", "ABCDE+compact",  "ABCDE+sah",   "ABCDE+clip", "ABCDE+strata"};
    else if (which == "all")
        for (unsigned m = 0; m < 32; ++m) {
            std::string s;
            for (int k = 0; k < 5; ++k)
                if (m >> k & 1) s += char('A' + k);
            names.push_back(s.empty() ? "none" : s);
        }
    else
        for (size_t start = 0; start <= which.size();) {
            const size_t comma = std::min(which.find(',', start), which.size());
            names.push_back(which.substr(start, comma - start));
            start = comma + 1;
        }
    std::vector<Variant> out;
    for (const std::string& n : names) out.push_back(parseVariant(n));
    return out;
}

struct Row {
    std::string scene, variant, problem;  // problem: why validation failed (then nothing is timed)
    double buildMs = 0, kernelMs = 0, rMs = 0, tMs = 0;
    double calls = 0;      // per build over the animation's frames, as the chapter counts them
    uint32_t kernels = 0;  // per build of the frame at time 0, as CUPTI records them
};

#if defined(STRATA_HAVE_CUDA)
// Brute-force closest hits over the positions they were traced on: every
// variant of a scene poses it the same, so they are traced once per scene.
struct BruteForce {
    std::vector<Vec3> positions;
    std::vector<HitRecord> hits;
};

// The GPU tree of this variant against the CPU reference and brute force;
// empty when it holds.
std::string validateVariant(const Scene& s, const FlatScene& flat, const HostKdTree& reference,
                            const std::vector<Ray>& rays, Checker& checker, BruteForce& brute) {
    GpuKdResult kd = buildKdOnGpuForValidation(s, 0.0f);
    KdReport r = validateKdTree(kd.tree.view(), kd.positions, flat.tris);
    if (!r.ok) return "invariants: " + r.errors[0];
    const double sah = kdSahCost(kd.tree.view(), 1, 1), ref = kdSahCost(reference.view(), 1, 1);
    if (std::fabs(sah - ref) > 0.01 * ref) {
        char buf[120];
        std::snprintf(buf, sizeof buf, "SAH %.2f against the CPU reference's %.2f", sah, ref);
        return buf;
    }
    std::vector<Vec3> nrm;
    SceneView v = hostSceneView(s, flat, kd.positions, nrm, BvhView{}, CameraView{});
    if (brute.positions.size() != kd.positions.size() ||
        std::memcmp(brute.positions.data(), kd.positions.data(), kd.positions.size() * sizeof(Vec3)) != 0) {
        brute.positions = kd.positions;
        brute.hits = checker.traceAll(v, rays, true);
    }
    v.kd = kd.tree.view();
    const std::vector<HitRecord> got = checker.traceAll(v, rays, false);
    size_t bad = 0;
    for (size_t i = 0; i < rays.size(); ++i) bad += !sameHit(got[i], brute.hits[i]);
    if (bad)
        return std::to_string(bad) + " of " + std::to_string(rays.size()) + " closest hits differ from brute force";
    return {};
}
#endif

// "    kernel  ms  share" lines, the slowest first (--by-kernel).
std::string describeByKernel(const std::map<std::string, double>& byKernel) {
    std::vector<std::pair<double, std::string>> v;
    double total = 0;
    for (const auto& [name, ms] : byKernel) {
        v.push_back({ms, name});
        total += ms;
    }
    std::sort(v.rbegin(), v.rend());
    std::string out;
    char buf[160];
    for (const auto& [ms, name] : v) {
        std::snprintf(buf, sizeof buf, "    %-36s %8.3f ms  %5.1f%%\n", name.c_str(), ms,
                      total > 0 ? 100.0 * ms / total : 0.0);
        out += buf;
    }
    return out;
}

std::string csvOf(const std::vector<Row>& rows) {
    std::string out = "scene,variant,build_ms,kernel_ms,calls,kernels,r_ms,t_ms,validation\n";
    char buf[256];
    for (const Row& r : rows) {
        std::snprintf(buf, sizeof buf, "%s,%s,%.4f,%.4f,%.1f,%u,%.4f,%.4f,%s\n", r.scene.c_str(), r.variant.c_str(),
                      r.buildMs, r.kernelMs, r.calls, r.kernels, r.rMs, r.tMs, r.problem.empty() ? "ok" : "failed");
        out += buf;
    }
    return out;
}

}  // namespace

std::function<int()> addKdTableCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "kdtable", "the kd-tree chapter's Table 13.2: each [A]-[E] variant validated, then timed (GPU)");
    auto a = std::make_shared<KdTableArgs>();
    cmd->add_option("scenes", a->scenes, "scene files (JSON)")->required();
    cmd->add_option("--variants", a->variants,
                    "prefixes (Original, A, AB, ABC, ABCD, All, All + strata's switches), all (the 32 subsets), "
                    "strata (strata's switches one at a time on Original and All), or a comma-separated list such as "
                    "none,ABCDE+subtree (+lookahead, +subtree, +compact, +sah, +clip, +strata)")
        ->capture_default_str();
    cmd->add_option("--frames", a->frames, "timed frames per variant")->capture_default_str();
    cmd->add_option("--warmup", a->warmup, "frames rendered before timing")->capture_default_str();
    cmd->add_option("--builds", a->builds, "builds per variant whose kernel times CUPTI records")
        ->capture_default_str();
    cmd->add_option("--rays", a->rays, "random rays compared with brute force per variant")->capture_default_str();
    cmd->add_option("--res", a->res, "resolution WxH of the timed frames")->capture_default_str();
    cmd->add_option("--csv", a->csv, "also write the table as CSV");
    cmd->add_option("--set", a->sets, "key=value: set any option, named as in the scene file (repeatable)");
    cmd->add_option("--data", a->data, "folder of the models scene files name as \"data:FILE\"");
    cmd->add_flag("--by-kernel", a->byKernel,
                  "after each variant, its kernels by time (CUPTI's records, mean ms per build; CUB's by their own "
                  "kernel names)");
    return [a]() -> int {
#if !defined(STRATA_HAVE_CUDA)
        throw Error("kdtable times the GPU kd-tree: this strata-cli was built without CUDA");
#else
        const GpuInfo gpu = queryGpu();
        if (!gpu.available) throw Error("kdtable times the GPU kd-tree: no CUDA device (" + gpu.reason + ")");
        const std::vector<Variant> variants = variantList(a->variants);
        std::string noCupti;
        const bool kernelTimes = KernelActivity::available(noCupti);
        if (!kernelTimes) std::fprintf(stderr, "strata-cli kdtable: no kernel times: %s\n", noCupti.c_str());
        if (a->frames < 1 || a->warmup < 0 || a->builds < 1) throw Error("--frames and --builds must be at least 1");
        setDataFolder(a->data);
        std::unique_ptr<OutputFile> csvFile;  // opened first: a bad path fails before the measurements
        if (!a->csv.empty()) csvFile = std::make_unique<OutputFile>(a->csv);
        std::vector<Row> rows;
        int failures = 0;
        std::printf(
            "| scene | variant | build ms | kernels ms | calls | kernels | R ms | T ms |\n"
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (const std::string& path : a->scenes) {
            Scene base = loadScene(path);
            Options& o = base.options;
            for (const std::string& kv : a->sets) o.setAssignment(kv);
            setResolution(o, "--res", a->res);
            o.set("render.backend", "cuda");
            o.set("render.integrator", "whitted");
            o.set("render.bounces", "1");
            o.set("render.spp", "1");
            o.set("accel.builder", "kdtree");
            o.set("accel.mode", "flat");
            o.check();
            if (std::unique_ptr<Scene> t = trianglesFromQuads(base)) base = std::move(*t);
            FlatScene flat = flattenScene(base);
            std::vector<Vec3> pos, nrm;
            poseFlatScene(base, flat, 0.0f, pos, nrm);
            // The CPU reference of each tree (large-node split median or SAH, leaves clipped or not),
            // built when first needed.
            std::unique_ptr<HostKdTree> references[4];  // [sah + 2 * clip]
            const std::vector<Ray> rays = makeRays(base, pos, 0.0f, a->rays, o.render.seed);
            Checker checker;
            BruteForce brute;
            for (const Variant& variant : variants) {
                Scene s = base;
                s.options.set("accel.kd_opts", variant.opts);
                s.options.accel.kdLookahead = variant.lookahead;
                s.options.accel.kdSnsCompact = variant.compact;
                s.options.accel.kdSmall = variant.subtree ? KdSmall::Subtree : KdSmall::Zhou;
                s.options.accel.kdLargeSplit = variant.sah ? KdLargeSplit::Sah : KdLargeSplit::Median;
                s.options.accel.kdClipLeaves = variant.clip;
                std::unique_ptr<HostKdTree>& reference = references[int(variant.sah) + 2 * int(variant.clip)];
                if (!reference)
                    reference =
                        std::make_unique<HostKdTree>(buildKdTreeCpu(pos, flat.tris, kdConfigOf(s.options.accel)));
                Row row;
                row.scene = path;
                row.variant = variant.label;
                row.problem = validateVariant(s, flat, *reference, rays, checker, brute);
                if (row.problem.empty()) {
                    auto r = makeRenderer(s);
                    const FrameRun run = runFrames(*r, s.options, a->warmup, a->frames, row.variant + " frame");
                    row.buildMs = run.stageMedian("build");
                    row.calls = run.stageLaunches("build");
                    row.rMs = run.stageMedian("trace") + run.stageMedian("shade") + run.stageMedian("shadow");
                    row.tMs = run.totalMedian();
                    char kernelMs[32] = "n/a", kernels[32] = "n/a";
                    std::string breakdown;
                    row.kernelMs = -1.0;  // CSV: no kernel times
                    if (kernelTimes) {
                        std::vector<double> ms;
                        std::map<std::string, double> byKernel;
                        for (const KdKernelTimes& k : kdKernelTimesOnGpu(s, 0.0f, a->builds)) {
                            ms.push_back(k.ms);
                            row.kernels = k.kernels;
                            for (const auto& [name, t] : k.msByKernel) byKernel[name] += t / a->builds;
                        }
                        if (a->byKernel) breakdown = describeByKernel(byKernel);
                        row.kernelMs = median(ms);
                        std::snprintf(kernelMs, sizeof kernelMs, "%.3f", row.kernelMs);
                        std::snprintf(kernels, sizeof kernels, "%u", row.kernels);
                    }
                    std::printf("| %s | %s | %.3f | %s | %.1f | %s | %.3f | %.3f |\n", path.c_str(),
                                row.variant.c_str(), row.buildMs, kernelMs, row.calls, kernels, row.rMs, row.tMs);
                    if (!breakdown.empty()) std::printf("%s", breakdown.c_str());
                } else {
                    ++failures;
                    std::printf("| %s | %s | validation FAILED: %s | | | | | |\n", path.c_str(), row.variant.c_str(),
                                row.problem.c_str());
                }
                std::fflush(stdout);
                rows.push_back(row);
            }
        }
        std::printf(
            "\n%s; %s, %dx%s Whitted frames, medians of %d frames after %d warm-up and of %d builds timed "
            "with CUPTI's kernel records\n",
            failures ? "some variants FAILED validation and were not timed" : "every variant validated",
            gpu.name.c_str(), std::stoi(a->res.substr(0, a->res.find('x'))),
            a->res.substr(a->res.find('x') + 1).c_str(), a->frames, a->warmup, a->builds);
        if (csvFile) {
            csvFile->write(csvOf(rows));
            csvFile->commit();
        }
        return failures ? 1 : 0;
#endif
    };
}

}  // namespace strata::cli
