// OBJ/MTL loading: the real bunny (../shared/testdata) and a real model from
// Debian's assimp-testmodels, a hand-written cube with quads, uvs,
// normals and materials, MTL conversions, and every kind of bad input.
#include <sys/stat.h>

#include <array>
#include <cmath>
#include <fstream>
#include <set>
#include <thread>
#include <sstream>
#include <vector>

#include "loader_test_util.h"
#include "scene/obj_loader.h"

using namespace strata;
using namespace strata::test;

namespace {

const std::string kDataDir = std::string(STRATA_SOURCE_DIR) + "/tests/data";

// Independent oracle for the bunny: reads "v" and triangle "f" lines with
// plain stream parsing and counts what should be skipped as degenerate.
struct SimpleObj {
    std::vector<std::array<double, 3>> v;
    std::vector<std::array<int, 3>> f;
};

SimpleObj readSimpleObj(const std::string& path) {
    SimpleObj obj;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream s(line);
        std::string tag;
        s >> tag;
        if (tag == "v") {
            std::array<double, 3> p{};
            s >> p[0] >> p[1] >> p[2];
            obj.v.push_back(p);
        } else if (tag == "f") {  // "f a b c" or "f a/t/n ...": the position index leads each corner
            std::array<int, 3> t{};
            for (int& c : t) {
                std::string corner;
                s >> corner;
                c = std::stoi(corner);
            }
            obj.f.push_back({t[0] - 1, t[1] - 1, t[2] - 1});
        }
    }
    return obj;
}

double squaredDiagonal(const SimpleObj& obj) {
    std::array<double, 3> lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300};
    for (const auto& p : obj.v)
        for (int c = 0; c < 3; ++c) lo[c] = std::min(lo[c], p[c]), hi[c] = std::max(hi[c], p[c]);
    double diag2 = 0;
    for (int c = 0; c < 3; ++c) diag2 += (hi[c] - lo[c]) * (hi[c] - lo[c]);
    return diag2;
}

// A face repeating a vertex, or of zero area or below 1e-12 x the squared
// diagonal (docs/scene-format.md).
bool degenerate(const SimpleObj& obj, const std::array<int, 3>& t, double diag2) {
    if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2]) return true;
    const auto &a = obj.v[t[0]], &b = obj.v[t[1]], &c = obj.v[t[2]];
    double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    double x = e1[1] * e2[2] - e1[2] * e2[1], y = e1[2] * e2[0] - e1[0] * e2[2], z = e1[0] * e2[1] - e1[1] * e2[0];
    double area = 0.5 * std::sqrt(x * x + y * y + z * z);
    return area <= 0 || area < 1e-12 * diag2;
}

size_t countDegenerate(const SimpleObj& obj) {
    const double diag2 = squaredDiagonal(obj);
    size_t n = 0;
    for (const auto& t : obj.f) n += degenerate(obj, t, diag2);
    return n;
}

// Every face the oracle keeps is the loaded triangle at the same place in
// order, with the same corner positions.
void expectSameSurface(const SimpleObj& oracle, const LoadedMesh& lm) {
    const double diag2 = squaredDiagonal(oracle);
    size_t t = 0;
    for (const auto& f : oracle.f) {
        if (degenerate(oracle, f, diag2)) continue;
        ASSERT_LT(t, lm.mesh.triangles.size());
        for (int k = 0; k < 3; ++k) {
            const Vec3 p = lm.mesh.positions[lm.mesh.triangles[t].v[k]];
            const auto& q = oracle.v[f[size_t(k)]];
            for (int d = 0; d < 3; ++d)
                ASSERT_NEAR((&p.x)[d], q[size_t(d)], 1e-6 * (1 + std::fabs(q[size_t(d)]))) << "triangle " << t;
        }
        ++t;
    }
    EXPECT_EQ(t, lm.mesh.triangles.size());
}

std::string loadError(const std::string& path) {
    return errorOf([&] { loadObj(path); });
}

const char* kTriangle = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";

}  // namespace

