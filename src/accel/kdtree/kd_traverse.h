// accel/kdtree/kd_traverse.h — stack-based front-to-back traversal of a
// KdNode tree with the ray interval [tmin, tmax] (the classic recursive
// kd-tree walk made iterative), closest hit or any hit. The primitive test is
// a callback, as in bvh_traverse.h:
//   float intersect(uint32_t prim, const Ray& ray, float tmax)  // < tmax on hit
// Robustness: a ray parallel to a split plane stays on its side; a ray lying
// in a split plane visits both children (a triangle touching the plane from
// either side is then found); primitives are tested against the whole ray
// (not clipped to the cell), and a pending cell is skipped only when it
// starts beyond the best hit.
#pragma once

#include "accel/bvh_traverse.h"  // TraversalStats, safeInverse
#include "accel/kdtree/kd_layout.h"

namespace strata {

// Entry and exit distances of the ray in a closed box; false on a miss. An
// axis the ray is parallel to only tests the origin (a ray lying in a face of
// the box is inside it).
STRATA_HD bool clipRayToBox(const Aabb& box, const Ray& ray, float tmax, float& t0, float& t1) {
    t0 = ray.tmin;
    t1 = tmax;
    for (int a = 0; a < 3; ++a) {
        const float o = ray.org[a], d = ray.dir[a];
        if (fabsf(d) < 1e-30f) {
            if (o < box.lo[a] || o > box.hi[a]) return false;
            continue;
        }
        const float inv = 1.0f / d;
        const float ta = (box.lo[a] - o) * inv, tb = (box.hi[a] - o) * inv;
        t0 = fmaxf(t0, fminf(ta, tb));
        t1 = fminf(t1, fmaxf(ta, tb));
    }
    return t0 <= t1;
}

// Relative rounding allowance on a ray's interval in a cell (a few floats).
constexpr float kKdIntervalSlack = 1e-6f;

struct KdStackEntry {
    uint32_t node;
    float t0, t1;
};

// Closest hit (AnyHit = false) or any hit (AnyHit = true) within
// (ray.tmin, tmax). Returns the hit primitive id or ~0u; tmax is updated to
// the hit distance.
template <bool AnyHit, class Intersect>
STRATA_HD uint32_t traverseKd(const KdView& kd, const Ray& ray, float& tmax, Intersect intersect,
                              TraversalStats* stats = nullptr) {
    uint32_t hitPrim = ~0u;
    if (kd.numNodes == 0) return hitPrim;
    float t0, t1;
    if (!clipRayToBox(kd.bounds, ray, tmax, t0, t1)) return hitPrim;
    const Vec3 inv{1.0f / ray.dir.x, 1.0f / ray.dir.y, 1.0f / ray.dir.z};  // inf where parallel: handled below
    KdStackEntry stack[kKdStackSize];
    int sp = 0;
    uint32_t node = 0;
    // One step down from the inner node n: the cell the ray meets first
    // becomes (node, t0, t1); the other one, when the ray reaches it, waits
    // on the stack.
    auto descend = [&](const KdNode& n) {
        const int axis = n.axis();
        const float split = n.split(), o = ray.org[axis], d = ray.dir[axis];
        const bool belowFirst = o < split || (o == split && d <= 0.0f);
        const uint32_t nearN = belowFirst ? n.leftChild() : n.rightChild();
        const uint32_t farN = belowFirst ? n.rightChild() : n.leftChild();
        if (o == split && fabsf(d) < 1e-30f) {
            // The ray lies in the plane: both cells hold its points.
            if (sp < kKdStackSize)
                stack[sp++] = {farN, t0, t1};
            else if (stats)
                stats->stackOverflow = true;
            node = nearN;
            return;
        }
        // A cell is left out only when the plane is clearly outside the
        // interval: a slab one float thick (kdCandidatePlane's, around a
        // wall) has an interval that rounding can make empty or reversed.
        const float tp = (split - o) * inv[axis];
        if (tp > t1 * (1.0f + kKdIntervalSlack) || tp <= 0.0f) {
            node = nearN;  // the plane is behind the ray or beyond the interval
        } else if (tp < t0 * (1.0f - kKdIntervalSlack)) {
            node = farN;
        } else {
            if (sp < kKdStackSize)
                stack[sp++] = {farN, fminf(tp, t1), t1};
            else if (stats)
                stats->stackOverflow = true;
            node = nearN;
            t1 = fmaxf(tp, t0);
        }
    };
    // The next cell that can still hold a closer hit (cells entered at or
    // before the best distance; the stack is not strictly ordered when a ray
    // in a split plane pushed a sibling with the same interval); false when
    // none is left.
    auto pop = [&]() -> bool {
        while (sp > 0) {
            const KdStackEntry e = stack[--sp];
            if (stats) stats->steps++;
            if (e.t0 <= tmax) {
                node = e.node;
                t0 = e.t0;
                t1 = fminf(e.t1, tmax);
                return true;
            }
        }
        return false;
    };
    auto testLeaf = [&](const KdNode& n) -> bool {  // true: any hit found
        const uint32_t first = n.firstPrim(), count = n.primCount();
        for (uint32_t k = 0; k < count; ++k) {
            uint32_t prim = kd.primIndex[first + k];
            if (stats) stats->primsTested++;
            float t = intersect(prim, ray, tmax);
            if (t < tmax) {
                tmax = t;
                hitPrim = prim;
                if (AnyHit) return true;
            }
        }
        return false;
    };
    // Aila & Laine (2009) on SIMT: the threads of a warp walk inner nodes
    // and empty leaves together and test their leaves together. A thread
    // that reaches a leaf with triangles before the others postpones it and
    // walks on (speculative traversal) until every converged thread of its
    // warp holds one or it reaches a second leaf; then the postponed leaf is
    // tested, then the walk resumes at the current cell. A popped cell may
    // lie beyond a hit the postponed leaf then finds: it is dropped after
    // the test. On the host (one thread) a leaf is tested when reached.
    // Conference room primary rays on an H200: 2,870 -> 3,541 Mrays/s
    // (docs/perf.md); the while-while loop alone was 2% slower.
    KdNode n = kd.nodes[node];
    bool alive = true;  // (node, t0, t1) is a cell still to walk, n its node
    for (;;) {
        KdNode leaf;
        bool haveLeaf = false;
        while (alive) {
            if (stats) stats->nodesVisited++;
            if (!n.isLeaf()) {
                descend(n);
            } else if (n.primCount() != 0) {
                if (haveLeaf) break;  // a second leaf: tested after the first
                leaf = n;
                haveLeaf = true;
                alive = pop();
            } else {
                alive = pop();
            }
            if (alive) n = kd.nodes[node];
            if (warpAllActive(haveLeaf)) break;
        }
        if (haveLeaf && testLeaf(leaf)) return hitPrim;
        if (alive && t0 > tmax) {  // the current cell starts beyond the hit just found
            alive = pop();
            if (alive) n = kd.nodes[node];
        } else if (alive) {
            t1 = fminf(t1, tmax);
        }
        if (!alive) return hitPrim;
    }
}

}  // namespace strata
