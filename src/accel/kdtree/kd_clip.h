// accel/kdtree/kd_clip.h — the bounds of the part of a triangle inside a box
// (Sutherland & Hodgman polygon clipping against the six closed half-spaces).
// Zhou08 clips straddling triangles to each child so that the children's
// triangle bounds stay tight; both builders use this one routine.
#pragma once

#include <cstdint>
#include <vector>

#include "core/aabb.h"
#include "core/geometry.h"

namespace strata {

// The bounds of triangle t; false when a vertex is not finite (the kd
// builders leave such a triangle out, and say how many).
STRATA_HD bool kdTriangleBounds(const Vec3* pos, const Tri& t, Aabb& box) {
    box = Aabb{};
    for (int k = 0; k < 3; ++k) box.grow(pos[t.v[k]]);
    return isFinite(box.lo) && isFinite(box.hi);
}

// A CPU kd builder's root: each triangle with finite vertices appended to
// refs as {id, bounds}, and cell grown to hold them. Returns how many were
// left out (the builders say so in a warning).
template <class Ref>
uint32_t kdCollectTriangles(const Vec3* pos, const Tri* tris, uint32_t numTris, std::vector<Ref>& refs, Aabb& cell) {
    uint32_t skipped = 0;
    for (uint32_t t = 0; t < numTris; ++t) {
        Aabb box;
        if (!kdTriangleBounds(pos, tris[t], box)) {
            ++skipped;
            continue;
        }
        refs.push_back({t, box});
        cell.grow(box);
    }
    return skipped;
}

// Returns false when the triangle misses the closed box; otherwise out is
// the bounds of the clipped polygon, clamped into the box (robust to rounding).
STRATA_HD bool clipTriangleToBox(Vec3 p0, Vec3 p1, Vec3 p2, const Aabb& box, Aabb& out) {
    Vec3 buf[2][9];  // a triangle clipped by six planes has at most 9 vertices
    int n = 3, cur = 0;
    buf[0][0] = p0;
    buf[0][1] = p1;
    buf[0][2] = p2;
    for (int plane = 0; plane < 6 && n > 0; ++plane) {
        const int axis = plane >> 1;
        const bool keepAbove = (plane & 1) == 0;  // lo plane keeps p >= lo, hi plane keeps p <= hi
        const float c = keepAbove ? box.lo[axis] : box.hi[axis];
        const Vec3* in = buf[cur];
        Vec3* out2 = buf[cur ^ 1];
        int m = 0;
        for (int i = 0; i < n; ++i) {
            const Vec3 a = in[i], b = in[(i + 1) % n];
            const bool ia = keepAbove ? a[axis] >= c : a[axis] <= c;
            const bool ib = keepAbove ? b[axis] >= c : b[axis] <= c;
            if (ia && m < 9) out2[m++] = a;
            if (ia != ib && m < 9) {
                const float t = (c - a[axis]) / (b[axis] - a[axis]);
                Vec3 p = a + (b - a) * t;
                p[axis] = c;
                out2[m++] = p;
            }
        }
        n = m;
        cur ^= 1;
    }
    if (n == 0) return false;
    Aabb r;
    for (int i = 0; i < n; ++i) r.grow(buf[cur][i]);
    r.lo = vmin(vmax(r.lo, box.lo), box.hi);
    r.hi = vmin(vmax(r.hi, box.lo), box.hi);
    out = r;
    return true;
}

// Whether a triangle reaches a cell at all (the small-node stage's
// accel.kd_clip_leaves drops those that do not): clipped to the cell grown
// by a millionth of its coordinates' magnitude, so that rounding in the
// clipping cannot lose a triangle that touches the cell. (Clipping to the
// exact cell lost about one closest hit in 7,000 on the real Sponza when
// every small node was decided with its triangles clipped.)
STRATA_HD bool triangleInCell(Vec3 p0, Vec3 p1, Vec3 p2, const Aabb& cell) {
    float m = 0.0f;
    for (int a = 0; a < 3; ++a) m = fmaxf(m, fmaxf(fabsf(cell.lo[a]), fabsf(cell.hi[a])));
    const float slack = m * 1e-6f;
    Aabb grown = cell;
    for (int a = 0; a < 3; ++a) grown.lo[a] -= slack, grown.hi[a] += slack;
    Aabb clipped;
    return clipTriangleToBox(p0, p1, p2, grown, clipped);
}

}  // namespace strata
