// accel/kdtree/kd_gpu.cu — the GPU kd-tree builder: triangle bounds, the
// Zhou08 large-node stage (this file) and the small-node stage
// (kd_gpu_small.cu). Kernel names follow the chapter's steps.
#include "accel/kdtree/kd_gpu.h"

#include <algorithm>

#include "accel/kdtree/kd_clip.h"
#include "accel/kdtree/kd_gpu_internal.cuh"
#include "gpu/block_scan.cuh"
#include "gpu/device.h"
#include "gpu/launch.cuh"
#include "gpu/ordered_float.cuh"
#include "gpu/stage_timer.h"

namespace strata {

namespace kdgpu {
namespace {

// Per-level scratch, one slot per active node (indices into nodeU32_ / nodeF32_).
// The level's sizes (active nodes, chunks, new small roots) live in counters
// on the device, so the host enqueues levels without reading them back; each
// kernel loops over what the level has with a fixed grid.
struct LevelArgs {
    const ActiveNode* active;
    ActiveNode* nextActive;
    uint32_t activeCapacity;
    SmallRoot* small;
    uint32_t smallCapacity;
    const uint32_t* curTri;
    Aabb* curBox;  // Original's counting pass stores each split reference's left box here
    uint32_t* nextTri;
    Aabb* nextBox;
    uint32_t refCapacity;
    const Vec3* pos;
    const Tri* tris;
    KdNode* nodes;
    uint32_t nodeBudget;
    uint32_t* counters;
    // per reference of the current list (Original: stored between its kernels)
    uint32_t* refFlags;  // bit 0: left, bit 1: right, bits 8-15 and 16-23: offsets within the chunk
    Aabb* rightBox;      // the right child's (clipped) box
    // per active node (nodeStride entries per array)
    uint32_t nodeStride;
    uint32_t* chunkFirst;  // first chunk of the node; [active nodes]: the number of chunks
    uint32_t* boxEnc;      // 6 per node: [C] encoded atomic min/max
    float* box;            // node AABB, component-major: box[k * nodeStride + node], k = lo xyz, hi xyz
    int* splitAxis;        // -1: leaf now
    float* splitPos;
    Aabb* cutCell;         // cell after empty-space cutting
    uint32_t* childNode;   // the node split (after empty-space cutting), or the small root
    uint32_t* childCount;  // 2 per node
    uint32_t* leftBase;
    uint32_t* rightBase;
    uint32_t* childDepth;
    uint32_t* bins;  // strata's binned SAH: bins[b * nodeStride + node], b < 6 * kKdBins (starts on x y z,
                     // then ends); zero at each level's start (the build clears them, lnsBinnedSplits
                     // after use)
    int* sahAxis;    // lnsBinnedSplits' choice per node (-1: no boundary inside the cell)
    float* sahPlane;
    // per chunk
    uint32_t* chunkNode;
    uint32_t* chunkL;  // Original: per-chunk counts (the chapter's array [A])
    uint32_t* chunkR;
    uint32_t* scanL;  // Original: their inclusive segmented scans (array [B])
    uint32_t* scanR;
    float* chunkComp;  // Original: chunk AABBs, component-major: chunkComp[k * chunkStride + chunk]
    uint32_t chunkStride;
    KdConfig cfg;
    bool ballot, shflReduce, atomicBoxes;
};

// Triangle bounds and the scene box; triangles with non-finite vertices are left out.
__global__ void kdTriangleBounds(const Vec3* pos, const Tri* tris, uint32_t n, uint32_t* outTri, Aabb* outBox,
                                 uint32_t* counters, uint32_t* sceneEnc) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Aabb b;
    for (int k = 0; k < 3; ++k) b.grow(pos[tris[i].v[k]]);
    if (!isFinite(b.lo) || !isFinite(b.hi)) return;
    const uint32_t slot = atomicAdd(&counters[kNextRefs], 1u);
    outTri[slot] = i;
    outBox[slot] = b;
    for (int k = 0; k < 3; ++k) {
        atomicMin(&sceneEnc[k], encodeOrderedFloat(b.lo[k]));
        atomicMax(&sceneEnc[3 + k], encodeOrderedFloat(b.hi[k]));
    }
}

__global__ void kdInitRoot(ActiveNode* active, uint32_t* counters, const uint32_t* sceneEnc, Aabb* bounds) {
    Aabb cell;
    for (int k = 0; k < 3; ++k) {
        cell.lo[k] = decodeOrderedFloat(sceneEnc[k]);
        cell.hi[k] = decodeOrderedFloat(sceneEnc[3 + k]);
    }
    ActiveNode r;
    r.node = 0;
    r.offset = 0;
    r.count = counters[kNextRefs];
    r.depth = 0;
    r.cell = cell;
    r.stalls = 0;
    active[0] = r;
    *bounds = cell;
    counters[kNodes] = 1;  // the root
    counters[kValidRefs] = r.count;
    counters[kNextActive] = r.count > 0 ? 1u : 0u;  // level 0's active nodes
    counters[kNextChunks] = (r.count + kBlock - 1) / kBlock;
}

// Grid-stride loop over [first, end) by blocks, or by threads.
#define FOR_EACH_BLOCK(i, first, end) for (uint32_t i = (first) + blockIdx.x; i < (end); i += gridDim.x)
#define FOR_EACH_THREAD(i, end) \
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < (end); i += gridDim.x * blockDim.x)

// Zhou08 large-node stage, step 1: group triangles into chunks of 256 per node
// (one block; it also begins the level: the previous level's next-active
// count becomes this level's, and the per-level counters restart)
__global__ void lnsGroupChunks(LevelArgs a) {
    __shared__ uint32_t tile[1024];
    __shared__ uint32_t carry, numActive;
    if (threadIdx.x == 0) {
        carry = 0;
        numActive = min(a.counters[kNextActive], a.activeCapacity);
        a.counters[kActive] = numActive;
        a.counters[kNextActive] = 0;
        a.counters[kNextRefs] = 0;
        a.counters[kNextChunks] = 0;
        a.counters[kFirstSmall] = a.counters[kSmall];
    }
    __syncthreads();
    for (uint32_t start = 0; start < numActive; start += blockDim.x) {
        const uint32_t i = start + threadIdx.x;
        const uint32_t chunks = i < numActive ? (a.active[i].count + kBlock - 1) / kBlock : 0u;
        tile[threadIdx.x] = chunks;
        __syncthreads();
        blockInclusiveScan(tile, blockDim.x);
        const uint32_t first = carry + tile[threadIdx.x] - chunks;
        if (i < numActive) {
            a.chunkFirst[i] = first;
            for (uint32_t c = 0; c < chunks; ++c) a.chunkNode[first + c] = i;
            for (int k = 0; k < 3; ++k) {
                a.boxEnc[6 * i + k] = 0xffffffffu;
                a.boxEnc[6 * i + 3 + k] = 0u;
            }
            a.childCount[2 * i] = a.childCount[2 * i + 1] = 0;
        }
        __syncthreads();
        if (threadIdx.x == blockDim.x - 1) carry += tile[threadIdx.x];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        a.counters[kNumChunks] = carry;
        a.chunkFirst[numActive] = carry;  // the end of the last node's chunks (segmented reductions)
    }
}

// The chunk's node and this thread's reference in it.
__device__ void chunkRange(const LevelArgs& a, uint32_t chunk, uint32_t& node, uint32_t& ref, bool& valid) {
    node = a.chunkNode[chunk];
    const ActiveNode& n = a.active[node];
    const uint32_t local = (chunk - a.chunkFirst[node]) * kBlock + threadIdx.x;
    valid = local < n.count;
    ref = n.offset + local;
}

// Zhou08 large-node stage, step 2: per-chunk AABB, then per-node AABB (Table 13.1 [C], [D])
__global__ void lnsChunkBounds(LevelArgs a) {
    __shared__ ReduceSmem s;
    FOR_EACH_BLOCK(chunk, 0u, a.counters[kNumChunks]) {
        uint32_t node, ref;
        bool valid;
        chunkRange(a, chunk, node, ref, valid);
        float lo[3] = {3.0e38f, 3.0e38f, 3.0e38f}, hi[3] = {-3.0e38f, -3.0e38f, -3.0e38f};
        if (valid) {
            const Aabb b = a.curBox[ref];
            for (int k = 0; k < 3; ++k) lo[k] = b.lo[k], hi[k] = b.hi[k];
        }
        blockReduceBox(s, lo, hi, a.shflReduce);  // ends with a barrier: s is free again
        if (threadIdx.x != 0) continue;
        if (a.atomicBoxes) {  // [C]: six atomic min/max per block into the node's box
            for (int k = 0; k < 3; ++k) {
                atomicMin(&a.boxEnc[6 * node + k], encodeOrderedFloat(lo[k]));
                atomicMax(&a.boxEnc[6 * node + 3 + k], encodeOrderedFloat(hi[k]));
            }
        } else {
            for (int k = 0; k < 3; ++k) {
                a.chunkComp[k * a.chunkStride + chunk] = lo[k];
                a.chunkComp[(3 + k) * a.chunkStride + chunk] = hi[k];
            }
        }
    }
}

// Zhou08 large-node stage, step 2 (Original, strata's device-sized version
// with accel.kd_lookahead; CUB's otherwise): one segmented reduction of one
// box component over the chunks
__global__ void lnsSegmentedReduce(LevelArgs a, int component) {
    __shared__ ReduceSmem s;
    const bool isMax = component >= 3;
    const float* in = a.chunkComp + component * a.chunkStride;
    FOR_EACH_BLOCK(node, 0u, a.counters[kActive]) {
        const uint32_t first = a.chunkFirst[node], end = a.chunkFirst[node + 1];
        float lo[3] = {3.0e38f, 3.0e38f, 3.0e38f}, hi[3] = {-3.0e38f, -3.0e38f, -3.0e38f};
        for (uint32_t c = first + threadIdx.x; c < end; c += blockDim.x) {
            if (isMax)
                hi[0] = fmaxf(hi[0], in[c]);
            else
                lo[0] = fminf(lo[0], in[c]);
        }
        blockReduceBox(s, lo, hi, a.shflReduce);
        if (threadIdx.x == 0) a.box[component * a.nodeStride + node] = isMax ? hi[0] : lo[0];
    }
}

// The node's triangle box (after its segmented reductions or [C]'s atomics).
__device__ Aabb nodeBox(const LevelArgs& a, uint32_t i) {
    Aabb tight;
    for (int k = 0; k < 3; ++k) {
        tight.lo[k] = a.atomicBoxes ? decodeOrderedFloat(a.boxEnc[6 * i + k]) : a.box[k * a.nodeStride + i];
        tight.hi[k] = a.atomicBoxes ? decodeOrderedFloat(a.boxEnc[6 * i + 3 + k]) : a.box[(3 + k) * a.nodeStride + i];
    }
    return tight;
}

// strata's binned SAH (accel.kd_large_split = sah): each chunk bins its
// triangles' clipped boxes over its node's triangle box in shared memory,
// then adds its counts to the node's (kdBinnedSplit decides in splitNode).
__global__ void lnsBinCounts(LevelArgs a) {
    __shared__ uint32_t hist[6 * kKdBins];
    FOR_EACH_BLOCK(chunk, 0u, a.counters[kNumChunks]) {
        for (int b = threadIdx.x; b < 6 * kKdBins; b += blockDim.x) hist[b] = 0;
        __syncthreads();
        uint32_t node, ref;
        bool valid;
        chunkRange(a, chunk, node, ref, valid);
        // Neighbouring triangles fall in the same bins: the lanes of a warp
        // that share a bin add once for all of them (an atomic per distinct
        // bin and warp, not per triangle).
        const bool counts = valid && a.active[node].count > a.cfg.smallNodeMax;
        const unsigned lanes = __ballot_sync(0xffffffffu, counts);
        if (counts) {
            const Aabb tight = nodeBox(a, node), box = a.curBox[ref];
            for (int k = 0; k < 3; ++k) {
                const float scale = kdBinScale(tight.hi[k] - tight.lo[k]);
                for (int end = 0; end < 2; ++end) {
                    const int b = (3 * end + k) * kKdBins + kdBin(end ? box.hi[k] : box.lo[k], tight.lo[k], scale);
                    const unsigned same = __match_any_sync(lanes, b);
                    if ((threadIdx.x & 31) == __ffs(same) - 1) atomicAdd(&hist[b], uint32_t(__popc(same)));
                }
            }
        }
        __syncthreads();
        for (int b = threadIdx.x; b < 6 * kKdBins; b += blockDim.x)
            if (hist[b]) atomicAdd(&a.bins[size_t(b) * a.nodeStride + node], hist[b]);
        __syncthreads();  // hist is cleared for the block's next chunk
    }
}

// The node's cell after splitNode's empty-space cuts (the same rule and depth
// cap; splitNode also allocates the cut-off leaves).
__device__ Aabb cellAfterCuts(const LevelArgs& a, const ActiveNode& n, const Aabb& tight) {
    Aabb cell = n.cell;
    uint32_t depth = n.depth;
    for (int axis = 0; axis < 3; ++axis)
        for (int side = 0; side < 2; ++side) {
            float plane;
            if (!kdEmptyCut(cell, tight, axis, side, a.cfg.emptySpaceRatio, plane) || int(depth) >= a.cfg.maxDepth)
                continue;
            cell = kdChildCell(cell, axis, plane, side == 0);
            ++depth;
        }
    return cell;
}

// strata's binned SAH, the search: a warp per large node, lane l taking the
// boundary above bin l on each axis (prefix sums of the bin counts by warp
// scans), then the warp's minimum, ties to the lower axis and boundary as
// kdBinnedSplit (the CPU's) takes them. Clears the node's bins.
__global__ void lnsBinnedSplits(LevelArgs a) {
    static_assert(kKdBins == 32, "one lane per bin");
    const uint32_t lane = threadIdx.x & 31, warps = gridDim.x * blockDim.x / 32;
    for (uint32_t i = (blockIdx.x * blockDim.x + threadIdx.x) / 32; i < a.counters[kActive]; i += warps) {
        const ActiveNode n = a.active[i];
        if (n.count <= a.cfg.smallNodeMax) continue;  // warp-uniform
        const Aabb tight = nodeBox(a, i), cell = cellAfterCuts(a, n, tight);
        const float maxExt = maxComponent(cell.extent());
        const float inv = maxExt > 0.0f ? 1.0f / maxExt : 0.0f;
        const float area = kdScaledArea(cell, inv);
        float best = 3.0e38f;
        int key = 3 * kKdBins;  // axis * kKdBins + boundary; none yet
        for (int ax = 0; ax < 3; ++ax) {
            uint32_t* st = &a.bins[size_t(ax * kKdBins + lane) * a.nodeStride + i];
            uint32_t* en = &a.bins[size_t((3 + ax) * kKdBins + lane) * a.nodeStride + i];
            uint32_t nL = *st, ends = *en;
            *st = 0;
            *en = 0;
            for (int d = 1; d < 32; d <<= 1) {  // inclusive scans over the lanes
                const uint32_t l = __shfl_up_sync(0xffffffffu, nL, d), e = __shfl_up_sync(0xffffffffu, ends, d);
                if (int(lane) >= d) nL += l, ends += e;
            }
            float cost;
            if (lane < kKdBins - 1 &&
                kdBinCost(a.cfg, cell, area, inv, tight, ax, int(lane) + 1, nL, n.count - ends, cost) && cost < best)
                best = cost, key = ax * kKdBins + int(lane) + 1;
        }
        for (int d = 16; d >= 1; d >>= 1) {  // (cost, key) minimum, the lower key on ties
            const float oc = __shfl_xor_sync(0xffffffffu, best, d);
            const int ok = __shfl_xor_sync(0xffffffffu, key, d);
            if (oc < best || (oc == best && ok < key)) best = oc, key = ok;
        }
        if (lane == 0) {
            const int ax = key / kKdBins;
            a.sahAxis[i] = key < 3 * kKdBins ? ax : -1;
            if (key < 3 * kKdBins) a.sahPlane[i] = kdBinPlane(tight.lo[ax], tight.hi[ax] - tight.lo[ax], key % kKdBins);
        }
    }
}

// Zhou08 large-node stage, step 3: empty-space cutting and spatial-median
// split of the longest axis (or strata's binned SAH)
__device__ void splitNode(const LevelArgs& a, uint32_t i) {
    const ActiveNode n = a.active[i];
    if (n.count <= a.cfg.smallNodeMax) {  // a small root node: straight to the small-node stage
        a.splitAxis[i] = -2;
        a.childNode[i] = n.node;
        a.cutCell[i] = n.cell;
        return;
    }
    const Aabb tight = nodeBox(a, i);
    uint32_t node = n.node, depth = n.depth;
    Aabb cell = n.cell;
    a.splitAxis[i] = -1;
    for (int axis = 0; axis < 3; ++axis)
        for (int side = 0; side < 2; ++side) {
            float plane;
            uint32_t c;
            if (!kdEmptyCut(cell, tight, axis, side, a.cfg.emptySpaceRatio, plane)) continue;
            if (int(depth) >= a.cfg.maxDepth) {
                atomicOr(&a.counters[kFlags], kFlagDepth);
                continue;
            }
            if (!allocate(&a.counters[kNodes], 2, a.nodeBudget, c)) {
                atomicOr(&a.counters[kFlags], kFlagNodes);
                continue;
            }
            a.nodes[node] = KdNode::inner(axis, plane, c);
            a.nodes[side == 0 ? c : c + 1] = KdNode::leaf(0, 0);
            node = side == 0 ? c + 1 : c;
            cell = kdChildCell(cell, axis, plane, side == 0);
            ++depth;
        }
    a.cutCell[i] = cell;
    a.childNode[i] = node;  // the node that continues after the cuts
    const Vec3 e = tight.extent();
    int axis = tight.longestAxis();
    float split = tight.lo[axis] + 0.5f * e[axis];
    if (a.cfg.largeSah) {  // lnsBinnedSplits' choice
        axis = a.sahAxis[i];
        if (axis < 0) return;
        split = a.sahPlane[i];
    } else if (!(e[axis] > 0.0f)) {
        return;
    }
    if (int(depth) >= a.cfg.maxDepth) {
        atomicOr(&a.counters[kFlags], kFlagDepth);
        return;
    }
    const uint32_t reserve = atomicAdd(&a.counters[kNextRefs], 2 * n.count);
    if (reserve + 2 * n.count > a.refCapacity) {
        atomicOr(&a.counters[kFlags], kFlagRefs);
        return;
    }
    // The children are allocated once their triangles are counted, if
    // kdLargeStep makes the split (nextLevelNode).
    a.splitAxis[i] = axis;
    a.splitPos[i] = split;
    a.leftBase[i] = reserve;             // [A]: 2 * n_i slots per node (Fig. 13.2)
    a.rightBase[i] = reserve + n.count;  // Original overwrites both with compact offsets
    a.childDepth[i] = depth + 1;
}

__global__ void lnsSplitNodes(LevelArgs a) { FOR_EACH_THREAD(i, a.counters[kActive]) splitNode(a, i); }

// Classification of one reference against its node's split, with the clipped
// bounds for each side (a straddling triangle is clipped to each child cell).
__device__ void classifyRef(const LevelArgs& a, uint32_t node, uint32_t ref, bool valid, bool& toL, bool& toR, Aabb& bl,
                            Aabb& br, uint32_t& tri) {
    toL = toR = false;
    if (!valid || a.splitAxis[node] < 0) return;
    const int axis = a.splitAxis[node];
    const float split = a.splitPos[node];
    tri = a.curTri[ref];
    const Aabb b = a.curBox[ref];
    toL = kdGoesLeft(b.lo[axis], b.hi[axis], split);
    toR = kdGoesRight(b.lo[axis], b.hi[axis], split);
    bl = br = b;
    if (toL && toR) {
        const Tri t = a.tris[tri];
        const Vec3 p0 = a.pos[t.v[0]], p1 = a.pos[t.v[1]], p2 = a.pos[t.v[2]];
        const Aabb cell = a.cutCell[node];
        toL = clipTriangleToBox(p0, p1, p2, kdChildCell(cell, axis, split, false), bl);
        toR = clipTriangleToBox(p0, p1, p2, kdChildCell(cell, axis, split, true), br);
    }
}

// Zhou08 large-node stage, step 4: classify each chunk's triangles against
// their node's plane, with per-block scans of the two flags (Table 13.1 [A],
// [B]).
//   Original (atomic = false): the chapter's first kernel (Fig. 13.1): stores
//     each reference's flags and offsets within its chunk, its clipped boxes,
//     and the chunk's two counts (array [A]) for the segmented scans.
//   [A] (atomic = true): one kernel: two atomic additions per block give the
//     chunk's place in its node's 2 * n_i slots, and it scatters at once.
__global__ void lnsSortTriangles(LevelArgs a, bool atomic) {
    __shared__ ScanSmem s;
    __shared__ uint32_t offL, offR;
    FOR_EACH_BLOCK(chunk, 0u, a.counters[kNumChunks]) {
        uint32_t node, ref, tri = 0;
        bool valid;
        chunkRange(a, chunk, node, ref, valid);
        bool toL, toR;
        Aabb bl, br;
        classifyRef(a, node, ref, valid, toL, toR, bl, br, tri);
        uint32_t exL, exR, totL, totR;
        blockScanFlags2(s, toL, toR, a.ballot, exL, exR, totL, totR);
        if (!atomic) {
            if (threadIdx.x == 0) a.chunkL[chunk] = totL, a.chunkR[chunk] = totR;
            // Every reference of a split node gets its flags (a triangle whose
            // box straddles the plane may clip to neither child: flags 0).
            if (valid && a.splitAxis[node] >= 0)
                a.refFlags[ref] = uint32_t(toL) | uint32_t(toR) << 1 | exL << 8 | exR << 16;
            if (toL) a.curBox[ref] = bl;
            if (toR) a.rightBox[ref] = br;
            continue;  // no shared variable used: the next chunk's scan may begin
        }
        if (threadIdx.x == 0) {
            offL = atomicAdd(&a.childCount[2 * node], totL);
            offR = atomicAdd(&a.childCount[2 * node + 1], totR);
        }
        __syncthreads();
        if (toL) {
            const uint32_t d = a.leftBase[node] + offL + exL;
            a.nextTri[d] = tri;
            a.nextBox[d] = bl;
        }
        if (toR) {
            const uint32_t d = a.rightBase[node] + offR + exR;
            a.nextTri[d] = tri;
            a.nextBox[d] = br;
        }
        __syncthreads();  // offL and offR are reused by the block's next chunk
    }
}

// Zhou08 large-node stage, step 4 (Original, strata's device-sized version
// with accel.kd_lookahead; CUB's otherwise): inclusive segmented scan of the
// per-chunk counts over each node's chunks (array [A] to array [B], Fig. 13.1)
__global__ void lnsSegmentedScan(LevelArgs a, int side) {
    __shared__ ScanSmem s;
    __shared__ uint32_t carry;
    const uint32_t* in = side ? a.chunkR : a.chunkL;
    uint32_t* out = side ? a.scanR : a.scanL;
    FOR_EACH_BLOCK(node, 0u, a.counters[kActive]) {
        if (a.splitAxis[node] < 0) continue;
        const uint32_t first = a.chunkFirst[node], chunks = a.chunkFirst[node + 1] - first;
        if (threadIdx.x == 0) carry = 0;
        __syncthreads();
        for (uint32_t start = 0; start < chunks; start += kBlock) {
            const uint32_t c = start + threadIdx.x;
            s.a[0][threadIdx.x] = c < chunks ? in[first + c] : 0u;
            __syncthreads();
            blockInclusiveScan(s.a[0], kBlock);
            if (c < chunks) out[first + c] = carry + s.a[0][threadIdx.x];
            __syncthreads();
            if (threadIdx.x == kBlock - 1) carry += s.a[0][threadIdx.x];
            __syncthreads();
        }
    }
}

// Zhou08 large-node stage, step 5 (Original): the children's counts (the
// last element of each node's scanned chunks) and their lists' offsets in
// the next list (an exclusive scan over the nodes)
__global__ void lnsNodeOffsets(LevelArgs a) {
    __shared__ uint32_t tile[1024];
    __shared__ uint32_t carry;
    const uint32_t numActive = a.counters[kActive];
    if (threadIdx.x == 0) carry = 0;
    __syncthreads();
    for (uint32_t start = 0; start < numActive; start += blockDim.x) {
        const uint32_t i = start + threadIdx.x;
        const bool split = i < numActive && a.splitAxis[i] >= 0;
        const uint32_t last = split ? a.chunkFirst[i + 1] - 1 : 0u;
        const uint32_t nl = split ? a.scanL[last] : 0u, nr = split ? a.scanR[last] : 0u;
        tile[threadIdx.x] = nl + nr;
        __syncthreads();
        blockInclusiveScan(tile, blockDim.x);
        if (split) {
            a.childCount[2 * i] = nl;
            a.childCount[2 * i + 1] = nr;
            a.leftBase[i] = carry + tile[threadIdx.x] - nl - nr;
            a.rightBase[i] = a.leftBase[i] + nl;
        }
        __syncthreads();
        if (threadIdx.x == blockDim.x - 1) carry += tile[threadIdx.x];
        __syncthreads();
    }
    if (threadIdx.x == 0) a.counters[kNextRefs] = carry;  // compact extent of the next level
}

// Zhou08 large-node stage, step 5 (Original): each flagged reference to its
// place in the next list: node offset + chunk offset (array [B] minus [A]) +
// offset within the chunk, all stored by the kernels before
__global__ void lnsScatter(LevelArgs a) {
    FOR_EACH_BLOCK(chunk, 0u, a.counters[kNumChunks]) {
        uint32_t node, ref;
        bool valid;
        chunkRange(a, chunk, node, ref, valid);
        if (!valid || a.splitAxis[node] < 0) continue;
        const uint32_t f = a.refFlags[ref];
        const uint32_t tri = a.curTri[ref];
        if (f & 1u) {
            const uint32_t d = a.leftBase[node] + a.scanL[chunk] - a.chunkL[chunk] + ((f >> 8) & 0xffu);
            a.nextTri[d] = tri;
            a.nextBox[d] = a.curBox[ref];
        }
        if (f & 2u) {
            const uint32_t d = a.rightBase[node] + a.scanR[chunk] - a.chunkR[chunk] + ((f >> 16) & 0xffu);
            a.nextTri[d] = tri;
            a.nextBox[d] = a.rightBox[ref];
        }
    }
}

__device__ void pushSmall(const LevelArgs& a, uint32_t node, uint32_t offset, uint32_t count, uint32_t depth,
                          const Aabb& cell, bool forceLeaf, bool fromCur) {
    const uint32_t s = atomicAdd(&a.counters[kSmall], 1u);
    if (s >= a.smallCapacity) {
        atomicOr(&a.counters[kFlags], kFlagSmallStore);
        return;
    }
    SmallRoot r;
    r.node = node, r.offset = offset, r.count = count, r.depth = depth, r.cell = cell;
    r.forceLeaf = forceLeaf || count > 64;
    r.fromCur = fromCur;
    a.small[s] = r;
}

// Zhou08 large-node stage, step 6: next level's large nodes; small nodes go to the small-node stage
__device__ void nextLevelNode(const LevelArgs& a, uint32_t i) {
    const ActiveNode n = a.active[i];
    if (a.splitAxis[i] < 0) {  // -2: small root; -1: unsplittable, one leaf with the current list
        pushSmall(a, a.childNode[i], n.offset, n.count, n.depth, a.cutCell[i], a.splitAxis[i] == -1, true);
        return;
    }
    const uint32_t depth = a.childDepth[i];
    const uint32_t nl = a.childCount[2 * i], nr = a.childCount[2 * i + 1];
    const int axis = a.splitAxis[i];
    const float split = a.splitPos[i];
    const KdLargeStep step = kdLargeStep(a.cfg, a.cutCell[i], axis, split, n.count, nl, nr, n.stalls);
    uint32_t c = 0;
    bool made = step.split;
    if (made && !allocate(&a.counters[kNodes], 2, a.nodeBudget, c)) {
        atomicOr(&a.counters[kFlags], kFlagNodes);
        made = false;
    }
    if (!made) {  // one leaf with the node's own list
        pushSmall(a, a.childNode[i], n.offset, n.count, depth - 1, a.cutCell[i], true, true);
        return;
    }
    a.nodes[a.childNode[i]] = KdNode::inner(axis, split, c);
    for (int side = 0; side < 2; ++side) {
        const uint32_t cnt = side ? nr : nl, off = side ? a.rightBase[i] : a.leftBase[i];
        const Aabb cell = kdChildCell(a.cutCell[i], axis, split, side == 1);
        const uint32_t child = c + side;
        if (cnt <= a.cfg.smallNodeMax) {
            pushSmall(a, child, off, cnt, depth, cell, false, false);
        } else {
            const uint32_t s = atomicAdd(&a.counters[kNextActive], 1u);
            if (s >= a.activeCapacity) {  // cannot happen within refCapacity; one leaf rather than a lost list
                atomicOr(&a.counters[kFlags], kFlagRefs);
                pushSmall(a, child, off, cnt, depth, cell, true, false);
                continue;
            }
            atomicAdd(&a.counters[kNextChunks], (cnt + kBlock - 1) / kBlock);
            ActiveNode an;
            an.node = child, an.offset = off, an.count = cnt, an.depth = depth, an.cell = cell, an.stalls = step.stalls;
            a.nextActive[s] = an;
        }
    }
}

__global__ void lnsNextLevel(LevelArgs a) { FOR_EACH_THREAD(i, a.counters[kActive]) nextLevelNode(a, i); }

// Copies the references of the level's new small roots into the small-root store.
__global__ void lnsCollectSmall(LevelArgs a, uint32_t* storeTri, Aabb* storeBox, uint32_t storeCapacity) {
    __shared__ uint32_t base;
    __shared__ int ok;
    FOR_EACH_BLOCK(s, a.counters[kFirstSmall], min(a.counters[kSmall], a.smallCapacity)) {
        SmallRoot& r = a.small[s];
        if (threadIdx.x == 0) {
            ok = allocate(&a.counters[kSmallRefs], r.count, storeCapacity, base);
            if (!ok) atomicOr(&a.counters[kFlags], kFlagSmallStore);
        }
        __syncthreads();
        if (ok) {
            const uint32_t* srcTri = r.fromCur ? a.curTri : a.nextTri;
            const Aabb* srcBox = r.fromCur ? a.curBox : a.nextBox;
            for (uint32_t k = threadIdx.x; k < r.count; k += blockDim.x) {
                storeTri[base + k] = srcTri[r.offset + k];
                storeBox[base + k] = srcBox[r.offset + k];
            }
        }
        __syncthreads();
        if (threadIdx.x == 0 && ok) r.offset = base;
    }
}

#undef FOR_EACH_BLOCK
#undef FOR_EACH_THREAD

}  // namespace
}  // namespace kdgpu

