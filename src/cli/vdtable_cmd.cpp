// strata-cli vdtable: Harada's comparison of direct ray tracing of VD patches
// with pre-tessellation (his Table 1.1 and Figs. 1.7 and 1.9), like for
// like. His frames: direct illumination, one primary and one shadow ray cast
// per pixel (here render.integrator = whitted with no reflection bounce),
// top and middle levels built once before rendering. Each scene gives four
// rows: each method with its structures built once (the scene held still:
// animation.play = false and accel.rebuild = animated, so nothing is rebuilt
// after the first frame, as in the paper) and rebuilt every frame (the
// animation plays; labelled as such). Before anything is timed, direct mode's
// camera rays must cover what pre-tessellation covers at the same level
// (every patch at vd.max_level: vd.lod_bias 8), else the scene is marked
// failed (Harada's box leaves, vd.leaf box, hold their cells' triangles: they
// must cover every pixel pre-tessellation covers, and may cover a few more
// where a silhouette grazes a box). Direct mode runs once per --methods entry
// (vd.method harada: his chapter's bottom level; strata: strata's switches);
// --switches adds, with the structures built once, Harada's method with each
// of strata's switches on alone. Columns:
//   first frame ms  renderer setup and the first frame, wall clock (what the
//                   paper calls preparation, plus one frame)
//   build ms        the build stage per timed frame (0 when built once)
//   top+middle ms   the triangles' trace of the primary and shadow rays
//                   (trace + shadow stages); in direct mode also the pairs
//                   found in the VD middle level (vd/pairs)
//   sort ms         direct mode's pair sort (vd/sort)
//   bottom ms       direct mode's per-patch trees built and traced (vd/bottom)
//   ray cast ms     everything that casts rays: trace + vd + shadow
//   frame ms        the whole frame
//   memory          as Harada's Table 1.1 counts it: the patches' geometry and
//                   structures (render/vd_memory.h, from the counts), and
//                   the whole device: what the renderer allocated on the GPU
//                   (cudaMemGetInfo before it was made and after its frames:
//                   pair buffers, ray queues, film and all), n/a on the CPU.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/frame_runs.h"
#include "core/error.h"
#if defined(STRATA_HAVE_CUDA)
#include "gpu/device.h"
#endif
#include "render/make_renderer.h"
#include "scene/data_folder.h"
#include "scene/scene_loader.h"

