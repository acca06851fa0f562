#include "accel/lbvh/lbvh_gpu.h"

#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>

#include <vector>

#include "accel/lbvh/apetrei.h"
#include "accel/lbvh/apetrei_gpu.h"
#include "accel/lbvh/hploc_gpu.h"
#include "accel/lbvh/karras.h"
#include "accel/lbvh/lbvh_block.cuh"
#include "accel/lbvh/lbvh_memory.h"
#include "accel/lbvh/refit.h"
#include "accel/lbvh/split_sort.h"
#include "gpu/block_reduce.cuh"
#include "gpu/launch.cuh"
#include "gpu/ordered_float.cuh"

namespace strata {
namespace {

constexpr int kBlock = 256;

__device__ Aabb decodeBox(const uint32_t* e) {
    return Aabb{{decodeOrderedFloat(e[0]), decodeOrderedFloat(e[1]), decodeOrderedFloat(e[2])},
                {decodeOrderedFloat(e[3]), decodeOrderedFloat(e[4]), decodeOrderedFloat(e[5])}};
}

// build/bounds: the box of all centroids; block reduction then six atomics.
__global__ void centroidBoundsKernel(const Aabb* bounds, uint32_t n, uint32_t* box) {
    Aabb b;
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        b.grow(bounds[i].center());
    b = blockUnion<kBlock>(b);
    if (threadIdx.x < 3)
        atomicMin(&box[threadIdx.x], encodeOrderedFloat(b.lo[threadIdx.x]));
    else if (threadIdx.x < 6)
        atomicMax(&box[threadIdx.x], encodeOrderedFloat(b.hi[threadIdx.x - 3]));
}

// build/morton: Karras §3, one key per primitive, and the identity order
// where `ids` is not null; accel.morton_sort = split: also the 63-bit codes'
// tops, and the run lists' two counts cleared (else both null).
template <class Key>
__global__ void mortonKernel(const Aabb* bounds, uint32_t n, const uint32_t* box, Key* keys, uint32_t* ids,
                             uint32_t* tops, uint32_t* runCounts) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Aabb scene = decodeBox(box);
    Vec3 u = unitPosition(bounds[i].center(), scene);
    const Key key = sizeof(Key) == 8 ? Key(morton63(u)) : Key(morton30(u));
    keys[i] = key;
    if (ids) ids[i] = i;
    if (tops) tops[i] = uint32_t(uint64_t(key) >> kSplitTopShift);
    if (runCounts && i < 2) runCounts[i] = 0;
}

// build/hierarchy: Karras 2012 Fig. 4, one thread per internal node; also
// clears the visit counters of the bottom-up pass. block > 0 (strata's block
// hand-over): the parent entries flag the nodes whose range lies within one
// block of the bottom-up pass.
template <class Key>
__global__ void hierarchyKernel(const Key* keys, uint32_t n, int32_t* parent, uint32_t* visits, int block) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n - 1) return;
    karrasInternalNode(keys, int(n), int(i), parent, block);
    visits[i] = 0;
}

// build/aabb: Karras 2012 §4 bottom-up pass, one thread per leaf.
__global__ void bottomUpKernel(const Aabb* bounds, uint32_t n, const uint32_t* sortedPrim, BvhNode* nodes,
                               const int32_t* parent, uint32_t* visits) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    karrasBottomUp(int(i), int(n), bounds, sortedPrim, nodes, parent, visits);
}

// build/aabb with strata's block hand-over: the flagged nodes' votes in
// shared memory (lbvh_block.cuh).
__global__ void __launch_bounds__(kHandOverBlock)
    bottomUpBlockKernel(const Aabb* bounds, uint32_t n, const uint32_t* sortedPrim, BvhNode* nodes,
                        const int32_t* parent, uint32_t* visits) {
    __shared__ KarrasBlockShared<kHandOverBlock> s;
    karrasBlockSetUp(s);
    const int b0 = int(blockIdx.x) * kHandOverBlock;
    KarrasBlockHandOver<kHandOverBlock> handOver{{nodes, visits}, s, b0};
    const uint32_t i = uint32_t(b0) + threadIdx.x;
    if (i < n) karrasBottomUp(int(i), int(n), bounds, sortedPrim, nodes, parent, handOver);
}

// build/refit: node i's children's parent entries (the root's stays -1).
__global__ void parentEntriesKernel(const BvhNode* nodes, uint32_t n, int32_t* parent) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n - 1) setParentEntries(nodes[i], int(i), int(n), parent);
}

