// accel/toplevel/top_cluster_gpu.h — the clustered top level
// (accel/toplevel/top_cluster.h) built on the GPU by one block: one thread
// per cluster, the clusters' boxes in shared memory, the rounds' merges
// numbered by a block scan. Stage build/top/cluster.
#pragma once

#include "accel/bvh.h"
#include "gpu/launch_context.h"

namespace strata {

// nodes: max(n - 1, 1) entries, primIndex: n (the identity); 1 <= n <=
// kClusterMaxLeaves (checked). The root is clusterRootOf(n).
void clusterTopLevelGpu(const Aabb* boxes, uint32_t n, BvhNode* nodes, uint32_t* primIndex, const LaunchContext& ctx);

}  // namespace strata
