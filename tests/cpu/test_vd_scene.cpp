// VD patches on the host: map loading (PFM, HDR, 16-bit PNG) and its errors,
// the scene file's "vd" block, the generated assets (real overhangs), and
// quads as triangles (vd.mode pretess / off).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "core/vd_patch.h"
#include "loader_test_util.h"
#include "png_bytes.h"
#include "scene/generators/generators.h"
#include "scene/image_io.h"
#include "scene/scene_loader.h"
#include "scene/vd_map.h"
#include "scene/vd_scene.h"

namespace strata {
namespace {

using test::errorOf;
using test::TempDir;

// A PFM with rows bottom to top; little endian (negative scale).
std::string pfm(int w, int h, const std::vector<float>& rgb, bool grey = false) {
    std::string s = std::string(grey ? "Pf" : "PF") + "\n" + std::to_string(w) + " " + std::to_string(h) + "\n-1\n";
    s.append(reinterpret_cast<const char*>(rgb.data()), rgb.size() * sizeof(float));
    return s;
}

// A 16-bit RGB PNG written by hand: zlib with stored (uncompressed) blocks.
std::string png16(int w, int h, const std::vector<uint16_t>& rgb) {
    std::string raw;
    for (int y = 0; y < h; ++y) {
        raw += char(0);  // filter: none
        for (int x = 0; x < w * 3; ++x) {
            uint16_t v = rgb[size_t(y) * w * 3 + x];
            raw += char(v >> 8);
            raw += char(v & 0xff);
        }
    }
    std::string z = "\x78\x01";
    for (size_t off = 0; off < raw.size() || off == 0; off += 65535) {
        size_t n = std::min<size_t>(65535, raw.size() - off);
        z += char(off + n >= raw.size() ? 1 : 0);
        z += char(n & 0xff);
        z += char(n >> 8);
        z += char(~n & 0xff);
        z += char((~n >> 8) & 0xff);
        z += raw.substr(off, n);
        if (off + n >= raw.size()) break;
    }
    uint32_t a = 1, b = 0;
    for (unsigned char c : raw) {
        a = (a + c) % 65521;
        b = (b + a) % 65521;
    }
    z += test::bigEndian(b << 16 | a);
    return test::pngHeader(uint32_t(w), uint32_t(h), 16) + test::pngChunk("IDAT", z) + test::pngChunk("IEND", "");
}

TEST(VdMap, PfmRgbAndGreyRowsBottomToTop) {
    TempDir dir;
    // 2x2: bottom row (0,0,0) (1,0,0); top row (0,2,0) (0,0,-3)
    std::string p = dir.write("m.pfm", pfm(2, 2, {0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, -3}));
    VdMap m = loadVdMap(p);
    ASSERT_EQ(m.width, 2);
    ASSERT_EQ(m.height, 2);
    EXPECT_EQ(m.texels[0].y, 2.0f);   // top-left
    EXPECT_EQ(m.texels[1].z, -3.0f);  // top-right
    EXPECT_EQ(m.texels[3].x, 1.0f);   // bottom-right
    EXPECT_FLOAT_EQ(m.maxLength, 3.0f);
    VdMap g = loadVdMap(dir.write("g.pfm", pfm(1, 1, {0.5f}, true)));
    EXPECT_EQ(g.texels[0].x, 0.5f);
    EXPECT_EQ(g.texels[0].z, 0.5f);
}

TEST(VdMap, Png16MapsToMinusOneToOne) {
    TempDir dir;
    std::string p = dir.write("m.png", png16(2, 1, {0, 32768, 65535, 65535, 0, 0}));
    VdMap m = loadVdMap(p);
    ASSERT_EQ(m.width, 2);
    EXPECT_FLOAT_EQ(m.texels[0].x, -1.0f);
    EXPECT_NEAR(m.texels[0].y, 0.0f, 1e-4f);
    EXPECT_FLOAT_EQ(m.texels[0].z, 1.0f);
    EXPECT_FLOAT_EQ(m.texels[1].x, 1.0f);
}

TEST(VdMap, RealHdrFileLoadsLinear) {
    const test::RealHdr hdr = test::realStudioHdr();  // the whole file, or the crop shipped in tests/data
    VdMap m = loadVdMap(hdr.path);
    EXPECT_EQ(m.width, hdr.width);
    EXPECT_EQ(m.height, hdr.height);
    EXPECT_GT(m.maxLength, 1.0f);  // HDR values above 1 survive (no tone mapping, no clamping)
}

// Texel lengths are taken in double: a texel of 1e30 squares past a float,
// which made maxLength infinite (and every patch box with it).
TEST(VdMap, HugeTexelsGiveAFiniteBound) {
    TempDir dir;
    const VdMap m = loadVdMap(dir.write("big.pfm", pfm(2, 1, {0, 1e30f, 0, 3e38f, 0, 0})));
    EXPECT_TRUE(std::isfinite(m.maxLength));
    EXPECT_GE(double(m.maxLength), 3e38);
    const VdMap s = loadVdMap(dir.write("small.pfm", pfm(1, 1, {0.1f, 0.2f, 0.3f})));
    EXPECT_GE(double(s.maxLength), std::sqrt(0.01 + 0.04 + 0.09) * (1 - 1e-7));
    EXPECT_LE(double(s.maxLength), std::sqrt(0.14) * (1 + 1e-6));
}

TEST(VdMap, BadFilesGiveOneClearMessage) {
    TempDir dir;
    EXPECT_CONTAINS(errorOf([&] { loadVdMap(dir.file("none.pfm")); }), "none.pfm");
    EXPECT_CONTAINS(errorOf([&] { loadVdMap(dir.write("x.exr", "nope")); }), "unsupported displacement map format");
    EXPECT_CONTAINS(errorOf([&] { loadVdMap(dir.write("h.pfm", "P6\n1 1\n255\n...")); }), "not a PFM");
    EXPECT_CONTAINS(errorOf([&] { loadVdMap(dir.write("t.pfm", pfm(4, 4, {1, 2, 3}))); }), "truncated PFM");
    // A header promising 3 GiB in a 20-byte file: refused from the file's size, before any allocation.
    EXPECT_CONTAINS(errorOf([&] { loadVdMap(dir.write("huge.pfm", "PF\n16384 16384\n-1\nabc")); }),
                    "truncated PFM (3 of 3221225472 data bytes)");
    EXPECT_CONTAINS(errorOf([&] { loadVdMap(dir.write("big.pfm", "PF\n100000 100000\n-1\n")); }), "1-16384");
    std::string nan = errorOf([&] { loadVdMap(dir.write("n.pfm", pfm(2, 1, {0, 0, 0, NAN, 0, 0}))); });
    EXPECT_CONTAINS(nan, "n.pfm");
    EXPECT_CONTAINS(nan, "texel (1, 0)");
    // An 8-bit PNG (the project's writer) has too little precision.
    writePngAtomic(dir.file("e.png"), 1, 1, {1, 2, 3});
    std::string msg = errorOf([&] { loadVdMap(dir.file("e.png")); });
    EXPECT_CONTAINS(msg, "e.png");
    EXPECT_CONTAINS(msg, "16-bit");
}

Scene loadText(TempDir& dir, const std::string& json) { return loadScene(dir.write("s.json", json)); }

TEST(VdScene, GeneratorMapAndVdBlock) {
    TempDir dir;
    Scene s = loadText(dir, R"({"meshes": [{"name": "m", "generator": "vd-mushroom",
                                   "params": {"patches": 3, "resolution": 64}, "vd": {"scale": 0.5, "max_level": 4}}]})");
    ASSERT_EQ(s.vdMaps.size(), 1u);
    const Mesh& m = s.meshes[0];
    EXPECT_EQ(m.quads.size(), 9u);
    EXPECT_EQ(m.vd.map, 0);
    EXPECT_EQ(m.vd.maxLevel, 4);
    EXPECT_FLOAT_EQ(m.vd.scale, 0.5f);
    EXPECT_EQ(s.patchCount(), 9u);
    // The patch boxes grow by at most scale * max |texel| around each quad,
    // and some border patches (the mushroom's ground) by much less.
    std::vector<VdPatch> p = meshPatches(s, m);
    ASSERT_EQ(p.size(), 9u);
    const float grow = 0.5f * s.vdMaps[0].maxLength;
    EXPECT_GT(grow, 0.1f);
    float lowest = 1e30f;
    for (const VdPatch& q : p) {
        EXPECT_LE(q.box.hi.y, grow * 1.001f + 1e-5f);
        EXPECT_GE(q.box.lo.y, -grow * 1.001f - 1e-5f);
        lowest = std::fmin(lowest, q.box.hi.y);
    }
    EXPECT_LT(lowest, 0.8f * grow) << "per-patch bounds should be tighter than the map's global bound";
}

