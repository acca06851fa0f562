#include "accel/lbvh/apetrei_gpu.h"

#include "accel/lbvh/apetrei.h"
#include "accel/lbvh/apetrei_skip.h"
#include "gpu/cuda_check.h"

namespace strata {
namespace {

constexpr int kBlock = 256;
uint32_t blocks(uint32_t n) { return (n + kBlock - 1) / kBlock; }

// lbvh/apetrei/bottom_up — Algorithm 3, line 2: "for all leaf node with index i in parallel"
template <class Key>
__global__ void apetreiBottomUpKernel(const Key* keys, uint32_t n, const Aabb* primBounds,
                                      const uint32_t* sortedPrim, BvhNode* nodes, int32_t* store, uint32_t* root) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) apetreiBottomUp(int(i), int(n), keys, primBounds, sortedPrim, nodes, store, root);
}

// lbvh/apetrei_skip/bottom_up — Algorithm 4, line 2: "for all leaf node with index i in parallel"
template <class Key>
__global__ void apetreiSkipBottomUpKernel(const Key* keys, uint32_t n, const Aabb* primBounds,
                                          const uint32_t* sortedPrim, StacklessNode* skipNodes, BvhNode* nodes,
                                          int32_t* store) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) apetreiSkipBottomUp(int(i), int(n), keys, primBounds, sortedPrim, skipNodes, nodes, store);
}

}  // namespace

void launchApetreiBottomUp(const LbvhSortedLeaves& in, BvhNode* nodes, int32_t* store, uint32_t* root,
                           cudaStream_t stream) {
    if (in.wide)
        apetreiBottomUpKernel<<<blocks(in.n), kBlock, 0, stream>>>(static_cast<const uint64_t*>(in.keys), in.n,
                                                                    in.primBounds, in.sortedPrim, nodes, store, root);
    else
        apetreiBottomUpKernel<<<blocks(in.n), kBlock, 0, stream>>>(static_cast<const uint32_t*>(in.keys), in.n,
                                                                    in.primBounds, in.sortedPrim, nodes, store, root);
    STRATA_LAUNCH_CHECK("lbvh/apetrei/bottom_up");
}

void launchApetreiSkipBottomUp(const LbvhSortedLeaves& in, StacklessNode* skipNodes, BvhNode* nodes, int32_t* store,
                               cudaStream_t stream) {
    if (in.wide)
        apetreiSkipBottomUpKernel<<<blocks(in.n), kBlock, 0, stream>>>(
            static_cast<const uint64_t*>(in.keys), in.n, in.primBounds, in.sortedPrim, skipNodes, nodes, store);
    else
        apetreiSkipBottomUpKernel<<<blocks(in.n), kBlock, 0, stream>>>(
            static_cast<const uint32_t*>(in.keys), in.n, in.primBounds, in.sortedPrim, skipNodes, nodes, store);
    STRATA_LAUNCH_CHECK("lbvh/apetrei_skip/bottom_up");
}

}  // namespace strata
