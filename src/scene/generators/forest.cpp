// "forest": broadleaf trees on gently rolling ground, swaying in the wind
// (about 174K triangles with the default 24 trees, like the "Fairy Forest"
// scene of the GPU kd-tree chapter). Every tree has the same structure (a
// ridged, flared trunk; 7 branches with 3 twigs each; 29 clusters of 77
// leaf cards), so the triangle count depends only on the number of trees; the
// seed moves, sizes and bends them. The ground lies at or below the Sway base,
// so it and the trunk bases stay still while the crowns move.
#include <algorithm>
#include <cmath>

#include "scene/generators/catalog.h"
#include "scene/generators/mesh_builder.h"
#include "scene/generators/params.h"

namespace strata {

namespace {

constexpr float kGroundHalf = 25.0f;  // ground is 50 m x 50 m
constexpr int kGroundCells = 120;
constexpr float kHillHeight = 2.5f;  // ground heights lie in [-kHillHeight, 0]
constexpr float kPlantRadius = 21.0f;
constexpr float kMinTreeSpacing = 3.8f;
constexpr int kBranches = 7, kTwigsPerBranch = 3, kLeavesPerCluster = 77;
constexpr int kTrunkSides = 24, kTrunkRings = 14, kBranchSides = 7, kBranchRings = 6;
constexpr int kTwigSides = 5, kTwigRings = 4;
constexpr float kTypicalTreeHeight = 9.0f;

struct Hills {
    float amp[3] = {1.0f, 0.6f, 0.35f};
    float k[3], dirX[3], dirZ[3], phase[3];
    explicit Hills(Rng& rng) {
        const float wavelength[3] = {31.0f, 17.0f, 9.0f};
        for (int i = 0; i < 3; ++i) {
            k[i] = 2 * kPi / wavelength[i];
            float a = rng.uniform(0, 2 * kPi);
            dirX[i] = cosf(a);
            dirZ[i] = sinf(a);
            phase[i] = rng.uniform(0, 2 * kPi);
        }
    }
    float height(float x, float z) const {
        float raw = 0, sum = 0;
        for (int i = 0; i < 3; ++i) {
            raw += amp[i] * sinf(k[i] * (x * dirX[i] + z * dirZ[i]) + phase[i]);
            sum += amp[i];
        }
        return kHillHeight * 0.5f * (raw / sum - 1.0f);  // in [-kHillHeight, 0]
    }
};

void addGround(MeshBuilder& b, const Hills& hills) {
    int n = kGroundCells + 1;
    std::vector<Vec3> pos(size_t(n) * n), hint(pos.size(), Vec3{0, 1, 0});
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            float x = -kGroundHalf + 2 * kGroundHalf * float(j) / float(kGroundCells);
            float z = kGroundHalf - 2 * kGroundHalf * float(i) / float(kGroundCells);
            pos[size_t(i) * n + j] = {x, hills.height(x, z), z};
        }
    b.surface(pos, hint, n, n, false, {2 * kGroundHalf / 4, 2 * kGroundHalf / 4});
}

// A leaf card: a diamond (two triangles) centred at c, facing n.
void addLeaf(MeshBuilder& b, Vec3 c, Vec3 n, Vec3 along, float len, float wid) {
    Vec3 side = normalize(cross(n, along));
    Vec3 fwd = normalize(cross(side, n));
    uint32_t base = b.vertex(c - fwd * (0.5f * len), n, {0.5f, 0});
    uint32_t l = b.vertex(c - fwd * (0.1f * len) - side * (0.5f * wid), n, {0, 0.4f});
    uint32_t tip = b.vertex(c + fwd * (0.5f * len), n, {0.5f, 1});
    uint32_t r = b.vertex(c - fwd * (0.1f * len) + side * (0.5f * wid), n, {1, 0.4f});
    b.quad(base, r, tip, l);
}

void addLeafCluster(MeshBuilder& b, Rng& rng, Vec3 center, float radius, Vec3 outward) {
    for (int i = 0; i < kLeavesPerCluster; ++i) {
        // A point in the cluster's sphere, leaves facing up and outwards, randomly tilted.
        Vec3 d;
        do d = {rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)};
        while (dot(d, d) > 1 || dot(d, d) < 1e-4f);
        Vec3 c = center + d * radius;
        Vec3 n = normalize(Vec3{0, 1.2f, 0} + outward * 0.5f + d * 0.6f +
                           Vec3{rng.uniform(-0.6f, 0.6f), 0, rng.uniform(-0.6f, 0.6f)});
        Vec3 along = normalize(Vec3{rng.uniform(-1, 1), rng.uniform(-0.3f, 0.3f), rng.uniform(-1, 1)} + d);
        if (fabsf(dot(along, n)) > 0.95f) along = normalize(cross(n, {1, 0, 0}));
        float s = rng.uniform(0.8f, 1.2f);
        addLeaf(b, c, n, along, 0.3f * s, 0.18f * s);
    }
}

