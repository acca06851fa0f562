// accel/lbvh/hploc.h — H-PLOC (Benthin, Meister, Barczak, Mehalwal, Tsakok,
// Kensler 2024, "H-PLOC: Hierarchical Parallel Locally-Ordered Clustering
// for Bounding Volume Hierarchy Construction"): PLOC's nearest-neighbour
// merging (Meister & Bittner 2018) run inside the subtrees of the LBVH over
// the sorted Morton codes, bottom-up, so the tree costs one pass after the
// sort and reaches the SAH quality of a full PLOC build.
//
// The rule both builders follow (the GPU's warp form, accel/lbvh/
// hploc_gpu.cu, and the CPU reference, hploc_host.cpp, must decide alike):
//   * The subtrees are the LBVH's: Apetrei's bottom-up pass (apetrei.h)
//     forms the ranges [L, R] of sorted leaves, each split where Karras's
//     hierarchy splits it.
//   * A range of at most kHplocThreshold leaves holds its leaves as clusters.
//     When two ranges join into one of more leaves (or into the root), their
//     clusters (at most 2 x kHplocThreshold: one warp) are merged by PLOC
//     until at most kHplocThreshold remain (one at the root).
//   * One PLOC round over clusters c_0..c_{k-1} in Morton order: each
//     cluster's nearest neighbour is the c_i with |i - j| <= kHplocRadius
//     whose union with it has the smallest surface area (ties: plocNearer);
//     mutual nearest neighbours merge into a new node whose left
//     child is the lower one, which takes the lower one's place; the rest
//     keep their order.
// The smallest pair of a round is always mutual, so every round merges.
//
// Node numbers: a cluster's first leaf is the lowest sorted position it
// holds. The clusters stay in Morton order, so a merge keeps the lower
// cluster's first leaf and retires the higher one's, and every sorted
// position but 0 is retired exactly once (n - 1 merges): the node a merge
// makes is numbered by it, hplocNodeOf(retired first leaf) in [0, n - 2],
// known at once without a counter. Two contiguous clusters [a, p] and
// [p + 1, b] make node p, as Apetrei's split p does. Both builders number
// alike, so their trees are equal node for node; the root is wherever the
// last merge puts it (LbvhBuilder finds it on the device).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/aabb.h"
#include "core/hd.h"

namespace strata {

// PLOC's search radius (the paper's r; H-PLOC uses 8 in a warp).
constexpr int kHplocRadius = 8;
// Clusters a subtree keeps once merged: half a warp, so two subtrees fill one.
constexpr int kHplocThreshold = 16;

// Cluster slots (one per sorted leaf, the GPU's hand-over between subtrees):
// an internal node index >= 0, a leaf as hplocLeafRef(sorted position), or
// kHplocNoCluster past a range's last cluster.
constexpr int32_t kHplocNoCluster = -1;
STRATA_HD int32_t hplocLeafRef(int32_t sortedPos) { return -2 - sortedPos; }
STRATA_HD bool hplocIsLeaf(int32_t ref) { return ref <= -2; }
STRATA_HD int32_t hplocLeafPos(int32_t ref) { return -2 - ref; }
// The node made by the merge that retires first leaf p (p >= 1).
STRATA_HD int32_t hplocNodeOf(int32_t retiredFirst) { return retiredFirst - 1; }

// PLOC's distance: half the surface area of the union of two boxes. Written
// without fused multiply-adds on the GPU, so both builders compare the same
// floats (nvcc would contract the sum of products; g++ for x86-64 does not).
// Never NaN (fminf takes the other operand): a box too large for floats is
// infinitely far, and ties go to the lower index like any other. Never
// negative or -0 (plocNearKey orders distances by their bits): a box
// inverted on one axis (a triangle with NaN coordinates through the CPU's
// bounds) counts as +0.
STRATA_HD float plocDistance(const Aabb& a, const Aabb& b) {
    Aabb u = merge(a, b);
    float ex = u.hi.x - u.lo.x, ey = u.hi.y - u.lo.y, ez = u.hi.z - u.lo.z;
#if defined(__CUDA_ARCH__)
    const float d = fminf(__fadd_rn(__fadd_rn(__fmul_rn(ex, ey), __fmul_rn(ey, ez)), __fmul_rn(ez, ex)), INFINITY);
#else
    const float d = std::fmin((ex * ey + ey * ez) + ez * ex, INFINITY);
#endif
    return d > 0.0f ? d : 0.0f;
}

// Whether candidate i (at distance d) is nearer to cluster j than the best
// so far. Ties between equal distances are broken by a key of the pair alone
// (so the smallest pair of a round is mutual): the nearer index, then a pair
// starting at an even index, then the lower one. Coincident boxes (all
// distances equal) thus pair up (0,1), (2,3), ... and make a balanced tree,
// where "the lower index" would chain them into one of depth n.
STRATA_HD bool plocNearer(float d, int i, float bestD, int bestI, int j) {
    if (d != bestD) return d < bestD;
    const int gap = i > j ? i - j : j - i, bestGap = bestI > j ? bestI - j : j - bestI;
    if (gap != bestGap) return gap < bestGap;
    const int lo = i < j ? i : j, bestLo = bestI < j ? bestI : j;
    if ((lo & 1) != (bestLo & 1)) return (lo & 1) == 0;
    return lo < bestLo;
}

// plocNearer's order as one integer per candidate, for positions i, j in
// [0, 32) (a warp's clusters): smaller means nearer. The distance's bits
// first (it is never negative or NaN, and non-negative floats order as their
// bits), then the gap, then whether the pair starts at an odd position, then
// its lower position; so a cluster's nearest is the minimum of its
// candidates' keys, which the GPU takes as a tree of comparisons.
STRATA_HD uint64_t plocNearKey(float d, int i, int j) {
    const uint32_t gap = uint32_t(i > j ? i - j : j - i), lo = uint32_t(i < j ? i : j);
    uint32_t bits;
    memcpy(&bits, &d, sizeof bits);
    return uint64_t(bits) << 32 | gap << 6 | (lo & 1u) << 5 | lo;
}
// The candidate a key names, for cluster j.
STRATA_HD int plocKeyCandidate(uint64_t key, int j) {
    const int gap = int(key >> 6 & 63u), lo = int(key & 31u);
    return lo == j ? j + gap : lo;
}

}  // namespace strata
