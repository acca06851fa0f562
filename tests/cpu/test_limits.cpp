// Limits: every value beyond what strata supports is a clear strata::Error,
// raised before anything is allocated for it — resolution 0 or huge, spp and
// bounces out of range (from the options, a scene file and a renderer given
// the fields directly), flat scenes beyond 32-bit indices, images beyond the
// size limits (from the header, before decoding), coordinates whose squares
// overflow a float.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <jpeglib.h>

#include "loader_test_util.h"
#include "png_bytes.h"
#include "render/flat_scene.h"
#include "render/host_memory.h"
#include "render/renderer.h"
#include "scene/deform.h"
#include "scene/image_io.h"
#include "scene/scene_loader.h"
#include "test_util.h"

using namespace strata;
using namespace strata::test;

namespace {

std::string hdrHeader(int w, int h) {
    return "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y " + std::to_string(h) + " +X " + std::to_string(w) + "\n";
}

// A w x h grey baseline JPEG, encoded by libjpeg-turbo.
std::string encodeJpeg(int w, int h) {
    jpeg_compress_struct c;
    jpeg_error_mgr err;
    c.err = jpeg_std_error(&err);
    jpeg_create_compress(&c);
    unsigned char* buf = nullptr;
    unsigned long size = 0;
    jpeg_mem_dest(&c, &buf, &size);
    c.image_width = JDIMENSION(w);
    c.image_height = JDIMENSION(h);
    c.input_components = 3;
    c.in_color_space = JCS_RGB;
    jpeg_set_defaults(&c);
    jpeg_start_compress(&c, TRUE);
    std::vector<unsigned char> row(size_t(w) * 3, 128);
    while (c.next_scanline < c.image_height) {
        JSAMPROW r = row.data();
        jpeg_write_scanlines(&c, &r, 1);
    }
    jpeg_finish_compress(&c);
    jpeg_destroy_compress(&c);
    std::string out(reinterpret_cast<const char*>(buf), size);
    std::free(buf);
    return out;
}

Scene smallScene() {
    Scene s = sceneWith(makeSphere({0, 0, 0}, 1.0f, 12));
    s.environment.color = make3(1.0f);
    s.options.render.width = 16;
    s.options.render.height = 16;
    s.options.render.threads = 2;
    return s;
}

}  // namespace

TEST(Limits, ResolutionSppAndBouncesOutOfRangeAreErrorsNamingTheOption) {
    struct Case {
        const char* key;
        const char* value;
    };
    for (Case c : {Case{"render.width", "0"}, Case{"render.width", "100000"}, Case{"render.height", "0"},
                   Case{"render.height", "-1"}, Case{"render.height", "16385"}, Case{"render.spp", "0"},
                   Case{"render.spp", "65537"}, Case{"render.spp", "-4"}, Case{"render.bounces", "-1"},
                   Case{"render.bounces", "65"}, Case{"render.width", "99999999999999999999"},
                   Case{"render.rr_start", "-1"}, Case{"render.threads", "1025"}}) {
        Options o;
        std::string msg = errorOf([&] { o.set(c.key, c.value); });
        EXPECT_CONTAINS(msg, c.key);
        EXPECT_EQ(o.get(c.key), Options{}.get(c.key)) << "a refused value must not be stored";
    }
    // The bounds themselves are fine.
    Options o;
    o.setAssignment("render.width=16384");
    o.setAssignment("render.height=1");
    o.setAssignment("render.spp=65536");
    o.setAssignment("render.bounces=0");
    o.setAssignment("render.bounces=64");
    EXPECT_NO_THROW(o.check());
}

TEST(Limits, SceneFileResolutionOutOfRangeNamesFileAndField) {
    TempDir dir;
    dir.write("tri.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    for (const char* render : {R"({"width": 0})", R"({"width": 100000})", R"({"height": 0})", R"({"spp": 0})",
                               R"({"spp": 100000000})", R"({"bounces": 65})", R"({"bounces": -1})"}) {
        const std::string head = R"({"meshes": [{"name": "t", "obj": "tri.obj"}], "render": )";
        std::string scene = dir.write("scene.json", head + render + "}");
        std::string msg = errorOf([&] { loadScene(scene); });
        EXPECT_CONTAINS(msg, scene + ": render.");
        EXPECT_CONTAINS(msg, "is out of range");
    }
}

