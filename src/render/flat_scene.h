// render/flat_scene.h — flat mode: every instance baked into one triangle set
// in world space. The static part (topology, materials, light tables, the
// environment's sampling tables) is made once per scene; positions and
// normals are posed per frame (on the CPU here; on the GPU by the CUDA backend).
#pragma once

#include <vector>

#include "accel/vd/vd_cull.h"
#include "render/scene_view.h"
#include "scene/vd_scene.h"
#include "scene/keyframes.h"
#include "scene/scene.h"

namespace strata {

struct EnvTables {
    std::vector<Vec3> pixels;
    int width = 0, height = 0;
    Vec3 scale{0, 0, 0};
    float rotation = 0;
    std::vector<float> marginalCdf, conditionalCdf;
};

struct FlatScene {
    std::vector<Tri> tris;  // global vertex indices
    std::vector<int32_t> triMaterial;
    std::vector<Vec2> uv;  // per global vertex (empty if no mesh has uvs)
    bool hasNormals = false;
    uint32_t numVertices = 0;
    std::vector<uint32_t> instanceVertexOffset;  // per instance
    std::vector<uint32_t> instanceTriOffset;
    // Emissive triangles (MIS light list).
    std::vector<uint32_t> lightTris;
    std::vector<float> lightCdf, lightPickPdf;
    std::vector<int32_t> lightOfTri;
    EnvTables env;
    std::vector<Material> materials;
    std::vector<TextureView> textures;  // point into Scene::images
    // VD patches traced directly (vd.mode direct): one per quad of every
    // instance of a VD mesh, in the mesh's object space.
    std::vector<VdPatch> patches;
    std::vector<uint32_t> patchInstance;
    std::vector<uint32_t> patchOrigin;  // per patch: the same patch of its mesh's first instance (object space alike)
    std::vector<TextureView> vdMaps;    // point into Scene::vdMaps
    std::vector<uint32_t> vdLinks;      // the shared link table (vdNodeCount(kVdMaxLevel))
    bool vdEmits = false;               // a patch's material is emissive
};
// PassParams::vdAnyHitLast for these options: direct patches, none emitting.
inline bool vdAnyHitLast(const FlatScene& flat, const VdOptions& o) {
    return o.mode == VdMode::Direct && o.lastBounceAnyHit && !flat.patches.empty() && !flat.vdEmits;
}

// Where each mesh's and instance's VD patches sit in FlatScene::patches (one
// run per instance of a VD mesh, in the mesh's patch order): what instanced
// mode's patch hierarchy is built from.
struct MeshPatches {
    std::vector<uint32_t> instanceBase;  // per instance: its first patch (0 when it has none)
    std::vector<uint32_t> meshFirst;     // per mesh: the first patch of its first instance
    std::vector<uint32_t> meshCount;     // per mesh: patches per instance (0: not a VD mesh)
};
MeshPatches meshPatchRanges(const Scene& scene, const FlatScene& flat);

// This frame's instance transforms (both directions) and, with worldBoxes,
// the patches' world boxes: the input of flat mode's patch-box BVH without
// vd.pair_cull (vd.mode direct). 107,264 boxes take 8.5 ms on the host.
struct VdFrameData {
    std::vector<Affine> objectFromWorld, worldFromObject;
    std::vector<Aabb> worldBoxes;  // empty unless asked for
};
void poseVdPatches(const Scene& scene, const FlatScene& flat, float t, VdFrameData& out, bool worldBoxes);

// Throws strata::Error if the flat scene exceeds 32-bit indices.
FlatScene flattenScene(const Scene& scene);

// Builds the environment's sampling tables (a uniform colour becomes a small map).
EnvTables makeEnvTables(const Scene& scene);

// Poses every instance at scene time t into world space (CPU reference of the
// GPU animate stage). nrm is left empty when the scene has no normals.
void poseFlatScene(const Scene& scene, const FlatScene& flat, float t, std::vector<Vec3>& pos, std::vector<Vec3>& nrm);

// World-space bounds of every triangle: the builders' input.
void triangleBounds(const std::vector<Vec3>& pos, const std::vector<Tri>& tris, std::vector<Aabb>& out);

CameraView makeCameraView(const Scene& scene, float t, int width, int height);
CameraView makeCameraView(const CameraPose& pose, int width, int height);

// Where a backend keeps the flat scene's arrays (host or device memory).
struct FlatScenePointers {
    const Vec3* pos;
    const Vec3* nrm;
    const Vec2* uv;
    const Tri* tris;
    const int32_t* triMaterial;
    const Material* materials;
    const TextureView* textures;
    const Vec3* envPixels;
    const float* envMarginal;
    const float* envConditional;
    const uint32_t* lightTris;
    const float* lightCdf;
    const float* lightPickPdf;
    const int32_t* lightOfTri;
};

// One SceneView assembly for both backends.
SceneView makeSceneView(const Scene& scene, const FlatScene& flat, const FlatScenePointers& p, const BvhView& bvh,
                        const CameraView& cam);

// Host-pointer views (CPU backend) of the flat scene's static tables.
SceneView hostSceneView(const Scene& scene, const FlatScene& flat, const std::vector<Vec3>& pos,
                        const std::vector<Vec3>& nrm, const BvhView& bvh, const CameraView& cam);

}  // namespace strata
