#include "render/gpu_scene.h"

#include "gpu/launch.cuh"
#include "scene/deform.h"
#include "scene/keyframes.h"
#include "scene/skeleton_pose.h"

namespace strata {
namespace {

constexpr int kBlock = 256;

Affine normalMatrix(const Affine& x) {
    Affine inv = inverse(x), r;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) r.m[i][j] = inv.m[j][i];
    r.m[0][3] = r.m[1][3] = r.m[2][3] = 0;
    return r;
}

// Animate stage: one thread per flat vertex. Finds its instance by binary
// search over the instances' vertex offsets, poses the vertex in object space
// (frame blend, skin or sway), then applies the instance's rigid transform.
__global__ void animateKernel(const InstanceAnim* inst, uint32_t numInst, uint32_t numVerts, const Vec3* restPos,
                              const Vec3* restNrm, const uint32_t* skinBones, const float* skinWeight, Vec3* pos,
                              Vec3* nrm) {
    uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= numVerts) return;
    uint32_t lo = 0, hi = numInst - 1;
    while (lo < hi) {
        uint32_t mid = (lo + hi + 1) >> 1;
        if (inst[mid].vertexOffset <= v)
            lo = mid;
        else
            hi = mid - 1;
    }
    const InstanceAnim& a = inst[lo];
    uint32_t local = v - a.vertexOffset, m = a.meshBase + local;
    Vec3 p = restPos[m];
    Vec3 n = restNrm ? restNrm[m] : Vec3{};
    switch (a.kind) {
        case MeshAnimationKind::Frames:
            p = lerpFrames(a.frameA[local], a.frameB[local], a.blend);
            if (a.frameNrmA) n = normalize(lerpFrames(a.frameNrmA[local], a.frameNrmB[local], a.blend));
            break;
        case MeshAnimationKind::Skinned:
            p = skinVertex(a.skin, skinBones[m], skinWeight[m], restPos[m]);
            if (restNrm) n = skinNormal(a.skin, skinBones[m], skinWeight[m], n);
            break;
        case MeshAnimationKind::Sway: p = swayVertex(a.sway, p, a.time); break;
        default: break;
    }
    pos[v] = a.worldFromObject.point(p);
    if (nrm) nrm[v] = normalize(a.normalFromObject.vector(n));
}

__global__ void triangleBoundsKernel(const Vec3* pos, const Tri* tris, uint32_t n, Aabb* out) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Tri t = tris[i];
    Vec3 a = pos[t.v[0]], b = pos[t.v[1]], c = pos[t.v[2]];
    out[i] = Aabb{vmin(a, vmin(b, c)), vmax(a, vmax(b, c))};
}

}  // namespace

size_t GpuScene::estimateBytes(const Scene& scene, const FlatScene& flat) {
    size_t meshVerts = 0, frames = 0, tex = 0;
    for (const Mesh& m : scene.meshes) {
        meshVerts += m.positions.size();
        for (const auto& f : m.frames.positions) frames += f.size();
    }
    for (const Image& img : scene.images) tex += img.pixels.size();
    size_t v = flat.numVertices, t = flat.tris.size();
    return v * (2 * sizeof(Vec3) + sizeof(Vec2)) + meshVerts * (2 * sizeof(Vec3) + 8) + frames * 2 * sizeof(Vec3) +
           (tex + flat.env.pixels.size()) * sizeof(Vec3) + t * (sizeof(Tri) + 8 + sizeof(Aabb));
}

