// accel/wide/collapse_sah.h — Ylitie, Karras and Laine's SAH-optimal
// collapse of a binary BVH into the 8-wide one (HPG 2017, §4.1;
// accel.wide_collapse = sah, the paper's): a dynamic program over the
// binary tree, bottom up, then the choices it implies, top down.
//
// Bottom up, per binary inner node n, C(n, i) for i = 1..8: the least SAH
// cost of n's subtree represented as a forest of at most i roots:
//   C(n, 1)      = min(C_leaf(n), C_internal(n))
//   C(n, i)      = min(C(n, i - 1), C_distribute(n, i))           i > 1
//   C_leaf(n)    = A(n) p(n) c_prim   when p(n) <= 3, else infinite
//   C_internal(n)= C_distribute(n, 8) + A(n) c_node
//   C_distribute(n, j) = min over 0 < k < j of C(left, k) + C(right, j - k)
// (A: surface area, p: primitives below). A binary leaf child of p
// primitives costs A p c_prim as any forest of at least ceil(p / 3) roots
// (it takes that many slots; the LBVHs' leaves hold one primitive).
//
// Top down (a wide node per binary node chosen internal, from the root):
// the node's 8 slots are distributed over its binary node's children as
// C_distribute(n, 8) chose, each part recursively as its C(x, j) chose:
// a distribution over x's children, or one root, which is a leaf slot of
// x's up to 3 primitives (C_leaf) or an inner child, a wide node of its own
// (C_internal). Ties go to more roots and the most even share k (a subtree
// of zero area, coincident or collinear primitives, costs 0 at every i: its
// parent takes it whole and splits it evenly rather than nesting it as a
// chain), and to the leaf. The
// bottom-up pass keeps each node's choices beside its costs (a byte per i),
// so the top-down step reads 8 bytes per part, not its children's costs.
//
// Areas are collapse.h's (half the surface), sums and products without
// fused multiply-adds, so the host and the GPU choose alike.
#pragma once

#include <cstddef>

#include "accel/wide/collapse.h"

