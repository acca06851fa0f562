#include "accel/lbvh/apetrei_gpu.h"

#include "accel/lbvh/apetrei.h"
#include "accel/lbvh/lbvh_block.cuh"
#include "accel/lbvh/apetrei_skip.h"
#include "gpu/launch.cuh"

namespace strata {
namespace {

constexpr int kBlock = 256;

// build/hierarchy (lbvh-apetrei) — Algorithm 3, line 2: "for all leaf node with index i in parallel"
template <class Key>
__global__ void apetreiBottomUpKernel(const Key* keys, uint32_t n, const Aabb* primBounds, const uint32_t* sortedPrim,
                                      BvhNode* nodes, int32_t* store, uint32_t* root) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) apetreiBottomUp(int(i), int(n), keys, primBounds, sortedPrim, nodes, store, root);
}

// build/hierarchy (lbvh-skip) — Algorithm 4, line 2: "for all leaf node with index i in parallel"
template <class Key>
__global__ void apetreiSkipBottomUpKernel(const Key* keys, uint32_t n, const Aabb* primBounds,
                                          const uint32_t* sortedPrim, StacklessNode* skipNodes, BvhNode* nodes,
                                          int32_t* store) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) apetreiSkipBottomUp(int(i), int(n), keys, primBounds, sortedPrim, skipNodes, nodes, store);
}

// build/hierarchy (lbvh-apetrei, strata's block hand-over): Algorithm 3 with
// the votes of parents within the block's leaves in shared memory.
template <class Key>
__global__ void __launch_bounds__(kHandOverBlock)
    apetreiBlockBottomUpKernel(const Key* keys, uint32_t n, const Aabb* primBounds, const uint32_t* sortedPrim,
                               BvhNode* nodes, int32_t* store, uint32_t* root) {
    __shared__ ApetreiBlockShared<kHandOverBlock> s;
    const int b0 = int(blockIdx.x) * kHandOverBlock;
    apetreiBlockSetUp(s, keys, int(n), b0);
    ApetreiBlockHandOver<kHandOverBlock, ApetreiGlobalHandOver> handOver{{nodes, store}, s, b0};
    const uint32_t i = uint32_t(b0) + threadIdx.x;
    if (i < n) apetreiBottomUp(int(i), int(n), keys, primBounds, sortedPrim, nodes, handOver, root);
}

// build/hierarchy (lbvh-skip, strata's block hand-over): Algorithm 4 likewise.
template <class Key>
__global__ void __launch_bounds__(kHandOverBlock)
    apetreiSkipBlockBottomUpKernel(const Key* keys, uint32_t n, const Aabb* primBounds, const uint32_t* sortedPrim,
                                   StacklessNode* skipNodes, BvhNode* nodes, int32_t* store) {
    __shared__ ApetreiBlockShared<kHandOverBlock> s;
    const int b0 = int(blockIdx.x) * kHandOverBlock;
    apetreiBlockSetUp(s, keys, int(n), b0);
    ApetreiBlockHandOver<kHandOverBlock, ApetreiSkipGlobalHandOver> handOver{{skipNodes, store}, s, b0};
    const uint32_t i = uint32_t(b0) + threadIdx.x;
    if (i < n) apetreiSkipBottomUp(int(i), int(n), keys, primBounds, sortedPrim, skipNodes, nodes, handOver);
}

}  // namespace

void launchApetreiBottomUp(const LbvhSortedLeaves& in, BvhNode* nodes, int32_t* store, uint32_t* root,
                           const LaunchContext& ctx) {
    const LaunchShape shape = perItem(in.n, in.blockHandOver ? kHandOverBlock : kBlock);
    const uint64_t* k64 = static_cast<const uint64_t*>(in.keys);
    const uint32_t* k32 = static_cast<const uint32_t*>(in.keys);
    if (in.blockHandOver && in.wide)
        launch(ctx, "build/hierarchy", shape, apetreiBlockBottomUpKernel<uint64_t>, k64, in.n, in.primBounds,
               in.sortedPrim, nodes, store, root);
    else if (in.blockHandOver)
        launch(ctx, "build/hierarchy", shape, apetreiBlockBottomUpKernel<uint32_t>, k32, in.n, in.primBounds,
               in.sortedPrim, nodes, store, root);
    else if (in.wide)
        launch(ctx, "build/hierarchy", shape, apetreiBottomUpKernel<uint64_t>, k64, in.n, in.primBounds, in.sortedPrim,
               nodes, store, root);
    else
        launch(ctx, "build/hierarchy", shape, apetreiBottomUpKernel<uint32_t>, k32, in.n, in.primBounds, in.sortedPrim,
               nodes, store, root);
}

void launchApetreiSkipBottomUp(const LbvhSortedLeaves& in, StacklessNode* skipNodes, BvhNode* nodes, int32_t* store,
                               const LaunchContext& ctx) {
    const LaunchShape shape = perItem(in.n, in.blockHandOver ? kHandOverBlock : kBlock);
    const uint64_t* k64 = static_cast<const uint64_t*>(in.keys);
    const uint32_t* k32 = static_cast<const uint32_t*>(in.keys);
    if (in.blockHandOver && in.wide)
        launch(ctx, "build/hierarchy", shape, apetreiSkipBlockBottomUpKernel<uint64_t>, k64, in.n, in.primBounds,
               in.sortedPrim, skipNodes, nodes, store);
    else if (in.blockHandOver)
        launch(ctx, "build/hierarchy", shape, apetreiSkipBlockBottomUpKernel<uint32_t>, k32, in.n, in.primBounds,
               in.sortedPrim, skipNodes, nodes, store);
    else if (in.wide)
        launch(ctx, "build/hierarchy", shape, apetreiSkipBottomUpKernel<uint64_t>, k64, in.n, in.primBounds,
               in.sortedPrim, skipNodes, nodes, store);
    else
        launch(ctx, "build/hierarchy", shape, apetreiSkipBottomUpKernel<uint32_t>, k32, in.n, in.primBounds,
               in.sortedPrim, skipNodes, nodes, store);
}

}  // namespace strata
