// core/vd_patch.h — a vector-displacement patch as a surface (Harada):
// the bilinear quad of its four corners, plus the map's displacement vector at
// the interpolated uv, scaled, in object space or in the quad's tangent frame.
// Shared by pre-tessellation (host) and the bottom-level build (host and GPU),
// so both modes displace exactly the same points.
#pragma once

#include "core/aabb.h"
#include "core/texture.h"

namespace strata {

// One patch in its mesh's object space. POD: copied to the device as is.
struct VdPatch {
    Vec3 p[4];      // corners at (s,t) = (0,0), (1,0), (1,1), (0,1)
    Vec2 uv[4];     // map coordinates at the corners
    Aabb box;       // loose bounds: the quad's box grown by scale * the map's max |texel|
    int32_t map;    // index into the scene's VD maps
    int32_t space;  // VdSpace: 0 object, 1 tangent
    float scale;
    int32_t maxLevel;  // the finest level this patch may be subdivided to
    int32_t material;
};

template <typename T>
STRATA_HD T bilerp4(const T* c, float s, float t) {
    return (c[0] * (1 - s) + c[1] * s) * (1 - t) + (c[3] * (1 - s) + c[2] * s) * t;
}

// Patch coordinates -> the mesh uv (for textures).
STRATA_HD Vec2 vdUv(const VdPatch& q, float s, float t) {
    return make2(lerpf(lerpf(q.uv[0].x, q.uv[1].x, s), lerpf(q.uv[3].x, q.uv[2].x, s), t),
                 lerpf(lerpf(q.uv[0].y, q.uv[1].y, s), lerpf(q.uv[3].y, q.uv[2].y, s), t));
}

// The displaced surface point at patch coordinates (s,t) in [0,1]^2.
STRATA_HD Vec3 vdPosition(const VdPatch& q, const TextureView& map, float s, float t) {
    Vec3 base = bilerp4(q.p, s, t);
    Vec3 d = sampleTexture(map, vdUv(q, s, t)) * q.scale;
    if (q.space == 1) {  // tangent space: x along dP/ds, y along dP/dt, z along the normal
        Vec3 dPds = lerp(q.p[1] - q.p[0], q.p[2] - q.p[3], t);
        Vec3 dPdt = lerp(q.p[3] - q.p[0], q.p[2] - q.p[1], s);
        Vec3 n = normalize(cross(dPds, dPdt));
        Vec3 tu = normalize(dPds);
        Vec3 tv = cross(n, tu);
        d = tu * d.x + tv * d.y + n * d.z;
    }
    return base + d;
}

}  // namespace strata
