// accel/lbvh/apetrei_skip.h — the modified Apetrei algorithm with skip
// installation (Prokopenko & Lebrun-Grandié 2024, Algorithm 4): the single
// bottom-up pass of Algorithm 3 (accel/lbvh/apetrei.h) that restores Karras's
// node ordering and installs each node's left child and skip connection.
// Host-device code: one CUDA thread per leaf, or a loop on the CPU.
//
// Output, both in Karras's ordering (root 0):
//   skipNodes  the stackless layout of accel/bvh_stackless.h, 2n-1 nodes
//              (internal k at k, leaf k at n-1+k), own box + left + skip;
//   nodes      the BvhNodes of accel/bvh.h, node for node what Karras's two
//              passes (accel/lbvh/karras.h) produce, for the stack traversal.
#pragma once

#include "accel/bvh_stackless.h"
#include "accel/lbvh/apetrei.h"

namespace strata {

// Algorithm 2, shared by leaves (lines 5-8 of Algorithm 4) and internal nodes
// (lines 22-26): the skip target of a node whose range ends at rangeRight,
// given deltaRight = δ*(rangeRight). It is the node starting at r =
// rangeRight + 1: leaf L_r when that leaf is a right child (δ*(r-1) < δ*(r)),
// else I_r; the sentinel on the right-most path.
template <class Key>
STRATA_HD int32_t skipTarget(const Key* keys, int n, int rangeRight, uint64_t deltaRight) {
    if (rangeRight == n - 1) return kSkipSentinel;
    int r = rangeRight + 1;
    return deltaRight < apetreiDelta(keys, n, r) ? skipLeafIndex(n, r) : int32_t(r);
}

// Algorithm 4's vote as published, in global memory: each subtree's own box
// is in its skip node before its thread's atomicCAS (the fence orders
// them); the second thread up at split p reads the sibling's box from
// there. store must be ◇ on entry and is left ◇.
// (lbvh_block.cuh: strata's hand-over in shared memory within a block.)
struct ApetreiSkipGlobalHandOver {
    StacklessNode* skipNodes;
    int32_t* store;
    STRATA_HD int32_t vote(int p, bool /*right*/, const Aabb& /*box*/, int32_t /*index*/, int32_t /*count*/,
                           int32_t rangeEnd) {
        memoryFence();  // this subtree's skip node before the vote
        return atomicCasI32(&store[p], kStoreEmpty, rangeEnd);
    }
    STRATA_HD ChildHandOver sibling(int p, bool /*right*/, int32_t child) {
        store[p] = kStoreEmpty;
        memoryFence();
        return {loadBoxCoherent(&skipNodes[child]), child, 0};
    }
};

// Algorithm 4 for sorted leaf `leaf`, with the boxes, the vote at each
// parent through a hand-over policy (strata's block hand-over,
// lbvh_block.cuh; the published pass is written out below): the second
// thread up, being the one that knows the parent's full range, writes the
// whole parent: its Karras index q, left child, skip, box, and the BvhNode.
template <class Key, class HandOver>
STRATA_HD void apetreiSkipBottomUp(int leaf, int n, const Key* keys, const Aabb* primBounds, const uint32_t* sortedPrim,
                                   StacklessNode* skipNodes, BvhNode* nodes, HandOver& handOver) {
    uint32_t prim = sortedPrim[leaf];
    Aabb box = primBounds[prim];
    // Lines 3-4: the leaf's range and the δ* at both of its ends.
    int rangeLeft = leaf, rangeRight = leaf;
    uint64_t deltaLeft = apetreiDelta(keys, n, leaf - 1);
    uint64_t deltaRight = apetreiDelta(keys, n, leaf);
    // Lines 5-8: the leaf's skip connection (and its box and primitive).
    storeNode(&skipNodes[skipLeafIndex(n, leaf)],
              makeSkipNode(box, skipLeafLeft(prim), skipTarget(keys, n, leaf, deltaRight)));
    if (n == 1) {
        setSingleLeafRoot(nodes[0], box);
        return;
    }
    for (;;) {  // line 9: repeat
        int p;
        bool isLeftChild = deltaRight < deltaLeft;
        if (isLeftChild) {                                                  // line 10: "left child of its parent"
            p = rangeRight;                                                 // line 11: Apetrei index p
            int32_t other = handOver.vote(p, false, box, 0, 0, rangeLeft);  // line 12
            if (other == kStoreEmpty) return;                               // line 13: first thread up
            rangeRight = other;
            deltaRight = apetreiDelta(keys, n, rangeRight);                 // line 14: "recompute outdated value"
        } else {                                                            // line 15: "right child of its parent"
            p = rangeLeft - 1;                                              // line 16
            int32_t other = handOver.vote(p, true, box, 0, 0, rangeRight);  // line 17
            if (other == kStoreEmpty) return;                               // line 18
            rangeLeft = other;
            // Line 19 (printed δ*(range_left)): the parent's left end is δ*(range_left - 1).
            deltaLeft = apetreiDelta(keys, n, rangeLeft - 1);
        }
        // Line 20: the Karras index q is the range end with the smaller δ*.
        int q = deltaRight < deltaLeft ? rangeRight : rangeLeft;
        // Line 21: the children are the split p's neighbours, p and p+1, each a
        // leaf when its range is one key.
        bool leftIsLeaf = rangeLeft == p, rightIsLeaf = rangeRight == p + 1;
        int32_t leftChild = leftIsLeaf ? skipLeafIndex(n, p) : p;
        int32_t rightChild = rightIsLeaf ? skipLeafIndex(n, p + 1) : p + 1;
        const Aabb sibling = handOver.sibling(p, isLeftChild, isLeftChild ? rightChild : leftChild).box;
        Aabb leftBox = isLeftChild ? box : sibling;
        Aabb rightBox = isLeftChild ? sibling : box;
        box = merge(leftBox, rightBox);
        // Lines 22-26: the parent's skip connection.
        storeNode(&skipNodes[q], makeSkipNode(box, leftChild, skipTarget(keys, n, rangeRight, deltaRight)));
        // The BvhNode of the stack traversal, node for node Karras's.
        storeNode(&nodes[q], makeNode(leftBox, p, leftIsLeaf ? 1 : 0, rightBox, p + 1, rightIsLeaf ? 1 : 0));
        if (q == 0) return;  // lines 27-28: "until i = 0", I_0 is the root
    }
}

// Algorithm 4 as published, the vote in global memory, with the boxes. Each
// subtree's own box is in its skip node before its thread's atomicCAS; the
// second thread up at split p reads the sibling's from there, and being the
// one that knows the parent's full range, writes the whole parent: its
// Karras index q, left child, skip, box, and the BvhNode. store must be ◇ on
// entry and is left ◇. This is the climb above with ApetreiSkipGlobalHandOver
// written out: through the policy nvcc made a kernel 9% slower (H100, 1M
// triangles: 0.241 -> 0.262 ms, 46 -> 44 registers), so the published pass
// keeps its own body and the block hand-over's kernel the template.
template <class Key>
STRATA_HD void apetreiSkipBottomUp(int leaf, int n, const Key* keys, const Aabb* primBounds, const uint32_t* sortedPrim,
                                   StacklessNode* skipNodes, BvhNode* nodes, int32_t* store) {
    uint32_t prim = sortedPrim[leaf];
    Aabb box = primBounds[prim];
    // Lines 3-4: the leaf's range and the δ* at both of its ends.
    int rangeLeft = leaf, rangeRight = leaf;
    uint64_t deltaLeft = apetreiDelta(keys, n, leaf - 1);
    uint64_t deltaRight = apetreiDelta(keys, n, leaf);
    // Lines 5-8: the leaf's skip connection (and its box and primitive).
    storeNode(&skipNodes[skipLeafIndex(n, leaf)],
              makeSkipNode(box, skipLeafLeft(prim), skipTarget(keys, n, leaf, deltaRight)));
    if (n == 1) {
        setSingleLeafRoot(nodes[0], box);
        return;
    }
    for (;;) {  // line 9: repeat
        int p;
        bool isLeftChild = deltaRight < deltaLeft;
        memoryFence();       // this subtree's skip node before the vote
        if (isLeftChild) {   // line 10: "left child of its parent"
            p = rangeRight;  // line 11: Apetrei index p
            int32_t other = atomicCasI32(&store[p], kStoreEmpty, rangeLeft);  // line 12
            if (other == kStoreEmpty) return;                                 // line 13: first thread up
            rangeRight = other;
            deltaRight = apetreiDelta(keys, n, rangeRight);                    // line 14: "recompute outdated value"
        } else {                                                               // line 15: "right child of its parent"
            p = rangeLeft - 1;                                                 // line 16
            int32_t other = atomicCasI32(&store[p], kStoreEmpty, rangeRight);  // line 17
            if (other == kStoreEmpty) return;                                  // line 18
            rangeLeft = other;
            // Line 19 (printed δ*(range_left)): the parent's left end is δ*(range_left - 1).
            deltaLeft = apetreiDelta(keys, n, rangeLeft - 1);
        }
        store[p] = kStoreEmpty;
        memoryFence();
        // Line 20: the Karras index q is the range end with the smaller δ*.
        int q = deltaRight < deltaLeft ? rangeRight : rangeLeft;
        // Line 21: the children are the split p's neighbours, p and p+1, each a
        // leaf when its range is one key.
        bool leftIsLeaf = rangeLeft == p, rightIsLeaf = rangeRight == p + 1;
        int32_t leftChild = leftIsLeaf ? skipLeafIndex(n, p) : p;
        int32_t rightChild = rightIsLeaf ? skipLeafIndex(n, p + 1) : p + 1;
        Aabb leftBox = isLeftChild ? box : loadBoxCoherent(&skipNodes[leftChild]);
        Aabb rightBox = isLeftChild ? loadBoxCoherent(&skipNodes[rightChild]) : box;
        box = merge(leftBox, rightBox);
        // Lines 22-26: the parent's skip connection.
        storeNode(&skipNodes[q], makeSkipNode(box, leftChild, skipTarget(keys, n, rangeRight, deltaRight)));
        // The BvhNode of the stack traversal, node for node Karras's.
        storeNode(&nodes[q], makeNode(leftBox, p, leftIsLeaf ? 1 : 0, rightBox, p + 1, rightIsLeaf ? 1 : 0));
        if (q == 0) return;  // lines 27-28: "until i = 0", I_0 is the root
    }
}

}  // namespace strata
