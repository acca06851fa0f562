#include "render/instanced_gpu.h"

#include "render/instancing.h"

namespace strata {

InstancedGpu::InstancedGpu(const Scene& scene, const FlatScene& flat, const GpuScene& gpu,
                           const UnifiedPatches* unified)
    : scene_(scene), flat_(flat), gpu_(gpu), top_(trianglePlan(scene, flat, unified)),
      unifiedShift_(unified ? unified->shift : -1) {
    const InstancePlan& plan = top_.plan();
    std::vector<Tri> tris;
    uint32_t maxPrims = 0;
    for (uint32_t b = 0; b < plan.numStatic; ++b) {
        const Mesh& mesh = scene.meshes[plan.blas[b].mesh];
        staticTriOffset_.push_back(uint32_t(tris.size()));
        tris.insert(tris.end(), mesh.triangles.begin(), mesh.triangles.end());
        maxPrims = std::max(maxPrims, plan.meshes[plan.blas[b].mesh].prims);
    }
    meshTris_.upload(tris);
    objectBounds_.resize(maxPrims);
    geometry_.assign(plan.blas.size(), BlasGeometry{});
    for (size_t b = 0; b < plan.blas.size(); ++b) {
        const InstancePlan::Blas& x = plan.blas[b];
        if (x.instance < 0)  // a static mesh: its rest positions, in object space
            geometry_[b] = {gpu.restPositions(x.mesh), meshTris_.data() + staticTriOffset_[b]};
        else  // a deforming instance: the frame's posed flat vertices
            geometry_[b] = {gpu.positions(), gpu.triangles() + flat.instanceTriOffset[size_t(x.instance)]};
    }
    STRATA_CUDA_CHECK(cudaDeviceSynchronize());
}

size_t InstancedGpu::estimateBytes(const Scene& scene, const FlatScene& flat, const UnifiedPatches* unified) {
    const InstancePlan plan = trianglePlan(scene, flat, unified);
    const AccelOptions& o = scene.options.accel;
    size_t b =
        TopLevelGpu::estimateBytes(plan, o.mortonSort, rebraids(o) ? rebraidBudget(plan, uint32_t(o.rebraid)) : 0u);
    for (uint32_t k = 0; k < plan.numStatic; ++k)
        b += plan.meshes[plan.blas[k].mesh].prims * (sizeof(Tri) + sizeof(Aabb));
    if (copiesLeafTris(o, plan.holdsPatchBoxes()))  // each BLAS's triangles in leaf order
        for (const InstancePlan::Blas& x : plan.blas) b += plan.meshes[x.mesh].prims * sizeof(LeafTri);
    return b;
}

void InstancedGpu::build(float t, const AccelOptions& o, const LaunchContext& ctx, const UnifiedPatches* unified) {
    const InstancePlan& plan = top_.plan();
    auto staticBoxes = [&](uint32_t b, const LaunchContext& c) {
        const uint32_t mesh = plan.blas[b].mesh, tris = uint32_t(scene_.meshes[mesh].triangles.size());
        launchTriangleBounds(gpu_.restPositions(mesh), meshTris_.data() + staticTriOffset_[b], tris,
                             objectBounds_.data(), c);
        const uint32_t boxes = plan.meshes[mesh].prims - tris;  // unified: the patch boxes after the triangles
        if (boxes)
            STRATA_CUDA_CHECK(cudaMemcpyAsync(objectBounds_.data() + tris,
                                              unified->boxes + (size_t(plan.blas[b].patchBase) << unifiedShift_),
                                              boxes * sizeof(Aabb), cudaMemcpyDeviceToDevice, c.stream));
        return DeviceBoxes{objectBounds_.data(), tris + boxes};
    };
    const std::vector<Affine> transforms = instanceTransforms(scene_, t);
    top_.build(o, staticBlasKey(o, unified ? unified->key : ""), staticBoxes,
               TopLevelFrame{&transforms, gpu_.bounds(), &geometry_}, ctx);
}

std::vector<BlasRefit> InstancedGpu::blasRefits(const AccelOptions& o) {
    std::vector<std::string> names;
    for (const Instance& i : scene_.instances) names.push_back(i.name);
    return top_.blasRefits(names, o);
}

size_t InstancedGpu::memoryBytes() const { return top_.memoryBytes() + meshTris_.bytes() + objectBounds_.bytes(); }

}  // namespace strata
