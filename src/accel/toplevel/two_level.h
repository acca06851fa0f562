// accel/toplevel/two_level.h — instanced mode (accel.mode = instanced): a top-level
// BVH over the instances' world boxes, rebuilt every frame, whose leaves are
// instances; each instance points at a middle-level BVH (a "BLAS") over its
// mesh's triangles. A static mesh has one BLAS in object space shared by all
// its instances (built once); a deforming mesh's instance has its own BLAS
// over its posed world-space triangles (rebuilt every frame, identity
// transform). Triangle hits come back as flat triangle ids (the instance's
// base + the local id), so shading is the same as in flat mode.
//
// VD patches (vd.mode direct) have a hierarchy of the same shape beside it:
// one object-space BLAS per VD mesh over its patches' loose boxes and a top
// level over the instances of VD meshes; the pair generation
// (render/vd_view.h) walks it, a leaf k of an instance being its patch
// patchBase + k.
//
// vd.middle_level unified (Harada's one middle level, §1.3) puts a VD mesh's
// patch boxes in its triangles' BLAS instead: local primitives from
// BlasView::firstBox on are boxes (of patch patchBase + (k - firstBox), or of
// its quadrants with vd.pair_cull), and one top level holds every instance.
//
// With accel.builder = kdtree the BLASes over triangles are kd-trees (the
// same builders as flat mode's, per mesh or per deforming instance;
// BlasView::kd), under a BVH top level: TwoLevelView::kdBlas, walked by
// traverseInstances<AnyHit, true>.
#pragma once

#include "accel/bvh_traverse.h"
#include "accel/kdtree/kd_traverse.h"
#include "accel/stackless_traverse.h"
#include "accel/toplevel/top_walk.h"
#include "accel/triangle.h"
#include "core/transform.h"
#include "core/geometry.h"

namespace strata {

struct BlasView {
    BvhView bvh;                // over local triangles 0..n-1 (or a VD mesh's patches)
    KdView kd;                  // or a kd-tree over them (TwoLevelView::kdBlas)
    const Vec3* pos = nullptr;  // what the triangles index: object space, or world space
    const Tri* tris = nullptr;  // local triangle i is tris[i]
    uint32_t firstBox = ~0u;    // vd.middle_level unified: local primitives from here on are VD patch boxes
};

struct InstanceView {
    Affine objectFromWorld;  // identity for a world-space BLAS
    uint32_t blas = 0;
    uint32_t triBase = 0;    // flat id of the instance's local triangle 0
    uint32_t patchBase = 0;  // flat id (FlatScene::patches) of the instance's patch 0
};

struct TwoLevelView {
    BvhView top;  // leaf primitive = instance
    const InstanceView* instances = nullptr;
    const BlasView* blas = nullptr;
    uint32_t numInstances = 0;  // 0: flat mode
    bool kdBlas = false;        // the BLASes are kd-trees (accel.builder = kdtree)
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

// Both levels with a primitive callback:
//   float visit(const InstanceView&, const BlasView&, uint32_t local, const Ray& objectRay, float tmax)
// (a distance < tmax accepts a hit, anything else is a miss). Returns the top
// level's hit instance or ~0u; tmax shrinks to the hit, and *hitLocal (when
// given) to the hit's local primitive. A BLAS with copied triangles
// (BvhView::leafTris) tests them itself, without visit. KdBlas: the BLASes
// are kd-trees (compiled apart, as flat mode's kinds are). The top level's
// entries come from TopLevelWalk, in traverseBvh's order, and each one's
// BLAS is walked here, from one place in the loop.
template <bool AnyHit, bool KdBlas = false, class Visit>
STRATA_HD uint32_t traverseInstances(const TwoLevelView& tl, const Ray& ray, float& tmax, Visit visit,
                                     TraversalStats* stats, uint32_t* hitLocal = nullptr) {
    uint32_t hitInstance = ~0u;
    TopLevelWalk::Stack stack;
    TopLevelWalk walk(tl.top, ray, stack);
    for (uint32_t i; (i = walk.next(tmax, stats)) != ~0u;) {
        if (stats) stats->blasEntries++;
        const InstanceView& inst = tl.instances[i];
        // A copy: walked through a reference into global memory, the BLAS's
        // node and triangle pointers were loaded again at every node and
        // every leaf triangle (SASS), each a load before the node's own.
        const BlasView b = tl.blas[inst.blas];
        const Ray o = objectRay(inst.objectFromWorld, ray);
        auto prim = [&](uint32_t p, const Ray& rr, float tmx) { return visit(inst, b, p, rr, tmx); };
        float t = tmax;
        uint32_t local;
        if constexpr (KdBlas)
            local = traverseKd<AnyHit>(b.kd, o, t, prim, stats);
        else
            local = traverseView<AnyHit>(b.bvh, o, t, prim, stats);
        if (local == ~0u) continue;
        tmax = t;  // each accepted hit is closer than the last
        hitInstance = i;
        if (hitLocal) *hitLocal = local;
        if constexpr (AnyHit) break;
    }
    return hitInstance;
}

// A BLAS's local triangle p: whether the ray meets it before tmax (h: where).
STRATA_HD bool intersectBlasTri(const BlasView& b, uint32_t p, const Ray& r, float tmax, TriHit& h) {
    Tri t = b.tris[p];
    return intersectTriangle(r, b.pos[t.v[0]], b.pos[t.v[1]], b.pos[t.v[2]], tmax, h);
}

// Closest (or any) triangle through both levels; returns the flat triangle id
// or ~0u, tmax shrinks to the hit. MixedPrims (vd.middle_level unified): the
// BLASes' primitives from firstBox on are patch boxes, passed here (a compare
// per primitive the frame's own trace kernels do without).
template <bool AnyHit, bool MixedPrims = false, bool KdBlas = false>
STRATA_HD uint32_t traverseTwoLevel(const TwoLevelView& tl, const Ray& ray, float& tmax, TraversalStats* stats) {
    auto tri = [&](const InstanceView&, const BlasView& b, uint32_t p, const Ray& r, float tmx) {
        if (MixedPrims && p >= b.firstBox) return 3.0e38f;
        TriHit h;
        return intersectBlasTri(b, p, r, tmx, h) ? h.t : 3.0e38f;
    };
    uint32_t local = ~0u;
    const uint32_t hit = traverseInstances<AnyHit, KdBlas>(tl, ray, tmax, tri, stats, &local);
    return hit == ~0u ? ~0u : tl.instances[hit].triBase + local;
}

}  // namespace strata
