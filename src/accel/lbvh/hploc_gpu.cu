#include "accel/lbvh/hploc_gpu.h"

#include "accel/lbvh/apetrei.h"
#include "accel/lbvh/hploc.h"
#include "gpu/launch.cuh"

namespace strata {
namespace {

constexpr int kBlock = 64;
constexpr unsigned kFullWarp = 0xffffffffu;
constexpr int kWarp = 32;
static_assert(2 * kHplocThreshold == kWarp, "two subtrees' clusters fill one warp");

// One cluster per lane: its box, its reference (hploc.h's slot encoding) and
// its first leaf (the lowest sorted position it holds: hploc.h's numbering).
struct LaneCluster {
    Aabb box;
    int32_t ref = kHplocNoCluster;
    int32_t first = 0;
};

__device__ Aabb shuffleBox(const Aabb& b, int src) {
    return Aabb{
        {__shfl_sync(kFullWarp, b.lo.x, src), __shfl_sync(kFullWarp, b.lo.y, src), __shfl_sync(kFullWarp, b.lo.z, src)},
        {__shfl_sync(kFullWarp, b.hi.x, src), __shfl_sync(kFullWarp, b.hi.y, src),
         __shfl_sync(kFullWarp, b.hi.z, src)}};
}

__device__ Aabb shuffleBoxDown(const Aabb& b, int d) {
    return Aabb{{__shfl_down_sync(kFullWarp, b.lo.x, d), __shfl_down_sync(kFullWarp, b.lo.y, d),
                 __shfl_down_sync(kFullWarp, b.lo.z, d)},
                {__shfl_down_sync(kFullWarp, b.hi.x, d), __shfl_down_sync(kFullWarp, b.hi.y, d),
                 __shfl_down_sync(kFullWarp, b.hi.z, d)}};
}

// A cluster slot (hploc.h's encoding) with its box: lo.xyz and the
// reference in one float4, hi.xyz and the first leaf in another (two arrays
// of n, so a warp's loads and stores of consecutive slots are contiguous).
struct ClusterSlots {
    float4* lo;
    float4* hi;
};

// The BvhNode child fields of a cluster.
__device__ int32_t childIndex(int32_t ref) { return hplocIsLeaf(ref) ? hplocLeafPos(ref) : ref; }
__device__ int32_t childCount(int32_t ref) { return hplocIsLeaf(ref) ? 1 : 0; }

__device__ LaneCluster clusterOf(float4 lo, float4 hi) {
    return LaneCluster{Aabb{{lo.x, lo.y, lo.z}, {hi.x, hi.y, hi.z}}, __float_as_int(lo.w), __float_as_int(hi.w)};
}
__device__ float4 loWord(const LaneCluster& c, int32_t ref) {
    return make_float4(c.box.lo.x, c.box.lo.y, c.box.lo.z, __int_as_float(ref));
}
__device__ float4 hiWord(const LaneCluster& c) {
    return make_float4(c.box.hi.x, c.box.hi.y, c.box.hi.z, __int_as_float(c.first));
}

// The warp's clusters packed to lanes 0..count-1 in lane order (Morton
// order) through the warp's part of shared memory; returns count.
__device__ int compact(LaneCluster& c, bool keep, float4* shLo, float4* shHi) {
    const int lane = threadIdx.x % kWarp;
    const unsigned kept = __ballot_sync(kFullWarp, keep);
    if (keep) {
        int dst = __popc(kept & ((1u << lane) - 1u));
        shLo[dst] = loWord(c, c.ref);
        shHi[dst] = hiWord(c);
    }
    __syncwarp();
    const int count = __popc(kept);
    if (lane < count) {
        c = clusterOf(shLo[lane], shHi[lane]);
    } else {
        c.ref = kHplocNoCluster;
    }
    __syncwarp();
    return count;
}

__device__ uint64_t minKey(uint64_t a, uint64_t b) { return b < a ? b : a; }

// One PLOC round over the warp's `count` clusters (hploc.h): nearest
// neighbours within kHplocRadius lanes, mutual pairs merged into new nodes
// (each written at once where hploc.h's numbering puts it: the lower lane
// makes it, and the higher one's first leaf names it), then compacted.
__device__ int plocRound(LaneCluster& c, int count, BvhNode* nodes, float4* shLo, float4* shHi) {
    const int lane = threadIdx.x % kWarp;
    // Each candidate's key (hploc.h's plocNearKey; none: all ones), then
    // their minimum by a tree of comparisons.
    constexpr uint64_t kNone = ~0ull;
    uint64_t key[2 * kHplocRadius];
    float ahead[kHplocRadius];
#pragma unroll
    for (int d = 1; d <= kHplocRadius; ++d) {
        ahead[d - 1] = plocDistance(c.box, shuffleBoxDown(c.box, d));
        key[d - 1] = lane + d < count ? plocNearKey(ahead[d - 1], lane + d, lane) : kNone;
    }
#pragma unroll
    for (int d = 1; d <= kHplocRadius; ++d) {
        // The pair (lane - d, lane) as lane - d measured it ahead of itself.
        const float dist = __shfl_up_sync(kFullWarp, ahead[d - 1], d);
        key[kHplocRadius + d - 1] = lane - d >= 0 ? plocNearKey(dist, lane - d, lane) : kNone;
    }
    // (Each stage a loop of its own: the steps unrolled, so that the keys
    // stay in registers.)
    static_assert(kHplocRadius == 8, "the tree below takes the minimum of 16 keys");
#pragma unroll
    for (int k = 0; k < 8; ++k) key[k] = minKey(key[k], key[k + 8]);
#pragma unroll
    for (int k = 0; k < 4; ++k) key[k] = minKey(key[k], key[k + 4]);
#pragma unroll
    for (int k = 0; k < 2; ++k) key[k] = minKey(key[k], key[k + 2]);
    key[0] = minKey(key[0], key[1]);
    int nearest = plocKeyCandidate(key[0], lane);
    if (lane >= count) nearest = lane;
    const int nearestOfNearest = __shfl_sync(kFullWarp, nearest, nearest);
    const bool mutual = lane < count && nearestOfNearest == lane && nearest != lane;
    const Aabb partnerBox = shuffleBox(c.box, nearest);
    const int32_t partnerRef = __shfl_sync(kFullWarp, c.ref, nearest);
    const int32_t partnerFirst = __shfl_sync(kFullWarp, c.first, nearest);
    if (mutual && lane < nearest) {
        const int32_t node = hplocNodeOf(partnerFirst);
        storeNode(nodes + node, makeNode(c.box, childIndex(c.ref), childCount(c.ref), partnerBox,
                                         childIndex(partnerRef), childCount(partnerRef)));
        c.box = merge(c.box, partnerBox);
        c.ref = node;
    }
    return compact(c, lane < count && !(mutual && lane > nearest), shLo, shHi);
}

// The range [lo, hi] (split after sorted leaf `split`) completed by one lane:
// the warp loads both halves' clusters (lanes 0-15 the left's, 16-31 the
// right's), merges them down to kHplocThreshold (1 at the root) and leaves
// them in the range's first slots (the root's index into *root).
__device__ void mergeRange(int lo, int hi, int split, uint32_t n, BvhNode* nodes, ClusterSlots slots, uint32_t* root,
                           float4* shLo, float4* shHi) {
    const int lane = threadIdx.x % kWarp;
    const bool leftHalf = lane < kHplocThreshold;
    const int k = leftHalf ? lane : lane - kHplocThreshold;
    const int first = leftHalf ? lo : split + 1;
    const int size = leftHalf ? split - lo + 1 : hi - split;
    LaneCluster c;
    if (k < size)  // its leaves, or the clusters a merge left (written by other warps: read from L2)
        c = clusterOf(__ldcg(slots.lo + first + k), __ldcg(slots.hi + first + k));
    int count = compact(c, c.ref != kHplocNoCluster, shLo, shHi);
    const bool isRoot = lo == 0 && hi == int(n) - 1;
    const int target = isRoot ? 1 : kHplocThreshold;
    while (count > target) count = plocRound(c, count, nodes, shLo, shHi);
    if (isRoot) {
        if (lane == 0) *root = uint32_t(c.ref);
    } else if (lane < kHplocThreshold) {
        slots.lo[lo + lane] = loWord(c, lane < count ? c.ref : kHplocNoCluster);
        slots.hi[lo + lane] = hiWord(c);
    }
}

// build/hierarchy (hploc): one thread per sorted leaf climbs Apetrei's LBVH
// (Algorithm 3's hand-over, apetrei.h); the warp merges every range it
// completes past kHplocThreshold leaves.
template <class Key>
__global__ void __launch_bounds__(kBlock)
    hplocKernel(const Key* keys, uint32_t n, const Aabb* primBounds, const uint32_t* sortedPrim, BvhNode* nodes,
                int32_t* store, ClusterSlots slots, uint32_t* root) {
    __shared__ float4 shLo[kBlock], shHi[kBlock];
    float4* warpLo = shLo + (threadIdx.x & ~(kWarp - 1));
    float4* warpHi = shHi + (threadIdx.x & ~(kWarp - 1));
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (n == 1) {
        if (i == 0) {
            setSingleLeafRoot(nodes[0], primBounds[sortedPrim[0]]);
            *root = 0;
        }
        return;
    }
    bool active = i < n;
    if (active) {
        // Every slot starts as its leaf (the ranges of up to kHplocThreshold
        // leaves are never merged: their slots stay so), visible to all
        // before any hand-over.
        const LaneCluster leaf{primBounds[sortedPrim[i]], hplocLeafRef(int32_t(i)), int32_t(i)};
        slots.lo[i] = loWord(leaf, leaf.ref);
        slots.hi[i] = hiWord(leaf);
        __threadfence();
    }
    int lo = int(i), hi = int(i);
    uint64_t deltaLo = active ? apetreiDelta(keys, int(n), lo - 1) : 0;
    uint64_t deltaHi = active ? apetreiDelta(keys, int(n), hi) : 0;
    while (__any_sync(kFullWarp, active)) {
        int split = 0;
        bool merges = false;
        if (active) {
            int32_t other;
            if (deltaHi < deltaLo) {  // the left child of split `hi`
                split = hi;
                other = atomicCAS(&store[split], kStoreEmpty, lo);
                if (other != kStoreEmpty) {
                    hi = other;
                    deltaHi = apetreiDelta(keys, int(n), hi);
                }
            } else {  // the right child of split `lo - 1`
                split = lo - 1;
                other = atomicCAS(&store[split], kStoreEmpty, hi);
                if (other != kStoreEmpty) {
                    lo = other;
                    deltaLo = apetreiDelta(keys, int(n), lo - 1);
                }
            }
            if (other == kStoreEmpty) {
                active = false;  // the first up: the sibling's thread goes on
            } else {
                store[split] = kStoreEmpty;
                merges = hi - lo + 1 > kHplocThreshold || (lo == 0 && hi == int(n) - 1);
            }
        }
        const unsigned merging = __ballot_sync(kFullWarp, merges);
        for (unsigned pending = merging; pending; pending &= pending - 1) {
            const int src = __ffs(pending) - 1;
            mergeRange(__shfl_sync(kFullWarp, lo, src), __shfl_sync(kFullWarp, hi, src),
                       __shfl_sync(kFullWarp, split, src), n, nodes, slots, root, warpLo, warpHi);
        }
        if (active && lo == 0 && hi == int(n) - 1) active = false;
        // The nodes and slots the warp wrote are visible before any of its
        // lanes hands its range over at the next step.
        if (merging) __threadfence();
    }
}

}  // namespace

void launchHploc(const LbvhSortedLeaves& in, BvhNode* nodes, int32_t* store, float4* slots, uint32_t* root,
                 const LaunchContext& ctx) {
    const LaunchShape shape = perItem(in.n, kBlock);
    const ClusterSlots slotArrays{slots, slots + in.n};
    if (in.wide)
        launch(ctx, "build/hierarchy", shape, hplocKernel<uint64_t>, static_cast<const uint64_t*>(in.keys), in.n,
               in.primBounds, in.sortedPrim, nodes, store, slotArrays, root);
    else
        launch(ctx, "build/hierarchy", shape, hplocKernel<uint32_t>, static_cast<const uint32_t*>(in.keys), in.n,
               in.primBounds, in.sortedPrim, nodes, store, slotArrays, root);
}

}  // namespace strata