namespace strata {

// Ylitie et al.'s constants: a wide node's test costs 1, a primitive's 0.3.
constexpr float kWideNodeCost = 1.0f;
constexpr float kWidePrimCost = 0.3f;

// How C(n, i) is reached, one byte per i: one root, a leaf slot of n's
// primitives or an inner child (a wide node made from n), or distributed
// over n's children: kWideSplit | s << 3 | k, s roots (s <= i), k of them
// for the left child.
constexpr uint8_t kWideLeaf = 1, kWideInner = 2, kWideSplit = 0x80;
static_assert((kCwbvhWidth << 3 | (kCwbvhWidth - 1)) < kWideSplit, "s and k fit below the split bit");

// Per binary node: c[i - 1] = C(n, i), the primitives below, and the
// choices the top-down step reads.
struct alignas(16) WideCost {
    float c[kCwbvhWidth];
    uint32_t prims;
    uint32_t choice[2];  // byte i - 1: how C(n, i) is reached
    uint32_t split8;     // the left child's share of C_distribute(n, 8): a wide node made from n
};
// The GPU reads and writes it as three float4 (cwbvh_gpu.cu).
static_assert(sizeof(WideCost) == 48 && offsetof(WideCost, prims) == 32 && offsetof(WideCost, choice) == 36 &&
                  offsetof(WideCost, split8) == 44,
              "WideCost's layout");

// The choice byte of C(n, i) (i = 1..8).
STRATA_HD uint32_t wideChoice(const uint32_t (&choice)[2], int i) {
    return (i <= 4 ? choice[0] >> (8 * (i - 1)) : choice[1] >> (8 * (i - 5))) & 0xffu;
}

// C(x, i) for i = 1..8 of a child of a binary node (a binary leaf, or an
// inner node whose costs `costs(index)` gives), and its primitives.
template <class Costs>
STRATA_HD void childCosts(const CollapseChild& x, const Costs& costs, float (&t)[kCwbvhWidth], uint32_t& prims) {
    if (x.count > 0) {
        const float leaf = mulRn(mulRn(kWidePrimCost, float(x.count)), collapseArea(x.box));
        const int need = (x.count + kCwbvhMaxLeafPrims - 1) / kCwbvhMaxLeafPrims;
        STRATA_UNROLL
        for (int i = 0; i < kCwbvhWidth; ++i) t[i] = i + 1 >= need ? leaf : INFINITY;
        prims = uint32_t(x.count);
        return;
    }
    const WideCost w = costs(x.index);
    STRATA_UNROLL
    for (int i = 0; i < kCwbvhWidth; ++i) t[i] = w.c[i];
    prims = w.prims;
}

// d[j - 1] = C_distribute(j) of two children's costs l, r and k[j - 1] the
// left child's share, for j = 2..8 (d[0] infinite); of equal costs the most
// even share (then the smaller), so that a subtree whose parts cost the same
// however many roots they get, as one of zero area, is split evenly.
STRATA_HD void distributeAll(const float (&l)[kCwbvhWidth], const float (&r)[kCwbvhWidth], float (&d)[kCwbvhWidth],
                             int (&k)[kCwbvhWidth]) {
    d[0] = INFINITY;
    k[0] = 0;
    STRATA_UNROLL
    for (int j = 2; j <= kCwbvhWidth; ++j) {
        float best = INFINITY;
        int bestK = 1;
        STRATA_UNROLL
        for (int q = 1; q < j; ++q) {
            const float v = addRn(l[q - 1], r[j - q - 1]);
            const int skew = 2 * q > j ? 2 * q - j : j - 2 * q, bestSkew = 2 * bestK > j ? 2 * bestK - j : j - 2 * bestK;
            if (v < best || (v == best && skew < bestSkew)) {
                best = v;
                bestK = q;
            }
        }
        d[j - 1] = best;
        k[j - 1] = bestK;
    }
}

// C_leaf and C_internal of a binary inner node of children g[0], g[1].
STRATA_HD void leafAndInternal(const CollapseChild (&g)[2], uint32_t prims, float distribute8, float& leaf,
                               float& internal) {
    Aabb box = g[0].box;
    box.grow(g[1].box);
    const float area = collapseArea(box);
    leaf = prims <= uint32_t(kCwbvhMaxLeafPrims) ? mulRn(mulRn(kWidePrimCost, float(prims)), area) : INFINITY;
    internal = addRn(distribute8, mulRn(kWideNodeCost, area));
}

// The costs of binary node `node` from its children's (`costs(i)`: an inner
// child's; the bottom-up pass has made them).
template <class Costs>
STRATA_HD WideCost wideCostOf(const BvhView& bvh, const Costs& costs, int32_t node) {
    CollapseChild g[2];
    const int gm = binaryChildren(bvh.nodes, node, g);
    float l[kCwbvhWidth], r[kCwbvhWidth];
    uint32_t pl = 0, pr = 0;
    childCosts(g[0], costs, l, pl);
    WideCost out{};
    if (gm < 2) {  // a root of one leaf (a tree of one primitive)
        STRATA_UNROLL
        for (int i = 0; i < kCwbvhWidth; ++i) out.c[i] = l[i];
        out.prims = pl;
        return out;
    }
    childCosts(g[1], costs, r, pr);
    float d[kCwbvhWidth];
    int k[kCwbvhWidth];
    distributeAll(l, r, d, k);
    out.prims = pl + pr;
    float leaf, internal;
    leafAndInternal(g, out.prims, d[kCwbvhWidth - 1], leaf, internal);
    out.c[0] = leaf <= internal ? leaf : internal;
    uint32_t byte = leaf <= internal ? kWideLeaf : kWideInner;
    out.choice[0] = byte;
    STRATA_UNROLL
    for (int i = 1; i < kCwbvhWidth; ++i) {
        if (d[i] <= out.c[i - 1] && d[i] < INFINITY) {  // ties to more roots
            out.c[i] = d[i];
            byte = kWideSplit | uint32_t(i + 1) << 3 | uint32_t(k[i]);
        } else {
            out.c[i] = out.c[i - 1];
        }
        out.choice[i / 4] |= byte << (8 * (i % 4));
    }
    out.split8 = uint32_t(k[kCwbvhWidth - 1]);
    return out;
}

// One leaf child of an inner binary node's subtree of at most 3 primitives
// (x, its children g): its binary leaves' entries in order (at most 3 runs:
// every leaf holds one at least, and below an inner child of at most 2
// primitives are two leaves).
STRATA_HD CollapseChild subtreeLeaf(const BvhView& bvh, const CollapseChild& x, const CollapseChild (&g)[2]) {
    int32_t first[3] = {-1, -1, -1}, count[3] = {0, 0, 0};
    int runs = 0;
    auto add = [&](const CollapseChild& leaf) {
        STRATA_UNROLL
        for (int q = 0; q < 3; ++q)
            if (q == runs) {
                first[q] = leaf.index;
                count[q] = leaf.count;
            }
        ++runs;
    };
    STRATA_UNROLL
    for (int h = 0; h < 2; ++h) {  // (x's children g: an inner node below the root has two)
        if (g[h].count > 0) {
            add(g[h]);
            continue;
        }
        CollapseChild gg[2];
        const int ggm = binaryChildren(bvh.nodes, g[h].index, gg);
        STRATA_UNROLL
        for (int q = 0; q < 2; ++q)
            if (q < ggm) add(gg[q]);  // leaves: an inner node of at most 2 primitives has no inner child
    }
    const int32_t n = count[0] + count[1] + count[2];
    return CollapseChild{x.box, first[0], n, first[1], count[0], first[2], count[0] + count[1]};
}

// The SAH-optimal choice of a wide node's children (collapseNode's Choose),
// as the bottom-up pass's choices say: `costs` holds every binary node's
// WideCost.
struct ChooseSah {
    const WideCost* costs;

