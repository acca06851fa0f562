// accel/wide/cwbvh_traverse.h — closest-hit and any-hit traversal of the
// 8-wide compressed BVH (accel/wide/cwbvh.h), after Ylitie et al. 2017, §3:
// the stack holds node groups (a node's inner children still to visit: the
// first child's index, its imask and the hit bits in traversal order), a
// node's hit leaves become a triangle group tested before the next node,
// and children are taken nearest first by their slots' order for the ray's
// octant. The primitive test is the binary traversal's callback:
//   float intersect(uint32_t prim, const Ray& ray, float tmax)  // < tmax on hit
// or, where the view holds its triangles in leaf order (CwbvhView::leafTris,
// accel.copy_leaf_tris), the copied record's test (accel/leaf_tris.h).
#pragma once

#include "accel/bvh_traverse.h"
#include "accel/wide/cwbvh.h"

namespace strata {

namespace detail {

// A node as its 20 words, as the traversal reads it (five 16-byte loads):
// 0-2 p, 3 the exponents and imask, 4 childBase, 5 primBase, 6-7 meta,
// 8-9 / 10-11 / 12-13 the lower planes of x / y / z, 14-19 the upper ones
// (byte i of a pair: slot i).
struct CwbvhWords {
    uint32_t w[20];
};
static_assert(sizeof(CwbvhWords) == sizeof(CwbvhNode), "the node's words");

STRATA_HD CwbvhWords loadCwbvhWords(const CwbvhNode* nodes, uint32_t i) {
    CwbvhWords n;
#if defined(__CUDA_ARCH__)
    const uint4* src = reinterpret_cast<const uint4*>(nodes + i);
#pragma unroll
    for (int k = 0; k < 5; ++k) {
        const uint4 v = __ldg(src + k);
        n.w[4 * k] = v.x;
        n.w[4 * k + 1] = v.y;
        n.w[4 * k + 2] = v.z;
        n.w[4 * k + 3] = v.w;
    }
#else
    memcpy(n.w, nodes + i, sizeof n.w);
#endif
    return n;
}

STRATA_HD uint32_t wordByte(uint32_t word, int b) { return (word >> (8 * b)) & 0xffu; }
// Byte b of a word as a float, exactly (on the GPU without a conversion
// instruction: the byte as the mantissa of 2^23 + q, less 2^23).
STRATA_HD float wordByteAsFloat(uint32_t word, int b) {
#if defined(__CUDA_ARCH__)
    return __uint_as_float(__byte_perm(word, 0x4B000000u, 0x7650u | uint32_t(b))) - 8388608.0f;
#else
    return float(wordByte(word, b));
#endif
}
// A group of a node's children: `base` is the first child (node index, or
// leaf entry), `bits` which of them are left. Node groups keep the node's
// imask in bits 0..7 and the inner children's hits in bits 24..31, at
// 24 + (slot ^ octant); triangle groups one bit per leaf entry (0..23).
struct CwbvhGroup {
    uint32_t base, bits;
};

// The slab test of one node's eight children, filling the groups of what the
// ray (tmin, tmax) meets. The planes a ray enters and leaves by are chosen
// once per node by its octant (bit a: invDir negative on axis a). The far
// distance is widened by 2 gamma(3) (Ize 2013): the box corners come from
// the node's grid and a few roundings.
STRATA_HD void intersectCwbvhChildren(const CwbvhWords& n, const Ray& ray, Vec3 invDir, uint32_t octant, float tmax,
                                      CwbvhGroup& nodeGroup, CwbvhGroup& triGroup) {
    const uint32_t e = n.w[3];
    const float sx = cwbvhStep(uint8_t(wordByte(e, 0))) * invDir.x, sy = cwbvhStep(uint8_t(wordByte(e, 1))) * invDir.y,
                sz = cwbvhStep(uint8_t(wordByte(e, 2))) * invDir.z;
    const float ox = (bitsFloat(n.w[0]) - ray.org.x) * invDir.x, oy = (bitsFloat(n.w[1]) - ray.org.y) * invDir.y,
                oz = (bitsFloat(n.w[2]) - ray.org.z) * invDir.z;
    const bool fx = octant & 1u, fy = octant & 2u, fz = octant & 4u;
    const uint32_t nearX[2] = {fx ? n.w[14] : n.w[8], fx ? n.w[15] : n.w[9]};
    const uint32_t farX[2] = {fx ? n.w[8] : n.w[14], fx ? n.w[9] : n.w[15]};
    const uint32_t nearY[2] = {fy ? n.w[16] : n.w[10], fy ? n.w[17] : n.w[11]};
    const uint32_t farY[2] = {fy ? n.w[10] : n.w[16], fy ? n.w[11] : n.w[17]};
    const uint32_t nearZ[2] = {fz ? n.w[18] : n.w[12], fz ? n.w[19] : n.w[13]};
    const uint32_t farZ[2] = {fz ? n.w[12] : n.w[18], fz ? n.w[13] : n.w[19]};
    uint32_t inner = 0, tris = 0;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int s = 0; s < kCwbvhWidth; ++s) {
        const int j = s >> 2, b = s & 3;
        const uint32_t meta = wordByte(n.w[6 + j], b);
        const float tn =
            fmaxf(fmaxf(fmaf(wordByteAsFloat(nearX[j], b), sx, ox), fmaf(wordByteAsFloat(nearY[j], b), sy, oy)),
                  fmaxf(fmaf(wordByteAsFloat(nearZ[j], b), sz, oz), ray.tmin));
        const float tf =
            fminf(fminf(fmaf(wordByteAsFloat(farX[j], b), sx, ox), fmaf(wordByteAsFloat(farY[j], b), sy, oy)),
                  fminf(fmaf(wordByteAsFloat(farZ[j], b), sz, oz), tmax)) *
            1.0000004f;
        if (meta == 0 || tn > tf) continue;
        if (cwbvhIsInnerMeta(uint8_t(meta)))
            inner |= 1u << (24 + (uint32_t(s) ^ octant));
        else
            tris |= (meta >> 5) << (meta & 0x1fu);
    }
    nodeGroup = CwbvhGroup{n.w[4], inner | (e >> 24)};
    triGroup = CwbvhGroup{n.w[5], tris};
}

// The ray's inverse direction for the slab tests: safeInverse's, clamped to
// 1e18. A zero component's 1e30 times a grid origin over 3.4e8 away from the
// ray's would overflow to an infinity on both planes of that axis (the
// binary test subtracts each plane itself and keeps their signs apart); a
// plane 1e-6 from the origin is still 1e12 away with 1e18.
STRATA_HD Vec3 cwbvhInverse(Vec3 d) {
    const Vec3 i = safeInverse(d);
    const float c = 1e18f;
    return {fminf(fmaxf(i.x, -c), c), fminf(fmaxf(i.y, -c), c), fminf(fmaxf(i.z, -c), c)};
}

// Tests leaf entry `entry`: the copied triangle (Copied) or the indexed one;
// true when it is hit nearer than tmax (then tmax and hitPrim are the hit's).
template <bool Copied, class Intersect>
STRATA_HD bool intersectCwbvhEntry(const CwbvhView& w, uint32_t entry, const Ray& ray, float& tmax, uint32_t& hitPrim,
                                   Intersect& intersect) {
    uint32_t prim;
    float t;
    if constexpr (Copied) {
        t = intersectLeafTri(w.leafTris, int32_t(entry), ray, tmax, prim);
    } else {
        prim = w.primIndex[entry];
        t = intersect(prim, ray, tmax);
    }
    if (!(t < tmax)) return false;
    tmax = t;
    hitPrim = prim;
    return true;
}

// One traversal from the root with a StackSize-entry stack; false when a
// push would overflow it (the hits so far stay in tmax / hitPrim).
template <bool AnyHit, bool Copied, int StackSize, class Intersect>
STRATA_HD bool traverseCwbvhWithStack(const CwbvhView& w, const Ray& ray, Vec3 invDir, float& tmax, uint32_t& hitPrim,
                                      Intersect& intersect, TraversalStats* stats) {
    // The octant of the ray's direction as the slab test sees it (a -0 component has a negative inverse).
    const uint32_t octant = (invDir.x < 0 ? 1u : 0u) | (invDir.y < 0 ? 2u : 0u) | (invDir.z < 0 ? 4u : 0u);
    CwbvhGroup stack[StackSize];
    int sp = 0;
    CwbvhGroup nodeGroup{0u, (1u << (24 + octant)) | 1u};  // the root: node 0 as slot 0 of a group
    for (;;) {
        CwbvhGroup triGroup{0u, 0u};
        if (nodeGroup.bits & 0xff000000u) {
            const uint32_t key = lowestBit(nodeGroup.bits >> 24);
            nodeGroup.bits &= ~(1u << (24 + key));
            const uint32_t slot = key ^ octant;
            const uint32_t child = nodeGroup.base + popCount(nodeGroup.bits & ((1u << slot) - 1u) & 0xffu);
            if (nodeGroup.bits & 0xff000000u) {
                if (sp == StackSize) return false;
                stack[sp++] = nodeGroup;
            }
            const CwbvhWords n = loadCwbvhWords(w.nodes, child);
            if (stats) stats->nodesVisited++;
            intersectCwbvhChildren(n, ray, invDir, octant, tmax, nodeGroup, triGroup);
        }
        while (triGroup.bits) {
            const uint32_t k = lowestBit(triGroup.bits);
            triGroup.bits &= triGroup.bits - 1u;
            if (stats) stats->primsTested++;
            if (intersectCwbvhEntry<Copied>(w, triGroup.base + k, ray, tmax, hitPrim, intersect) && AnyHit) return true;
        }
        if (!(nodeGroup.bits & 0xff000000u)) {
            if (sp == 0) return true;
            nodeGroup = stack[--sp];
            if (stats) stats->steps++;
        }
    }
}

// The whole traversal with the leaf test Copied names (traverseCwbvh below).
template <bool AnyHit, bool Copied, int FastStack, int DeepStack, class Intersect>
STRATA_HD uint32_t traverseCwbvhAs(const CwbvhView& w, const Ray& ray, float& tmax, Intersect& intersect,
                                   TraversalStats* stats) {
    uint32_t hitPrim = ~0u;
    const Vec3 invDir = cwbvhInverse(ray.dir);
    if (traverseCwbvhWithStack<AnyHit, Copied, FastStack>(w, ray, invDir, tmax, hitPrim, intersect, stats))
        return hitPrim;
    if (stats) {
        stats->stackOverflow = true;
        stats->deepRestarts++;
    }
    if (traverseCwbvhWithStack<AnyHit, Copied, DeepStack>(w, ray, invDir, tmax, hitPrim, intersect, stats))
        return hitPrim;
    if (stats) stats->scanRestarts++;
    for (uint32_t k = 0; k < w.numPrims; ++k) {
        if (stats) stats->primsTested++;
        if (intersectCwbvhEntry<Copied>(w, k, ray, tmax, hitPrim, intersect) && AnyHit) break;
    }
    return hitPrim;
}

}  // namespace detail

// Closest hit (AnyHit = false) or any hit within (ray.tmin, tmax): the hit
// primitive id or ~0u, tmax updated. A stack overflow restarts as
// traverseBvh does (DeepStack entries, then every leaf entry): a wide tree
// is no deeper than the binary tree it was made from. (The stack sizes are
// parameters for the tests, which make both restarts happen.) The leaf test
// is chosen once per ray, as traverseBvh chooses it.
template <bool AnyHit, int FastStack = kBvhStackSize, int DeepStack = kBvhDeepStackSize, class Intersect>
STRATA_HD uint32_t traverseCwbvh(const CwbvhView& w, const Ray& ray, float& tmax, Intersect intersect,
                                 TraversalStats* stats = nullptr) {
    if (w.numNodes == 0) return ~0u;
    return w.leafTris ? detail::traverseCwbvhAs<AnyHit, true, FastStack, DeepStack>(w, ray, tmax, intersect, stats)
                      : detail::traverseCwbvhAs<AnyHit, false, FastStack, DeepStack>(w, ray, tmax, intersect, stats);
}

}  // namespace strata
