#include "render/vd_gpu.h"

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>

#include "accel/lbvh/lbvh_variant.h"
#include "gpu/device.h"
#include "gpu/launch.cuh"
#include "render/instancing.h"

namespace strata {
namespace {

constexpr int kBottomBlock = 128;

__global__ void vdWorldCullKernel(uint32_t numPatches, const Aabb* sixteenths, const uint32_t* patchInstance,
                                  const Affine* worldFromObject, Aabb* worldSixteenths, Aabb* worldQuadrants) {
    const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < numPatches)
        vdWorldCullBoxes(sixteenths + kVdCullBoxes * size_t(k), worldFromObject[patchInstance[k]],
                         worldSixteenths + kVdCullBoxes * size_t(k), worldQuadrants + 4 * size_t(k));
}

// Each patch's run in the sorted pairs: range[2p] = begin, range[2p+1] = end.
__global__ void vdRangesKernel(const VdPair* sorted, uint32_t n, uint32_t* range) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t p = uint32_t(sorted[i] >> 32);
    if (i == 0 || uint32_t(sorted[i - 1] >> 32) != p) range[2 * p] = i;
    if (i + 1 == n || uint32_t(sorted[i + 1] >> 32) != p) range[2 * p + 1] = i + 1;
}

// The finest level any ray of a patch asks for. The pairs are sorted, so a
// warp's lanes mostly share a patch: they reduce among themselves and one
// lane per patch does the atomicMax (one atomic per pair on a few hot
// addresses took milliseconds).
// Patches whose level this frame already fixed (frozen > 0) are skipped: after
// the camera rays' resolve that is most of them.
__global__ void vdLevelsKernel(VdView v, const VdPair* sorted, uint32_t n, const Ray* rays, const int8_t* frozen,
                               int* level) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;  // the lanes below take their mask from __activemask()
    const uint32_t patch = uint32_t(sorted[i] >> 32);
    if (frozen[patch] > 0) return;
    const VdPatch& p = v.patches[patch];
    const int mine = vdRayLevel(v, p, v.worldFromObject[v.patchInstance[patch]], rays[uint32_t(sorted[i])]);
    const unsigned live = __activemask();
    const unsigned same = __match_any_sync(live, patch);
    const int best = __reduce_max_sync(same, mine);
    if ((threadIdx.x & 31) == unsigned(__ffs(same) - 1)) atomicMax(&level[patch], best);
}

// One job per jobRays of a patch's rays, so a patch seen by many rays (a
// trunk filling the view) is spread over many blocks instead of keeping one
// block busy while the rest of the GPU waits. Each job rebuilds the patch's
// tree: cheap next to hundreds of traversals, but not free, so jobs are as
// long as keeps every block busy (vdJobRays).
constexpr uint32_t kVdMinJobRays = 256, kVdMaxJobRays = 2048;
struct VdJob {
    uint32_t patch, begin, end, level;
};
__global__ void vdJobsKernel(uint32_t numPatches, const VdPatch* patches, const uint32_t* range, const int* level,
                             int maxLevel, uint32_t jobRays, int8_t* frozen, VdJob* jobs, uint32_t capacity,
                             uint32_t* numJobs) {
    uint32_t p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= numPatches) return;
    const uint32_t begin = range[2 * p], end = range[2 * p + 1];
    if (end <= begin) return;
    // The first resolve of a frame (the camera rays) fixes each patch's level
    // for the frame's later resolves: a shadow or bounce ray leaving a patch
    // must meet the surface its origin lies on, not a finer one (that would
    // shadow the patch with itself). vd.freeze_lod keeps it across frames.
    // A level frozen under another vd.max_level is clamped to the current
    // range: the tree buffers are sized by it, and the cull boxes hold the
    // cells of levels 2 (where the caps allow) to it.
    int l = max(level[p], 1);
    if (frozen[p] > 0)
        l = frozen[p];
    else
        frozen[p] = int8_t(l);
    l = vdClampLevel(l, min(patches[p].maxLevel, maxLevel));  // as vdTracedLevel (vd_view.h) decodes it
    // Full jobs from the front of the queue, a patch's last (shorter) one
    // from the back: the blocks take the long jobs first, and the GPU's last
    // jobs are short ones (numJobs: [0] at the front, [2] at the back).
    const uint32_t full = (end - begin) / jobRays, rest = (end - begin) % jobRays;
    const uint32_t k = atomicAdd(&numJobs[0], full);
    for (uint32_t c = 0; c < full; ++c)
        jobs[k + c] = VdJob{p, begin + c * jobRays, begin + (c + 1) * jobRays, uint32_t(l)};
    if (rest) jobs[capacity - 1 - atomicAdd(&numJobs[2], 1u)] = VdJob{p, end - rest, end, uint32_t(l)};
}

