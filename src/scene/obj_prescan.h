// scene/obj_prescan.h — a light first pass over an OBJ (or MTL) file that checks what
// tinyobjloader lets through (non-numbers, hexadecimal, NaN/inf, zero or out-of-range face
// indices, faces of fewer than three vertices) and names the line. Internal to
// the OBJ loader.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace strata {

struct ObjPrescan {
    std::string text;  // the whole file, read once (core/input_file.h): what the loader parses
    size_t positions = 0, normals = 0, texcoords = 0, faces = 0;
    std::vector<std::pair<int, std::string>> materialLibraries;  // (line, file) of each mtllib
};

// Throws strata::Error "PATH:LINE: ..." on the first problem; "PATH: ..." when
// the file cannot be read.
ObjPrescan prescanObj(const std::string& path);

// The same checks for an MTL file's numbers (Kd, Ke, d, Ns, ...: decimal and
// finite; tinyobjloader reads "nan" or "0x1p3" as 0, so `d nan` made glass).
// Returns the file's text, read once, for the parser.
std::string prescanMtl(const std::string& path);

}  // namespace strata
