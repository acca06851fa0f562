#include "gpu/device.h"

#include <cuda_runtime.h>

#include <sstream>

#include "gpu/cuda_check.h"

namespace strata {

void throwCudaError(cudaError_t err, const char* what, const char* file, int line) {
    std::ostringstream s;
    s << "CUDA error " << cudaGetErrorName(err) << " (" << cudaGetErrorString(err) << ") in " << what << " at " << file
      << ":" << line;
    throw Error(s.str());
}

int cudaDeviceCount() {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return count;
}

GpuInfo queryGpu() {
    GpuInfo info;
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0) {
        info.reason = err != cudaSuccess ? cudaGetErrorString(err) : "no CUDA device";
        cudaGetLastError();  // clear the sticky error of a failed query
        return info;
    }
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
        info.reason = "cudaGetDeviceProperties failed";
        cudaGetLastError();
        return info;
    }
    info.available = true;
    info.deviceCount = count;
    info.name = prop.name;
    info.smCount = prop.multiProcessorCount;
    cudaMemGetInfo(&info.freeBytes, &info.totalBytes);
    // Descriptive only (sweep's metadata): a failed query leaves 0.
    int kHz = 0;
    if (cudaDriverGetVersion(&info.driverCuda) != cudaSuccess) info.driverCuda = 0;
    if (cudaDeviceGetAttribute(&kHz, cudaDevAttrClockRate, 0) == cudaSuccess) info.clockMhz = kHz / 1000;
    if (cudaDeviceGetAttribute(&kHz, cudaDevAttrMemoryClockRate, 0) == cudaSuccess) info.memoryClockMhz = kHz / 1000;
    cudaGetLastError();
    return info;
}

}  // namespace strata
