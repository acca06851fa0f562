#include "accel/wide/cwbvh_gpu.h"

#include <algorithm>

#include "accel/wide/collapse_sah.h"
#include "gpu/device.h"
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

// A child of a binary node that is an inner node (binaryChildren's rule:
// no entries; an absent right child has a negative index).
__device__ bool isInnerChild(int32_t index, int32_t count) { return count == 0 && index >= 0; }
__device__ int innerChildren(const BvhNode& n) {
    return int(isInnerChild(n.left, n.leftCount)) + int(isInnerChild(n.right, n.rightCount));
}

// The SAH-optimal collapse's bottom-up pass (collapse_sah.h), in two
// kernels. First every binary inner node names itself the parent of its
// inner children (parents start at -1: the root keeps it).
__global__ void wideParentsKernel(BvhView bvh, int32_t* parent) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= bvh.numNodes) return;
    const BvhNode& n = bvh.nodes[i];
    if (isInnerChild(n.left, n.leftCount)) parent[n.left] = int32_t(i);
    if (isInnerChild(n.right, n.rightCount)) parent[n.right] = int32_t(i);
}

// Another thread's costs: read past the L1 (they were written in this launch).
struct FreshCosts {
    const WideCost* costs;
    __device__ WideCost operator()(int32_t i) const {
        const float4* p = reinterpret_cast<const float4*>(costs + i);
        const float4 a = __ldcg(p), b = __ldcg(p + 1), c = __ldcg(p + 2);
        WideCost w;
        w.c[0] = a.x, w.c[1] = a.y, w.c[2] = a.z, w.c[3] = a.w;
        w.c[4] = b.x, w.c[5] = b.y, w.c[6] = b.z, w.c[7] = b.w;
        w.prims = __float_as_uint(c.x);
        w.choice[0] = __float_as_uint(c.y);
        w.choice[1] = __float_as_uint(c.z);
        w.split8 = __float_as_uint(c.w);
        return w;
    }
};

// Then up the tree: a thread per binary node; a node without inner children
// makes its costs at once, and the thread goes on to the parent when it is
// the last of the parent's inner children to finish (the others stop).
__global__ void wideCostsKernel(BvhView bvh, const int32_t* parent, uint32_t* arrivals, WideCost* costs) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= bvh.numNodes || innerChildren(bvh.nodes[i]) > 0) return;
    const FreshCosts fresh{costs};
    int32_t n = int32_t(i);
    for (;;) {
        const WideCost w = wideCostOf(bvh, fresh, n);
        float4* dst = reinterpret_cast<float4*>(costs + n);
        __stcg(dst, make_float4(w.c[0], w.c[1], w.c[2], w.c[3]));
        __stcg(dst + 1, make_float4(w.c[4], w.c[5], w.c[6], w.c[7]));
        __stcg(dst + 2, make_float4(__uint_as_float(w.prims), __uint_as_float(w.choice[0]),
                                    __uint_as_float(w.choice[1]), __uint_as_float(w.split8)));
        __threadfence();  // the costs before the vote
        const int32_t p = parent[n];
        if (p < 0) return;
        if (atomicAdd(&arrivals[p], 1u) + 1u < uint32_t(innerChildren(bvh.nodes[p]))) return;
        __threadfence();  // the sibling's costs after the vote
        n = p;
    }
}

// build/collapse: level by level from the root, every thread of the grid
// over the level's wide nodes (each made from the binary node its parent
// wrote as its task), one grid-wide barrier between levels: a level's
// nodes are the ones the level before made, numbered from where it ended.
// A level's nodes are dealt to the warps first and to their lanes after
// (node j to warp j % warps, lane j / warps): a warp makes its nodes in
// lockstep, as long as the longest of them takes, so a level lasts as long
// as its fullest warp; dealt in runs of 32, a level of 8,000 nodes kept
// 250 of the grid's 1,056 warps busy with 32 nodes each.
template <class Choose>
__global__ void __launch_bounds__(kBlock) collapseKernel(BvhView bvh, Choose choose, CwbvhNode* nodes,
                                                         uint32_t* primIndex, int32_t* tasks, uint32_t* counters) {
    cg::grid_group grid = cg::this_grid();
    const uint32_t thread = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
    const uint32_t warps = stride / 32u, dealt = (thread % 32u) * warps + thread / 32u;
    uint32_t begin = 0, end = 1;  // level 0: the root
    for (uint32_t level = 0; begin < end; ++level) {
        if (thread == 0) counters[kLevelMade0 + (level + 1) % 3] = 0;  // last used two levels ago
        GpuSink sink{&counters[kLevelMade0 + level % 3], end, counters, tasks};
        for (uint32_t w = begin + dealt; w < end; w += stride)
            collapseNode(bvh, choose, w == 0 ? int32_t(rootOf(bvh)) : tasks[w], w, nodes, primIndex, sink);
        grid.sync();
        begin = end;
        end += *static_cast<volatile uint32_t*>(&counters[kLevelMade0 + level % 3]);
    }
    if (thread == 0) counters[kNodes] = end;
}

