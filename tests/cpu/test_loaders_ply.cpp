// PLY meshes (scene/ply_loader.h): the same cube written as ASCII, binary
// little-endian and binary big-endian (bytes made here, the way the format
// lays them out) loads to the same mesh, the surface of the same cube as an
// OBJ; extra elements and properties are skipped; normals and texture
// coordinates come along; bad files are named with the line or byte; a scene
// names a PLY mesh as "ply", and an "obj" that names a PLY file says so.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>

#include "core/error.h"
#include "loader_test_util.h"
#include "scene/obj_loader.h"
#include "scene/ply_loader.h"
#include "scene/scene_loader.h"

namespace strata {
namespace {

const float kCube[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
const int kFaces[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {2, 3, 7, 6}, {1, 2, 6, 5}, {0, 4, 7, 3}};

// The cube with an extra per-vertex colour, an extra face property and an
// extra element after the faces, which a reader must skip.
std::string asciiCube() {
    std::string s =
        "ply\nformat ascii 1.0\ncomment made by strata's tests\nelement vertex 8\nproperty float x\nproperty "
        "float y\nproperty float z\nproperty uchar red\nelement face 6\nproperty list uchar int vertex_indices\n"
        "property int flags\nelement edge 1\nproperty int vertex1\nproperty int vertex2\nend_header\n";
    for (const auto& v : kCube)
        s += std::to_string(v[0]) + " " + std::to_string(v[1]) + " " + std::to_string(v[2]) + " 200\n";
    for (const auto& f : kFaces)
        s += "4 " + std::to_string(f[0]) + " " + std::to_string(f[1]) + " " + std::to_string(f[2]) + " " +
             std::to_string(f[3]) + " 7\n";
    return s + "0 1\n";
}

template <class T>
void put(std::string& out, T v, bool big) {
    char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    if (big) std::reverse(b, b + sizeof(T));
    out.append(b, sizeof(T));
}

std::string binaryCube(bool big) {
    std::string s = std::string("ply\nformat ") + (big ? "binary_big_endian" : "binary_little_endian") +
                    " 1.0\nelement vertex 8\nproperty float x\nproperty float y\nproperty float z\nproperty uchar "
                    "red\nelement face 6\nproperty list uchar int vertex_indices\nproperty int flags\nelement edge "
                    "1\nproperty int vertex1\nproperty int vertex2\nend_header\n";
    for (const auto& v : kCube) {
        for (float c : v) put(s, c, big);
        put(s, uint8_t(200), big);
    }
    for (const auto& f : kFaces) {
        put(s, uint8_t(4), big);
        for (int i : f) put(s, int32_t(i), big);
        put(s, int32_t(7), big);
    }
    put(s, int32_t(0), big);
    put(s, int32_t(1), big);
    return s;
}

// Each triangle as its three corner positions, sorted: the surface whatever
// the vertex numbering.
std::vector<std::array<float, 9>> surface(const Mesh& m) {
    std::vector<std::array<float, 9>> out;
    for (const Tri& t : m.triangles) {
        std::array<std::array<float, 3>, 3> c;
        for (int k = 0; k < 3; ++k) c[k] = {m.positions[t.v[k]].x, m.positions[t.v[k]].y, m.positions[t.v[k]].z};
        std::sort(c.begin(), c.end());
        out.push_back({c[0][0], c[0][1], c[0][2], c[1][0], c[1][1], c[1][2], c[2][0], c[2][1], c[2][2]});
    }
    std::sort(out.begin(), out.end());
    return out;
}

TEST(PlyLoader, AsciiAndBothBinariesGiveTheCubeOfTheObj) {
    test::TempDir dir;
    std::string obj;
    for (const auto& v : kCube)
        obj += "v " + std::to_string(v[0]) + " " + std::to_string(v[1]) + " " + std::to_string(v[2]) + "\n";
    for (const auto& f : kFaces)
        obj += "f " + std::to_string(f[0] + 1) + " " + std::to_string(f[1] + 1) + " " + std::to_string(f[2] + 1) + " " +
               std::to_string(f[3] + 1) + "\n";
    const LoadedMesh ref = loadObj(dir.write("cube.obj", obj));
    const LoadedMesh a = loadPly(dir.write("a.ply", asciiCube()));
    const LoadedMesh le = loadPly(dir.write("le.ply", binaryCube(false)));
    const LoadedMesh be = loadPly(dir.write("be.ply", binaryCube(true)));
    ASSERT_EQ(a.mesh.positions.size(), 8u);
    EXPECT_EQ(a.mesh.triangles.size(), 12u);
    EXPECT_EQ(surface(a.mesh), surface(ref.mesh));
    for (const LoadedMesh* m : {&le, &be}) {
        ASSERT_EQ(m->mesh.positions.size(), 8u);
        for (size_t i = 0; i < 8; ++i) {
            EXPECT_EQ(m->mesh.positions[i].x, a.mesh.positions[i].x);
            EXPECT_EQ(m->mesh.positions[i].y, a.mesh.positions[i].y);
            EXPECT_EQ(m->mesh.positions[i].z, a.mesh.positions[i].z);
        }
        EXPECT_EQ(surface(m->mesh), surface(a.mesh));
    }
    ASSERT_EQ(a.materials.size(), 1u);
    EXPECT_EQ(a.materials[0].name, "default");
    EXPECT_EQ(a.mesh.triMaterial, std::vector<int32_t>(12, 0));
    PlyLoadOptions quads;
    quads.keepQuads = true;
    const LoadedMesh q = loadPly(dir.write("q.ply", asciiCube()), quads);
    EXPECT_EQ(q.mesh.quads.size(), 6u);
    EXPECT_TRUE(q.mesh.triangles.empty());
}

TEST(PlyLoader, NormalsAndTextureCoordinatesComeAlongAndDegenerateFacesAreCounted) {
    test::TempDir dir;
    const std::string ply =
        "ply\nformat ascii 1.0\nelement vertex 4\nproperty double x\nproperty double y\nproperty double z\n"
        "property float nx\nproperty float ny\nproperty float nz\nproperty float s\nproperty float t\n"
        "element face 3\nproperty list uchar uint vertex_index\nend_header\n"
        "0 0 0 0 0 1 0 0\n1 0 0 0 0 1 1 0\n1 1 0 0 0 1 1 1\n0 1 0 0 0 1 0 1\n"
        "3 0 1 2\n3 0 2 3\n3 1 1 2\n";
    const LoadedMesh m = loadPly(dir.write("n.ply", ply));
    EXPECT_EQ(m.mesh.triangles.size(), 2u);
    EXPECT_EQ(m.skippedDegenerate, 1u);
    ASSERT_EQ(m.mesh.normals.size(), 4u);
    EXPECT_EQ(m.mesh.normals[2].z, 1.0f);
    ASSERT_EQ(m.mesh.uvs.size(), 4u);
    EXPECT_EQ(m.mesh.uvs[2].x, 1.0f);
    EXPECT_EQ(m.mesh.uvs[3].y, 1.0f);
}

TEST(PlyLoader, BadFilesAreNamedWithTheLineOrByte) {
    test::TempDir dir;
    const std::string head = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n";
    const struct {
        const char* name;
        std::string text;
        const char* says;
    } cases[] = {
        {"notply.ply", "solid cube\n", "not a PLY file"},
        {"format.ply", "ply\nformat ebcdic 1.0\nend_header\n", "2: unknown format 'ebcdic'"},
        {"noend.ply", "ply\nformat ascii 1.0\nelement vertex 0\n", "no end_header"},
        {"type.ply", "ply\nformat ascii 1.0\nelement vertex 1\nproperty quad x\nend_header\n", "4: unknown property type"},
        {"noz.ply", head + "element face 0\nproperty list uchar int vertex_indices\nend_header\n",
         "3: element vertex has no x, y and z"},
        {"short.ply",
         head + "property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n",
         "the file ends within vertex 2"},
        {"token.ply",
         head + "property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 "
                "zero\n0 1 0\n3 0 1 2\n",
         ":11: expected a number in vertex 1, got 'zero'"},
        {"index.ply",
         head + "property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n"
                "0 1 0\n3 0 1 9\n",
         ":13: vertex index 9 of face 0 out of range (3 vertices)"},
        {"points.ply", head + "property float z\nend_header\n0 0 0\n1 0 0\n0 1 0\n", "no element face"},
        {"nan.ply",
         head + "property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\nnan 0 "
                "0\n0 1 0\n3 0 1 2\n",
         "a NaN or infinite position in vertex 1"},
    };
    for (const auto& c : cases) {
        const std::string path = dir.write(c.name, c.text);
        try {
            loadPly(path);
            ADD_FAILURE() << c.name << ": loaded";
        } catch (const Error& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find(path), std::string::npos) << what;
            EXPECT_NE(what.find(c.says), std::string::npos) << c.name << ": " << what;
        }
    }
    // Binary data cut short: the byte where it ends.
    std::string cut = binaryCube(false);
    cut.resize(cut.size() - 10);
    const std::string path = dir.write("cut.ply", cut);
    try {
        loadPly(path);
        ADD_FAILURE() << "a cut binary file loaded";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(": byte "), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("the file ends within"), std::string::npos) << e.what();
    }
    EXPECT_THROW(loadPly((dir.path() / "missing.ply").string()), Error);
}

TEST(PlyLoader, SceneMeshesNameAPlyFileAsPlyAndAnObjThatIsOneSaysSo) {
    test::TempDir dir;
    dir.write("cube.ply", asciiCube());
    const Scene s = loadScene(dir.write("s.json", R"({"meshes": [{"name": "cube", "ply": "cube.ply"}]})"));
    ASSERT_EQ(s.meshes.size(), 1u);
    EXPECT_EQ(s.meshes[0].triangles.size(), 12u);
    EXPECT_NE(s.meshes[0].source.find("cube.ply"), std::string::npos);
    try {
        loadScene(dir.write("bad.json", R"({"meshes": [{"name": "cube", "obj": "cube.ply"}]})"));
        ADD_FAILURE() << "an obj naming a PLY file loaded";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("is a PLY file: name it as \"ply\""), std::string::npos) << e.what();
    }
    try {
        loadScene(dir.write("two.json", R"({"meshes": [{"name": "c", "obj": "a.obj", "ply": "cube.ply"}]})"));
        ADD_FAILURE() << "two sources loaded";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("\"ply\""), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace strata
