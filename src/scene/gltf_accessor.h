// scene/gltf_accessor.h — reading glTF accessors into plain arrays, with
// every offset, stride, count and index checked against the buffers (a
// damaged file is an error naming the accessor, never a read out of bounds).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scene/gltf_parse.h"

namespace strata {

// The accessor's elements as floats, `components` per element (its type must
// have that many: 1 SCALAR, 2 VEC2, 3 VEC3, 4 VEC4, 16 MAT4). Integer
// components are converted as the glTF specification says: normalized ones to
// [0, 1] or [-1, 1], the others as their values. Sparse substitutions are
// applied; an accessor without a buffer view reads as zeros. `what` names the
// use in messages ("POSITION of meshes[0].primitives[1]").
std::vector<float> readGltfFloats(const std::string& file, const tinygltf::Model& model, int accessor, int components,
                                  const std::string& what);

// A SCALAR (or, with components > 1, VECn) accessor of unsigned integers
// (UNSIGNED_BYTE, UNSIGNED_SHORT, UNSIGNED_INT; not normalized): indices and
// joints.
std::vector<uint32_t> readGltfUints(const std::string& file, const tinygltf::Model& model, int accessor, int components,
                                    const std::string& what);

// The accessor's element count, after checking that the index exists.
size_t gltfAccessorCount(const std::string& file, const tinygltf::Model& model, int accessor, const std::string& what);

}  // namespace strata
