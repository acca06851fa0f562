// accel/lbvh/karras.h — the per-node steps of Karras 2012, "Maximizing
// Parallelism in the Construction of BVHs, Octrees, and k-d Trees", written
// once for both backends: the CUDA builder runs them one thread per node, the
// CPU tests run them in a loop (with the CAS/atomic shims of core/hd.h).
//
// Layout: n sorted primitives; internal nodes 0..n-2 (root 0) are BvhNodes;
// leaf i is the sorted primitive i, referenced from its parent with count 1.
// parent[] holds the parents of internal nodes (0..n-2) then of leaves
// (n-1..2n-2), each as karrasParentEntry (the parent and the child's side).
#pragma once

#include "accel/bvh.h"
#include "accel/lbvh/morton.h"
#include "accel/lbvh/node_io.h"
#include "core/hd.h"

namespace strata {

// δ(i, j) of Karras §4: length of the common prefix of keys i and j, -1 when
// j is outside [0, n). Duplicate keys are made unique by appending the index
// ("augment each key with its index"), so equal keys compare by i XOR j.
template <class Key>
STRATA_HD int karrasDelta(const Key* keys, int n, int i, int j) {
    if (j < 0 || j >= n) return -1;
    Key a = keys[i], b = keys[j];
    if (a != b) return sizeof(Key) == 8 ? clz64(uint64_t(a ^ b)) : clz32(uint32_t(a ^ b));
    return int(sizeof(Key) * 8) + clz32(uint32_t(i ^ j));
}

// A parent[] entry: the parent node and whether the child is its right one;
// with strata's block hand-over, bit 30 also says that the parent's whole
// range lies within one block of `block` leaves (lbvh_block.cuh), so both of
// its children's threads run in that block. Only the block hand-over's pass
// reads the bit (KarrasBlockHandOver::kInBlockBit), and LbvhBuilder writes
// it only for trees of fewer than 2^29 leaves, whose entries stay below
// 2^30; every other reader takes the entry whole (parent * 2 + side, up to
// 2^31 - 1).
constexpr int32_t kKarrasParentInBlock = int32_t(1) << 30;
constexpr uint32_t kKarrasMaxBlockFlagged = 1u << 29;
STRATA_HD int32_t karrasParentEntry(int parent, bool right, bool inBlock = false) {
    return (int32_t(parent) * 2 + (right ? 1 : 0)) | (inBlock ? kKarrasParentInBlock : 0);
}

// Karras 2012, Figure 4: for internal node i, find its range [first, last]
// and split, and install its children: the children's parent entries (the
// bottom-up pass writes node i whole, children and boxes).
// Node 0, the root, has no parent: its entry is -1 (written by node 0's call).
// block > 0: the children's entries say whether node i's range lies within
// one block of that many leaves (karrasParentEntry).
template <class Key>
STRATA_HD void karrasInternalNode(const Key* keys, int n, int i, int32_t* parent, int block = 0) {
    if (i == 0) parent[0] = -1;
    // Determine the direction of the range (+1 or -1).
    int dPlus = karrasDelta(keys, n, i, i + 1), dMinus = karrasDelta(keys, n, i, i - 1);
    int d = dPlus > dMinus ? 1 : -1;
    // Compute an upper bound for the length of the range.
    int deltaMin = karrasDelta(keys, n, i, i - d);
    int lMax = 2;
    while (karrasDelta(keys, n, i, i + lMax * d) > deltaMin) lMax *= 2;
    // Find the other end using binary search.
    int l = 0;
    for (int t = lMax / 2; t >= 1; t /= 2)
        if (karrasDelta(keys, n, i, i + (l + t) * d) > deltaMin) l += t;
    int j = i + l * d;
    // Find the split position using binary search.
    int deltaNode = karrasDelta(keys, n, i, j);
    int s = 0;
    int t = l;
    do {
        t = (t + 1) >> 1;
        if (karrasDelta(keys, n, i, i + (s + t) * d) > deltaNode) s += t;
    } while (t > 1);
    int gamma = i + s * d + (d < 0 ? -1 : 0);
    // Output child pointers: a child is a leaf when its range is one primitive.
    int lo = i < j ? i : j, hi = i < j ? j : i;
    const bool inBlock = block > 0 && lo / block == hi / block;
    parent[lo == gamma ? (n - 1) + gamma : gamma] = karrasParentEntry(i, false, inBlock);
    parent[hi == gamma + 1 ? (n - 1) + gamma + 1 : gamma + 1] = karrasParentEntry(i, true, inBlock);
}

// How the two threads that reach a node meet in Karras's bottom-up pass, as
// Apetrei hands over (node_io.h): a thread leaves its subtree (box, index,
// count) in its side of the parent, votes with an atomic counter, and the
// second one reads its sibling's side. In global memory, at every node.
// (lbvh_block.cuh: strata's hand-over in shared memory within a block.)
struct KarrasGlobalHandOver {
    static constexpr int32_t kInBlockBit = 0;  // entries are read whole
    BvhNode* nodes;
    uint32_t* visits;
    // True for the second thread up.
    STRATA_HD bool vote(int p, bool right, bool /*inBlock*/, const Aabb& box, int32_t index, int32_t count) {
        storeChild<true>(&nodes[p], right, box, index, count);
        memoryFence();
        return atomicAddU32(&visits[p], 1u) != 0;
    }
    STRATA_HD ChildHandOver sibling(int p, bool right, bool /*inBlock*/) {
        memoryFence();
        return loadChildCoherent(&nodes[p], right);
    }
};

// Karras 2012 §4, bottom-up bounding boxes: one thread per leaf walks towards
// the root (the node whose parent entry is -1); at each internal node the
// first thread to arrive stops, the second (whose sibling box is then
// complete) continues (HandOver, above), reads its sibling's side and writes
// the parent whole, left then right, so every arrival order gives the same bits.
template <class HandOver>
STRATA_HD void karrasBottomUp(int leaf, int n, const Aabb* primBounds, const uint32_t* sortedPrim, BvhNode* nodes,
                              const int32_t* parent, HandOver& handOver) {
    Aabb box = primBounds[sortedPrim[leaf]];
    int child = (n - 1) + leaf;  // parent[] index of the current subtree
    int32_t index = leaf;        // the subtree as its parent refers to it
    int32_t count = 1;
    for (;;) {
        const int32_t entry = parent[child];
        const int p = (entry & ~HandOver::kInBlockBit) >> 1;
        const bool right = (entry & 1) != 0, inBlock = (entry & HandOver::kInBlockBit) != 0;
        if (!handOver.vote(p, right, inBlock, box, index, count)) return;  // the sibling is not done yet
        const ChildHandOver sibling = handOver.sibling(p, !right, inBlock);
        const BvhNode node = right ? makeNode(sibling.box, sibling.index, sibling.count, box, index, count)
                                   : makeNode(box, index, count, sibling.box, sibling.index, sibling.count);
        storeNode(&nodes[p], node);
        box = merge(node.leftBox(), node.rightBox());
        if (parent[p] < 0) return;  // the root (Karras's is node 0; a refit's, wherever its tree has it)
        child = p;
        index = p;
        count = 0;
    }
}

// Karras's pass as published: every vote in global memory.
STRATA_HD void karrasBottomUp(int leaf, int n, const Aabb* primBounds, const uint32_t* sortedPrim, BvhNode* nodes,
                              const int32_t* parent, uint32_t* visits) {
    KarrasGlobalHandOver handOver{nodes, visits};
    karrasBottomUp(leaf, n, primBounds, sortedPrim, nodes, parent, handOver);
}

}  // namespace strata
