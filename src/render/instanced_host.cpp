#include "render/instanced_host.h"

#include "accel/lbvh/lbvh_host.h"
#include "scene/keyframes.h"

namespace strata {

void InstancedHost::build(const Scene& scene, const FlatScene& flat, const std::vector<Vec3>& worldPos,
                          const std::vector<Aabb>& worldBounds, float t, const AccelOptions& o) {
    options_ = o;
    const std::string key = std::string(name(o.builder)) + "/" + std::to_string(o.mortonBits);
    const size_t numInstances = scene.instances.size();
    if (key != staticKey_ || meshBlas_.size() != scene.meshes.size()) {
        // Static meshes: one object-space BLAS each, shared by their instances.
        blasAccel_.clear();
        blas_.clear();
        meshBlas_.assign(scene.meshes.size(), -1);
        meshBox_.assign(scene.meshes.size(), Aabb{});
        for (size_t m = 0; m < scene.meshes.size(); ++m) {
            const Mesh& mesh = scene.meshes[m];
            if (mesh.deforms() || mesh.triangles.empty()) continue;
            std::vector<Aabb> b;
            triangleBounds(mesh.positions, mesh.triangles, b);
            for (const Aabb& a : b) meshBox_[m].grow(a);
            meshBlas_[m] = int32_t(blasAccel_.size());
            blasAccel_.emplace_back();
            buildHostAccel(b, o, blasAccel_.back());
        }
        staticKey_ = key;
    }
    // Deforming instances: a world-space BLAS each, every frame (after the static ones).
    size_t numStatic = 0;
    for (int32_t b : meshBlas_) numStatic += b >= 0;
    blasAccel_.resize(numStatic);
    instances_.assign(numInstances, InstanceView{});
    std::vector<Aabb> boxes(numInstances);
    for (size_t i = 0; i < numInstances; ++i) {
        const Instance& inst = scene.instances[i];
        const Mesh& mesh = scene.meshes.at(size_t(inst.mesh));
        const uint32_t base = flat.instanceTriOffset[i], n = uint32_t(mesh.triangles.size());
        InstanceView& iv = instances_[i];
        iv.triBase = base;
        if (meshBlas_[size_t(inst.mesh)] >= 0) {
            const Affine w = instanceTransformAt(inst, t);
            iv.objectFromWorld = inverse(w);
            iv.blas = uint32_t(meshBlas_[size_t(inst.mesh)]);
            boxes[i] = transformBox(w, meshBox_[size_t(inst.mesh)]);
        } else {
            std::vector<Aabb> b(worldBounds.begin() + base, worldBounds.begin() + base + n);
            for (const Aabb& a : b) boxes[i].grow(a);
            iv.objectFromWorld = Affine{};
            iv.blas = uint32_t(blasAccel_.size());
            blasAccel_.emplace_back();
            buildHostAccel(b, o, blasAccel_.back());
        }
    }
    // The views (after every BLAS exists: emplace_back may have moved them).
    blas_.assign(blasAccel_.size(), BlasView{});
    for (size_t m = 0; m < scene.meshes.size(); ++m)
        if (meshBlas_[m] >= 0)
            blas_[size_t(meshBlas_[m])] = BlasView{blasAccel_[size_t(meshBlas_[m])].view(o),
                                                   scene.meshes[m].positions.data(),
                                                   scene.meshes[m].triangles.data()};
    for (size_t i = 0; i < numInstances; ++i) {
        if (meshBlas_[size_t(scene.instances[i].mesh)] >= 0) continue;
        blas_[instances_[i].blas] = BlasView{blasAccel_[instances_[i].blas].view(o), worldPos.data(),
                                             flat.tris.data() + flat.instanceTriOffset[i]};
    }
    top_ = buildLbvhHost(boxes, 63, LbvhVariant::Karras).bvh;
}

TwoLevelView InstancedHost::view() const {
    TwoLevelView v;
    v.top = top_.view();
    v.instances = instances_.data();
    v.blas = blas_.data();
    v.numInstances = uint32_t(instances_.size());
    return v;
}

size_t InstancedHost::memoryBytes() const {
    size_t b = top_.bytes();
    for (const HostAccel& a : blasAccel_) b += a.bytes();
    return b;
}

}  // namespace strata