// vd.tree_cache, as the bottom kernel sees it (nodes null: off). A slot's
// tree is complete when held[patch] names its level: the patch's first job
// of a ray cast that found none writes it (held -1 meanwhile, then its
// level after a fence); later jobs, ray casts and frames at that level copy
// it (through L2: __ldcg, so no stale L1 line) instead of building.
struct VdCacheView {
    VdNode* nodes = nullptr;
    Vec3* grids = nullptr;  // null for Harada's leaves
    int32_t* slot = nullptr;
    int8_t* held = nullptr;
    uint32_t* next = nullptr;
    const uint32_t* range = nullptr;  // per patch: its pairs' begin, end (a job starting at begin is its first)
    uint32_t slots = 0, nodesPerSlot = 0, gridPerSlot = 0;
};

// n 32-bit words from src (global, through L2) to dst, by the block.
__device__ void copyWords(uint32_t* dst, const uint32_t* src, uint32_t n, bool fromCache) {
    for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) dst[i] = fromCache ? __ldcg(src + i) : src[i];
}

// Algorithm 1 of the paper with persistent blocks: take a job, build its
// patch's tree at the job's level in this block's buffer (Shared: dynamic
// shared memory of vdTreeBytes(level), nodes then grid; else its slice of
// the global work buffers) or copy it from the tree cache, trace its rays.
template <bool Shadow, bool Shared>
__global__ void __launch_bounds__(kBottomBlock, 5)
    vdBottomKernel(VdView v, const VdPair* sorted, const VdJob* jobs, uint32_t capacity, const uint32_t* numJobs,
                   const Ray* rays, HitRecord* hits, uint32_t* blocked, VdNode* work, uint32_t nodesPerBlock,
                   Vec3* grids, uint32_t gridPerBlock, uint32_t* next, VdCacheView cache) {
    extern __shared__ __align__(16) unsigned char sTree[];
    __shared__ uint32_t sJob;
    __shared__ int sSlot, sFill;
    VdNode* nodes = Shared ? reinterpret_cast<VdNode*>(sTree) : work + size_t(blockIdx.x) * nodesPerBlock;
    Vec3* grid = Shared  ? reinterpret_cast<Vec3*>(sTree + size_t(nodesPerBlock) * sizeof(VdNode))
                 : grids ? grids + size_t(blockIdx.x) * gridPerBlock
                         : nullptr;  // vd.leaf box: no grid
    const uint32_t front = numJobs[0], total = front + numJobs[2];
    for (;;) {
        if (threadIdx.x == 0) sJob = atomicAdd(next, 1u);
        __syncthreads();
        const uint32_t j = sJob;
        if (j >= total) return;
        const VdJob job = jobs[j < front ? j : capacity - 1 - (j - front)];
        const VdPatch& p = v.patches[job.patch];
        const int level = int(job.level);
        const TextureView map = v.maps[p.map];
        const VdFrame f = vdFrame(p.box);
        // vd.tree_cache: a slot holding the tree at this level (copied), or
        // one this job fills (the patch's first job of the ray cast).
        if (cache.nodes) {
            if (threadIdx.x == 0) {
                int slot = cache.slot[job.patch];
                bool fill = false;
                if (slot >= 0 && *reinterpret_cast<volatile int8_t*>(&cache.held[job.patch]) == level) {
                    __threadfence();  // the tree's words after its flag
                } else if (job.begin == cache.range[2 * job.patch]) {
                    if (slot < 0 && atomicAdd(cache.next, 0u) < cache.slots) {
                        const uint32_t k = atomicAdd(cache.next, 1u);
                        if (k < cache.slots) cache.slot[job.patch] = slot = int(k);
                    }
                    fill = slot >= 0;
                    if (fill) *reinterpret_cast<volatile int8_t*>(&cache.held[job.patch]) = int8_t(-1);
                } else {
                    slot = -1;
                }
                sSlot = slot;
                sFill = fill;
            }
            __syncthreads();
        }
        const int slot = cache.nodes ? sSlot : -1;
        const bool fill = cache.nodes && sFill;
        VdNode* slotNodes = slot >= 0 ? cache.nodes + size_t(slot) * cache.nodesPerSlot : nullptr;
        Vec3* slotGrid = slot >= 0 && cache.grids ? cache.grids + size_t(slot) * cache.gridPerSlot : nullptr;
        const uint32_t nodeWords = vdNodeCount(level) * 5, gridWords = slotGrid ? vdGridCount(level) * 3 : 0;
        static_assert(sizeof(VdNode) == 20 && sizeof(Vec3) == 12, "copied as 32-bit words");
        if (slot >= 0 && !fill) {
            copyWords(reinterpret_cast<uint32_t*>(nodes), reinterpret_cast<const uint32_t*>(slotNodes), nodeWords,
                      true);
            copyWords(reinterpret_cast<uint32_t*>(grid), reinterpret_cast<const uint32_t*>(slotGrid), gridWords, true);
            __syncthreads();
        } else {
            // As vdBuildTree: strata's leaves from a displaced grid (no normals
            // or uvs), Harada's (vd.leaf box) each from the map with its normal
            // and uv; then each level from its children (each barrier orders
            // this block's writes before its reads).
            const bool shading = v.boxLeaves;
            const Vec3* leafGrid = shading ? nullptr : grid;
            if (!shading) {
                for (uint32_t i = threadIdx.x; i < vdGridCount(level); i += blockDim.x)
                    grid[i] = vdGridVertex(p, map, level, i);
                __syncthreads();
            }
            const uint32_t leaves = 1u << (2 * level), o = vdLevelOffset(level);
            for (uint32_t k = threadIdx.x; k < leaves; k += blockDim.x)
                nodes[o + k] = vdMakeLeaf(p, map, level, k, f, leafGrid, shading);
            __syncthreads();
            for (int l = level - 1; l >= 0; --l) {
                const uint32_t ol = vdLevelOffset(l), oc = vdLevelOffset(l + 1), count = 1u << (2 * l);
                for (uint32_t k = threadIdx.x; k < count; k += blockDim.x)
                    nodes[ol + k] = vdMergeNodes(&nodes[oc + 4 * k], shading);
                __syncthreads();
            }
            if (fill) {  // kept for later ray casts: the words, a fence, then the flag
                copyWords(reinterpret_cast<uint32_t*>(slotNodes), reinterpret_cast<const uint32_t*>(nodes), nodeWords,
                          false);
                copyWords(reinterpret_cast<uint32_t*>(slotGrid), reinterpret_cast<const uint32_t*>(grid), gridWords,
                          false);
                __threadfence();
                __syncthreads();
                if (threadIdx.x == 0) *reinterpret_cast<volatile int8_t*>(&cache.held[job.patch]) = int8_t(level);
            }
        }
        // One thread per ray.
        for (uint32_t i = job.begin + threadIdx.x; i < job.end; i += blockDim.x) {
            const uint32_t slot = uint32_t(sorted[i]);
            if (Shadow) {  // a ray another patch has blocked is done
                if (!atomicLoadU32(&blocked[slot]) &&
                    vdTraceRay<true>(v, job.patch, nodes, grid, level, rays[slot], hits ? &hits[slot] : nullptr))
                    blocked[slot] = 1u;
            } else {
                vdTraceRay<false>(v, job.patch, nodes, grid, level, rays[slot], &hits[slot]);
            }
        }
        __syncthreads();  // before thread 0 takes the next job and the buffers are rebuilt
    }
}

