// accel/leaf_tris_gpu.h — accel.copy_leaf_tris on the GPU: a BVH's
// triangles copied in its leaf order (accel/leaf_tris.h), for flat mode's
// tree (binary, or the 8-wide tree's own entries) and for each BLAS of
// instanced mode.
#pragma once

#include <cstdint>

#include "accel/leaf_tris.h"
#include "gpu/launch_context.h"

namespace strata {

// out[k] = the triangle primIndex[k] names, for k < n; one launch labelled
// "build/leaf_tris" (nothing for n = 0).
void copyLeafTrisGpu(const uint32_t* primIndex, const Tri* tris, const Vec3* pos, uint32_t n, LeafTri* out,
                     const LaunchContext& ctx);

}  // namespace strata
