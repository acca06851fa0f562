// core/transform.h — affine transforms (3x4, row-major) and quaternions.
// Names say both frames, as pbrt does: worldFromObject maps object space to world.
#pragma once

#include "core/aabb.h"
#include "core/vec.h"

namespace strata {

struct Affine {
    // Rows of the upper 3x4 of the matrix; the last column is the translation.
    float m[3][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}};

    STRATA_HD Vec3 point(Vec3 p) const {
        return {m[0][0] * p.x + m[0][1] * p.y + m[0][2] * p.z + m[0][3],
                m[1][0] * p.x + m[1][1] * p.y + m[1][2] * p.z + m[1][3],
                m[2][0] * p.x + m[2][1] * p.y + m[2][2] * p.z + m[2][3]};
    }
    STRATA_HD Vec3 vector(Vec3 v) const {
        return {m[0][0] * v.x + m[0][1] * v.y + m[0][2] * v.z, m[1][0] * v.x + m[1][1] * v.y + m[1][2] * v.z,
                m[2][0] * v.x + m[2][1] * v.y + m[2][2] * v.z};
    }
};

STRATA_HD Affine compose(const Affine& a, const Affine& b) {  // a * b
    Affine r;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 4; ++j) {
            float s = a.m[i][0] * b.m[0][j] + a.m[i][1] * b.m[1][j] + a.m[i][2] * b.m[2][j];
            if (j == 3) s += a.m[i][3];
            r.m[i][j] = s;
        }
    }
    return r;
}

STRATA_HD Affine translation(Vec3 t) {
    Affine r;
    r.m[0][3] = t.x;
    r.m[1][3] = t.y;
    r.m[2][3] = t.z;
    return r;
}
STRATA_HD Affine scaling(Vec3 s) {
    Affine r;
    r.m[0][0] = s.x;
    r.m[1][1] = s.y;
    r.m[2][2] = s.z;
    return r;
}

// Inverse of an affine map (general 3x3 part). Returns identity if singular.
STRATA_HD Affine inverse(const Affine& a) {
    const float(*m)[4] = a.m;
    float c00 = m[1][1] * m[2][2] - m[1][2] * m[2][1];
    float c01 = m[1][2] * m[2][0] - m[1][0] * m[2][2];
    float c02 = m[1][0] * m[2][1] - m[1][1] * m[2][0];
    float det = m[0][0] * c00 + m[0][1] * c01 + m[0][2] * c02;
    Affine r;
    if (fabsf(det) < 1e-30f) return r;
    float id = 1.0f / det;
    r.m[0][0] = c00 * id;
    r.m[0][1] = (m[0][2] * m[2][1] - m[0][1] * m[2][2]) * id;
    r.m[0][2] = (m[0][1] * m[1][2] - m[0][2] * m[1][1]) * id;
    r.m[1][0] = c01 * id;
    r.m[1][1] = (m[0][0] * m[2][2] - m[0][2] * m[2][0]) * id;
    r.m[1][2] = (m[0][2] * m[1][0] - m[0][0] * m[1][2]) * id;
    r.m[2][0] = c02 * id;
    r.m[2][1] = (m[0][1] * m[2][0] - m[0][0] * m[2][1]) * id;
    r.m[2][2] = (m[0][0] * m[1][1] - m[0][1] * m[1][0]) * id;
    for (int i = 0; i < 3; ++i) r.m[i][3] = -(r.m[i][0] * m[0][3] + r.m[i][1] * m[1][3] + r.m[i][2] * m[2][3]);
    return r;
}

struct Quat {
    float x = 0, y = 0, z = 0, w = 1;
};

STRATA_HD Quat axisAngle(Vec3 axis, float radians) {
    Vec3 a = normalize(axis);
    float s = sinf(0.5f * radians);
    return {a.x * s, a.y * s, a.z * s, cosf(0.5f * radians)};
}

STRATA_HD Quat nlerp(Quat a, Quat b, float t) {
    float d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    float sb = d < 0.0f ? -t : t;  // take the short way round
    Quat q{a.x * (1 - t) + b.x * sb, a.y * (1 - t) + b.y * sb, a.z * (1 - t) + b.z * sb, a.w * (1 - t) + b.w * sb};
    float n = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    if (n > 0) {
        q.x /= n;
        q.y /= n;
        q.z /= n;
        q.w /= n;
    }
    return q;
}

STRATA_HD Affine rotation(Quat q) {
    Affine r;
    float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    float xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    float wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    r.m[0][0] = 1 - 2 * (yy + zz);
    r.m[0][1] = 2 * (xy - wz);
    r.m[0][2] = 2 * (xz + wy);
    r.m[1][0] = 2 * (xy + wz);
    r.m[1][1] = 1 - 2 * (xx + zz);
    r.m[1][2] = 2 * (yz - wx);
    r.m[2][0] = 2 * (xz - wy);
    r.m[2][1] = 2 * (yz + wx);
    r.m[2][2] = 1 - 2 * (xx + yy);
    return r;
}

// Translate * Rotate * Scale.
STRATA_HD Affine trs(Vec3 t, Quat r, Vec3 s) { return compose(translation(t), compose(rotation(r), scaling(s))); }

STRATA_HD Aabb transformBox(const Affine& x, const Aabb& b) {
    Aabb r;
    for (int i = 0; i < 8; ++i) {
        Vec3 p{(i & 1) ? b.hi.x : b.lo.x, (i & 2) ? b.hi.y : b.lo.y, (i & 4) ? b.hi.z : b.lo.z};
        r.grow(x.point(p));
    }
    return r;
}

}  // namespace strata
