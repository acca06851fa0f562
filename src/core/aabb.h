// core/aabb.h — axis-aligned boxes and the ray/box slab test.
#pragma once

#include <cfloat>

#include "core/vec.h"

namespace strata {

struct Aabb {
    Vec3 lo{FLT_MAX, FLT_MAX, FLT_MAX};
    Vec3 hi{-FLT_MAX, -FLT_MAX, -FLT_MAX};

    STRATA_HD static Aabb empty() { return Aabb{}; }
    STRATA_HD bool isEmpty() const { return lo.x > hi.x || lo.y > hi.y || lo.z > hi.z; }
    STRATA_HD void grow(Vec3 p) {
        lo = vmin(lo, p);
        hi = vmax(hi, p);
    }
    STRATA_HD void grow(const Aabb& b) {
        lo = vmin(lo, b.lo);
        hi = vmax(hi, b.hi);
    }
    STRATA_HD Vec3 center() const { return (lo + hi) * 0.5f; }
    STRATA_HD Vec3 extent() const { return hi - lo; }
    STRATA_HD float area() const {
        if (isEmpty()) return 0.0f;
        Vec3 e = extent();
        return 2.0f * (e.x * e.y + e.y * e.z + e.z * e.x);
    }
    STRATA_HD bool contains(const Aabb& b) const {
        return b.lo.x >= lo.x && b.lo.y >= lo.y && b.lo.z >= lo.z && b.hi.x <= hi.x && b.hi.y <= hi.y && b.hi.z <= hi.z;
    }
    STRATA_HD int longestAxis() const {
        Vec3 e = extent();
        return (e.x >= e.y && e.x >= e.z) ? 0 : (e.y >= e.z ? 1 : 2);
    }
};

STRATA_HD Aabb merge(const Aabb& a, const Aabb& b) {
    Aabb r;
    r.lo = vmin(a.lo, b.lo);
    r.hi = vmax(a.hi, b.hi);
    return r;
}

// What lies in both boxes (empty, lo > hi on some axis, where they are apart).
STRATA_HD Aabb intersection(const Aabb& a, const Aabb& b) { return Aabb{vmax(a.lo, b.lo), vmin(a.hi, b.hi)}; }

}  // namespace strata