// Launches the level-by-level collapse with `choose` (a cooperative launch:
// its grid-wide barriers need every block resident), timed as the stage's
// kernel.
template <class Choose>
void launchCollapse(const BvhView& binary, Choose choose, uint32_t capacity, CwbvhNode* nodes, uint32_t* prims,
                    int32_t* tasks, uint32_t* counters, int& workers, const LaunchContext& ctx) {
    auto* kernel = collapseKernel<Choose>;
    if (!workers) {
        const int sms = currentDeviceSmCount();
        int perSm = 0;
        STRATA_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, kBlock, 0));
        // Resident at once (the barrier needs it); two blocks per SM suffice
        // for the widest levels, and a barrier over fewer blocks is quicker.
        workers = std::max(1, sms * std::min(perSm, 2)) * kBlock;
    }
    const uint32_t blocks = std::min<uint32_t>(uint32_t(workers / kBlock), (capacity + kBlock - 1) / kBlock);
    BvhView bvh = binary;
    void* args[] = {&bvh, &choose, &nodes, &prims, &tasks, &counters};
    StageScope timed = StageScope::ifStage(ctx.timer, "build/collapse");
    checkCuda(
        cudaLaunchCooperativeKernel(reinterpret_cast<void*>(kernel), dim3(blocks), dim3(kBlock), args, 0, ctx.stream),
        "build/collapse", __FILE__, __LINE__);
    ctx.counted();
}

}  // namespace

void CwbvhGpu::collapse(const BvhView& binary, WideCollapse how, const LaunchContext& ctx) {
    StageScope s(ctx.timer, "build/collapse");
    numPrims_ = binary.numPrims;
    capacity_ = binary.numNodes ? std::max(1u, binary.numNodes) : 0u;
    if (!capacity_) return;
    nodes_.resize(capacity_);
    primIndex_.resize(numPrims_);
    tasks_.resize(capacity_);
    counters_.resize(kNumCounters);
    STRATA_CUDA_CHECK(cudaMemsetAsync(counters_.data(), 0, kNumCounters * sizeof(uint32_t), ctx.stream));
    if (how == WideCollapse::Greedy) {
        costs_.release();
        parents_.release();
        arrivals_.release();
        launchCollapse(binary, ChooseGreedy{}, capacity_, nodes_.data(), primIndex_.data(), tasks_.data(),
                       counters_.data(), workers_[0], ctx);
        return;
    }
    // The SAH-optimal collapse: its bottom-up pass first.
    const uint32_t n = binary.numNodes;
    costs_.resize(n);
    parents_.resize(n);
    arrivals_.resize(n);
    STRATA_CUDA_CHECK(cudaMemsetAsync(parents_.data(), 0xff, n * sizeof(int32_t), ctx.stream));
    STRATA_CUDA_CHECK(cudaMemsetAsync(arrivals_.data(), 0, n * sizeof(uint32_t), ctx.stream));
    launch(ctx, "build/collapse/parents", perItem(n, kBlock), wideParentsKernel, binary, parents_.data());
    launch(ctx, "build/collapse/costs", perItem(n, kBlock), wideCostsKernel, binary,
           static_cast<const int32_t*>(parents_.data()), arrivals_.data(), costs_.data());
    launchCollapse(binary, ChooseSah{costs_.data()}, capacity_, nodes_.data(), primIndex_.data(), tasks_.data(),
                   counters_.data(), workers_[1], ctx);
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
    costs_.release();
    parents_.release();
    arrivals_.release();
}

size_t CwbvhGpu::estimateBytes(size_t binaryNodes, size_t prims, WideCollapse how) {
    const size_t perNode = sizeof(CwbvhNode) + sizeof(int32_t) +  // a wide node and its task per binary node at most
                           (how == WideCollapse::Sah ? sizeof(WideCost) + sizeof(int32_t) + sizeof(uint32_t) : 0);
    return binaryNodes * perNode + prims * sizeof(uint32_t) + kNumCounters * sizeof(uint32_t);
}

size_t CwbvhGpu::memoryBytes() const {
    return nodes_.bytes() + primIndex_.bytes() + tasks_.bytes() + counters_.bytes() + costs_.bytes() +
           parents_.bytes() + arrivals_.bytes();
}

}  // namespace strata
