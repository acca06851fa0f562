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

namespace strata {

class InstancedGpu {
public:
    InstancedGpu(const Scene& scene, const FlatScene& flat, const GpuScene& gpu);

    // This frame's structures; gpu's positions and triangle boxes must be
    // this frame's (GpuScene::animate, GpuScene::triangleBounds on ctx's stream).
    void build(float t, const AccelOptions& o, const LaunchContext& ctx);
    TwoLevelView view() const { return top_.view(); }
    size_t memoryBytes() const;
    // Middle-level structures: one per static mesh plus one per deforming instance.
    size_t numBlas() const { return top_.plan().blas.size(); }

    // Device bytes for a scene (before allocating): the BLASes and the top level.
    static size_t estimateBytes(const Scene& scene, const FlatScene& flat);

private:
    const Scene& scene_;
    const FlatScene& flat_;
    const GpuScene& gpu_;
    TopLevelGpu top_;
    std::vector<uint32_t> staticTriOffset_;  // per static BLAS: its first triangle in meshTris_
    DeviceBuffer<Tri> meshTris_;             // static meshes' triangles, mesh-local vertex indices
    DeviceBuffer<Aabb> objectBounds_;        // scratch: one static mesh's triangle boxes
    std::vector<BlasGeometry> geometry_;
};

}  // namespace strata
