// accel/bvh_traverse.h — stack-based ordered traversal of a BvhNode tree,
// closest hit or any hit. The primitive test is a callback, so the same
// traversal serves triangles now and other primitives later:
//   float intersect(uint32_t prim, const Ray& ray, float tmax)  // < tmax on hit
// except where the view holds its triangles in leaf order (BvhView::leafTris).
#pragma once

#include "accel/bvh.h"
#include "accel/leaf_tris.h"
#include "core/ray.h"

namespace strata {

struct NodeBoxes {
    Vec3 lLo, lHi, rLo, rHi;
    int32_t left, right, leftCount, rightCount;
};

STRATA_HD NodeBoxes loadNode(const BvhNode* nodes, int32_t i) {
    NodeBoxes n;
#if defined(__CUDA_ARCH__)
    const float4* p = reinterpret_cast<const float4*>(nodes + i);
    float4 a = __ldg(p), b = __ldg(p + 1), c = __ldg(p + 2);
    int4 d = __ldg(reinterpret_cast<const int4*>(p + 3));
    n.lLo = {a.x, a.z, c.x};
    n.lHi = {a.y, a.w, c.y};
    n.rLo = {b.x, b.z, c.z};
    n.rHi = {b.y, b.w, c.w};
    n.left = d.x;
    n.right = d.y;
    n.leftCount = d.z;
    n.rightCount = d.w;
#else
    const BvhNode& b = nodes[i];
    n.lLo = {b.lxLo, b.lyLo, b.lzLo};
    n.lHi = {b.lxHi, b.lyHi, b.lzHi};
    n.rLo = {b.rxLo, b.ryLo, b.rzLo};
    n.rHi = {b.rxHi, b.ryHi, b.rzHi};
    n.left = b.left;
    n.right = b.right;
    n.leftCount = b.leftCount;
    n.rightCount = b.rightCount;
#endif
    return n;
}

// Slab test; returns the entry distance, or a value > tmax on a miss.
STRATA_HD float slabEntry(Vec3 lo, Vec3 hi, Vec3 org, Vec3 invDir, float tmin, float tmax) {
    float tx0 = (lo.x - org.x) * invDir.x, tx1 = (hi.x - org.x) * invDir.x;
    float ty0 = (lo.y - org.y) * invDir.y, ty1 = (hi.y - org.y) * invDir.y;
    float tz0 = (lo.z - org.z) * invDir.z, tz1 = (hi.z - org.z) * invDir.z;
    float tn = fmaxf(fmaxf(fminf(tx0, tx1), fminf(ty0, ty1)), fmaxf(fminf(tz0, tz1), tmin));
    float tf = fminf(fminf(fmaxf(tx0, tx1), fmaxf(ty0, ty1)), fminf(fmaxf(tz0, tz1), tmax));
    return tn <= tf ? tn : 3.0e38f;
}

STRATA_HD Vec3 safeInverse(Vec3 d) {
    const float eps = 1e-30f;
    return {1.0f / (fabsf(d.x) > eps ? d.x : copysignf(eps, d.x)),
            1.0f / (fabsf(d.y) > eps ? d.y : copysignf(eps, d.y)),
            1.0f / (fabsf(d.z) > eps ? d.z : copysignf(eps, d.z))};
}

// What one ray's traversal did (a null pointer counts nothing, and the
// compiler removes the counting). view.heatmap and validate show them.
struct TraversalStats {
    uint32_t nodesVisited = 0;  // node records read (a kd leaf, a BVH inner node with its two child boxes)
    uint32_t primsTested = 0;
    uint32_t blasEntries = 0;  // instanced mode: BLASes entered (rays turned into an instance's object space)
    uint32_t topNodes = 0;     // instanced mode: the top level's nodes among nodesVisited
    // Backtracking steps: the walk resumed at a node that is no child of the
    // last one (a stack pop; over skip links, a move to a skip target).
    uint32_t steps = 0;
    bool stackOverflow = false;  // the fast path's stack was too small for this ray
    uint32_t deepRestarts = 0;   // restarts with the kBvhDeepStackSize stack
    uint32_t scanRestarts = 0;   // restarts as a scan of every leaf entry
};

namespace detail {

// Tests the primitives of one leaf; true when AnyHit and something was hit.
template <bool AnyHit, bool Copied, class Intersect>
STRATA_HD bool intersectLeaf(const BvhView& bvh, int32_t first, int32_t count, const Ray& ray, float& tmax,
                             uint32_t& hitPrim, Intersect& intersect, TraversalStats* stats) {
    for (int32_t k = 0; k < count; ++k) {
        uint32_t prim;
        float t;
        if constexpr (Copied) {  // accel.copy_leaf_tris: the entry's triangle in one record
            t = intersectLeafTri(bvh.leafTris, first + k, ray, tmax, prim);
        } else {
            prim = bvh.primIndex[first + k];
            t = intersect(prim, ray, tmax);
        }
        if (stats) stats->primsTested++;
        if (t < tmax) {
            tmax = t;
            hitPrim = prim;
            if (AnyHit) return true;
        }
    }
    return false;
}

// One ordered traversal from the root with a StackSize-entry stack. Returns
// false, abandoning the ray, when a push would overflow the stack; the hits
// found so far stay in tmax/hitPrim (they are real hits, so a restart may
// keep culling with them).
template <bool AnyHit, bool Copied, int StackSize, class Intersect>
STRATA_HD bool traverseWithStack(const BvhView& bvh, const Ray& ray, Vec3 invDir, float& tmax, uint32_t& hitPrim,
                                 Intersect& intersect, TraversalStats* stats) {
    int32_t stack[StackSize];
    int sp = 0;
    int32_t node = int32_t(rootOf(bvh));
    for (;;) {
        NodeBoxes n = loadNode(bvh.nodes, node);
        if (stats) stats->nodesVisited++;
        float tl = slabEntry(n.lLo, n.lHi, ray.org, invDir, ray.tmin, tmax);
        float tr = slabEntry(n.rLo, n.rHi, ray.org, invDir, ray.tmin, tmax);
        // An absent right child (index -1: the root of a one-primitive tree)
        // has an empty box, which the slab test would take for all space.
        bool hitL = tl <= tmax, hitR = tr <= tmax && n.right >= 0;
        // Leaves are intersected immediately.
        if (hitL && n.leftCount > 0) {
            if (intersectLeaf<AnyHit, Copied>(bvh, n.left, n.leftCount, ray, tmax, hitPrim, intersect, stats))
                return true;
            hitL = false;
        }
        if (hitR && n.rightCount > 0) {
            if (intersectLeaf<AnyHit, Copied>(bvh, n.right, n.rightCount, ray, tmax, hitPrim, intersect, stats))
                return true;
            hitR = false;
        }
        if (hitL && hitR) {
            // Visit the nearer child first, push the other.
            if (sp == StackSize) return false;
            stack[sp++] = tl <= tr ? n.right : n.left;
            node = tl <= tr ? n.left : n.right;
        } else if (hitL) {
            node = n.left;
        } else if (hitR) {
            node = n.right;
        } else {
            if (sp == 0) return true;
            node = stack[--sp];
            if (stats) stats->steps++;
        }
    }
}

// The whole traversal with the leaf test Copied names (traverseBvh below).
template <bool AnyHit, bool Copied, class Intersect>
STRATA_HD uint32_t traverseBvhAs(const BvhView& bvh, const Ray& ray, float& tmax, Intersect& intersect,
                                 TraversalStats* stats) {
    uint32_t hitPrim = ~0u;
    Vec3 invDir = safeInverse(ray.dir);
    if (traverseWithStack<AnyHit, Copied, kBvhStackSize>(bvh, ray, invDir, tmax, hitPrim, intersect, stats))
        return hitPrim;
    if (stats) {
        stats->stackOverflow = true;
        stats->deepRestarts++;
    }
    if (traverseWithStack<AnyHit, Copied, kBvhDeepStackSize>(bvh, ray, invDir, tmax, hitPrim, intersect, stats))
        return hitPrim;
    if (stats) stats->scanRestarts++;
    intersectLeaf<AnyHit, Copied>(bvh, 0, int32_t(bvh.numPrims), ray, tmax, hitPrim, intersect, stats);
    return hitPrim;
}

}  // namespace detail

// Closest hit (AnyHit = false) or any hit (AnyHit = true) within
// (ray.tmin, tmax). Returns the hit primitive id or ~0u; tmax is updated to
// the hit distance.
//
// Deep trees: the fast path's stack has kBvhStackSize entries (a tree of
// depth d needs d-1). When a ray would overflow it, the ray restarts from the
// root with kBvhDeepStackSize entries (any LBVH fits: its depth is at most the
// key bits plus 32 index bits), and if even that overflows, with a scan of
// every leaf entry. Restarts keep the hits found so far, so they only cull
// more; no node is ever dropped.
//
// The leaf tests read the view's copied triangles where it has them
// (accel.copy_leaf_tris), else call intersect; chosen once per ray, so each
// way's loop is compiled without the other's test in it.
template <bool AnyHit, class Intersect>
STRATA_HD uint32_t traverseBvh(const BvhView& bvh, const Ray& ray, float& tmax, Intersect intersect,
                               TraversalStats* stats = nullptr) {
    if (bvh.numNodes == 0) return ~0u;
    return bvh.leafTris ? detail::traverseBvhAs<AnyHit, true>(bvh, ray, tmax, intersect, stats)
                        : detail::traverseBvhAs<AnyHit, false>(bvh, ray, tmax, intersect, stats);
}

}  // namespace strata
