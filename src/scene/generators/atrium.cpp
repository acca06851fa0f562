// "atrium": a Sponza-like atrium hall (about 66K triangles, like the Sponza
// of the GPU kd-tree chapter's SR scenes). A tiled floor; a nave 30 m x 7 m
// between two storeys of arcades on fluted columns; aisles and a gallery with
// balustrades behind them; banners hanging from the gallery; a clerestory
// and a roof with three large openings through which the hall is lit.
// Origin at the floor's centre, floor top at y = 0, the nave along X.
#include <algorithm>
#include <cmath>

#include "scene/generators/architecture.h"
#include "scene/generators/catalog.h"
#include "scene/generators/mesh_builder.h"
#include "scene/generators/params.h"

namespace strata {

namespace {

constexpr float kHalfX = 15.0f;     // inner faces of the end walls
constexpr float kOuterZ = 7.5f;     // inner faces of the side walls
constexpr float kArcadeZ = 3.5f;    // the colonnades' centre lines
constexpr float kBay = 3.0f;        // column spacing
constexpr float kWall = 0.5f;       // outer wall thickness
constexpr float kGroundTop = 4.0f;  // ground-floor springing line (abacus tops)
constexpr float kGroundWallTop = 5.8f, kGalleryFloor = 6.2f;
constexpr float kUpperTop = kGalleryFloor + 3.2f;  // upper springing line
constexpr float kUpperWallTop = 11.2f, kGalleryRoof = 11.5f;
constexpr float kRoofBottom = 13.5f, kRoofTop = 13.8f;
constexpr float kTile = 1.0f;

struct Materials {
    int32_t stone, column, wall, floorLight, floorDark, grout, railing, terracotta, plant;
    int32_t banner[3];
};

std::vector<float> piers() {
    std::vector<float> x;
    for (float v = -kHalfX; v <= kHalfX + 1e-3f; v += kBay) x.push_back(v);
    return x;
}

void addFloor(MeshBuilder& b, const Materials& m) {
    b.use(m.grout);
    b.box({-kHalfX, -0.3f, -kOuterZ}, {kHalfX, -0.02f, kOuterZ}, true);
    const float gap = 0.015f;
    int nx = int(2 * kHalfX / kTile), nz = int(2 * kOuterZ / kTile);
    for (int i = 0; i < nx; ++i)
        for (int k = 0; k < nz; ++k) {
            float x = -kHalfX + kTile * float(i), z = -kOuterZ + kTile * float(k);
            bool nave = fabsf(z + 0.5f * kTile) < kArcadeZ;
            b.use(nave && (i + k) % 2 == 1 ? m.floorDark : m.floorLight);
            b.box({x + gap, -0.04f, z + gap}, {x + kTile - gap, 0, z + kTile - gap}, true);
        }
}

void addStorey(MeshBuilder& b, const Materials& m, float y0, const ColumnStyle& col, float springing, float wallTop,
               float wallThickness) {
    const std::vector<float> x = piers();
    const float ha = abacusHalfWidth(col);
    for (float side : {-1.0f, 1.0f}) {
        float zc = side * kArcadeZ;
        b.use(m.column);
        for (size_t i = 1; i + 1 < x.size(); ++i) addColumn(b, {x[i], y0, zc}, col);
        // Pilasters where the arcade meets the end walls.
        b.use(m.stone);
        b.box({-kHalfX, y0, zc - ha}, {-kHalfX + ha, springing, zc + ha}, true);
        b.box({kHalfX - ha, y0, zc - ha}, {kHalfX, springing, zc + ha}, true);
        addArcadeWall(b, x, zc, wallThickness, springing, wallTop, ha, 24);
    }
}

void addGallery(MeshBuilder& b, const Materials& m, const ColumnStyle& upper) {
    const std::vector<float> x = piers();
    const float clear = 1.55f * upper.radius + 0.03f;  // keep clear of the column plinths
    for (float side : {-1.0f, 1.0f}) {
        float zc = side * kArcadeZ;
        // Gallery floor (the aisle's ceiling), overhanging the arcade towards the nave.
        b.use(m.stone);
        float zin = zc - side * 0.45f, zout = side * kOuterZ;
        b.box({-kHalfX, kGroundWallTop, std::min(zin, zout)}, {kHalfX, kGalleryFloor, std::max(zin, zout)});
        // A cornice under the overhang.
        float zc0 = zc - side * 0.55f, zc1 = zc - side * 0.3f;
        b.box({-kHalfX, kGroundWallTop - 0.15f, std::min(zc0, zc1)}, {kHalfX, kGroundWallTop, std::max(zc0, zc1)});
        // Balustrades between the upper columns.
        b.use(m.railing);
        for (size_t i = 0; i + 1 < x.size(); ++i) {
            float x0 = x[i] + (i == 0 ? 0.0f : clear), x1 = x[i + 1] - (i + 2 == x.size() ? 0.0f : clear);
            addRailing(b, x0, x1, zc, kGalleryFloor, 1.0f, 0.25f);
        }
        // Gallery roof and the clerestory wall above the upper arcade.
        b.use(m.stone);
        float zr = zc - side * 0.35f;
        b.box({-kHalfX, kUpperWallTop, std::min(zr, zout)}, {kHalfX, kGalleryRoof, std::max(zr, zout)});
        b.use(m.wall);
        b.box({-kHalfX, kGalleryRoof, zc - 0.3f}, {kHalfX, kRoofBottom, zc + 0.3f});
    }
}

void addShell(MeshBuilder& b, const Materials& m) {
    b.use(m.wall);
    for (float side : {-1.0f, 1.0f}) {
        float z0 = side * kOuterZ, z1 = side * (kOuterZ + kWall);
        b.box({-kHalfX - kWall, -0.3f, std::min(z0, z1)}, {kHalfX + kWall, kGalleryRoof, std::max(z0, z1)});
        float x0 = side * kHalfX, x1 = side * (kHalfX + kWall);
        b.box({std::min(x0, x1), -0.3f, -kOuterZ - kWall}, {std::max(x0, x1), kRoofTop, kOuterZ + kWall});
        // A plinth course along the foot of the side walls.
        float zp = side * (kOuterZ - 0.12f);
        b.use(m.stone);
        b.box({-kHalfX, 0, std::min(z0, zp)}, {kHalfX, 0.35f, std::max(z0, zp)}, true);
        b.use(m.wall);
    }
    // The nave roof: a frame around three large openings, beams across them.
    b.use(m.stone);
    const float zo = 2.6f, ze = kArcadeZ + 0.3f;
    const float openings[3][2] = {{-13.5f, -4.75f}, {-4.25f, 4.25f}, {4.75f, 13.5f}};
    for (float side : {-1.0f, 1.0f}) {
        float a = side * zo, c = side * ze;
        b.box({-kHalfX, kRoofBottom, std::min(a, c)}, {kHalfX, kRoofTop, std::max(a, c)});
    }
    float prev = -kHalfX;
    for (const auto& o : openings) {
        b.box({prev, kRoofBottom, -zo}, {o[0], kRoofTop, zo});
        prev = o[1];
        for (int k = 1; k <= 2; ++k) {
            float xb = lerpf(o[0], o[1], float(k) / 3.0f);
            b.box({xb - 0.12f, kRoofBottom - 0.25f, -zo}, {xb + 0.12f, kRoofTop - 0.1f, zo});
        }
    }
    b.box({prev, kRoofBottom, -zo}, {kHalfX, kRoofTop, zo});
}

void addFurnishings(MeshBuilder& b, const Materials& m) {
    // Banners hanging from the gallery into the nave, alternating colours.
    const float bays[2][3] = {{-10.5f, -1.5f, 7.5f}, {-7.5f, 1.5f, 10.5f}};
    int colour = 0;
    for (int s = 0; s < 2; ++s) {
        float side = s == 0 ? 1.0f : -1.0f;
        for (float xm : bays[s]) {
            b.use(m.banner[colour++ % 3]);
            addBanner(b, {xm, kGalleryFloor + 0.95f, side * (kArcadeZ - 0.55f)}, 1.6f, 3.1f, -side, 5, 14, 24);
            b.use(m.railing);  // the rod
            b.tube({{xm - 0.9f, kGalleryFloor + 0.97f, side * (kArcadeZ - 0.55f)},
                    {xm + 0.9f, kGalleryFloor + 0.97f, side * (kArcadeZ - 0.55f)}},
                   {0.02f, 0.02f}, 8, true, true);
        }
    }
    // Planted vases at the ends of the nave and along the aisles.
    std::vector<Vec3> vases;
    for (float sx : {-1.0f, 1.0f})
        for (float sz : {-1.0f, 1.0f}) vases.push_back({sx * 13.6f, 0, sz * 2.2f});
    for (float x : {-7.5f, 7.5f})
        for (float sz : {-1.0f, 1.0f}) vases.push_back({x, 0, sz * 6.6f});
    for (const Vec3& v : vases) {
        b.use(m.terracotta);
        addVase(b, v, 0.9f, 0.32f, 24, 8);
        b.use(m.plant);
        b.ellipsoid(v + Vec3{0, 1.05f, 0}, {0.42f, 0.38f, 0.42f}, 18, 9);
    }
}

}  // namespace

// params: none.
LoadedMesh generateAtrium(const nlohmann::json& params, const std::string& where) {
    GeneratorParams p(params, where, "atrium", {});
    MeshBuilder b;
    Materials m;
    m.stone = b.material("stone", diffuse({0.62f, 0.57f, 0.48f}));
    m.column = b.material("column_stone", diffuse({0.74f, 0.7f, 0.62f}));
    m.wall = b.material("wall_plaster", diffuse({0.76f, 0.7f, 0.58f}));
    m.floorLight = b.material("floor_light", diffuse({0.7f, 0.66f, 0.58f}));
    m.floorDark = b.material("floor_dark", diffuse({0.36f, 0.3f, 0.26f}));
    m.grout = b.material("floor_grout", diffuse({0.25f, 0.23f, 0.2f}));
    m.railing = b.material("railing_metal", conductor({0.56f, 0.57f, 0.58f}, 0.35f));
    m.terracotta = b.material("terracotta", diffuse({0.6f, 0.3f, 0.18f}));
    m.plant = b.material("plant", diffuse({0.15f, 0.38f, 0.1f}));
    m.banner[0] = b.material("banner_red", diffuse({0.6f, 0.07f, 0.05f}));
    m.banner[1] = b.material("banner_green", diffuse({0.08f, 0.38f, 0.14f}));
    m.banner[2] = b.material("banner_blue", diffuse({0.08f, 0.14f, 0.5f}));

    ColumnStyle ground;  // 4 m columns, 0.26 m shafts
    ground.segments = 24;
    ground.flutes = 12;
    ground.shaftSides = 48;
    ground.shaftRings = 4;
    ground.torusSteps = 4;
    ground.echinusSteps = 5;
    ColumnStyle upper;
    upper.height = kUpperTop - kGalleryFloor;
    upper.radius = 0.2f;
    upper.segments = 16;
    upper.flutes = 12;
    upper.shaftSides = 36;
    upper.shaftRings = 3;
    upper.torusSteps = 4;
    upper.echinusSteps = 5;

    addFloor(b, m);
    addStorey(b, m, 0.0f, ground, kGroundTop, kGroundWallTop, 0.6f);
    addStorey(b, m, kGalleryFloor, upper, kUpperTop, kUpperWallTop, 0.5f);
    addGallery(b, m, upper);
    addShell(b, m);
    addFurnishings(b, m);
    return b.finish("atrium", "atrium");
}

}  // namespace strata