namespace {

uint32_t blocksFor(uint32_t n, uint32_t b) { return (n + b - 1) / b; }

}  // namespace

void KdGpuBuilder::build(const Vec3* pos, const Tri* tris, uint32_t numTris, const KdConfig& config,
                         const LaunchContext& ctx) {
    // The small-root store and primIndex are sized for ordinary scenes; an
    // input that duplicates more references (many triangles sharing one
    // vertex, clipped level after level) is built again with both doubled.
    for (uint32_t growth = 0;; ++growth) {
        const uint32_t overflow = buildPass(pos, tris, numTris, config, ctx, growth);
        if (!overflow) return;
        if (growth == kMaxGrowth)
            throw Error(std::string("kd-tree (gpu): ") +
                        (overflow & kdgpu::kFlagPrim ? "primIndex" : "small-root store") + " overflow over " +
                        std::to_string(numTris) + " triangles, also at " + std::to_string(1u << growth) +
                        "x the usual size; the tree is incomplete");
    }
}

// The counters to the host (a synchronisation).
void KdGpuBuilder::readCounters(cudaStream_t stream) {
    STRATA_CUDA_CHECK(cudaMemcpyAsync(hostCounters_.data(), counters_.data(), kdgpu::kNumCounters * sizeof(uint32_t),
                                      cudaMemcpyDeviceToHost, stream));
    STRATA_CUDA_CHECK(cudaStreamSynchronize(stream));
}

