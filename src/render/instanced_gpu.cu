#include "render/instanced_gpu.h"

#include <cfloat>

#include "accel/lbvh/lbvh_variant.h"
#include "gpu/block_reduce.cuh"
#include "gpu/launch.cuh"
#include "scene/keyframes.h"

namespace strata {
namespace {

constexpr int kBoxBlock = 256;

// One block per deforming instance: the union of its triangles' boxes.
// jobs: (first triangle, count, member slot) triples.
__global__ void instanceBoxesKernel(const Aabb* triBounds, const uint32_t* jobs, Aabb* out) {
    const uint32_t first = jobs[3 * blockIdx.x], count = jobs[3 * blockIdx.x + 1], slot = jobs[3 * blockIdx.x + 2];
    Aabb b;
    for (uint32_t i = threadIdx.x; i < count; i += blockDim.x) b.grow(triBounds[first + i]);
    b = blockUnion<kBoxBlock>(b);
    if (threadIdx.x == 0) out[slot] = b;
}

}  // namespace

InstancedGpu::InstancedGpu(const Scene& scene, const FlatScene& flat, const GpuScene& gpu)
    : scene_(scene), flat_(flat), gpu_(gpu) {
    std::vector<int32_t> staticOf(scene.meshes.size(), -1);
    std::vector<Tri> tris;
    uint32_t maxTris = 0;
    for (size_t m = 0; m < scene.meshes.size(); ++m) {
        const Mesh& mesh = scene.meshes[m];
        if (mesh.deforms() || mesh.triangles.empty()) continue;
        StaticMesh s;
        s.mesh = uint32_t(m);
        s.triOffset = uint32_t(tris.size());
        s.numTris = uint32_t(mesh.triangles.size());
        for (const Tri& t : mesh.triangles)
            for (int k = 0; k < 3; ++k) s.objectBox.grow(mesh.positions[t.v[k]]);
        tris.insert(tris.end(), mesh.triangles.begin(), mesh.triangles.end());
        maxTris = std::max(maxTris, s.numTris);
        staticOf[m] = int32_t(statics_.size());
        statics_.push_back(s);
        staticBlas_.push_back(std::make_unique<LbvhBuilder>());
    }
    std::vector<uint32_t> jobs;
    for (size_t i = 0; i < scene.instances.size(); ++i) {
        const size_t m = size_t(scene.instances[i].mesh);
        if (scene.meshes.at(m).triangles.empty()) continue;
        Member mb;
        mb.instance = uint32_t(i);
        mb.staticMesh = staticOf[m];
        if (mb.staticMesh < 0) {
            mb.deformSlot = uint32_t(deformBlas_.size());
            deformBlas_.push_back(std::make_unique<LbvhBuilder>());
            jobs.insert(jobs.end(), {flat.instanceTriOffset[i], uint32_t(scene.meshes[m].triangles.size()),
                                     uint32_t(members_.size())});
        }
        members_.push_back(mb);
    }
    meshTris_.upload(tris);
    objectBounds_.resize(maxTris);
    boxJobs_.upload(jobs);
    instanceBoxes_.resize(members_.size());
    instances_.resize(members_.size());
    blas_.resize(numBlas());
    STRATA_CUDA_CHECK(cudaDeviceSynchronize());
}

size_t InstancedGpu::estimateBytes(const Scene& scene) {
    size_t b = LbvhBuilder::estimateBytes(scene.instances.size());
    for (size_t i = 0; i < scene.instances.size(); ++i) {
        const Mesh& m = scene.meshes.at(size_t(scene.instances[i].mesh));
        if (m.deforms()) b += LbvhBuilder::estimateBytes(m.triangles.size());
        b += sizeof(InstanceView) + sizeof(BlasView) + sizeof(Aabb);
    }
    for (const Mesh& m : scene.meshes)
        if (!m.deforms()) b += LbvhBuilder::estimateBytes(m.triangles.size()) + m.triangles.size() * (sizeof(Tri) + sizeof(Aabb));
    return b;
}

void InstancedGpu::build(float t, const AccelOptions& o, const LaunchContext& ctx) {
    const LbvhConfig blasConfig{lbvhVariantOf(o), o.mortonBits};
    const BvhTraversal traversal = traversalOf(o);
    {
        StageScope s(ctx.timer, "build/blas");  // the BLAS builds' phases add up in build/bounds, build/morton, ...
        const std::string key = std::string(name(o.builder)) + "/" + std::to_string(o.mortonBits);
        if (key != staticKey_) {  // static meshes: object space, once per builder
            for (size_t k = 0; k < statics_.size(); ++k) {
                const StaticMesh& sm = statics_[k];
                launchTriangleBounds(gpu_.restPositions(sm.mesh), meshTris_.data() + sm.triOffset, sm.numTris,
                                     objectBounds_.data(), ctx);
                staticBlas_[k]->build(blasConfig, objectBounds_.data(), sm.numTris, ctx);
            }
            staticKey_ = key;
        }
        for (const Member& mb : members_) {  // deforming instances: world space, every frame
            if (mb.staticMesh >= 0) continue;
            const uint32_t first = flat_.instanceTriOffset[mb.instance];
            const uint32_t n = uint32_t(scene_.meshes[size_t(scene_.instances[mb.instance].mesh)].triangles.size());
            deformBlas_[mb.deformSlot]->build(blasConfig, gpu_.bounds() + first, n, ctx);
        }
    }

    // The views: static BLASes first, then the deforming ones.
    std::vector<BlasView> blas(numBlas());
    for (size_t k = 0; k < statics_.size(); ++k)
        blas[k] = BlasView{staticBlas_[k]->view(traversal), gpu_.restPositions(statics_[k].mesh),
                           meshTris_.data() + statics_[k].triOffset};
    std::vector<InstanceView> inst(members_.size());
    std::vector<Aabb> boxes(members_.size());
    for (size_t j = 0; j < members_.size(); ++j) {
        const Member& mb = members_[j];
        const uint32_t first = flat_.instanceTriOffset[mb.instance];
        inst[j].triBase = first;
        if (mb.staticMesh >= 0) {
            const Affine w = instanceTransformAt(scene_.instances[mb.instance], t);
            inst[j].objectFromWorld = inverse(w);
            inst[j].blas = uint32_t(mb.staticMesh);
            boxes[j] = transformBox(w, statics_[size_t(mb.staticMesh)].objectBox);
        } else {
            const uint32_t b = uint32_t(statics_.size()) + mb.deformSlot;
            inst[j].blas = b;  // identity transform: the BLAS is in world space
            blas[b] = BlasView{deformBlas_[mb.deformSlot]->view(traversal), gpu_.positions(), gpu_.triangles() + first};
        }
    }
    StageScope s(ctx.timer, "build/top");
    // Pageable sources: each copy has left the host vector when the call returns.
    blas_.upload(blas, ctx.stream);
    instances_.upload(inst, ctx.stream);
    instanceBoxes_.upload(boxes, ctx.stream);
    if (!deformBlas_.empty())  // the deforming members' boxes from their triangles
        launch(ctx, "build/top/instance_boxes", {uint32_t(deformBlas_.size()), kBoxBlock}, instanceBoxesKernel,
               gpu_.bounds(), boxJobs_.data(), instanceBoxes_.data());
    Untimed phases(ctx.timer);  // the top level's build phases count under build/top
    top_.build(LbvhConfig{LbvhVariant::Karras, 63}, instanceBoxes_.data(), uint32_t(members_.size()), ctx);
    view_ = TwoLevelView{top_.view(), instances_.data(), blas_.data(), uint32_t(members_.size())};
}

size_t InstancedGpu::memoryBytes() const {
    size_t b = top_.memoryBytes() + meshTris_.bytes() + objectBounds_.bytes() + boxJobs_.bytes() +
               instanceBoxes_.bytes() + instances_.bytes() + blas_.bytes();
    for (const auto& x : staticBlas_) b += x->memoryBytes();
    for (const auto& x : deformBlas_) b += x->memoryBytes();
    return b;
}

}  // namespace strata