// Rays per job for n pairs: about four jobs per block of the bottom kernel
// (a power of two in [kVdMinJobRays, kVdMaxJobRays]). On the H100, 2,048 for
// every resolve left most blocks idle on vd-mushroom (4 patches: 4.4 -> 2.9
// ms per frame) and was 5% slower on vd-party than 1,024 (docs/perf.md).
uint32_t vdJobRays(uint32_t n, uint32_t blocks) {
    uint32_t r = kVdMaxJobRays;
    while (r > kVdMinJobRays && uint64_t(r) * 4 * blocks > n) r /= 2;
    return r;
}

int bitsFor(uint32_t n) {
    int b = 1;
    while ((1u << b) < n && b < 32) ++b;
    return b;
}

}  // namespace

VdGpu::VdGpu(const Scene& scene, const FlatScene& flat) {
    (void)scene;
    numPatches_ = uint32_t(flat.patches.size());
    patchBits_ = bitsFor(numPatches_ + 1);
    patches_.upload(flat.patches);
    patchInstance_.upload(flat.patchInstance);
    std::vector<TextureView> views;
    for (const TextureView& m : flat.vdMaps) {
        mapTexels_.emplace_back();
        mapTexels_.back().upload(m.pixels, size_t(m.width) * m.height);
        views.push_back(TextureView{mapTexels_.back().data(), m.width, m.height});
    }
    maps_.upload(views);
    links_.upload(flat.vdLinks);
    counts_.resize(2);
    STRATA_CUDA_CHECK(cudaMemset(counts_.data(), 0, 2 * sizeof(uint32_t)));
    range_.resize(2 * size_t(numPatches_));
    job_.resize(3);  // [0] jobs at the front of the queue, [1] the next job to take, [2] jobs at its back
    level_.resize(numPatches_);
    frozen_.resize(numPatches_);
    STRATA_CUDA_CHECK(cudaMemset(frozen_.data(), 0, numPatches_));
    hostCounts_.resize(2);
    const int sms = currentDeviceSmCount();
    int perSm = 0;
    STRATA_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, vdBottomKernel<false, false>, kBottomBlock, 0));
    blocks_ = uint32_t(std::max(1, sms * std::max(1, perSm)));
    STRATA_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, vdBottomKernel<false, true>, kBottomBlock,
                                                                    vdTreeBytes(kVdSharedLevel)));
    sharedBlocks_ = uint32_t(std::max(1, sms * std::max(1, perSm)));
    STRATA_CUDA_CHECK(cudaDeviceSynchronize());
}

