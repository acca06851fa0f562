// render/tonemap.h — exposure, tone mapping and sRGB encoding to 8 bits.
#pragma once

#include <cstdint>

#include "core/options.h"
#include "core/vec.h"

namespace strata {

// ACES filmic curve, Narkowicz 2015 fit.
STRATA_HD float acesFilm(float x) {
    return clampf((x * (2.51f * x + 0.03f)) / (x * (2.43f * x + 0.59f) + 0.14f), 0.0f, 1.0f);
}

STRATA_HD float linearToSrgb(float c) {
    c = clampf(c, 0.0f, 1.0f);
    return c <= 0.0031308f ? 12.92f * c : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
}

STRATA_HD uint32_t tonemapPixel(Vec3 hdr, float exposureScale, Tonemap op) {
    Vec3 c = hdr * exposureScale;
    if (!isFinite(c)) c = {0, 0, 0};
    c = vmax(c, make3(0.0f));
    if (op == Tonemap::Aces)
        c = {acesFilm(c.x), acesFilm(c.y), acesFilm(c.z)};
    else if (op == Tonemap::Reinhard)
        c = {c.x / (1 + c.x), c.y / (1 + c.y), c.z / (1 + c.z)};
    uint32_t r = uint32_t(linearToSrgb(c.x) * 255.0f + 0.5f);
    uint32_t g = uint32_t(linearToSrgb(c.y) * 255.0f + 0.5f);
    uint32_t b = uint32_t(linearToSrgb(c.z) * 255.0f + 0.5f);
    return r | (g << 8) | (b << 16) | (255u << 24);
}

}  // namespace strata
