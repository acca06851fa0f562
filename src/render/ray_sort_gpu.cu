#include "render/ray_sort_gpu.h"

#include <cub/device/device_radix_sort.cuh>

#include "gpu/launch.cuh"
#include "render/ray_order.h"

namespace strata {
namespace {

constexpr int kSortBlock = 256;

// Slots past the queue's length get the largest key: they sort last.
__global__ void rayOrderKeysKernel(SceneView s, const Ray* rays, const uint32_t* count, uint32_t n, uint32_t* keys,
                                   uint32_t* slots) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    slots[i] = i;
    keys[i] = i < *count ? rayOrderKey(rays[i], rayOrderBox(s)) : (1u << kRayOrderKeyBits) - 1;
}

__global__ void gatherRaysKernel(const Ray* rays, const uint32_t* paths, const uint32_t* order, const uint32_t* count,
                                 uint32_t n, Ray* outRays, uint32_t* outPaths) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || i >= *count) return;
    const uint32_t j = order[i];
    outRays[i] = rays[j];
    outPaths[i] = paths[j];
}

}  // namespace

RaySortGpu::Sorted RaySortGpu::sort(const SceneView& sv, const Ray* rays, const uint32_t* paths, const uint32_t* count,
                                    uint32_t n, const LaunchContext& ctx) {
    StageScope timed(ctx.timer, "trace/sort");
    keys_.resize(n);
    keysSorted_.resize(n);
    slots_.resize(n);
    slotsSorted_.resize(n);
    rays_.resize(n);
    paths_.resize(n);
    launch(ctx, "trace/sort", perItem(n, kSortBlock), rayOrderKeysKernel, sv, rays, count, n, keys_.data(),
           slots_.data());
    size_t bytes = 0;
    auto sortPairs = [&](void* temp, cudaStream_t st) {
        return cub::DeviceRadixSort::SortPairs(temp, bytes, keys_.data(), keysSorted_.data(), slots_.data(),
                                               slotsSorted_.data(), n, 0, kRayOrderKeyBits, st);
    };
    STRATA_CUDA_CHECK(sortPairs(nullptr, ctx.stream));
    if (temp_.size() < bytes) temp_.resize(bytes);
    countedLibraryCall(ctx, "trace/sort", sortLaunches_, n,
                       [&](cudaStream_t st) { return sortPairs(temp_.data(), st); });
    launch(ctx, "trace/sort", perItem(n, kSortBlock), gatherRaysKernel, rays, paths, slotsSorted_.data(), count, n,
           rays_.data(), paths_.data());
    return {rays_.data(), paths_.data()};
}

void RaySortGpu::release() {
    for (DeviceBuffer<uint32_t>* b : {&keys_, &keysSorted_, &slots_, &slotsSorted_, &paths_}) b->release();
    rays_.release();
    temp_.release();
}

}  // namespace strata