void VdGpu::ensureWork(int maxLevel, bool sharedTrees, bool grids) {
    workShared_ = sharedTrees && maxLevel <= kVdSharedLevel;
    if (workShared_) {  // shared memory: no work buffers
        work_ = DeviceBuffer<VdNode>{};
        grid_ = DeviceBuffer<Vec3>{};
        workLevel_ = maxLevel;
        return;
    }
    if (maxLevel <= int(workLevel_) && work_.size() && (grid_.size() > 0) == grids) return;
    work_.resize(size_t(blocks_) * vdNodeCount(maxLevel));
    if (grids)
        grid_.resize(size_t(blocks_) * vdGridCount(maxLevel));
    else
        grid_ = DeviceBuffer<Vec3>{};  // Harada's leaves (vd.leaf box) read no grid
    workLevel_ = maxLevel;
}

void VdGpu::prepare(const Scene& scene, const FlatScene& flat, const VdOptions& o, float t, const LaunchContext& ctx,
                    const AccelOptions& accel, bool viaInstances, bool unified) {
    cudaStream_t stream = ctx.stream;
    Untimed phases(ctx.timer);  // the LBVH builds' phases count in the caller's stage (build/vd_boxes)
    const LbvhConfig config = lbvhConfigOf(accel);
    poseVdPatches(scene, flat, t, frame_, !viaInstances && !o.pairCull);
    objectFromWorld_.upload(frame_.objectFromWorld, stream);
    worldFromObject_.upload(frame_.worldFromObject, stream);
    instances_ = TwoLevelView{};
    // vd.pair_cull: the middle level's primitives are the patches' quadrant
    // boxes, with their sixteenths beside them (object space, again when
    // vd.max_level changes), else the patches' loose boxes.
    boxShift_ = o.pairCull ? kVdQuadrantShift : 0;
    if (o.pairCull &&
        o.maxLevel != cullLevel_) {  // pageable sources: each copy has left its vector when upload returns
        const VdCullTable table = vdCullTable(flat.patches, flat.vdMaps, flat.patchOrigin, o.maxLevel);
        cullQuadrants_.upload(table.quadrants, stream);
        cullSixteenths_.upload(table.sixteenths, stream);
        cullLevel_ = o.maxLevel;
    }
    const uint32_t numBoxes = numPatches_ << boxShift_;
    if (!viaInstances) {
        if (o.pairCull) {
            worldBoxes_.resize(numBoxes);
            worldSixteenths_.resize(size_t(numPatches_) * kVdCullBoxes);
            launch(ctx, "build/vd_boxes/cull_boxes", perItem(numPatches_, 128), vdWorldCullKernel, numPatches_,
                   cullSixteenths_.data(), patchInstance_.data(), worldFromObject_.data(), worldSixteenths_.data(),
                   worldBoxes_.data());
        } else {
            worldBoxes_.upload(frame_.worldBoxes, stream);
        }
        sixteenths_ = o.pairCull ? worldSixteenths_.data() : nullptr;
        if (!unified) boxes_.build(config, worldBoxes_.data(), numBoxes, ctx);
        boxesTraversal_ = traversalOf(accel);
        return;
    }
    // One object-space BLAS per VD mesh over its patches' boxes (again when
    // the builder or the boxes change) under a top level over the VD
    // instances: the plan every two-level hierarchy follows. unified: the
    // object-space boxes only (objectMiddleBoxes), which the triangles'
    // BLASes take.
    sixteenths_ = o.pairCull ? cullSixteenths_.data() : nullptr;
    if (unified) {
        patchLevel_.reset();  // the patches' own hierarchy, when it was separate
        meshPatchBoxes_ = DeviceBuffer<Aabb>{};
        patchBoxOffset_.clear();
        if (!o.pairCull && objectPatchBoxes_.size() != numPatches_) {
            std::vector<Aabb> boxes(numPatches_);
            for (uint32_t k = 0; k < numPatches_; ++k) boxes[k] = flat.patches[k].box;
            objectPatchBoxes_.upload(boxes, stream);
        }
        return;
    }
    if (!patchLevel_) {
        patchLevel_ = std::make_unique<TopLevelGpu>(patchPlan(scene, flat));
        const InstancePlan& plan = patchLevel_->plan();
        std::vector<Aabb> boxes;  // the loose boxes of each static BLAS's patches (without vd.pair_cull)
        for (uint32_t k = 0; k < plan.numStatic; ++k) {
            patchBoxOffset_.push_back(uint32_t(boxes.size()));
            const uint32_t first = plan.blas[k].primBase, count = plan.meshes[plan.blas[k].mesh].prims;
            for (uint32_t p = 0; p < count; ++p) boxes.push_back(flat.patches[first + p].box);
        }
        meshPatchBoxes_.upload(boxes, stream);
    }
    const InstancePlan& plan = patchLevel_->plan();
    auto staticBoxes = [&](uint32_t k, const LaunchContext&) {
        const uint32_t first = plan.blas[k].primBase, count = plan.meshes[plan.blas[k].mesh].prims;
        return o.pairCull ? DeviceBoxes{cullQuadrants_.data() + (size_t(first) << boxShift_), count << boxShift_}
                          : DeviceBoxes{meshPatchBoxes_.data() + patchBoxOffset_[k], count};
    };
    const std::string key = staticBlasKey(accel, o.pairCull ? "cull " + std::to_string(cullLevel_) : "");
    patchLevel_->build(accel, key, staticBoxes, TopLevelFrame{&frame_.worldFromObject}, ctx);
    instances_ = patchLevel_->view();
}

