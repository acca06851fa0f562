// accel/lbvh/morton.h — Morton codes of primitive centroids (Karras 2012 §3:
// "sort the primitives along a space-filling curve"), 30-bit (10 bits per
// axis, 32-bit keys) or 63-bit (21 bits per axis, 64-bit keys).
#pragma once

#include <cstdint>

#include "core/aabb.h"

namespace strata {

// Spreads the low 10 bits of v so that two zeros separate consecutive bits.
STRATA_HD uint32_t expandBits10(uint32_t v) {
    v &= 0x3ffu;
    v = (v | (v << 16)) & 0x030000ffu;
    v = (v | (v << 8)) & 0x0300f00fu;
    v = (v | (v << 4)) & 0x030c30c3u;
    v = (v | (v << 2)) & 0x09249249u;
    return v;
}

// Spreads the low 21 bits of v likewise into 63 bits.
STRATA_HD uint64_t expandBits21(uint64_t v) {
    v &= 0x1fffffull;
    v = (v | (v << 32)) & 0x001f00000000ffffull;
    v = (v | (v << 16)) & 0x001f0000ff0000ffull;
    v = (v | (v << 8)) & 0x100f00f00f00f00full;
    v = (v | (v << 4)) & 0x10c30c30c30c30c3ull;
    v = (v | (v << 2)) & 0x1249249249249249ull;
    return v;
}

// Position of p within the box, in [0, 1]^3 (a flat box axis maps to 0).
STRATA_HD Vec3 unitPosition(Vec3 p, const Aabb& box) {
    Vec3 e = box.extent();
    return {e.x > 0 ? (p.x - box.lo.x) / e.x : 0.0f, e.y > 0 ? (p.y - box.lo.y) / e.y : 0.0f,
            e.z > 0 ? (p.z - box.lo.z) / e.z : 0.0f};
}

STRATA_HD uint32_t morton30(Vec3 u) {
    auto q = [](float f) { return uint32_t(fminf(fmaxf(f * 1024.0f, 0.0f), 1023.0f)); };
    return (expandBits10(q(u.x)) << 2) | (expandBits10(q(u.y)) << 1) | expandBits10(q(u.z));
}

STRATA_HD uint64_t morton63(Vec3 u) {
    auto q = [](float f) { return uint64_t(fminf(fmaxf(f * 2097152.0f, 0.0f), 2097151.0f)); };
    return (expandBits21(q(u.x)) << 2) | (expandBits21(q(u.y)) << 1) | expandBits21(q(u.z));
}

STRATA_HD int clz32(uint32_t v) {
#if defined(__CUDA_ARCH__)
    return __clz(int(v));
#else
    return v ? __builtin_clz(v) : 32;
#endif
}
STRATA_HD int clz64(uint64_t v) {
#if defined(__CUDA_ARCH__)
    return __clzll((long long)v);
#else
    return v ? __builtin_clzll(v) : 64;
#endif
}

}  // namespace strata
