// accel/wide/collapse.h — one binary BVH node's subtree top made into one
// CWBVH node (accel/wide/cwbvh.h): the step both the host collapse
// (collapse_host.cpp) and the GPU's per-frame collapse (cwbvh_gpu.cu) run
// for each wide node, top down from the root. Two parts: which binary
// subtrees become the node's up to 8 children (a choice: chooseGreedy below,
// or collapse_sah.h's SAH-optimal one, Ylitie et al. §4.1), and the node
// made of them (emitWideNode).
//
// chooseGreedy (strata's accel.wide_collapse = greedy, as per-frame GPU
// builders collapse): a wide node starts with its binary node's two
// children and opens the inner child of largest surface area (replacing it
// by its two children) while the children fit the 8 slots. A binary leaf of
// c primitives takes ceil(c / 3) slots (the LBVHs' leaves hold one, the
// binned-SAH tree's up to 4; a leaf may hold at most kCwbvhMaxBinaryLeaf, so
// that a node's two children always fit). An inner child whose two children
// are leaves of at most 3 entries in all becomes one leaf slot (Ylitie's
// leaves hold up to 3 triangles), when it is opened and, for those left when
// the slots are full, after.
//
// emitWideNode: leaf children of more than 3 entries become parts of up to
// 3, one slot each; the children are given the slots that order them for
// the traversal (§3.2, by their centroids' directions from the node's
// centre), their boxes are quantized, and the inner children become the
// next wide nodes, each a task.
#pragma once

#include "accel/bvh.h"
#include "accel/bvh_traverse.h"
#include "accel/wide/cwbvh.h"

