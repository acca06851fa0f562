// gpu/kernel_clock.h — the sum of the kernel times of a piece of GPU work
// (the kd-tree chapter's "sum of kernels" column): while on, a timed event
// pair around each launch. The events add a few microseconds per launch to
// the work's wall time, so wall time is measured with the clock off.
#pragma once

#include <cuda_runtime.h>

#include <vector>

#include "gpu/cuda_check.h"

namespace strata {

class KernelClock {
public:
    KernelClock() = default;
    ~KernelClock() {
        for (cudaEvent_t e : events_) cudaEventDestroy(e);  // not checked: may run during unwinding
    }
    KernelClock(const KernelClock&) = delete;
    KernelClock& operator=(const KernelClock&) = delete;

    // Forgets earlier launches; on: times the launches that follow.
    void begin(bool on) {
        on_ = on;
        used_ = 0;
    }
    bool on() const { return on_; }

    // Runs launch() (one kernel launch on `stream`), timed while on.
    template <class Launch>
    void time(cudaStream_t stream, Launch&& launch) {
        if (!on_) {
            launch();
            return;
        }
        if (2 * used_ + 2 > events_.size())
            for (int k = 0; k < 2; ++k) {
                cudaEvent_t e;
                STRATA_CUDA_CHECK(cudaEventCreate(&e));
                events_.push_back(e);
            }
        STRATA_CUDA_CHECK(cudaEventRecord(events_[2 * used_], stream));
        launch();
        STRATA_CUDA_CHECK(cudaEventRecord(events_[2 * used_ + 1], stream));
        ++used_;
    }

    // Kernels timed since begin().
    unsigned count() const { return used_; }

    // The sum of their times (ms); waits for the last one. 0 when off.
    double totalMs() const {
        if (!on_ || used_ == 0) return 0.0;
        STRATA_CUDA_CHECK(cudaEventSynchronize(events_[2 * used_ - 1]));
        double sum = 0.0;
        for (unsigned i = 0; i < used_; ++i) {
            float ms = 0.0f;
            STRATA_CUDA_CHECK(cudaEventElapsedTime(&ms, events_[2 * i], events_[2 * i + 1]));
            sum += ms;
        }
        return sum;
    }

private:
    std::vector<cudaEvent_t> events_;  // start, stop of launch 0, 1, ...
    unsigned used_ = 0;
    bool on_ = false;
};

}  // namespace strata
