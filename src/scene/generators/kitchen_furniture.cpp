// Kitchen furniture and appliances in their local frames (kitchen_parts.h).
#include <algorithm>
#include <cmath>

#include "scene/generators/kitchen_parts.h"

namespace strata {

namespace {

constexpr float kCounterDepth = 0.6f, kCounterTop = 0.9f;

// A bar handle from p to q standing off the front (+Z) by two posts.
void addHandle(MeshBuilder& b, Vec3 p, Vec3 q, float stand) {
    b.tube({p + Vec3{0, 0, stand}, q + Vec3{0, 0, stand}}, {0.006f, 0.006f}, 10, true, true);
    for (Vec3 e : {p, q}) b.tube({e, e + Vec3{0, 0, stand}}, {0.004f, 0.004f}, 6, false, false);
}

// A frame-and-panel door or drawer front with its front face at z = zf.
void addDoor(MeshBuilder& b, const KitchenMaterials& m, float x0, float x1, float y0, float y1, float zf,
             bool verticalHandle, bool handleRight) {
    b.use(m.cabinet);
    b.box({x0 + 0.002f, y0, zf - 0.018f}, {x1 - 0.002f, y1, zf});
    float inset = std::min(0.05f, 0.2f * (y1 - y0));
    b.box({x0 + inset, y0 + inset, zf}, {x1 - inset, y1 - inset, zf + 0.008f});
    b.use(m.steel);
    if (verticalHandle) {
        float x = handleRight ? x1 - 0.035f : x0 + 0.035f;
        float ym = y1 > 1.2f ? y0 + 0.12f : y1 - 0.16f;  // wall cabinets: near the bottom
        addHandle(b, {x, ym - 0.06f, zf}, {x, ym + 0.06f, zf}, 0.028f);
    } else {
        float xm = 0.5f * (x0 + x1), ym = 0.5f * (y0 + y1);
        addHandle(b, {xm - 0.07f, ym, zf}, {xm + 0.07f, ym, zf}, 0.028f);
    }
}

void addSink(MeshBuilder& b, const KitchenMaterials& m, const KitchenDetail& d, float sx) {
    const float hw = 0.28f, z0 = 0.1f, z1 = kCounterDepth - 0.1f, bottom = 0.7f, y = kCounterTop;
    b.use(m.steel);
    // The basin: five faces looking into it.
    b.patch({sx - hw, bottom, z0}, {0, 0, z1 - z0}, {2 * hw, 0, 0});      // bottom, +Y
    b.patch({sx - hw, bottom, z0}, {0, y - bottom, 0}, {0, 0, z1 - z0});  // +X
    b.patch({sx + hw, bottom, z0}, {0, 0, z1 - z0}, {0, y - bottom, 0});  // -X
    b.patch({sx - hw, bottom, z0}, {2 * hw, 0, 0}, {0, y - bottom, 0});   // +Z
    b.patch({sx - hw, bottom, z1}, {0, y - bottom, 0}, {2 * hw, 0, 0});   // -Z
    {
        ScopedTransform drain(b, translation({sx, bottom, 0.5f * (z0 + z1)}));
        b.lathe({{0.035f, 0}, {0.03f, 0.004f}, {0, 0.004f}}, 24);
    }
    // The tap: a turned foot and a gooseneck swept over the basin.
    {
        ScopedTransform foot(b, translation({sx, y, 0.05f}));
        b.lathe(catmullRom({{0.03f, 0}, {0.03f, 0.02f}, {0.02f, 0.04f}, {0.016f, 0.06f}, {0, 0.062f}}, 3),
                d.burnerSegments / 2);
    }
    std::vector<Vec3> path;
    const float top = y + 0.3f, rr = 0.11f;
    path.push_back({sx, y + 0.04f, 0.05f});
    for (int i = 0; i <= 24; ++i) {
        float a = kPi * float(i) / 24.0f;
        path.push_back({sx, top + rr * sinf(a), 0.05f + rr - rr * cosf(a)});
    }
    path.push_back({sx, top - 0.08f, 0.05f + 2 * rr});
    b.tube(path, std::vector<float>(path.size(), 0.013f), 16, false, true);
}

void addStove(MeshBuilder& b, const KitchenMaterials& m, const KitchenDetail& d, float sx) {
    b.use(m.black);
    b.box({sx - 0.3f, kCounterTop, 0.03f}, {sx + 0.3f, kCounterTop + 0.006f, kCounterDepth - 0.03f}, true);
    b.use(m.steel);
    for (float dx : {-0.14f, 0.14f})
        for (float z : {0.16f, 0.42f})
            addBurner(b, {sx + dx, kCounterTop + 0.006f, z}, dx < 0 ? 0.07f : 0.055f, d.burnerSegments);
}

}  // namespace

void addBaseCabinets(MeshBuilder& b, const KitchenMaterials& m, const KitchenDetail& d, float L, float sinkAt,
                     float stoveAt) {
    const float D = kCounterDepth;
    b.use(m.black);
    b.box({0, 0, 0}, {L, 0.1f, D - 0.07f}, true);  // toe kick
    b.use(m.cabinet);
    b.box({0, 0.1f, 0}, {L, 0.86f, D - 0.018f}, true);
    b.use(m.countertop);
    const float y0 = 0.86f, y1 = kCounterTop, front = D + 0.03f;
    if (sinkAt >= 0) {
        const float hw = 0.28f;
        b.box({0, y0, 0}, {sinkAt - hw, y1, front});
        b.box({sinkAt + hw, y0, 0}, {L, y1, front});
        b.box({sinkAt - hw, y0, 0}, {sinkAt + hw, y1, 0.1f});
        b.box({sinkAt - hw, y0, D - 0.1f}, {sinkAt + hw, y1, front});
        addSink(b, m, d, sinkAt);
    } else {
        b.box({0, y0, 0}, {L, y1, front});
    }
    if (stoveAt >= 0) addStove(b, m, d, stoveAt);

    int units = std::max(1, int(std::lround(L / 0.6f)));
    float w = L / float(units);
    for (int i = 0; i < units; ++i) {
        float x0 = w * float(i), x1 = x0 + w, xm = 0.5f * (x0 + x1);
        if (stoveAt >= 0 && fabsf(xm - stoveAt) < 0.5f * w) {
            // Oven: steel front, dark window, bar handle, four knobs above.
            b.use(m.steel);
            b.box({x0 + 0.002f, 0.12f, D - 0.018f}, {x1 - 0.002f, 0.84f, D});
            b.use(m.black);
            b.box({x0 + 0.08f, 0.3f, D}, {x1 - 0.08f, 0.6f, D + 0.004f});
            b.use(m.steel);
            addHandle(b, {x0 + 0.08f, 0.68f, D}, {x1 - 0.08f, 0.68f, D}, 0.035f);
            for (int k = 0; k < 4; ++k) {
                Vec3 at{lerpf(x0 + 0.09f, x1 - 0.09f, float(k) / 3.0f), 0.78f, D};
                ScopedTransform knob(b, compose(translation(at), rotation(axisAngle({1, 0, 0}, 0.5f * kPi))));
                b.lathe(catmullRom({{0.022f, 0}, {0.024f, 0.01f}, {0.02f, 0.022f}, {0.012f, 0.026f}, {0, 0.027f}}, 3),
                        d.burnerSegments / 2);
            }
            continue;
        }
        bool sink = sinkAt >= 0 && fabsf(xm - sinkAt) < 0.5f * w;
        if (!sink) addDoor(b, m, x0, x1, 0.68f, 0.84f, D, false, false);
        addDoor(b, m, x0, x1, 0.12f, sink ? 0.84f : 0.66f, D, true, i % 2 == 0);
    }
}

void addWallCabinets(MeshBuilder& b, const KitchenMaterials& m, float L) {
    b.use(m.cabinet);
    b.box({0, 1.45f, 0}, {L, 2.2f, 0.33f});
    int doors = std::max(1, int(std::lround(L / 0.5f)));
    float w = L / float(doors);
    for (int i = 0; i < doors; ++i)
        addDoor(b, m, w * float(i), w * float(i + 1), 1.47f, 2.18f, 0.35f, true, i % 2 == 0);
}

void addFridge(MeshBuilder& b, const KitchenMaterials& m) {
    b.use(m.appliance);
    b.box({0, 0, 0}, {0.8f, 1.85f, 0.64f}, true);
    b.box({0.005f, 1.28f, 0.64f}, {0.795f, 1.84f, 0.68f});
    b.box({0.005f, 0.02f, 0.64f}, {0.795f, 1.26f, 0.68f});
    b.use(m.steel);
    addHandle(b, {0.72f, 1.34f, 0.68f}, {0.72f, 1.6f, 0.68f}, 0.04f);
    addHandle(b, {0.72f, 0.85f, 0.68f}, {0.72f, 1.2f, 0.68f}, 0.04f);
}

void addTable(MeshBuilder& b, const KitchenMaterials& m, const KitchenDetail& d, float w, float dd) {
    b.use(m.wood);
    b.box({-0.5f * w, 0.72f, -0.5f * dd}, {0.5f * w, 0.76f, 0.5f * dd});
    const float ax = 0.5f * w - 0.08f, az = 0.5f * dd - 0.08f;
    b.box({-ax, 0.62f, az - 0.01f}, {ax, 0.72f, az + 0.01f}, true);
    b.box({-ax, 0.62f, -az - 0.01f}, {ax, 0.72f, -az + 0.01f}, true);
    b.box({ax - 0.01f, 0.62f, -az}, {ax + 0.01f, 0.72f, az}, true);
    b.box({-ax - 0.01f, 0.62f, -az}, {-ax + 0.01f, 0.72f, az}, true);
    std::vector<Vec2> leg = turnedLegProfile(0.72f, 0.04f, d.legSteps);
    for (float sx : {-1.0f, 1.0f})
        for (float sz : {-1.0f, 1.0f}) {
            ScopedTransform t(b, translation({sx * ax, 0, sz * az}));
            b.lathe(leg, d.legSegments);
        }
}

void addChair(MeshBuilder& b, const KitchenMaterials& m, const KitchenDetail& d) {
    b.use(m.wood);
    const float s = 0.18f, seat = 0.45f;
    b.box({-0.21f, seat - 0.035f, -0.21f}, {0.21f, seat, 0.21f});
    std::vector<Vec2> leg = turnedLegProfile(seat - 0.035f, 0.022f, d.legSteps);
    for (float sx : {-1.0f, 1.0f})
        for (float sz : {-1.0f, 1.0f}) {
            ScopedTransform t(b, translation({sx * s, 0, sz * s}));
            b.lathe(leg, d.legSegments);
        }
    // Stretchers between the legs.
    const float ys = 0.14f;
    for (float sx : {-1.0f, 1.0f}) b.tube({{sx * s, ys, -s}, {sx * s, ys, s}}, {0.011f, 0.011f}, 10, false, false);
    for (float sz : {-1.0f, 1.0f})
        b.tube({{-s, ys + 0.04f, sz * s}, {s, ys + 0.04f, sz * s}}, {0.011f, 0.011f}, 10, false, false);
    // The back: two raked posts, a top rail and turned spindles.
    const float top = 0.95f, rake = 0.05f;
    for (float sx : {-1.0f, 1.0f})
        b.tube({{sx * s, seat - 0.01f, -s}, {sx * s, top, -s - rake}}, {0.018f, 0.016f}, 16, false, true);
    b.tube({{-s, top - 0.04f, -s - rake * 0.92f}, {s, top - 0.04f, -s - rake * 0.92f}}, {0.022f, 0.022f}, 16, true,
           true);
    for (int i = 0; i < 4; ++i) {
        float x = lerpf(-s, s, float(i + 1) / 5.0f);
        std::vector<Vec3> path;
        std::vector<float> radius;
        for (int k = 0; k <= 6; ++k) {
            float t = float(k) / 6.0f;
            path.push_back({x, lerpf(seat, top - 0.04f, t), -s - rake * t * 0.92f});
            radius.push_back(0.008f + 0.005f * sinf(kPi * t));
        }
        b.tube(path, radius, 10, false, false);
    }
}

}  // namespace strata