// Real models made elsewhere, each against the oracle: MilkShape 3D's Wuson
// from Debian's assimp-testmodels (v/vt/vn corners; installed by
// scripts/setup.sh, so a plain clone runs it) and, where ../shared/testdata
// is present, the Stanford bunny (positions only, degenerate faces).
TEST(ObjLoader, LoadsRealModels) {
    struct Case {
        std::string path;
        size_t faces;
        bool bunny;
    };
    std::vector<Case> cases;
    const std::string wuson = "/usr/share/assimp/models/OBJ/WusonOBJ.obj";
    if (fs::exists(wuson)) cases.push_back({wuson, 3732, false});
    const std::string bunny = testdataFile("stanford-bunny.obj");
    if (!bunny.empty()) cases.push_back({bunny, 69451, true});
    if (cases.empty()) GTEST_SKIP() << "neither Debian's assimp-testmodels (scripts/setup.sh) nor ../shared/testdata";
    for (const Case& c : cases) {
        SCOPED_TRACE(c.path);
        const SimpleObj oracle = readSimpleObj(c.path);
        ASSERT_EQ(oracle.f.size(), c.faces);
        const LoadedMesh lm = loadObj(c.path);
        EXPECT_EQ(lm.skippedDegenerate, countDegenerate(oracle));
        EXPECT_EQ(lm.mesh.triangles.size() + lm.skippedDegenerate, c.faces);
        EXPECT_EQ(lm.mesh.source, c.path);
        expectSameSurface(oracle, lm);
        if (!c.bunny) {
            EXPECT_EQ(lm.mesh.normals.size(), lm.mesh.positions.size());
            EXPECT_EQ(lm.mesh.uvs.size(), lm.mesh.positions.size());
            continue;
        }
        EXPECT_LE(lm.mesh.positions.size(), oracle.v.size());
        EXPECT_TRUE(lm.mesh.normals.empty());
        EXPECT_TRUE(lm.mesh.uvs.empty());
        ASSERT_EQ(lm.materials.size(), 1u);
        EXPECT_EQ(lm.materials[0].name, "default");
        Vec3 lo = make3(INFINITY), hi = make3(-INFINITY);
        for (const Vec3& p : lm.mesh.positions) lo = vmin(lo, p), hi = vmax(hi, p);
        EXPECT_GT(minComponent(hi - lo), 0.01f);  // a solid object, about 0.15 across
        EXPECT_LT(maxComponent(hi - lo), 1.0f);
        for (int32_t m : lm.mesh.triMaterial) ASSERT_EQ(m, 0);
    }
}

TEST(ObjLoader, CubeWithQuadsUvsNormalsAndMaterials) {
    std::vector<std::string> textures;
    LoadedMesh lm = loadObj(kDataDir + "/cube.obj", &textures);
    const Mesh& m = lm.mesh;
    EXPECT_EQ(lm.skippedDegenerate, 0u);
    ASSERT_EQ(m.triangles.size(), 12u);  // six quads, two triangles each
    ASSERT_EQ(m.positions.size(), 24u);  // each face has its own normal: 4 corners x 6
    ASSERT_EQ(m.normals.size(), m.positions.size());
    ASSERT_EQ(m.uvs.size(), m.positions.size());
    ASSERT_EQ(m.triMaterial.size(), m.triangles.size());

    // Materials: red and shiny from the MTL, then "default" for the first face.
    ASSERT_EQ(lm.materials.size(), 3u);
    EXPECT_EQ(lm.materials[0].name, "red");
    EXPECT_EQ(lm.materials[0].material.type, MaterialType::Diffuse);
    EXPECT_FLOAT_EQ(lm.materials[0].material.albedo.x, 0.8f);
    EXPECT_EQ(lm.materials[1].name, "shiny");
    EXPECT_EQ(lm.materials[1].material.type, MaterialType::Conductor);
    EXPECT_FLOAT_EQ(lm.materials[1].material.albedo.y, 0.6f);  // Ks is the conductor's colour
    EXPECT_NEAR(lm.materials[1].material.roughness, std::sqrt(2.0 / 402.0), 1e-6);
    EXPECT_EQ(lm.materials[2].name, "default");
    EXPECT_EQ(textures, std::vector<std::string>(3));
    std::vector<int32_t> expected = {2, 2, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1};
    EXPECT_EQ(m.triMaterial, expected);

    // Every triangle lies on its face, winds like its normal, and its corners
    // carry the face's normal and uvs from the four corners of the unit square.
    std::set<std::pair<float, float>> uvCorners = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    for (const Tri& t : m.triangles) {
        Vec3 p0 = m.positions[t.v[0]], p1 = m.positions[t.v[1]], p2 = m.positions[t.v[2]];
        Vec3 geometric = cross(p1 - p0, p2 - p0);
        EXPECT_NEAR(length(geometric), 1.0f, 1e-6f);  // half of a unit square
        for (int c = 0; c < 3; ++c) {
            Vec3 n = m.normals[t.v[c]];
            EXPECT_NEAR(dot(n, geometric), 1.0f, 1e-6f);
            EXPECT_TRUE(uvCorners.count({m.uvs[t.v[c]].x, m.uvs[t.v[c]].y}));
        }
    }
}

