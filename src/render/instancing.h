// render/instancing.h — the scene's instances as the accel layer's plans
// (accel/toplevel/instance_plan.h): instanced mode's triangle meshes, and the
// VD meshes' patches; and instanced mode on the CPU backend (InstancedHost:
// the scene's inputs for TopLevelHost, which builds). The CUDA backend's
// counterpart is render/instanced_gpu.h.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "accel/toplevel/instance_plan.h"
#include "accel/toplevel/top_level_host.h"
#include "render/flat_scene.h"

namespace strata {

class HostStageClock;

// vd.middle_level unified in instanced mode (Harada's one middle level): each
// VD mesh's BLAS holds its patches' middle-level boxes after its triangles,
// and one top level holds every instance. What the VD side gives for it
// (VdHost / VdGpu::objectMiddleBoxes).
struct UnifiedPatches {
    const Aabb* boxes = nullptr;  // per flat patch 1 << shift object-space boxes (host or device memory)
    int shift = 0;                // kVdQuadrantShift with vd.pair_cull (its quadrants' boxes), else 0 (its loose box)
    std::string key;              // what the boxes depend on: the static BLASes are built again when it changes
};

// Each mesh's triangles per instance, deforming or not, its object box
// from its rest positions; each instance's first flat triangle. With
// unified patches (their shift; VD meshes are static), a VD mesh's patch
// boxes follow its triangles in its primitives and its object box.
InstancePlan trianglePlan(const Scene& scene, const FlatScene& flat, const UnifiedPatches* unified = nullptr);
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
    // unified: the VD meshes' BLASes hold their patch boxes too (the plan is
    // made again when it starts or stops, or its shift changes).
    void build(const Scene& scene, const FlatScene& flat, const std::vector<Vec3>& worldPos,
               const std::vector<Aabb>& worldBounds, float t, const AccelOptions& o,
               HostStageClock* clock = nullptr, const UnifiedPatches* unified = nullptr);
    TwoLevelView view() const { return top_ ? top_->view() : TwoLevelView{}; }
    // accel.rebuild = refit | auto: the deforming instances' BLASes (named after the instances).
    std::vector<BlasRefit> blasRefits(const Scene& scene, const AccelOptions& o) const;
    // A frame in flat mode came between: the next build builds every deforming BLAS.
    void restartRefits() {
        if (top_) top_->restartRefits();
    }
    size_t memoryBytes() const { return top_ ? top_->memoryBytes() : 0; }

private:
    std::unique_ptr<TopLevelHost> top_;  // made at the first build
    int topShift_ = -1;                  // the plan's unified patch shift, -1: triangles only
    std::vector<Affine> transforms_;
    std::vector<BlasGeometry> geometry_;
};

}  // namespace strata
