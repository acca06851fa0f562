// render/gpu_structures.h — the frame's structure on the GPU for the options:
// the kd-tree (Zhou08 with Table 13.1's [A]-[E] and strata's switches),
// instanced mode's two levels, or the flat LBVH of accel.builder's variant
// (collapsed 8 wide with accel.width = 8), built over GpuScene's posed
// triangles and viewed for tracing. One place for
// the CUDA renderer and check/gpu_probe.
#pragma once

#include <memory>

#include "accel/kdtree/kd_gpu.h"
#include "accel/lbvh/lbvh_gpu.h"
#include "accel/leaf_tris.h"
#include "accel/wide/cwbvh_gpu.h"
#include "render/gpu_scene.h"
#include "render/instanced_gpu.h"
#include "render/renderer.h"

namespace strata {

class GpuStructures {
public:
    // Builds what o names over gpu's positions of this frame (GpuScene::animate
    // on ctx's stream); the caller opens the "build" stage. vd.middle_level
    // unified: vdBoxes (flat mode) are the VD patches' middle-level boxes in
    // world space, primitives numTris on in the same tree; vdObject
    // (instanced mode) their object-space boxes, which each VD mesh's BLAS
    // takes after its triangles.
    void build(const Scene& scene, const FlatScene& flat, GpuScene& gpu, const AccelOptions& o, float t,
               const LaunchContext& ctx, DeviceBoxes vdBoxes = {}, const UnifiedPatches* vdObject = nullptr);
    // The primitives' boxes the flat LBVH was last built over (the
    // triangles', then any VD boxes) and how many.
    DeviceBoxes flatBounds() const { return builtBounds_; }
    // The last build as the trace stages see it, for the options o.
    SceneView view(const GpuScene& gpu, const AccelOptions& o, const CameraView& cam) const;
    const LbvhBuilder& lbvh() const { return lbvh_; }
    const KdGpuBuilder& kd() const { return kd_; }
    const CwbvhGpu& wide() const { return wide_; }
    size_t memoryBytes() const;
    // accel.rebuild = refit | auto: the flat tree's refits and SAH growth.
    RefitStatus refitStatus() const { return refit_; }

private:
    RefitStatus refit_;
    DeviceBuffer<Aabb> unified_;  // vd.middle_level unified: triangles' then patches' boxes
    DeviceBoxes builtBounds_;
    LbvhBuilder lbvh_;
    KdGpuBuilder kd_;
    CwbvhGpu wide_;
    DeviceBuffer<LeafTri> leafTris_;  // accel.copy_leaf_tris (accel/leaf_tris.h)
    bool leafTrisCopied_ = false;     // for the last flat build
    bool wideBuilt_ = false;                   // the last flat build was collapsed
    std::unique_ptr<InstancedGpu> instanced_;  // made when accel.mode is first instanced
};

}  // namespace strata
