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
    // The stage (column) named `label` ("build/morton"), or -1. Labels are
    // string literals: the answer is remembered by the label's address.
    int find(const char* label) const;

    // Opens a frame's record; stages are timed between begin(i) and end(i)
    // (a stage may be entered several times per frame: times add up).
    void beginFrame(cudaStream_t stream, const FrameRecord& header);
    void begin(int stage);
    void end(int stage);
    // Counts a kernel launch in the innermost open stage (and its parents).
    void countLaunches(uint32_t n = 1);
    void endFrame();
    bool isOpen(int stage) const;

    // While muted (Untimed below), stages are not opened: a builder's own
    // phases run inside the caller's stage, their launches counted there.
    bool muted() const { return muted_ > 0; }
    void mute(bool on) { muted_ += on ? 1 : -1; }

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
    // find() by the label's address first: labels are string literals, and
    // a builder's launches look theirs up hundreds of times a frame.
    mutable std::vector<std::pair<const char*, int>> byAddress_;
    std::vector<Slot> slots_;
    std::vector<cudaEvent_t> pool_;
    std::deque<int> order_;  // pending slots, oldest first
    std::deque<FrameRecord> resolved_;
    int current_ = -1;
    std::vector<int> open_;
    cudaStream_t stream_ = 0;
    int muted_ = 0;
};

// Times the stage named `label` for the scope's lifetime; the launches made
// in it are counted there and in its parents (no timer: untimed, uncounted;
// a muted timer: counted in the stages already open). Labels are the stage
// table's names, owned by whoever does the work ("build/morton" is the
// LBVH builder's); a label the timer does not have is a programming error
// and throws.
class StageScope {
public:
    StageScope(StageTimer* timer, const char* label) : StageScope(timer, label, true) {}
    // A launch's scope (gpu/launch.cuh): times `label` when it is a stage
    // not already open, else nothing.
    static StageScope ifStage(StageTimer* timer, const char* label) { return StageScope(timer, label, false); }
    ~StageScope() {
        if (stage_ >= 0) t_->end(stage_);
    }
    StageScope(const StageScope&) = delete;
    StageScope& operator=(const StageScope&) = delete;

private:
    StageScope(StageTimer* timer, const char* label, bool strict);
    StageTimer* t_;
    int stage_ = -1;
};

// The scope's stages are not timed: a structure built inside another's
// stage (the instanced top level's LBVH under build/top) keeps its phases
// out of the columns of the builder's own stages.
class Untimed {
public:
    explicit Untimed(StageTimer* timer) : t_(timer) {
        if (t_) t_->mute(true);
    }
    ~Untimed() {
        if (t_) t_->mute(false);
    }
    Untimed(const Untimed&) = delete;
    Untimed& operator=(const Untimed&) = delete;

private:
    StageTimer* t_;
};

// The kernel launches `enqueue` makes (a library call such as a CUB sort):
// captured into a graph on a side stream, never run. enqueue's error is thrown.
uint32_t countKernelLaunches(const std::function<cudaError_t(cudaStream_t)>& enqueue);

}  // namespace strata
