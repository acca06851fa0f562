// Helpers of the kd-tree tests: traversal against brute force, validation,
// and small meshes whose triangles lie in the planes median splits choose.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "accel/kdtree/kd_cpu_builder.h"
#include "accel/kdtree/kd_traverse.h"
#include "accel/kdtree/kd_validate.h"
#include "check/hit_compare.h"
#include "render/renderer.h"
#include "render/scene_view.h"
#include "lbvh_cases.h"  // geometryOf, boundsOf
#include "test_util.h"

namespace strata::test {

inline HitRecord kdClosest(const KdView& kd, const GeometryView& g, const Ray& ray) {
    float tmax = ray.tmax;
    uint32_t p = traverseKd<false>(kd, ray, tmax,
                                   [&](uint32_t prim, const Ray& r, float tm) { return intersectTri(g, prim, r, tm); });
    return p == ~0u ? kNoHit : packHit(tmax, p);
}

inline bool kdAny(const KdView& kd, const GeometryView& g, const Ray& ray) {
    float tmax = ray.tmax;
    return traverseKd<true>(kd, ray, tmax,
                            [&](uint32_t prim, const Ray& r, float tm) { return intersectTri(g, prim, r, tm); }) != ~0u;
}

// Same closest hit: both miss, or the same triangle, or a tie in distance.
// (check/hit_compare.h's rule; the kd-tree and brute force run the same
// triangle test on the same machine: a tenth of the default tolerance.)
inline ::testing::AssertionResult matchesHit(HitRecord a, HitRecord b) {
    if (strata::sameHit(a, b, 0.1f * kHitDistanceTolerance)) return ::testing::AssertionSuccess();
    if (isHit(a) != isHit(b)) return ::testing::AssertionFailure() << "hit " << isHit(a) << " vs " << isHit(b);
    return ::testing::AssertionFailure() << "tri " << hitPayload(a) << " t=" << hitDistance(a) << " vs tri "
                                         << hitPayload(b) << " t=" << hitDistance(b);
}

inline Mesh fromTriangles(const std::vector<Vec3>& corners) {
    Mesh m;
    for (size_t i = 0; i + 2 < corners.size(); i += 3) {
        for (int k = 0; k < 3; ++k) m.positions.push_back(corners[i + k]);
        uint32_t b = uint32_t(i);
        m.triangles.push_back(Tri{{b, b + 1, b + 2}});
    }
    m.triMaterial.assign(m.triangles.size(), 0);
    return m;
}

// Axis-aligned boxes on a 1/8 grid: many triangles lie exactly in the planes
// the median splits choose (0.5, 0.25, ...).
inline Mesh makeGridBoxes(int perAxis) {
    std::vector<Vec3> c;
    const float s = 1.0f / perAxis;
    auto quad = [&](Vec3 o, Vec3 u, Vec3 v) { c.insert(c.end(), {o, o + u, o + u + v, o, o + u + v, o + v}); };
    for (int i = 0; i < perAxis; ++i)
        for (int j = 0; j < perAxis; ++j)
            for (int k = 0; k < perAxis; ++k) {
                if ((i + j + k) % 2) continue;
                Vec3 lo{i * s, j * s, k * s};
                Vec3 X{s * 0.5f, 0, 0}, Y{0, s * 0.5f, 0}, Z{0, 0, s * 0.5f};
                quad(lo, X, Y), quad(lo + Z, X, Y), quad(lo, X, Z), quad(lo + Y, X, Z), quad(lo, Y, Z),
                    quad(lo + X, Y, Z);
            }
    return fromTriangles(c);
}

inline Mesh scaled(Mesh m, float s, Vec3 offset = {}) {
    for (Vec3& p : m.positions) p = p * s + offset;
    return m;
}

inline KdReport check(const Mesh& m, const HostKdTree& kd) {
    return validateKdTree(kd.view(), m.positions, m.triangles);
}

inline Ray randomRay(std::mt19937& rng, float scale = 1.0f) {
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    Ray r;
    r.org = (Vec3{u(rng), u(rng), u(rng)} * 1.4f - make3(0.2f)) * scale;
    r.dir = normalize(Vec3{u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f});
    return r;
}

inline void expectTracesMatch(const Mesh& m, const HostKdTree& kd, const std::vector<Ray>& rays) {
    GeometryView g = geometryOf(m);
    int bad = 0;
    for (size_t i = 0; i < rays.size() && bad < 5; ++i) {
        HitRecord ref = traceBruteForce(g, rays[i]);
        auto same = matchesHit(kdClosest(kd.view(), g, rays[i]), ref);
        EXPECT_TRUE(same) << "ray " << i;
        bool any = kdAny(kd.view(), g, rays[i]);
        EXPECT_EQ(any, isHit(ref)) << "ray " << i;
        bad += !same || any != isHit(ref);
    }
}

// Geometry as real models have it (test_kdtree_real.cpp, and the GPU tests).

inline void append(Mesh& m, const Mesh& other) {
    const uint32_t base = uint32_t(m.positions.size());
    m.positions.insert(m.positions.end(), other.positions.begin(), other.positions.end());
    for (Tri t : other.triangles) m.triangles.push_back(Tri{{t.v[0] + base, t.v[1] + base, t.v[2] + base}});
    m.triMaterial.assign(m.triangles.size(), 0);
}

// A dense cluster of small triangles in one corner and a few long thin
// triangles from the cluster to the far corner: every median split of the
// triangles' box leaves one child all of them while its cell shrinks to the
// cluster (the Conference room's chairs gave a leaf of 108,816 triangles).
inline Mesh clusterWithLongTriangles(uint32_t clusterTris, uint32_t longTris) {
    Mesh m = scaled(makeRandomTriangles(clusterTris, 0.01f, 5), 0.05f);
    std::mt19937 rng(9);
    std::uniform_real_distribution<float> u(0.0f, 0.05f);
    std::vector<Vec3> c;
    for (uint32_t i = 0; i < longTris; ++i) {
        const Vec3 a{u(rng), u(rng), u(rng)};
        c.insert(c.end(), {a, Vec3{1.0f, 1.0f, 1.0f} - Vec3{u(rng), u(rng), u(rng)}, a + Vec3{0.002f, 0, 0}});
    }
    append(m, fromTriangles(c));
    return m;
}

// Long thin triangles (1000:1) in every direction.
inline Mesh slivers(uint32_t n) {
    std::mt19937 rng(17);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    std::vector<Vec3> c;
    for (uint32_t i = 0; i < n; ++i) {
        const Vec3 a{u(rng), u(rng), u(rng)};
        const Vec3 d = normalize(Vec3{u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f}) * 0.3f;
        const Vec3 side = normalize(cross(d, Vec3{0.3f, 0.7f, 0.2f})) * 3e-4f;
        c.insert(c.end(), {a, a + d, a + side});
    }
    return fromTriangles(c);
}

// The six walls of the unit box as grids of coplanar quads, and a fan of
// triangles around one vertex on the floor.
inline Mesh wallsAndFan(int grid, int fan) {
    std::vector<Vec3> c;
    const float s = 1.0f / float(grid);
    for (int axis = 0; axis < 3; ++axis)
        for (int side = 0; side < 2; ++side)
            for (int i = 0; i < grid; ++i)
                for (int j = 0; j < grid; ++j) {
                    auto at = [&](float x, float y) {
                        Vec3 p;
                        p[axis] = float(side);
                        p[(axis + 1) % 3] = x;
                        p[(axis + 2) % 3] = y;
                        return p;
                    };
                    const float x = float(i) * s, y = float(j) * s;
                    c.insert(c.end(),
                             {at(x, y), at(x + s, y), at(x + s, y + s), at(x, y), at(x + s, y + s), at(x, y + s)});
                }
    const Vec3 centre{0.5f, 0.001f, 0.5f};
    for (int k = 0; k < fan; ++k) {
        const float a0 = 6.2831853f * float(k) / float(fan), a1 = 6.2831853f * float(k + 1) / float(fan);
        c.insert(c.end(), {centre, centre + Vec3{0.3f * std::cos(a0), 0, 0.3f * std::sin(a0)},
                           centre + Vec3{0.3f * std::cos(a1), 0, 0.3f * std::sin(a1)}});
    }
    return fromTriangles(c);
}

// A quarter fan of n triangles around one apex (a vertex shared by more
// triangles than a small node holds).
inline Mesh quarterFan(uint32_t n) {
    Mesh m;
    m.positions.push_back(Vec3{0.1f, 0.1f, 0.5f});
    for (uint32_t i = 0; i <= n; ++i) {
        const float t = 1.5707963f * float(i) / float(n);
        m.positions.push_back(
            Vec3{0.1f + 0.8f * std::cos(t), 0.1f + 0.8f * std::sin(t), 0.5f + 0.2f * std::sin(3 * t)});
    }
    for (uint32_t i = 0; i < n; ++i) m.triangles.push_back(Tri{{0, 1 + i, 2 + i}});
    m.triMaterial.assign(m.triangles.size(), 0);
    return m;
}

}  // namespace strata::test
