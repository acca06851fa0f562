// render/scene_view.h — everything the integrator reads, as raw pointers into
// host memory (CPU backend) or device memory (CUDA backend), plus the
// primitive-level trace functions over the flat triangle BVH.
#pragma once

#include "accel/bvh_traverse.h"
#include "accel/stackless_traverse.h"
#include "accel/kdtree/kd_traverse.h"
#include "accel/toplevel/two_level.h"
#include "accel/wide/cwbvh_traverse.h"
#include "accel/triangle.h"
#include "core/texture.h"
#include "render/lights.h"
#include "render/vd_view.h"
#include "scene/scene.h"

namespace strata {

struct GeometryView {
    const Vec3* pos = nullptr;  // world space (flat mode)
    const Vec3* nrm = nullptr;  // world space per-vertex normals, or nullptr
    const Vec2* uv = nullptr;   // or nullptr
    const Tri* tris = nullptr;
    const int32_t* triMaterial = nullptr;
    uint32_t numTris = 0;
};

struct CameraView {
    Vec3 position, forward, right, up;  // right/up scaled by tan(fov/2) and aspect
};

struct SceneView {
    GeometryView geo;
    const Material* materials = nullptr;
    const TextureView* textures = nullptr;
    EnvView env;
    SunView sun;
    EmissiveView emissive;
    BvhView bvh;
    KdView kd;        // traced instead of bvh when it has nodes (accel.builder = kdtree)
    CwbvhView wide;   // bvh collapsed 8 wide: traced instead of it when it has nodes (accel.width = 8)
    VdView vd;        // VD patches traced directly (numPatches 0: none)
    TwoLevelView tl;  // instanced mode: traced instead of bvh when it has instances
    CameraView camera;
};

STRATA_HD float intersectTri(const GeometryView& g, uint32_t prim, const Ray& ray, float tmax) {
    Tri t = g.tris[prim];
    TriHit h;
    return intersectTriangle(ray, g.pos[t.v[0]], g.pos[t.v[1]], g.pos[t.v[2]], tmax, h) ? h.t : 3.0e38f;
}

// The structure a view is traced with. The GPU's trace kernels are compiled
// once per kind (one traversal each: a kernel holding them all needed 82
// registers where the flat stack one needs 54 and the stackless 41, and flat
// frames were 20% slower for it); host code dispatches at run time.
// Flat mode has two: the ordered stack traversal, and the stackless one over
// skip links where s.bvh.traversal asks for it and the view has them.
// Instanced mode has two: BVH BLASes, or kd-tree BLASes (accel.builder kdtree).
// Wide: flat mode's BVH collapsed 8 wide (accel.width = 8).
enum class TraceKind { Bvh, BvhStackless, Kd, TwoLevel, TwoLevelKd, Wide };
STRATA_HD TraceKind traceKindOf(const SceneView& s) {
    if (s.kd.numNodes) return TraceKind::Kd;
    if (s.wide.numNodes) return TraceKind::Wide;
    if (s.tl.numInstances) return s.tl.kdBlas ? TraceKind::TwoLevelKd : TraceKind::TwoLevel;
    return s.bvh.traversal == BvhTraversal::Stackless && s.bvh.skipNodes ? TraceKind::BvhStackless : TraceKind::Bvh;
}
// The kinds whose triangles' structure is a binary BVH (it can hold the VD
// patch boxes: vd.middle_level unified), and those through instances.
STRATA_HD constexpr bool isBvhKind(TraceKind k) {
    return k == TraceKind::Bvh || k == TraceKind::BvhStackless || k == TraceKind::TwoLevel;
}
STRATA_HD constexpr bool isTwoLevelKind(TraceKind k) { return k == TraceKind::TwoLevel || k == TraceKind::TwoLevelKd; }

// Calls f(TraceKindTag<K>{}) for the kind k: one switch for every place that
// picks a compiled-per-kind function or kernel at run time.
template <TraceKind K>
struct TraceKindTag {
    static constexpr TraceKind value = K;
};
template <class F>
STRATA_HD auto withTraceKind(TraceKind k, F&& f) {
    switch (k) {
        case TraceKind::Kd: return f(TraceKindTag<TraceKind::Kd>{});
        case TraceKind::TwoLevel: return f(TraceKindTag<TraceKind::TwoLevel>{});
        case TraceKind::TwoLevelKd: return f(TraceKindTag<TraceKind::TwoLevelKd>{});
        case TraceKind::BvhStackless: return f(TraceKindTag<TraceKind::BvhStackless>{});
        case TraceKind::Wide: return f(TraceKindTag<TraceKind::Wide>{});
        default: return f(TraceKindTag<TraceKind::Bvh>{});
    }
}

// The traversal of kind K. MixedPrims (vd.middle_level unified, s.vd.fused):
// the tree's primitives past the triangles are patch boxes, which only the
// fused traces below visit (a compare per primitive the frame's own trace
// kernels do without).
template <TraceKind K, bool AnyHit, bool MixedPrims = false>
STRATA_HD uint32_t traceTrianglesAs(const SceneView& s, const Ray& ray, float& tmax, TraversalStats* stats) {
    const GeometryView& g = s.geo;
    auto tri = [&](uint32_t p, const Ray& r, float tm) {
        return !MixedPrims || p < g.numTris ? intersectTri(g, p, r, tm) : 3.0e38f;
    };
    if constexpr (K == TraceKind::Kd)
        return traverseKd<AnyHit>(s.kd, ray, tmax, tri, stats);
    else if constexpr (K == TraceKind::TwoLevel)
        return traverseTwoLevel<AnyHit, MixedPrims>(s.tl, ray, tmax, stats);
    else if constexpr (K == TraceKind::TwoLevelKd)
        return traverseTwoLevel<AnyHit, false, true>(s.tl, ray, tmax, stats);
    else if constexpr (K == TraceKind::BvhStackless)
        return traverseStackless<AnyHit>(s.bvh.skipNodes, s.bvh.numSkipNodes, ray, tmax, tri, stats);
    else if constexpr (K == TraceKind::Wide)
        return traverseCwbvh<AnyHit>(s.wide, ray, tmax, tri, stats);
    else
        return traverseBvh<AnyHit>(s.bvh, ray, tmax, tri, stats);
}

// The camera ray through the image point (x, y), both in [0, 1], y down:
// the path tracer's camera rays (stageGenerate, jittered in the pixel) and
// the pixel-centre rays of the heatmap and the filter's G-buffer.
STRATA_HD Ray cameraRay(const CameraView& c, float x, float y) {
    Ray r;
    r.org = c.position;
    r.dir = normalize(c.forward + c.right * (2.0f * x - 1.0f) + c.up * (1.0f - 2.0f * y));
    r.tmin = 0.0f;
    r.tmax = 1e30f;
    return r;
}
STRATA_HD Ray pixelCentreRay(const CameraView& c, uint32_t width, uint32_t height, uint32_t pixel) {
    return cameraRay(c, (float(pixel % width) + 0.5f) / float(width), (float(pixel / width) + 0.5f) / float(height));
}

// Closest hit as a 64-bit record (distance bits high, triangle id low).
template <TraceKind K, bool MixedPrims = false>
STRATA_HD HitRecord traceClosestAs(const SceneView& s, const Ray& ray, TraversalStats* stats = nullptr) {
    float tmax = ray.tmax;
    uint32_t prim = traceTrianglesAs<K, false, MixedPrims>(s, ray, tmax, stats);
    return prim == ~0u ? kNoHit : packHit(tmax, prim);
}
template <TraceKind K, bool MixedPrims = false>
STRATA_HD bool traceAnyAs(const SceneView& s, const Ray& ray, TraversalStats* stats = nullptr) {
    float tmax = ray.tmax;
    return traceTrianglesAs<K, true, MixedPrims>(s, ray, tmax, stats) != ~0u;
}
// Closest hit of kind K in whatever tree s holds (the heatmap, the filter's
// G-buffer): with the patch boxes in it too where s.vd.fused.
template <TraceKind K>
STRATA_HD HitRecord traceClosestAnyTreeAs(const SceneView& s, const Ray& ray, TraversalStats* stats = nullptr) {
    return s.vd.fused ? traceClosestAs<K, true>(s, ray, stats) : traceClosestAs<K>(s, ray, stats);
}

// vd.middle_level unified (Harada's §1.3, §1.5.3): one traversal of the
// triangles' tree that holds the patch boxes too (K: Bvh or BvhStackless,
// flat; TwoLevel: through the instances, each VD mesh's BLAS holding its
// patches' boxes) intersects the triangles and appends a (patch, ray) pair
// for each patch box it enters within the closest hit so far; AnyHit stops
// at the first triangle. Returns the closest (any) flat triangle, or ~0u.
template <TraceKind K, bool AnyHit>
STRATA_HD uint32_t traceFusedAs(const SceneView& s, const Ray& ray, float& tmax, uint32_t slot) {
    static_assert(isBvhKind(K), "the unified middle level is a BVH");
    VdPairBatch batch;
    uint32_t hit;
    if constexpr (K == TraceKind::TwoLevel) {
        auto visit = [&](const InstanceView& inst, const BlasView& b, uint32_t p, const Ray& r, float tm) {
            if (p >= b.firstBox) return vdVisitBox(s.vd, batch, inst.patchBase, p - b.firstBox, r, tm, slot);
            TriHit h;
            return intersectBlasTri(b, p, r, tm, h) ? h.t : 3.0e38f;
        };
        uint32_t local = ~0u;  // the hit's local triangle, from the BLAS's walk
        const uint32_t inst = traverseInstances<AnyHit>(s.tl, ray, tmax, visit, nullptr, &local);
        hit = inst == ~0u ? ~0u : s.tl.instances[inst].triBase + local;
    } else {
        const GeometryView& g = s.geo;
        auto prim = [&](uint32_t p, const Ray& r, float tm) {
            return p < g.numTris ? intersectTri(g, p, r, tm)
                                 : vdVisitBox(s.vd, batch, 0, p - s.vd.boxBase, r, tm, slot);
        };
        if constexpr (K == TraceKind::BvhStackless)
            hit = traverseStackless<AnyHit>(s.bvh.skipNodes, s.bvh.numSkipNodes, ray, tmax, prim, nullptr);
        else
            hit = traverseBvh<AnyHit>(s.bvh, ray, tmax, prim, nullptr);
    }
    batch.flush(s.vd, slot);
    return hit;
}

// vd.middle_level unified: the view's VD pairs come from the triangles' own
// structure, flat or instanced, which holds the patch boxes.
inline void vdUseUnifiedMiddle(SceneView& sv) {
    if (sv.tl.numInstances)
        vdUseUnifiedMiddle(sv.vd, sv.tl);
    else
        vdUseUnifiedMiddle(sv.vd, sv.bvh, sv.geo.numTris);
}

// The same, with the kind chosen at run time.
STRATA_HD HitRecord traceClosest(const SceneView& s, const Ray& ray, TraversalStats* stats = nullptr) {
    return withTraceKind(traceKindOf(s),
                         [&](auto k) { return traceClosestAnyTreeAs<decltype(k)::value>(s, ray, stats); });
}
STRATA_HD bool traceAny(const SceneView& s, const Ray& ray, TraversalStats* stats = nullptr) {
    return withTraceKind(traceKindOf(s), [&](auto k) {
        constexpr TraceKind K = decltype(k)::value;
        return s.vd.fused ? traceAnyAs<K, true>(s, ray, stats) : traceAnyAs<K>(s, ray, stats);
    });
}

// Brute force over all triangles: the oracle of the tests.
STRATA_HD HitRecord traceBruteForce(const GeometryView& g, const Ray& ray) {
    float tmax = ray.tmax;
    uint32_t best = ~0u;
    for (uint32_t p = 0; p < g.numTris; ++p) {
        float t = intersectTri(g, p, ray, tmax);
        if (t < tmax) {
            tmax = t;
            best = p;
        }
    }
    return best == ~0u ? kNoHit : packHit(tmax, best);
}

}  // namespace strata
