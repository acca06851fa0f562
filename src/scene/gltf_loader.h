// scene/gltf_loader.h — glTF 2.0 (.gltf with its buffers and images, or .glb)
// as one strata mesh: every mesh node of the file's scene, placed by the
// node hierarchy, with its materials and base-colour textures. Animation
// (node transforms, skinning, morph targets) is evaluated here, on the host,
// exactly as the glTF specification defines it, and baked at a fixed rate
// into a vertex frame sequence (Mesh::frames), which the renderer
// interpolates every frame like an OBJ sequence.
#pragma once

#include <string>
#include <vector>

#include "scene/scene.h"

namespace strata {

struct GltfLoadOptions {
    // The animation to bake: "" the file's first animation (none when it has
    // none), "none" the rest pose, else an animation's name or its index.
    std::string clip;
    float fps = 30.0f;  // baking rate; the clip's length is kept exactly
    bool loop = true;
    // The most values (floats or indices) the file's accessors may hand the
    // loader in all (scene/gltf_accessor.h's GltfBudget); the fuzz target
    // lowers it to stay within its memory limit.
    size_t maxValues = size_t(1) << 27;
};

// The most frames x vertices a baked clip may hold (64 Mi positions, 768 MiB
// with normals as floats): beyond it the loader asks for a lower rate.
constexpr size_t kMaxGltfBakedVertices = size_t(1) << 26;

// A base-colour texture: a file beside the glTF (path), or an image embedded
// in it (data URI or GLB buffer view), decoded here.
struct GltfTexture {
    std::string path;  // the file, or "<gltf file>#images[i]" for an embedded image
    Image embedded;    // width 0 when `path` is a file
};

struct LoadedGltf {
    LoadedMesh loaded;                  // materials named "<file stem>/<material name or #index>"
    std::vector<GltfTexture> textures;  // per material of `loaded.materials`: path empty for none
    std::string clip;                   // the baked animation's name ("" none)
    size_t frames = 0;                  // baked frames (0: static)
};

// Throws strata::Error naming the file and the accessor, node, mesh,
// material or animation at fault. Warnings (features strata does not render,
// once per file with counts) go to stderr.
LoadedGltf loadGltf(const std::string& path, const GltfLoadOptions& options = {});

}  // namespace strata
