// accel/lbvh/lbvh_block.cuh — strata's block hand-over for the LBVHs'
// bottom-up passes (accel.lbvh_block_hand_over): a parent whose whole range
// of leaves lies within the block's leaves has both children's threads in
// the block, so they vote with a shared-memory atomic and hand the subtree
// over in shared memory; every other parent is voted for in global memory
// as published (KarrasGlobalHandOver, ApetreiGlobalHandOver,
// ApetreiSkipGlobalHandOver). The tree is the same node for node: only where
// the two threads meet moves.
//
// Karras's pass knows it from its hierarchy pass, which sees each node's
// range and flags its children's parent entries (karrasParentEntry).
//
// Apetrei's passes (Algorithms 3 and 4) find it themselves. The δ* of Apetrei's pass (apetreiDelta)
// order the splits with ties to the left one: the subtree with range [L, R]
// goes up to split R when δ*(R) < δ*(L-1), else to split L-1. So the parent
// at split p covers [L, R] with L-1 the nearest split left of p with
// δ*(L-1) > δ*(p) and R the nearest split right of p with δ*(R) >= δ*(p)
// (δ* is +inf beyond the keys). Its range lies within the block's leaves
// [b0, b1) exactly when some split in [b0-1, p-1] has a larger δ* and some
// split in [p+1, b1-1] a δ* at least as large: a prefix and a suffix maximum
// over the block's splits, computed once per block before the pass.
#pragma once

#include <cub/block/block_scan.cuh>

#include "accel/lbvh/apetrei.h"
#include "accel/lbvh/apetrei_skip.h"
#include "accel/lbvh/karras.h"

namespace strata {

// Leaves per block of the hand-over kernels (their launch's block size).
constexpr int kHandOverBlock = 128;

template <int Block>
struct ApetreiBlockShared {
    using Scan = cub::BlockScan<uint64_t, Block>;
    union {
        typename Scan::TempStorage scan;
        float4 hand[Block][4];  // per split of the block: the left child's two float4, then the right's
    };
    uint64_t delta[Block];
    uint64_t suffix[Block];
    int32_t store[Block];  // ◇ or the first thread's far range end
    bool local[Block];     // the split's whole range lies within the block
};

// A child handed over in shared memory by another thread of the block.
__device__ inline ChildHandOver readHand(const float4* slot) {
    const volatile float4* h = slot;
    const float lx = h[0].x, ly = h[0].y, lz = h[0].z, li = h[0].w;
    const float hx = h[1].x, hy = h[1].y, hz = h[1].z, hc = h[1].w;
    return {Aabb{{lx, ly, lz}, {hx, hy, hz}}, __float_as_int(li), __float_as_int(hc)};
}

struct MaxU64 {
    __device__ uint64_t operator()(uint64_t a, uint64_t b) const { return a > b ? a : b; }
};

// Marks the block's splits whose range lies within its leaves and empties
// the shared votes. Every thread of the block calls it (barriers inside).
template <int Block, class Key>
__device__ void apetreiBlockSetUp(ApetreiBlockShared<Block>& s, const Key* keys, int n, int b0) {
    const int t = threadIdx.x, p = b0 + t;
    const uint64_t d = p < n ? apetreiDelta(keys, n, p) : 0;  // 0: no split (neutral for the maxima)
    uint64_t prefix;                                          // max δ* over [b0-1, p-1]
    typename ApetreiBlockShared<Block>::Scan(s.scan).ExclusiveScan(d, prefix, apetreiDelta(keys, n, b0 - 1), MaxU64{});
    s.delta[t] = d;
    __syncthreads();
    uint64_t reversed;  // max δ* over the splits after p within the block, by a scan in reverse order
    typename ApetreiBlockShared<Block>::Scan(s.scan).ExclusiveScan(s.delta[Block - 1 - t], reversed, uint64_t(0),
                                                                   MaxU64{});
    s.suffix[Block - 1 - t] = reversed;
    __syncthreads();
    s.local[t] = apetreiSplitInBlock(p, n, prefix, d, s.suffix[t]);
    s.store[t] = kStoreEmpty;
    __syncthreads();  // the scans' storage becomes the hand-over slots
}

template <int Block, class Global>
struct ApetreiBlockHandOver {
    Global global;
    ApetreiBlockShared<Block>& s;
    int b0;

    __device__ bool inBlock(int p) const {
        const unsigned k = unsigned(p - b0);
        return k < unsigned(Block) && s.local[k];
    }
    __device__ int32_t vote(int p, bool right, const Aabb& box, int32_t index, int32_t count, int32_t rangeEnd) {
        if (!inBlock(p)) return global.vote(p, right, box, index, count, rangeEnd);
        float4* h = &s.hand[p - b0][right ? 2 : 0];
        h[0] = make_float4(box.lo.x, box.lo.y, box.lo.z, __int_as_float(index));
        h[1] = make_float4(box.hi.x, box.hi.y, box.hi.z, __int_as_float(count));
        __threadfence_block();
        return atomicCAS(&s.store[p - b0], kStoreEmpty, rangeEnd);
    }
    __device__ ChildHandOver sibling(int p, bool right, int32_t child) {
        if (!inBlock(p)) return global.sibling(p, right, child);
        __threadfence_block();
        return readHand(&s.hand[p - b0][right ? 2 : 0]);
    }
};

// Karras's bottom-up pass: the flagged parents' votes in the block's counters.
template <int Block>
struct KarrasBlockShared {
    float4 hand[Block][4];  // per node of the block: the left child's two float4, then the right's
    uint32_t visits[Block];
};

// Empties the block's counters. Every thread of the block calls it.
template <int Block>
__device__ void karrasBlockSetUp(KarrasBlockShared<Block>& s) {
    s.visits[threadIdx.x] = 0;
    __syncthreads();
}

// A flagged node's range lies within the block's leaves [b0, b0 + Block),
// and Karras's node index is one end of its range: p - b0 is its slot.
template <int Block>
struct KarrasBlockHandOver {
    static constexpr int32_t kInBlockBit = kKarrasParentInBlock;  // the hierarchy pass flagged the entries
    KarrasGlobalHandOver global;
    KarrasBlockShared<Block>& s;
    int b0;

    __device__ bool vote(int p, bool right, bool inBlock, const Aabb& box, int32_t index, int32_t count) {
        if (!inBlock) return global.vote(p, right, false, box, index, count);
        float4* h = &s.hand[p - b0][right ? 2 : 0];
        h[0] = make_float4(box.lo.x, box.lo.y, box.lo.z, __int_as_float(index));
        h[1] = make_float4(box.hi.x, box.hi.y, box.hi.z, __int_as_float(count));
        __threadfence_block();
        return atomicAdd(&s.visits[p - b0], 1u) != 0;
    }
    __device__ ChildHandOver sibling(int p, bool right, bool inBlock) {
        if (!inBlock) return global.sibling(p, right, false);
        __threadfence_block();
        return readHand(&s.hand[p - b0][right ? 2 : 0]);
    }
};

}  // namespace strata
