#include "accel/wide/cwbvh_gpu.h"

#include <algorithm>

#include "accel/wide/collapse.h"
#include "gpu/launch.cuh"

namespace strata {
namespace {

constexpr int kBlock = 128;
enum Counter { kNodesMade, kPrimsPlaced, kNextNode, kNodesDone, kNumCounters };

struct GpuSink {
    uint32_t* counters;
    int32_t* tasks;
    __device__ uint32_t allocNodes(uint32_t k) { return atomicAdd(&counters[kNodesMade], k) + 1; }  // 0: the root
    __device__ uint32_t allocPrims(uint32_t k) { return atomicAdd(&counters[kPrimsPlaced], k); }
    __device__ void task(uint32_t wide, int32_t binary) { atomicExch(&tasks[wide], binary); }
};

// build/collapse: each thread takes the next wide node; the root's task is
// the binary root, every other node's is written by its parent's thread.
// A thread whose node is not yet made waits, and leaves once every node
// made is done (then no node can be made any more). All threads are
// resident (the grid is sized to the occupancy), so the threads that made
// the nodes being waited for always run on.
__global__ void __launch_bounds__(kBlock) collapseKernel(BvhView bvh, CwbvhNode* nodes, uint32_t* primIndex,
                                                         int32_t* tasks, uint32_t capacity, uint32_t* counters) {
    GpuSink sink{counters, tasks};
    volatile uint32_t* vc = counters;
    volatile int32_t* vt = tasks;
    for (;;) {
        const uint32_t w = atomicAdd(&counters[kNextNode], 1u);
        int32_t binary = w == 0 ? int32_t(rootOf(bvh)) : -1;
        while (binary < 0) {
            binary = w < capacity ? vt[w] : -1;  // past the capacity: never a node, wait for the end
            if (binary >= 0) break;
            const uint32_t done = vc[kNodesDone];
            __threadfence();
            const uint32_t made = vc[kNodesMade] + 1;
            if (done == made && w >= made) return;
            __nanosleep(64);
        }
        collapseNode(bvh, binary, w, nodes, primIndex, sink);
        __threadfence();  // the node's children's tasks before it counts as done
        atomicAdd(&counters[kNodesDone], 1u);
    }
}

}  // namespace

void CwbvhGpu::collapse(const BvhView& binary, const LaunchContext& ctx) {
    StageScope s(ctx.timer, "build/collapse");
    numPrims_ = binary.numPrims;
    capacity_ = binary.numNodes ? std::max(1u, binary.numNodes) : 0u;
    if (!capacity_) return;
    nodes_.resize(capacity_);
    primIndex_.resize(numPrims_);
    tasks_.resize(capacity_);
    counters_.resize(kNumCounters);
    if (!workers_) {
        int device = 0, sms = 0, perSm = 0;
        STRATA_CUDA_CHECK(cudaGetDevice(&device));
        STRATA_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        STRATA_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, collapseKernel, kBlock, 0));
        workers_ = std::max(1, sms * perSm) * kBlock;
    }
    STRATA_CUDA_CHECK(cudaMemsetAsync(tasks_.data(), 0xff, capacity_ * sizeof(int32_t), ctx.stream));
    STRATA_CUDA_CHECK(cudaMemsetAsync(counters_.data(), 0, kNumCounters * sizeof(uint32_t), ctx.stream));
    const uint32_t threads = std::min<uint32_t>(uint32_t(workers_), (capacity_ + kBlock - 1) / kBlock * kBlock);
    launch(ctx, "build/collapse", {dim3(threads / kBlock), dim3(kBlock)}, collapseKernel, binary, nodes_.data(),
           primIndex_.data(), tasks_.data(), capacity_, counters_.data());
}

CwbvhView CwbvhGpu::view() const {
    return CwbvhView{nodes_.data(), primIndex_.data(), capacity_, numPrims_};
}

HostCwbvh CwbvhGpu::download() const {
    HostCwbvh h;
    if (!capacity_) return h;
    uint32_t made = 0;
    STRATA_CUDA_CHECK(cudaMemcpy(&made, counters_.data() + kNodesMade, sizeof made, cudaMemcpyDeviceToHost));
    h.nodes.resize(made + 1);
    h.primIndex.resize(numPrims_);
    STRATA_CUDA_CHECK(
        cudaMemcpy(h.nodes.data(), nodes_.data(), h.nodes.size() * sizeof(CwbvhNode), cudaMemcpyDeviceToHost));
    if (numPrims_)
        STRATA_CUDA_CHECK(
            cudaMemcpy(h.primIndex.data(), primIndex_.data(), numPrims_ * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    return h;
}

size_t CwbvhGpu::memoryBytes() const {
    return nodes_.bytes() + primIndex_.bytes() + tasks_.bytes() + counters_.bytes();
}

}  // namespace strata
