// accel/toplevel/top_walk.h — the top level's walk as a sequence of leaf
// entries (instances), so that the two-level traversal (two_level.h) walks
// the BLAS of each one from a single place in its loop:
//
//   TopLevelWalk::Stack stack;
//   TopLevelWalk walk(top, ray, stack);
//   for (uint32_t i; (i = walk.next(tmax, stats)) != ~0u;)  // walk instance i's BLAS
//
// The entries come in the order traverseBvh's leaf tests would take them
// (for top levels its kBvhStackSize-entry stack holds; past that it
// restarted from the root), with the same culling: at each inner node both
// child boxes are tested against the current tmax; a hit leaf child's
// entries come at once, the left's before the right's, and of two hit inner
// children the nearer is walked first. With the BLAS walk inlined into the
// top level's leaf tests, each of traverseBvh's leaf-test sites (left and
// right child, fast and deep stack, scan) held a copy of the whole BLAS
// traversal; here there is one.
//
// The stack has kBvhDeepStackSize entries (any LBVH over the instances fits);
// should a push overflow it, the walk returns every leaf entry in turn from
// the first (a scan): entries already walked come again, which finds no hit
// closer than tmax, so nothing is lost or counted twice as a hit (a visit
// with side effects, such as the VD pairs', sees them again).
//
// The walk refers to the view and the ray (in the render kernels, their
// parameters and registers: neither may be a temporary) and computes the
// inverse direction once per next(); its stack is the caller's. As members,
// the stack put the whole walk in local memory (every member a load and a
// store in SASS) and the view's pointers and the inverse direction kept
// registers through each BLAS walk. A version that also recomputed the
// inverse direction per node and queued a right leaf on the stack traced
// 20-30% slower (perf.md).
#pragma once

#include "accel/bvh_traverse.h"

namespace strata {

class TopLevelWalk {
public:
    using Stack = int32_t[kBvhDeepStackSize];

    STRATA_HD TopLevelWalk(const BvhView& top, const Ray& ray, Stack& stack)
        : top_(top), ray_(ray), stack_(stack), node_(top.numNodes ? int32_t(rootOf(top)) : -1) {}
    TopLevelWalk(const BvhView&, Ray&&, Stack&) = delete;  // the walk would outlive them
    TopLevelWalk(BvhView&&, const Ray&, Stack&) = delete;
    TopLevelWalk(const TopLevelWalk&) = delete;  // a copy would share the stack
    TopLevelWalk& operator=(const TopLevelWalk&) = delete;

    // The next instance whose leaf the walk reaches within tmax, or ~0u when
    // it is over. tmax is the closest hit so far (it only shrinks).
    STRATA_HD uint32_t next(float tmax, TraversalStats* stats) {
        const Vec3 invDir = safeInverse(ray_.dir);
        for (;;) {
            if (count_ > 0) {
                --count_;
                return top_.primIndex[first_++];
            }
            if (pendingCount_ > 0) {  // the right leaf child, after the left's entries
                first_ = pendingFirst_;
                count_ = pendingCount_;
                pendingCount_ = 0;
                continue;
            }
            if (scan_) return ~0u;
            if (node_ < 0) {
                if (sp_ == 0) return ~0u;
                node_ = stack_[--sp_];
                if (stats) stats->steps++;
            }
            step(invDir, tmax, stats);
        }
    }

private:
    // Visits node_: queues its hit leaf children's entries and moves node_ to
    // the inner child to walk next (-1: pop), pushing the farther of two.
    STRATA_HD void step(Vec3 invDir, float tmax, TraversalStats* stats) {
        const NodeBoxes n = loadNode(top_.nodes, node_);
        if (stats) {
            stats->nodesVisited++;
            stats->topNodes++;
        }
        const float tl = slabEntry(n.lLo, n.lHi, ray_.org, invDir, ray_.tmin, tmax);
        const float tr = slabEntry(n.rLo, n.rHi, ray_.org, invDir, ray_.tmin, tmax);
        // An absent right child (index -1: the root of a one-instance tree)
        // has an empty box, which the slab test would take for all space.
        bool hitL = tl <= tmax, hitR = tr <= tmax && n.right >= 0;
        if (hitL && n.leftCount > 0) {
            first_ = n.left;
            count_ = n.leftCount;
            hitL = false;
        }
        if (hitR && n.rightCount > 0) {
            if (count_ > 0) {
                pendingFirst_ = n.right;
                pendingCount_ = n.rightCount;
            } else {
                first_ = n.right;
                count_ = n.rightCount;
            }
            hitR = false;
        }
        if (hitL && hitR) {
            if (sp_ == kBvhDeepStackSize) {
                startScan(stats);
                return;
            }
            stack_[sp_++] = tl <= tr ? n.right : n.left;
            node_ = tl <= tr ? n.left : n.right;
        } else if (hitL) {
            node_ = n.left;
        } else if (hitR) {
            node_ = n.right;
        } else {
            node_ = -1;
        }
    }

    STRATA_HD void startScan(TraversalStats* stats) {
        if (stats) {
            stats->stackOverflow = true;
            stats->scanRestarts++;
        }
        scan_ = true;
        first_ = 0;
        count_ = int32_t(top_.numPrims);
        pendingCount_ = 0;
    }

    const BvhView& top_;
    const Ray& ray_;
    int32_t* stack_;
    int32_t node_;
    int32_t first_ = 0, count_ = 0;                // leaf entries to return now
    int32_t pendingFirst_ = 0, pendingCount_ = 0;  // then these (a right leaf child)
    bool scan_ = false;
    int sp_ = 0;
};

}  // namespace strata
