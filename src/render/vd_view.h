// render/vd_view.h — what the trace and shade stages read of the VD patches
// (vd.mode direct), host or device pointers, and the per-ray parts of
// Harada's pipeline that both backends share:
//   1. trace (top+middle): after the triangles, every patch whose box the ray
//      enters within its current hit distance becomes a (patch, ray) pair
//      (vd.pair_cull: a box of one of its quadrants and then of one of that
//      quadrant's sixteenths);
//   2. the pairs are sorted by patch (the backend's sort);
//   3. per patch: a level from the rays' pixel footprints (vd.lod), the
//      patch's quad BVH built at that level, every ray traversed (closest
//      hits by a 64-bit atomicMin of distance | VD payload; shadow rays set a
//      blocked flag);
//   4. shade: a VD payload's surface is re-intersected in its cell for the
//      barycentrics, normal and uv (vd.leaf box: the cell's node normal and
//      uv, computed again from its four vertices).
#pragma once

#include "accel/bvh_traverse.h"
#include "accel/toplevel/two_level.h"
#include "accel/vd/vd_bvh.h"
#include "core/options.h"
#include "core/transform.h"

namespace strata {

// Hit payloads: triangles are ids < 2^31; a VD hit sets the top bit and packs
// the hit leaf's cell (its Morton index within the level: 14 bits at level
// 7) and the patch (17 bits). The level is the patch's this frame
// (VdView::patchLevel), so it needs no bits of its own.
constexpr uint32_t kVdHitFlag = 0x80000000u;
constexpr int kVdPatchBits = 17;
constexpr uint32_t kVdMaxPatches = 1u << kVdPatchBits;
static_assert(1 + kVdPatchBits + 2 * kVdMaxLevel <= 32, "a VD payload is 32 bits");
STRATA_HD bool isVdPayload(uint32_t payload) { return (payload & kVdHitFlag) != 0; }
STRATA_HD uint32_t vdPayload(uint32_t patch, uint32_t cell) { return kVdHitFlag | cell << kVdPatchBits | patch; }
STRATA_HD uint32_t vdPayloadPatch(uint32_t payload) { return payload & (kVdMaxPatches - 1u); }
STRATA_HD uint32_t vdPayloadCell(uint32_t payload) { return (payload & ~kVdHitFlag) >> kVdPatchBits; }

// A pair: patch in the high word (the sort key), ray slot in the low word.
using VdPair = unsigned long long;
STRATA_HD VdPair vdPair(uint32_t patch, uint32_t slot) { return (VdPair(patch) << 32) | slot; }

struct VdView {
    uint32_t numPatches = 0;
    const VdPatch* patches = nullptr;         // object space
    const uint32_t* patchInstance = nullptr;  // per patch: index into the transforms
    const Affine* objectFromWorld = nullptr;  // per instance, this frame
    const Affine* worldFromObject = nullptr;
    const TextureView* maps = nullptr;
    const uint32_t* links = nullptr;  // vdNodeCount(kVdMaxLevel) links
    // Per patch: the level this frame's first resolve that met it chose
    // (vdTracedLevel clamps it as the resolves do); 0 where none did.
    const int8_t* patchLevel = nullptr;
    // The middle level's primitives: each patch's loose box, or with
    // vd.pair_cull its four quadrants' boxes (vdCullBoxes: primitive k is
    // quadrant k & 3 of patch k >> 2) and, per patch, the kVdCullBoxes boxes
    // of their sixteenths (world space in flat mode, object space in
    // instanced mode) that a ray must meet too.
    const Aabb* sixteenths = nullptr;
    BvhView boxes;           // flat mode: BVH over the world boxes
    TwoLevelView instances;  // instanced mode: through the instances (accel/two_level.h), object boxes
    VdPair* pairs = nullptr;
    uint32_t* pairCount = nullptr;  // [0] appended, [1] dropped (buffer full)
    uint32_t pairCapacity = 0;
    // Level of detail: the cell should cover about one pixel's footprint.
    float pixelAngle = 0;  // radians per pixel (camera)
    float lodBias = 0;     // levels added to the footprint's
    int32_t maxLevel = 5;  // vd.max_level (each patch may cap it lower)
    // vd.lod camera: the footprint at the patch's distance from this point
    // (the camera, world space) for every ray, not at the ray's own distance.
    bool cameraLod = false;
    Vec3 camera{0, 0, 0};
    bool boxLeaves = false;  // vd.leaf box: a leaf's box is the surface (vdTraverse)
    // vd.middle_level unified: flat mode's `boxes` is the triangles' own
    // tree, whose primitives from boxBase on are the patches' boxes
    // (primitive boxBase + k: box k as above); instanced mode's `instances`
    // are the triangles', each VD mesh's BLAS holding its patches' boxes from
    // its firstBox on (two_level.h). The trace appends their pairs (fused).
    bool fused = false;
    uint32_t boxBase = 0;
};

// vd.middle_level unified applies: direct mode's patches in the triangles'
// BVH, flat or instanced (Options::unavailable refuses the kd-tree).
inline bool vdUnifiedMiddle(const Options& o, bool hasPatches) {
    return hasPatches && o.vd.mode == VdMode::Direct && o.vd.middle == VdMiddle::Unified &&
           o.accel.builder != Builder::KdTree;
}
// The view's pairs come from the triangles' tree (tree), whose primitives
// from numTris on are the patches' middle-level boxes.
inline void vdUseUnifiedMiddle(VdView& v, const BvhView& tree, uint32_t numTris) {
    v.boxes = tree;
    v.boxBase = numTris;
    v.fused = true;
}
// Instanced mode: from the triangles' two levels (tl), whose VD meshes'
// BLASes hold their patch boxes.
inline void vdUseUnifiedMiddle(VdView& v, const TwoLevelView& tl) {
    v.instances = tl;
    v.fused = true;
}

// The view's level of detail and leaves from the options (both backends);
// maxLevel: the trees' finest level this frame.
inline void vdViewOptions(VdView& v, const VdOptions& o, float pixelAngle, Vec3 camera, int maxLevel) {
    v.pixelAngle = pixelAngle;
    v.lodBias = o.lodBias;
    v.maxLevel = maxLevel;
    v.cameraLod = o.lod == VdLod::Camera;
    v.camera = camera;
    v.boxLeaves = o.leaf == VdLeaf::Box;
}

// The pair buffers: kVdStartPairsPerRay pairs per ray at first (at least
// kVdMinPairs); a resolve whose pairs do not fit grows them to hold those
// and a quarter more, and its pairs are appended again (pairsFit of
// VdHost and VdGpu), so no pair is ever dropped; the buffers keep the most
// any resolve needed.
constexpr uint32_t kVdStartPairsPerRay = 2, kVdMinPairs = 1u << 10;
inline size_t vdPairCapacity(size_t rays, uint32_t mostPairs) {
    const size_t most = size_t(mostPairs) + mostPairs / 4;
    const size_t want = rays * kVdStartPairsPerRay > most ? rays * kVdStartPairsPerRay : most;
    return want > kVdMinPairs ? (want < 0xffffffffu ? want : 0xffffffffu) : kVdMinPairs;
}

// Step 1 for one ray: the patches whose box (or one of whose cull boxes)
// the ray enters before tmax. Collected in registers and appended a batch at
// a time, so a ray takes its buffer space with one atomic per batch instead
// of one per pair.
constexpr int kVdPairBatch = 16;
STRATA_HD void vdFlushPairs(const VdView& v, const uint32_t* patch, int n, uint32_t slot) {
    if (n == 0) return;
    uint32_t k = atomicAddU32(&v.pairCount[0], uint32_t(n));
    for (int i = 0; i < n; ++i) {
        if (k + uint32_t(i) < v.pairCapacity)
            v.pairs[k + i] = vdPair(patch[i], slot);
        else
            atomicAddU32(&v.pairCount[1], 1u);
    }
}
// Flat mode: the tree over the world boxes, walked as the trace kernel walks
// the triangles' (Stackless: over its skip links; compiled per kernel, so
// the stack kernels carry no stackless walk). Instanced mode (ViaInstances,
// v.instances set): the instances of VD meshes, each with its mesh's
// object-space BLAS over the boxes; the object ray meets the patch's own.
// One ray's pairs on their way to the buffer, a batch at a time.
struct VdPairBatch {
    uint32_t patch[kVdPairBatch];
    int n = 0;
    uint32_t seen = 0;  // one bit per patch id mod 32 in the batch: most adds need no search
    STRATA_HD void add(const VdView& v, uint32_t p, uint32_t slot) {
        // A ray meets several quadrants of a patch: one pair for them all
        // while the batch holds it (a second pair, after a flush, only
        // costs a second walk of the patch's tree).
        const uint32_t bit = 1u << (p & 31u);
        if (seen & bit)
            for (int i = 0; i < n; ++i)
                if (patch[i] == p) return;
        seen |= bit;
        patch[n++] = p;
        if (n == kVdPairBatch) flush(v, slot);
    }
    STRATA_HD void flush(const VdView& v, uint32_t slot) {
        vdFlushPairs(v, patch, n, slot);
        n = 0;
        seen = 0;
    }
};
// A middle-level primitive k (of a patch base) the ray reaches within tm:
// the patch, or with the sixteenths a quadrant whose sixteenths the ray
// must meet too. Never a hit: the bottom level decides.
STRATA_HD float vdVisitBox(const VdView& v, VdPairBatch& batch, uint32_t base, uint32_t k, const Ray& ray, float tm,
                           uint32_t slot) {
    if (!v.sixteenths) {
        batch.add(v, base + k, slot);
        return 3.0e38f;
    }
    const uint32_t patch = base + (k >> kVdQuadrantShift);
    if (vdSixteenthsHit(v.sixteenths + kVdCullBoxes * size_t(patch) + 4 * (k & 3u), ray, tm)) batch.add(v, patch, slot);
    return 3.0e38f;
}
// Mixed (vd.middle_level unified): v.boxes is the triangles' tree, whose
// primitives below boxBase the walk passes (instanced: each BLAS's below its
// firstBox).
template <bool ViaInstances, bool Stackless = false, bool Mixed = false>
STRATA_HD void vdAppendPairsAs(const VdView& v, const Ray& ray, float tmax, uint32_t slot) {
    Ray r = ray;
    r.tmax = tmax;
    float t = tmax;
    VdPairBatch batch;
    if constexpr (ViaInstances) {
        auto patch = [&](const InstanceView& inst, const BlasView& b, uint32_t p, const Ray& o, float tm) {
            (void)b;
            if constexpr (Mixed) {
                if (p < b.firstBox) return 3.0e38f;
                p -= b.firstBox;
            }
            return vdVisitBox(v, batch, inst.patchBase, p, o, tm, slot);
        };
        traverseInstances<false>(v.instances, r, t, patch, nullptr);
    } else {
        auto box = [&](uint32_t p, const Ray& w, float tm) {
            if constexpr (Mixed) {
                if (p < v.boxBase) return 3.0e38f;
                p -= v.boxBase;
            }
            return vdVisitBox(v, batch, 0, p, w, tm, slot);
        };
        if (Stackless && v.boxes.skipNodes)
            traverseStackless<false>(v.boxes.skipNodes, v.boxes.numSkipNodes, r, t, box);
        else
            traverseBvh<false>(v.boxes, r, t, box, nullptr);
    }
    batch.flush(v, slot);
}
// The walk for the view: through the instances, over skip links, or a
// stack walk, of a tree of the patches' own or the triangles' (v.fused).
template <bool ViaInstances, bool Stackless>
STRATA_HD void vdAppendPairsIn(const VdView& v, const Ray& ray, float tmax, uint32_t slot) {
    if (v.fused)
        vdAppendPairsAs<ViaInstances, Stackless, true>(v, ray, tmax, slot);
    else
        vdAppendPairsAs<ViaInstances, Stackless>(v, ray, tmax, slot);
}
STRATA_HD void vdAppendPairs(const VdView& v, const Ray& ray, float tmax, uint32_t slot) {
    if (v.instances.numInstances)
        vdAppendPairsIn<true, false>(v, ray, tmax, slot);
    else if (v.boxes.traversal == BvhTraversal::Stackless)
        vdAppendPairsIn<false, true>(v, ray, tmax, slot);
    else
        vdAppendPairsIn<false, false>(v, ray, tmax, slot);
}

// The level a ray asks of a patch: cells about one pixel's footprint at the
// distance where the ray meets the patch's box (vd.lod camera: where the
// camera sees it, whatever the ray), clamped to the patch's levels.
STRATA_HD int vdRayLevel(const VdView& v, const VdPatch& p, const Affine& worldFromObject, const Ray& ray) {
    Vec3 e0 = worldFromObject.vector(p.p[1] - p.p[0]), e1 = worldFromObject.vector(p.p[3] - p.p[0]);
    float size = fmaxf(length(e0), length(e1));
    Vec3 lo = worldFromObject.point(p.box.lo), hi = worldFromObject.point(p.box.hi);
    Vec3 c = (lo + hi) * 0.5f;
    const Vec3 from = v.cameraLod ? v.camera : ray.org;
    float dist = fmaxf(length(c - from) - 0.5f * length(hi - lo), 1e-3f * size);
    float footprint = fmaxf(v.pixelAngle * dist * (v.cameraLod ? 1.0f : length(ray.dir)), 1e-30f);
    int level = int(ceilf(log2f(fmaxf(size / footprint, 1.0f)) + v.lodBias));
    return vdClampLevel(level, p.maxLevel < v.maxLevel ? p.maxLevel : v.maxLevel);
}

// The level a patch's rays are traced at this frame: its patchLevel entry,
// clamped to the patch's and the view's caps (a level frozen under another
// vd.max_level: vd.freeze_lod).
STRATA_HD int vdTracedLevel(const VdView& v, const VdPatch& p, int frozen) {
    return vdClampLevel(frozen, p.maxLevel < v.maxLevel ? p.maxLevel : v.maxLevel);
}

// Step 3 for one ray against one built patch tree. Closest hit: the ray's
// hit record is read for the distance to beat and updated. AnyHit: true on
// a hit before the ray's tmax, or before hit's distance when given (the
// last bounce's rays: their closest triangle), which is not updated.
template <bool AnyHit>
STRATA_HD bool vdTraceRay(const VdView& v, uint32_t patch, const VdNode* nodes, const Vec3* grid, int level,
                          const Ray& worldRay, HitRecord* hit) {
    const VdPatch& p = v.patches[patch];
    const Ray r = objectRay(v.objectFromWorld[v.patchInstance[patch]], worldRay);
    // Closest hit: a hit at the recorded distance itself still goes to the
    // atomicMin, which keeps the smaller payload: with a strict bound the
    // patch traced first would win a tie (adjacent patches' leaf boxes share
    // faces), and the image would depend on the blocks' order.
    const float recorded = hit ? hitDistance(atomicLoadU64(hit)) : worldRay.tmax;
    float tmax = fminf(worldRay.tmax, AnyHit ? recorded : nextafterf(recorded, 3.0e38f));
    const uint32_t node = v.boxLeaves
                              ? vdTraverse<AnyHit, true>(nodes, v.links, level, p, v.maps[p.map], r, tmax)
                              : vdTraverse<AnyHit>(nodes, v.links, level, p, v.maps[p.map], r, tmax, nullptr, grid);
    if (node == kVdNoNode) return false;
    if (!AnyHit) atomicMinU64(hit, packHit(tmax, vdPayload(patch, node - vdLevelOffset(level))));
    return true;
}

// Step 4: the surface at a VD hit, in world space.
struct VdSurface {
    Vec3 ng, ns;  // geometric normal of the hit cell triangle; its interpolated vertex normal
    Vec2 uv;
    int32_t material;
};
STRATA_HD VdSurface vdSurfaceAt(const VdView& v, uint32_t payload, const Ray& worldRay) {
    const uint32_t patch = vdPayloadPatch(payload);
    const VdPatch& p = v.patches[patch];
    const TextureView& map = v.maps[p.map];
    const uint32_t inst = v.patchInstance[patch];
    const Ray r = objectRay(v.objectFromWorld[inst], worldRay);
    const int level = vdTracedLevel(v, p, v.patchLevel[patch]);
    uint32_t x, y;
    vdUnmorton(vdPayloadCell(payload), x, y);
    Vec3 c[4];
    vdCellCorners(p, map, level, x, y, c);
    // Normals go to world space with the inverse transpose: rows of objectFromWorld's linear part.
    const Affine& m = v.objectFromWorld[inst];
    auto toWorld = [&](Vec3 n) {
        return normalize(Vec3{m.m[0][0] * n.x + m.m[1][0] * n.y + m.m[2][0] * n.z,
                              m.m[0][1] * n.x + m.m[1][1] * n.y + m.m[2][1] * n.z,
                              m.m[0][2] * n.x + m.m[1][2] * n.y + m.m[2][2] * n.z});
    };
    VdSurface out;
    out.material = p.material;
    if (v.boxLeaves) {  // Harada's: the leaf node's normal and uv, as the node stores them
        out.ng = out.ns = toWorld(vdDecodeNormal(vdCellNormal(c)));
        const Vec2 st = vdDecodeSt(vdCellSt(level, x, y));
        out.uv = vdUv(p, st.x, st.y);
        return out;
    }
    // The cell's triangle the ray meets (closest of the two, any distance).
    float tmax = 3.0e38f;
    TriHit th{0, 0, 0};
    int tri = 0;
    Ray rr = r;
    rr.tmin = -3.0e38f;
    vdIntersectCell(c, rr, tmax, &th, &tri);
    const float inv = 1.0f / float(1u << level);
    // Patch coordinates of the hit: triangle 0 is (v00 v10 v11), 1 is (v00 v11 v01).
    // With barycentrics (u, v) of a triangle's second and third vertices:
    // s = u + v, t = v in triangle 0; s = u, t = u + v in triangle 1.
    const float fs = tri == 0 ? th.u + th.v : th.u, ft = tri == 0 ? th.v : th.u + th.v;  // within the cell
    const float s = (float(x) + fs) * inv, t = (float(y) + ft) * inv;
    Vec3 a = tri == 0 ? c[1] : c[2], b = tri == 0 ? c[2] : c[3];
    Vec3 ngObj = cross(a - c[0], b - c[0]);
    // Smooth normal: the hit triangle's vertex normals interpolated, each a
    // central difference over the level's grid (one-sided at the patch's
    // border), as pre-tessellation makes its vertices' normals. P(di, dj) is
    // the grid vertex (x + di, y + dj), clamped to the patch; the corners are
    // c[], so the three normals take six more lookups of the map.
    const int cells = 1 << level;
    auto P = [&](int di, int dj) {
        const int i = int(x) + di, j = int(y) + dj;
        return vdPosition(p, map,
                          float(i < 0       ? 0
                                : i > cells ? cells
                                            : i) *
                              inv,
                          float(j < 0       ? 0
                                : j > cells ? cells
                                            : j) *
                              inv);
    };
    auto unit = [](Vec3 ds, Vec3 dt) {
        Vec3 nn = cross(ds, dt);
        return dot(nn, nn) > 0 ? normalize(nn) : Vec3{0, 0, 0};
    };
    const Vec3 n00 = unit(c[1] - P(-1, 0), c[3] - P(0, -1));
    const Vec3 n11 = unit(P(2, 1) - c[3], P(1, 2) - c[1]);
    // The third vertex: v10 (triangle 0) or v01 (triangle 1).
    const Vec3 n3 = tri == 0 ? unit(P(2, 0) - c[0], c[2] - P(1, -1)) : unit(c[2] - P(-1, 1), P(0, 2) - c[0]);
    // Weights of v00 and v11, and of the third vertex.
    Vec3 nsObj = n00 * (1.0f - fmaxf(fs, ft)) + n11 * fminf(fs, ft) + n3 * fabsf(fs - ft);
    out.ng = toWorld(ngObj);
    out.ns = dot(nsObj, nsObj) > 0 ? toWorld(nsObj) : out.ng;
    if (!isFinite(out.ns)) out.ns = out.ng;
    out.uv = vdUv(p, s, t);
    return out;
}

}  // namespace strata