// Options assigned field by field (as the viewer and tests do) bypass set();
// the renderer checks them before it allocates its image buffers.
TEST(Limits, RendererRefusesOutOfRangeFieldsBeforeAllocating) {
    auto expectRefused = [](Scene s, const char* key) {
        std::string msg = errorOf([&] { makeCpuRenderer(s); });
        EXPECT_CONTAINS(msg, key);
        EXPECT_CONTAINS(msg, "out of range");
    };
    Scene s = smallScene();
    s.options.render.width = 0;
    expectRefused(s, "render.width");
    s = smallScene();
    s.options.render.width = 100000;
    s.options.render.height = 100000;  // 10^10 pixels: would be ~1 TB of path state
    expectRefused(s, "render.width");
    s = smallScene();
    s.options.render.spp = 0;
    expectRefused(s, "render.spp");
    s = smallScene();
    s.options.render.bounces = 1000;
    expectRefused(s, "render.bounces");

    // setOptions refuses too, and keeps the options it had.
    s = smallScene();
    auto r = makeCpuRenderer(s);
    Options bad = r->options();
    bad.render.height = 0;
    EXPECT_CONTAINS(errorOf([&] { r->setOptions(bad); }), "render.height");
    EXPECT_EQ(r->options().render.height, 16);
    r->renderFrame(0.0f, 0);
    std::vector<uint8_t> rgb;
    r->readImage(rgb);
    EXPECT_EQ(rgb.size(), size_t(16 * 16 * 3));
}

// flattenScene's 32-bit check: many instances of one mesh reach the counts
// without allocating them (the mesh itself is small).
TEST(Limits, FlatSceneBeyond32BitTriangleIndicesIsAnErrorBeforeAllocating) {
    Mesh m;  // 2^20 triangles over 3 vertices: 12 MiB
    m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    m.triangles.assign(size_t(1) << 20, Tri{{0, 1, 2}});
    m.triMaterial.assign(m.triangles.size(), 0);
    Scene s = sceneWith(std::move(m));
    s.path = "huge.json";
    Instance one = s.instances[0];
    s.instances.assign(2048, one);  // 2^31 triangles: one more than int32 holds
    EXPECT_EQ(s.triangleCount(), size_t(1) << 31);
    std::string msg = errorOf([&] { flattenScene(s); });
    EXPECT_CONTAINS(msg, "huge.json");
    EXPECT_CONTAINS(msg, "2147483648 triangles");
    EXPECT_CONTAINS(msg, "2^31-1 triangles");
    // The CPU renderer refuses before it flattens: its host-memory estimate
    // (2^31 triangles take hundreds of GiB), with the counts.
    const std::string cpu = errorOf([&] { makeCpuRenderer(s); });
    EXPECT_CONTAINS(cpu, "huge.json: the CPU backend needs about");
    EXPECT_CONTAINS(cpu, "2147483648 triangles in instances");
    // With the memory there, flattenScene's check would still refuse them.
    EXPECT_GT(estimateCpuBackendBytes(s), size_t(1) << 38);
}

TEST(Limits, FlatSceneBeyond32BitVertexIndicesIsAnErrorBeforeAllocating) {
    Mesh m;  // 2^20 vertices (12 MiB), one triangle
    m.positions.assign(size_t(1) << 20, Vec3{0, 0, 0});
    m.positions[1] = {1, 0, 0};
    m.positions[2] = {0, 1, 0};
    m.triangles = {Tri{{0, 1, 2}}};
    m.triMaterial = {0};
    Scene s = sceneWith(std::move(m));
    s.path = "many-vertices.json";
    Instance one = s.instances[0];
    s.instances.assign(4096, one);  // 2^32 vertices
    std::string msg = errorOf([&] { flattenScene(s); });
    EXPECT_CONTAINS(msg, "many-vertices.json");
    EXPECT_CONTAINS(msg, "4294967296 vertices");
}

TEST(Limits, ImagesBeyondTheLimitsAreRefusedFromTheHeader) {
    TempDir dir;
    struct Case {
        std::string name, bytes, expected;
    };
    const std::vector<Case> cases = {
        {"wide.png", pngHeader(100000, 100000), "100000x100000, larger than the supported 32768 pixels a side"},
        {"tall.png", pngHeader(1, 40000), "1x40000, larger than the supported 32768"},
        {"many.png", pngHeader(32768, 32768), "32768x32768 = 1073741824 pixels, more than the supported 134217728"},
        {"zero.png", pngHeader(0, 16), "cannot read image"},
        {"wide.hdr", hdrHeader(100000, 4), "100000x4, larger than the supported 32768"},
        {"many.hdr", hdrHeader(32768, 16384), "32768x16384 = 536870912 pixels, more than the supported"},
        // At the limit, within it: accepted as far as the size goes, then the
        // (missing) pixel data is the error, found before decoding.
        {"limit.hdr", hdrHeader(16384, 8192),
         "cannot read HDR image: truncated: the pixel data ends in scanline 0 of 8192"},
    };
    for (const Case& c : cases) {
        std::string path = dir.write(c.name, c.bytes);
        if (c.name == "limit.hdr") {
            ImageInfo info = readImageInfo(path);  // the header alone is fine
            EXPECT_EQ(info.width, 16384);
            EXPECT_TRUE(info.hdr);
        } else {
            std::string msg = errorOf([&] { readImageInfo(path); });
            EXPECT_CONTAINS(msg, path);
            EXPECT_CONTAINS(msg, c.expected);
        }
        std::string msg = errorOf([&] { loadImage(path); });
        EXPECT_CONTAINS(msg, path);
        EXPECT_CONTAINS(msg, c.expected);
    }
}

