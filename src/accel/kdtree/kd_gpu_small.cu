// accel/kdtree/kd_gpu_small.cu — Zhou08 small-node stage: per small root the
// split candidates with their triangle masks, then exact-SAH splitting to the
// leaves, in one of two schedules:
//   zhou     (Zhou08, the chapter's Original and All) level by level: one
//            launch per level over every small node of the level, one block
//            per node, and a host round trip for the next level's size;
//   subtree  (strata's, accel.kd_small) one launch: a block per small root
//            builds its whole subtree in shared memory.
// Both take the same decisions (bestSmallSplit) and write the same leaves
// (leafSlot). Original vs [E]: bit counts (SWAR vs __popcll) and the leaf
// scans (shared memory vs popc). strata's accel.kd_clip_leaves keeps in a
// leaf only the triangles that cross its cell (bestSmallSplit).
#include "accel/kdtree/kd_clip.h"
#include "accel/kdtree/kd_gpu_internal.cuh"
#include "gpu/launch.cuh"

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

// The 64-bit mask of `bit` over the block's threads (two warps). Every
// thread calls it (barriers).
static_assert(kSmallBlock == 64, "the small-node stage's masks are one bit per thread of a block");
__device__ unsigned long long blockBallot64(bool bit, uint32_t* words) {
    const uint32_t b = __ballot_sync(0xffffffffu, bit);
    if ((threadIdx.x & 31) == 0) words[threadIdx.x >> 5] = b;
    __syncthreads();
    const unsigned long long m = words[0] | (unsigned long long)words[1] << 32;
    __syncthreads();
    return m;
}

// bestSmallSplit's shared memory.
struct SplitSmem {
    ArgminSmem am;
    uint8_t nodeTri[64];
    uint32_t words[2];
};

// Thread t's triangle of the small root reaches `cell` (triangleInCell);
// false where t holds no triangle of `mask`.
__device__ bool rootTriangleInCell(const SmallStageArgs& a, const SmallRoot& root, unsigned long long mask,
                                   const Aabb& cell) {
    const int t = threadIdx.x;
    if (t >= int(root.count) || !((mask >> t) & 1ull)) return false;
    const Tri tr = a.tris[a.tri[root.offset + t]];
    return triangleInCell(a.pos[tr.v[0]], a.pos[tr.v[1]], a.pos[tr.v[2]], cell);
}

// The best split of the small node w among its root's candidates (Zhou08's
// exact SAH): candidate = -1 when no split beats the leaf. plane and masks
// are the root's candidates (shared memory in the subtree kernel, global
// memory in Zhou08's level kernel). Every thread of the block calls it and
// gets the result. With strata's clipped leaves (ClipLeaves,
// accel.kd_clip_leaves) a leaf the SAH chooses keeps only the triangles
// that cross its cell.
struct SplitChoice {
    unsigned long long mask;         // the node's triangles (a clipped leaf's: those in its cell)
    unsigned long long left, right;  // the children's, when candidate >= 0
    uint32_t n;                      // triangles in mask
    float cost;
    int candidate;
};
template <bool ClipLeaves>
__device__ SplitChoice bestSmallSplit(const SmallStageArgs& a, const Work& w, const SmallRoot& root, const float* plane,
                                      const ulonglong2* masks, SplitSmem& sm) {
    const int t = threadIdx.x;
    const uint32_t rootCount = root.count;
    const unsigned long long mask = w.mask;
    uint8_t* nodeTri = sm.nodeTri;
    const uint32_t n = bitCount(mask, a.popc);
    const float maxExt = maxComponent(w.cell.extent());
    const float inv = maxExt > 0.0f ? 1.0f / maxExt : 0.0f;
    const float area = kdScaledArea(w.cell, inv);
    // strata's (accel.kd_sns_compact, not in Table 13.1): the node's
    // triangles as a compact list (the popc of the mask below each bit), so
    // the loop visits their 6n candidates only, not all 6 * rootCount of the
    // root; Zhou08 tests each one's mask bit.
    const bool compact = a.cfg.snsCompact;
    if (compact) {
        if (t < 64 && t < int(rootCount) && ((mask >> t) & 1ull))
            nodeTri[__popcll(mask & ((1ull << t) - 1ull))] = uint8_t(t);
        __syncthreads();
    }
    float best = a.cfg.intersectionCost * float(n);
    int bestC = -1;
    if (n > 0 && area > 0.0f) {
        const int end = int(6 * (compact ? n : rootCount));
        for (int k = t; k < end; k += kSmallBlock) {
            int c = k;  // the candidate: 6 * triangle + kind, as the root numbers them
            if (compact)
                c = 6 * nodeTri[k / 6] + k % 6;
            else if (!((mask >> (c / 6)) & 1ull))
                continue;
            const int ax = (c % 6) / 2;
            const float p = plane[c];
            if (!(p > w.cell.lo[ax] && p < w.cell.hi[ax])) continue;
            const ulonglong2 m = masks[c];
            const uint32_t nl = bitCount(mask & m.x, a.popc), nr = bitCount(mask & m.y, a.popc);
            const float cost = kdSplitCost(a.cfg, area, kdScaledArea(kdChildCell(w.cell, ax, p, false), inv),
                                           kdScaledArea(kdChildCell(w.cell, ax, p, true), inv), nl, nr);
            if (cost < best) best = cost, bestC = c;
        }
    }
    blockArgmin(sm.am, best, bestC, compact);  // strata's: warp shuffles with accel.kd_sns_compact
    SplitChoice choice{mask, 0ull, 0ull, n, best, bestC};
    if (bestC >= 0) {
        const ulonglong2 m = masks[bestC];
        choice.left = mask & m.x;
        choice.right = mask & m.y;
    } else if constexpr (ClipLeaves) {  // block-uniform, as bestC is: the triangles that cross the leaf's cell
        choice.mask = blockBallot64(rootTriangleInCell(a, root, mask, w.cell), sm.words);
        choice.n = bitCount(choice.mask, a.popc);
    }
    return choice;
}

