// core/vec.h — small vector math shared by host and device code.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/hd.h"

namespace strata {

constexpr float kPi = 3.14159265358979323846f;
constexpr float kInvPi = 0.31830988618379067154f;

struct Vec2 {
    float x = 0, y = 0;
};

struct Vec3 {
    float x = 0, y = 0, z = 0;
    STRATA_HD float operator[](int i) const { return i == 0 ? x : (i == 1 ? y : z); }
    STRATA_HD float& operator[](int i) { return i == 0 ? x : (i == 1 ? y : z); }
};

STRATA_HD Vec2 make2(float x, float y) { return Vec2{x, y}; }
STRATA_HD Vec3 make3(float x, float y, float z) { return Vec3{x, y, z}; }
STRATA_HD Vec3 make3(float s) { return Vec3{s, s, s}; }

STRATA_HD Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
STRATA_HD Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
STRATA_HD Vec2 operator*(Vec2 a, float s) { return {a.x * s, a.y * s}; }
STRATA_HD Vec2 operator*(float s, Vec2 a) { return {a.x * s, a.y * s}; }

STRATA_HD Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
STRATA_HD Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
STRATA_HD Vec3 operator-(Vec3 a) { return {-a.x, -a.y, -a.z}; }
STRATA_HD Vec3 operator*(Vec3 a, Vec3 b) { return {a.x * b.x, a.y * b.y, a.z * b.z}; }
STRATA_HD Vec3 operator*(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
STRATA_HD Vec3 operator*(float s, Vec3 a) { return {a.x * s, a.y * s, a.z * s}; }
STRATA_HD Vec3 operator/(Vec3 a, float s) { return a * (1.0f / s); }
STRATA_HD Vec3 operator/(Vec3 a, Vec3 b) { return {a.x / b.x, a.y / b.y, a.z / b.z}; }
STRATA_HD Vec3& operator+=(Vec3& a, Vec3 b) {
    a = a + b;
    return a;
}
STRATA_HD Vec3& operator-=(Vec3& a, Vec3 b) {
    a = a - b;
    return a;
}
STRATA_HD Vec3& operator*=(Vec3& a, Vec3 b) {
    a = a * b;
    return a;
}
STRATA_HD Vec3& operator*=(Vec3& a, float s) {
    a = a * s;
    return a;
}

STRATA_HD float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
STRATA_HD Vec3 cross(Vec3 a, Vec3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
STRATA_HD float length(Vec3 a) { return sqrtf(dot(a, a)); }
STRATA_HD Vec3 normalize(Vec3 a) {
    float l2 = dot(a, a);
    return l2 > 0.0f ? a * (1.0f / sqrtf(l2)) : a;
}
STRATA_HD Vec3 vmin(Vec3 a, Vec3 b) { return {fminf(a.x, b.x), fminf(a.y, b.y), fminf(a.z, b.z)}; }
STRATA_HD Vec3 vmax(Vec3 a, Vec3 b) { return {fmaxf(a.x, b.x), fmaxf(a.y, b.y), fmaxf(a.z, b.z)}; }
STRATA_HD float maxComponent(Vec3 a) { return fmaxf(a.x, fmaxf(a.y, a.z)); }
STRATA_HD float minComponent(Vec3 a) { return fminf(a.x, fminf(a.y, a.z)); }
STRATA_HD Vec3 lerp(Vec3 a, Vec3 b, float t) { return a + (b - a) * t; }
STRATA_HD float lerpf(float a, float b, float t) { return a + (b - a) * t; }
STRATA_HD int imin(int a, int b) { return a < b ? a : b; }
STRATA_HD int imax(int a, int b) { return a > b ? a : b; }
STRATA_HD float clampf(float v, float lo, float hi) { return fminf(fmaxf(v, lo), hi); }
STRATA_HD float luminance(Vec3 c) { return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z; }
STRATA_HD bool isFinite(Vec3 a) {
#if defined(__CUDA_ARCH__)
    return isfinite(a.x) && isfinite(a.y) && isfinite(a.z);
#else
    return std::isfinite(a.x) && std::isfinite(a.y) && std::isfinite(a.z);
#endif
}

// Orthonormal basis around a unit normal (Duff et al. 2017, "Building an
// orthonormal basis, revisited").
STRATA_HD void makeBasis(Vec3 n, Vec3& t, Vec3& b) {
    float sign = copysignf(1.0f, n.z);
    float a = -1.0f / (sign + n.z);
    float c = n.x * n.y * a;
    t = {1.0f + sign * n.x * n.x * a, sign * c, -sign * n.x};
    b = {c, sign + n.y * n.y * a, -n.y};
}

}  // namespace strata
