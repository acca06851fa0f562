// check/hit_compare.h — the one rule for "the same closest hit", used by
// validate, soak, kdtable and the tests: both miss, or both hit the same
// primitive, or both hit at the same distance within a relative tolerance
// (coincident triangles tie; two traversals that call the same triangle test
// agree exactly, and their tests ask for tolerance 0).
#pragma once

#include <algorithm>
#include <cmath>

#include "core/ray.h"

namespace strata {

// Distances of the same hit found by different code (a GPU's fused
// multiply-adds against the CPU's, object against world space) differ by
// rounding: 1e-5 of the distance (or of 1, near the origin).
constexpr float kHitDistanceTolerance = 1e-5f;

inline bool sameHit(HitRecord a, HitRecord b, float relativeTolerance = kHitDistanceTolerance) {
    if (isHit(a) != isHit(b)) return false;
    if (!isHit(a) || hitPayload(a) == hitPayload(b)) return true;
    const float ta = hitDistance(a), tb = hitDistance(b);
    return std::fabs(ta - tb) <= relativeTolerance * std::max(1.0f, std::fabs(tb));
}

}  // namespace strata