// A leaf's entries: for thread t < rootCount whose triangle is in the mask,
// its position among the mask's set bits below it ([E]: popc; Original: a
// shared-memory Hillis-Steele scan of the flags over 64 threads). Every
// thread of the block calls it (the scan's barriers); `scan` holds 64.
__device__ uint32_t leafSlot(unsigned long long mask, uint32_t rootCount, bool popc, uint32_t* scan, bool& in) {
    const int t = threadIdx.x;
    in = t < int(rootCount) && ((mask >> t) & 1ull);  // rootCount <= 64
    uint32_t pos = 0;
    if (popc) {
        if (t < 64) pos = uint32_t(__popcll(mask & ((1ull << t) - 1ull)));
        return pos;
    }
    if (t < 64) scan[t] = in;
    for (int d = 1; d < 64; d <<= 1) {
        __syncthreads();
        const uint32_t v = t < 64 && t >= d ? scan[t - d] : 0u;
        __syncthreads();
        if (t < 64) scan[t] += v;
    }
    __syncthreads();
    if (t < 64) pos = scan[t] - in;
    __syncthreads();  // scan is free for the caller's next use
    return pos;
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
    if (!n.isLeaf())
        n.b += nodeBase << 2;  // child index field
    else if (!((l.absolute[slot >> 5] >> (slot & 31)) & 1u))
        n.a += refBase;
    return n;
}

// The small root as one leaf with all its references (more than 64 of them,
// or no room for its subtree). ok and base are the block's shared variables.
__device__ void writeRootLeaf(const SmallStageArgs& a, const SmallRoot& root, int& ok, uint32_t& base) {
    if (threadIdx.x == 0) {
        ok = allocate(&a.counters[kPrimRefs], root.count, a.primCapacity, base);
        if (ok)
            a.nodes[root.node] = KdNode::leaf(base, root.count);
        else
            atomicOr(&a.counters[kFlags], kFlagPrim);
    }
    __syncthreads();
    if (ok)
        for (uint32_t i = threadIdx.x; i < root.count; i += blockDim.x) a.primIndex[base + i] = a.tri[root.offset + i];
}

