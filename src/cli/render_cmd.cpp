// strata-cli render: N animation frames, the last written as the output's
// extension says (.png: tone-mapped 8-bit; .pfm: the linear radiance), every
// frame's timings as CSV.
#include <cctype>
#include <cstdio>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "core/error.h"
#include "core/output_file.h"
#include "render/heatmap.h"
#include "render/frame_csv.h"
#include "scene/image_io.h"

namespace strata::cli {
namespace {

// The output file's extension in lower case (".PNG" is a PNG), or "" when
// its name has none (a device such as /dev/null).
std::string extensionOf(const std::string& path) {
    const size_t slash = path.find_last_of('/'), dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    std::string ext = path.substr(dot);
    for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
    return ext;
}

}  // namespace

std::function<int()> addRenderCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("render", "render animation frames; write the last one as PNG or PFM");
    auto a = std::make_shared<CommonArgs>();
    auto out = std::make_shared<std::string>("render.png");
    auto timings = std::make_shared<std::string>();
    addCommonOptions(*cmd, *a, 1);
    cmd->add_option("--out", *out,
                    "output image, written atomically: .png (tone-mapped, 8-bit) or .pfm (linear radiance, float); a "
                    "name without an extension (a device) gets PNG")
        ->capture_default_str();
    cmd->add_option("--timings", *timings, "CSV file with one row of stage timings per frame");
    return [a, out, timings]() {
        const std::string ext = extensionOf(*out);
        const bool pfm = ext == ".pfm";
        if (!pfm && ext != ".png" && !ext.empty())
            throw Error(*out + ": the output's extension names its format: .png (tone-mapped, 8-bit) or .pfm "
                               "(linear radiance); " + ext + " is not written (EXR output is not built yet)");
        Scene scene = loadWithOverrides(*a, false);
        // The outputs are opened before the work: a path that cannot be
        // written fails now, and both are committed together at the end.
        OutputFile image(*out);
        std::unique_ptr<OutputFile> timingFile;
        if (!timings->empty()) timingFile = std::make_unique<OutputFile>(*timings);
        if (scene.skippedDegenerate)
            std::fprintf(stderr, "strata-cli: skipped %zu degenerate faces (zero-area triangles or quads)\n",
                         scene.skippedDegenerate);
        auto r = makeRenderer(scene);
        const Options& o = scene.options;
        std::fprintf(stderr, "strata-cli: %s, %zu triangles, %dx%d, %d spp, %d bounces, %d frame(s) on %s\n",
                     scene.path.c_str(), r->triangleCount(), o.render.width, o.render.height, o.render.spp,
                     o.render.bounces, a->frames, r->name().c_str());
        std::string csv = csvHeader(r->stageNames());
        Progress progress("rendering frame");
        FrameRecord rec, last;
        for (int f = 0; f < a->frames; ++f) {
            float t = o.animation.startTime + (o.animation.play ? float(f) / o.animation.fps : 0.0f);
            r->renderFrame(t, uint64_t(f));
            for (; r->popRecord(rec); last = rec) csv += csvRow(rec, o);
            progress.update(uint64_t(f + 1), uint64_t(a->frames));
        }
        progress.finish();
        r->finish();
        for (; r->popRecord(rec); last = rec) csv += csvRow(rec, o);
        if (o.view.heatmap != Heatmap::Off) {
            const double rays = double(o.render.width) * o.render.height;
            std::fprintf(stderr,
                         "strata-cli: heatmap of %s, the last frame's camera rays: %.1f nodes, %.2f triangles, "
                         "%.1f steps per ray; colours 0 .. %g (red), white at %g and past\n",
                         name(o.view.heatmap), last.heatNodes / rays, last.heatTriangles / rays, last.heatSteps / rays,
                         heatmapScaleOf(o.view.heatmap, o.view.heatmapMax),
                         2 * heatmapScaleOf(o.view.heatmap, o.view.heatmapMax));
            if (pfm) std::fprintf(stderr, "strata-cli: a .pfm holds the radiance, not the heatmap: write a .png\n");
        }
        if (pfm) {
            std::vector<float> radiance;
            r->readRadiance(radiance);
            image.write(encodePfm(*out, o.render.width, o.render.height, radiance));
        } else {
            std::vector<uint8_t> rgb;
            r->readImage(rgb);
            image.write(encodePng(*out, o.render.width, o.render.height, rgb));
        }
        if (timingFile) timingFile->write(csv);
        OutputFile::commitAll({&image, timingFile.get()});
        std::printf("%s\n", out->c_str());
        return 0;
    };
}

}  // namespace strata::cli
