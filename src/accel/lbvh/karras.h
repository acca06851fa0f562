// accel/lbvh/karras.h — the per-node steps of Karras 2012, "Maximizing
// Parallelism in the Construction of BVHs, Octrees, and k-d Trees", written
// once for both backends: the CUDA builder runs them one thread per node, the
// CPU tests run them in a loop (with the CAS/atomic shims of core/hd.h).
//
// Layout: n sorted primitives; internal nodes 0..n-2 (root 0) are BvhNodes;
// leaf i is the sorted primitive i, referenced from its parent with count 1.
// parent[] holds the parents of internal nodes (0..n-2) then of leaves
// (n-1..2n-2).
#pragma once

#include "accel/bvh.h"
#include "accel/lbvh/morton.h"

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

// Karras 2012, Figure 4: for internal node i, find its range [first, last]
// and split, and install its children. Writes node i's child indices (boxes
// come in the bottom-up pass) and the children's parent pointers.
template <class Key>
STRATA_HD void karrasInternalNode(const Key* keys, int n, int i, BvhNode* nodes, int32_t* parent) {
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
    BvhNode& node = nodes[i];
    node.left = gamma;
    node.leftCount = lo == gamma ? 1 : 0;
    node.right = gamma + 1;
    node.rightCount = hi == gamma + 1 ? 1 : 0;
    parent[node.leftCount ? (n - 1) + gamma : gamma] = i;
    parent[node.rightCount ? (n - 1) + gamma + 1 : gamma + 1] = i;
}

// Karras 2012 §4, bottom-up bounding boxes: one thread per leaf walks towards
// the root; at each internal node the first thread to arrive stops, the second
// (whose sibling box is then complete) continues. Each node stores its
// children's boxes, so a thread writes the box of the subtree it comes from
// into its parent's slot, then votes with an atomic counter.
STRATA_HD void karrasBottomUp(int leaf, int n, const Aabb* primBounds, const uint32_t* sortedPrim, BvhNode* nodes,
                              const int32_t* parent, uint32_t* visits) {
    Aabb box = primBounds[sortedPrim[leaf]];
    int child = (n - 1) + leaf;  // parent[] index of the current subtree
    int childNode = leaf;        // index as the parent refers to it
    bool childIsLeaf = true;
    for (;;) {
        int p = parent[child];
        BvhNode& node = nodes[p];
        bool isLeft = node.left == childNode && (node.leftCount > 0) == childIsLeaf;
        if (isLeft)
            node.setLeft(box, node.left, node.leftCount);
        else
            node.setRight(box, node.right, node.rightCount);
        memoryFence();
        if (atomicAddU32(&visits[p], 1u) == 0) return;  // the sibling is not done yet
        memoryFence();
        // Both child boxes are in place: this subtree's box is their union.
#if defined(__CUDA_ARCH__)
        const volatile BvhNode& v = nodes[p];
        box = Aabb{{fminf(v.lxLo, v.rxLo), fminf(v.lyLo, v.ryLo), fminf(v.lzLo, v.rzLo)},
                   {fmaxf(v.lxHi, v.rxHi), fmaxf(v.lyHi, v.ryHi), fmaxf(v.lzHi, v.rzHi)}};
#else
        box = merge(node.leftBox(), node.rightBox());
#endif
        if (p == 0) return;
        child = p;
        childNode = p;
        childIsLeaf = false;
    }
}

}  // namespace strata
