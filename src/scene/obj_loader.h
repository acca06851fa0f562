// scene/obj_loader.h — Wavefront OBJ + MTL through tinyobjloader.
#pragma once

#include <string>
#include <vector>

#include "scene/scene.h"

namespace strata {

struct ObjLoadOptions {
    // Drop triangles of zero (or, relative to the mesh's size, negligible)
    // area. Frames of an OBJ sequence turn this off: a triangle that collapses
    // in one frame must not change that frame's topology. Triangles that repeat
    // a vertex index are always dropped.
    bool skipZeroArea = true;
    // Keep four-vertex faces as quads (Mesh::quads: the base of VD patches)
    // instead of two triangles.
    bool keepQuads = false;
};

// Loads an OBJ (and its MTL files) into one mesh with per-vertex attributes
// (vertices split where position/normal/uv indices differ). Faces with more
// than three vertices are triangulated as fans (independent of the positions,
// so every frame of a sequence gets the same triangles). Zero-area and
// degenerate triangles are skipped and counted in LoadedMesh::skippedDegenerate.
// Faces without a material get a diffuse material named "default". A missing
// MTL file is a warning on stderr, not an error. Throws strata::Error naming
// the file (and line where known) on: a missing or unreadable file, malformed
// content, out-of-range indices, NaN or infinite vertex data, a mesh with no
// triangles left.
LoadedMesh loadObj(const std::string& path);

// As above; also returns the diffuse texture (map_Kd) of each material:
// (*texturePaths)[i] belongs to LoadedMesh::materials[i], resolved relative to
// the OBJ's folder, empty where the material has none. Material::albedoTexture
// stays -1: the caller loads the images and sets it. texturePaths may be null.
LoadedMesh loadObj(const std::string& path, std::vector<std::string>* texturePaths, const ObjLoadOptions& options = {});

}  // namespace strata