// Zhou08 small-node stage, split small nodes by SAH until leaves (bit counting: Table 13.1 [E])
template <bool ClipLeaves>
__global__ void snsSplitToLeaves(SmallStageArgs a) {
    const SmallRoot root = a.roots[blockIdx.x];
    const int t = threadIdx.x;
    __shared__ __align__(16) unsigned char stackRaw[kStack * sizeof(Work)], curRaw[sizeof(Work)];
    Work* stack = reinterpret_cast<Work*>(stackRaw);
    Work& cur = *reinterpret_cast<Work*>(curRaw);
    __shared__ int sp, decision, refsGlobal;
    __shared__ uint32_t base, nodeBase, refBase;
    __shared__ SplitSmem sm;
    __shared__ uint32_t scan[64];
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
        const SplitChoice choice = bestSmallSplit<ClipLeaves>(a, w, root, plane, masks, sm);
        const uint32_t n = choice.n;
        const int bestC = choice.candidate;
        if (t == 0) {
            decision = 0;  // 0: leaf, 1: split
            if (bestC >= 0) {
                if (int(w.depth) >= a.cfg.maxDepth)
                    atomicOr(&a.counters[kFlags], kFlagDepth);
                else if (sp + 2 > kStack)
                    atomicOr(&a.counters[kFlags], kFlagStack);
                else if (local.nodeCount + 2 > kLocalNodes)
                    atomicOr(&a.counters[kFlags], kFlagLocal);
                else {
                    const uint32_t first = local.nodeCount;
                    local.nodeCount += 2;
                    const int ax = (bestC % 6) / 2;
                    const float p = plane[bestC];
                    setLocal(local, w.node, KdNode::inner(ax, p, first));
                    stack[sp++] = {first + 1, w.depth + 1, choice.right, kdChildCell(w.cell, ax, p, true)};
                    stack[sp++] = {first, w.depth + 1, choice.left, kdChildCell(w.cell, ax, p, false)};
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
            bool in;
            const uint32_t pos = leafSlot(choice.mask, root.count, a.popc, scan, in);
            if (in) {
                const uint32_t tri = a.tri[root.offset + t];
                if (refsGlobal)
                    a.primIndex[base + pos] = tri;
                else
                    local.ref[base + pos] = tri;
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
    for (uint32_t i = t; i < local.nodeCount; i += blockDim.x)
        a.nodes[nodeBase + i] = globalNode(local, i, nodeBase, refBase);
    for (uint32_t i = t; i < local.refCount; i += blockDim.x) a.primIndex[refBase + i] = local.ref[i];
    if (t == 0) a.nodes[root.node] = globalNode(local, kRootSlot, nodeBase, refBase);
}

// Zhou08's small-node stage: a list of the level's small nodes.
struct SmallNode {
    uint32_t node, root, depth, pad;  // output node, its small root (index into roots), depth
    unsigned long long mask;          // its triangles among the root's
    Aabb cell;
};

// Zhou08 small-node stage, initial list: the small roots (a root of more than
// 64 triangles, or one the large-node stage could not split, is one leaf now).
__global__ void snsInitList(SmallStageArgs a, SmallNode* list) {
    const SmallRoot root = a.roots[blockIdx.x];
    __shared__ int ok;
    __shared__ uint32_t base;
    if (root.forceLeaf || root.count > 64) {
        writeRootLeaf(a, root, ok, base);
        return;
    }
    if (threadIdx.x != 0) return;
    const uint32_t slot = atomicAdd(&a.counters[kSmallList0], 1u);
    SmallNode sn;
    sn.node = root.node, sn.root = blockIdx.x, sn.depth = root.depth, sn.pad = 0;
    sn.mask = root.count == 64 ? ~0ull : ((1ull << root.count) - 1);
    sn.cell = root.cell;
    list[slot] = sn;
}

// Zhou08 small-node stage, one level: each node of the list (a block each)
// finds its best split over its root's candidates and is split, its children
// going to the next level's list, or made a leaf. The host sized `next` for
// two children per node; this level's kernel also clears the counter the
// level after it appends to (the one this level's list was counted in).
template <bool ClipLeaves>
__global__ void snsSplitLevel(SmallStageArgs a, const SmallNode* list, SmallNode* next, uint32_t level) {
    const SmallNode sn = list[blockIdx.x];
    const SmallRoot root = a.roots[sn.root];
    const int t = threadIdx.x;
    __shared__ SplitSmem sm;
    __shared__ uint32_t scan[64];
    __shared__ int decision;
    __shared__ uint32_t base;
    uint32_t* nextCount = &a.counters[kSmallList0 + ((level + 1) & 1)];
    if (blockIdx.x == 0 && t == 0) a.counters[kSmallList0 + ((level + 2) & 1)] = 0;  // read by the host already
    // The root's candidates, from global memory (the chapter: 4-byte planes
    // from global memory, 16-byte masks through the texture path).
    const float* plane = a.candPlane + size_t(sn.root) * kCand;
    const ulonglong2* masks = a.candMask + size_t(sn.root) * kCand;
    const Work w{sn.node, sn.depth, sn.mask, sn.cell};
    const SplitChoice choice = bestSmallSplit<ClipLeaves>(a, w, root, plane, masks, sm);
    if (t == 0) {
        decision = 0;  // 0: leaf, 1: split, 2: leaf with room for its entries
        const int c = choice.candidate;
        uint32_t first;
        if (c >= 0) {
            if (int(w.depth) >= a.cfg.maxDepth)
                atomicOr(&a.counters[kFlags], kFlagDepth);
            else if (!allocate(&a.counters[kNodes], 2, a.nodeBudget, first))
                atomicOr(&a.counters[kFlags], kFlagNodes);
            else {
                const int ax = (c % 6) / 2;
                const float p = __ldg(&plane[c]);
                a.nodes[w.node] = KdNode::inner(ax, p, first);
                const uint32_t s = atomicAdd(nextCount, 2u);
                next[s] = {first, sn.root, w.depth + 1, 0u, choice.left, kdChildCell(w.cell, ax, p, false)};
                next[s + 1] = {first + 1, sn.root, w.depth + 1, 0u, choice.right, kdChildCell(w.cell, ax, p, true)};
                decision = 1;
            }
        }
        if (!decision) {
            if (allocate(&a.counters[kPrimRefs], choice.n, a.primCapacity, first)) {
                a.nodes[w.node] = KdNode::leaf(first, choice.n);
                base = first;
                decision = 2;
            } else {
                a.nodes[w.node] = KdNode::leaf(0, 0);  // the host builds again with a larger primIndex
                atomicOr(&a.counters[kFlags], kFlagPrim);
            }
        }
    }
    __syncthreads();
    if (decision != 2) return;  // block-uniform
    bool in;
    const uint32_t pos = leafSlot(choice.mask, root.count, a.popc, scan, in);
    if (in) a.primIndex[base + pos] = a.tri[root.offset + t];
}

// The small-node stage, with leaves clipped or not (accel.kd_clip_leaves).
template <bool ClipLeaves>
SmallStageResult smallStage(const SmallStageArgs& a, DeviceBuffer<unsigned char> (&lists)[2],
                            PinnedBuffer<uint32_t>& hostCount, const LaunchContext& ctx) {
    SmallStageResult r;
    const LaunchShape perRoot{a.numRoots, kSmallBlock};
    launch(ctx, "build/kd_small/candidates", perRoot, snsCandidates, a);
    if (a.cfg.snsSubtree) {  // strata's: every small root's subtree in one launch
        launch(ctx, "build/kd_small/split_to_leaves", perRoot, snsSplitToLeaves<ClipLeaves>, a);
        return r;
    }
    // Zhou08: level by level; the host reads each level's size back.
    hostCount.resize(1);
    lists[0].resize(size_t(a.numRoots) * sizeof(SmallNode));
    launch(ctx, "build/kd_small/init_list", perRoot, snsInitList, a, reinterpret_cast<SmallNode*>(lists[0].data()));
    for (uint32_t level = 0;; ++level) {
        if (level > uint32_t(kKdMaxDepth) + 1)  // every level is one deeper, the depth cap makes leaves
            throw Error("kd-tree (gpu): small-node stage past its limit of " + std::to_string(kKdMaxDepth + 1) +
                        " levels");
        STRATA_CUDA_CHECK(cudaMemcpyAsync(hostCount.data(), &a.counters[kSmallList0 + (level & 1)], sizeof(uint32_t),
                                          cudaMemcpyDeviceToHost, ctx.stream));
        STRATA_CUDA_CHECK(cudaStreamSynchronize(ctx.stream));
        const uint32_t n = *hostCount.data();
        if (n == 0) break;
        DeviceBuffer<unsigned char>& cur = lists[level & 1];
        DeviceBuffer<unsigned char>& next = lists[(level + 1) & 1];
        next.resize(2 * size_t(n) * sizeof(SmallNode));
        launch(ctx, "build/kd_small/split_level", {n, kSmallBlock}, snsSplitLevel<ClipLeaves>, a,
               reinterpret_cast<const SmallNode*>(cur.data()), reinterpret_cast<SmallNode*>(next.data()), level);
        ++r.levels;
    }
    return r;
}

}  // namespace

SmallStageResult runSmallStage(const SmallStageArgs& a, DeviceBuffer<unsigned char> (&lists)[2],
                               PinnedBuffer<uint32_t>& hostCount, const LaunchContext& ctx) {
    if (a.numRoots == 0) return {};
    return a.cfg.clipLeaves ? smallStage<true>(a, lists, hostCount, ctx) : smallStage<false>(a, lists, hostCount, ctx);
}

}  // namespace strata::kdgpu
