// accel/kdtree/kd_gpu_library.cu — the library primitives of the chapter's
// Original: it computed the large nodes' AABBs with six segmented reductions
// and the triangle sorting's chunk offsets with two segmented scans from
// CUDPP; strata's Original calls CUB's. Each call is one "kernel call" in the
// chapter's count; the kernels CUB launches inside it are what CUPTI's
// activity records count on top (strata-cli kdtable shows both). CUB's
// templates compile slowly: they live in this translation unit only.
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>

#include "accel/kdtree/kd_gpu_internal.cuh"
#include "gpu/cuda_check.h"

namespace strata::kdgpu {

void librarySegmentedReduce(DeviceBuffer<unsigned char>& temp, const float* in, float* out, uint32_t numSegments,
                            const uint32_t* offsets, bool isMax, cudaStream_t stream) {
    if (numSegments == 0) return;
    auto run = [&](void* t, size_t& bytes) {
        return isMax ? cub::DeviceSegmentedReduce::Max(t, bytes, in, out, numSegments, offsets, offsets + 1, stream)
                     : cub::DeviceSegmentedReduce::Min(t, bytes, in, out, numSegments, offsets, offsets + 1, stream);
    };
    size_t bytes = 0;
    STRATA_CUDA_CHECK(run(nullptr, bytes));
    temp.resize(std::max<size_t>(bytes, 1));
    STRATA_CUDA_CHECK(run(temp.data(), bytes));
}

void librarySegmentedInclusiveSum(DeviceBuffer<unsigned char>& temp, const uint32_t* keys, const uint32_t* in,
                                  uint32_t* out, uint32_t n, cudaStream_t stream) {
    if (n == 0) return;
    size_t bytes = 0;
    STRATA_CUDA_CHECK(
        cub::DeviceScan::InclusiveSumByKey(nullptr, bytes, keys, in, out, n, cuda::std::equal_to<>{}, stream));
    temp.resize(std::max<size_t>(bytes, 1));
    STRATA_CUDA_CHECK(
        cub::DeviceScan::InclusiveSumByKey(temp.data(), bytes, keys, in, out, n, cuda::std::equal_to<>{}, stream));
}

}  // namespace strata::kdgpu
