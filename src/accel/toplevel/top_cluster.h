// accel/toplevel/top_cluster.h — instanced mode's top level by agglomerative
// clustering (strata's, accel.cluster_top_level): bottom-up, the way Walter
// et al. 2008 build a BVH ("Fast Agglomerative Clustering for Rendering"),
// with the cost of a pair the surface area of their merged box. Round by
// round every cluster finds its nearest one among all (a full search: the
// top level has few leaves), and each pair of mutual nearest ones merges
// into a node (their "locally-ordered" clustering, which gives the tree the
// greedy one-merge-at-a-time clustering gives where no two costs tie).
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
// and build the same tree.
#pragma once

#include <cstdint>
#include <vector>

#include "accel/bvh.h"
#include "accel/cpu/sah_builder.h"
#include "accel/lbvh/hploc.h"
#include "core/options.h"

namespace strata {

// Leaves one block clusters (one thread per cluster); a top level with more
// is built by accel.builder.
constexpr uint32_t kClusterMaxLeaves = 1024;

// Whether instanced mode's top level over `leaves` leaves is clustered.
inline bool clustersTopLevel(const AccelOptions& o, size_t leaves) {
    return o.clusterTopLevel && leaves >= 1 && leaves <= kClusterMaxLeaves;
}

inline uint32_t clusterRootOf(uint32_t leaves) { return leaves > 1 ? leaves - 2 : 0; }

// The cluster among boxes[0 .. count) whose merge with cluster i has the
// least surface area (ties: the lower position); i itself when count is 1.
// PLOC's distance (plocDistance: no fused multiply-adds, never NaN), so the
// host and the GPU decide alike and build the same tree.
STRATA_HD uint32_t nearestCluster(const Aabb* boxes, uint32_t count, uint32_t i) {
    float best = INFINITY;
    uint32_t nearest = i;
    for (uint32_t j = 0; j < count; ++j) {
        if (j == i) continue;
        const float a = plocDistance(boxes[i], boxes[j]);
        if (a < best || nearest == i) {
            best = a;
            nearest = j;
        }
    }
    return nearest;
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
