// scene/ply_loader.h — Stanford PLY meshes (the format of the Stanford 3D
// Scanning Repository's models), read here from the format's description:
// a text header of elements and their properties, then the data as ASCII or
// binary (little- or big-endian).
#pragma once

#include <string>

#include "scene/scene.h"

namespace strata {

struct PlyLoadOptions {
    // Keep four-vertex faces as quads (Mesh::quads: the base of VD patches)
    // instead of two triangles.
    bool keepQuads = false;
};

// Loads the vertex element (x y z required; nx ny nz and u v / s t /
// texture_u texture_v where present, all of them or none) and the face
// element (a list property vertex_indices or vertex_index) into one mesh
// with one "default" diffuse material. Any other element or property is
// read and skipped. Faces of more than three vertices become triangle fans;
// faces repeating a vertex and zero-area triangles are skipped and counted
// in LoadedMesh::skippedDegenerate. Throws strata::Error naming the file
// and the header line, the data line (ASCII) or the element and byte
// offset (binary) on: a missing or unreadable file, a malformed header, an
// unknown format or type, data cut short, an index out of range, NaN or
// infinite vertex data, a mesh with no faces left.
LoadedMesh loadPly(const std::string& path, const PlyLoadOptions& options = {});

}  // namespace strata
