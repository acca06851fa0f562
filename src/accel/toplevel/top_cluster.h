// accel/toplevel/top_cluster.h — instanced mode's top level by agglomerative
// clustering (strata's, accel.cluster_top_level): bottom-up, as Walter et
// al. 2008 cluster a BVH ("Fast Agglomerative Clustering for Rendering"),
// the cost of a pair the surface area of their merged box, in the parallel
// rounds of PLOC (Meister & Bittner 2018) with no window: every round each
// cluster finds its nearest among all (the top level has few leaves), and
// each pair of mutual nearest ones merges into a node. Where no two costs
// tie, that is the tree of the greedy clustering that merges the nearest
// pair of all, one at a time (the cost is reducible: a merged box's area
// only grows with what it holds).
//
// Why: the top level's leaves differ in size by orders of magnitude (a hall
// around 160 props). An LBVH or a binned SAH splits by the boxes' centres, so
// the hall's leaf sits among the props' and every node above it spans the
// scene: a ray walks that whole path and the props' subtrees beside it
// (rigid-160, per scene ray: 11.0 top-level nodes with the Karras LBVH, 3.2
// clustered). Clustering merges the hall last: it becomes a child of the
// root, and the props' subtrees hold the props alone.
//
// The tree: leaf i holds instance i alone (primIndex is the identity); each
// merge makes one node, numbered in the order of the rounds and, within a
// round, of the merging pair's lower position, so n leaves make nodes 0 ..
// n - 2 and the root is the last (one leaf: a root with it on the left and
// no right child). The host (clusterTopLevel) and the GPU
// (top_cluster_gpu.h: one block) run the same rounds with the search below
// and build the same tree. A round costs n^2 distances: up to
// kClusterMaxLeaves leaves (random boxes: about 25 rounds).
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "accel/bvh.h"
#include "accel/cpu/sah_builder.h"
#include "accel/lbvh/hploc.h"
#include "core/options.h"

namespace strata {

// Leaves the top level is clustered for (on the GPU one block, a thread per
// cluster); a top level with more is built by accel.builder (Karras's LBVH
// under kd-tree BLASes), whose cost grows as n, not n^2 per round.
constexpr uint32_t kClusterMaxLeaves = 256;
static_assert(kClusterMaxLeaves <= 1u << 15, "clusterNearKey holds positions below 2^15");

// Whether instanced mode's top level over `leaves` leaves is clustered.
inline bool clustersTopLevel(const AccelOptions& o, size_t leaves) {
    return o.clusterTopLevel && leaves >= 1 && leaves <= kClusterMaxLeaves;
}

inline uint32_t clusterRootOf(uint32_t leaves) { return leaves > 1 ? leaves - 2 : 0; }

// plocNearer's order for positions below 2^15 as one integer per candidate
// j of cluster i (smaller: nearer): the distance's bits (never negative or
// NaN: non-negative floats order as their bits), the gap, whether the pair
// starts at an odd position, its lower position.
STRATA_HD uint64_t clusterNearKey(float d, uint32_t i, uint32_t j) {
    const uint32_t gap = i > j ? i - j : j - i, lo = i < j ? i : j;
    uint32_t bits;
    memcpy(&bits, &d, sizeof bits);
    return uint64_t(bits) << 32 | uint64_t(gap) << 16 | uint64_t(lo & 1u) << 15 | lo;
}

// The cluster among boxes[0 .. count) whose merge with cluster i has the
// least surface area; i itself when count is 1. PLOC's distance and its ties
// (plocDistance, plocNearer: no fused multiply-adds, never NaN, equal
// distances ordered by a key of the pair alone), so the host and the GPU
// decide alike and build the same tree, and coincident or evenly spaced
// equal boxes pair up and halve each round (by the lower position alone,
// every cluster would pick the first: one merge a round, a chain of depth
// n). A minimum of keys: no branch in the loop.
STRATA_HD uint32_t nearestCluster(const Aabb* boxes, uint32_t count, uint32_t i) {
    uint64_t best = ~uint64_t(0);
    for (uint32_t j = 0; j < count; ++j) {
        const uint64_t key = clusterNearKey(plocDistance(boxes[i], boxes[j]), i, j);
        best = j == i || key > best ? best : key;
    }
    if (best == ~uint64_t(0)) return i;
    const uint32_t gap = uint32_t(best >> 16) & 0xffffu, lo = uint32_t(best) & 0x7fffu;
    return lo == i ? i + gap : lo;
}

// A cluster as its parent node's child: a leaf (instance `index`) or node `index`.
struct ClusterRef {
    int32_t index = 0;
    bool leaf = true;
};

STRATA_HD void setClusterChild(BvhNode& n, bool left, const Aabb& box, ClusterRef c) {
    if (left)
        n.setLeft(box, c.index, c.leaf ? 1 : 0);
    else
        n.setRight(box, c.index, c.leaf ? 1 : 0);
}

// The clustered top level over `boxes` (at least one), on the host.
HostBvh clusterTopLevel(const std::vector<Aabb>& boxes);

}  // namespace strata
