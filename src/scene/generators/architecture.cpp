#include "scene/generators/architecture.h"

#include <algorithm>
#include <cmath>

namespace strata {

namespace {

// The outer half of a torus' cross-section, bottom to top, as lathe profile points.
void torusArc(std::vector<Vec2>& prof, Vec2 center, float radius, int steps) {
    for (int i = 0; i <= steps; ++i) {
        float a = -0.5f * kPi + kPi * float(i) / float(steps);
        prof.push_back({center.x + radius * cosf(a), center.y + radius * sinf(a)});
    }
}

}  // namespace

float abacusHalfWidth(const ColumnStyle& style) { return 1.42f * style.radius; }

void addColumn(MeshBuilder& b, Vec3 base, const ColumnStyle& st) {
    ScopedTransform at(b, translation(base));
    const float R = st.radius, s = R / 0.26f;  // proportions of a 0.26 m shaft
    const float plinth = 0.25f * s, baseH = 0.25f * s, capH = 0.55f * s, abacus = 0.15f * s;
    const float shaftBottom = plinth + baseH, shaftTop = st.height - capH - abacus;
    const float Rt = 0.88f * R;  // the shaft tapers towards the top

    float hp = 1.55f * R;
    b.box({-hp, 0, -hp}, {hp, plinth, hp}, true);

    // Attic base: a large and a small torus with a hollow between.
    std::vector<Vec2> prof;
    torusArc(prof, {1.23f * R, plinth + 0.05f * s}, 0.05f * s, st.torusSteps);
    prof.push_back({1.12f * R, plinth + 0.125f * s});
    torusArc(prof, {1.12f * R, plinth + 0.175f * s}, 0.035f * s, st.torusSteps - 1);
    prof.push_back({R * 1.02f, shaftBottom});
    b.lathe(prof, st.segments);

    // Fluted, tapering shaft (overlapping base and capital a little).
    std::vector<Vec3> path;
    std::vector<float> radius;
    for (int i = 0; i < st.shaftRings; ++i) {
        float t = float(i) / float(st.shaftRings - 1);
        path.push_back({0, lerpf(shaftBottom - 0.02f * s, shaftTop + 0.02f * s, t), 0});
        radius.push_back(R * (1 - (1 - Rt / R) * powf(t, 1.5f)));
    }
    b.tube(path, radius, st.shaftSides, false, false, st.flutes, -0.035f, 1, {1, 0, 0});

    // Capital: astragal ring, then the echinus flaring out under the abacus.
    prof.clear();
    torusArc(prof, {Rt + 0.01f * s, shaftTop + 0.03f * s}, 0.03f * s, st.torusSteps - 1);
    const int echinus = st.echinusSteps;
    float y0 = shaftTop + 0.07f * s, rTop = 1.38f * R;
    for (int i = 0; i <= echinus; ++i) {
        float t = float(i) / float(echinus);
        prof.push_back({Rt + (rTop - Rt) * t * t, y0 + (capH - 0.07f * s) * t});
    }
    b.lathe(prof, st.segments);
    float ha = abacusHalfWidth(st);
    b.box({-ha, st.height - abacus, -ha}, {ha, st.height, ha});
}

void addArcadeWall(MeshBuilder& b, const std::vector<float>& piers, float zc, float thickness, float ys, float yt,
                   float halfPier, int arcSteps) {
    const float zf = zc + 0.5f * thickness, zb = zc - 0.5f * thickness;
    const int side = arcSteps / 4, top = arcSteps / 2;  // boundary steps up each side and across the top
    for (size_t i = 0; i + 1 < piers.size(); ++i) {
        const float x0 = piers[i], x1 = piers[i + 1], xm = 0.5f * (x0 + x1);
        const float r = 0.5f * (x1 - x0) - halfPier;
        std::vector<Vec3> arc, outer;
        for (int k = 0; k <= arcSteps; ++k) {
            float phi = kPi * float(k) / float(arcSteps);
            arc.push_back({xm + r * cosf(phi), ys + r * sinf(phi), 0});
            // Walk the bay's boundary: up the right side, across the top, down the left.
            Vec3 o;
            if (k <= side)
                o = {x1, lerpf(ys, yt, float(k) / float(side)), 0};
            else if (k <= side + top)
                o = {lerpf(x1, x0, float(k - side) / float(top)), yt, 0};
            else
                o = {x0, lerpf(yt, ys, float(k - side - top) / float(side)), 0};
            outer.push_back(o);
        }
        // Front and back faces: quads between the arch and the boundary.
        for (int face = 0; face < 2; ++face) {
            float z = face == 0 ? zf : zb;
            Vec3 n{0, 0, face == 0 ? 1.0f : -1.0f};
            for (int k = 0; k < arcSteps; ++k) {
                auto v = [&](Vec3 p) { return b.vertex({p.x, p.y, z}, n, {p.x, p.y}); };
                b.quad(v(arc[k]), v(arc[k + 1]), v(outer[k + 1]), v(outer[k]));
            }
        }
        // The intrados: the arch's underside, facing the opening.
        for (int k = 0; k < arcSteps; ++k) {
            float p0 = kPi * float(k) / float(arcSteps), p1 = kPi * float(k + 1) / float(arcSteps);
            Vec3 n0{-cosf(p0), -sinf(p0), 0}, n1{-cosf(p1), -sinf(p1), 0};
            float u0 = r * p0, u1 = r * p1;
            uint32_t a = b.vertex({arc[k].x, arc[k].y, zf}, n0, {u0, 0});
            uint32_t c = b.vertex({arc[k + 1].x, arc[k + 1].y, zf}, n1, {u1, 0});
            uint32_t d = b.vertex({arc[k + 1].x, arc[k + 1].y, zb}, n1, {u1, thickness});
            uint32_t e = b.vertex({arc[k].x, arc[k].y, zb}, n0, {u0, thickness});
            b.quad(a, c, d, e);
        }
    }
}

void addRailing(MeshBuilder& b, float x0, float x1, float zc, float y0, float height, float spacing) {
    const float rail = 0.09f, hand = 0.035f;
    b.box({x0, y0, zc - 0.5f * rail}, {x1, y0 + rail, zc + 0.5f * rail}, true);
    b.tube({{x0, y0 + height, zc}, {x1, y0 + height, zc}}, {hand, hand}, 10, true, true);
    int count = std::max(1, int((x1 - x0) / spacing));
    float step = (x1 - x0) / float(count);
    for (int i = 0; i < count; ++i) {
        float x = x0 + step * (float(i) + 0.5f);
        // A turned baluster: thin neck, bulge in the lower third.
        const float ys[4] = {0, 0.2f, 0.5f, 1.0f};
        const float rs[4] = {0.024f, 0.032f, 0.015f, 0.015f};
        std::vector<Vec3> path;
        std::vector<float> radius;
        for (int k = 0; k < 4; ++k) {
            path.push_back({x, y0 + rail - 0.005f + ys[k] * (height - rail), zc});
            radius.push_back(rs[k]);
        }
        b.tube(path, radius, 6, false, false);
    }
}

void addBanner(MeshBuilder& b, Vec3 top, float width, float length, float facing, int folds, int cols, int rows) {
    std::vector<Vec3> pos(size_t(rows + 1) * (cols + 1)), hint(pos.size(), Vec3{0, 0, facing});
    for (int i = 0; i <= rows; ++i) {
        float v = float(i) / float(rows);
        for (int j = 0; j <= cols; ++j) {
            float u = float(j) / float(cols);
            float x = top.x + (u - 0.5f) * width;
            // Folds deepen towards the bottom; the banner billows out in the middle.
            float fold = 0.05f * sinf(2 * kPi * float(folds) * u) * (0.3f + 0.7f * v);
            float billow = 0.12f * sinf(kPi * v) * (1 - 0.6f * (2 * u - 1) * (2 * u - 1));
            // A swallow-tail hem: the middle of the bottom edge is cut up.
            float hem = 0.18f * length * (1 - fabsf(2 * u - 1));
            float y = top.y - v * (length - hem);
            pos[size_t(i) * (cols + 1) + j] = {x, y, top.z + facing * (fold + billow)};
        }
    }
    b.surface(pos, hint, rows + 1, cols + 1, false, {width, length});
}

void addVase(MeshBuilder& b, Vec3 base, float height, float radius, int segments, int profileSteps) {
    ScopedTransform at(b, translation(base));
    // Outside from the foot up to the lip, then inside down to the soil line.
    std::vector<Vec2> prof;
    prof.push_back({0, 0});
    prof.push_back({0.55f * radius, 0});
    for (int i = 0; i <= profileSteps; ++i) {
        float t = float(i) / float(profileSteps);
        float r = radius * (0.55f + 0.45f * sinf(kPi * (0.1f + 0.75f * t)) + 0.12f * t * t * t);
        prof.push_back({r, 0.04f * height + t * 0.92f * height});
    }
    float lip = prof.back().x;
    prof.push_back({lip + 0.04f * radius, 0.96f * height});
    prof.push_back({lip + 0.04f * radius, height});
    prof.push_back({lip - 0.06f * radius, height});
    prof.push_back({lip - 0.08f * radius, 0.85f * height});
    prof.push_back({0, 0.85f * height});
    b.lathe(prof, segments);
}

}  // namespace strata