struct KdGpuBuilder::KdPassScratch {
    uint32_t nodeBudget = 0, refCap = 0, activeCap = 0, chunkCap = 0, smallCap = 0, storeCap = 0, primCap = 0;
    kdgpu::LevelArgs args{};
};

// The pass's arrays, sized for numTris at 2^growth times the usual output
// (the builder's, reused from build to build), and the level arguments over them.
KdGpuBuilder::KdPassScratch KdGpuBuilder::allocatePass(const Vec3* pos, const Tri* tris, uint32_t numTris,
                                                       const KdConfig& cfg, uint32_t growth) {
    using namespace kdgpu;
    KdPassScratch z;
    z.nodeBudget = kdNodeBudget(cfg, numTris);
    z.refCap = kdRefBudget(cfg, numTris);
    z.activeCap = z.refCap / 64 + 2;
    z.chunkCap = z.refCap / kBlock + z.activeCap + 1;
    z.smallCap = z.nodeBudget;
    z.storeCap = uint32_t(std::min<uint64_t>((2ull * z.refCap) << growth, kKdMaxField));
    z.primCap = uint32_t(std::min<uint64_t>((32ull * numTris + 4096) << growth, kKdMaxField));
    const uint32_t nodeBudget = z.nodeBudget, refCap = z.refCap, activeCap = z.activeCap, chunkCap = z.chunkCap;
    const uint32_t smallCap = z.smallCap, storeCap = z.storeCap, primCap = z.primCap;
    nodes_.resize(nodeBudget);
    primIndex_.resize(primCap);
    for (int k = 0; k < 2; ++k) {
        refTri_[k].resize(refCap);
        refBox_[k].resize(refCap);
        active_[k].resize(size_t(activeCap) * sizeof(ActiveNode));
    }
    small_.resize(size_t(smallCap) * sizeof(SmallRoot));
    smallTri_.resize(storeCap);
    smallBox_.resize(storeCap);
    const size_t stride = size_t(activeCap) + 1;
    nodeU32_.resize(stride * 16);
    bins_.resize(cfg.largeSah ? stride * 6 * kKdBins : 0);
    nodeF32_.resize(stride * 8);
    cutCell_.resize(activeCap);
    chunkU32_.resize(size_t(chunkCap) * 5);
    chunkF32_.resize(cfg.opts.has(KdOpts::C) ? 0 : size_t(chunkCap) * 6);
    refFlags_.resize(cfg.opts.has(KdOpts::A) ? 0 : refCap);
    rightBox_.resize(cfg.opts.has(KdOpts::A) ? 0 : refCap);
    counters_.resize(kNumCounters + 6);
    bounds_d_.resize(1);
    uint32_t* ctr = counters_.data();
    hostCounters_.resize(kNumCounters);

    LevelArgs& a = z.args;
    a.pos = pos;
    a.tris = tris;
    a.nodes = nodes_.data();
    a.nodeBudget = nodeBudget;
    a.counters = ctr;
    a.small = reinterpret_cast<SmallRoot*>(small_.data());
    a.smallCapacity = smallCap;
    a.refCapacity = refCap;
    uint32_t* nu = nodeU32_.data();
    a.nodeStride = uint32_t(stride);
    a.chunkFirst = nu;
    a.boxEnc = nu + stride;  // 6 per node
    a.splitAxis = reinterpret_cast<int*>(nu + 7 * stride);
    a.childNode = nu + 8 * stride;
    a.childCount = nu + 9 * stride;  // 2 per node
    a.leftBase = nu + 11 * stride;
    a.rightBase = nu + 12 * stride;
    a.childDepth = nu + 13 * stride;
    a.bins = bins_.data();
    a.sahAxis = reinterpret_cast<int*>(nu + 14 * stride);
    a.sahPlane = nodeF32_.data() + 7 * stride;
    a.box = nodeF32_.data();  // 6 per node
    a.splitPos = nodeF32_.data() + 6 * stride;
    a.cutCell = cutCell_.data();
    a.chunkNode = chunkU32_.data();
    a.chunkL = chunkU32_.data() + chunkCap;
    a.chunkR = chunkU32_.data() + 2 * size_t(chunkCap);
    a.scanL = chunkU32_.data() + 3 * size_t(chunkCap);
    a.scanR = chunkU32_.data() + 4 * size_t(chunkCap);
    a.chunkComp = chunkF32_.data();
    a.chunkStride = chunkCap;
    a.refFlags = refFlags_.data();
    a.rightBox = rightBox_.data();
    a.cfg = cfg;
    a.ballot = cfg.opts.has(KdOpts::B);
    a.shflReduce = cfg.opts.has(KdOpts::D);
    a.atomicBoxes = cfg.opts.has(KdOpts::C);

    a.activeCapacity = activeCap;
    return z;
}

