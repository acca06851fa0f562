// gpu/cuda_check.h — every CUDA call and launch is checked. A failure throws
// strata::Error naming the call, the file and line, and CUDA's message.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "core/error.h"

namespace strata {

[[noreturn]] void throwCudaError(cudaError_t err, const char* what, const char* file, int line);

inline void checkCuda(cudaError_t err, const char* what, const char* file, int line) {
    if (err != cudaSuccess) throwCudaError(err, what, file, line);
}

}  // namespace strata

#define STRATA_CUDA_CHECK(call) ::strata::checkCuda((call), #call, __FILE__, __LINE__)
// After a <<<>>> launch: catches bad configurations immediately (asynchronous
// faults surface at the next checked synchronising call).
#define STRATA_LAUNCH_CHECK(name) ::strata::checkCuda(cudaGetLastError(), name, __FILE__, __LINE__)
