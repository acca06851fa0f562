// cli/common.h — what every strata-cli subcommand shares: the scene and
// option flags, loading, backend choice, atomic file output.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <vector>

#include "core/output_file.h"  // writeFileAtomic
#include "render/make_renderer.h"
#include "render/renderer.h"
#include "scene/scene.h"

namespace strata::cli {

// --frames and --warmup at most: ten million frames (int sums stay exact).
constexpr int kMaxFrames = 10000000;

struct CommonArgs {
    std::string scene;
    std::string backend;  // empty: the scene's (default cuda)
    std::string res;      // WxH
    // Given or not is told by the option (given(): its count), never by a
    // value such as 0 or -1: every given value goes through Options::set's checks.
    int spp = 0, bounces = 0, frames = 1;
    std::string builder;
    std::string traversal;
    std::string kdOpts;
    long long seed = 0;
    CLI::Option *sppOption = nullptr, *bouncesOption = nullptr, *seedOption = nullptr;
    std::vector<std::string> sets;
    std::string data;  // --data: the folder of "data:" models (scene/data_folder.h)
};

void addCommonOptions(CLI::App& app, CommonArgs& a, int defaultFrames);

// Loads the scene and applies the flags on top of its options (flags win).
// quadsAsTriangles: its quads become triangles as vd.mode says (what the
// commands that look at the triangles themselves need); commands that only
// render leave them to the renderer, which then knows the patches as loaded
// (its memory report compares direct with pre-tessellation in every mode).
Scene loadWithOverrides(const CommonArgs& a, bool quadsAsTriangles = true);

// Sets render.width and render.height from "WxH" given as `flag`; anything
// else is an error naming the flag (the sizes' ranges: Options::set).
void setResolution(Options& o, const std::string& flag, const std::string& wxh);


// A progress line on stderr, shown only once the work has taken over a second.
// "rendering frame 12/100 [###.....] 3.2 s, about 23 s left" (the bar on a
// terminal); the estimate once some but not all are done.
std::string progressLine(const std::string& what, uint64_t done, uint64_t total, double elapsed, bool bar);

// Progress of long work on stderr: on a terminal one line rewritten four times
// a second, in a log a line every 10 s; nothing for work under a second.
class Progress {
public:
    explicit Progress(std::string what);
    void update(uint64_t done, uint64_t total);
    void finish();

private:
    std::string what_;
    double start_;
    double last_ = 0;
    bool shown_ = false;
};

}  // namespace strata::cli