// build/refit: lbvh-skip's skip-link boxes from the refitted nodes.
__global__ void refitSkipKernel(const BvhNode* nodes, uint32_t count, const Aabb* primBounds, StacklessNode* skip) {
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < count) refitSkipNode(int(k), nodes, primBounds, skip);
}

// accel.rebuild = auto: the tree's SAH terms summed (out[0]) and the root's
// area (out[1]); out[0] is 0 on entry.
__global__ void sahKernel(const BvhNode* nodes, uint32_t count, const uint32_t* rootIndex, uint32_t root, float* out) {
    float sum = 0;
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x)
        sum += sahTerms(nodes[i]);
    for (int d = 16; d >= 1; d >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, d);
    if ((threadIdx.x & 31) == 0) atomicAdd(&out[0], sum);
    if (blockIdx.x == 0 && threadIdx.x == 0) out[1] = rootArea(nodes[rootIndex ? *rootIndex : root]);
}

// build/refit of a one-primitive tree.
__global__ void refitSingleLeafKernel(const Aabb* bounds, BvhNode* nodes) { setSingleLeafRoot(nodes[0], bounds[0]); }

// A one-primitive tree: the root holds the leaf and an empty right child.
__global__ void singleLeafKernel(const Aabb* bounds, BvhNode* nodes, uint32_t* sortedPrim) {
    nodes[0].setLeft(bounds[0], 0, 1);
    nodes[0].setRight(Aabb(), -1, 0);
    sortedPrim[0] = 0;
}

uint32_t blocks(uint32_t n) { return (n + kBlock - 1) / kBlock; }

// accel.morton_sort = merge: the codes' order (the stable sort keeps equal
// codes in primitive order, as the radix sort does).
struct CodeLess {
    template <class Key>
    __device__ bool operator()(Key a, Key b) const {
        return a < b;
    }
};

}  // namespace