UnifiedPatches VdGpu::objectMiddleBoxes() const {
    if (boxShift_) return {cullQuadrants_.data(), boxShift_, "vd quadrants " + std::to_string(cullLevel_)};
    return {objectPatchBoxes_.data(), 0, "vd loose boxes"};
}

void VdGpu::ensureCache(const VdOptions& o, cudaStream_t stream) {
    if (!o.treeCache) {  // off: its memory back
        cacheNodes_ = DeviceBuffer<VdNode>{};
        cacheGrids_ = DeviceBuffer<Vec3>{};
        cacheSlots_ = 0;
        cacheLevel_ = -1;
        return;
    }
    const bool grid = o.leaf == VdLeaf::Triangles;
    if (cacheSlots_ && cacheLevel_ == o.maxLevel && cacheGrid_ == grid) return;
    // New slots (the trees' finest level or their kind changed): every slot free.
    cacheSlots_ = vdTreeCacheSlots(numPatches_, o.maxLevel, grid);
    cacheLevel_ = o.maxLevel;
    cacheGrid_ = grid;
    cacheNodes_.resize(size_t(cacheSlots_) * vdNodeCount(o.maxLevel));
    if (grid)
        cacheGrids_.resize(size_t(cacheSlots_) * vdGridCount(o.maxLevel));
    else
        cacheGrids_ = DeviceBuffer<Vec3>{};
    cacheSlot_.resize(numPatches_);
    cacheHeld_.resize(numPatches_);
    cacheNext_.resize(1);
    STRATA_CUDA_CHECK(cudaMemsetAsync(cacheSlot_.data(), 0xff, cacheSlot_.bytes(), stream));
    STRATA_CUDA_CHECK(cudaMemsetAsync(cacheHeld_.data(), 0xff, cacheHeld_.bytes(), stream));
    STRATA_CUDA_CHECK(cudaMemsetAsync(cacheNext_.data(), 0, cacheNext_.bytes(), stream));
}

