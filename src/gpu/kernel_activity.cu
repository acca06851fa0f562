#include "gpu/kernel_activity.h"

#if __has_include(<cupti_activity.h>)
#define STRATA_HAVE_CUPTI 1
#include <cupti_activity.h>
#include <dlfcn.h>
#endif

#include <cxxabi.h>

#include <cstdlib>
#include <mutex>

#include "core/error.h"
#include "gpu/cuda_check.h"

#if defined(STRATA_HAVE_CUPTI)
namespace strata {
namespace {

using RegisterFn = CUptiResult (*)(CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc);
using KindFn = CUptiResult (*)(CUpti_ActivityKind);
using FlushFn = CUptiResult (*)(uint32_t);
using NextFn = CUptiResult (*)(uint8_t*, size_t, CUpti_Activity**);

struct Cupti {
    RegisterFn registerCallbacks = nullptr;
    KindFn enable = nullptr, disable = nullptr;
    FlushFn flushAll = nullptr;
    NextFn nextRecord = nullptr;
    std::string why;  // empty: loaded
};

const Cupti& cupti() {
    static const Cupti c = [] {
        Cupti r;
        void* lib = nullptr;
        for (const char* name : {"libcupti.so.13", "libcupti.so", "/usr/local/cuda/lib64/libcupti.so.13",
                                 "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13"})
            if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
        if (!lib) {
            r.why = "libcupti.so.13 (CUDA Toolkit) not found: add its folder to LD_LIBRARY_PATH";
            return r;
        }
        r.registerCallbacks = reinterpret_cast<RegisterFn>(dlsym(lib, "cuptiActivityRegisterCallbacks"));
        r.enable = reinterpret_cast<KindFn>(dlsym(lib, "cuptiActivityEnable"));
        r.disable = reinterpret_cast<KindFn>(dlsym(lib, "cuptiActivityDisable"));
        r.flushAll = reinterpret_cast<FlushFn>(dlsym(lib, "cuptiActivityFlushAll"));
        r.nextRecord = reinterpret_cast<NextFn>(dlsym(lib, "cuptiActivityGetNextRecord"));
        if (!r.registerCallbacks || !r.enable || !r.disable || !r.flushAll || !r.nextRecord)
            r.why = "libcupti lacks the activity API";
        return r;
    }();
    return c;
}

// Totals of the records delivered since the last reset (CUPTI calls back
// from its own thread).
std::mutex gMutex;
KernelTotals gTotals;

constexpr size_t kBufferBytes = 8u << 20;

void CUPTIAPI bufferRequested(uint8_t** buffer, size_t* size, size_t* maxRecords) {
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
    *size = *buffer ? kBufferBytes : 0;
    *maxRecords = 0;  // as many as fit
}

void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t validSize) {
    CUpti_Activity* record = nullptr;
    KernelTotals t;
    while (cupti().nextRecord(buffer, validSize, &record) == CUPTI_SUCCESS)
        if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || record->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
            const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
            const double ms = double(k->end - k->start) * 1e-6;  // ns
            t.ms += ms;
            ++t.kernels;
            t.msByKernel[shortKernelName(k->name)] += ms;
        }
    std::free(buffer);
    std::lock_guard<std::mutex> lock(gMutex);
    gTotals.ms += t.ms;
    gTotals.kernels += t.kernels;
    for (const auto& [name, ms] : t.msByKernel) gTotals.msByKernel[name] += ms;
}

void check(CUptiResult r, const char* what) {
    if (r != CUPTI_SUCCESS)
        throw Error(std::string("CUPTI: ") + what + " failed (CUptiResult " + std::to_string(int(r)) + ")");
}

}  // namespace

bool KernelActivity::available(std::string& why) {
    why = cupti().why;
    return why.empty();
}

void KernelActivity::start() {
    std::string why;
    if (!available(why)) throw Error("kernel times: " + why);
    static const bool registered = [] {
        check(cupti().registerCallbacks(bufferRequested, bufferCompleted), "registering activity buffers");
        return true;
    }();
    (void)registered;
    STRATA_CUDA_CHECK(cudaDeviceSynchronize());  // nothing earlier is recorded
    check(cupti().flushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "flushing");
    {
        std::lock_guard<std::mutex> lock(gMutex);
        gTotals = KernelTotals{};
    }
    check(cupti().enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "enabling kernel records");
}

KernelTotals KernelActivity::stop() {
    STRATA_CUDA_CHECK(cudaDeviceSynchronize());
    check(cupti().disable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "disabling kernel records");
    check(cupti().flushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "flushing");
    std::lock_guard<std::mutex> lock(gMutex);
    return gTotals;
}

}  // namespace strata
#else
namespace strata {

// Built where the CUDA Toolkit has no CUPTI headers: nothing is measured.
bool KernelActivity::available(std::string& why) {
    why = "this build has no CUPTI headers (the CUDA Toolkit's cuda-cupti-dev)";
    return false;
}
void KernelActivity::start() { throw Error("kernel times: this build has no CUPTI headers"); }
KernelTotals KernelActivity::stop() { return {}; }

}  // namespace strata
#endif

namespace strata {

std::string shortKernelName(const char* mangled) {
    if (!mangled) return "?";
    int status = 0;
    char* demangled = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
    std::string s = status == 0 && demangled ? demangled : mangled;
    std::free(demangled);
    // "void strata::kdgpu::(anonymous namespace)::lnsScatter(strata::...)" -> "lnsScatter":
    // drop the parameters, then template arguments, then the return type and scopes.
    size_t depth = 0, end = s.size();
    for (size_t i = 0; i < s.size(); ++i) {  // the first '(' outside template brackets
        if (s[i] == '<')
            ++depth;
        else if (s[i] == '>' && depth)
            --depth;
        else if (s[i] == '(' && depth == 0 && s.compare(i, 11, "(anonymous ") != 0) {
            end = i;
            break;
        }
    }
    s.resize(end);
    const size_t lt = s.find('<');
    if (lt != std::string::npos) s.resize(lt);
    const size_t colon = s.rfind("::");
    if (colon != std::string::npos) s.erase(0, colon + 2);
    const size_t space = s.rfind(' ');
    if (space != std::string::npos) s.erase(0, space + 1);
    return s.empty() ? mangled : s;
}

}  // namespace strata
