// accel/two_level.h — instanced mode (accel.mode = instanced): a top-level
// BVH over the instances' world boxes, rebuilt every frame, whose leaves are
// instances; each instance points at a middle-level BVH (a "BLAS") over its
// mesh's triangles. A static mesh has one BLAS in object space shared by all
// its instances (built once); a deforming mesh's instance has its own BLAS
// over its posed world-space triangles (rebuilt every frame, identity
// transform). Triangle hits come back as flat triangle ids (the instance's
// base + the local id), so shading is the same as in flat mode.
#pragma once

#include "accel/bvh_traverse.h"
#include "accel/stackless_traverse.h"
#include "accel/triangle.h"
#include "core/transform.h"
#include "scene/scene.h"

namespace strata {

struct BlasView {
    BvhView bvh;              // over local triangles 0..n-1
    const Vec3* pos = nullptr;  // what the triangles index: object space, or world space
    const Tri* tris = nullptr;  // local triangle i is tris[i]
};

struct InstanceView {
    Affine objectFromWorld;  // identity for a world-space BLAS
    uint32_t blas = 0;
    uint32_t triBase = 0;    // flat id of the instance's local triangle 0
};

struct TwoLevelView {
    BvhView top;  // leaf primitive = instance
    const InstanceView* instances = nullptr;
    const BlasView* blas = nullptr;
    uint32_t numInstances = 0;  // 0: flat mode
};

STRATA_HD Ray objectRay(const Affine& m, const Ray& r) {
    Ray o = r;
    o.org = m.point(r.org);
    o.dir = m.vector(r.dir);  // not renormalized: t means the same on both sides
    return o;
}

// The traversal a view selects: stackless over skip links when it has them.
template <bool AnyHit, class Intersect>
STRATA_HD uint32_t traverseView(const BvhView& v, const Ray& ray, float& tmax, Intersect intersect,
                                TraversalStats* stats) {
    if (v.traversal == BvhTraversal::Stackless && v.skipNodes)
        return traverseStackless<AnyHit>(v.skipNodes, v.numSkipNodes, ray, tmax, intersect, stats);
    return traverseBvh<AnyHit>(v, ray, tmax, intersect, stats);
}

// Closest (or any) triangle through both levels; returns the flat triangle id
// or ~0u, tmax shrinks to the hit.
template <bool AnyHit>
STRATA_HD uint32_t traverseTwoLevel(const TwoLevelView& tl, const Ray& ray, float& tmax, TraversalStats* stats) {
    uint32_t flatId = ~0u;
    auto instance = [&](uint32_t i, const Ray& r, float tm) -> float {
        const InstanceView& inst = tl.instances[i];
        const BlasView& b = tl.blas[inst.blas];
        const Ray o = objectRay(inst.objectFromWorld, r);
        auto tri = [&](uint32_t p, const Ray& rr, float tmx) {
            Tri t = b.tris[p];
            TriHit h;
            return intersectTriangle(rr, b.pos[t.v[0]], b.pos[t.v[1]], b.pos[t.v[2]], tmx, h) ? h.t : 3.0e38f;
        };
        float t = tm;
        uint32_t local = traverseView<AnyHit>(b.bvh, o, t, tri, stats);
        if (local == ~0u) return 3.0e38f;
        flatId = inst.triBase + local;  // each accepted hit is closer than the last
        return t;
    };
    uint32_t hit = traverseBvh<AnyHit>(tl.top, ray, tmax, instance, stats);
    return hit == ~0u ? ~0u : flatId;
}

}  // namespace strata
