#include "render/gpu_structures.h"

#include "accel/lbvh/lbvh_variant.h"
#include "render/kd_config.h"

namespace strata {

void GpuStructures::build(const Scene& scene, const FlatScene& flat, GpuScene& gpu, const AccelOptions& o, float t,
                          const LaunchContext& ctx) {
    if (o.builder == Builder::KdTree) {  // it boxes the triangles itself
        kd_.build(gpu.positions(), gpu.triangles(), gpu.numTris(), kdConfigOf(o), ctx);
        return;
    }
    gpu.triangleBounds(ctx);
    if (o.mode == AccelMode::Instanced) {
        if (!instanced_) instanced_ = std::make_unique<InstancedGpu>(scene, flat, gpu);
        instanced_->build(t, o, ctx);
    } else {
        const LbvhConfig config{lbvhVariantOf(o), o.mortonBits};
        const bool refits = o.rebuild == Rebuild::Refit || o.rebuild == Rebuild::Auto;
        const bool auto_ = o.rebuild == Rebuild::Auto;
        const float growth = auto_ ? lbvh_.sahGrowth() : 0.0f;
        if (refits && lbvh_.canRefit(config, gpu.numTris()) && !(auto_ && growth > o.refitGrowth))
            lbvh_.refit(gpu.bounds(), ctx);
        else
            lbvh_.build(config, gpu.bounds(), gpu.numTris(), ctx);
        if (auto_) lbvh_.measureSah(ctx);  // read a frame or so later
        refit_ = RefitStatus{lbvh_.refitsSinceBuild(), lbvh_.refitsSinceBuild() ? growth : 0.0f};
    }
}

SceneView GpuStructures::view(const GpuScene& gpu, const AccelOptions& o, const CameraView& cam) const {
    const bool kd = o.builder == Builder::KdTree;
    const bool instanced = o.mode == AccelMode::Instanced && instanced_;
    SceneView sv = gpu.view(kd || instanced ? BvhView{} : lbvh_.view(traversalOf(o)), cam);
    if (kd)
        sv.kd = kd_.view();
    else if (instanced)
        sv.tl = instanced_->view();
    return sv;
}

size_t GpuStructures::memoryBytes() const {
    return lbvh_.memoryBytes() + kd_.memoryBytes() + (instanced_ ? instanced_->memoryBytes() : 0);
}

}  // namespace strata
