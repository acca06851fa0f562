// accel/lbvh/apetrei.h — Apetrei 2014, "Fast and Simple Agglomerative LBVH
// Construction", in the form of Algorithm 3 of Prokopenko & Lebrun-Grandié
// 2024: one bottom-up pass from the leaves builds the hierarchy and its boxes
// together. Written once for both backends: the CUDA builder runs it one
// thread per leaf, the CPU run loops over the leaves (CAS shim of core/hd.h).
//
// Layout: the BvhNodes of accel/bvh.h in Apetrei's ordering: internal node p
// is the one whose split lies between sorted keys p and p+1 (0..n-2); its
// children are (p, leaf or node) and (p+1, leaf or node), a leaf being its
// sorted position (primIndex entry) with count 1. The root is wherever the
// largest δ* is, so the pass stores its index. The hierarchy is Karras's:
// Karras's node k is Apetrei's node nodes[k].left (its split).
#pragma once

#include "accel/bvh.h"
#include "accel/lbvh/node_io.h"
#include "core/hd.h"

namespace strata {

// ◇: an empty entry of the store array.
constexpr int32_t kStoreEmpty = -1;
// δ* outside [0, n-2] is +∞.
constexpr uint64_t kDeltaInfinity = ~0ull;

// δ*(i) = δ(i, i+1) as Apetrei computes it: the XOR of neighbouring sorted
// keys instead of the length of their common prefix (karrasDelta). Smaller
// means more similar. Equal keys are augmented with their index, as Karras
// does ("augment each key with its index"): their XOR is i ^ (i+1), which is
// below every XOR of distinct keys (those are offset by 2^32; keys have at
// most 63 bits). Only values at the two ends of one node's range are ever
// compared, and there the highest set bits differ, so comparing the values
// orders the tree exactly as karrasDelta's prefix lengths do.
template <class Key>
STRATA_HD uint64_t apetreiDelta(const Key* keys, int n, int i) {
    if (i < 0 || i >= n - 1) return kDeltaInfinity;
#if defined(__CUDA_ARCH__)
    uint64_t x = uint64_t(__ldg(keys + i) ^ __ldg(keys + i + 1));  // read-only path: scattered loads
#else
    uint64_t x = uint64_t(keys[i] ^ keys[i + 1]);
#endif
    return x ? x + (1ull << 32) : uint64_t(uint32_t(i) ^ uint32_t(i + 1));
}

// strata's block hand-over (lbvh_block.cuh): whether split p's range of
// leaves lies within a block's leaves [b0, b1), given the largest δ* of the
// splits b0-1 .. p-1 (prefixMax) and of p+1 .. b1-1 (suffixMax, 0 for
// none). A subtree [L, R] goes up to split R when δ*(R) < δ*(L-1), else to
// L-1, so p's range ends at the nearest split to its left with a larger δ*
// and the nearest to its right with one at least as large.
STRATA_HD bool apetreiSplitInBlock(int p, int n, uint64_t prefixMax, uint64_t delta, uint64_t suffixMax) {
    return p < n - 1 && prefixMax > delta && suffixMax >= delta;
}

// The root of a one-primitive tree: the leaf and an absent right child.
STRATA_HD void setSingleLeafRoot(BvhNode& root, const Aabb& box) {
    root.setLeft(box, 0, 1);
    root.setRight(Aabb(), -1, 0);
}

// How the two threads that reach a parent meet (the vote of Algorithm 3,
// lines 8-10 and 14-16, and the hand-over of the first one's subtree). This
// one is Apetrei's as published, in global memory: the thread leaves its
// subtree in its side of the parent (node_io.h: storeChild), then the
// atomicCAS on store[p] decides: the first thread up leaves its far range
// end there and stops; the second reads it and the sibling's subtree. The
// second thread also resets store[p] to ◇, so the array is ready for the
// next build without a clearing launch. store must be ◇ on entry.
// (lbvh_block.cuh: strata's hand-over in shared memory within a block.)
struct ApetreiGlobalHandOver {
    BvhNode* nodes;
    int32_t* store;
    // Leaves this subtree (box, index, count) in side `right` of parent p
    // and votes; returns the sibling's far range end, or ◇ for the first.
    STRATA_HD int32_t vote(int p, bool right, const Aabb& box, int32_t index, int32_t count, int32_t rangeEnd) {
        storeChild(&nodes[p], right, box, index, count);
        memoryFence();
        return atomicCasI32(&store[p], kStoreEmpty, rangeEnd);
    }
    // The second thread up: the sibling's subtree, from side `right` (the
    // sibling's node index `child` is for layouts that keep it elsewhere).
    STRATA_HD ChildHandOver sibling(int p, bool right, int32_t /*child*/) {
        store[p] = kStoreEmpty;
        memoryFence();
        return loadChildCoherent(&nodes[p], right);
    }
};

// Algorithm 3 for sorted leaf `leaf`, with the boxes: the vote at each
// parent (HandOver, above), and the second thread up completes the parent's
// range, writes the whole parent node, goes on.
template <class Key, class HandOver>
STRATA_HD void apetreiBottomUp(int leaf, int n, const Key* keys, const Aabb* primBounds, const uint32_t* sortedPrim,
                               BvhNode* nodes, HandOver& handOver, uint32_t* root) {
    Aabb box = primBounds[sortedPrim[leaf]];
    if (n == 1) {
        setSingleLeafRoot(nodes[0], box);
        *root = 0;
        return;
    }
    int i = leaf;       // the current subtree: leaf i, then internal node i
    int32_t count = 1;  // BvhNode child count: 1 for a leaf, 0 for a node
    // Lines 3-4: the leaf's range and the δ* at both of its ends.
    int rangeLeft = leaf, rangeRight = leaf;
    uint64_t deltaLeft = apetreiDelta(keys, n, rangeLeft - 1);
    uint64_t deltaRight = apetreiDelta(keys, n, rangeRight);
    for (;;) {  // line 5: repeat
        int p;
        bool isLeftChild = deltaRight < deltaLeft;
        if (isLeftChild) {                                                      // line 6: "left child of its parent"
            p = rangeRight;                                                     // line 7: Apetrei index p
            int32_t other = handOver.vote(p, false, box, i, count, rangeLeft);  // lines 8-9
            if (other == kStoreEmpty) return;                                   // line 10: first thread up
            rangeRight = other;
            deltaRight = apetreiDelta(keys, n, rangeRight);  // line 11: "recompute outdated value"
        } else {                                             // line 12: "right child of its parent p"
            p = rangeLeft - 1;                               // line 13
            int32_t other = handOver.vote(p, true, box, i, count, rangeRight);  // lines 14-15
            if (other == kStoreEmpty) return;                                   // line 16
            rangeLeft = other;
            deltaLeft = apetreiDelta(keys, n, rangeLeft - 1);  // line 17
        }
        // The sibling's subtree is in place: write the parent whole. Its box
        // is the union, always left then right, so every backend and arrival
        // order gives the same bits. A child is a leaf when its side of the
        // range is one key.
        ChildHandOver sibling = handOver.sibling(p, isLeftChild, 0);
        BvhNode parent = isLeftChild ? makeNode(box, i, count, sibling.box, sibling.index, rangeRight == p + 1 ? 1 : 0)
                                     : makeNode(sibling.box, sibling.index, rangeLeft == p ? 1 : 0, box, i, count);
        storeNode(&nodes[p], parent);
        box = merge(parent.leftBox(), parent.rightBox());
        i = p;  // line 18
        count = 0;
        if (rangeLeft == 0 && rangeRight == n - 1) {  // line 19: the range covers all keys
            *root = uint32_t(p);
            return;
        }
    }
}

// Algorithm 3 as published: the hand-over in global memory.
template <class Key>
STRATA_HD void apetreiBottomUp(int leaf, int n, const Key* keys, const Aabb* primBounds, const uint32_t* sortedPrim,
                               BvhNode* nodes, int32_t* store, uint32_t* root) {
    ApetreiGlobalHandOver handOver{nodes, store};
    apetreiBottomUp(leaf, n, keys, primBounds, sortedPrim, nodes, handOver, root);
}

}  // namespace strata
