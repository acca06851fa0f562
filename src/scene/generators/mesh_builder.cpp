#include "scene/generators/mesh_builder.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace strata {

namespace {

// Triangles with less area than this (square metres) are dropped as degenerate.
constexpr float kMinArea = 1e-10f;

Vec3 anyPerpendicular(Vec3 t) {
    Vec3 a = fabsf(t.x) < 0.9f ? Vec3{1, 0, 0} : Vec3{0, 1, 0};
    return normalize(cross(cross(t, a), t));
}

}  // namespace

Material diffuse(Vec3 albedo) {
    Material m;
    m.type = MaterialType::Diffuse;
    m.albedo = albedo;
    return m;
}

Material conductor(Vec3 f0, float roughness) {
    Material m;
    m.type = MaterialType::Conductor;
    m.albedo = f0;
    m.roughness = roughness;
    return m;
}

Material emissive(Vec3 emission) {
    Material m;
    m.type = MaterialType::Emissive;
    m.albedo = {0, 0, 0};
    m.emission = emission;
    return m;
}

std::vector<Vec2> catmullRom(const std::vector<Vec2>& c, int steps) {
    std::vector<Vec2> out;
    size_t n = c.size();
    if (n < 2 || steps < 1) return c;
    for (size_t i = 0; i + 1 < n; ++i) {
        Vec2 p0 = c[i > 0 ? i - 1 : i], p1 = c[i], p2 = c[i + 1], p3 = c[i + 2 < n ? i + 2 : i + 1];
        for (int s = 0; s < steps; ++s) {
            float t = float(s) / float(steps), t2 = t * t, t3 = t2 * t;
            out.push_back((p1 * 2.0f + (p2 - p0) * t + (p0 * 2.0f - p1 * 5.0f + p2 * 4.0f - p3) * t2 +
                           (p1 * 3.0f - p0 - p2 * 3.0f + p3) * t3) *
                          0.5f);
        }
    }
    out.push_back(c.back());
    return out;
}

Affine placeYaw(Vec3 at, float yawRadians) {
    return compose(translation(at), rotation(axisAngle({0, 1, 0}, yawRadians)));
}

int32_t MeshBuilder::material(const std::string& name, const Material& m) {
    for (size_t i = 0; i < materials_.size(); ++i)
        if (materials_[i].name == name) return int32_t(i);
    materials_.push_back({name, m});
    return int32_t(materials_.size() - 1);
}

void MeshBuilder::setTransform(const Affine& xf) {
    xf_ = xf;
    Affine inv = inverse(xf);
    normalXf_ = Affine{};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) normalXf_.m[i][j] = inv.m[j][i];
}

uint32_t MeshBuilder::vertex(Vec3 p, Vec3 n, Vec2 uv) {
    pos_.push_back(xf_.point(p));
    Vec3 wn = normalize(normalXf_.vector(n));
    if (!(dot(wn, wn) > 0.5f)) wn = {0, 1, 0};  // a zero normal from a caller: keep unit length
    nrm_.push_back(wn);
    uv_.push_back(uv);
    return uint32_t(pos_.size() - 1);
}

void MeshBuilder::tri(uint32_t a, uint32_t b, uint32_t c) {
    Vec3 g = cross(pos_[b] - pos_[a], pos_[c] - pos_[a]);
    if (!(0.5f * length(g) >= kMinArea)) {
        ++dropped_;
        return;
    }
    if (dot(g, nrm_[a] + nrm_[b] + nrm_[c]) < 0) std::swap(b, c);
    tris_.push_back(Tri{{a, b, c}});
    triMat_.push_back(current_);
}

void MeshBuilder::quad(uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
    tri(a, b, c);
    tri(a, c, d);
}