void LbvhBuilder::build(const LbvhConfig& config, const Aabb* primBounds, uint32_t n, const LaunchContext& ctx) {
    const LbvhVariant variant = config.variant;
    cudaStream_t stream = ctx.stream;
    n_ = n;
    variant_ = variant;
    mortonBits_ = config.mortonBits;
    blockHandOver_ = config.blockHandOver;
    built_ = n > 0;
    refits_ = 0;
    ++builds_;
    haveBuiltSah_ = false;
    // Karras's hierarchy pass writes the parent entries a refit reuses, but
    // with the block hand-over they carry its flag, which the refit's
    // pass reads as part of the index: then the first refit writes them anew.
    parentsFound_ = variant == LbvhVariant::Karras && n > 1 && !(config.blockHandOver && n < kKarrasMaxBlockFlagged);
    if (n == 0) return;
    const bool apetrei = variant != LbvhVariant::Karras;
    nodes_.resize(n > 1 ? n - 1 : 1);
    sortedPrim_.resize(n);
    if (apetrei) {
        store_.resize(n);
        if (store_.data() != storeCleared_ || store_.bytes() != storeClearedBytes_) {
            // ◇ everywhere once per allocation; each build leaves it so.
            STRATA_CUDA_CHECK(cudaMemsetAsync(store_.data(), 0xff, store_.bytes(), stream));
            storeCleared_ = store_.data();
            storeClearedBytes_ = store_.bytes();
        }
        if (variant == LbvhVariant::Apetrei || variant == LbvhVariant::Hploc) root_.resize(1);
        if (variant == LbvhVariant::Hploc) slots_.resize(2 * size_t(n));
        if (variant == LbvhVariant::ApetreiSkip) skipNodes_.resize(2 * size_t(n) - 1);
    }
    if (n == 1) {
        if (!apetrei) {
            launch(ctx, "build/hierarchy", {1, 1}, singleLeafKernel, primBounds, nodes_.data(), sortedPrim_.data());
        } else {
            // The per-leaf pass handles one leaf itself (it reads no key).
            StageScope s(ctx.timer, "build/hierarchy");
            STRATA_CUDA_CHECK(cudaMemsetAsync(sortedPrim_.data(), 0, sizeof(uint32_t), stream));
            bottomUp(primBounds, nullptr, false, ctx);
        }
        return;
    }
    if (!apetrei) {
        parent_.resize(2 * n - 1);
        visits_.resize(n - 1);
    }
    sceneBox_.resize(6);
    const bool wide = config.mortonBits > 32;
    // The radix sort's input arrays; the merge sort sorts the sorted ones in
    // place; the split sort sorts the tops (32-bit keys) by radix, then the
    // runs from the unsorted codes into the sorted ones.
    const bool merge = config.sort == MortonSort::Merge;
    const bool split = config.sort == MortonSort::Split && wide;
    if (merge) {
        primIds_.release();
        idsIdentityOf_ = nullptr;
        keys_.release();
        keys32_.release();
    } else {
        primIds_.resize(n);
        if (wide)
            keys_.resize(n);
        else
            keys32_.resize(n);
    }
    if (wide)
        sortedKeys_.resize(n);
    if (!wide || split) sortedKeys32_.resize(n);
    if (split) {
        keys32_.resize(n);
        runList_.resize(splitSortRunListWords(n));
    } else {
        runList_.release();
        if (wide) {
            keys32_.release();
            sortedKeys32_.release();
        }
    }

    {
        StageScope s(ctx.timer, "build/bounds");
        // min slots start at the largest encoding, max slots at the smallest.
        static_assert(kOrderedMinStart == 0xffffffffu && kOrderedMaxStart == 0u, "byte-wise memsets below");
        STRATA_CUDA_CHECK(cudaMemsetAsync(sceneBox_.data(), 0xff, 3 * sizeof(uint32_t), stream));
        STRATA_CUDA_CHECK(cudaMemsetAsync(sceneBox_.data() + 3, 0, 3 * sizeof(uint32_t), stream));
        const uint32_t grid = std::min<uint32_t>(blocks(n), 1024);
        launch(ctx, "build/bounds", {grid, kBlock}, centroidBoundsKernel, primBounds, n, sceneBox_.data());
    }
    const LaunchShape perPrim = perItem(n, kBlock);
    // The radix sort reads the codes and writes them sorted elsewhere; the
    // merge sort sorts them where they are, the sorted arrays. The radix
    // and split sorts read the identity order from primIds_ and leave it as
    // it is: written once per allocation (the merge sort sorts sortedPrim_
    // in place, from the identity written every build).
    uint32_t* ids = nullptr;
    if (merge) {
        ids = sortedPrim_.data();
    } else if (primIds_.data() != idsIdentityOf_ || n > idsIdentityCount_) {
        ids = primIds_.data();
        idsIdentityOf_ = nullptr;  // recorded once the kernel that writes it is launched
    }
    if (wide)
        launch(ctx, "build/morton", perPrim, mortonKernel<uint64_t>, primBounds, n, sceneBox_.data(),
               merge ? sortedKeys_.data() : keys_.data(), ids, split ? keys32_.data() : nullptr,
               split ? runList_.data() : nullptr);
    else
        launch(ctx, "build/morton", perPrim, mortonKernel<uint32_t>, primBounds, n, sceneBox_.data(),
               merge ? sortedKeys32_.data() : keys32_.data(), ids, nullptr, nullptr);
    if (ids && !merge) {
        idsIdentityOf_ = primIds_.data();
        idsIdentityCount_ = n;
    }
    {
        StageScope s(ctx.timer, "build/sort");
        // CUB sorts the 63-bit codes, the 30-bit ones, or the split sort's tops.
        const bool keys64 = wide && !split;
        const int endBit = split ? 63 - kSplitTopShift : wide ? 63 : 30;
        size_t tempBytes = 0;
        STRATA_CUDA_CHECK(sortPairs(nullptr, tempBytes, n, endBit, keys64, merge, stream));
        // The split sort's merges use the scratch as n codes and n primitives
        // once CUB is done.
        const size_t scratchBytes = n * (sizeof(uint64_t) + sizeof(uint32_t));
        sortTemp_.resize(split ? std::max(tempBytes, scratchBytes) : tempBytes);
        if (n != sortLaunchesFor_ || endBit != sortBitsFor_ || merge != sortMergeFor_) {
            // CUB chooses its kernels at run time; capture one sort into a
            // graph (not executed) and count its kernel nodes, so the launch
            // count is exact.
            sortLaunches_ = countKernelLaunches([&](cudaStream_t side) {
                return sortPairs(sortTemp_.data(), tempBytes, n, endBit, keys64, merge, side);
            });
            sortLaunchesFor_ = n;
            sortBitsFor_ = endBit;
            sortMergeFor_ = merge;
        }
        libraryCall(ctx, "build/sort", sortLaunches_, [&](cudaStream_t st) {
            return sortPairs(sortTemp_.data(), tempBytes, n, endBit, keys64, merge, st);
        });
        if (split) {
            SplitSortRuns runs;
            runs.codes = keys_.data();
            runs.sortedTops = sortedKeys32_.data();
            runs.sortedPrim = sortedPrim_.data();
            runs.sortedCodes = sortedKeys_.data();
            runs.runList = runList_.data();
            runs.scratchCodes = reinterpret_cast<uint64_t*>(sortTemp_.data());
            runs.scratchPrim = reinterpret_cast<uint32_t*>(sortTemp_.data() + n * sizeof(uint64_t));
            runs.n = n;
            launchSplitSortRuns(runs, "build/sort", ctx);
        }
    }
    if (apetrei) {
        // One bottom-up pass builds the hierarchy and its boxes.
        bottomUp(primBounds, wide ? static_cast<const void*>(sortedKeys_.data()) : sortedKeys32_.data(), wide, ctx);
        return;
    }
    const LaunchShape perInternal = perItem(n - 1, kBlock);
    const bool block = blockHandOver_ && n < kKarrasMaxBlockFlagged;  // the flag takes bit 30 of the entries
    if (wide)
        launch(ctx, "build/hierarchy", perInternal, hierarchyKernel<uint64_t>, sortedKeys_.data(), n, parent_.data(),
               visits_.data(), block ? kHandOverBlock : 0);
    else
        launch(ctx, "build/hierarchy", perInternal, hierarchyKernel<uint32_t>, sortedKeys32_.data(), n, parent_.data(),
               visits_.data(), block ? kHandOverBlock : 0);
    launch(ctx, "build/aabb", block ? perItem(n, kHandOverBlock) : perPrim,
           block ? bottomUpBlockKernel : bottomUpKernel, primBounds, n, sortedPrim_.data(), nodes_.data(),
           parent_.data(), visits_.data());
}