    STRATA_HD int operator()(const BvhView& bvh, int32_t binary, CollapseChild (&c)[kCwbvhWidth]) const {
        CollapseChild g[2];
        const int gm = binaryChildren(bvh.nodes, binary, g);
        int roots[kCwbvhWidth];
        bool open[kCwbvhWidth];  // an inner child whose roots are still to be chosen
        STRATA_UNROLL
        for (int k = 0; k < kCwbvhWidth; ++k) open[k] = false;
        c[0] = g[0];
        roots[0] = kCwbvhWidth;
        open[0] = g[0].count == 0;
        if (gm > 1) {  // the slots as C_distribute(n, 8) shares them
            c[1] = g[1];
            roots[0] = int(costs[binary].split8);
            roots[1] = kCwbvhWidth - roots[0];
            open[1] = g[1].count == 0;
        }
        int m = gm;
        for (;;) {
            int at = -1, j = 0;
            CollapseChild x;
            STRATA_UNROLL
            for (int k = kCwbvhWidth - 1; k >= 0; --k)
                if (open[k]) {
                    at = k;
                    j = roots[k];
                    x = c[k];
                }
            if (at < 0) break;
            // x's node and its choices, loaded together (neither waits for the
            // other; the node is read whether or not it is split).
            CollapseChild h[2];
            binaryChildren(bvh.nodes, x.index, h);  // an inner node below the root: two children
            const uint32_t choice[2] = {costs[x.index].choice[0], costs[x.index].choice[1]};
            const uint32_t byte = wideChoice(choice, j);
            if (byte & kWideSplit) {
                const int split = int(byte >> 3 & 15u), left = int(byte & 7u);
                STRATA_UNROLL
                for (int k = 0; k < kCwbvhWidth; ++k) {
                    if (k == at) {
                        c[k] = h[0];
                        roots[k] = left;
                        open[k] = h[0].count == 0;
                    }
                    if (k == m) {
                        c[k] = h[1];
                        roots[k] = split - left;
                        open[k] = h[1].count == 0;
                    }
                }
                ++m;
                continue;
            }
            const CollapseChild chosen = byte == kWideLeaf ? subtreeLeaf(bvh, x, h) : x;
            STRATA_UNROLL
            for (int k = 0; k < kCwbvhWidth; ++k)
                if (k == at) {
                    c[k] = chosen;
                    open[k] = false;
                }
        }
        return m;
    }
};

}  // namespace strata