GpuScene::GpuScene(const Scene& scene, const FlatScene& flat) : scene_(scene), flat_(flat) {
    numVerts_ = flat.numVertices;
    tris_.upload(flat.tris);
    triMaterial_.upload(flat.triMaterial);
    uv_.upload(flat.uv);
    materials_.upload(flat.materials);
    std::vector<TextureView> views;
    for (const Image& img : scene.images) {
        texturePixels_.emplace_back();
        texturePixels_.back().upload(img.pixels);
        views.push_back(TextureView{texturePixels_.back().data(), img.width, img.height});
    }
    textures_.upload(views);
    envPixels_.upload(flat.env.pixels);
    envMarginal_.upload(flat.env.marginalCdf);
    envConditional_.upload(flat.env.conditionalCdf);
    lightTris_.upload(flat.lightTris);
    lightCdf_.upload(flat.lightCdf);
    lightPickPdf_.upload(flat.lightPickPdf);
    lightOfTri_.upload(flat.lightOfTri);

    // Concatenated rest arrays of all meshes (shared by their instances).
    std::vector<Vec3> rest, restN;
    std::vector<uint32_t> bones;
    std::vector<float> weights;
    uint32_t boneCount = 0;
    for (const Mesh& m : scene.meshes) {
        meshBase_.push_back(uint32_t(rest.size()));
        boneBase_.push_back(boneCount);
        rest.insert(rest.end(), m.positions.begin(), m.positions.end());
        if (flat.hasNormals) {
            if (m.normals.size() == m.positions.size())
                restN.insert(restN.end(), m.normals.begin(), m.normals.end());
            else
                restN.insert(restN.end(), m.positions.size(), Vec3{});
        }
        bool skinned = m.animation == MeshAnimationKind::Skinned && m.skin.bones.size() == m.positions.size();
        for (size_t i = 0; i < m.positions.size(); ++i) {
            bones.push_back(skinned ? m.skin.bones[i] : 0u);
            weights.push_back(skinned ? m.skin.weight0[i] : 1.0f);
        }
        if (m.animation == MeshAnimationKind::Skinned) boneCount += uint32_t(m.skeleton.numBones());
        framePos_.emplace_back();
        frameNrm_.emplace_back();
        if (m.animation == MeshAnimationKind::Frames) {
            std::vector<Vec3> all, allN;
            for (const auto& f : m.frames.positions) all.insert(all.end(), f.begin(), f.end());
            for (const auto& f : m.frames.normals) allN.insert(allN.end(), f.begin(), f.end());
            framePos_.back().upload(all);
            if (flat.hasNormals && allN.size() == all.size()) frameNrm_.back().upload(allN);
        }
    }
    restPos_.upload(rest);
    restNrm_.upload(restN);
    skinBones_.upload(bones);
    skinWeight_.upload(weights);
    hostSkin_.resize(boneCount);
    skin_.resize(boneCount);
    hostInstances_.resize(scene.instances.size());
    instances_.resize(scene.instances.size());
    pos_.resize(numVerts_);
    if (flat.hasNormals) nrm_.resize(numVerts_);
    bounds_.resize(flat.tris.size());
    STRATA_CUDA_CHECK(cudaDeviceSynchronize());
}

