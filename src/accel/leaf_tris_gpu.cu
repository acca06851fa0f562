#include "accel/leaf_tris_gpu.h"

#include "gpu/launch.cuh"

namespace strata {
namespace {

// Entry k's triangle, in primIndex's order, written as three 16-byte stores.
__global__ void copyLeafTrisKernel(const uint32_t* primIndex, const Tri* tris, const Vec3* pos, uint32_t n,
                                   LeafTri* out) {
    const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n) return;
    const LeafTri l = makeLeafTri(pos, tris, primIndex[k]);
    float4* o = reinterpret_cast<float4*>(out + k);
    o[0] = make_float4(l.p0[0], l.p0[1], l.p0[2], __uint_as_float(l.prim));
    o[1] = make_float4(l.e1[0], l.e1[1], l.e1[2], 0.0f);
    o[2] = make_float4(l.e2[0], l.e2[1], l.e2[2], 0.0f);
}

}  // namespace

void copyLeafTrisGpu(const uint32_t* primIndex, const Tri* tris, const Vec3* pos, uint32_t n, LeafTri* out,
                     const LaunchContext& ctx) {
    if (n == 0) return;  // a scene of VD patches alone has no triangles
    launch(ctx, "build/leaf_tris", perItem(n, 256), copyLeafTrisKernel, primIndex, tris, pos, n, out);
}

}  // namespace strata