TEST(ObjLoader, QuadsAreFannedFromTheFirstCorner) {
    TempDir dir;
    std::string path = dir.write("quad.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n");
    LoadedMesh lm = loadObj(path);
    ASSERT_EQ(lm.mesh.triangles.size(), 2u);
    auto corner = [&](int t, int c) { return lm.mesh.positions[lm.mesh.triangles[t].v[c]]; };
    EXPECT_EQ(corner(0, 0).x, 0.0f);
    EXPECT_EQ(corner(0, 1).x, 1.0f);
    EXPECT_EQ(corner(0, 2).y, 1.0f);
    EXPECT_EQ(corner(1, 0).x, 0.0f);
    EXPECT_EQ(corner(1, 1).x, 1.0f);
    EXPECT_EQ(corner(1, 2).x, 0.0f);
    EXPECT_EQ(lm.mesh.positions.size(), 4u);  // shared corners are not duplicated
}

TEST(ObjLoader, MtlConversions) {
    TempDir dir;
    dir.write("m.mtl",
              "newmtl matte\nKd 0.5 0.6 0.7\n"
              "newmtl exporterDefault\nNs 250\nKa 1 1 1\nKd 0.8 0.8 0.8\nKs 0.5 0.5 0.5\nNi 1.45\nd 1.0\nillum 2\n"
              "newmtl mirror\nKd 0 0 0\nKs 0.9 0.9 0.9\nNs 1000\nillum 2\n"
              "newmtl metal\nKs 0.9 0.7 0.3\nNs 200\nillum 3\n"
              "newmtl glass\nKd 0 0 0\nNi 1.33\nd 0.2\n"
              "newmtl glass7\nTf 0.9 1 0.9\nillum 7\n"
              "newmtl lamp\nKd 0.1 0.1 0.1\nKe 5 4 3\n"
              "newmtl wood\nKd 1 1 1\nmap_Kd tex/wood.png\n");
    std::string obj = "mtllib m.mtl\n" + std::string(kTriangle);
    for (const char* name : {"matte", "exporterDefault", "mirror", "metal", "glass", "glass7", "lamp", "wood"})
        obj += std::string("usemtl ") + name + "\nf 1 2 3\n";
    std::vector<std::string> tex;
    LoadedMesh lm = loadObj(dir.write("m.obj", obj), &tex);
    ASSERT_EQ(lm.materials.size(), 8u);  // no "default": every face has a material
    auto mat = [&](int i) { return lm.materials[i].material; };
    EXPECT_EQ(mat(0).type, MaterialType::Diffuse);
    EXPECT_FLOAT_EQ(mat(0).albedo.z, 0.7f);
    EXPECT_EQ(mat(1).type, MaterialType::Diffuse);  // Ks below Kd: a plain diffuse from an exporter
    EXPECT_EQ(mat(2).type, MaterialType::Conductor);
    EXPECT_NEAR(mat(2).roughness, std::sqrt(2.0 / 1002.0), 1e-6);
    EXPECT_EQ(mat(3).type, MaterialType::Conductor);
    EXPECT_FLOAT_EQ(mat(3).albedo.z, 0.3f);
    EXPECT_NEAR(mat(3).roughness, std::sqrt(2.0 / 202.0), 1e-6);
    EXPECT_EQ(mat(4).type, MaterialType::Dielectric);
    EXPECT_FLOAT_EQ(mat(4).ior, 1.33f);
    EXPECT_EQ(mat(5).type, MaterialType::Dielectric);
    EXPECT_FLOAT_EQ(mat(5).ior, 1.5f);  // no Ni: the default glass
    EXPECT_FLOAT_EQ(mat(5).albedo.x, 0.9f);
    EXPECT_EQ(mat(6).type, MaterialType::Emissive);
    EXPECT_FLOAT_EQ(mat(6).emission.x, 5.0f);
    EXPECT_EQ(mat(7).type, MaterialType::Diffuse);
    EXPECT_EQ(mat(7).albedoTexture, -1);  // the scene loader sets it
    ASSERT_EQ(tex.size(), 8u);
    EXPECT_EQ(tex[7], (dir.path() / "tex/wood.png").string());
    for (int i = 0; i < 7; ++i) EXPECT_EQ(tex[i], "");
}

