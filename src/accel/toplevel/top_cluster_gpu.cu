#include "accel/toplevel/top_cluster.h"
#include "accel/toplevel/top_cluster_gpu.h"
#include <string>

#include "core/error.h"
#include "gpu/block_scan.cuh"
#include "gpu/launch.cuh"

namespace strata {
namespace {

constexpr uint32_t kThreads = kClusterMaxLeaves;

// The rounds of top_cluster.cpp's clusterTopLevel, thread i for cluster i
// (n <= blockDim.x): each finds its nearest cluster; one scan numbers the
// merging pairs' nodes (high half) and the kept clusters' new positions (low
// half).
__global__ void __launch_bounds__(kThreads)
    clusterKernel(const Aabb* in, uint32_t n, BvhNode* nodes, uint32_t* primIndex) {
    // Aabb's members start empty: plain storage for the shared arrays.
    __shared__ float boxStore[kThreads * 6];
    __shared__ int32_t refIndex[kThreads];
    __shared__ uint8_t refLeaf[kThreads];
    __shared__ uint32_t nearest[kThreads];
    __shared__ uint32_t tile[kThreads];
    Aabb* box = reinterpret_cast<Aabb*>(boxStore);
    const uint32_t i = threadIdx.x;
    if (i < n) {
        box[i] = in[i];
        refIndex[i] = int32_t(i);
        refLeaf[i] = 1;
        primIndex[i] = i;
    }
    if (n == 1 && i == 0) {
        setClusterChild(nodes[0], true, box[0], ClusterRef{0, true});
        nodes[0].setRight(Aabb(), -1, 0);
    }
    __syncthreads();
    uint32_t count = n, node = 0;
    while (count > 1) {  // every thread takes each round (count is the block's)
        if (i < count) nearest[i] = nearestCluster(box, count, i);
        __syncthreads();
        bool lead = false, keep = false;
        uint32_t j = 0;
        if (i < count) {
            j = nearest[i];
            const bool mutual = nearest[j] == i;
            lead = mutual && i < j;
            keep = !(mutual && j < i);
        }
        tile[i] = (uint32_t(lead) << 16) | uint32_t(keep);
        __syncthreads();
        blockInclusiveScan(tile, blockDim.x);
        const uint32_t scanned = tile[i], total = tile[blockDim.x - 1];
        Aabb mine;
        ClusterRef ref;
        if (lead) {
            const uint32_t at = node + (scanned >> 16) - 1;
            BvhNode& parent = nodes[at];
            setClusterChild(parent, true, box[i], ClusterRef{refIndex[i], refLeaf[i] != 0});
            setClusterChild(parent, false, box[j], ClusterRef{refIndex[j], refLeaf[j] != 0});
            mine = merge(box[i], box[j]);
            ref = {int32_t(at), false};
        } else if (keep) {
            mine = box[i];
            ref = {refIndex[i], refLeaf[i] != 0};
        }
        __syncthreads();  // every read of this round's clusters is done
        if (keep) {
            const uint32_t to = (scanned & 0xffffu) - 1;
            box[to] = mine;
            refIndex[to] = ref.index;
            refLeaf[to] = ref.leaf ? 1 : 0;
        }
        node += total >> 16;
        count = total & 0xffffu;
        __syncthreads();
    }
}

}  // namespace

void clusterTopLevelGpu(const Aabb* boxes, uint32_t n, BvhNode* nodes, uint32_t* primIndex, const LaunchContext& ctx) {
    if (n < 1 || n > kClusterMaxLeaves)
        throw Error("clusterTopLevelGpu: " + std::to_string(n) + " leaves (1 to " + std::to_string(kClusterMaxLeaves) +
                    " cluster in one block)");
    const uint32_t threads = (n + 31) / 32 * 32;  // whole warps, one thread per leaf
    launch(ctx, "build/top/cluster", {dim3(1), dim3(threads)}, clusterKernel, boxes, n, nodes, primIndex);
}

}  // namespace strata