// Points along a bending limb: straight out along dir, curving up by `rise` (fraction of length).
std::vector<Vec3> limbPath(Vec3 start, Vec3 dir, float len, float rise, int points) {
    std::vector<Vec3> p;
    for (int i = 0; i < points; ++i) {
        float t = float(i) / float(points - 1);
        p.push_back(start + dir * (len * t) + Vec3{0, rise * len * t * t, 0});
    }
    return p;
}

std::vector<float> taper(float r0, int points) {
    std::vector<float> r;
    for (int i = 0; i < points; ++i) {
        float t = float(i) / float(points - 1);
        r.push_back(i + 1 == points ? 0.0f : r0 * (1 - 0.8f * t));
    }
    return r;
}

void addTree(MeshBuilder& b, Rng& rng, Vec3 base, int32_t bark, int32_t leafA, int32_t leafB) {
    const float H = rng.uniform(7.5f, 11.0f);
    const float rb = rng.uniform(0.2f, 0.32f);
    const Vec3 lean{rng.uniform(-0.5f, 0.5f), 0, rng.uniform(-0.5f, 0.5f)};
    const float trunkTop = 0.9f * H;
    auto axisAt = [&](float h) {
        float u = h / H;
        return base + Vec3{0, h, 0} + lean * (u * u);
    };
    auto radiusAt = [&](float h) {
        float u = h / trunkTop;
        return rb * (1 - 0.85f * u) * (1 + 0.7f * expf(-h / 0.35f));  // root flare at the base
    };

    b.use(bark);
    std::vector<Vec3> path;
    std::vector<float> radius;
    for (int i = 0; i < kTrunkRings; ++i) {
        float h = trunkTop * float(i) / float(kTrunkRings - 1);
        path.push_back(axisAt(h));
        radius.push_back(i + 1 == kTrunkRings ? 0.0f : radiusAt(h));
    }
    b.tube(path, radius, kTrunkSides, true, false, 8, 0.07f, 1, {1, 0, 0});

    const float azimuth0 = rng.uniform(0, 2 * kPi);
    for (int i = 0; i < kBranches; ++i) {
        float f = float(i) / float(kBranches - 1);
        float h = H * (0.38f + 0.45f * f) + rng.uniform(-0.2f, 0.2f);
        float az = azimuth0 + float(i) * 2.39996f + rng.uniform(-0.3f, 0.3f);  // golden angle
        float elev = rng.uniform(0.35f, 0.75f) + 0.25f * f;
        Vec3 dir = normalize(Vec3{cosf(az) * cosf(elev), sinf(elev), sinf(az) * cosf(elev)});
        float len = H * 0.36f * (1 - 0.45f * f) * rng.uniform(0.85f, 1.15f);
        float r0 = std::max(0.03f, 0.45f * radiusAt(h));
        std::vector<Vec3> bp = limbPath(axisAt(h), dir, len, 0.2f, kBranchRings);
        b.use(bark);
        b.tube(bp, taper(r0, kBranchRings), kBranchSides, false, false);
        Vec3 outward = normalize(Vec3{dir.x, 0, dir.z});
        int32_t leaf = rng.uniform() < 0.5f ? leafA : leafB;
        for (int t = 0; t < kTwigsPerBranch; ++t) {
            float along = 0.45f + 0.2f * float(t);
            Vec3 start = bp.front() + (bp.back() - bp.front()) * along + Vec3{0, 0.2f * len * along * along, 0};
            float turn = (t % 2 == 0 ? 1.0f : -1.0f) * rng.uniform(0.5f, 0.9f);
            Vec3 side = normalize(Vec3{cosf(az + turn), 0, sinf(az + turn)});
            Vec3 tdir = normalize(side + Vec3{0, rng.uniform(0.4f, 0.9f), 0});
            float tlen = len * rng.uniform(0.3f, 0.42f);
            std::vector<Vec3> tp = limbPath(start, tdir, tlen, 0.15f, kTwigRings);
            b.use(bark);
            b.tube(tp, taper(r0 * (1 - 0.8f * along) * 0.7f + 0.01f, kTwigRings), kTwigSides, false, false);
            b.use(leaf);
            addLeafCluster(b, rng, tp.back(), rng.uniform(0.55f, 0.8f), side);
        }
        b.use(leaf);
        addLeafCluster(b, rng, bp.back(), rng.uniform(0.7f, 1.0f), outward);
    }
    b.use(leafA);
    addLeafCluster(b, rng, axisAt(trunkTop), 1.0f, {0, 1, 0});
}

}  // namespace

