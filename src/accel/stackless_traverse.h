// accel/stackless_traverse.h — stackless traversal over skip links
// (Prokopenko & Lebrun-Grandié 2024, Algorithm 1), for rays: the range
// query "the ray enters the box before the current hit" culls with the
// closest hit found so far, so closest hit and any hit share one loop. No
// stack, no ordering: the left child is always visited first.
// Same primitive-test callback as accel/bvh_traverse.h:
//   float intersect(uint32_t prim, const Ray& ray, float tmax)  // < tmax on hit
#pragma once

#include "accel/bvh_stackless.h"
#include "accel/bvh_traverse.h"

namespace strata {

struct StacklessBoxes {
    Vec3 lo, hi;
    int32_t left, skip;
};

STRATA_HD StacklessBoxes loadStacklessNode(const StacklessNode* nodes, int32_t i) {
    StacklessBoxes n;
#if defined(__CUDA_ARCH__)
    const float4* p = reinterpret_cast<const float4*>(nodes + i);
    float4 a = __ldg(p), b = __ldg(p + 1);
    n.lo = {a.x, a.y, a.z};
    n.hi = {b.x, b.y, b.z};
    n.left = __float_as_int(a.w);
    n.skip = __float_as_int(b.w);
#else
    const StacklessNode& s = nodes[i];
    n.lo = {s.loX, s.loY, s.loZ};
    n.hi = {s.hiX, s.hiY, s.hiZ};
    n.left = s.left;
    n.skip = s.skip;
#endif
    return n;
}

// Closest hit (AnyHit = false) or any hit (AnyHit = true) within
// (ray.tmin, tmax) over numNodes skip-link nodes (root 0). Returns the hit
// primitive id or ~0u; tmax is updated to the hit distance.
template <bool AnyHit, class Intersect>
STRATA_HD uint32_t traverseStackless(const StacklessNode* nodes, uint32_t numNodes, const Ray& ray, float& tmax,
                                     Intersect intersect, TraversalStats* stats = nullptr) {
    uint32_t hitPrim = ~0u;
    if (numNodes == 0) return hitPrim;
    Vec3 invDir = safeInverse(ray.dir);
    int32_t node = 0;  // Algorithm 1, line 1: "start from the root node"
    do {
        StacklessBoxes n = loadStacklessNode(nodes, node);
        if (stats) stats->nodesVisited++;
        // Line 3: "if query is satisfied on N" — the ray enters N before tmax.
        if (slabEntry(n.lo, n.hi, ray.org, invDir, ray.tmin, tmax) <= tmax) {
            if (n.left < 0) {  // line 4: N is a leaf: line 5, test its primitive
                uint32_t prim = uint32_t(~n.left);
                if (stats) stats->primsTested++;
                float t = intersect(prim, ray, tmax);
                if (t < tmax) {
                    tmax = t;
                    hitPrim = prim;
                    if (AnyHit) return hitPrim;
                }
                node = n.skip;  // line 6
                if (stats && node != kSkipSentinel) stats->steps++;
            } else {
                node = n.left;  // line 8
            }
        } else {
            node = n.skip;  // line 10
            if (stats && node != kSkipSentinel) stats->steps++;
        }
    } while (node != kSkipSentinel);  // line 11: "until N = ♦"
    return hitPrim;
}

}  // namespace strata
