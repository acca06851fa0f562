// glTF 2.0 meshes (scene/gltf_loader.h). Files made here from the
// specification (tests/common/gltf_writer.h) check each rule against values
// worked out by hand in the test: the node hierarchy (TRS and matrices),
// strips and fans, sparse and normalized accessors, LINEAR / STEP /
// CUBICSPLINE channels, skinning, morph targets, materials and textures, the
// same file as .gltf + .bin, embedded and GLB, and damaged files. The
// Khronos sample files Debian ships in assimp-testmodels (installed by
// scripts/setup.sh) are read where present: the same box three ways, a
// hierarchy of 2CylinderEngine's parts counted from its JSON, a morphing
// cube, a skinned strip, every primitive mode, and the broken files.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "gltf_writer.h"
#include "loader_test_util.h"
#include "scene/gltf_loader.h"
#include "scene/image_io.h"
#include "scene/pose.h"
#include "scene/scene_loader.h"

namespace strata {
namespace {

using test::errorOf;
using test::GltfWriter;
using test::TempDir;
using Json = nlohmann::json;

const std::vector<float> kTriangle = {0, 0, 0, 1, 0, 0, 0, 1, 0};

void expectNear(Vec3 a, Vec3 b, const std::string& what, float tol = 1e-5f) {
    EXPECT_NEAR(a.x, b.x, tol) << what;
    EXPECT_NEAR(a.y, b.y, tol) << what;
    EXPECT_NEAR(a.z, b.z, tol) << what;
}

LoadedGltf loadText(const TempDir& dir, const std::string& name, const std::string& text,
                    const GltfLoadOptions& o = {}) {
    return loadGltf(dir.write(name, text), o);
}

// Positions of a mesh at scene time t (frames interpolated as the renderer does).
std::vector<Vec3> posedAt(const Mesh& m, float t) {
    std::vector<Vec3> p, n;
    poseMesh(m, t, p, n);
    return p;
}

}  // namespace

// Root: translation (1, 2, 3), scale 2. Child: 90 degrees about z. A vertex
// p lands at T + 2 Rz(p); the child given as a matrix lands the same.
TEST(GltfLoader, NodeHierarchyPlacesVertices) {
    for (bool matrix : {false, true}) {
        GltfWriter w;
        const int mesh = w.mesh(
            {{"POSITION", w.vec3({1, 0, 0, 0, 1, 0, 0, 0, 1})}, {"NORMAL", w.vec3({0, 0, 1, 0, 0, 1, 0, 0, 1})}});
        const double s = std::sqrt(0.5);
        Json child = {{"mesh", mesh}};
        if (matrix)
            child["matrix"] = {0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};  // columns: x -> y, y -> -x
        else
            child["rotation"] = {0, 0, s, s};
        const int c = w.node(child);
        w.scene({w.node({{"children", {c}}, {"translation", {1, 2, 3}}, {"scale", {2, 2, 2}}})});
        TempDir dir;
        const LoadedGltf g = loadText(dir, "h.gltf", w.embedded());
        const Mesh& m = g.loaded.mesh;
        ASSERT_EQ(m.positions.size(), 3u);
        ASSERT_EQ(m.triangles.size(), 1u);
        expectNear(m.positions[0], {1, 4, 3}, "x axis turns to y");
        expectNear(m.positions[1], {-1, 2, 3}, "y axis turns to -x");
        expectNear(m.positions[2], {1, 2, 5}, "z stays, scaled");
        ASSERT_EQ(m.normals.size(), 3u);
        expectNear(m.normals[0], {0, 0, 1}, "normal");
        EXPECT_EQ(m.animation, MeshAnimationKind::Static);
        EXPECT_EQ(g.frames, 0u);
    }
}

// A mirrored node (scale -1 in x) keeps normals facing out of the surface:
// the inverse-transpose, not the matrix, maps them.
TEST(GltfLoader, NormalsFollowTheInverseTranspose) {
    GltfWriter w;
    const int mesh = w.mesh({{"POSITION", w.vec3(kTriangle)}, {"NORMAL", w.vec3({1, 1, 0, 1, 1, 0, 1, 1, 0})}});
    w.scene({w.node({{"mesh", mesh}, {"scale", {4, 1, 1}}})});
    TempDir dir;
    const Mesh m = loadText(dir, "n.gltf", w.embedded()).loaded.mesh;
    // n' ~ (1/4, 1, 0) normalised.
    const float l = std::sqrt(1.0f / 16 + 1);
    expectNear(m.normals[0], {0.25f / l, 1 / l, 0}, "stretched x: the normal leans to y");
}

// A mirroring node (scale -1 in x): glTF's front faces turn clockwise, so
// the loader turns the triangle round; the geometric normal then agrees with
// the shading normal, which the inverse-transpose keeps at +z.
TEST(GltfLoader, MirroredNodesKeepTheirFrontFaces) {
    GltfWriter w;
    const int mesh = w.mesh({{"POSITION", w.vec3(kTriangle)}, {"NORMAL", w.vec3({0, 0, 1, 0, 0, 1, 0, 0, 1})}});
    w.scene({w.node({{"mesh", mesh}, {"scale", {-1, 1, 1}}})});
    TempDir dir;
    const Mesh m = loadText(dir, "mirror.gltf", w.embedded()).loaded.mesh;
    ASSERT_EQ(m.triangles.size(), 1u);
    const Tri& t = m.triangles[0];
    const Vec3 g = cross(m.positions[t.v[1]] - m.positions[t.v[0]], m.positions[t.v[2]] - m.positions[t.v[0]]);
    EXPECT_GT(g.z, 0) << "the geometric normal faces +z";
    expectNear(m.normals[0], {0, 0, 1}, "the shading normal faces +z");
}

TEST(GltfLoader, StripsAndFansBecomeTriangles) {
    // Four vertices of a unit square in z = 0; strip 0 1 2 3 and fan 0 1 3 2
    // both cover it with two triangles facing +z.
    const std::vector<float> sq = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
    for (auto [mode, idx] : {std::pair<int, std::vector<uint16_t>>{5, {0, 1, 2, 3}}, {6, {0, 1, 3, 2}}}) {
        GltfWriter w;
        const int mesh = w.mesh({{"POSITION", w.vec3(sq)}}, w.indices(idx), mode);
        w.scene({w.node({{"mesh", mesh}})});
        TempDir dir;
        const Mesh m = loadText(dir, "s.gltf", w.embedded()).loaded.mesh;
        ASSERT_EQ(m.triangles.size(), 2u) << "mode " << mode;
        for (const Tri& t : m.triangles) {
            const Vec3 n = cross(m.positions[t.v[1]] - m.positions[t.v[0]], m.positions[t.v[2]] - m.positions[t.v[0]]);
            EXPECT_GT(n.z, 0) << "mode " << mode << ": winding kept";
        }
    }
}

// Sparse substitution over a base view, a sparse accessor without a view
// (zeros), and normalized unsigned bytes for texture coordinates.
TEST(GltfLoader, SparseAndNormalizedAccessors) {
    GltfWriter w;
    const int pos = w.vec3({0, 0, 0, 1, 0, 0, 0, 1, 0});
    const int si = w.view(GltfWriter::bytesOf(std::vector<uint16_t>{1, 2}));
    const int sv = w.view(GltfWriter::bytesOf(std::vector<float>{5, 0, 0, 0, 7, 0}));
    w.doc["accessors"][size_t(pos)]["sparse"] = {
        {"count", 2},
        {"indices", {{"bufferView", si}, {"componentType", GltfWriter::kUShort}}},
        {"values", {{"bufferView", sv}}}};
    w.doc["accessors"][size_t(pos)]["max"] = {5, 7, 0};
    const int uv = w.accessor(std::vector<uint8_t>{0, 255, 255, 0, 51, 102}, "VEC2", GltfWriter::kUByte, 2, true);
    const int mesh = w.mesh({{"POSITION", pos}, {"TEXCOORD_0", uv}});
    w.scene({w.node({{"mesh", mesh}})});
    TempDir dir;
    const Mesh m = loadText(dir, "sp.gltf", w.embedded()).loaded.mesh;
    expectNear(m.positions[1], {5, 0, 0}, "sparse substitution");
    expectNear(m.positions[2], {0, 7, 0}, "sparse substitution");
    ASSERT_EQ(m.uvs.size(), 3u);
    EXPECT_FLOAT_EQ(m.uvs[0].y, 1.0f);
    EXPECT_FLOAT_EQ(m.uvs[2].x, 0.2f);
    EXPECT_FLOAT_EQ(m.uvs[2].y, 0.4f);
}

namespace {

// One triangle under a node animated by `channel` with one sampler.
std::string animatedTriangle(const std::string& path, const std::vector<float>& times, const std::vector<float>& values,
                             const char* interp, const char* type, int comps) {
    GltfWriter w;
    const int mesh = w.mesh({{"POSITION", w.vec3(kTriangle)}});
    w.scene({w.node({{"mesh", mesh}})});
    const int in = w.scalars(times), out = w.floats(values, type, comps);
    w.doc["animations"] =
        Json::array({{{"name", "move"},
                      {"samplers", Json::array({{{"input", in}, {"output", out}, {"interpolation", interp}}})},
                      {"channels", Json::array({{{"sampler", 0}, {"target", {{"node", 0}, {"path", path}}}}})}}});
    return w.embedded();
}

}  // namespace

// Translation keys (0, 0, 0) at t = 0 and (2, 0, 0) at t = 1, baked at 10
// fps: frame k holds the vertex moved by lerp = 0.2 k (LINEAR) or 0 then 2
// (STEP), and the renderer's interpolation between frames follows.
TEST(GltfLoader, LinearAndStepTranslationBakeToFrames) {
    TempDir dir;
    GltfLoadOptions o;
    o.fps = 10;
    o.loop = false;
    for (const char* interp : {"LINEAR", "STEP"}) {
        const LoadedGltf g =
            loadText(dir, "a.gltf", animatedTriangle("translation", {0, 1}, {0, 0, 0, 2, 0, 0}, interp, "VEC3", 3), o);
        const Mesh& m = g.loaded.mesh;
        ASSERT_EQ(m.animation, MeshAnimationKind::Frames) << interp;
        EXPECT_EQ(g.clip, "move");
        ASSERT_EQ(g.frames, 11u) << "0.0 .. 1.0 s at 10 fps, the end kept (no loop)";
        ASSERT_EQ(m.frames.positions.size(), 11u);
        EXPECT_FLOAT_EQ(m.frames.fps, 10.0f);
        for (size_t k = 0; k <= 10; ++k) {
            const float x = std::string(interp) == "LINEAR" ? 0.2f * float(k) : (k == 10 ? 2.0f : 0.0f);
            EXPECT_NEAR(m.frames.positions[k][1].x, 1 + x, 1e-5f) << interp << " frame " << k;
        }
        EXPECT_NEAR(posedAt(m, 0.35f)[0].x, std::string(interp) == "LINEAR" ? 0.7f : 0.0f, 1e-5f) << interp;
    }
}

// CUBICSPLINE: keys (in-tangent, value, out-tangent); with values 0 and 1 at
// t = 0 and 2 and tangents 0 the curve is 3u^2 - 2u^3 (u = t / 2); with an
// out-tangent of 1 at the first key it gains (u^3 - 2u^2 + u) * 2.
TEST(GltfLoader, CubicSplineFollowsHermite) {
    TempDir dir;
    GltfLoadOptions o;
    o.fps = 4;
    o.loop = false;
    // The first key's in-tangent and the last key's out-tangent are never
    // used (1000: a wrong slot shows); key 1's in-tangent is -0.5.
    const std::vector<float> keys = {1000, 0, 0, 0, 0, 0, 1,    0, 0,   // key 0: in, value, out
                                     -0.5, 0, 0, 1, 0, 0, 1000, 0, 0};  // key 1
    const Mesh m =
        loadText(dir, "c.gltf", animatedTriangle("translation", {0, 2}, keys, "CUBICSPLINE", "VEC3", 3), o).loaded.mesh;
    ASSERT_EQ(m.frames.positions.size(), 9u);
    for (size_t k = 0; k < 9; ++k) {
        const double u = double(k) / 8.0, u2 = u * u, u3 = u2 * u;
        const double x = (3 * u2 - 2 * u3) * 1.0 + (u3 - 2 * u2 + u) * 2.0 * 1.0 + (u3 - u2) * 2.0 * -0.5;
        EXPECT_NEAR(m.frames.positions[k][0].x, x, 1e-5) << "frame " << k;
    }
}

// Rotation keys 0 and 90 degrees about y, halfway: 45 degrees (spherical,
// not a straight line between the quaternions' images).
TEST(GltfLoader, RotationIsSlerped) {
    TempDir dir;
    GltfLoadOptions o;
    o.fps = 4;
    o.loop = false;
    const float s = std::sqrt(0.5f);
    // The second key written as -q (the same rotation): the shorter arc is taken.
    for (float sign : {1.0f, -1.0f}) {
        const Mesh m =
            loadText(dir, "r.gltf",
                     animatedTriangle("rotation", {0, 1}, {0, 0, 0, 1, 0, sign * s, 0, sign * s}, "LINEAR", "VEC4", 4),
                     o)
                .loaded.mesh;
        ASSERT_EQ(m.frames.positions.size(), 5u);
        // (1, 0, 0) about y by 22.5 k degrees: (cos, 0, -sin); at a quarter a
        // normalised lerp would give 19.5 degrees, not 22.5.
        for (int k = 1; k <= 4; ++k) {
            const float a = 0.3926991f * float(k);
            expectNear(m.frames.positions[size_t(k)][1], {std::cos(a), 0, -std::sin(a)},
                       "frame " + std::to_string(k) + (sign < 0 ? ", the key negated" : ""));
        }
    }
}

// A looping clip of 1 s at 24 fps holds 24 frames; frame 24 would repeat
// frame 0, and the sequence wraps there.
TEST(GltfLoader, LoopingClipsWrapWithoutRepeatingAFrame) {
    TempDir dir;
    GltfLoadOptions o;
    o.fps = 24;
    const Mesh m =
        loadText(dir, "l.gltf",
                 animatedTriangle("translation", {0, 0.5f, 1}, {0, 0, 0, 1, 0, 0, 0, 0, 0}, "LINEAR", "VEC3", 3), o)
            .loaded.mesh;
    EXPECT_EQ(m.frames.positions.size(), 24u);
    EXPECT_TRUE(m.frames.loop);
    EXPECT_NEAR(posedAt(m, 0.5f)[0].x, 1.0f, 1e-5f);
    EXPECT_NEAR(posedAt(m, 1.25f)[0].x, 0.5f, 1e-5f) << "one period later";
}

// Two joints: joint 0 at the origin, joint 1 at (0, 1, 0), child of 0, turning
// 90 degrees about z over 1 s. Vertex weights (1, 0), (0, 1), (0.5, 0.5).
// Inverse bind matrices undo the joints' rest translations. Expected
// positions are worked out from the rotation directly.
TEST(GltfLoader, SkinningBlendsJoints) {
    GltfWriter w;
    const std::vector<float> pos = {1, 0, 0, 1, 1, 0, 1, 2, 0};
    const int joints =
        w.accessor(std::vector<uint8_t>{0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0}, "VEC4", GltfWriter::kUByte, 4);
    const int weights = w.floats({1, 0, 0, 0, 0, 1, 0, 0, 0.5f, 0.5f, 0, 0}, "VEC4", 4);
    const int mesh = w.mesh({{"POSITION", w.vec3(pos)}, {"JOINTS_0", joints}, {"WEIGHTS_0", weights}});
    const int ibm = w.floats({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0,  0, 1,  //
                              1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1},
                             "MAT4", 16);
    const int j1 = w.node({{"translation", {0, 1, 0}}});
    const int j0 = w.node({{"children", {j1}}});
    const int skinned = w.node({{"mesh", mesh}, {"skin", 0}, {"translation", {100, 0, 0}}});  // ignored, as glTF says
    w.doc["skins"] = Json::array({{{"joints", {j0, j1}}, {"inverseBindMatrices", ibm}}});
    w.scene({j0, skinned});
    const float s = std::sqrt(0.5f);
    const int in = w.scalars({0, 1}), out = w.floats({0, 0, 0, 1, 0, 0, s, s}, "VEC4", 4);
    w.doc["animations"] = Json::array(
        {{{"samplers", Json::array({{{"input", in}, {"output", out}}})},
          {"channels", Json::array({{{"sampler", 0}, {"target", {{"node", j1}, {"path", "rotation"}}}}})}}});
    TempDir dir;
    GltfLoadOptions o;
    o.fps = 1;
    o.loop = false;
    const LoadedGltf g = loadText(dir, "skin.gltf", w.embedded(), o);
    EXPECT_EQ(g.clip, "#0");
    const Mesh& m = g.loaded.mesh;
    ASSERT_EQ(m.frames.positions.size(), 2u);
    for (size_t v = 0; v < 3; ++v) expectNear(m.frames.positions[0][v], {pos[3 * v], pos[3 * v + 1], 0}, "rest");
    // Joint 1 turned: a point q goes to (0, 1) + Rz90 (q - (0, 1)).
    auto turned = [](float x, float y) { return Vec3{-(y - 1), 1 + x, 0}; };
    const std::vector<Vec3>& f1 = m.frames.positions[1];
    expectNear(f1[0], {1, 0, 0}, "bound to the still joint");
    expectNear(f1[1], turned(1, 1), "bound to the turning joint");
    const Vec3 half = (Vec3{1, 2, 0} + turned(1, 2)) * 0.5f;
    expectNear(f1[2], half, "half and half");
}

// Two morph targets moving vertex 0 along x and y; weights animated from
// (0, 0) to (1, 0.5), and the node's default weights (0.5, 0) at rest.
TEST(GltfLoader, MorphTargetsFollowTheirWeights) {
    GltfWriter w;
    const int base = w.vec3(kTriangle);
    const int t0 = w.vec3({1, 0, 0, 0, 0, 0, 0, 0, 0}), t1 = w.vec3({0, 2, 0, 0, 0, 0, 0, 0, 0});
    w.doc["meshes"] = Json::array(
        {{{"primitives", Json::array({{{"attributes", {{"POSITION", base}}},
                                       {"targets", Json::array({{{"POSITION", t0}}, {{"POSITION", t1}}})}}})},
          {"weights", {0.5, 0}}}});
    w.scene({w.node({{"mesh", 0}})});
    TempDir dir;
    {
        GltfLoadOptions none;
        const Mesh m = loadText(dir, "m0.gltf", w.embedded(), none).loaded.mesh;
        expectNear(m.positions[0], {0.5f, 0, 0}, "the mesh's default weights");
    }
    const int in = w.scalars({0, 1}), out = w.scalars({0, 0, 1, 0.5f});
    w.doc["animations"] =
        Json::array({{{"samplers", Json::array({{{"input", in}, {"output", out}}})},
                      {"channels", Json::array({{{"sampler", 0}, {"target", {{"node", 0}, {"path", "weights"}}}}})}}});
    GltfLoadOptions o;
    o.fps = 2;
    o.loop = false;
    const Mesh m = loadText(dir, "m.gltf", w.embedded(), o).loaded.mesh;
    ASSERT_EQ(m.frames.positions.size(), 3u);
    expectNear(m.frames.positions[1][0], {0.5f, 0.5f, 0}, "weights (0.5, 0.25)");
    expectNear(m.frames.positions[2][0], {1, 1, 0}, "weights (1, 0.5)");
    GltfLoadOptions rest;
    rest.clip = "none";
    EXPECT_EQ(loadText(dir, "m2.gltf", w.embedded(), rest).loaded.mesh.animation, MeshAnimationKind::Static);
    // The node's own weights replace the mesh's.
    w.doc["nodes"][0]["weights"] = {0, 0.25};
    expectNear(loadText(dir, "m3.gltf", w.embedded(), rest).loaded.mesh.positions[0], {0, 0.5f, 0}, "node weights");
}

// A NORMAL morph target moves the normals too (then normalised).
TEST(GltfLoader, MorphTargetsMoveNormals) {
    GltfWriter w;
    const int base = w.vec3(kTriangle), n = w.vec3({0, 0, 1, 0, 0, 1, 0, 0, 1});
    const int dn = w.vec3({1, 0, -1, 0, 0, 0, 0, 0, 0});
    w.doc["meshes"] = Json::array({{{"primitives", Json::array({{{"attributes", {{"POSITION", base}, {"NORMAL", n}}},
                                                                 {"targets", Json::array({{{"NORMAL", dn}}})}}})},
                                    {"weights", {1}}}});
    w.scene({w.node({{"mesh", 0}})});
    TempDir dir;
    const Mesh m = loadText(dir, "mn.gltf", w.embedded()).loaded.mesh;
    expectNear(m.normals[0], {1, 0, 0}, "(0, 0, 1) + (1, 0, -1)");
    expectNear(m.normals[1], {0, 0, 1}, "not moved");
}

// A skin without inverseBindMatrices (optional in glTF: identity) loads.
TEST(GltfLoader, SkinWithoutInverseBindMatrices) {
    GltfWriter w;
    const int joints =
        w.accessor(std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, "VEC4", GltfWriter::kUByte, 4);
    const int weights = w.floats({1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, "VEC4", 4);
    const int mesh = w.mesh({{"POSITION", w.vec3(kTriangle)}, {"JOINTS_0", joints}, {"WEIGHTS_0", weights}});
    const int j = w.node({{"translation", {0, 0, 5}}});
    w.doc["skins"] = Json::array({{{"joints", {j}}}});
    w.scene({j, w.node({{"mesh", mesh}, {"skin", 0}})});
    TempDir dir;
    const Mesh m = loadText(dir, "nibm.gltf", w.embedded()).loaded.mesh;
    expectNear(m.positions[1], {1, 0, 5}, "moved by the joint's global transform alone");
}

// The same document as .gltf + .bin, with its buffer embedded, and as GLB.
TEST(GltfLoader, SeparateEmbeddedAndBinaryAreTheSameMesh) {
    GltfWriter w;
    const int mesh =
        w.mesh({{"POSITION", w.vec3({0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0})}}, w.indices({0, 1, 2, 2, 1, 3}));
    w.scene({w.node({{"mesh", mesh}, {"translation", {0, 0, -1}}})});
    TempDir dir;
    const Mesh a = loadGltf(w.writeSeparate(dir.path().string(), "box")).loaded.mesh;
    const Mesh b = loadText(dir, "e.gltf", w.embedded()).loaded.mesh;
    const Mesh c = loadText(dir, "b.glb", w.glb()).loaded.mesh;
    for (const Mesh* m : {&b, &c}) {
        ASSERT_EQ(m->positions.size(), a.positions.size());
        ASSERT_EQ(m->triangles.size(), 2u);
        for (size_t i = 0; i < a.positions.size(); ++i) expectNear(m->positions[i], a.positions[i], "vertex", 0);
        for (size_t t = 0; t < 2; ++t)
            for (int k = 0; k < 3; ++k) EXPECT_EQ(m->triangles[t].v[k], a.triangles[t].v[k]);
    }
    EXPECT_EQ(a.positions[3].z, -1.0f);
}

// pbrMetallicRoughness as strata's materials: base colour, metal, an
// emitter, a transmissive dielectric, the default; names carry the file's
// stem; an embedded PNG texture is decoded, an external one named by path.
TEST(GltfLoader, MaterialsAndTextures) {
    GltfWriter w;
    const std::string png = encodePng("t.png", 2, 1, {255, 0, 0, 0, 0, 255});
    const int pngView = w.view(png);
    w.doc["images"] = Json::array({{{"bufferView", pngView}, {"mimeType", "image/png"}}, {{"uri", "my%20tex.png"}}});
    w.doc["textures"] = Json::array({{{"source", 0}}, {{"source", 1}}});
    w.doc["materials"] = Json::array(
        {{{"name", "paint"},
          {"pbrMetallicRoughness",
           {{"baseColorFactor", {0.5, 0.25, 1, 1}}, {"metallicFactor", 0}, {"baseColorTexture", {{"index", 0}}}}}},
         {{"pbrMetallicRoughness", {{"metallicFactor", 1}, {"roughnessFactor", 0.2}}}},
         {{"name", "lamp"},
          {"emissiveFactor", {1, 0.5, 0}},
          {"extensions", {{"KHR_materials_emissive_strength", {{"emissiveStrength", 4}}}}}},
         {{"name", "glass"},
          {"pbrMetallicRoughness", {{"metallicFactor", 0}, {"baseColorTexture", {{"index", 1}}}}},
          {"extensions",
           {{"KHR_materials_transmission", {{"transmissionFactor", 1}}}, {"KHR_materials_ior", {{"ior", 1.33}}}}}}});
    const int pos = w.vec3(kTriangle);
    Json prims = Json::array();
    for (int mat = -1; mat < 4; ++mat) {
        Json p = {{"attributes", {{"POSITION", pos}}}};
        if (mat >= 0) p["material"] = mat;
        prims.push_back(p);
    }
    w.doc["meshes"] = Json::array({{{"primitives", prims}}});
    w.scene({w.node({{"mesh", 0}})});
    TempDir dir;
    const LoadedGltf g = loadText(dir, "mats.glb", w.glb());
    const auto& mats = g.loaded.materials;
    ASSERT_EQ(mats.size(), 5u);
    ASSERT_EQ(g.textures.size(), 5u);
    EXPECT_EQ(mats[0].name, "mats/default");
    EXPECT_EQ(mats[1].name, "mats/paint");
    EXPECT_EQ(mats[1].material.type, MaterialType::Diffuse);
    expectNear(mats[1].material.albedo, {0.5f, 0.25f, 1}, "base colour");
    EXPECT_EQ(g.textures[1].path, dir.file("mats.glb") + "#images[0]");
    ASSERT_EQ(g.textures[1].embedded.width, 2);
    EXPECT_NEAR(g.textures[1].embedded.pixels[0].x, 1.0f, 1e-6f);
    EXPECT_NEAR(g.textures[1].embedded.pixels[1].z, 1.0f, 1e-6f);
    EXPECT_EQ(mats[2].name, "mats/#1");
    EXPECT_EQ(mats[2].material.type, MaterialType::Conductor);
    EXPECT_FLOAT_EQ(mats[2].material.roughness, 0.2f);
    EXPECT_EQ(mats[3].material.type, MaterialType::Emissive);
    expectNear(mats[3].material.emission, {4, 2, 0}, "emission x strength");
    EXPECT_EQ(mats[4].material.type, MaterialType::Dielectric);
    EXPECT_FLOAT_EQ(mats[4].material.ior, 1.33f);
    EXPECT_EQ(g.textures[4].path, dir.file("my tex.png"));
    EXPECT_EQ(g.textures[4].embedded.width, 0);
    EXPECT_EQ(g.loaded.mesh.triMaterial.size(), 5u);
}

// What strata does not render is named once per file, with counts; a
// texture that has only an extension's image (no PNG or JPEG) is one of them.
TEST(GltfLoader, UnrenderedFeaturesAreNamedOnce) {
    GltfWriter w;
    w.doc["textures"] = Json::array({{{"source", 0}}, {{"extensions", {{"KHR_texture_basisu", {{"source", 0}}}}}}});
    w.doc["images"] = Json::array({{{"uri", "n.png"}}});
    w.doc["materials"] = Json::array(
        {{{"normalTexture", {{"index", 0}}}, {"alphaMode", "BLEND"}},
         {{"normalTexture", {{"index", 0}}}, {"pbrMetallicRoughness", {{"baseColorTexture", {{"index", 1}}}}}}});
    w.doc["cameras"] = Json::array({{{"type", "perspective"}, {"perspective", {{"yfov", 1}, {"znear", 0.1}}}}});
    const int pos = w.vec3(kTriangle);
    w.doc["meshes"] =
        Json::array({{{"primitives", Json::array({{{"attributes", {{"POSITION", pos}}}, {"material", 0}},
                                                  {{"attributes", {{"POSITION", pos}}}, {"material", 1}},
                                                  {{"attributes", {{"POSITION", pos}}}, {"mode", 1}}})}}});
    w.scene({w.node({{"mesh", 0}})});
    TempDir dir;
    testing::internal::CaptureStderr();
    const LoadedGltf g = loadText(dir, "u.gltf", w.embedded());
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(g.loaded.mesh.triangles.size(), 2u);
    EXPECT_TRUE(g.textures[1].path.empty());
    EXPECT_CONTAINS(
        err,
        "u.gltf: not rendered: alpha modes MASK and BLEND (rendered opaque) (1), cameras (1), normal maps (2), "
        "points and lines primitives (1), textures without a PNG or JPEG source (1)\n");
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
}

TEST(GltfLoader, DamagedFilesAreNamed) {
    TempDir dir;
    auto err = [&](const GltfWriter& w, GltfLoadOptions o = {}) {
        return errorOf([&] { loadText(dir, "bad.gltf", w.embedded(), o); });
    };
    auto triangle = [] {
        GltfWriter w;
        const int mesh = w.mesh({{"POSITION", w.vec3(kTriangle)}}, w.indices({0, 1, 2}));
        w.scene({w.node({{"mesh", mesh}})});
        return w;
    };
    {
        GltfWriter w = triangle();
        w.doc["accessors"][1]["count"] = 4;  // past its view
        const std::string e = err(w);
        EXPECT_CONTAINS(e, "bad.gltf: accessors[1]");
        EXPECT_CONTAINS(e, "do not fit bufferViews[1]");
    }
    {
        GltfWriter w;
        const int mesh = w.mesh({{"POSITION", w.vec3(kTriangle)}}, w.indices({0, 1, 3}));
        w.scene({w.node({{"mesh", mesh}})});
        EXPECT_CONTAINS(err(w), "index 3 is beyond its 3 vertices");
    }
    {
        GltfWriter w = triangle();
        w.doc["nodes"][0]["children"] = {0};
        EXPECT_CONTAINS(err(w), "nodes[0]: reached twice");
    }
    {
        GltfWriter w = triangle();
        w.doc["extensionsRequired"] = {"KHR_draco_mesh_compression"};
        EXPECT_CONTAINS(err(w), "does not read extension KHR_draco_mesh_compression");
    }
    {
        GltfWriter w = triangle();
        w.doc["meshes"][0]["primitives"][0]["attributes"].erase("POSITION");
        w.doc["meshes"][0]["primitives"][0]["attributes"]["NORMAL"] = 0;
        EXPECT_CONTAINS(err(w), "no POSITION attribute");
    }
    {
        GltfWriter w;
        const int mesh = w.mesh({{"POSITION", w.vec3({0, 0, 0, 1, NAN, 0, 0, 1, 0})}});
        w.scene({w.node({{"mesh", mesh}})});
        EXPECT_CONTAINS(err(w), "not finite");
    }
    {
        GltfLoadOptions o;
        o.clip = "walk";
        const std::string e = errorOf([&] {
            loadText(dir, "a.gltf", animatedTriangle("translation", {0, 1}, {0, 0, 0, 1, 0, 0}, "LINEAR", "VEC3", 3),
                     o);
        });
        EXPECT_CONTAINS(e, "no animation 'walk' (the file has move)");
    }
    {
        GltfLoadOptions o;
        o.fps = 10000;  // 3000 s at 10000 fps: 30 M frames of 3 vertices
        const std::string e = errorOf([&] {
            loadText(dir, "a.gltf", animatedTriangle("translation", {0, 3000}, {0, 0, 0, 1, 0, 0}, "LINEAR", "VEC3", 3),
                     o);
        });
        EXPECT_CONTAINS(e, "lower \"fps\"");
    }
    {
        const std::string e = errorOf([&] {
            loadText(dir, "a.gltf", animatedTriangle("translation", {1, 0}, {0, 0, 0, 1, 0, 0}, "LINEAR", "VEC3", 3));
        });
        EXPECT_CONTAINS(e, "animations[0].samplers[0]: key times must increase");
    }
    EXPECT_CONTAINS(errorOf([&] { loadText(dir, "j.gltf", "{\"asset\": "); }), "j.gltf: not a readable glTF file");
    EXPECT_CONTAINS(errorOf([&] { loadText(dir, "g.glb", "glTF\x02\0\0\0garbage"); }),
                    "g.glb: not a readable glTF binary");
    EXPECT_CONTAINS(errorOf([&] { loadGltf(dir.file("absent.gltf")); }), "absent.gltf: cannot open");
    {
        GltfWriter w = triangle();
        const std::string path = w.writeSeparate(dir.path().string(), "lost");
        std::filesystem::remove(dir.file("lost.bin"));
        EXPECT_CONTAINS(errorOf([&] { loadGltf(path); }), "lost.gltf: not a readable glTF file");
    }
}

// Files made to exhaust the loader are refused at once, with a message
// (each of these once crashed, hung or allocated gigabytes).
TEST(GltfLoader, HostileFilesAreRefusedQuickly) {
    TempDir dir;
    const auto start = std::chrono::steady_clock::now();
    auto triangle = [] {
        GltfWriter w;
        const int mesh = w.mesh({{"POSITION", w.vec3(kTriangle)}});
        w.scene({w.node({{"mesh", mesh}})});
        return w;
    };
    {  // no vertices and a clip of ten million seconds: nothing to bake, not an endless bake
        GltfWriter w;
        const int empty = w.accessor(std::vector<float>{}, "VEC3", GltfWriter::kFloat, 3);
        const int mesh = w.mesh({{"POSITION", empty}});
        w.scene({w.node({{"mesh", mesh}})});
        const int in = w.scalars({0, 1e7f}), out = w.floats({0, 0, 0, 1, 0, 0}, "VEC3", 3);
        w.doc["animations"] = Json::array(
            {{{"samplers", Json::array({{{"input", in}, {"output", out}}})},
              {"channels", Json::array({{{"sampler", 0}, {"target", {{"node", 0}, {"path", "translation"}}}}})}}});
        EXPECT_CONTAINS(errorOf([&] { loadText(dir, "e.gltf", w.embedded()); }), "no triangle meshes");
    }
    {  // JSON nested 20,000 deep (tinygltf's extras parser recursed until the stack ran out)
        GltfWriter w = triangle();
        const std::string deep = std::string(20000, '[') + std::string(20000, ']');
        std::string text = w.embedded();
        text.insert(text.rfind('}'), ", \"extras\": " + deep);
        EXPECT_CONTAINS(errorOf([&] { loadText(dir, "deep.gltf", text); }), "JSON nested deeper than 64 levels");
    }
    {  // a GLB whose buffer says 0 bytes beside a BIN chunk (tinygltf threw std::out_of_range)
        GltfWriter w = triangle();
        std::string glb = w.glb();
        const std::string from = "\"buffers\":[{\"byteLength\":36}]";
        ASSERT_NE(glb.find(from), std::string::npos);
        glb.replace(glb.find(from), from.size(), "\"buffers\":[{\"byteLength\":0 }]");
        EXPECT_CONTAINS(errorOf([&] { loadText(dir, "zero.glb", glb); }), "zero.glb: not a readable glTF binary");
    }
    {  // a buffer that names a directory (tinygltf read it and threw bad_alloc)
        GltfWriter w = triangle();
        Json d = Json::parse(w.embedded());
        d["buffers"][0]["uri"] = ".";
        EXPECT_CONTAINS(errorOf([&] { loadText(dir, "dot.gltf", d.dump()); }), "dot.gltf: not a readable glTF file");
        EXPECT_CONTAINS(errorOf([&] { loadGltf(dir.path().string()); }),
                        "cannot open the glTF file: not a regular file");
    }
    {  // an accessor of 2^27 zeros without a buffer view, used twice: the budget stops it
        GltfWriter w = triangle();
        w.doc["accessors"].push_back({{"componentType", GltfWriter::kFloat}, {"count", 1 << 27}, {"type", "VEC3"}});
        const int big = int(w.doc["accessors"].size() - 1);
        w.doc["meshes"][0]["primitives"].push_back({{"attributes", {{"POSITION", big}}}});
        EXPECT_CONTAINS(errorOf([&] { loadText(dir, "big.gltf", w.embedded()); }),
                        "beyond what strata reads from one file");
    }
    {  // a skin of 200,000 joints and a clip of 1,000 s: too much baking, said before it starts
        GltfWriter w;
        const int joints = w.accessor(std::vector<uint8_t>(12, 0), "VEC4", GltfWriter::kUByte, 4);
        const int weights = w.floats({1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, "VEC4", 4);
        const int mesh = w.mesh({{"POSITION", w.vec3(kTriangle)}, {"JOINTS_0", joints}, {"WEIGHTS_0", weights}});
        const int j = w.node(Json::object());
        w.doc["skins"] = Json::array({{{"joints", std::vector<int>(200000, j)}}});
        w.scene({j, w.node({{"mesh", mesh}, {"skin", 0}})});
        const int in = w.scalars({0, 1000}), out = w.floats({0, 0, 0, 1, 0, 0}, "VEC3", 3);
        w.doc["animations"] = Json::array(
            {{{"samplers", Json::array({{{"input", in}, {"output", out}}})},
              {"channels", Json::array({{{"sampler", 0}, {"target", {{"node", j}, {"path", "translation"}}}}})}}});
        EXPECT_CONTAINS(errorOf([&] { loadText(dir, "joints.gltf", w.embedded()); }), "steps of baking strata does");
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(seconds, 20.0);
}

// Values that do not fit what they stand for: a MAT2 read as VEC4 weights
// (its columns are padded), an emission or ior beyond a float.
TEST(GltfLoader, ValuesOfTheWrongKindAreRefused) {
    TempDir dir;
    {
        GltfWriter w;
        const int joints = w.accessor(std::vector<uint8_t>(12, 0), "VEC4", GltfWriter::kUByte, 4);
        const int weights = w.floats({1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, "MAT2", 4);
        const int mesh = w.mesh({{"POSITION", w.vec3(kTriangle)}, {"JOINTS_0", joints}, {"WEIGHTS_0", weights}});
        const int j = w.node(Json::object());
        w.doc["skins"] = Json::array({{{"joints", {j}}}});
        w.scene({j, w.node({{"mesh", mesh}, {"skin", 0}})});
        EXPECT_CONTAINS(errorOf([&] { loadText(dir, "mat2.gltf", w.embedded()); }),
                        "expected a VEC4 accessor, got MAT2");
    }
    for (const auto& [material, part] :
         {std::pair<Json, const char*>{
              {{"emissiveFactor", {1, 1, 1}},
               {"extensions", {{"KHR_materials_emissive_strength", {{"emissiveStrength", 1e39}}}}}},
              "materials[0]: the emission"},
          {{{"extensions",
             {{"KHR_materials_transmission", {{"transmissionFactor", 1}}}, {"KHR_materials_ior", {{"ior", 1e300}}}}}},
           "materials[0]: KHR_materials_ior: ior"}}) {
        GltfWriter w;
        w.doc["materials"] = Json::array({material});
        const int mesh = w.mesh({{"POSITION", w.vec3(kTriangle)}}, -1, 4, 0);
        w.scene({w.node({{"mesh", mesh}})});
        EXPECT_CONTAINS(errorOf([&] { loadText(dir, "mat.gltf", w.embedded()); }), part);
    }
}

// Only the chosen scene's skins are read: another scene's skin, with joints
// outside this scene, is not this scene's business.
TEST(GltfLoader, AnotherScenesSkinIsNotRead) {
    GltfWriter w;
    const int plain = w.mesh({{"POSITION", w.vec3(kTriangle)}});
    const int joints = w.accessor(std::vector<uint8_t>(12, 0), "VEC4", GltfWriter::kUByte, 4);
    const int weights = w.floats({1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, "VEC4", 4);
    const int skinned = w.mesh({{"POSITION", w.vec3(kTriangle)}, {"JOINTS_0", joints}, {"WEIGHTS_0", weights}});
    const int a = w.node({{"mesh", plain}}), j = w.node(Json::object()), b = w.node({{"mesh", skinned}, {"skin", 0}});
    w.doc["skins"] = Json::array({{{"joints", {j}}}});
    w.doc["scenes"] = Json::array({{{"nodes", {a}}}, {{"nodes", {j, b}}}});
    w.doc["scene"] = 0;
    TempDir dir;
    EXPECT_EQ(loadText(dir, "two.gltf", w.embedded()).loaded.mesh.triangles.size(), 1u);
}

// In a scene file: "gltf" beside "obj", with "clip", "fps" and "loop";
// embedded textures become the scene's images; fields are checked.
TEST(GltfLoader, SceneFileMeshSource) {
    GltfWriter w;
    const std::string png = encodePng("t.png", 1, 1, {0, 255, 0});
    w.doc["images"] = Json::array({{{"uri", "data:image/png;base64," + test::base64(png)}}});
    w.doc["textures"] = Json::array({{{"source", 0}}});
    w.doc["materials"] = Json::array(
        {{{"name", "leaf"}, {"pbrMetallicRoughness", {{"metallicFactor", 0}, {"baseColorTexture", {{"index", 0}}}}}}});
    const int mesh =
        w.mesh({{"POSITION", w.vec3(kTriangle)}, {"TEXCOORD_0", w.floats({0, 0, 1, 0, 0, 1}, "VEC2", 2)}}, -1, 4, 0);
    w.scene({w.node({{"mesh", mesh}})});
    const int in = w.scalars({0, 2}), out = w.floats({0, 0, 0, 0, 3, 0}, "VEC3", 3);
    w.doc["animations"] = Json::array(
        {{{"name", "rise"},
          {"samplers", Json::array({{{"input", in}, {"output", out}}})},
          {"channels", Json::array({{{"sampler", 0}, {"target", {{"node", 0}, {"path", "translation"}}}}})}}});
    TempDir dir;
    dir.write("plant.gltf", w.embedded());
    const std::string scene = dir.write(
        "s.json", R"({"meshes": [{"name": "plant", "gltf": "plant.gltf", "clip": "rise", "fps": 5, "loop": false}]})");
    const Scene s = loadScene(scene);
    ASSERT_EQ(s.meshes.size(), 1u);
    const Mesh& m = s.meshes[0];
    EXPECT_EQ(m.animation, MeshAnimationKind::Frames);
    EXPECT_EQ(m.frames.positions.size(), 11u);
    ASSERT_EQ(s.materials.size(), 1u);
    EXPECT_EQ(s.materialNames[0], "plant/leaf");
    ASSERT_EQ(s.images.size(), 1u);
    EXPECT_EQ(s.materials[0].albedoTexture, 0);
    EXPECT_NEAR(s.images[0].pixels[0].y, 1.0f, 1e-6f);
    auto sceneError = [&](const std::string& text) { return errorOf([&] { loadScene(dir.write("e.json", text)); }); };
    EXPECT_CONTAINS(sceneError(R"({"meshes": [{"name": "p", "gltf": "plant.gltf", "clip": "fly"}]})"),
                    "meshes[0].gltf");
    EXPECT_CONTAINS(sceneError(R"({"meshes": [{"name": "p", "gltf": "plant.gltf", "clip": "fly"}]})"),
                    "no animation 'fly' (the file has rise)");
    EXPECT_CONTAINS(sceneError(R"({"meshes": [{"name": "p", "gltf": "plant.gltf", "fps": 0}]})"), "meshes[0].fps");
    EXPECT_CONTAINS(sceneError(R"({"meshes": [{"name": "p", "generator": "cube", "clip": "x"}]})"),
                    "only used with \"gltf\"");
    EXPECT_CONTAINS(sceneError(R"({"meshes": [{"name": "p", "obj": "plant.glb"}]})"), "name it as \"gltf\"");
    EXPECT_CONTAINS(sceneError(R"({"meshes": [{"name": "p", "gltf": "plant.gltf", "obj": "x.obj"}]})"),
                    "expected exactly one of");
}

// ---- Khronos sample files from Debian's assimp-testmodels ----

namespace {

const std::string kSamples = "/usr/share/assimp/models/glTF2";

#define REQUIRE_SAMPLES()                   \
    if (!std::filesystem::exists(kSamples)) \
    GTEST_SKIP() << kSamples << " not found (Debian's assimp-testmodels, installed by scripts/setup.sh)"

Json readJson(const std::string& path) {
    std::ifstream in(path);
    return Json::parse(in);
}

}  // namespace

TEST(GltfSamples, BoxTexturedThreeWays) {
    REQUIRE_SAMPLES();
    const LoadedGltf a = loadGltf(kSamples + "/BoxTextured-glTF/BoxTextured.gltf");
    const LoadedGltf b = loadGltf(kSamples + "/BoxTextured-glTF-Embedded/BoxTextured.gltf");
    const LoadedGltf c = loadGltf(kSamples + "/BoxTextured-glTF-Binary/BoxTextured.glb");
    for (const LoadedGltf* g : {&a, &b, &c}) {
        const Mesh& m = g->loaded.mesh;
        EXPECT_EQ(m.triangles.size(), 12u);
        EXPECT_EQ(m.positions.size(), 24u);
        EXPECT_EQ(m.normals.size(), 24u);
        EXPECT_EQ(m.uvs.size(), 24u);
        ASSERT_EQ(g->textures.size(), 1u);
        for (size_t i = 0; i < m.positions.size(); ++i)
            expectNear(m.positions[i], a.loaded.mesh.positions[i], "vertex", 0);
    }
    EXPECT_EQ(a.textures[0].path, kSamples + "/BoxTextured-glTF/CesiumLogoFlat.png");
    const Image file = loadImage(a.textures[0].path);
    for (const LoadedGltf* g : {&b, &c}) {
        ASSERT_EQ(g->textures[0].embedded.width, file.width);
        ASSERT_EQ(g->textures[0].embedded.pixels.size(), file.pixels.size());
        for (size_t i = 0; i < file.pixels.size(); i += 97)
            expectNear(g->textures[0].embedded.pixels[i], file.pixels[i], "texel", 0);
    }
    // The box is 1 across, centred, turned by its node's matrix.
    Vec3 lo = make3(INFINITY), hi = make3(-INFINITY);
    for (const Vec3& p : a.loaded.mesh.positions) lo = vmin(lo, p), hi = vmax(hi, p);
    expectNear(hi - lo, {1, 1, 1}, "extent");
}

// Every triangle-mesh node of 2CylinderEngine counted from the JSON: the
// loader places each primitive once per node that holds its mesh.
TEST(GltfSamples, EngineHierarchyHasEveryPart) {
    REQUIRE_SAMPLES();
    const std::string path = kSamples + "/2CylinderEngine-glTF-Binary/2CylinderEngine.glb";
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    uint32_t jsonLength;
    std::memcpy(&jsonLength, bytes.data() + 12, 4);
    const Json doc = Json::parse(bytes.substr(20, jsonLength));
    const std::string bin = bytes.substr(20 + jsonLength + 8);
    // Triangles that repeat a vertex index (the file has many: the loader drops them).
    auto repeated = [&](const Json& accessor) {
        const Json& view = doc["bufferViews"][accessor["bufferView"].get<size_t>()];
        const size_t at = view.value("byteOffset", size_t(0)) + accessor.value("byteOffset", size_t(0));
        const bool wide = accessor["componentType"] == GltfWriter::kUInt;
        auto index = [&](size_t i) {
            uint32_t v = 0;
            std::memcpy(&v, bin.data() + at + i * (wide ? 4 : 2), wide ? 4 : 2);
            return v;
        };
        size_t n = 0;
        for (size_t t = 0; t + 2 < accessor["count"].get<size_t>(); t += 3)
            n += index(t) == index(t + 1) || index(t + 1) == index(t + 2) || index(t) == index(t + 2);
        return n;
    };
    // Walk the scene's hierarchy and count the indices of each node's primitives.
    size_t triangles = 0, degenerate = 0;
    std::vector<int> stack = doc["scenes"][doc.value("scene", 0)]["nodes"].get<std::vector<int>>();
    while (!stack.empty()) {
        const Json& n = doc["nodes"][size_t(stack.back())];
        stack.pop_back();
        if (n.contains("children"))
            for (int c : n["children"]) stack.push_back(c);
        if (!n.contains("mesh")) continue;
        for (const Json& p : doc["meshes"][n["mesh"].get<size_t>()]["primitives"])
            if (p.value("mode", 4) == 4) {
                const Json& indices = doc["accessors"][p["indices"].get<size_t>()];
                triangles += indices["count"].get<size_t>() / 3;
                degenerate += repeated(indices);
            }
    }
    const LoadedGltf g = loadGltf(path);
    EXPECT_GT(triangles, 100000u);
    EXPECT_EQ(g.loaded.mesh.triangles.size() + g.loaded.skippedDegenerate, triangles);
    EXPECT_GT(degenerate, 0u);
    EXPECT_GE(g.loaded.skippedDegenerate, degenerate);
    EXPECT_LE(g.loaded.skippedDegenerate, degenerate + triangles / 1000) << "a few of zero area as well";
}

TEST(GltfSamples, AnimatedMorphCubeMorphs) {
    REQUIRE_SAMPLES();
    const LoadedGltf g = loadGltf(kSamples + "/glTF-Sample-Models/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf");
    const Mesh& m = g.loaded.mesh;
    EXPECT_EQ(g.clip, "Square");
    ASSERT_EQ(m.animation, MeshAnimationKind::Frames);
    EXPECT_GT(g.frames, 10u);
    ASSERT_EQ(m.frames.normals.size(), m.frames.positions.size());
    double most = 0;
    for (const auto& f : m.frames.positions)
        for (size_t v = 0; v < f.size(); ++v) most = std::max(most, double(length(f[v] - m.positions[v])));
    EXPECT_GT(most, 0.1) << "the cube's faces move (scaled 100x by its node)";
}

// simple_skin: a strip of 10 vertices on two joints; the upper joint turns
// about z, so the top vertices leave x = 0 while the bottom ones stay.
TEST(GltfSamples, SimpleSkinBends) {
    REQUIRE_SAMPLES();
    const LoadedGltf g = loadGltf(kSamples + "/simple_skin/simple_skin.gltf");
    const Mesh& m = g.loaded.mesh;
    ASSERT_EQ(m.animation, MeshAnimationKind::Frames);
    EXPECT_EQ(m.triangles.size(), 8u);
    double bottom = 0, top = 0;
    for (const auto& f : m.frames.positions)
        for (size_t v = 0; v < f.size(); ++v) {
            const double moved = length(f[v] - m.positions[v]);
            (m.positions[v].y < 0.5f ? bottom : top) = std::max(m.positions[v].y < 0.5f ? bottom : top, moved);
        }
    EXPECT_LT(bottom, 1e-6);
    EXPECT_GT(top, 0.3);
}

// The glTF Asset Generator's primitive modes: triangles, strips and fans
// make two triangles of the square each; points and lines none.
TEST(GltfSamples, PrimitiveModes) {
    REQUIRE_SAMPLES();
    const std::string dir = kSamples + "/glTF-Asset-Generator/Mesh_PrimitiveMode/";
    for (int i = 0; i <= 15; ++i) {
        char name[64];
        std::snprintf(name, sizeof name, "Mesh_PrimitiveMode_%02d.gltf", i);
        const Json doc = readJson(dir + name);
        const int mode = doc["meshes"][0]["primitives"][0].value("mode", 4);
        if (mode < 4) {
            EXPECT_CONTAINS(errorOf([&] { loadGltf(dir + name); }), "no triangle meshes") << name;
            continue;
        }
        const LoadedGltf g = loadGltf(dir + name);
        EXPECT_EQ(g.loaded.mesh.triangles.size(), 2u) << name;
    }
}

TEST(GltfSamples, BrokenFilesAreRefused) {
    REQUIRE_SAMPLES();
    const std::pair<const char*, const char*> cases[] = {
        {"IndexOutOfRange/IndexOutOfRange.gltf", "beyond its"},
        {"IndexOutOfRange/AllIndicesOutOfRange.gltf", "beyond its"},
        {"MissingBin/BoxTextured.gltf", "not a readable glTF file"},
        {"RecursiveNodes/RecursiveNodes.gltf", "reached twice"},
        {"BoxWithInfinites-glTF-Binary/BoxWithInfinites.glb", "not finite"},
        {"draco/2CylinderEngine.gltf", "requires KHR_draco_mesh_compression"},
        {"TestNoRootNode/NoScene.gltf", "no triangle meshes"},
    };
    for (const auto& c : cases) {
        const std::string file = c.first, part = c.second;
        const std::string e = errorOf([&] { loadGltf(kSamples + "/" + file); });
        EXPECT_CONTAINS(e, kSamples + "/" + file);
        EXPECT_CONTAINS(e, part);
    }
    // Wrong JSON types: where the value is needed, refused; where tinygltf
    // leaves a default (a name, an extension's value, a texture index of -1,
    // material parameters), the box loads.
    EXPECT_CONTAINS(errorOf([&] { loadGltf(kSamples + "/wrongTypes/badNumber.gltf"); }), "not a readable glTF");
    EXPECT_CONTAINS(errorOf([&] { loadGltf(kSamples + "/wrongTypes/badArray.gltf"); }), "no triangle meshes");
    for (const char* f : {"badExtension", "badObject", "badString", "badUint"})
        EXPECT_EQ(loadGltf(kSamples + "/wrongTypes/" + f + ".gltf").loaded.mesh.triangles.size(), 12u) << f;
}

}  // namespace strata
