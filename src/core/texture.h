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
    float ax = x - fx, ay = y - fy;
    int x0 = int(fx), y0 = int(fy);
    auto px = [&](int xi, int yi) {
        xi = ((xi % t.width) + t.width) % t.width;
        yi = imin(imax(yi, 0), t.height - 1);
        return t.pixels[yi * t.width + xi];
    };
    return lerp(lerp(px(x0, y0), px(x0 + 1, y0), ax), lerp(px(x0, y0 + 1), px(x0 + 1, y0 + 1), ax), ay);
}

}  // namespace strata
