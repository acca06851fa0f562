// core/texture.h — an RGB float image in host or device memory and its
// bilinear, wrapping lookup (material textures, vector displacement maps).
#pragma once

#include "core/vec.h"

namespace strata {

struct TextureView {
    const Vec3* pixels = nullptr;  // row-major, top row first
    int32_t width = 0, height = 0;
};

// uv (0,0) is the bottom-left corner; u wraps, v clamps (equirectangular maps
// and tiles alike); bilinear between the four nearest texel centres.
STRATA_HD Vec3 sampleTexture(const TextureView& t, Vec2 uv) {  // bilinear, wrapping
    float x = (uv.x - floorf(uv.x)) * t.width - 0.5f;
    float y = (1.0f - (uv.y - floorf(uv.y))) * t.height - 0.5f;
    float fx = floorf(x), fy = floorf(y);
    // A non-finite uv reads near texel 0 (its value is NaN anyway): int() of
    // a NaN or an infinity is undefined behaviour.
    if (!(fabsf(fx) < 1e9f)) fx = 0.0f;
    if (!(fabsf(fy) < 1e9f)) fy = 0.0f;
    float ax = x - fx, ay = y - fy;
    // Columns: x0 is in [-1, width - 1] (x is in [-0.5, width - 0.5]),
    // wrapped with one compare (integer remainders cost more than the rest
    // of the lookup: VD patches sample their maps several times per vertex
    // and hit).
    int x0 = int(fx);
    if (x0 < 0) x0 += t.width;
    const int x1 = x0 + 1 == t.width ? 0 : x0 + 1;
    const int y0 = int(fy);
    const Vec3* r0 = t.pixels + imin(imax(y0, 0), t.height - 1) * t.width;
    const Vec3* r1 = t.pixels + imin(imax(y0 + 1, 0), t.height - 1) * t.width;
    return lerp(lerp(r0[x0], r0[x1], ax), lerp(r1[x0], r1[x1], ax), ay);
}

}  // namespace strata