// Every point of every patch's displaced surface lies in its box (the box is
// what the middle level culls with: a point outside would be a lost hit).
TEST(VdScene, PatchBoxesContainTheirWholeDisplacedSurface) {
    for (const char* g : {"vd-mushroom", "vd-hook", "vd-spike", "vd-bark"}) {
        TempDir dir;
        const std::string params = std::string(g) == "vd-bark" ? R"({"around": 5, "up": 3, "resolution": 64})"
                                                               : R"({"patches": 3, "resolution": 64})";
        Scene s = loadText(
            dir, std::string(R"({"meshes": [{"name": "a", "generator": ")") + g + R"(", "params": )" + params + "}]}");
        const VdMap& map = s.vdMaps[0];
        const TextureView view{map.texels.data(), map.width, map.height};
        for (const VdPatch& q : meshPatches(s, s.meshes[0]))
            for (int j = 0; j <= 64; ++j)
                for (int i = 0; i <= 64; ++i) {
                    Vec3 x = vdPosition(q, view, i / 64.0f, j / 64.0f);
                    ASSERT_TRUE(x.x >= q.box.lo.x && x.y >= q.box.lo.y && x.z >= q.box.lo.z && x.x <= q.box.hi.x &&
                                x.y <= q.box.hi.y && x.z <= q.box.hi.z)
                        << g << " point (" << i << ", " << j << ") outside its patch box";
                }
    }
}

TEST(VdScene, ObjQuadsWithAMapFile) {
    TempDir dir;
    dir.write("q.obj",
              "v 0 0 0\nv 1 0 0\nv 1 0 -1\nv 0 0 -1\nv 2 0 0\nvt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\n"
              "f 1/1 2/2 3/3 4/4\nf 2 5 3\n");
    dir.write("d.pfm", pfm(1, 1, {0, 0.25f, 0}));
    Scene s = loadText(dir, R"({"meshes": [{"name": "q", "obj": "q.obj",
                                   "vd": {"map": "d.pfm", "space": "tangent"}}]})");
    const Mesh& m = s.meshes[0];
    EXPECT_EQ(m.quads.size(), 1u);      // the four-vertex face stays a quad
    EXPECT_EQ(m.triangles.size(), 1u);  // the triangle stays a triangle
    EXPECT_EQ(m.vd.space, VdSpace::Tangent);
    EXPECT_FLOAT_EQ(s.vdMaps[0].maxLength, 0.25f);
}