namespace strata::cli {
namespace {

struct VdTableArgs {
    std::vector<std::string> scenes;
    int frames = 50, warmup = 5, level = 5;
    std::string res = "1920x1080", validateRes = "480x270", csv, data, backend = "cuda";
    std::vector<std::string> sets, methods = {"harada", "strata"};
    bool switches = false;
};

// Harada's method with one of strata's switches on (vdtable --switches);
// vd.last_bounce_any_hit is left out: Whitted shades its last rays' hits.
const std::vector<std::string> kStrataSwitches = {"vd.lod=first-rays",    "vd.leaf=triangles",  "vd.split_jobs=true",
                                                  "vd.shared_trees=true", "vd.tree_cache=true", "vd.pair_cull=true",
                                                  "vd.middle_level=separate"};

struct Row {
    std::string scene, method, structures, problem;
    double firstFrameMs = 0, buildMs = 0, topMiddleMs = 0, sortMs = 0, bottomMs = 0, castMs = 0, frameMs = 0;
    double haradaMiB = 0, deviceMiB = -1;  // deviceMiB < 0: not measured (CPU backend)
};

constexpr double kMiB = 1024.0 * 1024.0;

// GPU memory in use on the device now, or -1 without the CUDA backend.
double deviceBytesInUse(const Options& o) {
#if defined(STRATA_HAVE_CUDA)
    if (o.render.backend != Backend::Cuda) return -1;
    const GpuInfo g = queryGpu();
    return g.available ? double(g.totalBytes - g.freeBytes) : -1;
#else
    (void)o;
    return -1;
#endif
}

// The camera rays' image of s's VD instances alone at vd.max_level for every
// patch, in which a patch shows red (it emits: the closest hit is asked
// for, never any hit) and a miss blue (no bounce, no lights): where direct
// mode and pre-tessellation differ, their rays hit or miss a patch
// differently. The triangles are left out: where a patch lies on the floor
// (the assets meet the ground at their border) either may win the tie.
std::vector<float> coverage(Scene s, VdMode mode, const std::string& res) {
    std::vector<Instance> vdOnly;
    for (const Instance& i : s.instances)
        if (s.meshes[size_t(i.mesh)].vd.map >= 0) vdOnly.push_back(i);
    s.instances = std::move(vdOnly);
    Material marker;
    marker.type = MaterialType::Emissive;
    marker.emission = Vec3{1, 0, 0};
    s.materials.push_back(marker);
    s.materialNames.push_back("vdtable-coverage");
    for (Material& m : s.materials)
        if (&m != &s.materials.back()) {
            m.type = MaterialType::Diffuse;
            m.emission = Vec3{0, 0, 0};
        }
    for (Mesh& m : s.meshes)
        if (m.vd.map >= 0) m.quadMaterial.assign(m.quads.size(), int32_t(s.materials.size() - 1));
    s.environment = EnvironmentLight{};
    s.environment.color = Vec3{0, 0, 1};
    s.sun.enabled = false;
    s.options.vd.mode = mode;
    s.options.vd.lodBias = 8;  // every patch at vd.max_level
    s.options.set("render.integrator", "path");
    s.options.render.bounces = 0;
    s.options.render.spp = 1;
    setResolution(s.options, "--validate-res", res);
    std::unique_ptr<Renderer> r = makeRenderer(s);
    r->renderFrame(s.options.animation.startTime, 0);
    r->finish();
    std::vector<float> img;
    r->readRadiance(img);
    return img;
}

// Empty when direct mode's camera rays cover what pre-tessellation covers
// (all but 0.1% of the pixels: rays through a cell's shared edges). Box
// leaves (vd.leaf box) may also cover pixels next to those (a silhouette
// grazing a box its cell's triangles leave empty), none more than
// kBoxOverhangPixels from a pixel pre-tessellation covers; *extra says what
// share of the pixels they did.
constexpr int kBoxOverhangPixels = 8;
std::string validateAt(const Scene& s, const std::string& res, double* extra) {
    const std::vector<float> direct = coverage(s, VdMode::Direct, res), pre = coverage(s, VdMode::Pretess, res);
    if (direct.size() != pre.size()) return "the two images differ in size";
    Options sized;  // the images' size
    setResolution(sized, "--validate-res", res);
    const int vw = sized.render.width, vh = sized.render.height;
    auto patchAt = [&](const std::vector<float>& img, int x, int y) { return img[3 * (size_t(y) * vw + x)] > 0.5f; };
    // How far (in pixels, up to kBoxOverhangPixels + 1) the nearest pixel pre-tessellation covers lies.
    auto overhang = [&](int x, int y) {
        for (int r = 1; r <= kBoxOverhangPixels; ++r)
            for (int dy = -r; dy <= r; ++dy)
                for (int dx = -r; dx <= r; ++dx) {
                    const int px = x + dx, py = y + dy;
                    if (px >= 0 && py >= 0 && px < vw && py < vh && patchAt(pre, px, py)) return r;
                }
        return kBoxOverhangPixels + 1;
    };
    size_t differ = 0, boxOnly = 0, farOut = 0;
    for (size_t i = 0; i < direct.size(); i += 3) {
        bool same = true;
        for (size_t c = 0; c < 3; ++c) same &= std::fabs(direct[i + c] - pre[i + c]) <= 1e-3f * (1.0f + pre[i + c]);
        // A patch (red) where pre-tessellation sees past the patches (blue).
        const bool over = direct[i] > 0.5f && pre[i] < 0.5f && pre[i + 2] > 0.5f;
        const bool box = !same && over && s.options.vd.leaf == VdLeaf::Box;
        if (box) {
            ++boxOnly;
            const size_t k = i / 3;
            farOut += overhang(int(k % vw), int(k / vw)) > kBoxOverhangPixels;
        }
        differ += !same && !box;
    }
    const size_t pixels = direct.size() / 3;
    *extra = double(boxOnly) / double(pixels);
    char buf[200];
    if (differ * 1000 > pixels) {
        std::snprintf(buf, sizeof buf, "%zu of %zu camera rays hit or miss unlike pre-tessellation at level %d",
                      differ, pixels, s.options.vd.maxLevel);
        return buf;
    }
    if (farOut) {
        std::snprintf(buf, sizeof buf,
                      "%zu camera rays hit a leaf box more than %d pixels from any pixel pre-tessellation covers "
                      "(level %d)",
                      farOut, kBoxOverhangPixels, s.options.vd.maxLevel);
        return buf;
    }
    return {};
}

// The coverage check at vd.max_level or, where pre-tessellation does not
// fit there (Harada's party needs 52 GB), at the finest level where it does;
// *level says which. Empty when it holds.
std::string validate(Scene s, const std::string& res, int* level, double* extra) {
    for (*level = s.options.vd.maxLevel; *level >= 1; --*level) {
        s.options.vd.maxLevel = *level;
        try {
            return validateAt(s, res, extra);
        } catch (const Error& e) {
            if (*level == 1) return std::string("pre-tessellation cannot be made at any level: ") + e.what();
        }
    }
    return {};
}

// "direct (harada)", "direct (harada + vd.leaf=triangles)", "pre-tessellated".
std::string methodLabel(VdMode mode, const std::string& method) {
    return mode == VdMode::Direct ? "direct (" + method + ")" : "pre-tessellated";
}

Row measure(Scene s, VdMode mode, const std::string& method, bool still, const VdTableArgs& a, std::string* device) {
    Row row;
    row.method = methodLabel(mode, method);
    row.structures = still ? "built once" : "rebuilt every frame";
    s.options.vd.mode = mode;
    if (still) {
        s.options.animation.play = false;
        s.options.accel.rebuild = Rebuild::Animated;
    } else {
        s.options.accel.rebuild = Rebuild::EveryFrame;
    }
    const double before = deviceBytesInUse(s.options);
    const auto t0 = std::chrono::steady_clock::now();
    std::unique_ptr<Renderer> r;
    try {
        r = makeRenderer(s);
    } catch (const Error& e) {  // pre-tessellation too large for the device: a row that says so
        if (mode != VdMode::Pretess) throw;
        row.problem = std::string("does not fit: ") + e.what();
        return row;
    }
    r->renderFrame(s.options.animation.startTime, 0);
    r->finish();
    row.firstFrameMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    for (FrameRecord rec; r->popRecord(rec);) {
    }
    const FrameRun run =
        runFrames(*r, s.options, a.warmup, a.frames, row.method + ", " + row.structures);
    *device = run.device;
    const double after = deviceBytesInUse(s.options);
    if (before >= 0 && after >= 0) row.deviceMiB = (after - before) / kMiB;
    row.buildMs = run.stageMedian("build");
    row.topMiddleMs = run.stageMedian("trace") + run.stageMedian("shadow") + run.stageMedian("vd/pairs");
    row.sortMs = run.stageMedian("vd/sort");
    row.bottomMs = run.stageMedian("vd/bottom");
    row.castMs = run.stageMedian("trace") + run.stageMedian("vd") + run.stageMedian("shadow");
    row.frameMs = run.totalMedian();
    const VdMemoryComparison m = r->vdMemory();
    row.haradaMiB = double(mode == VdMode::Direct ? m.direct.total() : m.pretess.total()) / kMiB;
    return row;
}

std::string mib(double m) {
    if (m < 0) return "n/a";
    char s[32];
    std::snprintf(s, sizeof s, m < 10 ? "%.2f" : m < 1000 ? "%.1f" : "%.0f", m);
    return s;
}

void printRow(const Row& r) {
    if (!r.problem.empty()) {
        std::printf("| %s | %s | %s | %s | | | | | | | | |\n", r.scene.c_str(), r.method.c_str(),
                    r.structures.c_str(), r.problem.c_str());
        return;
    }
    std::printf("| %s | %s | %s | %.1f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %s | %s |\n", r.scene.c_str(),
                r.method.c_str(), r.structures.c_str(), r.firstFrameMs, r.buildMs, r.topMiddleMs, r.sortMs,
                r.bottomMs, r.castMs, r.frameMs, mib(r.haradaMiB).c_str(), mib(r.deviceMiB).c_str());
}

// "direct (harada): pre-tessellated / direct memory 136x (Harada's count),
// 2.7x (whole device); direct / pre-tessellated ray cast 1.8x built once,
// 0.9x rebuilt".
void printRatios(const Row& dOnce, const Row& pOnce, const Row& dEach, const Row& pEach) {
    if (!pOnce.problem.empty() || !pEach.problem.empty()) {
        std::printf("  pre-tessellation did not fit: no ratios\n");
        return;
    }
    std::printf("  %s: pre-tessellated / direct memory %.1fx as Harada's Table 1.1 counts it", dOnce.method.c_str(),
                pOnce.haradaMiB / dOnce.haradaMiB);
    if (dOnce.deviceMiB > 0 && pOnce.deviceMiB >= 0)
        std::printf(", %.1fx for the whole device", pOnce.deviceMiB / dOnce.deviceMiB);
    std::printf("; direct / pre-tessellated ray cast time %.2fx with the structures built once, %.2fx rebuilt every "
                "frame\n",
                dOnce.castMs / pOnce.castMs, dEach.castMs / pEach.castMs);
}

std::string csvOf(const std::vector<Row>& rows) {
    std::string out =
        "scene,method,structures,first_frame_ms,build_ms,top_middle_ms,sort_ms,bottom_ms,ray_cast_ms,frame_ms,"
        "memory_harada_mib,memory_device_mib,validation\n";
    char buf[512];
    for (const Row& r : rows) {
        std::snprintf(buf, sizeof buf, "%s,%s,%s,%.3f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.3f,%.3f,%s\n", r.scene.c_str(),
                      r.method.c_str(), r.structures.c_str(), r.firstFrameMs, r.buildMs, r.topMiddleMs, r.sortMs,
                      r.bottomMs, r.castMs, r.frameMs, r.haradaMiB, r.deviceMiB,
                      r.problem.empty()                          ? "ok"
                      : r.problem.rfind("does not fit", 0) == 0 ? "does-not-fit"
                                                                  : "failed");
        out += buf;
    }
    return out;
}

}  // namespace

std::function<int()> addVdTableCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "vdtable",
        "Harada's direct VD ray tracing against pre-tessellation, like for like: primary + shadow rays, structures "
        "built once and rebuilt every frame, memory as his Table 1.1 counts it and for the whole device");
    auto a = std::make_shared<VdTableArgs>();
    cmd->add_option("scenes", a->scenes, "scene files (JSON) with VD patches")->required();
    cmd->add_option("--frames", a->frames, "timed frames per row")->capture_default_str();
    cmd->add_option("--warmup", a->warmup, "frames rendered before timing")->capture_default_str();
    cmd->add_option("--level", a->level, "vd.max_level of both methods")->capture_default_str();
    cmd->add_option("--res", a->res, "resolution WxH of the timed frames")->capture_default_str();
    cmd->add_option("--validate-res", a->validateRes, "resolution WxH of the coverage check")->capture_default_str();
    cmd->add_option("--backend", a->backend, "cuda | cpu")->capture_default_str();
    cmd->add_option("--csv", a->csv, "also write the table as CSV");
    cmd->add_option("--set", a->sets, "key=value: set any option, named as in the scene file (repeatable)");
    cmd->add_option("--data", a->data, "folder of the models scene files name as \"data:FILE\"");
    cmd->add_option("--methods", a->methods,
                    "direct mode's vd.method values, each a row (harada, strata), each maybe with options on top "
                    "(strata+vd.leaf=box)")
        ->delimiter(',')
        ->capture_default_str();
    cmd->add_flag("--switches", a->switches,
                  "also time Harada's method with each of strata's switches on alone (structures built once)");
    return [a]() -> int {
        if (a->frames < 1 || a->warmup < 0) throw Error("--frames must be at least 1 and --warmup at least 0");
        Options probe;  // both sizes checked before any scene is loaded
        setResolution(probe, "--res", a->res);
        setResolution(probe, "--validate-res", a->validateRes);
        setDataFolder(a->data);
        std::unique_ptr<OutputFile> csvFile;  // opened first: a bad path fails before the measurements
        if (!a->csv.empty()) csvFile = std::make_unique<OutputFile>(a->csv);
        std::vector<Row> rows;
        int failures = 0;
        std::string device;
        bool header = false;  // printed before the first row: a bad scene prints nothing else
        for (const std::string& path : a->scenes) {
            Scene s = loadScene(path);
            Options& o = s.options;
            o.set("render.backend", a->backend);
            for (const std::string& kv : a->sets) o.setAssignment(kv);
            if (s.patchCount() == 0) throw Error(path + ": the scene has no VD patches (vdtable compares their methods)");
            setResolution(o, "--res", a->res);
            o.set("render.integrator", "whitted");  // one primary and one shadow ray per pixel
            o.render.bounces = 0;
            o.render.spp = 1;
            o.set("vd.max_level", std::to_string(a->level));
            o.set("accel.mode", "flat");  // the paper's party: no instancing
            o.check();
            chooseBackend(o, WithoutGpu::Refuse);  // no GPU: an error that says --backend cpu
            // Direct mode's variants: each --methods entry, then (--switches)
            // Harada's with each of strata's switches alone.
            struct Variant {
                std::string label;
                std::vector<std::string> sets;
                bool both;  // also rebuilt every frame, with ratios
            };
            std::vector<Variant> variants;
            for (const std::string& m : a->methods) {  // "strata" or "strata+vd.leaf=box+..."
                // Split at each '+' that starts an option's "key=" (a value may hold a '+': lod_bias=+1).
                std::vector<std::string> parts{""};
                for (size_t i = 0; i < m.size(); ++i) {
                    const size_t eq = m.find('=', i + 1);
                    if (m[i] == '+' && eq != std::string::npos && Options::find(m.substr(i + 1, eq - i - 1)))
                        parts.emplace_back();
                    else
                        parts.back() += m[i];
                }
                Variant v{m, {"vd.method=" + parts[0]}, true};
                v.sets.insert(v.sets.end(), parts.begin() + 1, parts.end());
                variants.push_back(v);
            }
            if (a->switches)
                for (const std::string& kv : kStrataSwitches) {
                    if (kv == "vd.shared_trees=true" && o.render.backend != Backend::Cuda) continue;
                    variants.push_back({"harada + " + kv, {"vd.method=harada", kv}, false});
                }
            std::vector<Scene> scenes;  // per variant
            std::vector<std::string> problems;
            bool anyFailed = false;
            for (const Variant& v : variants) {  // every option checked before the table starts
                scenes.push_back(s);
                for (const std::string& kv : v.sets) scenes.back().options.setAssignment(kv);
                scenes.back().options.check();
            }
            if (!header) {
                std::printf(
                    "| scene | method | structures | first frame ms | build ms | top+middle ms | sort ms | bottom ms | "
                    "ray cast ms | frame ms | memory MiB (Harada's count) | memory MiB (whole device) |\n"
                    "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
                header = true;
            }
            for (size_t k = 0; k < variants.size(); ++k) {
                const Variant& v = variants[k];
                const Scene& vs = scenes[k];
                int validatedLevel = 0;
                double extra = 0;
                const std::string failed = validate(vs, a->validateRes, &validatedLevel, &extra);
                problems.push_back(failed.empty() ? "" : "validation FAILED: " + failed);
                anyFailed |= !failed.empty();
                if (failed.empty() && validatedLevel != a->level)
                    std::printf("(%s, %s: validated at level %d, where pre-tessellation fits)\n", path.c_str(),
                                v.label.c_str(), validatedLevel);
                if (failed.empty() && extra > 0)
                    std::printf("(%s, %s: box leaves cover %.2f%% of the pixels more than pre-tessellation)\n",
                                path.c_str(), v.label.c_str(), 100.0 * extra);
            }
            auto row = [&](const Scene& vs, VdMode mode, const std::string& label, bool still,
                           const std::string& problem) {
                Row r;
                if (problem.empty()) {
                    r = measure(vs, mode, label, still, *a, &device);
                } else {
                    r.method = methodLabel(mode, label);
                    r.structures = still ? "built once" : "rebuilt every frame";
                    r.problem = problem;
                }
                r.scene = path;
                printRow(r);
                std::fflush(stdout);
                rows.push_back(r);
                return r;
            };
            Row pre[2];  // built once, rebuilt every frame
            for (bool still : {true, false})
                pre[still ? 0 : 1] = row(s, VdMode::Pretess, "", still, anyFailed ? "not timed: a direct variant failed" : "");
            for (size_t k = 0; k < variants.size(); ++k) {
                const Row once = row(scenes[k], VdMode::Direct, variants[k].label, true, problems[k]);
                if (!variants[k].both) continue;
                const Row each = row(scenes[k], VdMode::Direct, variants[k].label, false, problems[k]);
                if (problems[k].empty()) printRatios(once, pre[0], each, pre[1]);
            }
            failures += anyFailed;
        }
        std::printf("\n%s; %s, %s frames of one primary and one shadow ray per pixel at VD level %d, medians of %d "
                    "frames after %d warm-up\n",
                    failures ? "some scenes FAILED validation and were not timed"
                             : "direct mode's camera rays cover what pre-tessellation covers (validated first)",
                    device.c_str(), a->res.c_str(), a->level, a->frames, a->warmup);
        if (csvFile) {
            csvFile->write(csvOf(rows));
            csvFile->commit();
        }
        return failures ? 1 : 0;
    };
}

}  // namespace strata::cli
