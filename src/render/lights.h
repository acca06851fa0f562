// render/lights.h — the three light kinds and their sampling: an
// equirectangular environment map (importance sampled by a marginal /
// conditional CDF over luminance x sin(theta)), a directional sun (delta), and
// emissive triangles (picked by power, uniform in area).
#pragma once

#include "core/vec.h"
#include "render/sampling.h"
#include "scene/scene.h"

namespace strata {

struct EnvView {
    const Vec3* pixels = nullptr;  // w * h, top row = +Y
    int32_t width = 0, height = 0;
    Vec3 scale{0, 0, 0};
    float rotation = 0;                     // radians about +Y
    const float* marginalCdf = nullptr;     // height entries, last = 1
    const float* conditionalCdf = nullptr;  // height * width, each row's last = 1
    STRATA_HD bool present() const { return pixels != nullptr && maxComponent(scale) > 0.0f; }
};

struct SunView {
    bool enabled = false;
    Vec3 direction{0, 1, 0};  // towards the sun, unit
    Vec3 radiance{0, 0, 0};
};

struct EmissiveView {
    const uint32_t* tris = nullptr;       // light -> triangle id
    const float* cdf = nullptr;           // by power at load time
    const float* pickPdf = nullptr;       // per light
    const int32_t* lightOfTri = nullptr;  // triangle -> light, -1 if not emissive
    uint32_t count = 0;
};

STRATA_HD Vec2 dirToEquirect(Vec3 d, float rotation) {
    float phi = atan2f(d.z, d.x) + rotation;
    float u = phi * (0.5f * kInvPi);
    u -= floorf(u);
    float v = acosf(clampf(d.y, -1.0f, 1.0f)) * kInvPi;
    return {u, v};
}

STRATA_HD Vec3 equirectToDir(float u, float v, float rotation) {
    float phi = u * 2.0f * kPi - rotation, theta = v * kPi;
    float st = sinf(theta);
    return {st * cosf(phi), cosf(theta), st * sinf(phi)};
}

// The texel holding uv, clamped into the map; a NaN coordinate (a direction
// that is not finite) gives texel 0 instead of an undefined conversion.
STRATA_HD int envTexel(float u, int size) { return int(fminf(fmaxf(u * float(size), 0.0f), float(size - 1))); }

STRATA_HD Vec3 envRadiance(const EnvView& env, Vec3 dir) {
    if (!env.present()) return make3(0.0f);
    Vec2 uv = dirToEquirect(dir, env.rotation);
    const int x = envTexel(uv.x, env.width), y = envTexel(uv.y, env.height);
    return env.pixels[y * env.width + x] * env.scale;
}

STRATA_HD float cdfPmf(const float* cdf, uint32_t i) { return cdf[i] - (i > 0 ? cdf[i - 1] : 0.0f); }

// Solid-angle density of sampleEnv choosing dir.
STRATA_HD float envPdf(const EnvView& env, Vec3 dir) {
    if (!env.present()) return 0.0f;
    Vec2 uv = dirToEquirect(dir, env.rotation);
    const int x = envTexel(uv.x, env.width), y = envTexel(uv.y, env.height);
    float sinT = sqrtf(fmaxf(0.0f, 1.0f - dir.y * dir.y));
    if (sinT <= 1e-6f) return 0.0f;
    float p = cdfPmf(env.marginalCdf, y) * cdfPmf(env.conditionalCdf + y * env.width, x);
    return p * env.width * env.height / (2.0f * kPi * kPi * sinT);
}

STRATA_HD Vec3 sampleEnv(const EnvView& env, float u1, float u2, Vec3& dir, float& pdf) {
    uint32_t y = sampleCdf(env.marginalCdf, env.height, u1);
    const float* row = env.conditionalCdf + y * env.width;
    uint32_t x = sampleCdf(row, env.width, u2);
    // Jitter within the pixel, reusing the fractional parts of u1, u2.
    float py0 = y > 0 ? env.marginalCdf[y - 1] : 0.0f, py = env.marginalCdf[y] - py0;
    float px0 = x > 0 ? row[x - 1] : 0.0f, px = row[x] - px0;
    float fy = py > 0 ? clampf((u1 - py0) / py, 0.0f, 0.9999f) : 0.5f;
    float fx = px > 0 ? clampf((u2 - px0) / px, 0.0f, 0.9999f) : 0.5f;
    float u = (x + fx) / env.width, v = (y + fy) / env.height;
    dir = equirectToDir(u, v, env.rotation);
    float sinT = sinf(v * kPi);
    pdf = sinT > 1e-6f ? py * px * env.width * env.height / (2.0f * kPi * kPi * sinT) : 0.0f;
    return env.pixels[y * env.width + x] * env.scale;
}

}  // namespace strata
