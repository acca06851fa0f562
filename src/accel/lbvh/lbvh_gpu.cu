#include "accel/lbvh/lbvh_gpu.h"

#include <cub/device/device_radix_sort.cuh>

#include <vector>

#include "accel/lbvh/apetrei_gpu.h"
#include "accel/lbvh/karras.h"
#include "accel/lbvh/lbvh_memory.h"
#include "gpu/cuda_check.h"
#include "gpu/stage_timer.h"

namespace strata {
namespace {

constexpr int kBlock = 256;

// Floats as unsigned ints that order like the floats (for atomicMin/Max).
__device__ __forceinline__ uint32_t orderedFloat(float f) {
    uint32_t u = __float_as_uint(f);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}
__device__ __forceinline__ float unorderedFloat(uint32_t u) {
    return __uint_as_float((u & 0x80000000u) ? (u & 0x7fffffffu) : ~u);
}

__device__ Aabb decodeBox(const uint32_t* e) {
    return Aabb{{unorderedFloat(e[0]), unorderedFloat(e[1]), unorderedFloat(e[2])},
                {unorderedFloat(e[3]), unorderedFloat(e[4]), unorderedFloat(e[5])}};
}

// build/bounds: the box of all centroids; block reduction then six atomics.
__global__ void centroidBoundsKernel(const Aabb* bounds, uint32_t n, uint32_t* box) {
    Vec3 lo = make3(3.0e38f), hi = make3(-3.0e38f);
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        Vec3 c = bounds[i].center();
        lo = vmin(lo, c);
        hi = vmax(hi, c);
    }
    float v[6] = {lo.x, lo.y, lo.z, hi.x, hi.y, hi.z};
    for (int k = 0; k < 6; ++k)
        for (int off = 16; off > 0; off >>= 1) {
            float o = __shfl_down_sync(0xffffffffu, v[k], off);
            v[k] = k < 3 ? fminf(v[k], o) : fmaxf(v[k], o);
        }
    __shared__ float warpVals[kBlock / 32][6];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0)
        for (int k = 0; k < 6; ++k) warpVals[warp][k] = v[k];
    __syncthreads();
    if (threadIdx.x < 6) {
        int k = threadIdx.x;
        float r = warpVals[0][k];
        for (int w = 1; w < kBlock / 32; ++w) r = k < 3 ? fminf(r, warpVals[w][k]) : fmaxf(r, warpVals[w][k]);
        if (k < 3) atomicMin(&box[k], orderedFloat(r));
        else atomicMax(&box[k], orderedFloat(r));
    }
}

// build/morton: Karras §3, one key per primitive, plus the identity order.
template <class Key>
__global__ void mortonKernel(const Aabb* bounds, uint32_t n, const uint32_t* box, Key* keys, uint32_t* ids) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Aabb scene = decodeBox(box);
    Vec3 u = unitPosition(bounds[i].center(), scene);
    keys[i] = sizeof(Key) == 8 ? Key(morton63(u)) : Key(morton30(u));
    ids[i] = i;
}

// build/hierarchy: Karras 2012 Fig. 4, one thread per internal node; also
// clears the visit counters of the bottom-up pass.
template <class Key>
__global__ void hierarchyKernel(const Key* keys, uint32_t n, BvhNode* nodes, int32_t* parent, uint32_t* visits) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n - 1) return;
    karrasInternalNode(keys, int(n), int(i), nodes, parent);
    visits[i] = 0;
}

// build/aabb: Karras 2012 §4 bottom-up pass, one thread per leaf.
__global__ void bottomUpKernel(const Aabb* bounds, uint32_t n, const uint32_t* sortedPrim, BvhNode* nodes,
                               const int32_t* parent, uint32_t* visits) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    karrasBottomUp(int(i), int(n), bounds, sortedPrim, nodes, parent, visits);
}

// A one-primitive tree: the root holds the leaf and an empty right child.
__global__ void singleLeafKernel(const Aabb* bounds, BvhNode* nodes, uint32_t* sortedPrim) {
    nodes[0].setLeft(bounds[0], 0, 1);
    nodes[0].setRight(Aabb(), -1, 0);
    sortedPrim[0] = 0;
}

uint32_t blocks(uint32_t n) { return (n + kBlock - 1) / kBlock; }

}  // namespace

