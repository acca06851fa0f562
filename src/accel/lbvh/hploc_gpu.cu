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

// One cluster per lane: its box and its reference (hploc.h's slot encoding).
struct LaneCluster {
    Aabb box;
    int32_t ref = kHplocNoCluster;
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
// reference in one float4, hi.xyz in another (two arrays of n, so a warp's
// loads and stores of consecutive slots are contiguous).
struct ClusterSlots {
    float4* lo;
    float4* hi;
};

// The BvhNode child fields of a cluster.
__device__ int32_t childIndex(int32_t ref) { return hplocIsLeaf(ref) ? hplocLeafPos(ref) : ref; }
__device__ int32_t childCount(int32_t ref) { return hplocIsLeaf(ref) ? 1 : 0; }

// The warp's clusters packed to lanes 0..count-1 in lane order (Morton
// order) through the warp's part of shared memory; returns count.
__device__ int compact(LaneCluster& c, bool keep, float4* shLo, float4* shHi) {
    const int lane = threadIdx.x % kWarp;
    const unsigned kept = __ballot_sync(kFullWarp, keep);
    if (keep) {
        int dst = __popc(kept & ((1u << lane) - 1u));
        shLo[dst] = make_float4(c.box.lo.x, c.box.lo.y, c.box.lo.z, __int_as_float(c.ref));
        shHi[dst] = make_float4(c.box.hi.x, c.box.hi.y, c.box.hi.z, 0.0f);
    }
    __syncwarp();
    const int count = __popc(kept);
    if (lane < count) {
        float4 lo = shLo[lane], hi = shHi[lane];
        c.box = Aabb{{lo.x, lo.y, lo.z}, {hi.x, hi.y, hi.z}};
        c.ref = __float_as_int(lo.w);
    } else {
        c.ref = kHplocNoCluster;
    }
    __syncwarp();
    return count;
}

// The nodes one merge makes, kept in the warp's shared memory until the
// merge is done and numbered then with one atomic: a node made in this merge
// is referenced as firstLocal + its number here (firstLocal = n: above every
// node index), its children by their references (fixed when written).
struct MadeNodes {
    BvhNode* node;  // kWarp - 1 entries (32 clusters make at most 31 nodes)
    int count;
    int32_t firstLocal;
    __device__ int32_t final(int32_t ref, uint32_t base) const {
        return ref >= firstLocal ? int32_t(base) + (ref - firstLocal) : ref;
    }
};

// One PLOC round over the warp's `count` clusters (hploc.h): nearest
// neighbours within kHplocRadius lanes, mutual pairs merged into new nodes
// (made in lane order), then compacted.
__device__ int plocRound(LaneCluster& c, int count, MadeNodes& made, float4* shLo, float4* shHi) {
    const int lane = threadIdx.x % kWarp;
    float best = INFINITY;
    int nearest = lane + 2 * kWarp;  // "none": farther than every real candidate
    float ahead[kHplocRadius];
#pragma unroll
    for (int d = 1; d <= kHplocRadius; ++d) {
        Aabb other = shuffleBoxDown(c.box, d);
        ahead[d - 1] = plocDistance(c.box, other);
        if (lane + d < count && plocNearer(ahead[d - 1], lane + d, best, nearest, lane)) {
            best = ahead[d - 1];
            nearest = lane + d;
        }
    }
#pragma unroll
    for (int d = 1; d <= kHplocRadius; ++d) {
        // The pair (lane - d, lane) as lane - d measured it ahead of itself.
        float dist = __shfl_up_sync(kFullWarp, ahead[d - 1], d);
        if (lane - d >= 0 && plocNearer(dist, lane - d, best, nearest, lane)) {
            best = dist;
            nearest = lane - d;
        }
    }
    if (lane >= count) nearest = lane;
    const int nearestOfNearest = __shfl_sync(kFullWarp, nearest, nearest);
    const bool mutual = lane < count && nearestOfNearest == lane && nearest != lane;
    const Aabb partnerBox = shuffleBox(c.box, nearest);
    const int32_t partnerRef = __shfl_sync(kFullWarp, c.ref, nearest);
    const bool makes = mutual && lane < nearest;
    const unsigned makers = __ballot_sync(kFullWarp, makes);
    if (makes) {
        const int local = made.count + __popc(makers & ((1u << lane) - 1u));
        made.node[local] = makeNode(c.box, c.ref, 0, partnerBox, partnerRef, 0);
        c.box = merge(c.box, partnerBox);
        c.ref = made.firstLocal + local;
    }
    made.count += __popc(makers);
    return compact(c, lane < count && !(mutual && lane > nearest), shLo, shHi);
}

// Numbers the merge's nodes (one atomic: consecutive indices in the order
// they were made) and writes them with their children's final references;
// returns the number of the first.
__device__ uint32_t writeMadeNodes(const MadeNodes& made, BvhNode* nodes, uint32_t* nodeCounter) {
    const int lane = threadIdx.x % kWarp;
    if (made.count == 0) return 0;
    uint32_t base = 0;
    if (lane == 0) base = atomicAdd(nodeCounter, uint32_t(made.count));
    base = __shfl_sync(kFullWarp, base, 0);
    if (lane < made.count) {
        const BvhNode& m = made.node[lane];
        const int32_t left = made.final(m.left, base), right = made.final(m.right, base);
        storeNode(nodes + base + lane, makeNode(m.leftBox(), childIndex(left), childCount(left), m.rightBox(),
                                                childIndex(right), childCount(right)));
    }
    return base;
}

// The range [lo, hi] (split after sorted leaf `split`) completed by one lane:
// the warp loads both halves' clusters (lanes 0-15 the left's, 16-31 the
// right's), merges them down to kHplocThreshold (1 at the root) and leaves
// them in the range's first slots.
__device__ void mergeRange(int lo, int hi, int split, uint32_t n, BvhNode* nodes, ClusterSlots slots,
                           uint32_t* nodeCounter, float4* shLo, float4* shHi, BvhNode* shMade) {
    const int lane = threadIdx.x % kWarp;
    const bool leftHalf = lane < kHplocThreshold;
    const int k = leftHalf ? lane : lane - kHplocThreshold;
    const int first = leftHalf ? lo : split + 1;
    const int size = leftHalf ? split - lo + 1 : hi - split;
    LaneCluster c;
    if (k < size) {  // its leaves, or the clusters a merge left (written by other warps: read from L2)
        float4 boxLo = __ldcg(slots.lo + first + k), boxHi = __ldcg(slots.hi + first + k);
        c.ref = __float_as_int(boxLo.w);
        c.box = Aabb{{boxLo.x, boxLo.y, boxLo.z}, {boxHi.x, boxHi.y, boxHi.z}};
    }
    int count = compact(c, c.ref != kHplocNoCluster, shLo, shHi);
    const bool root = lo == 0 && hi == int(n) - 1;
    const int target = root ? 1 : kHplocThreshold;
    MadeNodes made{shMade, 0, int32_t(n)};
    while (count > target) count = plocRound(c, count, made, shLo, shHi);
    __syncwarp();
    const uint32_t base = writeMadeNodes(made, nodes, nodeCounter);
    c.ref = made.final(c.ref, base);
    if (root) {
        if (lane == 0) *nodeCounter = 0;  // every node is made: ready for the next build
    } else if (lane < kHplocThreshold) {
        const bool has = lane < count;
        slots.lo[lo + lane] =
            make_float4(c.box.lo.x, c.box.lo.y, c.box.lo.z, __int_as_float(has ? c.ref : kHplocNoCluster));
        slots.hi[lo + lane] = make_float4(c.box.hi.x, c.box.hi.y, c.box.hi.z, 0.0f);
    }
}

// build/hierarchy (hploc): one thread per sorted leaf climbs Apetrei's LBVH
// (Algorithm 3's hand-over, apetrei.h); the warp merges every range it
// completes past kHplocThreshold leaves.
template <class Key>
__global__ void __launch_bounds__(kBlock)
    hplocKernel(const Key* keys, uint32_t n, const Aabb* primBounds, const uint32_t* sortedPrim, BvhNode* nodes,
                int32_t* store, ClusterSlots slots, uint32_t* nodeCounter) {
    __shared__ float4 shLo[kBlock], shHi[kBlock];
    __shared__ BvhNode shMade[kBlock / kWarp][kWarp - 1];
    BvhNode* warpMade = shMade[threadIdx.x / kWarp];
    float4* warpLo = shLo + (threadIdx.x & ~(kWarp - 1));
    float4* warpHi = shHi + (threadIdx.x & ~(kWarp - 1));
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (n == 1) {
        if (i == 0) setSingleLeafRoot(nodes[0], primBounds[sortedPrim[0]]);
        return;
    }
    bool active = i < n;
    if (active) {
        // Every slot starts as its leaf (the ranges of up to kHplocThreshold
        // leaves are never merged: their slots stay so), visible to all
        // before any hand-over.
        Aabb box = primBounds[sortedPrim[i]];
        slots.lo[i] = make_float4(box.lo.x, box.lo.y, box.lo.z, __int_as_float(hplocLeafRef(int32_t(i))));
        slots.hi[i] = make_float4(box.hi.x, box.hi.y, box.hi.z, 0.0f);
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
                       __shfl_sync(kFullWarp, split, src), n, nodes, slots, nodeCounter, warpLo, warpHi, warpMade);
        }
        if (active && lo == 0 && hi == int(n) - 1) active = false;
        // The nodes and slots the warp wrote are visible before any of its
        // lanes hands its range over at the next step.
        if (merging) __threadfence();
    }
}

}  // namespace

void launchHploc(const LbvhSortedLeaves& in, BvhNode* nodes, int32_t* store, float4* slots, uint32_t* nodeCounter,
                 const LaunchContext& ctx) {
    const LaunchShape shape = perItem(in.n, kBlock);
    const ClusterSlots slotArrays{slots, slots + in.n};
    if (in.wide)
        launch(ctx, "build/hierarchy", shape, hplocKernel<uint64_t>, static_cast<const uint64_t*>(in.keys), in.n,
               in.primBounds, in.sortedPrim, nodes, store, slotArrays, nodeCounter);
    else
        launch(ctx, "build/hierarchy", shape, hplocKernel<uint32_t>, static_cast<const uint32_t*>(in.keys), in.n,
               in.primBounds, in.sortedPrim, nodes, store, slotArrays, nodeCounter);
}

}  // namespace strata