// Zhou08's large-node stage (build/kd_large), level by level; returns the
// small roots it handed on, or ~0u when no triangle has finite vertices.
uint32_t KdGpuBuilder::largeNodeStage(KdPassScratch& z, const KdConfig& cfg, const LaunchContext& ctx,
                                      uint32_t numTris) {
    using namespace kdgpu;
    LevelArgs& a = z.args;
    cudaStream_t stream = ctx.stream;
    uint32_t* ctr = counters_.data();
    const uint32_t* host = hostCounters_.data();
    const uint32_t activeCap = z.activeCap, chunkCap = z.chunkCap, smallCap = z.smallCap, storeCap = z.storeCap;
    const size_t stride = a.nodeStride;
    const Vec3* pos = a.pos;
    const Tri* tris = a.tris;
    // Launch grids: fixed, the kernels loop over what the level has (see LevelArgs).
    const uint32_t residentBlocks = uint32_t(currentDeviceSmCount()) * (2048 / kBlock);
    const uint32_t chunkGrid = std::min(chunkCap, residentBlocks), nodeGrid = std::min(activeCap, residentBlocks);
    const uint32_t nodeThreadGrid = std::min(blocksFor(activeCap, kBlock), residentBlocks);
    const uint32_t nodeWarpGrid = std::min(blocksFor(activeCap, kBlock / 32), residentBlocks);

    // Per level, a snapshot of the counters after it; the host reads level
    // L - lookahead's while the GPU runs the levels after it, and stops when
    // one has no next level (the up to lookahead levels enqueued after it
    // find no active node and do nothing). Without lookahead (Zhou08) the
    // host knows each level's sizes before it enqueues it, and the Original's
    // segmented scans and reductions are CUB's, sized by them; with it they
    // are strata's kernels that read the sizes on the device.
    const uint32_t lookahead = std::min(cfg.lookahead, kKdMaxLookahead);  // accel.kd_lookahead
    const bool hostSizes = lookahead == 0;
    // A library call: one of the chapter's kernel calls (CUB's own launches
    // inside it are counted by CUPTI, not here).
    auto library = [&](const char* label, auto&& call) {
        libraryCall(ctx, label, 1, [&](cudaStream_t) {
            call();
            return cudaSuccess;
        });
        ++stats_.libraryCalls;
    };
    const uint32_t maxLevels = 4u * kKdMaxDepth;
    levelCounters_.resize(size_t(maxLevels) * kNumCounters);
    hostBounds_.resize(1);
    uint32_t* snap = levelCounters_.data();
    uint32_t numSmall = 0, enqueued = 0, lastLevel = 0;
    {
        StageScope s(ctx.timer, "build/kd_large");
        // Zhou08 preprocessing: triangle bounds and the scene box (the root cell).
        STRATA_CUDA_CHECK(cudaMemsetAsync(ctr, 0, kNumCounters * sizeof(uint32_t), stream));
        STRATA_CUDA_CHECK(cudaMemsetAsync(ctr + kNumCounters, 0xff, 3 * sizeof(uint32_t), stream));
        STRATA_CUDA_CHECK(cudaMemsetAsync(ctr + kNumCounters + 3, 0, 3 * sizeof(uint32_t), stream));
        if (cfg.largeSah) STRATA_CUDA_CHECK(cudaMemsetAsync(bins_.data(), 0, bins_.bytes(), stream));
        launch(ctx, "build/kd_large/triangle_bounds", perItem(numTris, kBlock), kdTriangleBounds, pos, tris, numTris,
               refTri_[0].data(), refBox_[0].data(), ctr, ctr + kNumCounters);
        launch(ctx, "build/kd_large/init_root", {1, 1}, kdInitRoot, reinterpret_cast<ActiveNode*>(active_[0].data()),
               ctr, ctr + kNumCounters, bounds_d_.data());
        STRATA_CUDA_CHECK(
            cudaMemcpyAsync(hostBounds_.data(), bounds_d_.data(), sizeof(Aabb), cudaMemcpyDeviceToHost, stream));
        uint32_t numActive = 0, numChunks = 0;  // the level's sizes, when the host knows them
        if (hostSizes) {
            readCounters(ctx.stream);
            numActive = std::min(host[kNextActive], activeCap);
            numChunks = host[kNextChunks];
        }
        for (uint32_t level = 0;; ++level) {
            if (level == maxLevels)
                throw Error("kd-tree (gpu): large-node stage past its limit of " + std::to_string(maxLevels) +
                            " levels");
            const int cur = level & 1;
            a.active = reinterpret_cast<const ActiveNode*>(active_[cur].data());
            a.nextActive = reinterpret_cast<ActiveNode*>(active_[cur ^ 1].data());
            a.curTri = refTri_[cur].data();
            a.curBox = refBox_[cur].data();
            a.nextTri = refTri_[cur ^ 1].data();
            a.nextBox = refBox_[cur ^ 1].data();
            launch(ctx, "build/kd_large/group_chunks", {1, 1024}, lnsGroupChunks, a);
            launch(ctx, "build/kd_large/chunk_bounds", {chunkGrid, kBlock}, lnsChunkBounds, a);
            if (!cfg.opts.has(KdOpts::C)) {  // Original: six segmented reductions, one per box component
                for (int k = 0; k < 6; ++k) {
                    if (hostSizes)
                        library("build/kd_large/cub_segmented_reduce", [&] {
                            librarySegmentedReduce(libraryTemp_, a.chunkComp + k * size_t(chunkCap), a.box + k * stride,
                                                   numActive, a.chunkFirst, k >= 3, stream);
                        });
                    else
                        launch(ctx, "build/kd_large/segmented_reduce", {nodeGrid, kBlock}, lnsSegmentedReduce, a, k);
                }
            }
            if (cfg.largeSah) {
                launch(ctx, "build/kd_large/bin_counts", {chunkGrid, kBlock}, lnsBinCounts, a);
                launch(ctx, "build/kd_large/binned_splits", {nodeWarpGrid, kBlock}, lnsBinnedSplits, a);
            }
            launch(ctx, "build/kd_large/split_nodes", {nodeThreadGrid, kBlock}, lnsSplitNodes, a);
            if (cfg.opts.has(KdOpts::A)) {  // [A]: one sorting kernel with two atomics per block
                launch(ctx, "build/kd_large/sort_atomic", {chunkGrid, kBlock}, lnsSortTriangles, a, true);
            } else {  // Original (Fig. 13.1): classify, two segmented scans, node offsets, scatter
                launch(ctx, "build/kd_large/sort_classify", {chunkGrid, kBlock}, lnsSortTriangles, a, false);
                for (int side = 0; side < 2; ++side) {
                    if (hostSizes)
                        library("build/kd_large/cub_segmented_scan", [&] {
                            librarySegmentedInclusiveSum(libraryTemp_, a.chunkNode, side ? a.chunkR : a.chunkL,
                                                         side ? a.scanR : a.scanL, numChunks, stream);
                        });
                    else
                        launch(ctx, "build/kd_large/segmented_scan", {nodeGrid, kBlock}, lnsSegmentedScan, a, side);
                }
                launch(ctx, "build/kd_large/node_offsets", {1, 1024}, lnsNodeOffsets, a);
                launch(ctx, "build/kd_large/sort_scatter", {chunkGrid, kBlock}, lnsScatter, a);
            }
            launch(ctx, "build/kd_large/next_level", {nodeThreadGrid, kBlock}, lnsNextLevel, a);
            launch(ctx, "build/kd_large/collect_small", {nodeGrid, kBlock}, lnsCollectSmall, a, smallTri_.data(),
                   smallBox_.data(), storeCap);
            STRATA_CUDA_CHECK(cudaMemcpyAsync(snap + size_t(level) * kNumCounters, ctr, kNumCounters * sizeof(uint32_t),
                                              cudaMemcpyDeviceToHost, stream));
            levelDone_[level % (lookahead + 1)].record(stream);
            enqueued = level + 1;
            if (level < lookahead) continue;
            const uint32_t known = level - lookahead;
            levelDone_[known % (lookahead + 1)].synchronize();
            const uint32_t* after = snap + size_t(known) * kNumCounters;
            if (after[kNextActive] == 0) {
                lastLevel = known;
                break;
            }
            numActive = std::min(after[kNextActive], activeCap);  // the next level's (hostSizes: known == level)
            numChunks = after[kNextChunks];
        }
        const uint32_t* last = snap + size_t(lastLevel) * kNumCounters;
        if (last[kValidRefs] == 0) {
            stats_.warnings.push_back("kd-tree: no triangle with finite vertices");
            return ~0u;
        }
        numSmall = std::min(last[kSmall], smallCap);
        stats_.largeIterations = lastLevel + 1;
        stats_.idleLevels = enqueued - stats_.largeIterations;
    }
    return numSmall;
}

