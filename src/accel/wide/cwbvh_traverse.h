// accel/wide/cwbvh_traverse.h — closest-hit and any-hit traversal of the
// 8-wide compressed BVH (accel/wide/cwbvh.h), after Ylitie et al. 2017, §3:
// the stack holds node groups (a node's inner children still to visit: the
// first child's index, its imask and the hit bits in traversal order), a
// node's hit leaves become a triangle group tested before the next node,
// and children are taken nearest first by their slots' order for the ray's
// octant. The primitive test is the binary traversal's callback:
//   float intersect(uint32_t prim, const Ray& ray, float tmax)  // < tmax on hit
#pragma once

#include "accel/bvh_traverse.h"
#include "accel/wide/cwbvh.h"

namespace strata {

namespace detail {

STRATA_HD uint32_t lowestBit(uint32_t v) {
#if defined(__CUDA_ARCH__)
    return uint32_t(__ffs(int(v)) - 1);
#else
    return uint32_t(__builtin_ctz(v));
#endif
}
STRATA_HD uint32_t bitCount(uint32_t v) {
#if defined(__CUDA_ARCH__)
    return uint32_t(__popc(v));
#else
    return uint32_t(__builtin_popcount(v));
#endif
}

STRATA_HD CwbvhNode loadCwbvhNode(const CwbvhNode* nodes, uint32_t i) {
#if defined(__CUDA_ARCH__)
    CwbvhNode n;
    const uint4* src = reinterpret_cast<const uint4*>(nodes + i);
    uint4* dst = reinterpret_cast<uint4*>(&n);
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int k = 0; k < 5; ++k) dst[k] = __ldg(src + k);
    return n;
#else
    return nodes[i];
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
// ray (tmin, tmax) meets. The far distance is widened by 2 gamma(3) (Ize
// 2013): the box corners come from the node's grid and a few roundings.
STRATA_HD void intersectCwbvhChildren(const CwbvhNode& n, const Ray& ray, Vec3 invDir, uint32_t octant, float tmax,
                                      CwbvhGroup& nodeGroup, CwbvhGroup& triGroup) {
    const float sx = cwbvhStep(n.ex) * invDir.x, sy = cwbvhStep(n.ey) * invDir.y, sz = cwbvhStep(n.ez) * invDir.z;
    const float ox = (n.px - ray.org.x) * invDir.x, oy = (n.py - ray.org.y) * invDir.y,
                oz = (n.pz - ray.org.z) * invDir.z;
    uint32_t inner = 0, tris = 0;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int s = 0; s < kCwbvhWidth; ++s) {
        const uint8_t meta = n.meta[s];
        if (!meta) continue;
        const float x0 = fmaf(float(n.qlox[s]), sx, ox), x1 = fmaf(float(n.qhix[s]), sx, ox);
        const float y0 = fmaf(float(n.qloy[s]), sy, oy), y1 = fmaf(float(n.qhiy[s]), sy, oy);
        const float z0 = fmaf(float(n.qloz[s]), sz, oz), z1 = fmaf(float(n.qhiz[s]), sz, oz);
        const float tn = fmaxf(fmaxf(fminf(x0, x1), fminf(y0, y1)), fmaxf(fminf(z0, z1), ray.tmin));
        const float tf = fminf(fminf(fmaxf(x0, x1), fmaxf(y0, y1)), fminf(fmaxf(z0, z1), tmax)) * 1.0000004f;
        if (tn > tf) continue;
        if (cwbvhIsInnerMeta(meta))
            inner |= 1u << (24 + (uint32_t(s) ^ octant));
        else
            tris |= uint32_t(meta >> 5) << (meta & 0x1f);
    }
    nodeGroup = CwbvhGroup{n.childBase, inner | n.imask};
    triGroup = CwbvhGroup{n.primBase, tris};
}

// One traversal from the root with a StackSize-entry stack; false when a
// push would overflow it (the hits so far stay in tmax / hitPrim).
template <bool AnyHit, int StackSize, class Intersect>
STRATA_HD bool traverseCwbvhWithStack(const CwbvhView& w, const Ray& ray, Vec3 invDir, float& tmax, uint32_t& hitPrim,
                                      Intersect& intersect, TraversalStats* stats) {
    const uint32_t octant = (ray.dir.x < 0 ? 1u : 0u) | (ray.dir.y < 0 ? 2u : 0u) | (ray.dir.z < 0 ? 4u : 0u);
    CwbvhGroup stack[StackSize];
    int sp = 0;
    CwbvhGroup nodeGroup{0u, (1u << (24 + octant)) | 1u};  // the root: node 0 as slot 0 of a group
    for (;;) {
        CwbvhGroup triGroup{0u, 0u};
        if (nodeGroup.bits & 0xff000000u) {
            const uint32_t key = lowestBit(nodeGroup.bits >> 24);
            nodeGroup.bits &= ~(1u << (24 + key));
            const uint32_t slot = key ^ octant;
            const uint32_t child = nodeGroup.base + bitCount(nodeGroup.bits & ((1u << slot) - 1u) & 0xffu);
            if (nodeGroup.bits & 0xff000000u) {
                if (sp == StackSize) return false;
                stack[sp++] = nodeGroup;
            }
            const CwbvhNode n = loadCwbvhNode(w.nodes, child);
            if (stats) stats->nodesVisited++;
            intersectCwbvhChildren(n, ray, invDir, octant, tmax, nodeGroup, triGroup);
        }
        while (triGroup.bits) {
            const uint32_t k = lowestBit(triGroup.bits);
            triGroup.bits &= triGroup.bits - 1u;
            const uint32_t prim = w.primIndex[triGroup.base + k];
            if (stats) stats->primsTested++;
            const float t = intersect(prim, ray, tmax);
            if (t < tmax) {
                tmax = t;
                hitPrim = prim;
                if (AnyHit) return true;
            }
        }
        if (!(nodeGroup.bits & 0xff000000u)) {
            if (sp == 0) return true;
            nodeGroup = stack[--sp];
            if (stats) stats->steps++;
        }
    }
}

}  // namespace detail

// Closest hit (AnyHit = false) or any hit within (ray.tmin, tmax): the hit
// primitive id or ~0u, tmax updated. A stack overflow restarts as
// traverseBvh does (kBvhDeepStackSize entries, then every leaf entry): a
// wide tree is no deeper than the binary tree it was made from.
template <bool AnyHit, class Intersect>
STRATA_HD uint32_t traverseCwbvh(const CwbvhView& w, const Ray& ray, float& tmax, Intersect intersect,
                                 TraversalStats* stats = nullptr) {
    uint32_t hitPrim = ~0u;
    if (w.numNodes == 0) return hitPrim;
    const Vec3 invDir = safeInverse(ray.dir);
    if (detail::traverseCwbvhWithStack<AnyHit, kBvhStackSize>(w, ray, invDir, tmax, hitPrim, intersect, stats))
        return hitPrim;
    if (stats) {
        stats->stackOverflow = true;
        stats->deepRestarts++;
    }
    if (detail::traverseCwbvhWithStack<AnyHit, kBvhDeepStackSize>(w, ray, invDir, tmax, hitPrim, intersect, stats))
        return hitPrim;
    if (stats) stats->scanRestarts++;
    for (uint32_t k = 0; k < w.numPrims; ++k) {
        const uint32_t prim = w.primIndex[k];
        if (stats) stats->primsTested++;
        const float t = intersect(prim, ray, tmax);
        if (t < tmax) {
            tmax = t;
            hitPrim = prim;
            if (AnyHit) break;
        }
    }
    return hitPrim;
}

}  // namespace strata
