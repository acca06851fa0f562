// render/instanced_gpu.h — instanced mode on the CUDA backend (accel.mode =
// instanced): the device counterpart of render/instanced_host.h, traced
// through the same TwoLevelView (accel/two_level.h).
//
//   static meshes      one object-space BLAS each (the LBVH variant of
//                      accel.builder), shared by all their instances, built
//                      again only when the builder or the Morton bits change
//   deforming instances one world-space BLAS each over this frame's posed
//                      triangles (GpuScene's flat triangle boxes), every frame
//   top level          the instances' world boxes (static: the transformed
//                      object box, on the host; deforming: one reduction
//                      block each over their triangle boxes) and a Karras
//                      LBVH over them, every frame
//
// Instances of meshes without triangles (a VD mesh traced directly has only
// patches) are left out of the top level.
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <string>
#include <vector>

#include "accel/lbvh/lbvh_gpu.h"
#include "accel/two_level.h"
#include "gpu/device_buffer.h"
#include "render/gpu_scene.h"

namespace strata {

class InstancedGpu {
public:
    InstancedGpu(const Scene& scene, const FlatScene& flat, const GpuScene& gpu);

    // This frame's structures; gpu's positions and triangle boxes must be
    // this frame's (GpuScene::animate, GpuScene::triangleBounds on `stream`).
    // Stages build/blas (the BLAS builds' phases add up in the LBVH's own
    // stages) and build/top.
    void build(float t, const AccelOptions& o, const LaunchContext& ctx);
    TwoLevelView view() const { return view_; }
    size_t memoryBytes() const;
    // Middle-level structures: one per static mesh plus one per deforming instance.
    size_t numBlas() const { return staticBlas_.size() + deformBlas_.size(); }

    // Device bytes for a scene (before allocating): the BLASes and the top level.
    static size_t estimateBytes(const Scene& scene);

private:
    struct Member {             // one instance in the top level
        uint32_t instance = 0;  // index in scene.instances
        int32_t staticMesh = -1;  // >= 0: index into staticBlas_; else a deforming instance
        uint32_t deformSlot = 0;  // deforming: index into deformBlas_
    };
    struct StaticMesh {
        uint32_t mesh = 0, triOffset = 0, numTris = 0;  // triOffset into meshTris_
        Aabb objectBox;
    };

    const Scene& scene_;
    const FlatScene& flat_;
    const GpuScene& gpu_;
    std::vector<Member> members_;
    std::vector<StaticMesh> statics_;
    std::vector<std::unique_ptr<LbvhBuilder>> staticBlas_, deformBlas_;
    DeviceBuffer<Tri> meshTris_;          // static meshes' triangles, mesh-local vertex indices
    DeviceBuffer<Aabb> objectBounds_;     // scratch: one static mesh's triangle boxes
    DeviceBuffer<uint32_t> boxJobs_;      // deforming members: (first triangle, count, top slot)
    DeviceBuffer<Aabb> instanceBoxes_;    // per member, world space
    DeviceBuffer<InstanceView> instances_;
    DeviceBuffer<BlasView> blas_;
    LbvhBuilder top_;
    std::string staticKey_;
    TwoLevelView view_;
};

}  // namespace strata