void LbvhBuilder::build(const Aabb* primBounds, uint32_t n, int mortonBits, cudaStream_t stream,
                        StageTimer* timer, const LbvhStages& st, LbvhVariant variant) {
    n_ = n;
    variant_ = variant;
    if (n == 0) return;
    const bool apetrei = variant != LbvhVariant::Karras;
    nodes_.resize(n > 1 ? n - 1 : 1);
    sortedPrim_.resize(n);
    if (apetrei) {
        store_.resize(n);
        if (store_.data() != storeCleared_ || store_.bytes() != storeClearedBytes_) {
            // ◇ everywhere once per allocation; each build leaves it so.
            STRATA_CUDA_CHECK(cudaMemsetAsync(store_.data(), 0xff, store_.bytes(), stream));
            storeCleared_ = store_.data();
            storeClearedBytes_ = store_.bytes();
        }
        if (variant == LbvhVariant::Apetrei) root_.resize(1);
        if (variant == LbvhVariant::ApetreiSkip) skipNodes_.resize(2 * size_t(n) - 1);
    }
    if (n == 1) {
        StageScope s(timer, st.hierarchy);
        if (!apetrei) {
            singleLeafKernel<<<1, 1, 0, stream>>>(primBounds, nodes_.data(), sortedPrim_.data());
            STRATA_LAUNCH_CHECK("lbvh/single_leaf");
        } else {
            // The per-leaf pass handles one leaf itself (it reads no key).
            STRATA_CUDA_CHECK(cudaMemsetAsync(sortedPrim_.data(), 0, sizeof(uint32_t), stream));
            bottomUp(primBounds, nullptr, false, stream);
        }
        s.launched();
        return;
    }
    if (!apetrei) {
        parent_.resize(2 * n - 1);
        visits_.resize(n - 1);
    }
    primIds_.resize(n);
    sceneBox_.resize(6);
    const bool wide = mortonBits > 32;
    if (wide) { keys_.resize(n); sortedKeys_.resize(n); }
    else { keys32_.resize(n); sortedKeys32_.resize(n); }

    {
        StageScope s(timer, st.bounds);
        // min slots start at the largest encoding, max slots at the smallest.
        STRATA_CUDA_CHECK(cudaMemsetAsync(sceneBox_.data(), 0xff, 3 * sizeof(uint32_t), stream));
        STRATA_CUDA_CHECK(cudaMemsetAsync(sceneBox_.data() + 3, 0, 3 * sizeof(uint32_t), stream));
        uint32_t grid = std::min<uint32_t>(blocks(n), 1024);
        centroidBoundsKernel<<<grid, kBlock, 0, stream>>>(primBounds, n, sceneBox_.data());
        STRATA_LAUNCH_CHECK("lbvh/bounds");
        s.launched();
    }
    {
        StageScope s(timer, st.morton);
        if (wide) mortonKernel<<<blocks(n), kBlock, 0, stream>>>(primBounds, n, sceneBox_.data(), keys_.data(), primIds_.data());
        else mortonKernel<<<blocks(n), kBlock, 0, stream>>>(primBounds, n, sceneBox_.data(), keys32_.data(), primIds_.data());
        STRATA_LAUNCH_CHECK("lbvh/morton");
        s.launched();
    }
    {
        StageScope s(timer, st.sort);
        const int endBit = wide ? 63 : 30;
        size_t tempBytes = 0;
        STRATA_CUDA_CHECK(sortPairs(nullptr, tempBytes, n, endBit, wide, stream));
        sortTemp_.resize(tempBytes);
        if (n != sortLaunchesFor_ || endBit != sortBitsFor_) {
            sortLaunches_ = countKernelLaunches(
                [&](cudaStream_t side) { return sortPairs(sortTemp_.data(), tempBytes, n, endBit, wide, side); });
            sortLaunchesFor_ = n;
            sortBitsFor_ = endBit;
        }
        STRATA_CUDA_CHECK(sortPairs(sortTemp_.data(), tempBytes, n, endBit, wide, stream));
        STRATA_LAUNCH_CHECK("lbvh/sort");
        s.launched(sortLaunches_);
    }
    if (apetrei) {
        // One bottom-up pass builds the hierarchy and its boxes.
        StageScope s(timer, st.hierarchy);
        bottomUp(primBounds, wide ? static_cast<const void*>(sortedKeys_.data()) : sortedKeys32_.data(), wide, stream);
        s.launched();
        return;
    }
    {
        StageScope s(timer, st.hierarchy);
        if (wide) hierarchyKernel<<<blocks(n - 1), kBlock, 0, stream>>>(sortedKeys_.data(), n, nodes_.data(), parent_.data(), visits_.data());
        else hierarchyKernel<<<blocks(n - 1), kBlock, 0, stream>>>(sortedKeys32_.data(), n, nodes_.data(), parent_.data(), visits_.data());
        STRATA_LAUNCH_CHECK("lbvh/hierarchy");
        s.launched();
    }
    {
        StageScope s(timer, st.aabb);
        bottomUpKernel<<<blocks(n), kBlock, 0, stream>>>(primBounds, n, sortedPrim_.data(), nodes_.data(),
                                                         parent_.data(), visits_.data());
        STRATA_LAUNCH_CHECK("lbvh/aabb");
        s.launched();
    }
}

