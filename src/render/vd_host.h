// render/vd_host.h — vd.mode direct on the CPU backend: the per-frame
// instance transforms, the structure the pair generation walks (flat mode:
// the BVH over the patches' world boxes; instanced mode: a BLAS per VD mesh
// over its patches' object-space boxes under a top level over the VD
// instances), the pair buffer and steps 2-3 of the pipeline (sort by patch;
// per patch, in parallel: level, build, trace its rays).
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "accel/host_accel.h"
#include "accel/toplevel/top_level_host.h"

#include "accel/cpu/sah_builder.h"
#include "render/flat_scene.h"
#include "render/instancing.h"
#include "core/parallel.h"

namespace strata {

// The camera's angle per pixel (the LOD's footprint per unit distance).
float pixelAngle(const CameraView& cam, int height);

class VdHost {
public:
    // This frame's transforms and the structure the pair generation walks
    // (as VdGpu::prepare, built by accel.builder: the CPU's SAH reference
    // for a builder that is not an LBVH): flat mode a tree over the patches'
    // world boxes; instanced mode (viaInstances) a BLAS per VD mesh over its
    // patches' object-space boxes and a top level over the VD instances.
    // unified (vd.middle_level): the boxes only, no tree of their own (flat
    // mode: middleBoxes; instanced mode: objectMiddleBoxes, for each VD
    // mesh's BLAS).
    void prepare(const Scene& scene, const FlatScene& flat, const VdOptions& o, float t, const AccelOptions& accel,
                 bool viaInstances, bool unified = false);
    // Flat mode: this frame's middle-level primitives (world boxes of the
    // patches or of their quadrants), in the order pairs name them.
    const std::vector<Aabb>& middleBoxes() const { return boxShift_ ? worldQuadrants_ : frame_.worldBoxes; }
    // Instanced mode, unified: the same per flat patch in object space (after prepare).
    UnifiedPatches objectMiddleBoxes() const;
    // Host pointers for the trace stages (valid until the next prepare/resolve).
    VdView view(const FlatScene& flat, const VdOptions& o, float pixelAngle, Vec3 camera, uint32_t rays);
    // Whether the pairs appended since the last resolve fit (else the buffer
    // grows, v points at it, the count restarts and the caller appends the
    // same pairs again: vdPairCapacity in vd_view.h).
    bool pairsFit(VdView& v);
    // Steps 2-3 for the pairs appended since the last call; rays are the
    // traced queue. Closest: hits get atomicMin'd (blocked null); any hit:
    // blocked[slot] = 1, for a hit before the ray's tmax and, when hits is
    // given, before its hit's distance (vdOcclusionOnly).
    void resolve(const VdView& v, const Ray* rays, HitRecord* hits, uint32_t* blocked, ThreadPool& pool);
    const VdFrameData& frame() const { return frame_; }
    uint64_t pairsResolved() const { return pairsResolved_; }
    size_t memoryBytes() const;  // the structure the pairs come from, cull boxes, levels
    size_t pairBytes() const;    // the pair buffer (sized by the image)

private:
    VdFrameData frame_;
    HostAccel boxes_;
    BvhView boxesView_;
    // Instanced mode (see prepare): the patches' two-level hierarchy.
    std::unique_ptr<TopLevelHost> patchLevel_;
    bool viaInstances_ = false;
    std::vector<Aabb> objectPatchBoxes_;  // instanced mode, unified: per flat patch its loose box
    // vd.pair_cull: vdCullTable at cullLevel_; in world space this frame (flat
    // mode); the sixteenths the view points at.
    VdCullTable cull_;
    std::vector<Aabb> worldQuadrants_, worldSixteenths_;
    const Aabb* sixteenths_ = nullptr;
    int cullLevel_ = -1, boxShift_ = 0;
    std::vector<VdPair> pairs_;
    uint32_t counts_[2] = {0, 0};
    uint32_t mostPairs_ = 0;      // the most pairs one resolve had
    std::vector<int8_t> frozen_;  // per patch: this frame's level (kept across frames with vd.freeze_lod; 0: none)
    // vd.tree_cache (as VdGpu's): cacheSlots_ slots, each a tree and (strata's
    // leaves) its grid once filled; per patch its slot (-1: none) and the
    // level that slot holds (-1: none).
    uint32_t cacheSlots_ = 0;
    int cacheLevel_ = -1;
    bool cacheGrid_ = false;
    std::vector<std::vector<VdNode>> slotNodes_;
    std::vector<std::vector<Vec3>> slotGrid_;
    std::vector<int32_t> cacheSlot_;
    std::vector<int8_t> cacheHeld_;
    std::atomic<uint32_t> cacheNext_{0};
    uint64_t pairsResolved_ = 0;
};

}  // namespace strata