TEST(VdScene, BadVdBlocksNameTheField) {
    TempDir dir;
    dir.write("t.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    dir.write("d.pfm", pfm(1, 1, {0, 1, 0}));
    auto err = [&](const std::string& json) { return errorOf([&] { loadText(dir, json); }); };
    EXPECT_CONTAINS(err(R"({"meshes": [{"name": "t", "obj": "t.obj", "vd": {"map": "d.pfm"}}]})"),
                    "needs a mesh with quads");
    EXPECT_CONTAINS(err(R"({"meshes": [{"name": "m", "generator": "vd-hook", "vd": {"space": "world"}}]})"),
                    "meshes[0].vd.space");
    EXPECT_CONTAINS(err(R"({"meshes": [{"name": "m", "generator": "vd-hook", "vd": {"max_level": 9}}]})"),
                    "meshes[0].vd.max_level");
    EXPECT_CONTAINS(err(R"({"meshes": [{"name": "m", "generator": "vd-hook", "vd": {"map": "missing.pfm"}}]})"),
                    "missing.pfm");
    EXPECT_CONTAINS(err(R"({"meshes": [{"name": "m", "generator": "vd-hook", "vd": {"wat": 1}}]})"), "wat");
    EXPECT_CONTAINS(err(R"({"meshes": [{"name": "m", "generator": "plane"}], "vd": {"max_level": 0}})"),
                    "vd.max_level");
    EXPECT_CONTAINS(err(R"({"meshes": [{"name": "m", "generator": "plane"}], "vd": {"mode": "sometimes"}})"),
                    "vd.mode");
    // Displacements beyond the coordinate rule: one huge texel, or a large
    // one times the largest scale.
    dir.write("huge.pfm", pfm(1, 1, {0, 3e38f, 0}));
    dir.write("big.pfm", pfm(1, 1, {0, 1e30f, 0}));
    EXPECT_CONTAINS(err(R"({"meshes": [{"name": "m", "generator": "vd-hook", "vd": {"map": "huge.pfm"}}]})"),
                    "meshes[0].vd: the displacement reaches 3e+38");
    EXPECT_CONTAINS(
        err(R"({"meshes": [{"name": "m", "generator": "vd-hook", "vd": {"map": "big.pfm", "scale": 10000}}]})"),
        "displaced positions must stay within +-1e18");
}

// Overhang: some facet of the pre-tessellated surface faces against the base
// quad's normal (a height field displaced along its normal never does).
float mostReversedFacet(const Scene& s, const Mesh& m, int level) {
    const std::vector<VdPatch> patches = meshPatches(s, m);
    const VdMap& map = s.vdMaps[size_t(m.vd.map)];
    const TextureView view{map.texels.data(), map.width, map.height};
    const int n = 1 << level;
    float worst = 1;
    for (const VdPatch& p : patches)
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                float s0 = float(i) / n, t0 = float(j) / n, d = 1.0f / n;
                Vec3 a = vdPosition(p, view, s0, t0), b = vdPosition(p, view, s0 + d, t0),
                     c = vdPosition(p, view, s0 + d, t0 + d);
                Vec3 f = cross(b - a, c - a);
                if (dot(f, f) < 1e-16f) continue;
                Vec3 base = normalize(cross(lerp(p.p[1] - p.p[0], p.p[2] - p.p[3], t0 + 0.5f * d),
                                            lerp(p.p[3] - p.p[0], p.p[2] - p.p[1], s0 + 0.5f * d)));
                worst = std::fmin(worst, dot(normalize(f), base));
            }
    return worst;
}

