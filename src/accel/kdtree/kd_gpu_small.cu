// accel/kdtree/kd_gpu_small.cu — Zhou08 small-node stage: per small root the
// split candidates with their triangle masks, then exact-SAH splitting to the
// leaves. Original vs [E]: bit counts (SWAR vs __popcll) and the block scans
// and reductions (shared memory vs ballot/popc and shfl).
#include "accel/kdtree/kd_gpu_internal.cuh"
#include "gpu/cuda_check.h"

namespace strata::kdgpu {
namespace {

constexpr int kSmallBlock = 64;
constexpr int kCand = 384;  // 64 triangles x 3 axes x {min, max}
constexpr int kStack = kKdMaxDepth + 8;

// Zhou08 small-node stage, preprocessing: split candidates and their masks (Sec. 13.3)
__global__ void snsCandidates(SmallStageArgs a) {
    const SmallRoot r = a.roots[blockIdx.x];
    if (r.forceLeaf || r.count > 64) return;
    __shared__ __align__(16) unsigned char boxRaw[64 * sizeof(Aabb)];  // raw: Aabb has initialisers
    Aabb* box = reinterpret_cast<Aabb*>(boxRaw);
    for (uint32_t i = threadIdx.x; i < r.count; i += blockDim.x) box[i] = a.box[r.offset + i];
    __syncthreads();
    for (uint32_t c = threadIdx.x; c < 6 * r.count; c += blockDim.x) {
        const uint32_t i = c / 6;
        const int axis = int(c % 6) / 2;
        const float p = kdCandidatePlane(box[i].lo[axis], box[i].hi[axis], (c & 1) != 0);
        unsigned long long l = 0, rr = 0;
        for (uint32_t j = 0; j < r.count; ++j) {
            l |= (unsigned long long)kdGoesLeft(box[j].lo[axis], box[j].hi[axis], p) << j;
            rr |= (unsigned long long)kdGoesRight(box[j].lo[axis], box[j].hi[axis], p) << j;
        }
        a.candPlane[size_t(blockIdx.x) * kCand + c] = p;
        a.candMask[size_t(blockIdx.x) * kCand + c] = make_ulonglong2(l, rr);
    }
}

struct Work {
    uint32_t node, depth;
    unsigned long long mask;
    Aabb cell;
};

struct ArgminSmem {
    float cost[kSmallBlock];
    int idx[kSmallBlock];
};

// (cost, candidate) minimum over the block, lower candidate on ties.
__device__ void blockArgmin(ArgminSmem& s, float& cost, int& idx, bool shfl) {
    const int t = threadIdx.x, lane = t & 31, w = t >> 5;
    auto better = [](float c1, int i1, float c2, int i2) { return c2 < c1 || (c2 == c1 && i2 < i1); };
    if (shfl) {  // strata's (accel.kd_sns_compact): shuffles within warps, then across the warp results
        for (int d = 16; d >= 1; d >>= 1) {
            float oc = __shfl_xor_sync(0xffffffffu, cost, d);
            int oi = __shfl_xor_sync(0xffffffffu, idx, d);
            if (better(cost, idx, oc, oi)) cost = oc, idx = oi;
        }
        if (lane == 0) s.cost[w] = cost, s.idx[w] = idx;
        __syncthreads();
        cost = s.cost[0];
        idx = s.idx[0];
        for (int k = 1; k < kSmallBlock / 32; ++k)
            if (better(cost, idx, s.cost[k], s.idx[k])) cost = s.cost[k], idx = s.idx[k];
        __syncthreads();
        return;
    }
    s.cost[t] = cost;  // Zhou08: shared-memory tree reduction
    s.idx[t] = idx;
    __syncthreads();
    for (int d = kSmallBlock >> 1; d >= 1; d >>= 1) {
        if (t < d && better(s.cost[t], s.idx[t], s.cost[t + d], s.idx[t + d]))
            s.cost[t] = s.cost[t + d], s.idx[t] = s.idx[t + d];
        __syncthreads();
    }
    cost = s.cost[0];
    idx = s.idx[0];
    __syncthreads();
}

// A small root's subtree is built in shared memory (nodes and leaf entries
// at block-local indices) and written out at the end with one allocation of
// each kind: a node or leaf allocation per split is then a shared-memory
// bump, not a global atomic that the whole block waits on at the next
// barrier. A subtree larger than the local store falls back: a leaf whose
// entries do not fit takes them from primIndex directly (marked absolute);
// a split that does not fit makes a leaf (kFlagLocal, reported). The CPU
// reference's largest small-root subtrees (KdBuildStats::maxSmallNodes) on
// the real and generated scenes: 396-562 nodes (SR3).
constexpr uint32_t kLocalNodes = 1024;
constexpr uint32_t kLocalRefs = 1024;
constexpr uint32_t kRootSlot = kLocalNodes;  // the small root itself (a node the large stage allocated)

struct LocalTree {
    uint2 node[kLocalNodes + 1];  // KdNode bits (a, b); [kRootSlot]: the root
    uint32_t ref[kLocalRefs];
    uint32_t absolute[(kLocalNodes + 1 + 31) / 32];  // leaves whose entries are global already
    uint32_t nodeCount, refCount;
};

__device__ void setLocal(LocalTree& l, uint32_t slot, const KdNode& n) { l.node[slot] = make_uint2(n.a, n.b); }

// The local node at `slot` with its indices made global.
__device__ KdNode globalNode(const LocalTree& l, uint32_t slot, uint32_t nodeBase, uint32_t refBase) {
    KdNode n;
    n.a = l.node[slot].x;
    n.b = l.node[slot].y;
    if (!n.isLeaf()) n.b += nodeBase << 2;  // child index field
    else if (!((l.absolute[slot >> 5] >> (slot & 31)) & 1u)) n.a += refBase;
    return n;
}

// The small root as one leaf with all its references (more than 64 of them,
// or no room for its subtree). ok and base are the block's shared variables.
__device__ void writeRootLeaf(const SmallStageArgs& a, const SmallRoot& root, int& ok, uint32_t& base) {
    if (threadIdx.x == 0) {
        ok = allocate(&a.counters[kPrimRefs], root.count, a.primCapacity, base);
        if (ok) a.nodes[root.node] = KdNode::leaf(base, root.count);
        else atomicOr(&a.counters[kFlags], kFlagPrim);
    }
    __syncthreads();
    if (ok)
        for (uint32_t i = threadIdx.x; i < root.count; i += blockDim.x) a.primIndex[base + i] = a.tri[root.offset + i];
}

// Zhou08 small-node stage, split small nodes by SAH until leaves (bit counting: Table 13.1 [E])
__global__ void snsSplitToLeaves(SmallStageArgs a) {
    const SmallRoot root = a.roots[blockIdx.x];
    const int t = threadIdx.x;
    __shared__ __align__(16) unsigned char stackRaw[kStack * sizeof(Work)], curRaw[sizeof(Work)];
    Work* stack = reinterpret_cast<Work*>(stackRaw);
    Work& cur = *reinterpret_cast<Work*>(curRaw);
    __shared__ int sp, decision, refsGlobal;
    __shared__ uint32_t base, nodeBase, refBase;
    __shared__ ArgminSmem am;
    __shared__ uint32_t scan[64];
    __shared__ uint8_t nodeTri[64];
    __shared__ LocalTree local;
    // The root's candidates, read at every node of its subtree: in shared
    // memory (from global memory each read missed L1 and waited on L2).
    __shared__ float plane[kCand];
    __shared__ ulonglong2 masks[kCand];

    if (root.forceLeaf || root.count > 64) {  // one leaf with every reference
        writeRootLeaf(a, root, decision, base);
        return;
    }
    if (t == 0) {
        sp = 1;
        stack[0] = {kRootSlot, root.depth, root.count == 64 ? ~0ull : ((1ull << root.count) - 1), root.cell};
        local.nodeCount = local.refCount = 0;
        setLocal(local, kRootSlot, KdNode::leaf(0, 0));  // until the root is decided
    }
    for (uint32_t c = t; c < 6 * root.count; c += blockDim.x) {
        plane[c] = a.candPlane[size_t(blockIdx.x) * kCand + c];
        masks[c] = a.candMask[size_t(blockIdx.x) * kCand + c];
    }
    for (uint32_t i = t; i < sizeof(local.absolute) / 4; i += blockDim.x) local.absolute[i] = 0;
    __syncthreads();
    for (;;) {
        if (t == 0) cur = stack[--sp];
        __syncthreads();
        const Work w = cur;
        const uint32_t n = bitCount(w.mask, a.popc);
        const float maxExt = maxComponent(w.cell.extent());
        const float inv = maxExt > 0.0f ? 1.0f / maxExt : 0.0f;
        const float area = kdScaledArea(w.cell, inv);
        // strata's (accel.kd_sns_compact, not in Table 13.1): the node's
        // triangles as a compact list (the popc of the mask below each bit),
        // so the loop visits their 6n candidates only, not all 6 * root.count
        // of the root; Zhou08 tests each one's mask bit.
        const bool compact = a.cfg.snsCompact;
        if (compact) {
            if (t < 64 && t < int(root.count) && ((w.mask >> t) & 1ull))
                nodeTri[__popcll(w.mask & ((1ull << t) - 1ull))] = uint8_t(t);
            __syncthreads();
        }
        float best = a.cfg.intersectionCost * float(n);
        int bestC = -1;
        if (n > 0 && area > 0.0f) {
            const int end = int(6 * (compact ? n : root.count));
            for (int k = t; k < end; k += kSmallBlock) {
                int c = k;  // the candidate: 6 * triangle + kind, as the root numbers them
                if (compact) c = 6 * nodeTri[k / 6] + k % 6;
                else if (!((w.mask >> (c / 6)) & 1ull)) continue;
                const int ax = (c % 6) / 2;
                const float p = plane[c];
                if (!(p > w.cell.lo[ax] && p < w.cell.hi[ax])) continue;
                const ulonglong2 m = masks[c];
                const uint32_t nl = bitCount(w.mask & m.x, a.popc), nr = bitCount(w.mask & m.y, a.popc);
                const float cost = kdSplitCost(a.cfg, area, kdScaledArea(kdChildCell(w.cell, ax, p, false), inv),
                                               kdScaledArea(kdChildCell(w.cell, ax, p, true), inv), nl, nr);
                if (cost < best) best = cost, bestC = c;
            }
        }
        blockArgmin(am, best, bestC, compact);  // strata's: warp shuffles with accel.kd_sns_compact
        if (t == 0) {
            decision = 0;  // 0: leaf, 1: split
            if (bestC >= 0) {
                if (int(w.depth) >= a.cfg.maxDepth) atomicOr(&a.counters[kFlags], kFlagDepth);
                else if (sp + 2 > kStack) atomicOr(&a.counters[kFlags], kFlagStack);
                else if (local.nodeCount + 2 > kLocalNodes) atomicOr(&a.counters[kFlags], kFlagLocal);
                else {
                    const uint32_t first = local.nodeCount;
                    local.nodeCount += 2;
                    const int ax = (bestC % 6) / 2;
                    const float p = plane[bestC];
                    const ulonglong2 m = masks[bestC];
                    setLocal(local, w.node, KdNode::inner(ax, p, first));
                    stack[sp++] = {first + 1, w.depth + 1, w.mask & m.y, kdChildCell(w.cell, ax, p, true)};
                    stack[sp++] = {first, w.depth + 1, w.mask & m.x, kdChildCell(w.cell, ax, p, false)};
                    decision = 1;
                }
            }
            if (!decision) {
                uint32_t first;
                refsGlobal = local.refCount + n > kLocalRefs;
                if (!refsGlobal) {
                    first = local.refCount;
                    local.refCount += n;
                    decision = 2;
                } else if (allocate(&a.counters[kPrimRefs], n, a.primCapacity, first)) {
                    local.absolute[w.node >> 5] |= 1u << (w.node & 31);
                    decision = 2;
                } else {
                    atomicOr(&a.counters[kFlags], kFlagPrim);
                }
                if (decision == 2) {
                    setLocal(local, w.node, KdNode::leaf(first, n));
                    base = first;
                }
            }
        }
        __syncthreads();
        if (decision == 2) {  // block-uniform: every thread meets the scan's barriers
            // Leaf entries: position of each set bit among the set bits below it.
            const bool in = t < int(root.count) && ((w.mask >> t) & 1ull);  // root.count <= 64
            uint32_t pos = 0;
            if (a.popc) {  // [E]: popc of the mask below the lane
                if (t < 64) pos = uint32_t(__popcll(w.mask & ((1ull << t) - 1ull)));
            } else {       // Original: shared-memory scan of the flags (Hillis-Steele over 64)
                if (t < 64) scan[t] = in;
                for (int d = 1; d < 64; d <<= 1) {
                    __syncthreads();
                    const uint32_t v = t < 64 && t >= d ? scan[t - d] : 0u;
                    __syncthreads();
                    if (t < 64) scan[t] += v;
                }
                __syncthreads();
                if (t < 64) pos = scan[t] - in;
            }
            if (in) {
                const uint32_t tri = a.tri[root.offset + t];
                if (refsGlobal) a.primIndex[base + pos] = tri;
                else local.ref[base + pos] = tri;
            }
        }
        __syncthreads();
        // Every thread reads sp before thread 0 pops the next node: without
        // this barrier a fast warp could pop and a slow one then see sp == 0
        // and leave the loop early. (The Original leaf scan once used a named
        // barrier over 64 threads; compute-sanitizer's racecheck could not
        // follow it and reported a race on `cur`: every thread now meets the
        // same __syncthreads.)
        const bool done = sp == 0;
        __syncthreads();
        if (done) break;
    }
    // Write the subtree out: one allocation of nodes and one of entries.
    if (t == 0) {
        decision = 1;
        nodeBase = refBase = 0;
        if (local.nodeCount && !allocate(&a.counters[kNodes], local.nodeCount, a.nodeBudget, nodeBase)) {
            atomicOr(&a.counters[kFlags], kFlagNodes);
            decision = 0;
        } else if (local.refCount && !allocate(&a.counters[kPrimRefs], local.refCount, a.primCapacity, refBase)) {
            atomicOr(&a.counters[kFlags], kFlagPrim);  // the host reports the tree incomplete
            decision = 0;
        }
    }
    __syncthreads();
    if (!decision) {  // no room for the subtree: the root becomes one leaf with every reference
        writeRootLeaf(a, root, decision, base);
        return;
    }
    for (uint32_t i = t; i < local.nodeCount; i += blockDim.x) a.nodes[nodeBase + i] = globalNode(local, i, nodeBase, refBase);
    for (uint32_t i = t; i < local.refCount; i += blockDim.x) a.primIndex[refBase + i] = local.ref[i];
    if (t == 0) a.nodes[root.node] = globalNode(local, kRootSlot, nodeBase, refBase);
}

}  // namespace

uint32_t launchSmallStage(const SmallStageArgs& a, cudaStream_t stream) {
    if (a.numRoots == 0) return 0;
    snsCandidates<<<a.numRoots, kSmallBlock, 0, stream>>>(a);
    STRATA_LAUNCH_CHECK("kd/small/candidates");
    snsSplitToLeaves<<<a.numRoots, kSmallBlock, 0, stream>>>(a);
    STRATA_LAUNCH_CHECK("kd/small/split_to_leaves");
    return 2;
}

}  // namespace strata::kdgpu
