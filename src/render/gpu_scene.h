// render/gpu_scene.h — the flat scene on the device: static tables uploaded
// once, and the animate stage that poses every vertex each frame (frame
// interpolation, skinning, sway, then the instance's rigid transform).
#pragma once

#include <cuda_runtime.h>

#include <vector>

#include "gpu/device_buffer.h"
#include "gpu/launch_context.h"
#include "render/flat_scene.h"

namespace strata {

// One instance's animation this frame (uploaded per frame; a few hundred bytes).
struct InstanceAnim {
    Affine worldFromObject;
    Affine normalFromObject;    // inverse transpose (linear part)
    uint32_t vertexOffset = 0;  // first flat vertex
    uint32_t vertexCount = 0;
    uint32_t meshBase = 0;  // first vertex in the concatenated rest arrays
    MeshAnimationKind kind = MeshAnimationKind::Static;
    const Vec3* frameA = nullptr;  // Frames: the two frames and the blend
    const Vec3* frameB = nullptr;
    const Vec3* frameNrmA = nullptr;
    const Vec3* frameNrmB = nullptr;
    float blend = 0;
    const Affine* skin = nullptr;  // Skinned: this frame's bone transforms
    Sway sway;                     // Sway
    float time = 0;
};

// One box per triangle (pos indexed by tris): the builders' input.
void launchTriangleBounds(const Vec3* pos, const Tri* tris, uint32_t n, Aabb* out, const LaunchContext& ctx);

class GpuScene {
public:
    GpuScene(const Scene& scene, const FlatScene& flat);

    // Host part of the animate stage: instance transforms, frame blends and
    // skeleton poses at time t, uploaded on `stream`.
    void prepareFrame(float t, cudaStream_t stream);
    // The animate kernel (one launch) and the triangle-bounds kernel (one launch).
    void animate(const LaunchContext& ctx);
    void triangleBounds(const LaunchContext& ctx);  // the build/bounds stage

    SceneView view(const BvhView& bvh, const CameraView& cam) const;
    const Aabb* bounds() const { return bounds_.data(); }
    const Vec3* positions() const { return pos_.data(); }  // posed, world space
    const Tri* triangles() const { return tris_.data(); }
    // A mesh's rest (object-space) positions: what a static mesh's instances share.
    const Vec3* restPositions(size_t mesh) const { return restPos_.data() + meshBase_.at(mesh); }
    uint32_t numTris() const { return uint32_t(tris_.size()); }
    uint32_t numVertices() const { return numVerts_; }
    size_t geometryBytes() const;
    std::vector<Vec3> downloadPositions() const;

    // Bytes the scene's geometry will take on the device (before allocating).
    static size_t estimateBytes(const Scene& scene, const FlatScene& flat);

private:
    const Scene& scene_;
    const FlatScene& flat_;
    uint32_t numVerts_ = 0;
    DeviceBuffer<Tri> tris_;
    DeviceBuffer<int32_t> triMaterial_;
    DeviceBuffer<Vec2> uv_;
    DeviceBuffer<Material> materials_;
    std::vector<DeviceBuffer<Vec3>> texturePixels_;
    DeviceBuffer<TextureView> textures_;
    DeviceBuffer<Vec3> envPixels_;
    DeviceBuffer<float> envMarginal_, envConditional_;
    DeviceBuffer<uint32_t> lightTris_;
    DeviceBuffer<float> lightCdf_, lightPickPdf_;
    DeviceBuffer<int32_t> lightOfTri_;
    // Animation sources.
    DeviceBuffer<Vec3> restPos_, restNrm_;
    std::vector<uint32_t> meshBase_;
    std::vector<DeviceBuffer<Vec3>> framePos_, frameNrm_;  // per mesh (Frames)
    DeviceBuffer<uint32_t> skinBones_;
    DeviceBuffer<float> skinWeight_;
    std::vector<uint32_t> boneBase_;  // per mesh, into skin_
    DeviceBuffer<Affine> skin_;
    std::vector<Affine> hostSkin_;
    std::vector<InstanceAnim> hostInstances_;
    DeviceBuffer<InstanceAnim> instances_;
    // Per frame.
    DeviceBuffer<Vec3> pos_, nrm_;
    DeviceBuffer<Aabb> bounds_;
};

}  // namespace strata