TEST(ObjLoader, MissingMtlIsOnlyAWarning) {
    TempDir dir;
    std::string path = dir.write("a.obj", "mtllib nowhere.mtl\n" + std::string(kTriangle) + "usemtl red\nf 1 2 3\n");
    testing::internal::CaptureStderr();
    LoadedMesh lm = loadObj(path);
    std::string err = testing::internal::GetCapturedStderr();
    EXPECT_CONTAINS(err, "warning");
    EXPECT_CONTAINS(err, path + ":1:");
    EXPECT_CONTAINS(err, "nowhere.mtl");
    ASSERT_EQ(lm.materials.size(), 1u);
    EXPECT_EQ(lm.materials[0].name, "default");
    EXPECT_EQ(lm.mesh.triangles.size(), 1u);
}

// MTL maps strata does not read are named once per OBJ, with how many
// materials use each; map_Kd (read) is not named.
TEST(ObjLoader, IgnoredMtlMapsAreNamedOnce) {
    TempDir dir;
    dir.write("m.mtl",
              "newmtl a\nKd 1 0 0\nmap_Kd a.png\nmap_bump a_n.png\n"
              "newmtl b\nKd 0 1 0\nmap_bump b_n.png\nmap_d b_a.png\n");
    std::string path = dir.write("m.obj", "mtllib m.mtl\n" + std::string(kTriangle) + "usemtl a\nf 1 2 3\n");
    testing::internal::CaptureStderr();
    loadObj(path);
    std::string err = testing::internal::GetCapturedStderr();
    EXPECT_CONTAINS(err, path +
                             ": texture maps strata does not read (it reads map_Kd): map_bump (2 materials), "
                             "map_d (1 material)");
    EXPECT_EQ(err.find("map_Kd ("), std::string::npos);
}

// Another mesh format given as OBJ is named (tinyobjloader read it as an OBJ
// without faces: "no triangles").
TEST(ObjLoader, GltfPlyAndJsonGivenAsObjAreNamed) {
    TempDir dir;
    const std::pair<std::string, std::string> cases[] = {
        {"{\n  \"asset\": {\"version\": \"2.0\"}, \"meshes\": []\n}\n", "a glTF (.gltf) file"},
        {std::string("glTF\x02\0\0\0", 8), "a binary glTF (.glb) file"},
        {"ply\nformat ascii 1.0\nend_header\n", "a PLY file"},
        {"{\"camera\": {}}", "a JSON file"}};
    int i = 0;
    for (const auto& [text, what] : cases) {
        const std::string path = dir.write("m" + std::to_string(i++) + ".obj", text);
        try {
            loadObj(path);
            ADD_FAILURE() << what << ": loaded";
        } catch (const Error& e) {
            EXPECT_CONTAINS(std::string(e.what()), path + ": this is " + what + ", not a Wavefront OBJ");
        }
    }
}

TEST(ObjLoader, DegenerateTrianglesAreSkippedAndCounted) {
    TempDir dir;
    std::string path = dir.write("d.obj",
                                 "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\n"
                                 "v 2 0 0\n"     // 5: collinear with 1 and 2
                                 "v 1e-8 0 0\n"  // 6: a sliver with 1 and 3
                                 "f 1 2 3\nf 2 4 3\n"
                                 "f 1 1 2\n"    // repeated index
                                 "f 1 2 5\n"    // zero area
                                 "f 1 6 3\n");  // area 5e-9 < 1e-12 * |diag|^2? no: kept
    LoadedMesh lm = loadObj(path);
    // diag^2 = 4 + 1 = 5, so the threshold is 5e-12: the sliver (5e-9) stays.
    EXPECT_EQ(lm.skippedDegenerate, 2u);
    EXPECT_EQ(lm.mesh.triangles.size(), 3u);

    std::string tiny = dir.write("t.obj", "v 0 0 0\nv 1000 0 0\nv 0 1000 0\nv 1e-9 0 0\nf 1 2 3\nf 1 4 3\n");
    lm = loadObj(tiny);  // area 5e-7 < 1e-12 * 2e6 = 2e-6: negligible
    EXPECT_EQ(lm.skippedDegenerate, 1u);
    EXPECT_EQ(lm.mesh.triangles.size(), 1u);

    ObjLoadOptions keep;
    keep.skipZeroArea = false;  // as for frames of a sequence
    lm = loadObj(path, nullptr, keep);
    EXPECT_EQ(lm.skippedDegenerate, 1u);  // only the repeated index
    EXPECT_EQ(lm.mesh.triangles.size(), 4u);
}

