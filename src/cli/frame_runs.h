// cli/frame_runs.h — warm-up frames, then timed frames, and medians of what
// they recorded: what `bench` prints and `kdtable` tabulates.
#pragma once

#include <string>
#include <vector>

#include "render/renderer.h"

namespace strata::cli {

double median(std::vector<double> v);

struct FrameRun {
    std::vector<FrameRecord> records;     // the timed frames
    std::vector<std::string> stageNames;  // the renderer's
    std::string device;                   // Renderer::name()
    double stageMedian(const std::string& name) const;
    double totalMedian() const;
    double stageLaunches(const std::string& name) const;  // mean over the timed frames (animated scenes vary)
};

// Renders warmup + frames frames of the scene's animation with `renderer`
// (one per 1/fps of scene time while the animation plays), with a progress
// line labelled `what`.
FrameRun runFrames(Renderer& renderer, const Options& o, int warmup, int frames, const std::string& what);

}  // namespace strata::cli
