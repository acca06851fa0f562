// render/sampling.h — warps from the unit square and their densities.
#pragma once

#include "core/vec.h"

namespace strata {

// Cosine-weighted hemisphere around +Z (local frame); pdf = cos / pi.
STRATA_HD Vec3 sampleCosineHemisphere(float u1, float u2) {
    float r = sqrtf(u1), phi = 2.0f * kPi * u2;
    return {r * cosf(phi), r * sinf(phi), sqrtf(fmaxf(0.0f, 1.0f - u1))};
}

// Uniform point on a triangle: barycentrics (b1, b2), Heitz 2019's low-distortion map.
STRATA_HD Vec2 sampleTriangle(float u1, float u2) {
    float b0, b1;
    if (u2 > u1) {
        b0 = u1 * 0.5f;
        b1 = u2 - b0;
    } else {
        b1 = u2 * 0.5f;
        b0 = u1 - b1;
    }
    return {b0, b1};
}

STRATA_HD float powerHeuristic(float a, float b) {
    float a2 = a * a, b2 = b * b;
    return a2 + b2 > 0.0f ? a2 / (a2 + b2) : 0.0f;
}

// Index of the first cdf entry > u (cdf ascending, last entry 1). Binary search.
STRATA_HD uint32_t sampleCdf(const float* cdf, uint32_t n, float u) {
    uint32_t lo = 0, hi = n - 1;
    while (lo < hi) {
        uint32_t mid = (lo + hi) >> 1;
        if (cdf[mid] > u)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

}  // namespace strata
