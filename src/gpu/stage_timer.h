// gpu/stage_timer.h — per-stage GPU timing with CUDA events and launch
// counting. Each frame records a start/stop event pair per stage; the
// results are read back when the frame's last event has completed (a frame or
// more later), so the CPU never waits on the GPU just to time it.
#pragma once

#include <cuda_runtime.h>

#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "core/frame_record.h"

namespace strata {

class StageTimer {
public:
    explicit StageTimer(std::vector<std::string> stages, int framesInFlight = 4);
    ~StageTimer();
    StageTimer(const StageTimer&) = delete;
    StageTimer& operator=(const StageTimer&) = delete;

    const std::vector<std::string>& stages() const { return names_; }

    // Opens a frame's record; stages are timed between begin(i) and end(i)
    // (a stage may be entered several times per frame: times add up).
    void beginFrame(cudaStream_t stream, const FrameRecord& header);
    void begin(int stage);
    void end(int stage);
    // Counts a kernel launch in the innermost open stage (and its parents).
    void countLaunches(uint32_t n = 1);
    void endFrame();

    // Moves completed frames' records into out (non-blocking unless wait).
    bool pop(FrameRecord& out, bool wait);

private:
    struct Slot {
        FrameRecord rec;
        std::vector<cudaEvent_t> start, stop;  // per stage, per entry
        std::vector<int> stageOfEvent;
        std::vector<uint32_t> launches;
        cudaEvent_t done = nullptr;
        bool pending = false;
    };
    void resolve(Slot& s);

    std::vector<std::string> names_;
    std::vector<Slot> slots_;
    std::vector<cudaEvent_t> pool_;
    std::deque<int> order_;  // pending slots, oldest first
    std::deque<FrameRecord> resolved_;
    int current_ = -1;
    std::vector<int> open_;
    cudaStream_t stream_ = 0;
};

// Times one stage for the scope's lifetime and counts the launches made in it
// (no timer or a stage < 0: untimed, uncounted).
struct StageScope {
    StageTimer* t;
    int stage;
    StageScope(StageTimer* timer, int s) : t(timer), stage(s) {
        if (t && stage >= 0) t->begin(stage);
    }
    ~StageScope() {
        if (t && stage >= 0) t->end(stage);
    }
    StageScope(const StageScope&) = delete;
    StageScope& operator=(const StageScope&) = delete;
    void launched(uint32_t k = 1) {
        if (t) t->countLaunches(k);
    }
};

// The kernel launches `enqueue` makes (a library call such as a CUB sort):
// captured into a graph on a side stream, never run. enqueue's error is thrown.
uint32_t countKernelLaunches(const std::function<cudaError_t(cudaStream_t)>& enqueue);

}  // namespace strata