// Zhou08's small-node stage (build/kd_small) over the small roots, or
// strata's one-launch subtree schedule (accel.kd_small); reads the counters.
void KdGpuBuilder::smallNodeStage(KdPassScratch& z, const KdConfig& cfg, const LaunchContext& ctx, uint32_t numSmall) {
    using namespace kdgpu;
    uint32_t* ctr = counters_.data();
    const uint32_t nodeBudget = z.nodeBudget, primCap = z.primCap;
    {
        StageScope s(ctx.timer, "build/kd_small");
        candPlane_.resize(size_t(numSmall) * 384);
        candMask_.resize(size_t(numSmall) * 384);
        SmallStageArgs sa{reinterpret_cast<const SmallRoot*>(small_.data()),
                          numSmall,
                          z.args.pos,
                          z.args.tris,
                          smallTri_.data(),
                          smallBox_.data(),
                          candPlane_.data(),
                          candMask_.data(),
                          nodes_.data(),
                          nodeBudget,
                          primIndex_.data(),
                          primCap,
                          ctr,
                          cfg,
                          cfg.opts.has(KdOpts::E)};
        const SmallStageResult r = runSmallStage(sa, smallList_, smallCount_, ctx);
        stats_.smallLevels = r.levels;
        readCounters(ctx.stream);
    }
}

