// Small test meshes: plane, box, UV sphere and the Cornell box.
#include <cmath>

#include "scene/generators/catalog.h"
#include "scene/generators/mesh_builder.h"
#include "scene/generators/params.h"

namespace strata {

// "plane": a square in the XZ plane centred on the origin, facing +Y.
// params: size (metres, 1), subdivisions (cells per side, 1).
LoadedMesh generatePlane(const nlohmann::json& params, const std::string& where) {
    GeneratorParams p(params, where, "plane", {"size", "subdivisions"});
    float size = p.number("size", 1.0f, 1e-3f, 1e5f);
    int subdivisions = p.integer("subdivisions", 1, 1, 2048);
    MeshBuilder b;
    b.use(b.material("default", diffuse({0.8f, 0.8f, 0.8f})));
    float h = 0.5f * size;
    b.patch({-h, 0, h}, {size, 0, 0}, {0, 0, -size}, subdivisions, subdivisions);
    return b.finish("plane", "plane");
}

// "box": an axis-aligned box centred on the origin. params: size (number or [x, y, z], 1).
LoadedMesh generateBox(const nlohmann::json& params, const std::string& where) {
    GeneratorParams p(params, where, "box", {"size"});
    Vec3 size = p.vec3OrNumber("size", make3(1.0f), 1e-3f, 1e5f);
    MeshBuilder b;
    b.use(b.material("default", diffuse({0.8f, 0.8f, 0.8f})));
    b.box(size * -0.5f, size * 0.5f);
    return b.finish("box", "box");
}

// "sphere": a UV sphere centred on the origin. params: radius (1), segments
// (around the equator, 32; pole to pole gets segments / 2 rings).
LoadedMesh generateSphere(const nlohmann::json& params, const std::string& where) {
    GeneratorParams p(params, where, "sphere", {"radius", "segments"});
    float radius = p.number("radius", 1.0f, 1e-3f, 1e5f);
    int segments = p.integer("segments", 32, 4, 4096);
    MeshBuilder b;
    b.use(b.material("default", diffuse({0.8f, 0.8f, 0.8f})));
    b.ellipsoid({0, 0, 0}, make3(radius), segments, segments / 2);
    return b.finish("sphere", "sphere");
}

// "cornell": the Cornell box, 2 m on a side (x, z in [-1, 1], y in [0, 2]),
// open towards +Z, with an emissive quad recessed in the ceiling.
// params: boxes (the short and the tall block, true).
LoadedMesh generateCornell(const nlohmann::json& params, const std::string& where) {
    GeneratorParams p(params, where, "cornell", {"boxes"});
    bool boxes = p.boolean("boxes", true);
    MeshBuilder b;
    int32_t white = b.material("white", diffuse({0.73f, 0.73f, 0.73f}));
    int32_t red = b.material("red", diffuse({0.65f, 0.05f, 0.05f}));
    int32_t green = b.material("green", diffuse({0.12f, 0.45f, 0.15f}));
    int32_t light = b.material("light", emissive({17.0f, 12.0f, 4.0f}));

    // Walls face the inside of the box.
    b.use(white);
    b.patch({-1, 0, 1}, {2, 0, 0}, {0, 0, -2});  // floor, +Y
    b.patch({-1, 0, -1}, {2, 0, 0}, {0, 2, 0});  // back, +Z
    b.use(red);
    b.patch({-1, 0, 1}, {0, 0, -2}, {0, 2, 0});  // left, +X
    b.use(green);
    b.patch({1, 0, -1}, {0, 0, 2}, {0, 2, 0});  // right, -X
    // Ceiling around a 0.5 m square hole, facing down.
    const float hl = 0.25f, y = 2.0f, recess = 0.02f;
    b.use(white);
    b.patch({-1, y, -1}, {1 - hl, 0, 0}, {0, 0, 2});        // x in [-1, -hl]
    b.patch({hl, y, -1}, {1 - hl, 0, 0}, {0, 0, 2});        // x in [hl, 1]
    b.patch({-hl, y, -1}, {2 * hl, 0, 0}, {0, 0, 1 - hl});  // z in [-1, -hl]
    b.patch({-hl, y, hl}, {2 * hl, 0, 0}, {0, 0, 1 - hl});  // z in [hl, 1]
    // The recess: four thin walls facing the hole's centre, the light above.
    b.patch({-hl, y, -hl}, {0, recess, 0}, {0, 0, 2 * hl});  // +X
    b.patch({hl, y, -hl}, {0, 0, 2 * hl}, {0, recess, 0});   // -X
    b.patch({-hl, y, -hl}, {2 * hl, 0, 0}, {0, recess, 0});  // +Z
    b.patch({-hl, y, hl}, {0, recess, 0}, {2 * hl, 0, 0});   // -Z
    b.use(light);
    b.patch({-hl, y + recess, -hl}, {2 * hl, 0, 0}, {0, 0, 2 * hl});  // facing down

    if (boxes) {
        b.use(white);
        {
            ScopedTransform s(b, placeYaw({0.33f, 0, 0.35f}, -0.3f));
            b.box({-0.3f, 0, -0.3f}, {0.3f, 0.6f, 0.3f});
        }
        {
            ScopedTransform s(b, placeYaw({-0.35f, 0, -0.3f}, 0.3f));
            b.box({-0.3f, 0, -0.3f}, {0.3f, 1.2f, 0.3f});
        }
    }
    return b.finish("cornell", "cornell");
}

}  // namespace strata