namespace strata {

struct CollapseChild {
    Aabb box;
    int32_t index = -1;  // binary node, or first primIndex entry of a leaf
    int32_t count = 0;   // > 0: a leaf of that many entries
    // A leaf made of up to three binary leaves: its entries [split, split2)
    // are primIndex[index2 ...], from split2 on primIndex[index3 ...] (a
    // single binary leaf: split == split2 == count).
    int32_t index2 = -1, split = 0;
    int32_t index3 = -1, split2 = 0;
};

// A binary leaf (or a run of one) as a child: `count` entries from `first`.
STRATA_HD CollapseChild leafChild(const Aabb& box, int32_t first, int32_t count) {
    return CollapseChild{box, first, count, -1, count, -1, count};
}

// The primIndex position of a leaf child's entry j.
STRATA_HD int32_t leafEntry(const CollapseChild& c, int32_t j) {
    return j < c.split ? c.index + j : (j < c.split2 ? c.index2 + (j - c.split) : c.index3 + (j - c.split2));
}

// A binary node whose two children are leaves of at most 3 entries in all
// becomes one leaf slot of its box (Ylitie et al.'s leaves hold up to 3
// triangles; the Morton-order builders' leaves hold one).
STRATA_HD bool mergesIntoLeaf(int gm, const CollapseChild g[2]) {
    return gm == 2 && g[0].count > 0 && g[1].count > 0 && g[0].count + g[1].count <= kCwbvhMaxLeafPrims;
}
STRATA_HD CollapseChild mergedLeaf(const Aabb& box, const CollapseChild g[2]) {
    const int32_t n = g[0].count + g[1].count;
    return CollapseChild{box, g[0].index, n, g[1].index, g[0].count, -1, n};
}

// Half a box's surface area (the opening order compares them), and below
// the centres, without fused multiply-adds (core/hd.h's mulRn, addRn), so
// that the host and the GPU choose alike.
STRATA_HD float collapseArea(const Aabb& b) {
    if (b.isEmpty()) return 0.0f;
    const float ex = b.hi.x - b.lo.x, ey = b.hi.y - b.lo.y, ez = b.hi.z - b.lo.z;
    return addRn(addRn(mulRn(ex, ey), mulRn(ey, ez)), mulRn(ez, ex));
}

// Writes a node from its words (five 16-byte stores on the GPU).
STRATA_HD void storeCwbvhNode(CwbvhNode* out, Vec3 p, uint32_t exps, uint32_t childBase, uint32_t primBase,
                              const uint32_t meta[2], const uint32_t qlx[2], const uint32_t qly[2],
                              const uint32_t qlz[2], const uint32_t qhx[2], const uint32_t qhy[2],
                              const uint32_t qhz[2]) {
    uint32_t w[20];
    memcpy(&w[0], &p.x, 4);
    memcpy(&w[1], &p.y, 4);
    memcpy(&w[2], &p.z, 4);
    w[3] = exps;
    w[4] = childBase;
    w[5] = primBase;
    const uint32_t* pairs[7] = {meta, qlx, qly, qlz, qhx, qhy, qhz};
    STRATA_UNROLL
    for (int k = 0; k < 7; ++k) {
        w[6 + 2 * k] = pairs[k][0];
        w[7 + 2 * k] = pairs[k][1];
    }
#if defined(__CUDA_ARCH__)
    uint4* dst = reinterpret_cast<uint4*>(out);
    STRATA_UNROLL
    for (int k = 0; k < 5; ++k) dst[k] = make_uint4(w[4 * k], w[4 * k + 1], w[4 * k + 2], w[4 * k + 3]);
#else
    memcpy(out, w, sizeof w);
#endif
}

STRATA_HD int cwbvhSlotsOf(const CollapseChild& c) {
    return c.count > 0 ? (c.count + kCwbvhMaxLeafPrims - 1) / kCwbvhMaxLeafPrims : 1;
}

// The two children of binary node i into out[0], out[1]; their count (an
// absent right child, count 0 and index < 0, is not counted).
STRATA_HD int binaryChildren(const BvhNode* nodes, int32_t i, CollapseChild out[2]) {
    const NodeBoxes n = loadNode(nodes, i);
    out[0] = leafChild(Aabb{n.lLo, n.lHi}, n.left, n.leftCount);
    out[1] = leafChild(Aabb{n.rLo, n.rHi}, n.right, n.rightCount);
    return n.rightCount > 0 || n.right >= 0 ? 2 : 1;
}

// The opening order's key: an inner child's area, -1 for a leaf (or an
// inner child whose children do not fit).
STRATA_HD float openKey(const CollapseChild& c) { return c.count == 0 ? collapseArea(c.box) : -1.0f; }

// Greedy choice of the children of the wide node made from binary node
// `binary` (strata's accel.wide_collapse = greedy): its two children, then
// the inner child of largest area opened while the children fit the slots.
// Fills c[0 .. m), returns m. Every array is indexed by unrolled loop
// counters only (compared with the dynamic indices), so on the GPU they stay
// in registers.
STRATA_HD int chooseGreedy(const BvhView& bvh, int32_t binary, CollapseChild (&c)[kCwbvhWidth]) {
    float key[kCwbvhWidth];
    int m = binaryChildren(bvh.nodes, binary, c);
    int slots = 0;
    STRATA_UNROLL
    for (int k = 0; k < kCwbvhWidth; ++k) {
        key[k] = k < m ? openKey(c[k]) : -1.0f;
        if (k < m) slots += cwbvhSlotsOf(c[k]);
    }
    // Open the largest inner child while its children fit (the first of
    // equal areas); one that does not fit is not tried again.
    for (;;) {
        int best = -1;
        float bestKey = -1.0f;
        int32_t bestIndex = 0;
        STRATA_UNROLL
        for (int k = 0; k < kCwbvhWidth; ++k)
            if (key[k] > bestKey) {
                best = k;
                bestKey = key[k];
                bestIndex = c[k].index;
            }
        if (best < 0) break;
        CollapseChild g[2];
        const int gm = binaryChildren(bvh.nodes, bestIndex, g);
        if (mergesIntoLeaf(gm, g)) {  // no slot added
            STRATA_UNROLL
            for (int k = 0; k < kCwbvhWidth; ++k)
                if (k == best) {
                    c[k] = mergedLeaf(c[k].box, g);
                    key[k] = -1.0f;
                }
            continue;
        }
        const int add = cwbvhSlotsOf(g[0]) + (gm > 1 ? cwbvhSlotsOf(g[1]) : 0) - 1;
        const bool fits = slots + add <= kCwbvhWidth && m + gm - 1 <= kCwbvhWidth;
        if (fits) slots += add;
        STRATA_UNROLL
        for (int k = 0; k < kCwbvhWidth; ++k) {
            if (k == best) {
                if (fits) c[k] = g[0];
                key[k] = fits ? openKey(g[0]) : -1.0f;
            }
            if (fits && gm > 1 && k == m) {
                c[k] = g[1];
                key[k] = openKey(g[1]);
            }
        }
        if (fits && gm > 1) ++m;
    }
    // The inner children left (the slots are full) that are such pairs too.
    STRATA_UNROLL
    for (int k = 0; k < kCwbvhWidth; ++k)
        if (k < m && c[k].count == 0) {
            CollapseChild g[2];
            const int gm = binaryChildren(bvh.nodes, c[k].index, g);
            if (mergesIntoLeaf(gm, g)) c[k] = mergedLeaf(c[k].box, g);
        }
    return m;
}

// chooseGreedy as collapseNode's Choose.
struct ChooseGreedy {
    STRATA_HD int operator()(const BvhView& bvh, int32_t binary, CollapseChild (&c)[kCwbvhWidth]) const {
        return chooseGreedy(bvh, binary, c);
    }
};

// The order in which the slot assignment compares costs: a rank that keeps
// the floats' order (-0 ranks as +0), at least 1 for a cost above -inf, and
// 0 for one never chosen (-inf, NaN: no cost is greater than -inf).
STRATA_HD uint32_t slotCostRank(float cost) {
    if (!(cost > -INFINITY)) return 0u;
    uint32_t bits;
    memcpy(&bits, &cost, sizeof bits);
    if (bits == 0x80000000u) bits = 0u;
    return (bits & 0x80000000u) ? ~bits : bits | 0x80000000u;
}

// A rank and where it is; of two, the later wins only when greater, so a
// tree of them over positions in order gives the first of the largest.
struct RankedAt {
    uint32_t rank;
    int at;
};
STRATA_HD RankedAt firstLargest(RankedAt earlier, RankedAt later) {
    return later.rank > earlier.rank ? later : earlier;
}

// The first of the largest of r[0 .. 8), as a tree of three levels over
// neighbours (each side of a comparison holds the lower positions; each
// level a loop of its own, so that it unrolls and stays in registers).
STRATA_HD RankedAt firstLargestOf8(RankedAt (&r)[8]) {
    STRATA_UNROLL
    for (int j = 0; j < 8; j += 2) r[j] = firstLargest(r[j], r[j + 1]);
    STRATA_UNROLL
    for (int j = 0; j < 8; j += 4) r[j] = firstLargest(r[j], r[j + 2]);
    return firstLargest(r[0], r[4]);
}

// The slot of each child c[0 .. m) for the traversal order (Ylitie et al.
// §3.2): cost[k][s] is how well child k's direction from the node's centre
// agrees with slot s's octant (slot bit a: + on axis a); greedily, the
// unplaced child and free slot of the greatest cost take each other, the
// first pair in (child, slot) order of equal costs; costs that are not
// numbers (coordinates near the float range) are never chosen, and
// children left with only such costs take the lowest free slots in order.
// Each round takes the largest of its 64 ranks as a tree (per child over
// its free slots, then over the unplaced children), not as a chain of 64
// comparisons: the collapse waits on this per node, one level at a time.
STRATA_HD void assignCwbvhSlots(const float (&cost)[kCwbvhWidth][kCwbvhWidth], int m, int (&slotOf)[kCwbvhWidth]) {
    static_assert(kCwbvhWidth == 8, "firstLargestOf8 reduces one rank per slot or child");
    uint32_t rank[kCwbvhWidth][kCwbvhWidth];
    STRATA_UNROLL
    for (int k = 0; k < kCwbvhWidth; ++k) STRATA_UNROLL
    for (int s = 0; s < kCwbvhWidth; ++s) rank[k][s] = slotCostRank(cost[k][s]);
    uint32_t freeSlots = 0xffu, unplaced = (1u << m) - 1u;
    STRATA_UNROLL
    for (int round = 0; round < kCwbvhWidth; ++round) {
        if (!unplaced) break;
        RankedAt child[kCwbvhWidth];
        STRATA_UNROLL
        for (int k = 0; k < kCwbvhWidth; ++k) {
            RankedAt slot[kCwbvhWidth];
            STRATA_UNROLL
            for (int s = 0; s < kCwbvhWidth; ++s) slot[s] = RankedAt{(freeSlots >> s & 1u) ? rank[k][s] : 0u, s};
            const RankedAt best = firstLargestOf8(slot);
            child[k] = RankedAt{(unplaced >> k & 1u) ? best.rank : 0u, k * kCwbvhWidth + best.at};
        }
        const RankedAt best = firstLargestOf8(child);
        int bc = best.at / kCwbvhWidth, bs = best.at % kCwbvhWidth;
        if (best.rank == 0u) {  // only costs that are never chosen: any order
            bc = int(lowestBit(unplaced));
            bs = int(lowestBit(freeSlots));
        }
        unplaced &= ~(1u << bc);
        freeSlots &= ~(1u << bs);
        STRATA_UNROLL
        for (int k = 0; k < kCwbvhWidth; ++k)
            if (k == bc) slotOf[k] = bs;
    }
}

// The wide node into nodes[wide] from its chosen children c[0 .. m) (a
// leaf child of more than 3 entries still whole). Sink:
//   uint32_t allocNodes(uint32_t k)  first of k consecutive wide nodes
//   uint32_t allocPrims(uint32_t k)  first of k consecutive leaf entries
//   void task(uint32_t wide, int32_t binary)  wide node `wide` is to be made from `binary`
template <class Sink>
STRATA_HD void emitWideNode(const BvhView& bvh, CollapseChild (&c)[kCwbvhWidth], int m, uint32_t wide, CwbvhNode* nodes,
                            uint32_t* primIndex, Sink& sink) {
    // Leaves of more than 3 entries become parts of up to 3, one slot each
    // (the parts appended are split in turn as the loop reaches them).
    STRATA_UNROLL
    for (int k = 0; k < kCwbvhWidth; ++k)
        if (k < m && c[k].count > kCwbvhMaxLeafPrims) {
            const int32_t rest = c[k].count - kCwbvhMaxLeafPrims;  // (a binary leaf: split == count)
            const CollapseChild part = leafChild(c[k].box, c[k].index + kCwbvhMaxLeafPrims, rest);
            STRATA_UNROLL
            for (int j = 0; j < kCwbvhWidth; ++j)
                if (j == m) c[j] = part;
            ++m;
            c[k].count = c[k].split = c[k].split2 = kCwbvhMaxLeafPrims;
        }
    // The node box and its grid.
    Aabb box;
    STRATA_UNROLL
    for (int k = 0; k < kCwbvhWidth; ++k)
        if (k < m) box.grow(c[k].box);
    const uint8_t ex = cwbvhExponent(double(box.hi.x) - double(box.lo.x)),
                  ey = cwbvhExponent(double(box.hi.y) - double(box.lo.y)),
                  ez = cwbvhExponent(double(box.hi.z) - double(box.lo.z));
    // Slots for the traversal order (assignCwbvhSlots). (Centres doubled,
    // lo + hi: sums only, which no compiler fuses.)
    const Vec3 centre2{addRn(box.lo.x, box.hi.x), addRn(box.lo.y, box.hi.y), addRn(box.lo.z, box.hi.z)};
    float cost[kCwbvhWidth][kCwbvhWidth];
    STRATA_UNROLL
    for (int k = 0; k < kCwbvhWidth; ++k) {
        const Aabb& b = c[k].box;
        const Vec3 d{addRn(b.lo.x, b.hi.x) - centre2.x, addRn(b.lo.y, b.hi.y) - centre2.y,
                     addRn(b.lo.z, b.hi.z) - centre2.z};
        STRATA_UNROLL
        for (int s = 0; s < kCwbvhWidth; ++s)
            cost[k][s] = ((s & 1) ? d.x : -d.x) + ((s & 2) ? d.y : -d.y) + ((s & 4) ? d.z : -d.z);
    }
    int slotOf[kCwbvhWidth];
    assignCwbvhSlots(cost, m, slotOf);
    // What the slots hold: inner children numbered, and leaf entries placed,
    // in slot order.
    uint32_t innerSlots = 0, inner = 0, entries = 0;
    STRATA_UNROLL
    for (int k = 0; k < kCwbvhWidth; ++k)
        if (k < m) {
            if (c[k].count == 0) {
                innerSlots |= 1u << slotOf[k];
                ++inner;
            } else {
                entries += uint32_t(c[k].count);
            }
        }
    const uint32_t childBase = inner ? sink.allocNodes(inner) : 0u;
    const uint32_t primBase = entries ? sink.allocPrims(entries) : 0u;
    // The node as its words (accel/wide/cwbvh_traverse.h's CwbvhWords).
    uint32_t meta[2] = {0, 0}, qlx[2] = {0, 0}, qly[2] = {0, 0}, qlz[2] = {0, 0}, qhx[2] = {0, 0}, qhy[2] = {0, 0},
             qhz[2] = {0, 0};
    const double ix = cwbvhInverseStep(ex), iy = cwbvhInverseStep(ey), iz = cwbvhInverseStep(ez);
    STRATA_UNROLL
    for (int k = 0; k < kCwbvhWidth; ++k) {
        if (k >= m) continue;
        const int s = slotOf[k];
        const Aabb& b = c[k].box;
        uint32_t byteMeta;
        if (c[k].count == 0) {
            byteMeta = kCwbvhInnerMeta | uint32_t(24 + s);
            sink.task(childBase + popCount(innerSlots & ((1u << s) - 1u)), c[k].index);
        } else {
            uint32_t offset = 0;  // the entries of the leaves in lower slots
            STRATA_UNROLL
            for (int j = 0; j < kCwbvhWidth; ++j)
                if (j < m && c[j].count > 0 && slotOf[j] < s) offset += uint32_t(c[j].count);
            const uint32_t cnt = uint32_t(c[k].count);
            byteMeta = (((1u << cnt) - 1u) << 5) | offset;
            for (uint32_t j = 0; j < cnt; ++j)
                primIndex[primBase + offset + j] = bvh.primIndex[leafEntry(c[k], int32_t(j))];
        }
        const int word = s >> 2, shift = 8 * (s & 3);
        auto put = [&](uint32_t(&w)[2], uint32_t v) {
            if (word == 0)
                w[0] |= v << shift;
            else
                w[1] |= v << shift;
        };
        put(meta, byteMeta);
        put(qlx, cwbvhQuantizeLo(b.lo.x, box.lo.x, ix));
        put(qly, cwbvhQuantizeLo(b.lo.y, box.lo.y, iy));
        put(qlz, cwbvhQuantizeLo(b.lo.z, box.lo.z, iz));
        put(qhx, cwbvhQuantizeHi(b.hi.x, box.lo.x, ix));
        put(qhy, cwbvhQuantizeHi(b.hi.y, box.lo.y, iy));
        put(qhz, cwbvhQuantizeHi(b.hi.z, box.lo.z, iz));
    }
    uint32_t imask = 0;
    STRATA_UNROLL
    for (int s = 0; s < kCwbvhWidth; ++s)
        if (innerSlots >> s & 1u) imask |= 1u << s;
    storeCwbvhNode(nodes + wide, box.lo, uint32_t(ex) | uint32_t(ey) << 8 | uint32_t(ez) << 16 | imask << 24, childBase,
                   primBase, meta, qlx, qly, qlz, qhx, qhy, qhz);
}

// The wide node for binary node `binary` into nodes[wide], its children
// chosen by `choose(bvh, binary, c)` (ChooseGreedy, or collapse_sah.h's
// ChooseSah).
template <class Choose, class Sink>
STRATA_HD void collapseNode(const BvhView& bvh, const Choose& choose, int32_t binary, uint32_t wide, CwbvhNode* nodes,
                            uint32_t* primIndex, Sink& sink) {
    CollapseChild c[kCwbvhWidth];
    const int m = choose(bvh, binary, c);
    emitWideNode(bvh, c, m, wide, nodes, primIndex, sink);
}

}  // namespace strata
