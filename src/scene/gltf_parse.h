// scene/gltf_parse.h — a glTF 2.0 file (.gltf with its buffers, or .glb) as
// Debian's tinygltf parses it. Only scene/gltf_*.cpp include this.
#pragma once

#include <string>

#include <tiny_gltf.h>

namespace strata {

struct ParsedGltf {
    tinygltf::Model model;
    std::string warnings;  // tinygltf's, on one line; empty when none
};

// Parses `path` (GLB when it starts with the GLB magic, else JSON). Buffers
// are loaded; embedded images are kept as their encoded bytes (Image::image,
// as_is set); external images only named (Image::uri). Throws strata::Error
// naming the file and tinygltf's reason.
ParsedGltf parseGltf(const std::string& path);

}  // namespace strata
