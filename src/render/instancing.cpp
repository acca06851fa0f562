#include "render/instancing.h"

#include "render/host_stage_clock.h"
#include "scene/keyframes.h"

namespace strata {

InstancePlan trianglePlan(const Scene& scene, const FlatScene& flat, const UnifiedPatches* unified) {
    std::vector<PlanMesh> meshes(scene.meshes.size());
    for (size_t m = 0; m < scene.meshes.size(); ++m) {
        const Mesh& mesh = scene.meshes[m];
        meshes[m].prims = uint32_t(mesh.triangles.size());
        meshes[m].deforms = mesh.deforms();
        if (!mesh.deforms())
            for (const Tri& t : mesh.triangles)
                for (int k = 0; k < 3; ++k) meshes[m].objectBox.grow(mesh.positions[t.v[k]]);
    }
    std::vector<PlanInstance> instances(scene.instances.size());
    for (size_t i = 0; i < scene.instances.size(); ++i)
        instances[i] = {uint32_t(scene.instances[i].mesh), flat.instanceTriOffset[i]};
    const bool patchBoxes = unified && !flat.patches.empty();
    const MeshPatches mp = patchBoxes ? meshPatchRanges(scene, flat) : MeshPatches{};
    if (patchBoxes) {  // the patch boxes after the triangles; the loose boxes hold the surface
        for (size_t m = 0; m < scene.meshes.size(); ++m) {
            if (mp.meshCount[m] == 0) continue;
            meshes[m].firstBox = meshes[m].prims;
            meshes[m].prims += mp.meshCount[m] << unified->shift;
            for (uint32_t k = 0; k < mp.meshCount[m]; ++k)
                meshes[m].objectBox.grow(flat.patches[mp.meshFirst[m] + k].box);
        }
        for (size_t i = 0; i < scene.instances.size(); ++i) instances[i].patchBase = mp.instanceBase[i];
    }
    for (size_t m = 0; m < scene.meshes.size(); ++m) {  // the static meshes' spheres (accel.tight_instance_boxes)
        const Mesh& mesh = scene.meshes[m];
        if (mesh.deforms() || meshes[m].objectBox.isEmpty()) continue;
        SphereRadius r{meshes[m].objectBox.center()};
        for (const Tri& t : mesh.triangles)
            for (int k = 0; k < 3; ++k) r.grow(mesh.positions[t.v[k]]);
        if (patchBoxes)
            for (uint32_t k = 0; k < mp.meshCount[m]; ++k) r.growBox(flat.patches[mp.meshFirst[m] + k].box);
        meshes[m].radius = r.radius();
    }
    return planInstances(PlanPrims::Triangles, std::move(meshes), instances);
}

InstancePlan patchPlan(const Scene& scene, const FlatScene& flat) {
    const MeshPatches mp = meshPatchRanges(scene, flat);
    std::vector<PlanMesh> meshes(scene.meshes.size());
    for (size_t m = 0; m < scene.meshes.size(); ++m) {
        meshes[m].prims = mp.meshCount[m];
        for (uint32_t k = 0; k < mp.meshCount[m]; ++k) meshes[m].objectBox.grow(flat.patches[mp.meshFirst[m] + k].box);
        SphereRadius r{meshes[m].objectBox.center()};
        for (uint32_t k = 0; k < mp.meshCount[m]; ++k) r.growBox(flat.patches[mp.meshFirst[m] + k].box);
        meshes[m].radius = r.radius();
    }
    std::vector<PlanInstance> instances(scene.instances.size());
    for (size_t i = 0; i < scene.instances.size(); ++i)
        instances[i] = {uint32_t(scene.instances[i].mesh), mp.instanceBase[i]};
    return planInstances(PlanPrims::Patches, std::move(meshes), instances);
}

std::vector<Affine> instanceTransforms(const Scene& scene, float t) {
    std::vector<Affine> w(scene.instances.size());
    for (size_t i = 0; i < scene.instances.size(); ++i) w[i] = instanceTransformAt(scene.instances[i], t);
    return w;
}

std::vector<BlasRefit> InstancedHost::blasRefits(const Scene& scene, const AccelOptions& o) const {
    if (!top_) return {};
    std::vector<std::string> names;
    for (const Instance& i : scene.instances) names.push_back(i.name);
    return top_->blasRefits(names, o);
}

void InstancedHost::build(const Scene& scene, const FlatScene& flat, const std::vector<Vec3>& worldPos,
                          const std::vector<Aabb>& worldBounds, float t, const AccelOptions& o, HostStageClock* clock,
                          const UnifiedPatches* unified) {
    const int shift = unified ? unified->shift : -1;
    if (!top_ || shift != topShift_) {
        top_ = std::make_unique<TopLevelHost>(trianglePlan(scene, flat, unified));
        topShift_ = shift;
    }
    const InstancePlan& plan = top_->plan();
    transforms_ = instanceTransforms(scene, t);
    geometry_.assign(plan.blas.size(), BlasGeometry{});
    for (size_t b = 0; b < plan.blas.size(); ++b) {
        const InstancePlan::Blas& x = plan.blas[b];
        if (x.instance < 0)  // a static mesh: its rest positions, in object space
            geometry_[b] = {scene.meshes[x.mesh].positions.data(), scene.meshes[x.mesh].triangles.data()};
        else  // a deforming instance: this frame's posed flat vertices
            geometry_[b] = {worldPos.data(), flat.tris.data() + flat.instanceTriOffset[size_t(x.instance)]};
    }
    auto staticBoxes = [&](uint32_t b, std::vector<Aabb>& out) {
        const Mesh& mesh = scene.meshes[plan.blas[b].mesh];
        triangleBounds(mesh.positions, mesh.triangles, out);
        const size_t boxes = plan.meshes[plan.blas[b].mesh].prims - out.size();  // unified: the patch boxes after
        if (boxes) {
            const size_t first = size_t(plan.blas[b].patchBase) << shift;
            out.insert(out.end(), unified->boxes + first, unified->boxes + first + boxes);
        }
    };
    {
        HostStageClock::Scope s(clock, "build/blas");
        top_->buildBlases(o, staticBlasKey(o, unified ? unified->key : ""), staticBoxes,
                          TopLevelFrame{&transforms_, worldBounds.data(), &geometry_});
    }
    HostStageClock::Scope s(clock, "build/top");
    top_->buildTop(o);
}

}  // namespace strata