void GpuScene::prepareFrame(float t, cudaStream_t stream) {
    std::vector<Affine> pose;
    for (size_t mi = 0; mi < scene_.meshes.size(); ++mi) {
        const Mesh& m = scene_.meshes[mi];
        if (m.animation != MeshAnimationKind::Skinned) continue;
        poseSkeleton(m.skeleton, t, pose);
        std::copy(pose.begin(), pose.end(), hostSkin_.begin() + boneBase_[mi]);
    }
    for (size_t i = 0; i < scene_.instances.size(); ++i) {
        const Instance& inst = scene_.instances[i];
        const Mesh& m = scene_.meshes[inst.mesh];
        InstanceAnim& a = hostInstances_[i];
        a = InstanceAnim{};
        a.worldFromObject = instanceTransformAt(inst, t);
        a.normalFromObject = normalMatrix(a.worldFromObject);
        a.vertexOffset = flat_.instanceVertexOffset[i];
        a.vertexCount = uint32_t(m.positions.size());
        a.meshBase = meshBase_[inst.mesh];
        a.kind = m.animation;
        a.time = t;
        if (m.animation == MeshAnimationKind::Frames && framePos_[inst.mesh].size()) {
            int f0, f1;
            frameBlend(t, m.frames.fps, int(m.frames.positions.size()), m.frames.loop, f0, f1, a.blend);
            size_t nv = m.positions.size();
            a.frameA = framePos_[inst.mesh].data() + f0 * nv;
            a.frameB = framePos_[inst.mesh].data() + f1 * nv;
            if (frameNrm_[inst.mesh].size()) {
                a.frameNrmA = frameNrm_[inst.mesh].data() + f0 * nv;
                a.frameNrmB = frameNrm_[inst.mesh].data() + f1 * nv;
            }
        } else if (m.animation == MeshAnimationKind::Frames) {
            a.kind = MeshAnimationKind::Static;
        }
        if (m.animation == MeshAnimationKind::Skinned) a.skin = skin_.data() + boneBase_[inst.mesh];
        if (m.animation == MeshAnimationKind::Sway) a.sway = m.sway;
    }
    // Pageable sources: these copies complete before the calls return.
    if (!hostSkin_.empty())
        STRATA_CUDA_CHECK(cudaMemcpyAsync(skin_.data(), hostSkin_.data(), hostSkin_.size() * sizeof(Affine),
                                          cudaMemcpyHostToDevice, stream));
    STRATA_CUDA_CHECK(cudaMemcpyAsync(instances_.data(), hostInstances_.data(),
                                      hostInstances_.size() * sizeof(InstanceAnim), cudaMemcpyHostToDevice, stream));
}

void GpuScene::animate(const LaunchContext& ctx) {
    if (numVerts_ == 0) return;
    launch(ctx, "animate", perItem(numVerts_, kBlock), animateKernel, instances_.data(), uint32_t(instances_.size()),
           numVerts_, restPos_.data(), restNrm_.size() ? restNrm_.data() : nullptr, skinBones_.data(),
           skinWeight_.data(), pos_.data(), nrm_.size() ? nrm_.data() : nullptr);
}

void launchTriangleBounds(const Vec3* pos, const Tri* tris, uint32_t n, Aabb* out, const LaunchContext& ctx) {
    if (n == 0) return;
    launch(ctx, "build/triangle_bounds", perItem(n, kBlock), triangleBoundsKernel, pos, tris, n, out);
}

void GpuScene::triangleBounds(const LaunchContext& ctx) {
    StageScope s(ctx.timer, "build/bounds");
    launchTriangleBounds(pos_.data(), tris_.data(), numTris(), bounds_.data(), ctx);
}

SceneView GpuScene::view(const BvhView& bvh, const CameraView& cam) const {
    auto orNull = [](const auto& b) { return b.size() ? b.data() : nullptr; };
    FlatScenePointers p{pos_.data(),          orNull(nrm_),           orNull(uv_),       tris_.data(),
                        triMaterial_.data(),  materials_.data(),      textures_.data(),  envPixels_.data(),
                        envMarginal_.data(),  envConditional_.data(), lightTris_.data(), lightCdf_.data(),
                        lightPickPdf_.data(), lightOfTri_.data()};
    return makeSceneView(scene_, flat_, p, bvh, cam);
}

size_t GpuScene::geometryBytes() const {
    size_t b = tris_.bytes() + triMaterial_.bytes() + lightOfTri_.bytes() + uv_.bytes() + restPos_.bytes() +
               restNrm_.bytes() + skinBones_.bytes() + skinWeight_.bytes() + pos_.bytes() + nrm_.bytes() +
               bounds_.bytes();
    for (const auto& f : framePos_) b += f.bytes();
    for (const auto& f : frameNrm_) b += f.bytes();
    return b;
}

std::vector<Vec3> GpuScene::downloadPositions() const {
    std::vector<Vec3> v;
    pos_.download(v);
    return v;
}

}  // namespace strata
