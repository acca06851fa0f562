// render/instancing.h — the scene's instances as the accel layer's plans
// (accel/toplevel/instance_plan.h): instanced mode's triangle meshes, and the
// VD meshes' patches; and instanced mode on the CPU backend (InstancedHost:
// the scene's inputs for TopLevelHost, which builds). The CUDA backend's
// counterpart is render/instanced_gpu.h.
#pragma once

#include <memory>
#include <vector>

#include "accel/toplevel/instance_plan.h"
#include "accel/toplevel/top_level_host.h"
#include "render/flat_scene.h"

namespace strata {

class HostStageClock;

// Each mesh's triangles per instance, deforming or not, its object box
// from its rest positions; each instance's first flat triangle.
InstancePlan trianglePlan(const Scene& scene, const FlatScene& flat);
// Each VD mesh's patches per instance (static, object space), its object
// box the union of its patches' loose boxes; each instance's first patch.
InstancePlan patchPlan(const Scene& scene, const FlatScene& flat);
// Every instance's transform at scene time t.
std::vector<Affine> instanceTransforms(const Scene& scene, float t);

class InstancedHost {
public:
    // worldPos / worldBounds: this frame's flat posed vertices and triangle
    // boxes (poseFlatScene, triangleBounds). With a clock, the BLASes are
    // timed as build/blas and the top level as build/top, as on the GPU.
    void build(const Scene& scene, const FlatScene& flat, const std::vector<Vec3>& worldPos,
               const std::vector<Aabb>& worldBounds, float t, const AccelOptions& o,
               HostStageClock* clock = nullptr);
    TwoLevelView view() const { return top_ ? top_->view() : TwoLevelView{}; }
    size_t memoryBytes() const { return top_ ? top_->memoryBytes() : 0; }

private:
    std::unique_ptr<TopLevelHost> top_;  // made at the first build
    std::vector<Affine> transforms_;
    std::vector<BlasGeometry> geometry_;
};

}  // namespace strata