void MeshBuilder::surface(const std::vector<Vec3>& pos, const std::vector<Vec3>& hint, int rows, int cols,
                          bool wrapCols, Vec2 uvScale) {
    if (rows < 2 || cols < 2 || pos.size() != size_t(rows) * cols || hint.size() != pos.size())
        throw Error("mesh builder: surface needs rows, cols >= 2 and rows * cols positions and hints");
    auto P = [&](int i, int j) { return xf_.point(pos[size_t(i) * cols + j]); };
    int vcols = wrapCols ? cols + 1 : cols;  // vertex columns (seam duplicated)
    uint32_t first = uint32_t(pos_.size());
    for (int i = 0; i < rows; ++i) {
        int i0 = i > 0 ? i - 1 : i, i1 = i + 1 < rows ? i + 1 : i;
        for (int jv = 0; jv < vcols; ++jv) {
            int j = jv % cols;
            int j0, j1;
            if (wrapCols) {
                j0 = (j + cols - 1) % cols;
                j1 = (j + 1) % cols;
            } else {
                j0 = j > 0 ? j - 1 : j;
                j1 = j + 1 < cols ? j + 1 : j;
            }
            Vec3 h = normalize(normalXf_.vector(hint[size_t(i) * cols + j]));
            Vec3 n = cross(P(i, j1) - P(i, j0), P(i1, j) - P(i0, j));
            float nl = length(n);
            // Differences that vanish or are far from the hint (a pole, a cusp): trust the hint.
            if (nl > 1e-12f) {
                n = n / nl;
                if (dot(n, h) < 0) n = -n;
                if (dot(n, h) < 0.2f) n = h;
            } else {
                n = h;
            }
            Vec2 uv{float(jv) / float(cols) * uvScale.x, float(i) / float(rows - 1) * uvScale.y};
            pos_.push_back(P(i, j));
            nrm_.push_back(normalize(n));
            uv_.push_back(uv);
        }
    }
    int quadsPerRow = wrapCols ? cols : cols - 1;
    for (int i = 0; i + 1 < rows; ++i)
        for (int j = 0; j < quadsPerRow; ++j) {
            uint32_t a = first + uint32_t(i * vcols + j), b = a + 1;
            uint32_t d = a + uint32_t(vcols), c = d + 1;
            quad(a, b, c, d);
        }
}

void MeshBuilder::patch(Vec3 o, Vec3 u, Vec3 v, int nu, int nv, bool flip, float uvScale) {
    Vec3 n = normalize(cross(u, v));
    if (flip) n = -n;
    float lu = length(u), lv = length(v);
    uint32_t first = uint32_t(pos_.size());
    for (int j = 0; j <= nv; ++j)
        for (int i = 0; i <= nu; ++i) {
            float s = float(i) / float(nu), t = float(j) / float(nv);
            vertex(o + u * s + v * t, n, {s * lu * uvScale, t * lv * uvScale});
        }
    for (int j = 0; j < nv; ++j)
        for (int i = 0; i < nu; ++i) {
            uint32_t a = first + uint32_t(j * (nu + 1) + i);
            quad(a, a + 1, a + uint32_t(nu + 2), a + uint32_t(nu + 1));
        }
}

void MeshBuilder::box(Vec3 lo, Vec3 hi, bool skipBottom, float uvScale) {
    Vec3 d = hi - lo;
    auto face = [&](Vec3 o, Vec3 u, Vec3 v, Vec3 outward) {
        patch(o, u, v, 1, 1, dot(cross(u, v), outward) < 0, uvScale);
    };
    face({hi.x, lo.y, lo.z}, {0, d.y, 0}, {0, 0, d.z}, {1, 0, 0});
    face({lo.x, lo.y, lo.z}, {0, 0, d.z}, {0, d.y, 0}, {-1, 0, 0});
    face({lo.x, hi.y, lo.z}, {d.x, 0, 0}, {0, 0, d.z}, {0, 1, 0});
    if (!skipBottom) face({lo.x, lo.y, lo.z}, {d.x, 0, 0}, {0, 0, d.z}, {0, -1, 0});
    face({lo.x, lo.y, hi.z}, {d.x, 0, 0}, {0, d.y, 0}, {0, 0, 1});
    face({lo.x, lo.y, lo.z}, {d.x, 0, 0}, {0, d.y, 0}, {0, 0, -1});
}

