// scene/obj_prescan.h — a light first pass over an OBJ file that checks what
// tinyobjloader lets through (non-numbers, NaN/inf, zero or out-of-range face
// indices, faces of fewer than three vertices) and names the line. Internal to
// the OBJ loader.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace strata {

struct ObjPrescan {
    size_t positions = 0, normals = 0, texcoords = 0, faces = 0;
    std::vector<std::pair<int, std::string>> materialLibraries;  // (line, file) of each mtllib
};

// Throws strata::Error "PATH:LINE: ..." on the first problem; "PATH: ..." when
// the file cannot be read.
ObjPrescan prescanObj(const std::string& path);

}  // namespace strata
