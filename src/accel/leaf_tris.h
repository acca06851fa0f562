// accel/leaf_tris.h — accel.copy_leaf_tris (strata's): the triangles of a
// BVH (binary, or collapsed 8 wide) copied in its leaf order, one 48-byte
// record per primIndex entry, so that a leaf test reads its triangle in one
// record (three 16-byte loads on the GPU) instead of following the entry to
// the primitive id, the id to its vertex indices and the indices to three
// vertices: three dependent loads less on the path of every ray. The copy
// is made anew after each build or refit (the vertices move; a static BLAS
// of instanced mode is built once, in object space, and copied then); the
// hits are the same, bit for bit: the record holds the first vertex and the
// two edges as the test computes them, and the test is the same.
#pragma once

#include <cstdint>
#include <vector>

#include "accel/triangle.h"
#include "core/geometry.h"

namespace strata {

struct alignas(16) LeafTri {
    float p0[3];
    uint32_t prim;  // the primitive id the indexed entry holds
    float e1[3];    // p1 - p0, as intersectTriangle computes it
    float pad1;
    float e2[3];  // p2 - p0
    float pad2;
};
static_assert(sizeof(LeafTri) == 48, "LeafTri is read as three 16-byte loads");

STRATA_HD LeafTri makeLeafTri(const Vec3* pos, const Tri* tris, uint32_t prim) {
    const Tri t = tris[prim];
    const Vec3 a = pos[t.v[0]], e1 = pos[t.v[1]] - a, e2 = pos[t.v[2]] - a;
    return LeafTri{{a.x, a.y, a.z}, prim, {e1.x, e1.y, e1.z}, 0.0f, {e2.x, e2.y, e2.z}, 0.0f};
}

// Intersects entry `entry`'s triangle as intersectTriangle does the indexed
// one; returns the hit distance (< tmax) or a value >= tmax, and its id.
STRATA_HD float intersectLeafTri(const LeafTri* leafTris, int32_t entry, const Ray& ray, float tmax, uint32_t& prim) {
#if defined(__CUDA_ARCH__)
    const float4* q = reinterpret_cast<const float4*>(leafTris + entry);
    const float4 a = __ldg(q), b = __ldg(q + 1), c = __ldg(q + 2);
    prim = __float_as_uint(a.w);
    const Vec3 p0{a.x, a.y, a.z}, e1{b.x, b.y, b.z}, e2{c.x, c.y, c.z};
#else
    const LeafTri& l = leafTris[entry];
    prim = l.prim;
    const Vec3 p0{l.p0[0], l.p0[1], l.p0[2]}, e1{l.e1[0], l.e1[1], l.e1[2]}, e2{l.e2[0], l.e2[1], l.e2[2]};
#endif
    TriHit h;
    return intersectTriangleEdges(ray, p0, e1, e2, tmax, h) ? h.t : 3.0e38f;
}

// The host's copy (the CPU backend, the tests): out[k] is primIndex[k]'s triangle.
inline void copyLeafTris(const std::vector<uint32_t>& primIndex, const Vec3* pos, const Tri* tris,
                         std::vector<LeafTri>& out) {
    out.resize(primIndex.size());
    for (size_t k = 0; k < primIndex.size(); ++k) out[k] = makeLeafTri(pos, tris, primIndex[k]);
}

}  // namespace strata