// params: trees (count, 24), seed (1).
LoadedMesh generateForest(const nlohmann::json& params, const std::string& where) {
    GeneratorParams p(params, where, "forest", {"trees", "seed"});
    int trees = p.integer("trees", 24, 0, 400);
    uint32_t seed = p.seed("seed", 1);
    Rng rng(seed * 2654435761u + 12345u);

    MeshBuilder b;
    int32_t ground = b.material("ground", diffuse({0.25f, 0.33f, 0.12f}));
    int32_t bark = b.material("bark", diffuse({0.3f, 0.22f, 0.15f}));
    int32_t leafA = b.material("leaf_light", diffuse({0.28f, 0.5f, 0.12f}));
    int32_t leafB = b.material("leaf_dark", diffuse({0.12f, 0.35f, 0.08f}));

    Hills hills(rng);
    b.use(ground);
    addGround(b, hills);
    // The Sway base: the highest ground vertex, so no ground vertex moves.
    float groundTop = -kHillHeight;
    for (int i = 0; i <= kGroundCells; ++i)
        for (int j = 0; j <= kGroundCells; ++j)
            groundTop =
                std::max(groundTop, hills.height(-kGroundHalf + 2 * kGroundHalf * float(j) / float(kGroundCells),
                                                 kGroundHalf - 2 * kGroundHalf * float(i) / float(kGroundCells)));

    // Trees on a disc, rejection-sampled to keep them apart (accepted anyway after many tries).
    std::vector<Vec2> placed;
    for (int t = 0; t < trees; ++t) {
        Vec2 q{};
        for (int attempt = 0; attempt < 200; ++attempt) {
            float a = rng.uniform(0, 2 * kPi), r = kPlantRadius * sqrtf(rng.uniform());
            q = {r * cosf(a), r * sinf(a)};
            bool ok = true;
            for (const Vec2& o : placed) {
                Vec2 d = o - q;
                ok = ok && d.x * d.x + d.y * d.y >= kMinTreeSpacing * kMinTreeSpacing;
            }
            if (ok) break;
        }
        placed.push_back(q);
        Vec3 base{q.x, hills.height(q.x, q.y) - 0.3f, q.y};  // sunk a little into the ground
        addTree(b, rng, base, bark, leafA, leafB);
    }

    LoadedMesh out = b.finish("forest", "forest");
    out.mesh.animation = MeshAnimationKind::Sway;
    out.mesh.sway.direction = normalize(Vec3{1, 0, 0.35f});
    out.mesh.sway.amplitude = 0.22f;
    out.mesh.sway.frequency = 0.35f;
    out.mesh.sway.height = kTypicalTreeHeight;
    out.mesh.sway.base = groundTop;
    out.mesh.sway.phaseScale = 0.25f;
    return out;
}

}  // namespace strata
