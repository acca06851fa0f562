// strata-cli render: N animation frames, the last (or with a %d pattern in
// the name, every one) written as the output's extension says (.png:
// tone-mapped 8-bit; .pfm and .exr: the linear radiance), every frame's
// timings as CSV.
#include <cctype>
#include <cstdio>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "core/error.h"
#include "core/output_file.h"
#include "render/heatmap.h"
#include "render/frame_csv.h"
#include "scene/exr_write.h"
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

// The name of frame f's image when `pattern` holds one integer conversion
// (%d or %0Nd, N at most 9: "frame_%04d.exr"); "" when it holds no '%'.
// Throws strata::Error on any other use of '%'.
std::string frameFileName(const std::string& pattern, int f) {
    const size_t pct = pattern.find('%');
    if (pct == std::string::npos) return "";
    size_t i = pct + 1;
    int pad = 0;
    if (i < pattern.size() && pattern[i] == '0') {
        ++i;
        if (i < pattern.size() && pattern[i] >= '1' && pattern[i] <= '9') pad = pattern[i++] - '0';
    }
    if (i >= pattern.size() || pattern[i] != 'd' || pattern.find('%', i) != std::string::npos)
        throw Error(pattern + ": an output name holds one frame number as %d or %0Nd (frame_%04d.exr), nothing "
                              "else with '%'");
    std::string n = std::to_string(f);
    if (int(n.size()) < pad) n.insert(0, size_t(pad) - n.size(), '0');
    return pattern.substr(0, pct) + n + pattern.substr(i + 1);
}

// The renderer's last frame as `ext` says: PNG of the shown image, PFM or EXR
// of the linear radiance.
std::string encodeFrame(Renderer& r, const std::string& path, const std::string& ext, const Options& o) {
    if (ext == ".pfm" || ext == ".exr") {
        std::vector<float> radiance;
        r.readRadiance(radiance);
        return ext == ".pfm" ? encodePfm(path, o.render.width, o.render.height, radiance)
                             : encodeExr(path, o.render.width, o.render.height, radiance);
    }
    std::vector<uint8_t> rgb;
    r.readImage(rgb);
    return encodePng(path, o.render.width, o.render.height, rgb);
}

}  // namespace

std::function<int()> addRenderCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("render", "render animation frames; write the last one (or each) as PNG, PFM or EXR");
    auto a = std::make_shared<CommonArgs>();
    auto out = std::make_shared<std::string>("render.png");
    auto timings = std::make_shared<std::string>();
    addCommonOptions(*cmd, *a, 1);
    cmd->add_option("--out", *out,
                    "output image, written atomically: .png (tone-mapped, 8-bit), .pfm or .exr (linear radiance, "
                    "32-bit float); %d or %0Nd in the name (frame_%04d.exr) writes every frame; a name without an "
                    "extension (a device) gets PNG")
        ->capture_default_str();
    cmd->add_option("--timings", *timings, "CSV file with one row of stage timings per frame");
    return [a, out, timings]() {
        const std::string ext = extensionOf(*out);
        const bool radiance = ext == ".pfm" || ext == ".exr";
        if (!radiance && ext != ".png" && !ext.empty())
            throw Error(*out + ": the output's extension names its format: .png (tone-mapped, 8-bit), .pfm or .exr "
                               "(linear radiance); " + ext + " is none of them");
        const bool sequence = !frameFileName(*out, 0).empty();  // checks the pattern
        Scene scene = loadWithOverrides(*a, false);
        // The outputs are opened before the work: a path that cannot be
        // written fails now, and both are committed together at the end.
        std::unique_ptr<OutputFile> image;
        if (!sequence) image = std::make_unique<OutputFile>(*out);
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
            if (sequence) {  // each frame's file whole as soon as it is rendered
                const std::string name = frameFileName(*out, f);
                OutputFile frame(name);
                frame.write(encodeFrame(*r, name, ext, o));
                frame.commit();
            }
            progress.update(uint64_t(f + 1), uint64_t(a->frames));
        }
        progress.finish();
        r->finish();
        for (; r->popRecord(rec); last = rec) csv += csvRow(rec, o);
        if (o.view.heatmap != Heatmap::Off) {
            const double rays = double(o.render.width) * o.render.height;
            std::fprintf(stderr,
                         "strata-cli: heatmap of %s, the last frame's camera rays: %.1f nodes, %.2f triangles, "
                         "%.1f steps, %.2f BLAS entries per ray; colours 0 .. %g (red), white at %g and past\n",
                         name(o.view.heatmap), last.heatNodes / rays, last.heatTriangles / rays, last.heatSteps / rays,
                         last.heatBlas / rays, heatmapScaleOf(o.view.heatmap, o.view.heatmapMax),
                         2 * heatmapScaleOf(o.view.heatmap, o.view.heatmapMax));
            if (radiance)
                std::fprintf(stderr, "strata-cli: a %s holds the radiance, not the heatmap: write a .png\n", ext.c_str());
        }
        if (image) image->write(encodeFrame(*r, *out, ext, o));
        if (timingFile) timingFile->write(csv);
        OutputFile::commitAll({image.get(), timingFile.get()});
        std::printf("%s\n", out->c_str());
        return 0;
    };
}

}  // namespace strata::cli