bool LbvhBuilder::canRefit(const LbvhConfig& config, uint32_t n) const {
    return built_ && n == n_ && config.variant == variant_ && config.mortonBits == mortonBits_;
}

void LbvhBuilder::refit(const Aabb* primBounds, const LaunchContext& ctx) {
    StageScope s(ctx.timer, "build/refit");
    const uint32_t n = n_;
    ++refits_;
    if (n == 1) {
        launch(ctx, "build/refit", {1, 1}, refitSingleLeafKernel, primBounds, nodes_.data());
    } else {
        parent_.resize(2 * size_t(n) - 1);
        visits_.resize(n - 1);
        if (!parentsFound_) {
            STRATA_CUDA_CHECK(cudaMemsetAsync(parent_.data(), 0xff, parent_.bytes(), ctx.stream));  // all -1
            launch(ctx, "build/refit", perItem(n - 1, kBlock), parentEntriesKernel, nodes_.data(), n, parent_.data());
            parentsFound_ = true;
        }
        STRATA_CUDA_CHECK(cudaMemsetAsync(visits_.data(), 0, visits_.bytes(), ctx.stream));
        launch(ctx, "build/refit", perItem(n, kBlock), bottomUpKernel, primBounds, n, sortedPrim_.data(), nodes_.data(),
               parent_.data(), visits_.data());
    }
    if (variant_ == LbvhVariant::ApetreiSkip)
        launch(ctx, "build/refit", perItem(2 * n - 1, kBlock), refitSkipKernel, nodes_.data(), 2 * n - 1, primBounds,
               skipNodes_.data());
}

void LbvhBuilder::collectSah() {
    if (!sahPending_ || !sahDone_.done()) return;
    sahPending_ = false;
    if (sahOfBuild_ != builds_ || !(sahHost_.data()[1] > 0)) return;  // a tree since rebuilt, or no area
    const float sah = sahHost_.data()[0] / sahHost_.data()[1];
    if (!haveBuiltSah_) {
        builtSah_ = sah;
        haveBuiltSah_ = true;
    }
    sah_ = sah;
}

void LbvhBuilder::measureSah(const LaunchContext& ctx) {
    collectSah();
    // One measurement in flight at a time, except that one of a tree since
    // rebuilt gives way: the new tree's first measurement is its baseline
    // (on the same stream, the new one follows the old one's copy).
    if ((sahPending_ && sahOfBuild_ == builds_) || !built_) return;
    sahDevice_.resize(2);
    sahHost_.resize(2);
    const BvhView v = view();
    STRATA_CUDA_CHECK(cudaMemsetAsync(sahDevice_.data(), 0, sizeof(float), ctx.stream));
    const uint32_t grid = std::min<uint32_t>(blocks(v.numNodes), 264);
    launch(ctx, "build/refit", {grid, kBlock}, sahKernel, v.nodes, v.numNodes, v.rootIndex, v.root, sahDevice_.data());
    STRATA_CUDA_CHECK(
        cudaMemcpyAsync(sahHost_.data(), sahDevice_.data(), 2 * sizeof(float), cudaMemcpyDeviceToHost, ctx.stream));
    sahDone_.record(ctx.stream);
    sahPending_ = true;
    sahOfBuild_ = builds_;
}

