#include "accel/wide/cwbvh_gpu.h"

#include <algorithm>

#include "accel/wide/collapse.h"
#include "gpu/launch.cuh"

#include <cooperative_groups.h>

namespace strata {
namespace {

namespace cg = cooperative_groups;

constexpr int kBlock = 128;
// The level counters rotate: level L makes its nodes on levelMade[L % 3]
// (numbered from where level L's own nodes end); all threads read it after
// the barrier that ends level L, and it is cleared during level L + 2.
enum Counter { kLevelMade0, kLevelMade1, kLevelMade2, kPrimsPlaced, kNodes, kNumCounters };

struct GpuSink {
    uint32_t* made;  // this level's counter
    uint32_t first;  // the first node index of the next level
    uint32_t* counters;
    int32_t* tasks;
    __device__ uint32_t allocNodes(uint32_t k) { return first + atomicAdd(made, k); }
    __device__ uint32_t allocPrims(uint32_t k) { return atomicAdd(&counters[kPrimsPlaced], k); }
    __device__ void task(uint32_t wide, int32_t binary) { tasks[wide] = binary; }
};

// build/collapse: level by level from the root, every thread of the grid
// over the level's wide nodes (each made from the binary node its parent
// wrote as its task), one grid-wide barrier between levels: a level's
// nodes are the ones the level before made, numbered from where it ended.
__global__ void __launch_bounds__(kBlock)
    collapseKernel(BvhView bvh, CwbvhNode* nodes, uint32_t* primIndex, int32_t* tasks, uint32_t* counters) {
    cg::grid_group grid = cg::this_grid();
    const uint32_t thread = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
    uint32_t begin = 0, end = 1;  // level 0: the root
    for (uint32_t level = 0; begin < end; ++level) {
        if (thread == 0) counters[kLevelMade0 + (level + 1) % 3] = 0;  // last used two levels ago
        GpuSink sink{&counters[kLevelMade0 + level % 3], end, counters, tasks};
        for (uint32_t w = begin + thread; w < end; w += stride)
            collapseNode(bvh, w == 0 ? int32_t(rootOf(bvh)) : tasks[w], w, nodes, primIndex, sink);
        grid.sync();
        begin = end;
        end += *static_cast<volatile uint32_t*>(&counters[kLevelMade0 + level % 3]);
    }
    if (thread == 0) counters[kNodes] = end;
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
        // Resident at once (the barrier needs it); two blocks per SM suffice
        // for the widest levels, and a barrier over fewer blocks is quicker.
        workers_ = std::max(1, sms * std::min(perSm, 2)) * kBlock;
    }
    STRATA_CUDA_CHECK(cudaMemsetAsync(counters_.data(), 0, kNumCounters * sizeof(uint32_t), ctx.stream));
    // A cooperative launch (its grid-wide barriers need every block resident).
    const uint32_t blocks = std::min<uint32_t>(uint32_t(workers_ / kBlock), (capacity_ + kBlock - 1) / kBlock);
    BvhView bvh = binary;
    CwbvhNode* nodes = nodes_.data();
    uint32_t* prims = primIndex_.data();
    int32_t* tasks = tasks_.data();
    uint32_t* counters = counters_.data();
    void* args[] = {&bvh, &nodes, &prims, &tasks, &counters};
    StageScope k = StageScope::ifStage(ctx.timer, "build/collapse");
    checkCuda(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(collapseKernel), dim3(blocks), dim3(kBlock), args, 0,
                                          ctx.stream),
              "build/collapse", __FILE__, __LINE__);
    ctx.counted();
}

CwbvhView CwbvhGpu::view() const { return CwbvhView{nodes_.data(), primIndex_.data(), capacity_, numPrims_}; }

HostCwbvh CwbvhGpu::download() const {
    HostCwbvh h;
    if (!capacity_) return h;
    uint32_t made = 0;
    STRATA_CUDA_CHECK(cudaMemcpy(&made, counters_.data() + kNodes, sizeof made, cudaMemcpyDeviceToHost));
    h.nodes.resize(made);
    h.primIndex.resize(numPrims_);
    STRATA_CUDA_CHECK(
        cudaMemcpy(h.nodes.data(), nodes_.data(), h.nodes.size() * sizeof(CwbvhNode), cudaMemcpyDeviceToHost));
    if (numPrims_)
        STRATA_CUDA_CHECK(
            cudaMemcpy(h.primIndex.data(), primIndex_.data(), numPrims_ * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    return h;
}

void CwbvhGpu::release() {
    capacity_ = numPrims_ = 0;
    nodes_.release();
    primIndex_.release();
    tasks_.release();
    counters_.release();
}

size_t CwbvhGpu::memoryBytes() const {
    return nodes_.bytes() + primIndex_.bytes() + tasks_.bytes() + counters_.bytes();
}

}  // namespace strata
