// accel/lbvh/node_io.h — how the bottom-up passes (accel/lbvh/karras.h,
// apetrei.h, apetrei_skip.h) move nodes between threads on the GPU: vector stores (the
// 128-bit accesses the layouts are sized for) and coherent loads of what
// another thread wrote before its atomicCAS (ld.global.cg: from L2, past the
// SM's incoherent L1). On the host, plain accesses.
#pragma once

#include "accel/bvh.h"

namespace strata {

// A whole BvhNode, as four 16-byte stores.
STRATA_HD void storeNode(BvhNode* dst, const BvhNode& v) {
#if defined(__CUDA_ARCH__)
    float4* d = reinterpret_cast<float4*>(dst);
    d[0] = make_float4(v.lxLo, v.lxHi, v.lyLo, v.lyHi);
    d[1] = make_float4(v.rxLo, v.rxHi, v.ryLo, v.ryHi);
    d[2] = make_float4(v.lzLo, v.lzHi, v.rzLo, v.rzHi);
    d[3] = make_float4(__int_as_float(v.left), __int_as_float(v.right), __int_as_float(v.leftCount),
                       __int_as_float(v.rightCount));
#else
    *dst = v;
#endif
}

// A whole skip-link node, as two 16-byte stores.
STRATA_HD void storeNode(StacklessNode* dst, const StacklessNode& v) {
#if defined(__CUDA_ARCH__)
    float4* d = reinterpret_cast<float4*>(dst);
    d[0] = make_float4(v.loX, v.loY, v.loZ, __int_as_float(v.left));
    d[1] = make_float4(v.hiX, v.hiY, v.hiZ, __int_as_float(v.skip));
#else
    *dst = v;
#endif
}

// A child subtree (its box, index and count) handed to the thread that
// completes the parent (Apetrei, and Karras's bottom-up pass: each child's
// thread leaves its subtree in the parent before the vote). On the GPU it goes into the parent's own 64 bytes in a
// transfer form, the left child in bytes 0-31 and the right one in 32-63:
// one full 32-byte sector each, where the node's final layout interleaves the
// two children over both sectors. The thread that completes the parent reads
// its sibling's sector, then overwrites the whole node with storeNode. On the
// host the child goes straight into its final fields, where the sibling's
// thread reads it.
struct ChildHandOver {
    Aabb box;
    int32_t index;
    int32_t count;  // BvhNode child count: 1 for a leaf, 0 for a node (GPU: if handed over)
};
// HandsCount: whether the GPU's transfer form carries the count (Karras's
// pass needs it; Apetrei's knows its children's kinds from the ranges, and
// a constant there keeps its kernel at 39 registers instead of 43).
template <bool HandsCount = false>
STRATA_HD void storeChild(BvhNode* n, bool right, const Aabb& b, int32_t index, int32_t count) {
#if defined(__CUDA_ARCH__)
    float4* d = reinterpret_cast<float4*>(n) + (right ? 2 : 0);
    d[0] = make_float4(b.lo.x, b.lo.y, b.lo.z, __int_as_float(index));
    d[1] = make_float4(b.hi.x, b.hi.y, b.hi.z, HandsCount ? __int_as_float(count) : 0.0f);
#else
    if (right)
        n->setRight(b, index, count);
    else
        n->setLeft(b, index, count);
#endif
}
STRATA_HD ChildHandOver loadChildCoherent(const BvhNode* n, bool right) {
#if defined(__CUDA_ARCH__)
    const float4* s = reinterpret_cast<const float4*>(n) + (right ? 2 : 0);
    float4 lo = __ldcg(s), hi = __ldcg(s + 1);
    return {Aabb{{lo.x, lo.y, lo.z}, {hi.x, hi.y, hi.z}}, __float_as_int(lo.w), __float_as_int(hi.w)};
#else
    return right ? ChildHandOver{n->rightBox(), n->right, n->rightCount}
                 : ChildHandOver{n->leftBox(), n->left, n->leftCount};
#endif
}

// The box another thread stored in a skip-link node.
STRATA_HD Aabb loadBoxCoherent(const StacklessNode* n) {
#if defined(__CUDA_ARCH__)
    float4 lo = __ldcg(reinterpret_cast<const float4*>(n));
    float4 hi = __ldcg(reinterpret_cast<const float4*>(n) + 1);
    return Aabb{{lo.x, lo.y, lo.z}, {hi.x, hi.y, hi.z}};
#else
    return n->box();
#endif
}

// A BvhNode with both children, built in registers (then stored whole).
STRATA_HD BvhNode makeNode(const Aabb& l, int32_t left, int32_t leftCount, const Aabb& r, int32_t right,
                           int32_t rightCount) {
    BvhNode n;
    n.setLeft(l, left, leftCount);
    n.setRight(r, right, rightCount);
    return n;
}

STRATA_HD StacklessNode makeSkipNode(const Aabb& b, int32_t left, int32_t skip) {
    StacklessNode n;
    n.set(b, left, skip);
    return n;
}

}  // namespace strata
