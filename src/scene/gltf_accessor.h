// scene/gltf_accessor.h — reading glTF accessors into plain arrays, with
// every offset, stride, count and index checked against the buffers (a
// damaged file is an error naming the accessor, never a read out of bounds).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scene/gltf_parse.h"

namespace strata {

// What one file's accessors may hand the loader in all, in values (floats
// or indices): an accessor without a buffer view reads as zeros, so a file of
// a few hundred bytes could otherwise ask for gigabytes.
struct GltfBudget {
    size_t values = size_t(1) << 27;  // 128 Mi values: 512 MiB as floats
};

// The accessor's elements as floats, `type` (TINYGLTF_TYPE_SCALAR, _VEC2,
// _VEC3, _VEC4, _MAT4) required. Integer components are converted as the glTF
// specification says: normalized ones to [0, 1] or [-1, 1], the others as
// their values. Sparse substitutions are applied; an accessor without a
// buffer view reads as zeros. `what` names the use in messages ("POSITION of
// meshes[0].primitives[1]"). The values read are taken from `budget`.
std::vector<float> readGltfFloats(const std::string& file, const tinygltf::Model& model, int accessor, int type,
                                  const std::string& what, GltfBudget& budget);

// An accessor of unsigned integers (UNSIGNED_BYTE, UNSIGNED_SHORT,
// UNSIGNED_INT; not normalized), read exactly: indices and joints.
std::vector<uint32_t> readGltfUints(const std::string& file, const tinygltf::Model& model, int accessor, int type,
                                    const std::string& what, GltfBudget& budget);

}  // namespace strata
