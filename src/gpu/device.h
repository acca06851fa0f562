// gpu/device.h — CUDA device discovery, usable from code that is not compiled
// by nvcc (the CLI, the tests).
#pragma once

#include <cstddef>
#include <string>

namespace strata {

struct GpuInfo {
    bool available = false;
    std::string name;
    std::string reason;  // why not available
    size_t freeBytes = 0, totalBytes = 0;
    int smCount = 0;
    int deviceCount = 0;          // CUDA devices visible
    int driverCuda = 0;           // the CUDA version the driver supports (cudaDriverGetVersion: 13000 = 13.0)
    int clockMhz = 0, memoryClockMhz = 0;  // the SMs' and memory's peak clocks
};

// Queries device 0. Never throws: a machine without a GPU gives available=false.
GpuInfo queryGpu();
// The CUDA devices visible, without opening a context on any (0 on error).
int cudaDeviceCount();
// The current device's multiprocessor count, queried once per device (the
// builds size their grids by it every frame). Throws on a CUDA error.
int currentDeviceSmCount();

}  // namespace strata
