// accel/wide/collapse.h — one binary BVH node's subtree top made into one
// CWBVH node (accel/wide/cwbvh.h): the step both the host collapse
// (collapse_host.cpp) and the GPU's per-frame collapse (cwbvh_gpu.cu) run
// for each wide node, top down from the root.
//
// Ylitie et al. §4.1 collapse with an SAH-optimal dynamic program over the
// binary tree; strata collapses greedily, as per-frame GPU builders do: a
// wide node starts with its binary node's two children and opens the inner
// child of largest surface area (replacing it by its two children) while
// the children fit the 8 slots. A binary leaf of c primitives takes
// ceil(c / 3) slots (the LBVHs' leaves hold one, the binned-SAH tree's up
// to 4; a leaf may hold at most kCwbvhMaxBinaryLeaf, so that a node's two
// children always fit). Then the children are
// given the slots that order them for the traversal (§3.2, by their
// centroids' directions from the node's centre), their boxes are quantized,
// and the inner children become the next wide nodes, each a task.
#pragma once

#include "accel/bvh.h"
#include "accel/bvh_traverse.h"
#include "accel/wide/cwbvh.h"

namespace strata {

struct CollapseChild {
    Aabb box;
    int32_t index = -1;  // binary node, or first primIndex entry of a leaf
    int32_t count = 0;   // > 0: a leaf of that many entries
};

STRATA_HD int cwbvhSlotsOf(const CollapseChild& c) {
    return c.count > 0 ? (c.count + kCwbvhMaxLeafPrims - 1) / kCwbvhMaxLeafPrims : 1;
}

// The two children of binary node i (an absent one, count 0 and index < 0,
// is left out).
STRATA_HD int binaryChildren(const BvhNode* nodes, int32_t i, CollapseChild out[2]) {
    const NodeBoxes n = loadNode(nodes, i);
    int k = 0;
    out[k++] = CollapseChild{Aabb{n.lLo, n.lHi}, n.left, n.leftCount};
    if (n.rightCount > 0 || n.right >= 0) out[k++] = CollapseChild{Aabb{n.rLo, n.rHi}, n.right, n.rightCount};
    return k;
}

// The wide node for binary node `binary` into nodes[wide]. Sink:
//   uint32_t allocNodes(uint32_t k)  first of k consecutive wide nodes
//   uint32_t allocPrims(uint32_t k)  first of k consecutive leaf entries
//   void task(uint32_t wide, int32_t binary)  wide node `wide` is to be made from `binary`
// Returns the leaf entries it placed.
template <class Sink>
STRATA_HD uint32_t collapseNode(const BvhView& bvh, int32_t binary, uint32_t wide, CwbvhNode* nodes,
                                uint32_t* primIndex, Sink& sink) {
    CollapseChild c[kCwbvhWidth];
    int m = binaryChildren(bvh.nodes, binary, c);
    int slots = 0;
    for (int k = 0; k < m; ++k) slots += cwbvhSlotsOf(c[k]);
    // Open the largest inner child while its children fit.
    uint32_t closed = 0;  // bit k: c[k] is inner but its children do not fit
    for (;;) {
        int best = -1;
        float bestArea = -1.0f;
        for (int k = 0; k < m; ++k)
            if (c[k].count == 0 && !(closed >> k & 1u) && c[k].box.area() > bestArea) {
                best = k;
                bestArea = c[k].box.area();
            }
        if (best < 0) break;
        CollapseChild g[2];
        const int gm = binaryChildren(bvh.nodes, c[best].index, g);
        int add = -1;
        for (int k = 0; k < gm; ++k) add += cwbvhSlotsOf(g[k]);
        if (slots + add > kCwbvhWidth || m + gm - 1 > kCwbvhWidth) {
            closed |= 1u << best;
            continue;
        }
        slots += add;
        c[best] = g[0];
        closed &= ~(1u << best);
        if (gm > 1) c[m++] = g[1];
    }
    // Leaves of more than 3 entries become parts of up to 3, one slot each
    // (the parts appended are split in turn as the loop reaches them).
    for (int k = 0; k < m; ++k)
        if (c[k].count > kCwbvhMaxLeafPrims) {
            c[m++] = CollapseChild{c[k].box, c[k].index + kCwbvhMaxLeafPrims, c[k].count - kCwbvhMaxLeafPrims};
            c[k].count = kCwbvhMaxLeafPrims;
        }
    // The node box and its grid.
    Aabb box;
    for (int k = 0; k < m; ++k) box.grow(c[k].box);
    CwbvhNode& n = nodes[wide];
    n.px = box.lo.x;
    n.py = box.lo.y;
    n.pz = box.lo.z;
    n.ex = cwbvhExponent(double(box.hi.x) - double(box.lo.x));
    n.ey = cwbvhExponent(double(box.hi.y) - double(box.lo.y));
    n.ez = cwbvhExponent(double(box.hi.z) - double(box.lo.z));
    // Slots for the traversal order: the pair (child, slot) whose direction
    // agrees most, greedily (slot bit a: + on axis a).
    const Vec3 centre = box.center();
    int slotOf[kCwbvhWidth];
    uint32_t freeSlots = 0xffu, unplaced = (1u << m) - 1u;
    while (unplaced) {
        int bc = -1, bs = -1;
        float bestCost = -3.0e38f;
        for (int k = 0; k < m; ++k) {
            if (!(unplaced >> k & 1u)) continue;
            const Vec3 d = c[k].box.center() - centre;
            for (int s = 0; s < kCwbvhWidth; ++s) {
                if (!(freeSlots >> s & 1u)) continue;
                const float cost = ((s & 1) ? d.x : -d.x) + ((s & 2) ? d.y : -d.y) + ((s & 4) ? d.z : -d.z);
                if (cost > bestCost) {
                    bestCost = cost;
                    bc = k;
                    bs = s;
                }
            }
        }
        slotOf[bc] = bs;
        unplaced &= ~(1u << bc);
        freeSlots &= ~(1u << bs);
    }
    int childAt[kCwbvhWidth];  // slot -> child, -1 empty
    for (int s = 0; s < kCwbvhWidth; ++s) childAt[s] = -1;
    for (int k = 0; k < m; ++k) childAt[slotOf[k]] = k;
    uint32_t inner = 0, entries = 0;
    for (int k = 0; k < m; ++k) {
        if (c[k].count == 0)
            ++inner;
        else
            entries += uint32_t(c[k].count);
    }
    n.childBase = inner ? sink.allocNodes(inner) : 0u;
    n.primBase = entries ? sink.allocPrims(entries) : 0u;
    n.imask = 0;
    uint32_t nextInner = 0, offset = 0;
    for (int s = 0; s < kCwbvhWidth; ++s) {
        const int k = childAt[s];
        if (k < 0) {
            n.meta[s] = 0;
            n.qlox[s] = n.qloy[s] = n.qloz[s] = 0;
            n.qhix[s] = n.qhiy[s] = n.qhiz[s] = 0;
            continue;
        }
        const Aabb& b = c[k].box;
        n.qlox[s] = cwbvhQuantizeLo(b.lo.x, n.px, n.ex);
        n.qloy[s] = cwbvhQuantizeLo(b.lo.y, n.py, n.ey);
        n.qloz[s] = cwbvhQuantizeLo(b.lo.z, n.pz, n.ez);
        n.qhix[s] = cwbvhQuantizeHi(b.hi.x, n.px, n.ex);
        n.qhiy[s] = cwbvhQuantizeHi(b.hi.y, n.py, n.ey);
        n.qhiz[s] = cwbvhQuantizeHi(b.hi.z, n.pz, n.ez);
        if (c[k].count == 0) {
            n.imask |= uint8_t(1u << s);
            n.meta[s] = uint8_t(kCwbvhInnerMeta | (24 + s));
            sink.task(n.childBase + nextInner++, c[k].index);
        } else {
            const uint32_t cnt = uint32_t(c[k].count);
            n.meta[s] = uint8_t((((1u << cnt) - 1u) << 5) | offset);
            for (uint32_t j = 0; j < cnt; ++j) primIndex[n.primBase + offset + j] = bvh.primIndex[c[k].index + j];
            offset += cnt;
        }
    }
    return entries;
}

}  // namespace strata