void MeshBuilder::tube(const std::vector<Vec3>& path, const std::vector<float>& radius, int sides, bool capStart,
                       bool capEnd, int ridges, float ridgeDepth, float ellipse, Vec3 firstAxis) {
    size_t n = path.size();
    if (n < 2 || radius.size() != n || sides < 3)
        throw Error("mesh builder: tube needs >= 2 points, radii, >= 3 sides");
    std::vector<Vec3> T(n), N(n), B(n);
    for (size_t k = 0; k < n; ++k) {
        Vec3 a = path[k > 0 ? k - 1 : k], b = path[k + 1 < n ? k + 1 : k];
        T[k] = normalize(b - a);
    }
    Vec3 n0 = firstAxis - T[0] * dot(firstAxis, T[0]);
    N[0] = dot(n0, n0) > 1e-8f ? normalize(n0) : anyPerpendicular(T[0]);
    for (size_t k = 1; k < n; ++k) {
        Vec3 m = N[k - 1] - T[k] * dot(N[k - 1], T[k]);  // parallel transport
        N[k] = dot(m, m) > 1e-8f ? normalize(m) : anyPerpendicular(T[k]);
    }
    for (size_t k = 0; k < n; ++k) B[k] = cross(T[k], N[k]);

    std::vector<Vec3> pos(n * sides), hint(n * sides);
    float len = 0;
    for (size_t k = 0; k < n; ++k) {
        if (k > 0) len += length(path[k] - path[k - 1]);
        // The radius' slope tilts the normal along the axis; a zero-radius ring is a pole.
        size_t ka = k > 0 ? k - 1 : k, kb = k + 1 < n ? k + 1 : k;
        float ds = length(path[kb] - path[ka]);
        float slope = ds > 0 ? (radius[kb] - radius[ka]) / ds : 0.0f;
        for (int j = 0; j < sides; ++j) {
            float a = 2 * kPi * float(j) / float(sides);
            float m = 1 + (ridges > 0 ? ridgeDepth * cosf(float(ridges) * a) : 0.0f);
            Vec3 dir = N[k] * cosf(a) + B[k] * (ellipse * sinf(a));
            pos[k * sides + j] = path[k] + dir * (radius[k] * m);
            Vec3 radial = normalize(N[k] * (ellipse * cosf(a)) + B[k] * sinf(a));
            hint[k * sides + j] = radius[k] > 0 ? normalize(radial - T[k] * slope) : (k == 0 ? -T[k] : T[k]);
        }
    }
    float circumference = 2 * kPi * std::max(radius[0], radius[n - 1]);
    surface(pos, hint, int(n), sides, true, {std::max(circumference, 1e-3f), std::max(len, 1e-3f)});

    auto cap = [&](size_t k, Vec3 normal) {
        if (!(radius[k] > 0)) return;
        uint32_t c = vertex(path[k], normal, {0.5f, 0.5f});
        uint32_t first = uint32_t(pos_.size());
        for (int j = 0; j < sides; ++j) {
            float a = 2 * kPi * float(j) / float(sides);
            vertex(pos[k * sides + j], normal, {0.5f + 0.5f * cosf(a), 0.5f + 0.5f * sinf(a)});
        }
        for (int j = 0; j < sides; ++j) tri(c, first + uint32_t(j), first + uint32_t((j + 1) % sides));
    };
    if (capStart) cap(0, -T[0]);
    if (capEnd) cap(n - 1, T[n - 1]);
}

void MeshBuilder::lathe(const std::vector<Vec2>& profile, int segments, float uvScaleV) {
    size_t n = profile.size();
    if (n < 2 || segments < 3) throw Error("mesh builder: lathe needs >= 2 profile points and >= 3 segments");
    std::vector<Vec3> pos(n * segments), hint(n * segments);
    for (size_t i = 0; i < n; ++i) {
        Vec2 a = profile[i > 0 ? i - 1 : i], b = profile[i + 1 < n ? i + 1 : i];
        Vec2 d = b - a;
        Vec2 pn{d.y, -d.x};  // outside on the right of the walking direction
        for (int j = 0; j < segments; ++j) {
            float phi = 2 * kPi * float(j) / float(segments);
            float c = cosf(phi), s = sinf(phi);
            float r = std::max(0.0f, profile[i].x);  // a smoothed profile may overshoot the axis
            pos[i * segments + j] = {r * c, profile[i].y, r * s};
            hint[i * segments + j] = normalize(Vec3{pn.x * c, pn.y, pn.x * s});
        }
    }
    float rmax = 0;
    for (const Vec2& p : profile) rmax = std::max(rmax, p.x);
    surface(pos, hint, int(n), segments, true, {std::max(2 * kPi * rmax, 1e-3f), uvScaleV});
}

void MeshBuilder::ellipsoid(Vec3 center, Vec3 radii, int segments, int rings, float thetaMax) {
    if (segments < 3 || rings < 2) throw Error("mesh builder: ellipsoid needs >= 3 segments and >= 2 rings");
    bool full = thetaMax >= kPi;
    int rows = rings + 1;
    std::vector<Vec3> pos(size_t(rows) * segments), hint(pos.size());
    for (int i = 0; i < rows; ++i) {
        float th = (full ? kPi : thetaMax) * float(i) / float(rings);
        bool southPole = full && i == rings;
        float st = (i == 0 || southPole) ? 0.0f : sinf(th);
        float ct = i == 0 ? 1.0f : (southPole ? -1.0f : cosf(th));
        for (int j = 0; j < segments; ++j) {
            float phi = 2 * kPi * float(j) / float(segments);
            Vec3 u{st * cosf(phi), ct, st * sinf(phi)};
            pos[size_t(i) * segments + j] = center + u * radii;
            hint[size_t(i) * segments + j] = normalize(u / radii);
        }
    }
    surface(pos, hint, rows, segments, true, {1, 1});
}

LoadedMesh MeshBuilder::finish(const std::string& name, const std::string& source) {
    LoadedMesh out;
    out.mesh.name = name;
    out.mesh.source = source;
    out.mesh.positions = std::move(pos_);
    out.mesh.normals = std::move(nrm_);
    out.mesh.uvs = std::move(uv_);
    out.mesh.triangles = std::move(tris_);
    out.mesh.triMaterial = std::move(triMat_);
    out.materials = std::move(materials_);
    out.skippedDegenerate = 0;  // generators drop collapsed (pole) triangles by design, not from input
    *this = MeshBuilder{};
    return out;
}

}  // namespace strata
