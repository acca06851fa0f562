// gpu/cuda_event.h — an owning, checked CUDA event for host-side ordering
// (no timing: StageTimer owns the timed ones).
#pragma once

#include <cuda_runtime.h>

#include "gpu/cuda_check.h"

namespace strata {

class CudaEvent {
public:
    CudaEvent() = default;
    ~CudaEvent() {
        if (e_) cudaEventDestroy(e_);  // not checked: may run during unwinding
    }
    CudaEvent(const CudaEvent&) = delete;
    CudaEvent& operator=(const CudaEvent&) = delete;
    void record(cudaStream_t stream) {
        if (!e_) STRATA_CUDA_CHECK(cudaEventCreateWithFlags(&e_, cudaEventDisableTiming));
        STRATA_CUDA_CHECK(cudaEventRecord(e_, stream));
    }
    // Waits on the host for the work recorded before record().
    void synchronize() const { STRATA_CUDA_CHECK(cudaEventSynchronize(e_)); }
    // Whether the work recorded before record() is done (never waits).
    bool done() const {
        if (!e_) return true;
        const cudaError_t e = cudaEventQuery(e_);
        if (e == cudaErrorNotReady) return false;
        STRATA_CUDA_CHECK(e);
        return true;
    }

private:
    cudaEvent_t e_ = nullptr;
};

}  // namespace strata