uint32_t KdGpuBuilder::buildPass(const Vec3* pos, const Tri* tris, uint32_t numTris, const KdConfig& config,
                                 const LaunchContext& outer, uint32_t growth) {
    using namespace kdgpu;
    stats_ = KdGpuStats{};
    stats_.passes = growth + 1;
    bounds_ = Aabb{};
    KdConfig cfg = config;
    if (cfg.smallNodeMax == 0 || cfg.smallNodeMax > 64) cfg.smallNodeMax = 64;  // 64-bit masks
    if (cfg.maxDepth < 0 || cfg.maxDepth > kKdMaxDepth) cfg.maxDepth = kKdMaxDepth;
    if (numTris == 0) return 0;
    // Every kernel launch of the build is counted in stats_.launches too.
    const LaunchContext ctx = outer.withTally(&stats_.launches);
    KdPassScratch z = allocatePass(pos, tris, numTris, cfg, growth);
    const uint32_t numSmall = largeNodeStage(z, cfg, ctx, numTris);
    if (numSmall == ~0u) return 0;  // no triangle with finite vertices: an empty tree
    smallNodeStage(z, cfg, ctx, numSmall);
    const uint32_t* host = hostCounters_.data();
    const uint32_t nodeBudget = z.nodeBudget;
    bounds_ = *hostBounds_.data();
    stats_.smallRoots = numSmall;
    stats_.nodes = host[kNodes];
    stats_.refs = host[kPrimRefs];
    const uint32_t flags = host[kFlags];
    if (flags & kFlagDepth)
        stats_.warnings.push_back("kd-tree: depth cap " + std::to_string(cfg.maxDepth) +
                                  " reached; deeper nodes are leaves");
    if (flags & kFlagNodes)
        stats_.warnings.push_back("kd-tree: node cap " + std::to_string(nodeBudget) +
                                  " reached; remaining nodes are leaves");
    if (flags & kFlagRefs)
        stats_.warnings.push_back("kd-tree: reference cap reached; remaining large nodes are leaves");
    if (flags & kFlagStack) stats_.warnings.push_back("kd-tree: small-node stack full; nodes made leaves");
    if (flags & kFlagLocal)
        stats_.warnings.push_back("kd-tree: a small node's subtree outgrew the shared-memory store; nodes made leaves");
    return flags & (kFlagSmallStore | kFlagPrim);
}