void LbvhBuilder::bottomUp(const Aabb* primBounds, const void* sortedKeys, bool wide, cudaStream_t stream) {
    LbvhSortedLeaves in{sortedKeys, wide, n_, primBounds, sortedPrim_.data()};
    if (variant_ == LbvhVariant::Apetrei) launchApetreiBottomUp(in, nodes_.data(), store_.data(), root_.data(), stream);
    else launchApetreiSkipBottomUp(in, skipNodes_.data(), nodes_.data(), store_.data(), stream);
}

cudaError_t LbvhBuilder::sortPairs(void* temp, size_t& tempBytes, uint32_t n, int endBit, bool wide,
                                   cudaStream_t stream) {
    if (wide)
        return cub::DeviceRadixSort::SortPairs(temp, tempBytes, keys_.data(), sortedKeys_.data(), primIds_.data(),
                                               sortedPrim_.data(), int(n), 0, endBit, stream);
    return cub::DeviceRadixSort::SortPairs(temp, tempBytes, keys32_.data(), sortedKeys32_.data(), primIds_.data(),
                                           sortedPrim_.data(), int(n), 0, endBit, stream);
}

// CUB chooses its kernels at run time; capture one sort into a graph (not
// executed) and count its kernel nodes, so the launch count is exact.
BvhView LbvhBuilder::view(BvhTraversal traversal) const {
    BvhView v{nodes_.data(), sortedPrim_.data(), n_ > 1 ? n_ - 1 : (n_ ? 1u : 0u), n_};
    if (n_ == 0) return v;
    if (variant_ == LbvhVariant::Apetrei) v.rootIndex = root_.data();  // found during the pass
    if (variant_ == LbvhVariant::ApetreiSkip) {
        v.skipNodes = skipNodes_.data();
        v.numSkipNodes = 2 * n_ - 1;
        v.traversal = traversal;
    }
    return v;
}

LbvhCopy LbvhBuilder::download() const {
    LbvhCopy c;
    BvhView v = view();
    c.nodes.resize(v.numNodes);
    c.primIndex.resize(v.numPrims);
    if (v.numNodes)
        STRATA_CUDA_CHECK(cudaMemcpy(c.nodes.data(), v.nodes, v.numNodes * sizeof(BvhNode), cudaMemcpyDeviceToHost));
    if (v.numPrims)
        STRATA_CUDA_CHECK(cudaMemcpy(c.primIndex.data(), v.primIndex, v.numPrims * 4, cudaMemcpyDeviceToHost));
    if (v.rootIndex) STRATA_CUDA_CHECK(cudaMemcpy(&c.root, v.rootIndex, 4, cudaMemcpyDeviceToHost));
    if (v.skipNodes) {
        c.skipNodes.resize(v.numSkipNodes);
        STRATA_CUDA_CHECK(cudaMemcpy(c.skipNodes.data(), v.skipNodes, v.numSkipNodes * sizeof(StacklessNode),
                                     cudaMemcpyDeviceToHost));
    }
    return c;
}

size_t LbvhBuilder::memoryBytes() const {
    return nodes_.bytes() + parent_.bytes() + visits_.bytes() + keys_.bytes() + sortedKeys_.bytes() +
           keys32_.bytes() + sortedKeys32_.bytes() + primIds_.bytes() + sortedPrim_.bytes() + sortTemp_.bytes() +
           store_.bytes() + root_.bytes() + skipNodes_.bytes();
}

size_t LbvhBuilder::estimateBytes(size_t n) {
    return std::max(lbvhBytes(n, LbvhVariant::Karras, true), lbvhBytes(n, LbvhVariant::ApetreiSkip, true));
}

}  // namespace strata