VdView VdGpu::view(const VdOptions& o, float angle, Vec3 camera, uint32_t rays, cudaStream_t stream) {
    const size_t want = vdPairCapacity(rays, mostPairs_);
    if (pairs_.size() < want) {
        pairs_.resize(want);
        sorted_.resize(want);
    }
    // A new frame: new levels, unless vd.freeze_lod keeps the last ones.
    if (!o.freezeLod) STRATA_CUDA_CHECK(cudaMemsetAsync(frozen_.data(), 0, numPatches_, stream));
    ensureWork(o.maxLevel, o.sharedTrees, o.leaf == VdLeaf::Triangles);
    VdView v;
    v.numPatches = numPatches_;
    v.patches = patches_.data();
    v.patchInstance = patchInstance_.data();
    v.objectFromWorld = objectFromWorld_.data();
    v.worldFromObject = worldFromObject_.data();
    v.maps = maps_.data();
    v.links = links_.data();
    v.patchLevel = frozen_.data();
    v.sixteenths = sixteenths_;
    v.boxes = boxes_.view(boxesTraversal_);
    v.instances = instances_;
    v.pairs = pairs_.data();
    v.pairCount = counts_.data();
    v.pairCapacity = uint32_t(pairs_.size());
    // Trees never finer than the cull boxes were made for (they are again
    // at the next prepare).
    vdViewOptions(v, o, angle, camera, boxShift_ ? std::min(o.maxLevel, cullLevel_) : o.maxLevel);
    splitJobs_ = o.splitJobs;
    ensureCache(o, stream);
    return v;
}

bool VdGpu::pairsFit(VdView& v, cudaStream_t stream) {
    STRATA_CUDA_CHECK(
        cudaMemcpyAsync(hostCounts_.data(), counts_.data(), 2 * sizeof(uint32_t), cudaMemcpyDeviceToHost, stream));
    STRATA_CUDA_CHECK(cudaStreamSynchronize(stream));
    appended_ = hostCounts_.data()[0];
    mostPairs_ = std::max(mostPairs_, appended_);
    if (appended_ <= v.pairCapacity) return true;
    const size_t want = vdPairCapacity(0, appended_);
    pairs_.resize(want);  // the old pairs are not kept: they are appended again
    sorted_.resize(want);
    v.pairs = pairs_.data();
    v.pairCapacity = uint32_t(want);
    STRATA_CUDA_CHECK(cudaMemsetAsync(counts_.data(), 0, counts_.bytes(), stream));
    appended_ = 0;
    return false;
}

