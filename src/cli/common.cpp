#include "cli/common.h"

#include "scene/vd_scene.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "accel/lbvh/lbvh_variant.h"
#include "core/error.h"
#include "scene/data_folder.h"
#include "scene/scene_loader.h"
namespace strata::cli {

void addCommonOptions(CLI::App& app, CommonArgs& a, int defaultFrames) {
    a.frames = defaultFrames;
    app.add_option("scene", a.scene, "scene file (JSON, see docs/scene-format.md)")->required();
    app.add_option("--backend", a.backend, "cuda | cpu (default: the scene's render.backend, else cuda)");
    app.add_option("--res", a.res, "resolution WxH, e.g. 1920x1080");
    a.sppOption = app.add_option("--spp", a.spp, "samples per pixel per frame");
    a.bouncesOption = app.add_option("--bounces", a.bounces, "path segments after the camera ray");
    app.add_option("--frames", a.frames, "animation frames to render (1/fps of scene time each)");
    app.add_option(
        "--builder", a.builder,
        "acceleration structure: lbvh-karras | lbvh-apetrei | lbvh-skip | hploc | kdtree, or cpu-sah (cpu backend only)");
    app.add_option("--traversal", a.traversal, "ray traversal: stack | stackless (stackless needs lbvh-skip)");
    app.add_option("--kd-opts", a.kdOpts,
                   "kd-tree optimizations [A]-[E] (Table 13.1): a subset of ABCDE, all, or none (Original); "
                   "shorthand for --set accel.kd_opts=...");
    a.seedOption = app.add_option("--seed", a.seed, "random seed");
    app.add_option("--set", a.sets, "key=value: set any option, named as in the scene file (repeatable)");
    app.add_option("--data", a.data,
                   "folder of the models scene files name as \"data:FILE\" (default: $STRATA_DATA, else " +
                       std::string(kDefaultDataFolder) + ")");
}

void setResolution(Options& o, const std::string& flag, const std::string& wxh) {
    const size_t x = wxh.find('x');
    if (x == std::string::npos || x == 0 || x + 1 == wxh.size() ||
        wxh.find_first_not_of("0123456789x") != std::string::npos || wxh.find('x', x + 1) != std::string::npos)
        throw Error(flag + ": expected WxH (e.g. 1920x1080), got '" + wxh + "'");
    o.set("render.width", wxh.substr(0, x));
    o.set("render.height", wxh.substr(x + 1));
}

Scene loadWithOverrides(const CommonArgs& a, bool quadsAsTriangles) {
    setDataFolder(a.data);
    Scene s = loadScene(a.scene);
    Options& o = s.options;
    if (!a.backend.empty()) o.set("render.backend", a.backend);
    if (!a.res.empty()) setResolution(o, "--res", a.res);
    auto given = [](const CLI::Option* opt) { return opt && opt->count() > 0; };
    if (given(a.sppOption)) o.set("render.spp", std::to_string(a.spp));
    if (given(a.bouncesOption)) o.set("render.bounces", std::to_string(a.bounces));
    if (given(a.seedOption)) o.set("render.seed", std::to_string(a.seed));
    if (!a.builder.empty()) o.set("accel.builder", a.builder);
    if (!a.traversal.empty()) o.set("accel.traversal", a.traversal);
    if (!a.kdOpts.empty()) o.set("accel.kd_opts", a.kdOpts);
    for (const std::string& kv : a.sets) o.setAssignment(kv);
    o.check();
    // Switches that would do nothing are refused, as the combination rules are
    // (the CSV records options, so it would say they ran).
    if (const std::vector<std::string> inert = o.inert(); !inert.empty()) throw Error(inert.front());
    if (quadsAsTriangles)
        if (std::unique_ptr<Scene> t = trianglesFromQuads(s)) s = std::move(*t);  // vd.mode is final here
    if (a.frames < 1 || a.frames > kMaxFrames)
        throw Error("--frames: expected 1 to " + std::to_string(kMaxFrames) + ", got " + std::to_string(a.frames));
    return s;
}

std::string progressLine(const std::string& what, uint64_t done, uint64_t total, double elapsed, bool bar) {
    char line[256];
    const double fraction = total ? double(done) / double(total) : 1.0;
    std::string meter;
    if (bar) {
        const int width = 24, filled = int(fraction * width + 0.5);
        meter = " [" + std::string(size_t(filled), '#') + std::string(size_t(width - filled), '.') + "]";
    }
    int n = std::snprintf(line, sizeof line, "%s %llu/%llu%s %.1f s", what.c_str(), (unsigned long long)done,
                          (unsigned long long)total, meter.c_str(), elapsed);
    if (done > 0 && done < total && n > 0 && size_t(n) < sizeof line)
        std::snprintf(line + n, sizeof line - size_t(n), ", about %.0f s left",
                      elapsed / double(done) * double(total - done));
    return line;
}

static double nowSeconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

Progress::Progress(std::string what) : what_(std::move(what)), start_(nowSeconds()) {}

void Progress::update(uint64_t done, uint64_t total) {
    // A terminal gets a line rewritten 4 times a second; a log a line every
    // 10 s (STRATA_PROGRESS_INTERVAL seconds: 0 reports every step); work
    // shorter than a second (or the interval) none.
    static const bool tty = isatty(fileno(stderr));
    static const double interval = [] {
        const char* e = std::getenv("STRATA_PROGRESS_INTERVAL");
        const double v = e ? std::strtod(e, nullptr) : -1.0;
        return v >= 0 && v < 1e6 ? v : -1.0;
    }();
    double now = nowSeconds(), el = now - start_;
    if (el < (interval >= 0 ? interval : 1.0)) return;
    if (now - last_ < (interval >= 0 ? interval : tty ? 0.25 : 10.0) && done != total) return;
    last_ = now;
    shown_ = true;
    // On a terminal the line is rewritten in place (carriage return, erase).
    std::fprintf(stderr, tty ? "\r\033[K%s" : "%s\n", progressLine(what_, done, total, el, tty).c_str());
    std::fflush(stderr);
}

void Progress::finish() {
    if (shown_ && isatty(fileno(stderr))) std::fprintf(stderr, "\n");
    shown_ = false;
}

}  // namespace strata::cli
