// accel/lbvh/lbvh_gpu.h — the Morton-order builders on the GPU, one builder
// for the three LBVHs and H-PLOC (accel/lbvh/lbvh_variant.h), chosen per build. Input: one box per
// primitive (device memory); output: BvhNodes (n-1 internal nodes), the
// sorted primitive order and, for lbvh-skip, the skip-link nodes. The
// builder names its phases, each a stage of the caller's timer (or, inside
// an Untimed scope, counted in the caller's open stage):
//   build/bounds     scene box of the centroids (one reduction kernel)
//   build/morton     Morton code per primitive (30 or 63 bits)
//   build/sort       CUB radix sort of (code, primitive) pairs (accel.morton_sort
//                    = merge: CUB's stable merge sort; = split: the top 32
//                    bits by CUB's radix sort, then the runs, split_sort.h)
//   build/hierarchy  lbvh-karras: Karras Fig. 4, one thread per internal node;
//                    lbvh-apetrei, lbvh-skip: the whole bottom-up pass
//                    (hierarchy and boxes), one thread per leaf;
//                    hploc: the same climb, with PLOC merging per warp
//   build/aabb       lbvh-karras: bottom-up boxes, one thread per leaf
//   build/refit      refit() instead of a build: parent entries (once per
//                    build, lbvh-karras has them), then the bottom-up boxes
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "accel/bvh.h"
#include "accel/lbvh/lbvh_variant.h"
#include "gpu/cuda_event.h"
#include "gpu/device_buffer.h"
#include "gpu/pinned_buffer.h"
#include "gpu/launch_context.h"

namespace strata {

// What to build (madmann91's Config, cuBQL's BuildConfig).
struct LbvhConfig {
    LbvhVariant variant = LbvhVariant::Karras;
    int mortonBits = 63;  // 30 or 63
    // strata's block hand-over (accel.lbvh_block_hand_over, lbvh_block.cuh;
    // the same tree): the bottom-up pass's votes at parents whose range lies
    // within a block in shared memory. False: in global memory, as published.
    // H-PLOC has its own pass and ignores it.
    bool blockHandOver = false;
    // accel.morton_sort (strata's merge and split; the same order as the
    // papers' radix sort). split sorts 63-bit codes only (30-bit ones by radix).
    MortonSort sort = MortonSort::Radix;
};

// The options' build: accel.builder's variant, its Morton bits, and strata's
// block hand-over and sort.
inline LbvhConfig lbvhConfigOf(const AccelOptions& o) {
    return LbvhConfig{lbvhVariantOf(o), o.mortonBits, o.lbvhBlockHandOver, o.mortonSort};
}

// A built structure copied to the host (validation and tests).
struct LbvhCopy {
    std::vector<BvhNode> nodes;
    std::vector<uint32_t> primIndex;
    uint32_t root = 0;
    std::vector<StacklessNode> skipNodes;  // lbvh-skip only
};

class LbvhBuilder {
public:
    // One box per primitive in, the tree out; the boxes stay the caller's.
    void build(const LbvhConfig& config, const Aabb* primBounds, uint32_t n, const LaunchContext& ctx);
    // Whether the last build can be refitted to boxes of `config` and `n`
    // (the same variant, Morton bits and count).
    bool canRefit(const LbvhConfig& config, uint32_t n) const;
    // accel.rebuild = refit: the last build's tree with every box recomputed
    // from `primBounds` (accel/lbvh/refit.h), as stage "build/refit".
    void refit(const Aabb* primBounds, const LaunchContext& ctx);
    // accel.rebuild = auto: measures the tree's SAH (accel/lbvh/refit.h) on
    // the stream, read back without waiting: sahGrowth() is the latest
    // measurement over the first one after the last build, minus 1 (0 until
    // both are known; a frame or so late).
    void measureSah(const LaunchContext& ctx);
    float sahGrowth();
    uint32_t refitsSinceBuild() const { return refits_; }
    // The last build, traced with `traversal` where it can be (stackless
    // needs the skip links of lbvh-skip; otherwise the stack traversal).
    BvhView view(BvhTraversal traversal = BvhTraversal::Stack) const;
    // Synchronous copy of the last build (call after its stream is done).
    LbvhCopy download() const;
    LbvhVariant variant() const { return variant_; }
    uint32_t numPrims() const { return n_; }
    size_t memoryBytes() const;
    // Device bytes of a build over n primitives with `sort` by the variant
    // that needs the most (accel/lbvh/lbvh_memory.h).
    static size_t estimateBytes(size_t n, MortonSort sort);

private:
    void bottomUp(const Aabb* primBounds, const void* sortedKeys, bool wide, const LaunchContext& ctx);
    // CUB's sort of the keys build() chose: 64-bit or 32-bit keys, merge or
    // radix (over bits [0, endBit)).
    cudaError_t sortPairs(void* temp, size_t& tempBytes, uint32_t n, int endBit, bool keys64, bool merge,
                          cudaStream_t stream);

    uint32_t n_ = 0;
    LbvhVariant variant_ = LbvhVariant::Karras;
    int mortonBits_ = 0;
    bool blockHandOver_ = false;
    bool built_ = false;
    bool parentsFound_ = false;  // parent_ holds the last build's parent entries
    uint32_t refits_ = 0;
    // SAH measurements: sum and root area on the device, copied to pinned
    // memory; one in flight, tagged with the build it measured.
    void collectSah();
    DeviceBuffer<float> sahDevice_;
    PinnedBuffer<float> sahHost_;
    CudaEvent sahDone_;
    bool sahPending_ = false, haveBuiltSah_ = false;
    uint64_t builds_ = 0, sahOfBuild_ = 0;
    float builtSah_ = 0, sah_ = 0;
    uint32_t sortLaunches_ = 0, sortLaunchesFor_ = 0;
    int sortBitsFor_ = 0;
    bool sortMergeFor_ = false;
    // accel.morton_sort = split: the run lists (split_sort.h); the tops sort
    // in keys32_ / sortedKeys32_, the runs' merges use sortTemp_.
    DeviceBuffer<uint32_t> runList_;
    DeviceBuffer<BvhNode> nodes_;
    DeviceBuffer<int32_t> parent_;
    DeviceBuffer<uint32_t> visits_;
    DeviceBuffer<uint64_t> keys_, sortedKeys_;
    DeviceBuffer<uint32_t> keys32_, sortedKeys32_;
    DeviceBuffer<uint32_t> primIds_, sortedPrim_;
    // primIds_ holds the identity order in its first idsIdentityCount_
    // entries while its allocation is idsIdentityOf_ (the radix and split
    // sorts only read it).
    const uint32_t* idsIdentityOf_ = nullptr;
    uint32_t idsIdentityCount_ = 0;
    DeviceBuffer<uint32_t> sceneBox_;  // order-preserving encoded min xyz, max xyz
    DeviceBuffer<uint8_t> sortTemp_;
    // Apetrei variants: the store array (◇ between builds: the pass resets
    // what it uses, so it is cleared only when newly allocated), the root
    // (Apetrei's and H-PLOC's, found on the device).
    DeviceBuffer<int32_t> store_;
    const int32_t* storeCleared_ = nullptr;
    size_t storeClearedBytes_ = 0;
    DeviceBuffer<uint32_t> root_;
    DeviceBuffer<StacklessNode> skipNodes_;
    // H-PLOC: the cluster slots with their boxes.
    DeviceBuffer<float4> slots_;
};

}  // namespace strata
