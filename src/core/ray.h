// core/ray.h — rays and the 64-bit hit record (distance bits high, payload low),
// resolved with one atomicMin as DESIGN.md prescribes.
#pragma once

#include <cstring>

#include "core/vec.h"

namespace strata {

struct Ray {
    Vec3 org;
    float tmin = 0.0f;
    Vec3 dir;
    float tmax = 1e30f;
};

using HitRecord = unsigned long long;
constexpr HitRecord kNoHit = ~0ull;

STRATA_HD uint32_t floatBits(float f) {
#if defined(__CUDA_ARCH__)
    return __float_as_uint(f);
#else
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
#endif
}
STRATA_HD float bitsFloat(uint32_t u) {
#if defined(__CUDA_ARCH__)
    return __uint_as_float(u);
#else
    float f;
    std::memcpy(&f, &u, 4);
    return f;
#endif
}

// Positive floats order like unsigned integers, so min over the packed word is
// min over distance, ties broken by the smaller payload.
STRATA_HD HitRecord packHit(float t, uint32_t payload) {
    return (static_cast<HitRecord>(floatBits(t)) << 32) | payload;
}
STRATA_HD float hitDistance(HitRecord h) { return bitsFloat(static_cast<uint32_t>(h >> 32)); }
STRATA_HD uint32_t hitPayload(HitRecord h) { return static_cast<uint32_t>(h & 0xffffffffu); }
STRATA_HD bool isHit(HitRecord h) { return h != kNoHit; }

}  // namespace strata