TEST(VdAssets, EveryAssetHasRealOverhangsAndFiniteMaps) {
    for (const char* g : {"vd-mushroom", "vd-hook", "vd-spike", "vd-bark"}) {
        TempDir dir;
        Scene s = loadText(dir, std::string(R"({"meshes": [{"name": "a", "generator": ")") + g +
                                    R"(", "params": {"resolution": 128}}]})");
        ASSERT_EQ(s.vdMaps.size(), 1u) << g;
        EXPECT_GT(s.vdMaps[0].maxLength, 0.0f) << g;
        EXPECT_LT(mostReversedFacet(s, s.meshes[0], 5), -0.5f) << g << ": no facet faces away from the base normal";
    }
}

TEST(VdAssets, FlatAssetsMeetTheGroundAtTheirBorder) {
    for (const char* g : {"vd-mushroom", "vd-hook", "vd-spike"}) {
        TempDir dir;
        Scene s = loadText(dir, std::string(R"({"meshes": [{"name": "a", "generator": ")") + g + R"("}]})");
        const Mesh& m = s.meshes[0];
        const VdMap& map = s.vdMaps[0];
        const TextureView view{map.texels.data(), map.width, map.height};
        for (const VdPatch& p : meshPatches(s, m))
            for (int k = 0; k < 4; ++k) {
                Vec2 uv = p.uv[k];
                if (uv.x > 0 && uv.x < 1 && uv.y > 0 && uv.y < 1) continue;  // interior corner
                Vec3 d = vdPosition(p, view, k == 1 || k == 2 ? 1.f : 0.f, k >= 2 ? 1.f : 0.f) - p.p[k];
                EXPECT_LT(length(d), 1e-4f) << g << " corner uv " << uv.x << "," << uv.y;
            }
    }
}

TEST(VdSurface, TangentSpaceDisplacesAlongTheQuadsFrame) {
    VdPatch p{};
    p.p[0] = {0, 0, 0};
    p.p[1] = {2, 0, 0};
    p.p[2] = {2, 0, -2};
    p.p[3] = {0, 0, -2};  // normal +Y, dP/ds +X, dP/dt -Z
    for (int k = 0; k < 4; ++k) p.uv[k] = make2(k == 1 || k == 2 ? 1.f : 0.f, k >= 2 ? 1.f : 0.f);
    Vec3 texel{1, 2, 3};
    TextureView map{&texel, 1, 1};
    p.scale = 0.5f;
    p.space = 1;
    Vec3 q = vdPosition(p, map, 0.5f, 0.5f);
    EXPECT_NEAR(q.x, 1 + 0.5f, 1e-5f);   // x along dP/ds
    EXPECT_NEAR(q.z, -1 - 1.0f, 1e-5f);  // y along dP/dt (-Z)
    EXPECT_NEAR(q.y, 1.5f, 1e-5f);       // z along the normal
    p.space = 0;
    q = vdPosition(p, map, 0.5f, 0.5f);
    EXPECT_NEAR(q.x, 1.5f, 1e-5f);
    EXPECT_NEAR(q.y, 1.0f, 1e-5f);
    EXPECT_NEAR(q.z, -1 + 1.5f, 1e-5f);
}

TEST(VdScene, QuadsAsTrianglesPretessAndOff) {
    TempDir dir;
    const std::string json = R"({"meshes": [{"name": "m", "generator": "vd-spike", "params": {"patches": 2,
                                  "resolution": 32}}, {"name": "f", "generator": "plane"}],
                                  "instances": [{"mesh": "m"}, {"mesh": "m", "translate": [3, 0, 0]}, {"mesh": "f"}],
                                  "vd": {"mode": "pretess", "max_level": 3}})";
    Scene s = loadText(dir, json);
    auto t = trianglesFromQuads(s);
    ASSERT_TRUE(t);
    const Mesh& m = t->meshes[0];
    EXPECT_TRUE(m.quads.empty());
    EXPECT_EQ(m.triangles.size(), 4u * 2u * 64u);  // 4 patches, 2 * 4^3 triangles each
    EXPECT_EQ(m.triMaterial.size(), m.triangles.size());
    EXPECT_EQ(t->triangleCount(), 2 * m.triangles.size() + s.meshes[1].triangles.size());
    // The grid vertices are the displaced surface's points.
    const VdMap& map = s.vdMaps[0];
    const TextureView view{map.texels.data(), map.width, map.height};
    VdPatch p0 = meshPatches(s, s.meshes[0])[0];
    EXPECT_LT(length(m.positions[s.meshes[0].positions.size() + 9 + 2] - vdPosition(p0, view, 2 / 8.f, 1 / 8.f)),
              1e-6f);
    // off: two undisplaced triangles per quad.
    s.options.set("vd.mode", "off");
    auto off = trianglesFromQuads(s);
    EXPECT_EQ(off->meshes[0].triangles.size(), 8u);
    EXPECT_EQ(off->meshes[0].positions.size(), s.meshes[0].positions.size());
    // No quads: nothing to do.
    s.meshes[0].quads.clear();
    s.meshes[0].quadMaterial.clear();
    s.meshes[0].triangles = off->meshes[0].triangles;
    s.meshes[0].triMaterial = off->meshes[0].triMaterial;
    EXPECT_FALSE(trianglesFromQuads(s));
}

TEST(VdScene, PretessBeyondIndicesIsAClearErrorBeforeAllocating) {
    TempDir dir;
    Scene s = loadText(dir, R"({"meshes": [{"name": "m", "generator": "vd-mushroom", "params": {"patches": 8,
                                  "resolution": 16}}], "vd": {"mode": "pretess", "max_level": 7}})");
    // 64 patches * 2 * 4^7 = 2.1M triangles per instance; 1100 instances pass 2^31.
    s.instances.resize(1100, s.instances[0]);
    std::string msg = errorOf([&] { trianglesFromQuads(s); });
    EXPECT_CONTAINS(msg, "vd.max_level");
    EXPECT_CONTAINS(msg, "32-bit");
}

}  // namespace
}  // namespace strata
