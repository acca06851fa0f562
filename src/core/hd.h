// core/hd.h — the one host/device macro. Code marked STRATA_HD is compiled by
// g++ for the CPU reference backend and by nvcc for the CUDA backend, so both
// backends run the same traversal, intersection and shading.
#pragma once

#if defined(__CUDACC__)
#define STRATA_HD __host__ __device__ __forceinline__
#define STRATA_DEVICE_CODE 1
#else
#define STRATA_HD inline
#define STRATA_DEVICE_CODE 0
#endif

#include <cstdint>

namespace strata {

// Atomics usable from STRATA_HD code: device atomics under nvcc's device pass,
// GCC builtins on the host (the CPU backend runs stages on a thread pool).
STRATA_HD uint32_t atomicAddU32(uint32_t* p, uint32_t v) {
#if defined(__CUDA_ARCH__)
    return atomicAdd(p, v);
#else
    return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
#endif
}

STRATA_HD unsigned long long atomicMinU64(unsigned long long* p, unsigned long long v) {
#if defined(__CUDA_ARCH__)
    return atomicMin(p, v);
#else
    unsigned long long cur = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (v < cur && !__atomic_compare_exchange_n(p, &cur, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
    return cur;
#endif
}

// A product and a sum rounded on their own: nvcc would contract `a + b * c`
// into a fused multiply-add, g++ for x86-64 does not; code whose host and
// device runs must decide alike (the builders' rules) spells them out.
STRATA_HD float mulRn(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
}
STRATA_HD float addRn(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fadd_rn(a, b);
#else
    return a + b;
#endif
}

// Set bits, and the index of the lowest set bit (v != 0).
STRATA_HD uint32_t popCount(uint32_t v) {
#if defined(__CUDA_ARCH__)
    return uint32_t(__popc(v));
#else
    return uint32_t(__builtin_popcount(v));
#endif
}
STRATA_HD uint32_t lowestBit(uint32_t v) {
#if defined(__CUDA_ARCH__)
    return uint32_t(__ffs(int(v)) - 1);
#else
    return uint32_t(__builtin_ctz(v));
#endif
}

// Compare-and-swap returning the old value (CAS shim on the host).
STRATA_HD int atomicCasI32(int* p, int expected, int desired) {
#if defined(__CUDA_ARCH__)
    return atomicCAS(p, expected, desired);
#else
    __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    return expected;
#endif
}

STRATA_HD uint32_t atomicExchU32(uint32_t* p, uint32_t v) {
#if defined(__CUDA_ARCH__)
    return atomicExch(p, v);
#else
    return __atomic_exchange_n(p, v, __ATOMIC_ACQ_REL);
#endif
}

STRATA_HD unsigned long long atomicLoadU64(const unsigned long long* p) {
#if defined(__CUDA_ARCH__)
    return *reinterpret_cast<const volatile unsigned long long*>(p);
#else
    return __atomic_load_n(p, __ATOMIC_RELAXED);
#endif
}

STRATA_HD uint32_t atomicLoadU32(const uint32_t* p) {
#if defined(__CUDA_ARCH__)
    return *reinterpret_cast<const volatile uint32_t*>(p);
#else
    return __atomic_load_n(p, __ATOMIC_RELAXED);
#endif
}

// Orders memory between the two visits of a bottom-up pass (Karras 2012 §4).
STRATA_HD void memoryFence() {
#if defined(__CUDA_ARCH__)
    __threadfence();
#else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

// True when `v` holds for every thread of the warp that runs this call with
// the caller (the converged threads); on the host, one thread: v itself.
STRATA_HD bool warpAllActive(bool v) {
#if defined(__CUDA_ARCH__)
    return __all_sync(__activemask(), v);
#else
    return v;
#endif
}

}  // namespace strata
