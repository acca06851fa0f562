// app/timing_overlay.h — the viewer's "Timings" window: the frame's rates,
// every stage's milliseconds and launches, and plots of any stages over the
// last frames, with axes in ms, the value under the mouse, and a marker
// labelled with what changed wherever an option changed.
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "core/frame_record.h"

namespace strata {

class TimingOverlay {
public:
    // history: the frames kept (the plots show up to that many).
    explicit TimingOverlay(size_t history = 300) : history_(history), window_(history) {}
    // change: the options this frame changed from the last one ("key=value"
    // each; Options::changedFrom), empty when none.
    void add(const FrameRecord& r, double displayMs, double wallFps, std::vector<std::string> change = {});
    // gpuClock: the stages are GPU times (CUDA backend), else wall-clock ones.
    void draw(const std::vector<std::string>& stages, bool gpuClock);
    void clear();

private:
    double value(const std::string& stage, size_t i) const;  // ms of frame i of the history
    void plot(size_t slot, const std::vector<std::string>& choices, bool gpuClock);

    size_t history_, window_;
    std::deque<FrameRecord> recent_;
    std::deque<double> display_;
    std::deque<std::vector<std::string>> changes_;
    std::vector<std::string> plots_ = {"total", "build", "trace"};
    double fps_ = 0;
};

// What a stage's time covers, in words (the plots' tooltips).
std::string stageMeaning(const std::string& stage);

}  // namespace strata
