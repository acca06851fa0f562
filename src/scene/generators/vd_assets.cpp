// Vector-displacement assets (Harada): quad meshes plus a procedural vector
// displacement map that gives them shapes a height field cannot make —
// overhangs, undercuts, surfaces that fold over themselves.
//   vd-mushroom: a cap overhanging its stem, its rim curled under.
//   vd-hook:     a tapering horn that curls over and points back down.
//   vd-spike:    a four-finned spike twisted into a helix.
//   vd-bark:     a trunk (tangent-space map) whose ridges lean over sideways.
// The first three displace a flat k x k grid of quads (uv [0,1]^2 across it,
// an object-space map that is zero at the border, so an asset sits on the
// ground seamlessly); the trunk wraps its map around a cylinder.
#include <cmath>

#include "scene/generators/catalog.h"
#include "scene/generators/mesh_builder.h"
#include "scene/generators/params.h"

namespace strata {
namespace {

// Catmull-Rom through (x, y) control points, evaluated at parameter x (the
// control points' x must increase); clamped outside.
Vec2 profileAt(const std::vector<Vec2>& c, float r) {
    if (r <= c.front().x) return c.front();
    if (r >= c.back().x) return c.back();
    size_t i = 0;
    while (i + 2 < c.size() && c[i + 1].x < r) ++i;
    float f = (r - c[i].x) / (c[i + 1].x - c[i].x);
    Vec2 p0 = i > 0 ? c[i - 1] : c[i], p1 = c[i], p2 = c[i + 1], p3 = i + 2 < c.size() ? c[i + 2] : c[i + 1];
    float f2 = f * f, f3 = f2 * f;
    auto cr = [&](float a, float b, float cc, float d) {
        return 0.5f * (2 * b + (-a + cc) * f + (2 * a - 5 * b + 4 * cc - d) * f2 + (-a + 3 * b - 3 * cc + d) * f3);
    };
    return make2(cr(p0.x, p1.x, p2.x, p3.x), cr(p0.y, p1.y, p2.y, p3.y));
}

// The flat base: k x k quads over [-size/2, size/2]^2 at y = 0 facing +Y,
// mesh uv = (s, t) across the whole grid.
void flatBase(LoadedMesh& lm, float size, int k) {
    Mesh& m = lm.mesh;
    for (int j = 0; j <= k; ++j)
        for (int i = 0; i <= k; ++i) {
            float u = float(i) / k, v = float(j) / k;
            m.positions.push_back({(u - 0.5f) * size, 0.0f, (0.5f - v) * size});
            m.normals.push_back({0, 1, 0});
            m.uvs.push_back({u, v});
        }
    for (int j = 0; j < k; ++j)
        for (int i = 0; i < k; ++i) {
            uint32_t a = uint32_t(j * (k + 1) + i);
            m.quads.push_back(Quad{{a, a + 1, a + 1 + uint32_t(k + 1), a + uint32_t(k + 1)}});
            m.quadMaterial.push_back(0);
        }
}

// The shapes end (meet the ground, zero displacement) at this fraction of the
// inscribed circle, so the texels bilinear lookups reach at the border are 0.
constexpr float kEdge = 0.92f;

// An object-space map for a flat base: texel (x, y) holds target(u, v) minus
// the base point at (u, v); target returns the displaced point for polar
// coordinates (r: 0 centre, 1 at radius kEdge * size / 2, where the target
// must be the base point itself; dir: unit direction in XZ).
template <typename Target>
VdMap polarMap(const std::string& name, int res, float size, Target target) {
    VdMap map;
    map.path = "generator:" + name;
    map.width = map.height = res;
    map.texels.resize(size_t(res) * res);
    for (int y = 0; y < res; ++y)
        for (int x = 0; x < res; ++x) {
            float u = (x + 0.5f) / res, v = 1.0f - (y + 0.5f) / res;  // row 0 is the top (v = 1)
            Vec3 base{(u - 0.5f) * size, 0.0f, (0.5f - v) * size};
            float dx = u - 0.5f, dz = 0.5f - v, len = std::sqrt(dx * dx + dz * dz);
            float r = 2.0f * len / kEdge;
            Vec3 dir = len > 0 ? Vec3{dx / len, 0, dz / len} : Vec3{1, 0, 0};
            map.texels[size_t(y) * res + x] = r >= 1.0f ? Vec3{} : target(r, dir) - base;
        }
    return map;
}

LoadedMesh finishAsset(LoadedMesh lm, const char* name, Vec3 albedo, float scale) {
    lm.materials.push_back(NamedMaterial{std::string(name) + "-material", diffuse(albedo)});
    lm.mesh.vd.space = VdSpace::Object;
    lm.mesh.vd.scale = scale;
    lm.mesh.vd.maxLevel = 7;
    lm.mesh.name = name;
    lm.mesh.source = std::string("generator:") + name;
    return lm;
}

}  // namespace

// "vd-mushroom": params size (base side, 1), patches (per side, 4), resolution (map texels per side, 256),
// height (stem, 0.45), cap (cap radius, 0.38).
LoadedMesh generateVdMushroom(const nlohmann::json& params, const std::string& where) {
    GeneratorParams p(params, where, "vd-mushroom", {"size", "patches", "resolution", "height", "cap"});
    float size = p.number("size", 1.0f, 1e-3f, 1e4f);
    int k = p.integer("patches", 4, 1, 64);
    int res = p.integer("resolution", 256, 8, 4096);
    float H = p.number("height", 0.45f, 0.01f, 10.0f) * size, R = p.number("cap", 0.38f, 0.05f, 0.5f) * size;
    float stem = 0.28f * R, half = 0.5f * size * kEdge, capT = 0.45f * R;
    // (r, radius) and (r, height) profiles: cap top, rim, curled under, stem, ground.
    std::vector<Vec2> rho = {{0.0f, 0.0f},      {0.3f, 0.75f * R},    {0.45f, R},
                             {0.52f, 0.9f * R}, {0.6f, 0.55f * R},    {0.66f, stem},
                             {0.86f, stem},     {0.93f, 1.3f * stem}, {1.0f, half}};
    std::vector<Vec2> hgt = {{0.0f, H + capT},          {0.3f, H + 0.7f * capT},  {0.45f, H},
                             {0.52f, H - 0.12f * capT}, {0.6f, H - 0.15f * capT}, {0.66f, H - 0.2f * capT},
                             {0.86f, 0.08f * H},        {0.93f, 0.01f * H},       {1.0f, 0.0f}};
    LoadedMesh lm;
    flatBase(lm, size, k);
    lm.vdMap = polarMap("vd-mushroom", res, size, [&](float r, Vec3 dir) {
        float rr = profileAt(rho, r).y, h = profileAt(hgt, r).y;
        return Vec3{dir.x * rr, h, dir.z * rr};
    });
    return finishAsset(std::move(lm), "vd-mushroom", {0.75f, 0.35f, 0.25f}, 1.0f);
}

// "vd-hook": params size (1), patches (4), resolution (256), height (0.7), curl (degrees the tip turns, 220).
LoadedMesh generateVdHook(const nlohmann::json& params, const std::string& where) {
    GeneratorParams p(params, where, "vd-hook", {"size", "patches", "resolution", "height", "curl"});
    float size = p.number("size", 1.0f, 1e-3f, 1e4f);
    int k = p.integer("patches", 4, 1, 64);
    int res = p.integer("resolution", 256, 8, 4096);
    float H = p.number("height", 0.7f, 0.01f, 10.0f) * size;
    float curl = p.number("curl", 220.0f, 0.0f, 340.0f) * kPi / 180.0f;
    const float half = 0.5f * size * kEdge, baseR = 0.16f * size, tube = 0.85f;  // r < tube: the horn; beyond: a flare
    // The axis: arc length sigma in [0,1] (0 at the ground), turning by curl * sigma^1.5 in the XY plane.
    const int steps = 256;
    std::vector<Vec3> axis(steps + 1), normal(steps + 1);
    Vec3 a{0, 0, 0};
    for (int i = 0; i <= steps; ++i) {
        float sg = float(i) / steps, th = curl * std::pow(sg, 1.5f);
        Vec3 t{std::sin(th), std::cos(th), 0};
        axis[i] = a;
        normal[i] = {std::cos(th), -std::sin(th), 0};
        a = a + t * (H / steps);
    }
    LoadedMesh lm;
    flatBase(lm, size, k);
    lm.vdMap = polarMap("vd-hook", res, size, [&](float r, Vec3 dir) {
        if (r >= tube) {  // flare from the horn's foot out to the grid's edge
            float f = (r - tube) / (1 - tube), rr = baseR + (half - baseR) * f;
            return Vec3{dir.x * rr, 0.02f * H * (1 - f) * (1 - f), dir.z * rr};
        }
        float sg = 1.0f - r / tube;  // 0 at the foot, 1 at the tip
        int i = int(sg * steps + 0.5f);
        float rad = baseR * std::pow(1.0f - sg, 0.8f);
        // dir.x / dir.z: the cross-section around the axis (normal and Z)
        Vec3 c = axis[i] + normal[i] * (rad * dir.x) + Vec3{0, 0, rad * dir.z};
        return c + Vec3{0, 0.02f * H, 0};
    });
    return finishAsset(std::move(lm), "vd-hook", {0.85f, 0.8f, 0.65f}, 1.0f);
}

// "vd-spike": params size (1), patches (4), resolution (256), height (0.9), twist (turns, 0.75), fins (4).
LoadedMesh generateVdSpike(const nlohmann::json& params, const std::string& where) {
    GeneratorParams p(params, where, "vd-spike", {"size", "patches", "resolution", "height", "twist", "fins"});
    float size = p.number("size", 1.0f, 1e-3f, 1e4f);
    int k = p.integer("patches", 4, 1, 64);
    int res = p.integer("resolution", 256, 8, 4096);
    float H = p.number("height", 0.9f, 0.01f, 10.0f) * size;
    float twist = p.number("twist", 0.75f, 0.0f, 4.0f) * 2 * kPi;
    int fins = p.integer("fins", 4, 2, 12);
    const float half = 0.5f * size * kEdge, baseR = 0.2f * size, tube = 0.85f;
    LoadedMesh lm;
    flatBase(lm, size, k);
    lm.vdMap = polarMap("vd-spike", res, size, [&](float r, Vec3 dir) {
        if (r >= tube) {
            float f = (r - tube) / (1 - tube), rr = baseR * 0.6f + (half - baseR * 0.6f) * f;
            return Vec3{dir.x * rr, 0.0f, dir.z * rr};
        }
        float sg = 1.0f - r / tube;  // height fraction
        float phi = std::atan2(dir.z, dir.x), rot = phi + twist * sg;
        float fin = 0.5f + 0.5f * std::cos(float(fins) * phi);
        float rad = baseR * (1.0f - sg) * (0.35f + 0.9f * fin * fin);
        // Fins sweep around as they rise: the section turns by twist * sg.
        return Vec3{std::cos(rot) * rad, H * sg, std::sin(rot) * rad};
    });
    return finishAsset(std::move(lm), "vd-spike", {0.3f, 0.55f, 0.75f}, 1.0f);
}

// "vd-bark": a trunk of radius (0.25) and height (2), patches around (16) and up (16); a tangent-space
// map with ridges (12 around) that lean over sideways. params also: resolution (256), depth (0.06).
LoadedMesh generateVdBark(const nlohmann::json& params, const std::string& where) {
    GeneratorParams p(params, where, "vd-bark", {"radius", "height", "around", "up", "ridges", "resolution", "depth"});
    float radius = p.number("radius", 0.25f, 1e-3f, 1e3f), height = p.number("height", 2.0f, 1e-3f, 1e4f);
    int around = p.integer("around", 16, 3, 256), up = p.integer("up", 16, 1, 256);
    int ridges = p.integer("ridges", 12, 1, 128), res = p.integer("resolution", 256, 8, 4096);
    float depth = p.number("depth", 0.06f, 0.0f, 10.0f);
    LoadedMesh lm;
    Mesh& m = lm.mesh;
    for (int j = 0; j <= up; ++j)
        for (int i = 0; i <= around; ++i) {
            float u = float(i) / around, v = float(j) / up, phi = 2 * kPi * u;
            m.positions.push_back({radius * std::cos(phi), height * v, -radius * std::sin(phi)});
            m.normals.push_back({std::cos(phi), 0, -std::sin(phi)});
            m.uvs.push_back({u, v});
        }
    for (int j = 0; j < up; ++j)
        for (int i = 0; i < around; ++i) {
            uint32_t a = uint32_t(j * (around + 1) + i), w = uint32_t(around + 1);
            m.quads.push_back(Quad{{a, a + 1, a + 1 + w, a + w}});
            m.quadMaterial.push_back(0);
        }
    // Ridge profile over one period q in [0,1): a crest that leans over (x
    // shift grows with the square of the height z), so it overhangs its trough.
    VdMap map;
    map.path = "generator:vd-bark";
    map.width = map.height = res;
    map.texels.resize(size_t(res) * res);
    for (int y = 0; y < res; ++y)
        for (int x = 0; x < res; ++x) {
            float u = (x + 0.5f) / res, v = 1.0f - (y + 0.5f) / res;
            float q = u * ridges + 0.15f * std::sin(2 * kPi * 3 * v);
            q -= std::floor(q);
            float z = std::pow(std::sin(kPi * q), 2.0f);
            float lean = 1.6f * z * z;
            map.texels[size_t(y) * res + x] = {lean, 0.0f, z};
        }
    lm.vdMap = std::move(map);
    LoadedMesh out = finishAsset(std::move(lm), "vd-bark", {0.45f, 0.32f, 0.22f}, depth);
    out.mesh.vd.space = VdSpace::Tangent;
    return out;
}

}  // namespace strata
