// render/vd_host.h — the host side of vd.mode direct, for both backends: the
// per-frame instance transforms and patch world boxes, and (CPU backend) the
// patch-box BVH, the pair buffer and steps 2-3 of the pipeline (sort by
// patch; per patch, in parallel: level, build, trace its rays).
#pragma once

#include <vector>

#include "accel/cpu/sah_builder.h"
#include "render/flat_scene.h"
#include "render/thread_pool.h"

namespace strata {

// The camera's angle per pixel (the LOD's footprint per unit distance).
float pixelAngle(const CameraView& cam, int height);

class VdHost {
public:
    // This frame's transforms and world boxes, and the BVH over the boxes.
    void prepare(const Scene& scene, const FlatScene& flat, float t);
    // Host pointers for the trace stages (valid until the next prepare/resolve).
    VdView view(const FlatScene& flat, const VdOptions& o, float pixelAngle, uint32_t rays);
    // Steps 2-3 for the pairs appended since the last call; rays are the
    // traced queue. Closest: hits get atomicMin'd; shadow: blocked[slot] = 1.
    void resolve(const VdView& v, const Ray* rays, HitRecord* hits, uint32_t* blocked, ThreadPool& pool);
    const VdFrameData& frame() const { return frame_; }
    uint64_t pairsResolved() const { return pairsResolved_; }
    uint64_t pairsDropped() const { return pairsDropped_; }
    size_t memoryBytes() const;

private:
    VdFrameData frame_;
    HostBvh boxes_;
    std::vector<VdPair> pairs_;
    uint32_t counts_[2] = {0, 0};
    uint32_t mostPairs_ = 0;  // the most pairs one resolve had
    std::vector<int8_t> frozen_;  // per patch: this frame's level (kept across frames with vd.freeze_lod; 0: none)
    uint64_t pairsResolved_ = 0, pairsDropped_ = 0;
};

}  // namespace strata
