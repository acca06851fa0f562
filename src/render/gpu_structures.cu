#include "render/gpu_structures.h"

#include "accel/kdtree/kd_config.h"
#include "accel/lbvh/lbvh_variant.h"
#include "accel/leaf_tris_gpu.h"

namespace strata {

void GpuStructures::build(const Scene& scene, const FlatScene& flat, GpuScene& gpu, const AccelOptions& o, float t,
                          const LaunchContext& ctx, DeviceBoxes vdBoxes, const UnifiedPatches* vdObject) {
    if (o.mode == AccelMode::Flat && instanced_) instanced_->restartRefits();  // its BLASes miss this frame
    if (o.builder == Builder::KdTree && o.mode == AccelMode::Flat) {  // it boxes the triangles itself
        kd_.build(gpu.positions(), gpu.triangles(), gpu.numTris(), kdConfigOf(o), ctx);
        return;
    }
    gpu.triangleBounds(ctx);
    if (o.mode == AccelMode::Instanced) {  // any builder (the kd-tree's BLASes are kd-trees)
        if (!instanced_ || instanced_->unifiedShift() != (vdObject ? vdObject->shift : -1))  // a plan of its own
            instanced_ = std::make_unique<InstancedGpu>(scene, flat, gpu, vdObject);
        instanced_->build(t, o, ctx, vdObject);
        refit_ = RefitStatus{};
        if (o.rebuild == Rebuild::Refit || o.rebuild == Rebuild::Auto) {  // names and growths only where shown
            refit_.blas = instanced_->blasRefits(o);
            const BlasRefit summary = blasRefitSummary(refit_.blas);
            refit_.refits = summary.refits;
            refit_.sahGrowth = summary.sahGrowth;
        }
    } else {
        const LbvhConfig config = lbvhConfigOf(o);
        const bool refits = o.rebuild == Rebuild::Refit || o.rebuild == Rebuild::Auto;
        const bool auto_ = o.rebuild == Rebuild::Auto;
        const float growth = auto_ ? lbvh_.sahGrowth() : 0.0f;
        builtBounds_ = DeviceBoxes{gpu.bounds(), gpu.numTris()};
        if (vdBoxes.count) {  // one tree over the triangles and the patch boxes
            const uint32_t n = gpu.numTris() + vdBoxes.count;
            if (unified_.size() < n) unified_.resize(n);
            STRATA_CUDA_CHECK(cudaMemcpyAsync(unified_.data(), gpu.bounds(), gpu.numTris() * sizeof(Aabb),
                                              cudaMemcpyDeviceToDevice, ctx.stream));
            STRATA_CUDA_CHECK(cudaMemcpyAsync(unified_.data() + gpu.numTris(), vdBoxes.boxes,
                                              vdBoxes.count * sizeof(Aabb), cudaMemcpyDeviceToDevice, ctx.stream));
            builtBounds_ = DeviceBoxes{unified_.data(), n};
        }
        if (refits && lbvh_.canRefit(config, builtBounds_.count) && !(auto_ && growth > o.refitGrowth))
            lbvh_.refit(builtBounds_.boxes, ctx);
        else
            lbvh_.build(config, builtBounds_.boxes, builtBounds_.count, ctx);
        if (auto_) lbvh_.measureSah(ctx);  // read a frame or so later
        // accel.width = 8 (not over the unified middle level's tree, which
        // holds patch boxes: unavailable() refuses the pair); at width 2 the
        // wide tree's memory is given back.
        wideBuilt_ = o.width == BvhWidth::Eight && !vdBoxes.count;
        if (wideBuilt_)
            wide_.collapse(lbvh_.view(), o.wideCollapse, ctx);
        else
            wide_.release();
        // accel.copy_leaf_tris: where a stack traversal reads the leaves and
        // all of them are triangles; in the order of the tree traced (the
        // wide tree's leaf entries are the binary tree's, regrouped).
        leafTrisCopied_ = copiesLeafTris(o, vdBoxes.count > 0);
        if (leafTrisCopied_) {
            const uint32_t n = gpu.numTris();
            leafTris_.resize(n);
            const uint32_t* order = wideBuilt_ ? wide_.view().primIndex : lbvh_.view().primIndex;
            copyLeafTrisGpu(order, gpu.triangles(), gpu.positions(), n, leafTris_.data(), ctx);
        } else {
            leafTris_.release();
        }
        refit_ = RefitStatus{lbvh_.refitsSinceBuild(), lbvh_.refitsSinceBuild() ? growth : 0.0f, {}};
    }
}

SceneView GpuStructures::view(const GpuScene& gpu, const AccelOptions& o, const CameraView& cam) const {
    const bool instanced = o.mode == AccelMode::Instanced && instanced_;
    const bool kd = o.builder == Builder::KdTree && !instanced;
    SceneView sv = gpu.view(kd || instanced ? BvhView{} : lbvh_.view(traversalOf(o)), cam);
    if (instanced)
        sv.tl = instanced_->view();
    else if (kd)
        sv.kd = kd_.view();
    else if (o.width == BvhWidth::Eight && wideBuilt_) {
        sv.wide = wide_.view();
        if (leafTrisCopied_) sv.wide.leafTris = leafTris_.data();
    } else if (leafTrisCopied_ && !wideBuilt_)  // (a copy in the binary tree's order)
        sv.bvh.leafTris = leafTris_.data();
    return sv;
}

size_t GpuStructures::memoryBytes() const {
    return lbvh_.memoryBytes() + kd_.memoryBytes() + wide_.memoryBytes() + leafTris_.bytes() +
           (instanced_ ? instanced_->memoryBytes() : 0) + unified_.bytes();
}

}  // namespace strata
