#include "gpu/device.h"

#include <cuda_runtime.h>

#include <atomic>
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

int currentDeviceSmCount() {
    constexpr int kCached = 64;  // devices past this are queried every time
    static std::atomic<int> cache[kCached] = {};
    int device = 0, sms = 0;
    STRATA_CUDA_CHECK(cudaGetDevice(&device));
    if (device < kCached && (sms = cache[device].load(std::memory_order_relaxed)) > 0) return sms;
    STRATA_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    if (device < kCached) cache[device].store(sms, std::memory_order_relaxed);
    return sms;
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
