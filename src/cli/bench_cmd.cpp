// strata-cli bench: warm-up frames, then many frames; medians per stage.
#include <algorithm>
#include <cstdio>
#include <memory>

#include "check/checker.h"
#include "cli/commands.h"
#include "cli/frame_runs.h"
#include "cli/common.h"
#include "core/error.h"
#include "core/number_format.h"
#include "render/frame_csv.h"

namespace strata::cli {

std::function<int()> addBenchCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("bench", "time many frames after warm-up; print medians per stage");
    auto a = std::make_shared<CommonArgs>();
    auto warmup = std::make_shared<int>(20);
    auto csvPath = std::make_shared<std::string>();
    addCommonOptions(*cmd, *a, 200);
    cmd->add_option("--warmup", *warmup, "frames rendered before timing")->capture_default_str();
    cmd->add_option("--csv", *csvPath, "also write every timed frame's record as CSV");
    return [a, warmup, csvPath]() {
        if (*warmup < 0 || *warmup > kMaxFrames)
            throw strata::Error("--warmup: expected 0 to " + std::to_string(kMaxFrames) + ", got " +
                                std::to_string(*warmup));
        Scene scene = loadWithOverrides(*a, false);
        std::unique_ptr<OutputFile> csvFile;  // opened first: a bad path fails before the frames
        if (!csvPath->empty()) csvFile = std::make_unique<OutputFile>(*csvPath);
        auto r = makeRenderer(scene);
        const Options& o = scene.options;
        const int total = *warmup + a->frames;
        const FrameRun run = runFrames(*r, o, *warmup, a->frames, "bench frame");
        const std::vector<FrameRecord>& recs = run.records;
        if (recs.empty()) return 1;

        std::printf("device:    %s\n", r->name().c_str());
        std::printf("scene:     %s (%llu triangles)\n", scene.path.c_str(), (unsigned long long)recs[0].triangles);
        std::printf("settings:  %dx%d, %d spp, %d bounces, %s, builder %s, traversal %s, width %s, morton %d bits\n",
                    o.render.width, o.render.height, o.render.spp, o.render.bounces,
                    o.render.integrator == Integrator::Whitted ? "whitted"
                    : o.render.nee                             ? "nee on"
                                                               : "nee off",
                    name(o.accel.builder), name(o.accel.traversal), name(o.accel.width), o.accel.mortonBits);
        std::printf("frames:    %zu timed after %d warm-up (medians)\n\n", recs.size(), *warmup);
        std::printf("%-20s %10s %9s\n", "stage", "ms", "launches");
        const std::vector<std::string>& names = run.stageNames;
        auto stageMedian = [&](const std::string& name) { return run.stageMedian(name); };
        for (size_t k = 0; k < names.size(); ++k) {
            // Every backend reports the whole stage table (the CSV has every
            // column); the table shows the stages that ran.
            if (stageMedian(names[k]) == 0 && recs.back().stages[k].launches == 0) continue;
            std::string label = names[k].find('/') != std::string::npos ? "  " + names[k] : names[k];
            std::printf("%-20s %10.3f %9u\n", label.c_str(), stageMedian(names[k]), recs.back().stages[k].launches);
        }
        std::vector<double> totals, rays, shadows, launches;
        for (const FrameRecord& x : recs) {
            totals.push_back(x.totalMs);
            rays.push_back(double(x.rays));
            shadows.push_back(double(x.shadowRays));
        }
        double tot = median(totals);
        std::printf("%-20s %10.3f %9u\n", "total", tot, recs.back().launches);
        // With one bounce, the frame less the bounce rays' stages: what the
        // camera rays and their shadow rays cost (Harada's benchmark).
        if (o.render.bounces == 1 && o.render.nee && o.render.integrator == Integrator::Path &&
            std::find(names.begin(), names.end(), "shade/primary") != names.end()) {
            std::vector<double> v;
            for (const FrameRecord& x : recs)
                v.push_back(x.totalMs - x.stageMs("trace/bounce") - x.stageMs("vd/bounce") - x.stageMs("shade/bounce"));
            std::printf("%-20s %10.3f %9s  (total less trace/bounce, vd/bounce, shade/bounce)\n", "primary+shadow",
                        median(v), "");
        }
        std::printf("\nframe rate:          %s fps (%s time of the frame's stages)\n",
                    threeDigits(tot > 0 ? 1000.0 / tot : 0.0).c_str(),
                    o.render.backend == Backend::Cuda ? "GPU" : "wall-clock");
        double traceMs = stageMedian("trace"), shadowMs = stageMedian("shadow");
        double primaryMs = stageMedian("trace/primary"), bounceMs = stageMedian("trace/bounce");
        double primaryRays = double(o.render.width) * o.render.height * o.render.spp;
        auto mrays = [](double n, double ms) { return threeDigits(ms > 0 ? n / (ms * 1e3) : 0.0); };
        std::printf("closest-hit rays:    %.0f per frame, %s Mrays/s\n", median(rays),
                    mrays(median(rays), traceMs).c_str());
        if (primaryMs > 0) std::printf("  primary:           %s Mrays/s\n", mrays(primaryRays, primaryMs).c_str());
        if (bounceMs > 0)
            std::printf("  bounce:            %s Mrays/s\n", mrays(median(rays) - primaryRays, bounceMs).c_str());
        std::printf("shadow rays:         %.0f per frame, %s Mrays/s\n", median(shadows),
                    mrays(median(shadows), shadowMs).c_str());
        const double mib = 1024.0 * 1024.0;
        std::printf("memory:              geometry %.2f MiB, acceleration %.2f MiB", r->geometryBytes() / mib,
                    r->accelBytes() / mib);
        if (r->vdPairBytes()) std::printf(", VD ray-pair buffers %.1f MiB", r->vdPairBytes() / mib);
        std::printf("\n");
        if (scene.patchCount()) {
            const double pairs = double(r->vdPairsResolved()) / double(total);
            std::printf("VD patches:          %zu (vd.mode %s, max level %d)", scene.patchCount(), name(o.vd.mode),
                        o.vd.maxLevel);
            if (o.vd.mode == VdMode::Direct)
                std::printf(", %.0f patch-ray pairs per frame (%.0f per patch)", pairs,
                            pairs / double(scene.patchCount()));
            std::printf(
                "\nVD memory:           %s (estimated from the counts; the patches' geometry and "
                "structure, as Harada's Table 1.1 counts them)\n",
                describeVdMemory(r->vdMemory()).c_str());
            if (const VdDeviceComparison d = r->vdDeviceMemory(); d.measured())
                std::printf(
                    "                     %s (this mode's measured, the other's estimated; strata-cli "
                    "vdtable measures both)\n",
                    describeVdDeviceMemory(d).c_str());
        }
        // The last timed frame's tree as the renderer holds it.
        if (const TreeQuality t = r->treeQuality(); t.measured())
            std::printf("tree:                %s\n", t.summary().c_str());
        if (o.accel.builder == Builder::KdTree && o.accel.mode == AccelMode::Flat) {
            // Is the tree being timed a good one? The last frame's, built again.
            const float last = o.animation.startTime + (o.animation.play ? float(total - 1) / o.animation.fps : 0.0f);
            const KdQuality q = sceneKdQuality(scene, last);
            std::printf("kd-tree:             %s\n", q.summary().c_str());
            if (q.degraded()) std::fprintf(stderr, "strata-cli bench: warning: %s\n", q.warning().c_str());
        }
        if (csvFile) {
            std::string csv = csvHeader(names);
            for (const FrameRecord& x : recs) csv += csvRow(x, o);
            csvFile->write(csv);
            csvFile->commit();
        }
        return 0;
    };
}

}  // namespace strata::cli
