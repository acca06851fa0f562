// render/vd_gpu.h — vd.mode direct on the GPU (Harada's pipeline): the
// patches, maps and link table in device memory, this frame's transforms and
// the LBVH over the patches' world boxes (vd.pair_cull: their quadrants'
// boxes, with the sixteenths' beside them), the pair buffer, and steps 2-3 as
// kernels: CUB radix sort of the pairs by patch, each patch's range found, and
// the bottom kernel — persistent blocks, as many as fill the GPU, each taking
// the next patch, choosing its level from its rays' footprints, building the
// patch's quad BVH level by level in a buffer of its own (shared memory up to
// level 5, else global memory), then tracing the patch's rays one per thread
// with the shared link table (vd.tree_cache: a patch's tree, once built, is
// kept for later ray casts at the same level).
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <string>
#include <vector>

#include "accel/lbvh/lbvh_gpu.h"
#include "accel/toplevel/top_level_gpu.h"
#include "gpu/device_buffer.h"
#include "gpu/launch_context.h"
#include "gpu/pinned_buffer.h"
#include "render/flat_scene.h"
#include "render/instancing.h"

namespace strata {

class VdGpu {
public:
    explicit VdGpu(const Scene& scene, const FlatScene& flat);
    // This frame's transforms (posed on the host: one per instance) and the
    // structure the pair generation walks, built by accel.builder's LBVH
    // variant (Karras for the kd-tree) and walked with accel.traversal. Flat
    // mode: the patches' world boxes and a tree over them, every frame.
    // Instanced mode (viaInstances): one object-space BLAS per VD mesh over
    // its patches' boxes (again when the builder changes), the VD instances'
    // world boxes and a top-level LBVH over them.
    // unified (vd.middle_level): the boxes only, no tree of their own: the
    // caller puts them in the triangles' (flat mode: middleBoxes; instanced
    // mode: objectMiddleBoxes, in each VD mesh's BLAS).
    void prepare(const Scene& scene, const FlatScene& flat, const VdOptions& o, float t, const LaunchContext& ctx,
                 const AccelOptions& accel, bool viaInstances, bool unified = false);
    // Flat mode: this frame's middle-level primitives (world boxes of the
    // patches or of their quadrants), in the order pairs name them.
    DeviceBoxes middleBoxes() const { return {worldBoxes_.data(), numPatches_ << boxShift_}; }
    // Instanced mode, unified: the same per flat patch in object space (after prepare).
    UnifiedPatches objectMiddleBoxes() const;
    VdView view(const VdOptions& o, float pixelAngle, Vec3 camera, uint32_t rays, cudaStream_t stream);
    // Whether the pairs appended since the last resolve fit the buffers
    // (reads their count back: one synchronisation). When they did not, the
    // buffers grow to hold them and a quarter more, v points at the new ones
    // and the count restarts: the caller appends the same pairs again. No
    // pair is ever dropped; the buffers start at kVdStartPairsPerRay pairs
    // per ray and keep the most any resolve needed.
    bool pairsFit(VdView& v, cudaStream_t stream);
    // Steps 2-3 over the pairs appended since the last call (after
    // pairsFit). Closest: hits (blocked null); any
    // hit: blocked, before each ray's tmax and, when hits is given, before
    // its hit's distance (vdOcclusionOnly).
    // Stages vd/sort and vd/bottom.
    void resolve(const VdView& v, const Ray* rays, HitRecord* hits, uint32_t* blocked, const LaunchContext& ctx);
    uint64_t pairsResolved() const { return pairsResolved_; }
    uint32_t lastLaunches() const { return launches_; }
    uint32_t workBlocks() const { return blocks_; }  // bottom kernel blocks with a work buffer (above level 5)
    size_t memoryBytes() const;    // the structure: patch-box BVH or patch hierarchy, per-block trees, levels, jobs
    size_t geometryBytes() const;  // patches, maps, links
    size_t pairBytes() const;      // pair buffers and the sort's scratch (sized by the image)
    // The pair buffers for an image of `rays` pixels (the rest: render/vd_memory.h).
    static size_t estimatePairBytes(size_t rays);

private:
    void ensureWork(int maxLevel, bool sharedTrees, bool grids);
    void ensureCache(const VdOptions& o, cudaStream_t stream);
    uint32_t numPatches_ = 0;
    int patchBits_ = 1;
    DeviceBuffer<VdPatch> patches_;
    DeviceBuffer<uint32_t> patchInstance_;
    std::vector<DeviceBuffer<Vec3>> mapTexels_;
    DeviceBuffer<TextureView> maps_;
    DeviceBuffer<uint32_t> links_;
    // vd.pair_cull: vdCullTable at cullLevel_ (object space); the sixteenths in
    // world space this frame (flat mode); what the view points at.
    DeviceBuffer<Aabb> cullQuadrants_, cullSixteenths_, worldSixteenths_;
    const Aabb* sixteenths_ = nullptr;
    int cullLevel_ = -1, boxShift_ = 0;
    VdFrameData frame_;  // host side of this frame
    DeviceBuffer<Affine> objectFromWorld_, worldFromObject_;
    DeviceBuffer<Aabb> worldBoxes_;  // flat mode: the middle level's primitives in world space
    LbvhBuilder boxes_;
    BvhTraversal boxesTraversal_ = BvhTraversal::Stack;
    // Instanced mode: the patches' two-level hierarchy (per VD mesh a BLAS
    // over its patches, per VD instance a member of the top level).
    std::unique_ptr<TopLevelGpu> patchLevel_;
    std::vector<uint32_t> patchBoxOffset_;  // per static BLAS: its boxes in meshPatchBoxes_
    DeviceBuffer<Aabb> meshPatchBoxes_;
    DeviceBuffer<Aabb> objectPatchBoxes_;  // instanced mode, unified: per flat patch its loose box
    TwoLevelView instances_;
    DeviceBuffer<VdPair> pairs_, sorted_;
    DeviceBuffer<uint32_t> counts_;  // [0] appended, [1] dropped
    DeviceBuffer<uint32_t> range_;   // per patch: begin, end
    DeviceBuffer<uint32_t> job_;
    DeviceBuffer<int> level_;           // per patch, this resolve
    DeviceBuffer<unsigned char> jobs_;  // VdJob records
    DeviceBuffer<int8_t> frozen_;       // per patch: this frame's level (kept across frames with vd.freeze_lod)
    DeviceBuffer<VdNode> work_;         // per block: a tree
    DeviceBuffer<Vec3> grid_;           // per block: its displaced grid
    DeviceBuffer<unsigned char> sortTemp_;
    PinnedBuffer<uint32_t> hostCounts_;  // counts_, read back before each resolve
    int workLevel_ = 0;                  // the trees' finest level this frame (vd.max_level)
    bool workShared_ = true;             // this frame's trees in shared memory (vd.shared_trees, level <= 5)
    bool splitJobs_ = true;              // vd.split_jobs this frame
    // vd.tree_cache: cacheSlots_ kept trees of vdNodeCount(cacheLevel_) nodes
    // and (strata's leaves) their grids; per patch its slot (-1: none) and the
    // level the slot holds (-1: none, or being written); the next free slot.
    DeviceBuffer<VdNode> cacheNodes_;
    DeviceBuffer<Vec3> cacheGrids_;
    DeviceBuffer<int32_t> cacheSlot_;
    DeviceBuffer<int8_t> cacheHeld_;
    DeviceBuffer<uint32_t> cacheNext_;
    uint32_t cacheSlots_ = 0;
    int cacheLevel_ = -1;
    bool cacheGrid_ = false;
    uint32_t sharedBlocks_ = 0;  // bottom kernel blocks with the tree in shared memory (level <= 5)
    uint32_t blocks_ = 0, mostPairs_ = 0, launches_ = 0;
    LibraryLaunchCount sortLaunches_;  // CUB's kernels per pair sort, for the last size
    uint32_t appended_ = 0;  // pairsFit's count
    uint64_t pairsResolved_ = 0;

public:
    VdGpu(const VdGpu&) = delete;
    VdGpu& operator=(const VdGpu&) = delete;
};

}  // namespace strata