float LbvhBuilder::sahGrowth() {
    collectSah();
    return haveBuiltSah_ && builtSah_ > 0 ? sah_ / builtSah_ - 1.0f : 0.0f;
}

void LbvhBuilder::bottomUp(const Aabb* primBounds, const void* sortedKeys, bool wide, const LaunchContext& ctx) {
    LbvhSortedLeaves in{sortedKeys, wide, n_, primBounds, sortedPrim_.data(), blockHandOver_};
    if (variant_ == LbvhVariant::Apetrei)
        launchApetreiBottomUp(in, nodes_.data(), store_.data(), root_.data(), ctx);
    else if (variant_ == LbvhVariant::Hploc)
        launchHploc(in, nodes_.data(), store_.data(), slots_.data(), root_.data(), ctx);
    else
        launchApetreiSkipBottomUp(in, skipNodes_.data(), nodes_.data(), store_.data(), ctx);
}

cudaError_t LbvhBuilder::sortPairs(void* temp, size_t& tempBytes, uint32_t n, int endBit, bool keys64, bool merge,
                                   cudaStream_t stream) {
    if (merge && keys64)
        return cub::DeviceMergeSort::StableSortPairs(temp, tempBytes, sortedKeys_.data(), sortedPrim_.data(), int(n),
                                                     CodeLess{}, stream);
    if (merge)
        return cub::DeviceMergeSort::StableSortPairs(temp, tempBytes, sortedKeys32_.data(), sortedPrim_.data(), int(n),
                                                     CodeLess{}, stream);
    if (keys64)
        return cub::DeviceRadixSort::SortPairs(temp, tempBytes, keys_.data(), sortedKeys_.data(), primIds_.data(),
                                               sortedPrim_.data(), int(n), 0, endBit, stream);
    return cub::DeviceRadixSort::SortPairs(temp, tempBytes, keys32_.data(), sortedKeys32_.data(), primIds_.data(),
                                           sortedPrim_.data(), int(n), 0, endBit, stream);
}

BvhView LbvhBuilder::view(BvhTraversal traversal) const {
    BvhView v{nodes_.data(), sortedPrim_.data(), n_ > 1 ? n_ - 1 : (n_ ? 1u : 0u), n_};
    if (n_ == 0) return v;
    if (variant_ == LbvhVariant::Apetrei || variant_ == LbvhVariant::Hploc)
        v.rootIndex = root_.data();  // found during the pass
    if (variant_ == LbvhVariant::ApetreiSkip) {
        v.skipNodes = skipNodes_.data();
        v.numSkipNodes = 2 * n_ - 1;
        v.traversal = traversal;
    }
    return v;
}

LbvhCopy LbvhBuilder::download() const {
    LbvhCopy c;
    BvhView v = view();
    c.nodes.resize(v.numNodes);
    c.primIndex.resize(v.numPrims);
    c.root = v.root;
    if (v.numNodes)
        STRATA_CUDA_CHECK(cudaMemcpy(c.nodes.data(), v.nodes, v.numNodes * sizeof(BvhNode), cudaMemcpyDeviceToHost));
    if (v.numPrims)
        STRATA_CUDA_CHECK(cudaMemcpy(c.primIndex.data(), v.primIndex, v.numPrims * 4, cudaMemcpyDeviceToHost));
    if (v.rootIndex) STRATA_CUDA_CHECK(cudaMemcpy(&c.root, v.rootIndex, 4, cudaMemcpyDeviceToHost));
    if (v.skipNodes) {
        c.skipNodes.resize(v.numSkipNodes);
        STRATA_CUDA_CHECK(cudaMemcpy(c.skipNodes.data(), v.skipNodes, v.numSkipNodes * sizeof(StacklessNode),
                                     cudaMemcpyDeviceToHost));
    }
    return c;
}

size_t LbvhBuilder::memoryBytes() const {
    return nodes_.bytes() + parent_.bytes() + visits_.bytes() + keys_.bytes() + sortedKeys_.bytes() + keys32_.bytes() +
           sortedKeys32_.bytes() + primIds_.bytes() + sortedPrim_.bytes() + sortTemp_.bytes() + runList_.bytes() +
           store_.bytes() + root_.bytes() + skipNodes_.bytes() + slots_.bytes();
}

size_t LbvhBuilder::estimateBytes(size_t n, MortonSort sort) {
    size_t most = 0;
    for (LbvhVariant v : kLbvhVariants) most = std::max(most, lbvhBytes(n, v, true, sort));
    return most;
}

}  // namespace strata