TEST(ObjLoader, FacesWithoutNormalsGetTheirOwnInAMixedMesh) {
    TempDir dir;
    std::string path = dir.write("mixed.obj",
                                 "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nvn 0 0 1\n"
                                 "f 1//1 2//1 3//1\n"
                                 "f 1 2 4\n");  // no normals: flat, facing -y
    LoadedMesh lm = loadObj(path);
    ASSERT_EQ(lm.mesh.normals.size(), lm.mesh.positions.size());
    EXPECT_EQ(lm.mesh.positions.size(), 6u);  // corners 1 and 2 split between the faces
    const Tri& t = lm.mesh.triangles[1];
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(lm.mesh.normals[t.v[c]].y, -1.0f, 1e-6f);
}

TEST(ObjLoader, MissingFileNamesIt) {
    std::string msg = loadError("/nonexistent/folder/model.obj");
    EXPECT_CONTAINS(msg, "/nonexistent/folder/model.obj");
    EXPECT_CONTAINS(msg, "cannot open");
}

TEST(ObjLoader, BadIndicesNameFileAndLine) {
    TempDir dir;
    struct Case {
        const char* face;
        const char* says;
    } cases[] = {
        {"f 1 2 9", "vertex index 9"},
        {"f 1 2 0", "index 0"},
        {"f -1 -2 -4", "relative vertex index -4"},
        {"f 1/1 2/1 3/9", "texture coordinate index 9"},
        {"f 1//7 2//1 3//1", "normal index 7"},
        {"f 1 2", "at least 3 vertices"},
        {"f 1 two 3", "'two' is not a vertex reference"},
        {"f 1/ 2 3", "'1/' is not a vertex reference"},
    };
    for (const Case& c : cases) {
        std::string path =
            dir.write("bad.obj", std::string(kTriangle) + "vt 0 0\nvn 0 0 1\n# comment\n" + c.face + "\n");
        std::string msg = loadError(path);
        EXPECT_CONTAINS(msg, path + ":7:");
        EXPECT_CONTAINS(msg, c.says);
    }
}

TEST(ObjLoader, NonFiniteOrNonNumericVertexDataNamesTheLine) {
    TempDir dir;
    const char* lines[] = {"v nan 0 0", "v 0 1e999 0", "v 0 0 inf", "v 1 x 2", "v 1 2", "vn 0 nan 1", "vt 0.5 -inf"};
    for (const char* line : lines) {
        std::string path = dir.write("nan.obj", std::string(kTriangle) + line + "\nf 1 2 3\n");
        std::string msg = loadError(path);
        EXPECT_CONTAINS(msg, path + ":4:");
    }
    std::string msg = loadError(dir.write("n.obj", std::string("v 0 0 0\nv NaN 0 0\nv 0 1 0\nf 1 2 3\n")));
    EXPECT_CONTAINS(msg, ":2:");
    EXPECT_CONTAINS(msg, "'NaN' is not a finite number");
}

TEST(ObjLoader, EmptyAndAllDegenerateFilesAreErrors) {
    TempDir dir;
    std::string empty = dir.write("empty.obj", "");
    std::string msg = loadError(empty);
    EXPECT_CONTAINS(msg, empty);
    EXPECT_CONTAINS(msg, "no triangles");

    std::string pointsOnly = dir.write("points.obj", "# only vertices\n" + std::string(kTriangle));
    EXPECT_CONTAINS(loadError(pointsOnly), "no triangles");

    std::string flat = dir.write("flat.obj", "v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\nf 1 1 2\nf 3 2 1\n");
    msg = loadError(flat);
    EXPECT_CONTAINS(msg, flat);
    EXPECT_CONTAINS(msg, "no triangles");
    EXPECT_CONTAINS(msg, "all 3 were degenerate");
}

