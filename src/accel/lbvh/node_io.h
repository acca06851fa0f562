// accel/lbvh/node_io.h — how the bottom-up passes (accel/lbvh/apetrei.h,
// apetrei_skip.h) move nodes between threads on the GPU: vector stores (the
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

// One child slot of a BvhNode (Apetrei: each child's thread writes its own
// slot): x and y bounds as one 16-byte store, z as one 8-byte store.
STRATA_HD void storeLeftChild(BvhNode* n, const Aabb& b, int32_t index, int32_t count) {
#if defined(__CUDA_ARCH__)
    *reinterpret_cast<float4*>(&n->lxLo) = make_float4(b.lo.x, b.hi.x, b.lo.y, b.hi.y);
    *reinterpret_cast<float2*>(&n->lzLo) = make_float2(b.lo.z, b.hi.z);
    n->left = index;
    n->leftCount = count;
#else
    n->setLeft(b, index, count);
#endif
}
STRATA_HD void storeRightChild(BvhNode* n, const Aabb& b, int32_t index, int32_t count) {
#if defined(__CUDA_ARCH__)
    *reinterpret_cast<float4*>(&n->rxLo) = make_float4(b.lo.x, b.hi.x, b.lo.y, b.hi.y);
    *reinterpret_cast<float2*>(&n->rzLo) = make_float2(b.lo.z, b.hi.z);
    n->right = index;
    n->rightCount = count;
#else
    n->setRight(b, index, count);
#endif
}

// The box another thread stored in a child slot / a skip-link node.
STRATA_HD Aabb loadLeftBoxCoherent(const BvhNode* n) {
#if defined(__CUDA_ARCH__)
    float4 xy = __ldcg(reinterpret_cast<const float4*>(&n->lxLo));
    float2 z = __ldcg(reinterpret_cast<const float2*>(&n->lzLo));
    return Aabb{{xy.x, xy.z, z.x}, {xy.y, xy.w, z.y}};
#else
    return n->leftBox();
#endif
}
STRATA_HD Aabb loadRightBoxCoherent(const BvhNode* n) {
#if defined(__CUDA_ARCH__)
    float4 xy = __ldcg(reinterpret_cast<const float4*>(&n->rxLo));
    float2 z = __ldcg(reinterpret_cast<const float2*>(&n->rzLo));
    return Aabb{{xy.x, xy.z, z.x}, {xy.y, xy.w, z.y}};
#else
    return n->rightBox();
#endif
}
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