TEST(Limits, JpegBeyondTheLimitsIsRefusedFromTheHeader) {
    TempDir dir;
    std::string bytes = encodeJpeg(8, 8);
    EXPECT_EQ(loadImage(dir.write("small.jpg", bytes)).width, 8);
    // SOF0 (FF C0): length (2), precision (1), height (2), width (2).
    size_t sof = bytes.find("\xFF\xC0");
    ASSERT_NE(sof, std::string::npos);
    bytes[sof + 5] = char(0xFF);  // height 65500 (0xFFDC), width 40000 (0x9C40)
    bytes[sof + 6] = char(0xDC);
    bytes[sof + 7] = char(0x9C);
    bytes[sof + 8] = char(0x40);
    std::string big = dir.write("big.jpg", bytes);
    EXPECT_CONTAINS(errorOf([&] { readImageInfo(big); }), "40000x65500, larger than the supported 32768");
    EXPECT_CONTAINS(errorOf([&] { loadImage(big); }), big + ": image is 40000x65500");
}

TEST(Limits, TextureBeyondTheLimitsNamesTheSceneField) {
    TempDir dir;
    dir.write("tri.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    dir.write("huge.png", pngHeader(40000, 40000));
    std::string scene = dir.write("scene.json", R"({"materials": {"m": {"texture": "huge.png"}},
        "meshes": [{"name": "t", "obj": "tri.obj", "material": "m"}]})");
    std::string msg = errorOf([&] { loadScene(scene); });
    EXPECT_CONTAINS(msg, scene + ": materials.m.texture: ");
    EXPECT_CONTAINS(msg, "40000x40000, larger than the supported");
}

TEST(Limits, CoordinatesWhoseSquaresOverflowAreErrors) {
    TempDir dir;
    dir.write("tri.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    auto sceneError = [&](const std::string& body) {
        std::string scene = dir.write("scene.json", R"({"meshes": [{"name": "t", "obj": "tri.obj"}])" + body + "}");
        return errorOf([&] { loadScene(scene); });
    };
    EXPECT_CONTAINS(sceneError(R"(, "instances": [{"mesh": "t", "scale": 1e30}])"),
                    "instances[0]: places mesh 't' at coordinates up to 1e+30; at most 1e+18");
    EXPECT_CONTAINS(sceneError(R"(, "instances": [{"mesh": "t", "translate": [0, -2e18, 0]}])"), "instances[0]:");
    EXPECT_CONTAINS(sceneError(R"(, "instances": [{"mesh": "t", "animation": {"keys": [{"time": 0},
                                   {"time": 1, "scale": [1, 1e19, 1]}]}}])"),
                    "instances[0].animation.keys[1]: places mesh 't'");
    EXPECT_CONTAINS(sceneError(R"(, "camera": {"target": [0, 0, 3e20]})"), "camera.target: coordinate 3e+20");
    EXPECT_CONTAINS(sceneError(R"(, "camera": {"path": [{"time": 0, "position": [0, 0, 5],
                                                          "target": [0, 0, -1e19]}]})"),
                    "camera.path[0].target");
    // Large but supported.
    EXPECT_NO_THROW(loadScene(dir.write("ok.json", R"({"meshes": [{"name": "t", "obj": "tri.obj"}],
        "instances": [{"mesh": "t", "translate": [1e17, 0, 0], "scale": 1e17}]})")));
    std::string obj = dir.write("far.obj", "v 0 0 0\nv 1 0 0\nv 0 -1.5e18 0\nf 1 2 3\n");
    std::string far = dir.write("far.json", R"({"meshes": [{"name": "t", "obj": "far.obj"}]})");
    std::string msg = errorOf([&] { loadScene(far); });
    EXPECT_CONTAINS(msg, obj + ":3: v: '-1.5e18' is beyond +-1e18");
}

// Scene time x fps beyond a float (issue 18: frame index INT_MIN, a crash in
// every command): frameBlend picks frames inside the sequence for any float,
// and the options refuse times a float cannot hold.
TEST(Limits, FrameBlendStaysInsideTheSequenceForAnyTime) {
    const float times[] = {0.0f, 1.5f, -7.25f, 3.0e38f, -3.0e38f, INFINITY, -INFINITY, NAN, 1e30f};
    for (bool loop : {false, true})
        for (float time : times)
            for (float fps : {24.0f, 3.0e38f}) {
                int f0 = -1, f1 = -1;
                float t = -1.0f;
                frameBlend(time, fps, 5, loop, f0, f1, t);
                EXPECT_TRUE(f0 >= 0 && f0 < 5 && f1 >= 0 && f1 < 5) << time << " " << fps << ": " << f0 << " " << f1;
                EXPECT_TRUE(t >= 0.0f && t <= 1.0f) << time << " " << fps << ": " << t;
            }
    Options o;
    EXPECT_THROW(o.set("animation.start_time", "1e39"), Error);  // inf as a float
    EXPECT_THROW(o.set("animation.start_time", "3e38"), Error);  // beyond +-1e9 s
    EXPECT_NO_THROW(o.set("animation.start_time", "86400"));
    EXPECT_THROW(o.set("render.exposure", "1e39"), Error);
}
