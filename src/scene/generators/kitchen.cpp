// "kitchen": a kitchen interior (about 101K triangles, like the kitchen of
// the GPU kd-tree chapter's KR scenes). A 6 m x 5 m x 2.8 m room with a
// window in the east (+X) wall; counters with drawers and doors, a sink and a
// stove along the north (-Z) and west (-X) walls, wall cabinets, a fridge; a
// table with four chairs, tableware (lathe-turned plates, bowls, cups), pots,
// jars and fruit; a pendant lamp over the table whose shade glows inside.
// Origin at the floor's centre, floor top at y = 0.
#include <cmath>

#include "scene/generators/catalog.h"
#include "scene/generators/kitchen_parts.h"
#include "scene/generators/mesh_builder.h"
#include "scene/generators/params.h"

namespace strata {

namespace {

constexpr float kHalfX = 3.0f, kHalfZ = 2.5f, kHeight = 2.8f, kWall = 0.2f;
constexpr float kWindowZ = 0.8f, kWindowBottom = 0.95f, kWindowTop = 2.15f;
const Vec3 kTableCentre{0.4f, 0.0f, 0.5f};

void addRoom(MeshBuilder& b, const KitchenMaterials& m) {
    // Floor: a chequerboard of tiles over a grout bed.
    b.use(m.black);
    b.box({-kHalfX, -0.2f, -kHalfZ}, {kHalfX, -0.005f, kHalfZ}, true);
    const int nx = 20, nz = 16;
    const float tx = 2 * kHalfX / nx, tz = 2 * kHalfZ / nz, gap = 0.003f;
    for (int i = 0; i < nx; ++i)
        for (int k = 0; k < nz; ++k) {
            float x = -kHalfX + tx * float(i), z = -kHalfZ + tz * float(k);
            b.use((i + k) % 2 ? m.floorBlack : m.floorWhite);
            b.box({x + gap, -0.01f, z + gap}, {x + tx - gap, 0, z + tz - gap}, true);
        }
    b.use(m.ceiling);
    b.box({-kHalfX - kWall, kHeight, -kHalfZ - kWall}, {kHalfX + kWall, kHeight + kWall, kHalfZ + kWall});
    b.use(m.wall);
    b.box({-kHalfX - kWall, -0.2f, -kHalfZ - kWall}, {kHalfX + kWall, kHeight, -kHalfZ});
    b.box({-kHalfX - kWall, -0.2f, kHalfZ}, {kHalfX + kWall, kHeight, kHalfZ + kWall});
    b.box({-kHalfX - kWall, -0.2f, -kHalfZ}, {-kHalfX, kHeight, kHalfZ});
    // The east wall around the window opening.
    const float x0 = kHalfX, x1 = kHalfX + kWall;
    b.box({x0, -0.2f, -kHalfZ}, {x1, kWindowBottom, kHalfZ});
    b.box({x0, kWindowTop, -kHalfZ}, {x1, kHeight, kHalfZ});
    b.box({x0, kWindowBottom, -kHalfZ}, {x1, kWindowTop, -kWindowZ});
    b.box({x0, kWindowBottom, kWindowZ}, {x1, kWindowTop, kHalfZ});
    // Window frame, mullion and transom (no glass: the sun comes straight in), sill.
    b.use(m.frame);
    const float f = 0.05f, fx0 = x0 + 0.07f, fx1 = x0 + 0.13f;
    b.box({fx0, kWindowBottom, -kWindowZ}, {fx1, kWindowBottom + f, kWindowZ});
    b.box({fx0, kWindowTop - f, -kWindowZ}, {fx1, kWindowTop, kWindowZ});
    b.box({fx0, kWindowBottom + f, -kWindowZ}, {fx1, kWindowTop - f, -kWindowZ + f});
    b.box({fx0, kWindowBottom + f, kWindowZ - f}, {fx1, kWindowTop - f, kWindowZ});
    b.box({fx0, kWindowBottom + f, -0.02f}, {fx1, kWindowTop - f, 0.02f});
    b.box({fx0, 1.62f, -kWindowZ + f}, {fx1, 1.66f, kWindowZ - f});
    b.box({x0 - 0.1f, kWindowBottom - 0.04f, -kWindowZ - 0.08f}, {x0 + 0.02f, kWindowBottom, kWindowZ + 0.08f});
    // Skirting along the walls without counters.
    b.box({-kHalfX, 0, kHalfZ - 0.015f}, {kHalfX, 0.1f, kHalfZ});
    b.box({kHalfX - 0.015f, 0, -kHalfZ}, {kHalfX, 0.1f, kHalfZ});
}

}  // namespace

// params: none.
LoadedMesh generateKitchen(const nlohmann::json& params, const std::string& where) {
    GeneratorParams p(params, where, "kitchen", {});
    MeshBuilder b;
    KitchenMaterials m;
    m.wall = b.material("kitchen_wall", diffuse({0.82f, 0.78f, 0.68f}));
    m.floorWhite = b.material("floor_tile_white", diffuse({0.8f, 0.79f, 0.75f}));
    m.floorBlack = b.material("floor_tile_black", diffuse({0.08f, 0.08f, 0.09f}));
    m.ceiling = b.material("ceiling", diffuse({0.85f, 0.85f, 0.83f}));
    m.cabinet = b.material("cabinet_paint", diffuse({0.36f, 0.46f, 0.4f}));
    m.countertop = b.material("countertop", diffuse({0.22f, 0.21f, 0.2f}));
    m.wood = b.material("wood", diffuse({0.5f, 0.32f, 0.17f}));
    m.steel = b.material("steel", conductor({0.75f, 0.75f, 0.76f}, 0.25f));
    m.appliance = b.material("appliance_white", diffuse({0.88f, 0.88f, 0.86f}));
    m.black = b.material("black", diffuse({0.03f, 0.03f, 0.03f}));
    m.ceramic = b.material("ceramic", diffuse({0.9f, 0.88f, 0.83f}));
    m.copper = b.material("copper", conductor({0.95f, 0.64f, 0.54f}, 0.3f));
    Material glass;
    glass.type = MaterialType::Dielectric;
    glass.albedo = {1, 1, 1};
    glass.ior = 1.5f;
    m.glass = b.material("glass", glass);
    m.fruitRed = b.material("fruit_red", diffuse({0.6f, 0.06f, 0.04f}));
    m.fruitOrange = b.material("fruit_orange", diffuse({0.85f, 0.42f, 0.05f}));
    m.lampShade = b.material("lamp_shade", diffuse({0.12f, 0.28f, 0.24f}));
    m.lampGlow = b.material("lamp_glow", emissive({9.0f, 7.6f, 5.6f}));
    m.frame = b.material("window_frame", diffuse({0.9f, 0.9f, 0.88f}));
    KitchenDetail d;

    addRoom(b, m);

    // North run (x from the west wall to the fridge) with the sink; west run with the stove.
    const Affine north = placeYaw({-kHalfX, 0, -kHalfZ}, 0);
    const Affine west = placeYaw({-kHalfX, 0, 1.3f}, 0.5f * kPi);  // local +X runs towards -Z
    const float stoveAt = 1.6f;
    {
        ScopedTransform t(b, north);
        addBaseCabinets(b, m, d, 4.25f, 2.4f, -1);
        addWallCabinets(b, m, 4.25f);
    }
    {
        ScopedTransform t(b, west);
        addBaseCabinets(b, m, d, 3.2f, -1, stoveAt);
        {
            ScopedTransform c(b, translation({0, 0, 0}));
            addWallCabinets(b, m, 1.2f);
        }
        {
            ScopedTransform c(b, translation({2.0f, 0, 0}));
            addWallCabinets(b, m, 1.2f);
        }
    }
    {
        ScopedTransform t(b, placeYaw({1.35f, 0, -kHalfZ}, 0));
        addFridge(b, m);
    }

    // Table and chairs.
    {
        ScopedTransform t(b, translation(kTableCentre));
        addTable(b, m, d, 1.6f, 0.9f);
    }
    for (float sx : {-1.0f, 1.0f})
        for (float sz : {-1.0f, 1.0f}) {
            Vec3 at = kTableCentre + Vec3{sx * 0.4f, 0, sz * 0.62f};
            ScopedTransform t(b, placeYaw(at, sz > 0 ? kPi : 0.0f));  // facing the table
            addChair(b, m, d);
        }

    // Place settings, a fruit bowl, pots on the stove, jars and bowls on the counters.
    const float top = 0.76f;
    for (float sx : {-1.0f, 1.0f})
        for (float sz : {-1.0f, 1.0f}) {
            Vec3 plate = kTableCentre + Vec3{sx * 0.4f, top, sz * 0.27f};
            b.use(m.ceramic);
            addPlate(b, plate, 0.13f, d.wareSegments);
            addCup(b, plate + Vec3{0.2f, 0, -sz * 0.08f}, 0.04f, d.wareSegments);
        }
    b.use(m.ceramic);
    Vec3 bowl = kTableCentre + Vec3{0, top, 0};
    addBowl(b, bowl, 0.14f, d.wareSegments);
    const Vec3 fruit[6] = {{0, 0.055f, 0},          {0.06f, 0.05f, 0.03f},     {-0.06f, 0.05f, 0.035f},
                           {0.02f, 0.05f, -0.065f}, {-0.045f, 0.048f, -0.05f}, {0.0f, 0.1f, 0.01f}};
    for (int i = 0; i < 6; ++i) {
        b.use(i % 2 ? m.fruitOrange : m.fruitRed);
        b.ellipsoid(bowl + fruit[i], {0.04f, 0.038f, 0.04f}, 24, 12);
    }
    const float counter = 0.9f;
    Vec3 burners[2] = {west.point({stoveAt - 0.14f, counter + 0.006f, 0.16f}),
                       west.point({stoveAt + 0.14f, counter + 0.006f, 0.42f})};
    addPot(b, m, burners[0] + Vec3{0, 0.017f, 0}, 0.11f, 0.16f, true, d.wareSegments);
    addPot(b, m, burners[1] + Vec3{0, 0.017f, 0}, 0.09f, 0.1f, false, d.wareSegments);
    for (int i = 0; i < 3; ++i)
        addJar(b, m, north.point({0.25f + 0.14f * float(i), counter, 0.15f}), 0.05f, 0.12f + 0.03f * float(i),
               d.wareSegments);
    b.use(m.ceramic);
    addBowl(b, north.point({1.2f, counter, 0.3f}), 0.11f, d.wareSegments);
    addBowl(b, west.point({0.5f, counter, 0.3f}), 0.09f, d.wareSegments);
    b.use(m.wood);
    {
        ScopedTransform t(b, placeYaw(north.point({3.3f, counter, 0.3f}), 0.2f));
        b.box({-0.2f, 0, -0.13f}, {0.2f, 0.02f, 0.13f}, true);  // a cutting board
    }

    addLamp(b, m, {kTableCentre.x, kHeight, kTableCentre.z}, 0.75f, d.wareSegments);
    return b.finish("kitchen", "kitchen");
}

}  // namespace strata