void VdGpu::resolve(const VdView& v, const Ray* rays, HitRecord* hits, uint32_t* blocked, const LaunchContext& outer) {
    cudaStream_t stream = outer.stream;
    const uint32_t n = std::min(appended_, v.pairCapacity);  // all of them after pairsFit
    appended_ = 0;
    pairsResolved_ += n;
    launches_ = 0;
    if (n == 0) return;
    const LaunchContext ctx = outer.withTally(&launches_);
    {
        StageScope s(ctx.timer, "vd/sort");
        size_t bytes = 0;
        auto sort = [&](void* temp, cudaStream_t st) {
            return cub::DeviceRadixSort::SortKeys(temp, bytes, pairs_.data(), sorted_.data(), n, 32, 32 + patchBits_,
                                                  st);
        };
        STRATA_CUDA_CHECK(sort(nullptr, stream));
        if (sortTemp_.size() < bytes) sortTemp_.resize(bytes);
        countedLibraryCall(ctx, "vd/sort/pairs", sortLaunches_, n,
                           [&](cudaStream_t st) { return sort(sortTemp_.data(), st); });
        STRATA_CUDA_CHECK(cudaMemsetAsync(range_.data(), 0, range_.size() * sizeof(uint32_t), stream));
        launch(ctx, "vd/sort/ranges", perItem(n, 256), vdRangesKernel, sorted_.data(), n, range_.data());
    }
    {
        StageScope s(ctx.timer, "vd/bottom");
        // Levels per patch, then the jobs (a patch's rays in chunks).
        const uint32_t blocks = workShared_ ? sharedBlocks_ : blocks_;
        // vd.split_jobs false: one job per patch (Harada's work group per patch).
        const uint32_t jobRays = splitJobs_ ? vdJobRays(n, blocks) : 0xffffffffu;
        const size_t maxJobs = numPatches_ + n / jobRays + 1;
        if (jobs_.size() < maxJobs * sizeof(VdJob)) jobs_.resize(maxJobs * sizeof(VdJob));
        STRATA_CUDA_CHECK(cudaMemsetAsync(level_.data(), 0, level_.size() * sizeof(int), stream));
        STRATA_CUDA_CHECK(cudaMemsetAsync(job_.data(), 0, 3 * sizeof(uint32_t), stream));
        launch(ctx, "vd/bottom/levels", perItem(n, 256), vdLevelsKernel, v, sorted_.data(), n, rays, frozen_.data(),
               level_.data());
        VdJob* jobs = reinterpret_cast<VdJob*>(jobs_.data());
        launch(ctx, "vd/bottom/jobs", perItem(numPatches_, 256), vdJobsKernel, numPatches_, patches_.data(),
               range_.data(), level_.data(), v.maxLevel, jobRays, frozen_.data(), jobs, uint32_t(maxJobs), job_.data());
        const uint32_t perBlock = vdNodeCount(workLevel_), gridPerBlock = vdGridCount(workLevel_);
        const bool shared = workShared_;
        const LaunchShape shape{shared ? sharedBlocks_ : blocks_, kBottomBlock, shared ? vdTreeBytes(workLevel_) : 0};
        VdCacheView cache;
        if (cacheSlots_) {
            cache.nodes = cacheNodes_.data();
            cache.grids = cacheGrid_ ? cacheGrids_.data() : nullptr;
            cache.slot = cacheSlot_.data();
            cache.held = cacheHeld_.data();
            cache.next = cacheNext_.data();
            cache.range = range_.data();
            cache.slots = cacheSlots_;
            cache.nodesPerSlot = vdNodeCount(cacheLevel_);
            cache.gridPerSlot = cacheGrid_ ? vdGridCount(cacheLevel_) : 0;
        }
        auto bottom = [&](auto kernel) {
            launch(ctx, "vd/bottom/trees", shape, kernel, v, sorted_.data(), jobs, uint32_t(maxJobs), job_.data(), rays,
                   hits, blocked, work_.data(), perBlock, grid_.data(), gridPerBlock, job_.data() + 1, cache);
        };
        if (blocked)
            shared ? bottom(vdBottomKernel<true, true>) : bottom(vdBottomKernel<true, false>);
        else
            shared ? bottom(vdBottomKernel<false, true>) : bottom(vdBottomKernel<false, false>);
    }
    STRATA_CUDA_CHECK(cudaMemsetAsync(counts_.data(), 0, 2 * sizeof(uint32_t), stream));
}

size_t VdGpu::geometryBytes() const {
    size_t b = patches_.bytes() + patchInstance_.bytes() + maps_.bytes() + links_.bytes();
    for (const DeviceBuffer<Vec3>& m : mapTexels_) b += m.bytes();
    return b;
}

size_t VdGpu::memoryBytes() const {
    const size_t patchBlas =
        meshPatchBoxes_.bytes() + objectPatchBoxes_.bytes() + (patchLevel_ ? patchLevel_->memoryBytes() : 0);
    return patchBlas + cullQuadrants_.bytes() + cullSixteenths_.bytes() + worldSixteenths_.bytes() +
           objectFromWorld_.bytes() + worldFromObject_.bytes() + worldBoxes_.bytes() + boxes_.memoryBytes() +
           range_.bytes() + job_.bytes() + frozen_.bytes() + work_.bytes() + grid_.bytes() + level_.bytes() +
           cacheNodes_.bytes() + cacheGrids_.bytes() + cacheSlot_.bytes() + cacheHeld_.bytes() + cacheNext_.bytes() +
           jobs_.bytes();
}

size_t VdGpu::pairBytes() const { return pairs_.bytes() + sorted_.bytes() + counts_.bytes() + sortTemp_.bytes(); }

size_t VdGpu::estimatePairBytes(size_t rays) {
    // pairs, sorted, the sort's scratch at the starting size (they grow to
    // what the scene's rays need: vdPairCapacity)
    return vdPairCapacity(rays, 0) * sizeof(VdPair) * 3;
}

}  // namespace strata
