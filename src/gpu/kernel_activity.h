// gpu/kernel_activity.h — the sum of GPU kernel durations, from CUPTI's
// activity records (the kd-tree chapter's "sum of kernels": each kernel's
// start and end as the GPU recorded them, nothing of the gaps between
// launches and no timing work of our own on the stream). CUPTI is loaded at
// run time (libcupti.so.13 from the CUDA Toolkit); without it, available()
// says why and nothing is measured.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace strata {

struct KernelTotals {
    double ms = 0.0;       // sum of the kernels' durations
    uint32_t kernels = 0;  // kernels recorded
    // The same sum per kernel, by its name without namespaces, template
    // arguments and parameters ("lnsSortTriangles", "DeviceSegmentedReduceKernel").
    std::map<std::string, double> msByKernel;
};

// A kernel's mangled name as KernelTotals::msByKernel keys it.
std::string shortKernelName(const char* mangled);

class KernelActivity {
public:
    // Whether CUPTI could be loaded; otherwise `why` says what failed.
    static bool available(std::string& why);
    // Records every kernel the process runs from here until stop().
    // Throws strata::Error when CUPTI is not available or refuses.
    void start();
    // Waits for the device, collects the records, stops recording.
    KernelTotals stop();
};

}  // namespace strata
