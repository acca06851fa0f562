// render/instanced_gpu.h — instanced mode on the CUDA backend (accel.mode =
// instanced): the scene's inputs for TopLevelGpu (accel/toplevel), which
// builds the hierarchy render/instancing.h plans. Static meshes' object-space
// triangle boxes come from their rest positions (made when the static BLASes
// are built again); deforming instances' from GpuScene's flat triangle boxes
// of this frame. Traced through the same TwoLevelView as the CPU backend's.
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <vector>

#include "accel/toplevel/top_level_gpu.h"
#include "gpu/device_buffer.h"
#include "render/gpu_scene.h"
#include "render/instancing.h"

namespace strata {

class InstancedGpu {
public:
    // unified (vd.middle_level unified): the VD meshes' BLASes hold their
    // patch boxes after their triangles (render/instancing.h); its boxes are
    // read at each build, its shift is the plan's (unifiedShift).
    InstancedGpu(const Scene& scene, const FlatScene& flat, const GpuScene& gpu,
                 const UnifiedPatches* unified = nullptr);

    // This frame's structures; gpu's positions and triangle boxes must be
    // this frame's (GpuScene::animate, GpuScene::triangleBounds on ctx's
    // stream), and unified's boxes (device memory) when the plan has them.
    void build(float t, const AccelOptions& o, const LaunchContext& ctx, const UnifiedPatches* unified = nullptr);
    int unifiedShift() const { return unifiedShift_; }  // -1: triangles only
    TwoLevelView view() const { return top_.view(); }
    size_t memoryBytes() const;
    // Middle-level structures: one per static mesh plus one per deforming instance.
    size_t numBlas() const { return top_.plan().blas.size(); }
    // accel.rebuild = refit | auto: the deforming instances' BLASes, named after the instances.
    std::vector<BlasRefit> blasRefits(const AccelOptions& o);
    // A frame in flat mode came between: the next build builds every deforming BLAS.
    void restartRefits() { top_.restartRefits(); }

    // Device bytes for a scene (before allocating): the BLASes and the top level.
    static size_t estimateBytes(const Scene& scene, const FlatScene& flat, const UnifiedPatches* unified = nullptr);

private:
    const Scene& scene_;
    const FlatScene& flat_;
    const GpuScene& gpu_;
    TopLevelGpu top_;
    std::vector<uint32_t> staticTriOffset_;  // per static BLAS: its first triangle in meshTris_
    DeviceBuffer<Tri> meshTris_;             // static meshes' triangles, mesh-local vertex indices
    DeviceBuffer<Aabb> objectBounds_;        // scratch: one static mesh's triangle (and patch) boxes
    int unifiedShift_ = -1;
    std::vector<BlasGeometry> geometry_;
};

}  // namespace strata
