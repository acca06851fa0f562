// scene/scene.h — the host-side scene: what the loaders and generators produce
// and what the renderer uploads. Plain data; no behaviour beyond small helpers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/geometry.h"
#include "core/options.h"
#include "core/transform.h"
#include "core/vec.h"

namespace strata {

enum class MaterialType : int32_t { Diffuse = 0, Conductor = 1, Dielectric = 2, Emissive = 3 };

// POD: copied to the device as is.
struct Material {
    MaterialType type = MaterialType::Diffuse;
    Vec3 albedo{0.8f, 0.8f, 0.8f};  // diffuse reflectance; specular colour (F0) of a conductor;
                                    // transmission tint of a dielectric
    int32_t albedoTexture = -1;     // index into Scene::images, multiplies albedo; -1: none
    Vec3 emission{0, 0, 0};         // emitted radiance (Emissive only)
    float roughness = 0.3f;         // GGX: alpha = roughness^2 (Conductor)
    float ior = 1.5f;               // Dielectric
};

struct NamedMaterial {
    std::string name;
    Material material;
};

// Linear RGB, row-major, top row first.
struct Image {
    std::string path;
    int width = 0, height = 0;
    std::vector<Vec3> pixels;
};

enum class VdSpace : int32_t { Object = 0, Tangent = 1 };

// A vector displacement map: one displacement vector per texel, unscaled, in
// the mesh's object space or in the patch's tangent frame (x along dP/ds, y
// along dP/dt, z along the normal), looked up at the patch's uvs.
struct VdMap {
    std::string path;  // file, or "generator:NAME"
    int width = 0, height = 0;
    std::vector<Vec3> texels;  // row-major, top row first
    float maxLength = 0;       // max |texel|: a patch's box grows by scale * maxLength
};

// The vector displacement of a mesh's quads (Mesh::vd): with a map, every quad
// of the mesh is a VD patch.
struct VdBinding {
    int32_t map = -1;  // index into Scene::vdMaps; -1: the quads are plain quads
    VdSpace space = VdSpace::Object;
    float scale = 1.0f;
    int maxLevel = 7;  // the finest subdivision this mesh's patches allow (vd.max_level caps it)
};

// Rigid keyframed animation: translation / rotation / scale tracks sampled at
// shared key times (seconds), interpolated linearly (nlerp for rotations).
struct TrsKeyframes {
    std::vector<float> times;
    std::vector<Vec3> translation;
    std::vector<Quat> rotation;
    std::vector<Vec3> scale;
    bool loop = true;
    bool empty() const { return times.empty(); }
};

// An OBJ frame sequence: every frame has the same topology; positions are
// interpolated linearly between frames (frame k shown at time k / fps).
struct FrameSequence {
    float fps = 24.0f;
    std::vector<std::vector<Vec3>> positions;  // [frame][vertex]
    std::vector<std::vector<Vec3>> normals;    // [frame][vertex], may be empty
    bool loop = true;
};

// Skeleton for linear blend skinning. Bones are ordered parents first
// (parent[b] < b, root has -1). A bone rotates about its joint (a point in
// mesh space at rest). Pose of bone b at time t:
//   skin[b] = skin[parent] * T(joint_b) * R_b(t) * T(-joint_b)
// and the root additionally gets T(rootTranslation(t)) on the left.
struct Skeleton {
    std::vector<int32_t> parent;
    std::vector<Vec3> joint;
    std::vector<std::string> name;
    // The clip: keys at times[k]; rotation[k * numBones + b] is bone b's local
    // rotation at key k; rootTranslation[k] the root offset. Loops over
    // [times.front(), times.back()].
    std::vector<float> times;
    std::vector<Quat> rotation;
    std::vector<Vec3> rootTranslation;
    int numBones() const { return static_cast<int>(parent.size()); }
};

// Per vertex: two bones and the weight of the first (the second gets 1 - w).
struct SkinBinding {
    std::vector<uint32_t> bones;  // bone0 | bone1 << 16
    std::vector<float> weight0;
};

// Wind sway of plants: a vertex at height h above `base` moves along
// `direction` by amplitude * (h / height)^2 * sin(2 pi frequency t + phase),
// phase from the vertex's horizontal position (so trees do not move in lockstep).
struct Sway {
    Vec3 direction{1, 0, 0};
    float amplitude = 0.1f;
    float frequency = 0.5f;
    float height = 1.0f;
    float base = 0.0f;
    float phaseScale = 0.7f;
};

enum class MeshAnimationKind : int32_t { Static = 0, Frames = 1, Skinned = 2, Sway = 3 };

struct Mesh {
    std::string name;
    std::string source;           // file path or generator name, for messages
    std::vector<Vec3> positions;  // rest pose, object space
    std::vector<Vec3> normals;    // per vertex, optional (empty: geometric normals)
    std::vector<Vec2> uvs;        // per vertex, optional
    std::vector<Tri> triangles;
    std::vector<int32_t> triMaterial;  // per triangle, index into Scene::materials
    std::vector<Quad> quads;           // plain quads, or VD patches when vd.map >= 0
    std::vector<int32_t> quadMaterial;
    VdBinding vd;
    MeshAnimationKind animation = MeshAnimationKind::Static;
    FrameSequence frames;  // animation == Frames
    Skeleton skeleton;     // animation == Skinned
    SkinBinding skin;      // animation == Skinned
    Sway sway;             // animation == Sway
    bool deforms() const { return animation != MeshAnimationKind::Static; }
};

// A mesh with its materials as a loader or generator produced them:
// mesh.triMaterial indexes `materials`; the scene loader remaps into Scene::materials.
struct LoadedMesh {
    Mesh mesh;
    std::vector<NamedMaterial> materials;
    size_t skippedDegenerate = 0;  // zero-area / degenerate triangles dropped
    VdMap vdMap;                   // a generator's own displacement map (width 0: none)
};

struct Instance {
    std::string name;
    int32_t mesh = 0;
    Affine transform;        // static part
    TrsKeyframes animation;  // optional: worldFromObject(t) = animation(t) * transform
};

struct CameraKey {
    float time = 0;
    Vec3 position, target;
};

struct Camera {
    Vec3 position{0, 1, 5};
    Vec3 target{0, 1, 0};
    Vec3 up{0, 1, 0};
    float fovYDegrees = 50.0f;
    std::vector<CameraKey> path;  // optional keyframed path (linear, looping)
    bool loop = true;
};

struct EnvironmentLight {
    int32_t image = -1;         // equirectangular map in Scene::images; -1: uniform colour
    Vec3 color{0, 0, 0};        // uniform radiance, or scale of the map
    float rotationDegrees = 0;  // about +Y
};

struct SunLight {
    bool enabled = false;
    Vec3 direction{0.3f, 1.0f, 0.2f};  // towards the sun (normalised on load)
    Vec3 radiance{5, 5, 5};            // irradiance on a surface facing the sun
};

struct Scene {
    std::string path;  // the scene file
    Camera camera;
    std::vector<Mesh> meshes;
    std::vector<Instance> instances;
    std::vector<Material> materials;
    std::vector<std::string> materialNames;
    std::vector<Image> images;
    std::vector<VdMap> vdMaps;
    EnvironmentLight environment;
    SunLight sun;
    Options options;  // render / accel / animation settings (file, then --set)
    size_t skippedDegenerate = 0;

    size_t triangleCount() const;  // over instances (flat count)
    size_t patchCount() const;     // VD patches over instances
};

}  // namespace strata
