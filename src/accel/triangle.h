// accel/triangle.h — ray/triangle intersection (Möller & Trumbore 1997).
#pragma once

#include "core/ray.h"
#include "core/vec.h"

namespace strata {

struct TriHit {
    float t, u, v;  // barycentrics: p = (1-u-v) p0 + u p1 + v p2
};

// The test below with the edges e1 = p1 - p0 and e2 = p2 - p0 given (the
// copied leaf triangles store them: the same floats).
STRATA_HD bool intersectTriangleEdges(const Ray& ray, Vec3 p0, Vec3 e1, Vec3 e2, float tmax, TriHit& hit) {
    Vec3 pv = cross(ray.dir, e2);
    float det = dot(e1, pv);
    if (fabsf(det) < 1e-20f) return false;
    float inv = 1.0f / det;
    Vec3 tv = ray.org - p0;
    float u = dot(tv, pv) * inv;
    if (u < 0.0f || u > 1.0f) return false;
    Vec3 qv = cross(tv, e1);
    float v = dot(ray.dir, qv) * inv;
    if (v < 0.0f || u + v > 1.0f) return false;
    float t = dot(e2, qv) * inv;
    if (!(t > ray.tmin && t < tmax)) return false;
    hit = {t, u, v};
    return true;
}

// Returns true and fills hit when the ray hits the triangle at tmin < t < tmax.
STRATA_HD bool intersectTriangle(const Ray& ray, Vec3 p0, Vec3 p1, Vec3 p2, float tmax, TriHit& hit) {
    return intersectTriangleEdges(ray, p0, p1 - p0, p2 - p0, tmax, hit);
}

}  // namespace strata

namespace strata {

// Barycentrics of the point where the ray meets the triangle's plane, without
// range tests: used to recover (u, v) for a hit found by the traversal.
STRATA_HD Vec2 triangleBarycentrics(const Ray& ray, Vec3 p0, Vec3 p1, Vec3 p2) {
    Vec3 e1 = p1 - p0, e2 = p2 - p0;
    Vec3 pv = cross(ray.dir, e2);
    float det = dot(e1, pv);
    float inv = fabsf(det) > 1e-30f ? 1.0f / det : 0.0f;
    Vec3 tv = ray.org - p0;
    Vec3 qv = cross(tv, e1);
    return {dot(tv, pv) * inv, dot(ray.dir, qv) * inv};
}

}  // namespace strata
