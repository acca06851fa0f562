// accel/lbvh/lbvh_gpu.h — the LBVH of Karras 2012 on the GPU. Input: one box
// per primitive (device memory); output: BvhNodes (n-1 internal nodes, root
// 0) and the sorted primitive order. Labelled phases, each a timed stage:
//   build/bounds     scene box of the centroids (one reduction kernel)
//   build/morton     Morton code per primitive (30 or 63 bits)
//   build/sort       CUB radix sort of (code, primitive) pairs
//   build/hierarchy  Karras Fig. 4, one thread per internal node
//   build/aabb       bottom-up boxes, one thread per leaf
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "accel/bvh.h"
#include "gpu/device_buffer.h"

namespace strata {

class StageTimer;

struct LbvhStages {  // stage indices in the caller's StageTimer, -1: untimed
    int bounds = -1, morton = -1, sort = -1, hierarchy = -1, aabb = -1;
};

class LbvhBuilder {
public:
    void build(const Aabb* primBounds, uint32_t n, int mortonBits, cudaStream_t stream, StageTimer* timer,
               const LbvhStages& stages);
    BvhView view() const;
    uint32_t numPrims() const { return n_; }
    size_t memoryBytes() const;

private:
    cudaError_t sortPairs(void* temp, size_t& tempBytes, uint32_t n, int endBit, bool wide, cudaStream_t stream);
    uint32_t countSortLaunches(size_t tempBytes, uint32_t n, int endBit, bool wide);

    uint32_t n_ = 0;
    uint32_t sortLaunches_ = 0, sortLaunchesFor_ = 0;
    int sortBitsFor_ = 0;
    DeviceBuffer<BvhNode> nodes_;
    DeviceBuffer<int32_t> parent_;
    DeviceBuffer<uint32_t> visits_;
    DeviceBuffer<uint64_t> keys_, sortedKeys_;
    DeviceBuffer<uint32_t> keys32_, sortedKeys32_;
    DeviceBuffer<uint32_t> primIds_, sortedPrim_;
    DeviceBuffer<uint32_t> sceneBox_;  // order-preserving encoded min xyz, max xyz
    DeviceBuffer<uint8_t> sortTemp_;
};

}  // namespace strata
