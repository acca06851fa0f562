// accel/bvh_stackless.h — the skip-link (escape index) node layout of the
// stackless traversal (Prokopenko & Lebrun-Grandié 2024, Algorithm 1; Torres
// et al. 2009). A node stores only its own bounds, its left child and its skip
// connection: 32 bytes, read as two 16-byte loads (float3 lo + left, float3 hi
// + skip), as the Apetrei walk-through advises for 128-bit alignment.
//
// Numbering (Karras 2012 ordering, n primitives, 2n-1 nodes):
//   internal node I_k  -> index k        (0..n-2, root I_0 = 0)
//   leaf node L_k      -> index n-1+k    (sorted primitive k)
// so a one-primitive tree is the single leaf 0. An internal node's `left` is
// the index of its left child (>= 0); a leaf's `left` is ~primitive id (< 0),
// so the leaf holds the primitive itself. `skip` is the node where traversal
// continues after this node's subtree, kSkipSentinel on the right-most path.
#pragma once

#include <cstdint>

#include "core/aabb.h"

namespace strata {

constexpr int32_t kSkipSentinel = -1;  // ♦, the terminal node of Algorithm 1

struct alignas(16) StacklessNode {
    float loX, loY, loZ;
    int32_t left;  // internal: left child index; leaf: ~primitive id
    float hiX, hiY, hiZ;
    int32_t skip;  // skip connection, or kSkipSentinel

    STRATA_HD bool isLeaf() const { return left < 0; }
    STRATA_HD uint32_t primitive() const { return uint32_t(~left); }
    STRATA_HD Aabb box() const { return Aabb{{loX, loY, loZ}, {hiX, hiY, hiZ}}; }
    STRATA_HD void set(const Aabb& b, int32_t leftChild, int32_t skipTo) {
        loX = b.lo.x;
        loY = b.lo.y;
        loZ = b.lo.z;
        left = leftChild;
        hiX = b.hi.x;
        hiY = b.hi.y;
        hiZ = b.hi.z;
        skip = skipTo;
    }
};
static_assert(sizeof(StacklessNode) == 32, "StacklessNode is read as two 16-byte loads");

// Index helpers of the numbering above.
STRATA_HD int32_t skipLeafIndex(int n, int k) { return n - 1 + k; }
STRATA_HD int32_t skipLeafLeft(uint32_t primitive) { return ~int32_t(primitive); }

}  // namespace strata
