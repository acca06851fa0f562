// scene/obj_loader.h — Wavefront OBJ + MTL through tinyobjloader.
#pragma once

#include <string>

#include "scene/scene.h"

namespace strata {

// Loads an OBJ (and its MTL files) into one mesh with per-vertex attributes
// (vertices split where position/normal/uv indices differ). Faces with more
// than three vertices are triangulated. Zero-area and degenerate triangles are
// skipped and counted in LoadedMesh::skippedDegenerate. Throws strata::Error
// naming the file (and line where known) on: a missing or unreadable file,
// malformed content, out-of-range indices, NaN or infinite vertex data, a mesh
// with no triangles left.
LoadedMesh loadObj(const std::string& path);

}  // namespace strata
