// render/host_stage_clock.h — the CPU backend's stage timing: wall-clock
// milliseconds per stage of the stage table, nested as the GPU's events are
// (a stage entered several times per frame adds up; the total is the sum of
// the top-level stages).
#pragma once

#include <atomic>
#include <chrono>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/frame_record.h"

namespace strata {

class HostStageClock {
public:
    explicit HostStageClock(std::vector<std::string> stages) : names_(std::move(stages)) {}
    const std::vector<std::string>& stages() const { return names_; }

    void beginFrame(const FrameRecord& header) {
        rec_ = header;
        rec_.stages.clear();
        for (const std::string& n : names_) rec_.stages.push_back({n, 0, 0});
    }
    int find(const char* label) const {
        for (size_t k = 0; k < names_.size(); ++k)
            if (names_[k] == label) return int(k);
        return -1;
    }
    FrameRecord endFrame() {
        rec_.totalMs = 0;
        for (const StageTime& s : rec_.stages)
            if (s.name.find('/') == std::string::npos) rec_.totalMs += s.ms;
        return rec_;
    }

    // The innermost stage open now ("" between frames), for another thread
    // to read while a frame renders (the viewer's progress line).
    std::string active() const {
        const int k = active_.load(std::memory_order_relaxed);
        return k >= 0 ? names_[size_t(k)] : std::string();
    }

    // Times `label` for its lifetime (a label that is not a stage: untimed).
    class Scope {
    public:
        Scope(HostStageClock& c, const char* label) : Scope(&c, label) {}
        // No clock: untimed (a structure built outside a frame: validate).
        Scope(HostStageClock* c, const char* label) : c_(c), stage_(c ? c->find(label) : -1) {
            if (stage_ >= 0) outer_ = c_->active_.exchange(stage_, std::memory_order_relaxed);
        }
        ~Scope() {
            if (stage_ < 0) return;
            c_->rec_.stages[size_t(stage_)].ms +=
                std::chrono::duration<double, std::milli>(Clock::now() - start_).count();
            c_->active_.store(outer_, std::memory_order_relaxed);
        }
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;

    private:
        using Clock = std::chrono::steady_clock;
        HostStageClock* c_;
        int stage_, outer_ = -1;
        Clock::time_point start_ = Clock::now();
    };

private:
    std::vector<std::string> names_;
    FrameRecord rec_;
    std::atomic<int> active_{-1};
};

}  // namespace strata
