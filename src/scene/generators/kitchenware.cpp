// Tableware, pots, jars, burners and the ceiling lamp: lathe surfaces from
// smoothed profiles, plus swept handles. Profiles run with the surface's
// outside on the right (mesh_builder.h), closing on the axis where solid.
#include <cmath>

#include "scene/generators/kitchen_parts.h"

namespace strata {

std::vector<Vec2> turnedLegProfile(float h, float R, int steps) {
    std::vector<Vec2> c = {
        {0.0f, 0.0f},           {0.7f * R, 0.0f},      {0.8f * R, 0.02f * h},  {0.72f * R, 0.05f * h},
        {0.6f * R, 0.1f * h},   {0.7f * R, 0.2f * h},  {0.9f * R, 0.3f * h},   {0.75f * R, 0.42f * h},
        {0.55f * R, 0.5f * h},  {0.6f * R, 0.56f * h}, {0.95f * R, 0.62f * h}, {0.6f * R, 0.67f * h},
        {0.75f * R, 0.73f * h}, {R, 0.78f * h},        {R, 0.995f * h},        {0.0f, h},
    };
    return catmullRom(c, steps);
}

void addPlate(MeshBuilder& b, Vec3 at, float R, int segments) {
    ScopedTransform t(b, translation(at));
    std::vector<Vec2> c = {{0, 0.004f},         {0.5f * R, 0.004f},  {0.55f * R, 0.0005f}, {0.6f * R, 0.002f},
                           {0.78f * R, 0.011f}, {R, 0.021f},         {R + 0.003f, 0.024f}, {0.97f * R, 0.026f},
                           {0.76f * R, 0.015f}, {0.58f * R, 0.008f}, {0, 0.008f}};
    b.lathe(catmullRom(c, 3), segments);
}

void addBowl(MeshBuilder& b, Vec3 at, float R, int segments) {
    ScopedTransform t(b, translation(at));
    const float h = 0.55f * R;
    std::vector<Vec2> c = {{0, 0.002f}, {0.35f * R, 0.002f}, {0.38f * R, 0}};
    for (int i = 1; i <= 5; ++i) {  // the outside: a quarter ellipse up to the rim
        float a = 0.5f * kPi * float(i) / 5.0f;
        c.push_back({0.38f * R + 0.62f * R * sinf(a), 0.01f + (h - 0.01f) * (1 - cosf(a))});
    }
    c.push_back({R + 0.002f, h + 0.004f});
    for (int i = 5; i >= 0; --i) {  // the inside, back down to the centre
        float a = 0.5f * kPi * float(i) / 5.0f;
        float ri = R - 0.006f;
        c.push_back({ri * sinf(a), 0.018f + (h - 0.018f) * (1 - cosf(a))});
    }
    b.lathe(catmullRom(c, 2), segments);
}

void addCup(MeshBuilder& b, Vec3 at, float R, int segments) {
    ScopedTransform t(b, translation(at));
    const float h = 2.0f * R, w = 0.005f;
    std::vector<Vec2> c = {
        {0, 0.003f},   {0.8f * R, 0.003f},         {0.88f * R, 0}, {0.97f * R, 0.15f * R}, {R, 0.6f * R},
        {R, h},        {R - 0.5f * w, h + 0.002f}, {R - w, h},     {R - w, 0.6f * R},      {0.85f * R, 0.2f * R},
        {0, 0.18f * R}};
    b.lathe(catmullRom(c, 3), segments);
    std::vector<Vec3> path;
    std::vector<float> radius;
    for (int i = 0; i <= 12; ++i) {  // a C-shaped handle on the +X side
        float a = -0.5f * kPi * 0.95f + kPi * 0.95f * float(i) / 12.0f;
        path.push_back({R - 0.002f + 0.5f * R * cosf(a), 1.05f * R + 0.55f * R * sinf(a), 0});
        radius.push_back(0.12f * R);
    }
    b.tube(path, radius, 12, true, true);
}

void addPot(MeshBuilder& b, const KitchenMaterials& m, Vec3 at, float R, float H, bool lid, int segments) {
    ScopedTransform t(b, translation(at));
    const float w = 0.004f;
    b.use(m.copper);
    std::vector<Vec2> body = {{0, 0.001f},       {R - 0.012f, 0.001f}, {R - 0.002f, 0.006f},     {R, 0.02f},
                              {R, 0.5f * H},     {R, H - 0.004f},      {R + 0.003f, H},          {R - w, H + 0.002f},
                              {R - w, 0.5f * H}, {R - w, 0.02f},       {R - 0.015f, w + 0.002f}, {0, w + 0.002f}};
    b.lathe(catmullRom(body, 4), segments);
    b.use(m.steel);
    for (float side : {-1.0f, 1.0f}) {  // loop handles on both sides
        std::vector<Vec3> path;
        for (int i = 0; i <= 10; ++i) {
            float a = -0.5f * kPi + kPi * float(i) / 10.0f;
            path.push_back({side * (R - 0.004f + 0.045f * cosf(a)), 0.8f * H, 0.05f * sinf(a)});
        }
        b.tube(path, std::vector<float>(path.size(), 0.008f), 12, true, true);
    }
    if (lid) {
        std::vector<Vec2> c = {{0, H + 0.024f},          {0.7f * R, H + 0.016f}, {R + 0.006f, H - 0.001f},
                               {R + 0.006f, H + 0.003f}, {0.7f * R, H + 0.024f}, {0.1f * R, H + 0.034f},
                               {0.015f, H + 0.035f},     {0.014f, H + 0.05f},    {0.03f, H + 0.06f},
                               {0.03f, H + 0.07f},       {0, H + 0.072f}};
        b.lathe(catmullRom(c, 3), segments);
    }
}

void addJar(MeshBuilder& b, const KitchenMaterials& m, Vec3 at, float R, float H, int segments) {
    ScopedTransform t(b, translation(at));
    b.use(m.glass);
    std::vector<Vec2> c = {{0, 0},         {R - 0.006f, 0},        {R, 0.008f},   {R, 0.5f * H},
                           {R, 0.85f * H}, {0.82f * R, 0.93f * H}, {0.8f * R, H}, {0, H}};
    b.lathe(catmullRom(c, 4), segments);
    b.use(m.steel);
    std::vector<Vec2> l = {
        {0, H - 0.004f}, {0.86f * R, H - 0.004f}, {0.87f * R, H + 0.02f}, {0.84f * R, H + 0.026f}, {0, H + 0.027f}};
    b.lathe(catmullRom(l, 2), segments);
}

void addBurner(MeshBuilder& b, Vec3 at, float R, int segments) {
    ScopedTransform t(b, translation(at));
    const float tr = 0.008f;
    std::vector<Vec2> ring;  // a full torus: the tube's circle walked counter-clockwise
    for (int i = 0; i <= 12; ++i) {
        float a = -kPi + 2 * kPi * float(i) / 12.0f;
        ring.push_back({R + tr * cosf(a), tr + tr * sinf(a)});
    }
    b.lathe(ring, segments);
    std::vector<Vec2> cap = {{0.42f * R, 0}, {0.4f * R, 0.01f}, {0.2f * R, 0.014f}, {0, 0.015f}};
    b.lathe(catmullRom(cap, 2), segments / 2);
}

void addLamp(MeshBuilder& b, const KitchenMaterials& m, Vec3 c, float drop, int segments) {
    const float y0 = c.y - drop;  // the shade's rim
    b.use(m.steel);
    b.tube({c, {c.x, y0 + 0.24f, c.z}}, {0.004f, 0.004f}, 8, false, false);
    ScopedTransform t(b, translation({c.x, y0, c.z}));
    b.use(m.lampShade);
    std::vector<Vec2> outer = {{0.262f, 0},    {0.22f, 0.08f},  {0.12f, 0.18f},
                               {0.05f, 0.24f}, {0.03f, 0.252f}, {0, 0.256f}};
    b.lathe(catmullRom(outer, 4), segments);
    b.lathe({{0.25f, 0}, {0.262f, 0}}, segments);  // the rim, facing down
    b.use(m.lampGlow);                             // the shade's inside glows
    std::vector<Vec2> inner = {{0, 0.244f}, {0.045f, 0.236f}, {0.11f, 0.17f}, {0.21f, 0.075f}, {0.25f, 0.001f}};
    b.lathe(catmullRom(inner, 4), segments);
    b.ellipsoid({0, 0.13f, 0}, {0.035f, 0.05f, 0.035f}, segments / 2, segments / 4);  // the bulb
}

}  // namespace strata
