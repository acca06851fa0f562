// "runner": a skinned running figure (about 78K triangles, like the runners of
// the GPU kd-tree chapter's SR/KR scenes). Smooth swept tubes around the bone
// chains (legs, arms, fingers, neck), a lofted torso and ellipsoid head; each
// ring of a tube is bound to at most two bones, blended smoothly across joints.
// The clip (runner_clip.cpp) is an in-place run cycle; the figure faces +Z.
#include <algorithm>
#include <cmath>

#include "scene/generators/catalog.h"
#include "scene/generators/mesh_builder.h"
#include "scene/generators/params.h"
#include "scene/generators/runner_rig.h"

namespace strata {

namespace {

// Tessellation: ring spacing along limbs (metres, 1.8 m figure) and sides around.
constexpr float kRingSpacing = 0.0072f;
constexpr int kLegSides = 48, kArmSides = 40, kTorsoSides = 96, kNeckSides = 40;
constexpr int kFootSides = 40, kPalmSides = 24, kFingerSides = 14;

struct Skin {
    std::vector<uint32_t> bones;
    std::vector<float> weight0;
    // Binds every vertex added since the last call (up to `count`) to b0 / b1.
    void fillTo(size_t count, int b0, int b1, float w0) {
        while (bones.size() < count) {
            bones.push_back(uint32_t(b0) | uint32_t(b1) << 16);
            weight0.push_back(w0);
        }
    }
};

float smoothstep(float e0, float e1, float x) {
    float t = clampf((x - e0) / (e1 - e0), 0.0f, 1.0f);
    return t * t * (3 - 2 * t);
}

// A limb: a polyline through its joints, one bone per segment, a blend
// half-width at each interior joint, and a radius profile over the arc
// fraction. Both ends are rounded (hemispherical caps closing in a pole).
struct Chain {
    std::vector<Vec3> points;
    std::vector<int> bones;                            // points.size() - 1
    std::vector<float> blend;                          // points.size() - 2
    std::vector<Vec2> radius;                          // (arc fraction, radius), fractions increasing from 0 to 1
    std::vector<std::pair<float, int32_t>> materials;  // (arc fraction from which, material)
    int sides = 32;
    float ellipse = 1;
    Vec3 axis{};
};

float profileAt(const std::vector<Vec2>& prof, float f) {
    if (f <= prof.front().x) return prof.front().y;
    for (size_t i = 1; i < prof.size(); ++i)
        if (f <= prof[i].x) {
            float t = smoothstep(prof[i - 1].x, prof[i].x, f);
            return lerpf(prof[i - 1].y, prof[i].y, t);
        }
    return prof.back().y;
}

void addChain(MeshBuilder& b, Skin& skin, const Chain& c) {
    size_t np = c.points.size();
    std::vector<float> S(np, 0.0f);
    for (size_t i = 1; i < np; ++i) S[i] = S[i - 1] + length(c.points[i] - c.points[i - 1]);
    float L = S.back();
    int segs = std::max(6, int(std::ceil(L / kRingSpacing)));
    float r0 = profileAt(c.radius, 0), r1 = profileAt(c.radius, 1);

    struct Ring {
        Vec3 p;
        float r;
        int b0, b1;
        float w0;
        int32_t material;
    };
    std::vector<Ring> rings;
    for (int i = 0; i <= segs; ++i) {
        float s = L * float(i) / float(segs);
        size_t seg = 0;
        while (seg + 2 < np && s > S[seg + 1]) ++seg;
        float t = (s - S[seg]) / std::max(S[seg + 1] - S[seg], 1e-6f);
        Ring ring;
        ring.p = lerp(c.points[seg], c.points[seg + 1], clampf(t, 0, 1));
        float r = profileAt(c.radius, s / L);
        if (s < r0) r *= sqrtf(std::max(0.0f, 1 - (r0 - s) * (r0 - s) / (r0 * r0)));
        if (L - s < r1) r *= sqrtf(std::max(0.0f, 1 - (r1 - (L - s)) * (r1 - (L - s)) / (r1 * r1)));
        ring.r = (i == 0 || i == segs) ? 0.0f : r;
        // Nearest interior joint: blend parent and child within its half-width.
        ring.b0 = ring.b1 = c.bones[seg];
        ring.w0 = 1;
        for (size_t j = 1; j + 1 < np; ++j) {
            float x = s - S[j], d = c.blend[j - 1];
            if (fabsf(x) < d) {
                ring.b0 = c.bones[j - 1];
                ring.b1 = c.bones[j];
                ring.w0 = 1 - smoothstep(-d, d, x);
            }
        }
        ring.material = b.current();
        for (const auto& m : c.materials)
            if (s / L >= m.first) ring.material = m.second;
        rings.push_back(ring);
    }
    // One tube per material run (the boundary ring is shared by both runs).
    size_t start = 0;
    while (start + 1 < rings.size()) {
        size_t end = start + 1;
        while (end + 1 < rings.size() && rings[end].material == rings[start].material) ++end;
        std::vector<Vec3> path;
        std::vector<float> radius;
        for (size_t k = start; k <= end; ++k) {
            path.push_back(rings[k].p);
            radius.push_back(rings[k].r);
        }
        int32_t saved = b.current();
        b.use(rings[start].material);
        size_t first = b.vertexCount();
        b.tube(path, radius, c.sides, false, false, 0, 0, c.ellipse, c.axis);
        b.use(saved);
        size_t perRing = size_t(c.sides) + 1;
        for (size_t k = start; k <= end; ++k)
            skin.fillTo(first + (k - start + 1) * perRing, rings[k].b0, rings[k].b1, rings[k].w0);
        start = end;
    }
}

// The torso: an elliptical loft from the crotch to the base of the neck,
// bound along its height to pelvis, spine, chest and neck.
void addTorso(MeshBuilder& b, Skin& skin, int32_t shorts, int32_t shirt) {
    struct Station {
        float y, rx, rz, cz;
    };
    static const Station kStations[] = {
        {0.86f, 0.110f, 0.085f, 0.0f},    {0.92f, 0.160f, 0.105f, -0.005f}, {1.00f, 0.170f, 0.115f, -0.01f},
        {1.08f, 0.150f, 0.100f, -0.005f}, {1.16f, 0.140f, 0.098f, 0.0f},    {1.26f, 0.155f, 0.110f, 0.01f},
        {1.36f, 0.172f, 0.118f, 0.015f},  {1.44f, 0.175f, 0.105f, 0.0f},    {1.50f, 0.120f, 0.080f, -0.01f},
        {1.535f, 0.070f, 0.060f, -0.01f},
    };
    const int ns = int(sizeof(kStations) / sizeof(kStations[0]));
    const float y0 = kStations[0].y, y1 = kStations[ns - 1].y;
    const float capLow = 0.05f, capHigh = 0.035f, waistband = 1.03f;
    auto station = [&](float y) {
        int i = 1;
        while (i < ns - 1 && y > kStations[i].y) ++i;
        const Station &a = kStations[i - 1], &c = kStations[i];
        float t = smoothstep(a.y, c.y, y);
        return Station{y, lerpf(a.rx, c.rx, t), lerpf(a.rz, c.rz, t), lerpf(a.cz, c.cz, t)};
    };
    auto weights = [&](float y, int& b0, int& b1, float& w0) {
        struct J {
            float y, d;
            int parent, child;
        };
        static const J kJoints[] = {
            {1.10f, 0.06f, kPelvis, kSpine}, {1.28f, 0.07f, kSpine, kChest}, {1.50f, 0.03f, kChest, kNeck}};
        b0 = b1 = y < 1.10f ? kPelvis : (y < 1.28f ? kSpine : (y < 1.50f ? kChest : kNeck));
        w0 = 1;
        for (const J& j : kJoints)
            if (fabsf(y - j.y) < j.d) {
                b0 = j.parent;
                b1 = j.child;
                w0 = 1 - smoothstep(-j.d, j.d, y - j.y);
            }
    };
    // Two lofts (shorts below the waistband, shirt above) sharing a ring.
    for (int part = 0; part < 2; ++part) {
        float ya = part == 0 ? y0 : waistband, yb = part == 0 ? waistband : y1;
        int rows = std::max(3, int(std::ceil((yb - ya) / kRingSpacing))) + 1;
        std::vector<Vec3> pos(size_t(rows) * kTorsoSides), hint(pos.size());
        std::vector<float> rowY(rows);
        for (int i = 0; i < rows; ++i) {
            float y = lerpf(ya, yb, float(i) / float(rows - 1));
            rowY[i] = y;
            Station st = station(y);
            float f = 1;
            if (y - y0 < capLow)
                f *= sqrtf(std::max(0.0f, 1 - (capLow - (y - y0)) * (capLow - (y - y0)) / (capLow * capLow)));
            if (y1 - y < capHigh)
                f *= sqrtf(std::max(0.0f, 1 - (capHigh - (y1 - y)) * (capHigh - (y1 - y)) / (capHigh * capHigh)));
            bool pole = (part == 0 && i == 0) || (part == 1 && i == rows - 1);
            for (int j = 0; j < kTorsoSides; ++j) {
                float a = 2 * kPi * float(j) / float(kTorsoSides);
                float ca = cosf(a), sa = sinf(a);
                pos[size_t(i) * kTorsoSides + j] =
                    pole ? Vec3{0, y, st.cz} : Vec3{st.rx * f * ca, y, st.cz + st.rz * f * sa};
                hint[size_t(i) * kTorsoSides + j] =
                    pole ? Vec3{0, part == 0 ? -1.0f : 1.0f, 0} : normalize(Vec3{ca / st.rx, 0, sa / st.rz});
            }
        }
        b.use(part == 0 ? shorts : shirt);
        size_t first = b.vertexCount();
        b.surface(pos, hint, rows, kTorsoSides, true, {1.2f, 0.7f});
        for (int i = 0; i < rows; ++i) {
            int b0, b1;
            float w0;
            weights(rowY[i], b0, b1, w0);
            skin.fillTo(first + size_t(i + 1) * (kTorsoSides + 1), b0, b1, w0);
        }
    }
}

void addHand(MeshBuilder& b, Skin& skin, float side) {
    Chain palm;
    palm.points = {{side * 0.246f, 0.94f, 0.0f}, {side * 0.255f, 0.835f, 0.0f}};
    palm.bones = {side > 0 ? kHandL : kHandR};
    palm.radius = {{0.0f, 0.032f}, {0.5f, 0.043f}, {1.0f, 0.040f}};
    palm.sides = kPalmSides;
    palm.axis = {0, 0, 1};
    palm.ellipse = 0.4f;
    addChain(b, skin, palm);
    const float zs[4] = {0.027f, 0.009f, -0.009f, -0.027f};
    const float len[4] = {0.075f, 0.085f, 0.08f, 0.065f};
    for (int f = 0; f < 4; ++f) {
        Chain c;
        float l = len[f];
        c.points = {{side * 0.253f, 0.86f, zs[f]},
                    {side * 0.256f, 0.86f - 0.45f * l, zs[f]},
                    {side * 0.248f, 0.86f - 0.8f * l, zs[f]},
                    {side * 0.236f, 0.86f - l, zs[f] * 0.9f}};
        c.bones = {side > 0 ? kHandL : kHandR, side > 0 ? kHandL : kHandR, side > 0 ? kHandL : kHandR};
        c.blend = {0.0f, 0.0f};
        c.radius = {{0.0f, 0.0095f}, {1.0f, 0.0078f}};
        c.sides = kFingerSides;
        addChain(b, skin, c);
    }
    Chain thumb;
    thumb.points = {{side * 0.247f, 0.915f, 0.022f}, {side * 0.244f, 0.88f, 0.048f}, {side * 0.236f, 0.85f, 0.056f}};
    thumb.bones = {side > 0 ? kHandL : kHandR, side > 0 ? kHandL : kHandR};
    thumb.blend = {0.0f};
    thumb.radius = {{0.0f, 0.0115f}, {1.0f, 0.009f}};
    thumb.sides = kFingerSides;
    addChain(b, skin, thumb);
}

void addLimbs(MeshBuilder& b, Skin& skin, float side, int32_t skinMat, int32_t shorts, int32_t shirt, int32_t shoe) {
    const bool left = side > 0;
    Chain leg;
    leg.points = {{side * 0.09f, 1.02f, 0.0f},
                  {side * 0.095f, 0.95f, 0.0f},
                  {side * 0.10f, 0.52f, 0.0f},
                  {side * 0.10f, 0.095f, -0.01f},
                  {side * 0.10f, 0.06f, -0.01f}};
    leg.bones = {kPelvis, left ? kUpperLegL : kUpperLegR, left ? kLowerLegL : kLowerLegR, left ? kFootL : kFootR};
    leg.blend = {0.05f, 0.05f, 0.03f};
    leg.radius = {{0.0f, 0.085f},  {0.1f, 0.085f},  {0.3f, 0.072f},  {0.5f, 0.052f}, {0.53f, 0.05f},
                  {0.62f, 0.058f}, {0.75f, 0.048f}, {0.93f, 0.036f}, {1.0f, 0.036f}};
    leg.materials = {{0.0f, shorts}, {0.3f, skinMat}};
    leg.sides = kLegSides;
    addChain(b, skin, leg);

    Chain arm;
    arm.points = {{side * 0.14f, 1.46f, -0.01f},
                  {side * 0.195f, 1.45f, -0.01f},
                  {side * 0.225f, 1.17f, -0.01f},
                  {side * 0.245f, 0.93f, 0.0f},
                  {side * 0.25f, 0.905f, 0.0f}};
    arm.bones = {kChest, left ? kUpperArmL : kUpperArmR, left ? kLowerArmL : kLowerArmR, left ? kHandL : kHandR};
    arm.blend = {0.04f, 0.04f, 0.02f};
    arm.radius = {{0.0f, 0.05f},  {0.1f, 0.052f}, {0.3f, 0.044f}, {0.55f, 0.037f},
                  {0.65f, 0.04f}, {0.9f, 0.028f}, {1.0f, 0.028f}};
    arm.materials = {{0.0f, shirt}, {0.27f, skinMat}};
    arm.sides = kArmSides;
    addChain(b, skin, arm);

    b.use(skinMat);
    addHand(b, skin, side);

    Chain foot;
    foot.points = {{side * 0.10f, 0.047f, -0.085f}, {side * 0.10f, 0.05f, 0.04f}, {side * 0.10f, 0.042f, 0.175f}};
    foot.bones = {left ? kFootL : kFootR, left ? kFootL : kFootR};
    foot.blend = {0.0f};
    foot.radius = {{0.0f, 0.042f}, {0.3f, 0.048f}, {0.7f, 0.05f}, {1.0f, 0.04f}};
    foot.sides = kFootSides;
    foot.axis = {1, 0, 0};
    foot.ellipse = 0.8f;
    foot.materials = {{0.0f, shoe}};
    addChain(b, skin, foot);
}

void addHead(MeshBuilder& b, Skin& skin, int32_t skinMat, int32_t hair) {
    Chain neck;
    neck.points = {{0, 1.45f, -0.01f}, {0, 1.50f, -0.01f}, {0, 1.60f, 0.0f}, {0, 1.66f, 0.01f}};
    neck.bones = {kChest, kNeck, kHead};
    neck.blend = {0.03f, 0.03f};
    neck.radius = {{0.0f, 0.056f}, {0.5f, 0.053f}, {1.0f, 0.05f}};
    neck.sides = kNeckSides;
    b.use(skinMat);
    addChain(b, skin, neck);

    b.ellipsoid({0, 1.685f, 0.02f}, {0.082f, 0.115f, 0.1f}, 64, 48);
    b.ellipsoid({0, 1.67f, 0.113f}, {0.014f, 0.022f, 0.018f}, 16, 10);     // nose
    b.ellipsoid({0.081f, 1.68f, 0.005f}, {0.012f, 0.03f, 0.02f}, 16, 10);  // ears
    b.ellipsoid({-0.081f, 1.68f, 0.005f}, {0.012f, 0.03f, 0.02f}, 16, 10);
    b.use(hair);  // a cap tilted back so that the hairline is higher at the forehead
    {
        Vec3 c{0, 1.685f, 0.02f};
        ScopedTransform tilt(b,
                             compose(translation(c), compose(rotation(axisAngle({1, 0, 0}, -0.35f)), translation(-c))));
        b.ellipsoid(c, {0.088f, 0.122f, 0.107f}, 64, 20, 0.5f * kPi);
    }
    skin.fillTo(b.vertexCount(), kHead, kHead, 1.0f);
}

}  // namespace

// params: phase (0..1, where in the run cycle the clip starts), height (metres, 1.8).
LoadedMesh generateRunner(const nlohmann::json& params, const std::string& where) {
    GeneratorParams p(params, where, "runner", {"phase", "height"});
    float phase = p.number("phase", 0.0f, 0.0f, 1.0f);
    float height = p.number("height", kRunnerRestHeight, 0.3f, 3.0f);

    MeshBuilder b;
    int32_t skinMat = b.material("runner_skin", diffuse({0.78f, 0.57f, 0.45f}));
    int32_t shirt = b.material("runner_shirt", diffuse({0.15f, 0.3f, 0.75f}));
    int32_t shorts = b.material("runner_shorts", diffuse({0.12f, 0.12f, 0.14f}));
    int32_t shoe = b.material("runner_shoe", diffuse({0.85f, 0.85f, 0.8f}));
    int32_t hair = b.material("runner_hair", diffuse({0.12f, 0.08f, 0.05f}));
    Skin skin;
    {
        ScopedTransform scale(b, scaling(make3(height / kRunnerRestHeight)));
        addTorso(b, skin, shorts, shirt);
        addLimbs(b, skin, 1.0f, skinMat, shorts, shirt, shoe);
        addLimbs(b, skin, -1.0f, skinMat, shorts, shirt, shoe);
        addHead(b, skin, skinMat, hair);
    }
    LoadedMesh out = b.finish("runner", "runner");
    out.mesh.animation = MeshAnimationKind::Skinned;
    out.mesh.skeleton = makeRunnerSkeleton(height, phase);
    out.mesh.skin.bones = std::move(skin.bones);
    out.mesh.skin.weight0 = std::move(skin.weight0);
    return out;
}

}  // namespace strata