// Lines end at LF, CR LF or a bare CR, as tinyobjloader reads them: text after
// a bare CR is checked as a line of its own, and errors name it.
// The OBJ text gives an error at `line` that says `says`.
static void expectLineError(const std::string& text, int line, const std::string& says) {
    TempDir dir;
    const std::string path = dir.write("bad.obj", text);
    const std::string msg = loadError(path);
    EXPECT_CONTAINS(msg, path + ":" + std::to_string(line) + ":");
    EXPECT_CONTAINS(msg, says);
}

TEST(ObjLoader, BareCarriageReturnsEndLines) {
    TempDir dir;
    std::string ok = dir.write("mac.obj", "v 0 0 0\rv 1 0 0\rv 0 1 0\rf 1 2 3\r");
    EXPECT_EQ(loadObj(ok).mesh.triangles.size(), 1u);
    expectLineError("v 0 0 0\r\nv 1 0 0\rv nan 1 0\nf 1 2 3\n", 3, "'nan' is not a finite number");
}

// strtof reads hexadecimal floats; tinyobjloader reads them as 0.
TEST(ObjLoader, HexadecimalNumbersAreRefused) {
    expectLineError("v 0 0 0\nv 0x1p0 0 0\nv 0 1 0\nf 1 2 3\n", 2, "'0x1p0' is not a decimal number");
}

// MTL numbers are checked like OBJ numbers (tinyobjloader read "nan" and
// "inf" as 0: `d nan` became glass, `Ke inf` a light that did not emit).
TEST(ObjLoader, NonFiniteMtlNumbersNameTheMtlLine) {
    TempDir dir;
    const char* lines[] = {"d nan",  "Ke inf 1 1",  "Kd 0x1p-1 0.5 0.5", "Ns 1e999",     "Ni x",
                           "d -nan", "Kd -inf 0 0", "d -halo 0.5",       "Tf xyz 1 1 1", "Ns 0e500"};
    for (const char* line : lines) {
        std::string mtl = dir.write("m.mtl", std::string("newmtl a\nKd 0.5 0.5 0.5\n") + line + "\n");
        std::string obj = dir.write("a.obj", "mtllib m.mtl\n" + std::string(kTriangle) + "usemtl a\nf 1 2 3\n");
        std::string msg = loadError(obj);
        EXPECT_CONTAINS(msg, mtl + ":3:") << line;
    }
    // Every decimal form a number may take is accepted, and means its value.
    dir.write("w.mtl", "newmtl a\nKd .5 +0.25 5.e-1\nd 1.\nNs 1E+02\n");
    std::string obj = dir.write("w.obj", "mtllib w.mtl\n" + std::string(kTriangle) + "usemtl a\nf 1 2 3\n");
    const LoadedMesh m = loadObj(obj);
    ASSERT_EQ(m.materials.size(), 1u);
    EXPECT_FLOAT_EQ(m.materials[0].material.albedo.x, 0.5f);
    EXPECT_FLOAT_EQ(m.materials[0].material.albedo.y, 0.25f);
    EXPECT_FLOAT_EQ(m.materials[0].material.albedo.z, 0.5f);
}

// Non-regular inputs: a FIFO's text is read once and parsed (process
// substitution works); a device that never ends is refused at a limit.
TEST(ObjLoader, FifoInputsAreReadOnceAndEndlessDevicesRefused) {
    TempDir dir;
    const std::string fifo = dir.file("pipe.obj");
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    std::thread writer([&] {
        std::ofstream out(fifo);
        out << kTriangle << "f 1 2 3\n";
    });
    size_t triangles = 0;
    try {
        triangles = loadObj(fifo).mesh.triangles.size();
    } catch (const Error& e) {
        ADD_FAILURE() << e.what();
    }
    writer.join();
    EXPECT_EQ(triangles, 1u);

    std::string mtlZero = dir.write("z.obj", "mtllib /dev/zero\n" + std::string(kTriangle) + "f 1 2 3\n");
    std::string msg = loadError(mtlZero);
    EXPECT_CONTAINS(msg, "/dev/zero: cannot read MTL file: it is a device that gives more than 64 MiB");
}
