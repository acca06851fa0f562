// core/frame_record.h — what a backend reports per frame: every stage's
// milliseconds and kernel launches, the triangle count and the rays traced
// (render/renderer.h's seam, gpu/stage_timer.h's output, the CSV's rows).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace strata {

struct StageTime {
    std::string name;  // hierarchical: "build/sort"
    double ms = 0;
    uint32_t launches = 0;
};

struct FrameRecord {
    uint64_t frame = 0;
    float sceneTime = 0;
    std::vector<StageTime> stages;  // in the order of Renderer::stageNames()
    double totalMs = 0;             // sum of the top-level stages
    uint32_t launches = 0;          // kernel launches in the frame
    uint32_t buildLaunches = 0;
    uint64_t triangles = 0;
    uint64_t rays = 0;  // closest-hit rays
    uint64_t shadowRays = 0;
    uint64_t vdPairs = 0;  // (patch, ray) pairs the VD bottom level resolved (vd.mode direct)
    // view.heatmap (render/heatmap.h): the heatmap pass's camera rays' node
    // records read, triangles tested, backtracking steps and (instanced mode)
    // BLASes entered; 0 when it is off.
    uint64_t heatNodes = 0, heatTriangles = 0, heatSteps = 0, heatBlas = 0;
    // accel.rebuild refit / auto: the refits of the frame's tree since it was
    // built; auto: its SAH's growth over the built tree's as the renderer
    // knew it after the frame (the GPU reads the SAH a frame late); 0 for a
    // tree just built and where the SAH is not measured (refit, every-frame).
    uint32_t refitsSinceBuild = 0;
    float sahGrowth = 0;
    double stageMs(const std::string& name) const {
        for (const StageTime& s : stages)
            if (s.name == name) return s.ms;
        return 0;
    }
};

}  // namespace strata