KdView KdGpuBuilder::view() const {
    return KdView{nodes_.data(), primIndex_.data(), stats_.nodes, stats_.refs, bounds_};
}

void KdGpuBuilder::download(std::vector<KdNode>& nodes, std::vector<uint32_t>& primIndex) const {
    nodes.resize(stats_.nodes);
    primIndex.resize(stats_.refs);
    if (stats_.nodes)
        STRATA_CUDA_CHECK(
            cudaMemcpy(nodes.data(), nodes_.data(), nodes.size() * sizeof(KdNode), cudaMemcpyDeviceToHost));
    if (stats_.refs)
        STRATA_CUDA_CHECK(cudaMemcpy(primIndex.data(), primIndex_.data(), primIndex.size() * sizeof(uint32_t),
                                     cudaMemcpyDeviceToHost));
}

size_t KdGpuBuilder::memoryBytes() const {
    size_t b = nodes_.bytes() + primIndex_.bytes() + small_.bytes() + smallTri_.bytes() + smallBox_.bytes() +
               nodeU32_.bytes() + nodeF32_.bytes() + chunkU32_.bytes() + chunkF32_.bytes() + cutCell_.bytes() +
               refFlags_.bytes() + rightBox_.bytes() + bins_.bytes() + libraryTemp_.bytes() + smallList_[0].bytes() +
               smallList_[1].bytes() + counters_.bytes() + candPlane_.bytes() + candMask_.bytes() + bounds_d_.bytes();
    for (int k = 0; k < 2; ++k) b += refTri_[k].bytes() + refBox_[k].bytes() + active_[k].bytes();
    return b;
}

}  // namespace strata
