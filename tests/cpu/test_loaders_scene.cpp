// Scene JSON loading: a full round trip through every block, the committed
// example scene, OBJ sequences, and one test per kind of bad input, each
// checking that the message names the file and the line or field.
#include <cmath>
#include <cstdlib>
#include <vector>

#include "loader_test_util.h"
#include "scene/data_folder.h"
#include "scene/image_io.h"
#include "scene/scene_loader.h"

using namespace strata;
using namespace strata::test;

namespace {

const std::string kTriangle = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";

void expectVec(Vec3 v, float x, float y, float z, float eps = 1e-5f) {
    EXPECT_NEAR(v.x, x, eps);
    EXPECT_NEAR(v.y, y, eps);
    EXPECT_NEAR(v.z, z, eps);
}

// A scene in a temporary folder with one triangle OBJ next to it; `body`
// is spliced into the top-level object after "meshes".
struct SmallScene {
    TempDir dir;
    std::string scene;
    explicit SmallScene(const std::string& body, const std::string& meshes = R"([{"name": "tri", "obj": "tri.obj"}])") {
        dir.write("tri.obj", kTriangle);
        scene = dir.write("scene.json", "{\"meshes\": " + meshes + (body.empty() ? "" : ",\n") + body + "}");
    }
    std::string error() const {
        return errorOf([&] { loadScene(scene); });
    }
};

}  // namespace

TEST(SceneLoader, FullRoundTrip) {
    const RealHdr hdr = realStudioHdr();  // the whole file, or the crop shipped in tests/data
    const std::string& kHdr = hdr.path;
    TempDir dir;
    fs::create_directories(dir.file("tex"));
    writePngAtomic(dir.file("tex/wood.png"), 2, 1, {255, 255, 255, 0, 0, 0});
    dir.write("models/a.mtl", "newmtl shared\nKd 0.1 0.2 0.3\nnewmtl wood\nKd 1 1 1\nmap_Kd ../tex/wood.png\n");
    dir.write("models/a.obj",
              "mtllib a.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
              "usemtl shared\nf 1 2 3\nusemtl wood\nf 1 3 4\n");
    dir.write("models/b.mtl", "newmtl shared\nKd 0.9 0.9 0.9\nnewmtl override\nKd 0 0 0\n");
    dir.write("models/b.obj",
              "mtllib b.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"
              "usemtl shared\nf 1 2 3\nf 1 1 2\nusemtl override\nf 1 3 4\n");
    std::string path = dir.write("scene.json", R"({
  "camera": {"position": [0, 1, 6], "target": [0, 0.5, 0], "up": [0, 1, 0], "fov": 35, "loop": false,
             "path": [{"time": 0, "position": [0, 1, 6], "target": [0, 0, 0]},
                      {"time": 2, "position": [6, 1, 0], "target": [0, 1, 0]}]},
  "materials": {
    "override": {"type": "conductor", "albedo": [1, 0.8, 0.3], "roughness": 0.2},
    "glass": {"type": "dielectric", "ior": 1.4},
    "walltex": {"texture": "tex/wood.png"},
    "lamp": {"type": "emissive", "emission": [4, 4, 4]}
  },
  "meshes": [
    {"name": "a", "obj": "models/a.obj"},
    {"name": "b", "obj": "models/b.obj"},
    {"name": "c", "obj": "models/b.obj", "material": "glass"}
  ],
  "instances": [
    {"mesh": "a", "name": "a0", "translate": [1, 2, 3], "rotate": {"axis": [0, 1, 0], "degrees": 90}, "scale": 2},
    {"mesh": "b", "scale": [1, 2, 3],
     "animation": {"loop": false, "keys": [
       {"time": 0},
       {"time": 1.5, "translate": [0, 1, 0], "rotate": {"axis": [0, 0, 2], "degrees": 180}, "scale": 0.5}]}},
    {"mesh": "c"}
  ],
  "lights": {
    "environment": {"hdr": ")" + kHdr + R"(", "scale": 0.5, "rotation": 90},
    "sun": {"direction": [0, 2, 0], "radiance": [3, 2, 1]}
  },
  "render": {"width": 640, "height": 360, "spp": 4, "nee": false, "exposure": -0.5, "tonemap": "reinhard", "seed": 7},
  "accel": {"builder": "cpu-sah", "morton_bits": 30, "width": 8},
  "animation": {"fps": 24, "start_time": 1.5, "play": false}
})");
    Scene s = loadScene(path);
    EXPECT_EQ(s.path, path);

    // Options.
    EXPECT_EQ(s.options.render.width, 640);
    EXPECT_EQ(s.options.render.height, 360);
    EXPECT_EQ(s.options.render.spp, 4);
    EXPECT_FALSE(s.options.render.nee);
    EXPECT_FLOAT_EQ(s.options.render.exposure, -0.5f);
    EXPECT_EQ(s.options.render.tonemap, Tonemap::Reinhard);
    EXPECT_EQ(s.options.render.seed, 7u);
    EXPECT_EQ(s.options.render.bounces, 3);  // untouched default
    EXPECT_EQ(s.options.accel.builder, Builder::CpuSah);
    EXPECT_EQ(s.options.accel.mortonBits, 30);
    EXPECT_EQ(s.options.accel.width, BvhWidth::Eight);  // a number for a choice of numbers
    EXPECT_FLOAT_EQ(s.options.animation.fps, 24.0f);
    EXPECT_FLOAT_EQ(s.options.animation.startTime, 1.5f);
    EXPECT_FALSE(s.options.animation.play);

    // Camera.
    expectVec(s.camera.position, 0, 1, 6);
    expectVec(s.camera.target, 0, 0.5f, 0);
    EXPECT_FLOAT_EQ(s.camera.fovYDegrees, 35.0f);
    EXPECT_FALSE(s.camera.loop);
    ASSERT_EQ(s.camera.path.size(), 2u);
    EXPECT_FLOAT_EQ(s.camera.path[1].time, 2.0f);
    expectVec(s.camera.path[1].position, 6, 1, 0);
    expectVec(s.camera.path[1].target, 0, 1, 0);

    // Materials: the scene's block first (in name order), then each mesh
    // material the first time a triangle uses it; one entry per name.
    std::vector<std::string> names = {"glass", "lamp", "override", "walltex", "shared", "wood"};
    EXPECT_EQ(s.materialNames, names);
    ASSERT_EQ(s.materials.size(), names.size());
    EXPECT_EQ(s.materials[0].type, MaterialType::Dielectric);
    EXPECT_FLOAT_EQ(s.materials[0].ior, 1.4f);
    EXPECT_EQ(s.materials[1].type, MaterialType::Emissive);
    expectVec(s.materials[1].emission, 4, 4, 4);
    EXPECT_EQ(s.materials[2].type, MaterialType::Conductor);  // the scene's "override", not b.mtl's
    expectVec(s.materials[2].albedo, 1, 0.8f, 0.3f);
    EXPECT_FLOAT_EQ(s.materials[2].roughness, 0.2f);
    EXPECT_EQ(s.materials[3].type, MaterialType::Diffuse);
    expectVec(s.materials[4].albedo, 0.1f, 0.2f, 0.3f);  // a.mtl's "shared": first seen wins
    // One image per distinct file: the texture (shared by walltex and wood), then the HDR.
    ASSERT_EQ(s.images.size(), 2u);
    EXPECT_EQ(s.materials[3].albedoTexture, 0);
    EXPECT_EQ(s.materials[5].albedoTexture, 0);
    EXPECT_EQ(s.images[0].path, dir.file("tex/wood.png"));
    EXPECT_EQ(s.images[0].width, 2);
    expectVec(s.images[0].pixels[0], 1, 1, 1);

    // Meshes.
    ASSERT_EQ(s.meshes.size(), 3u);
    EXPECT_EQ(s.meshes[0].name, "a");
    EXPECT_EQ(s.meshes[0].source, dir.file("models/a.obj"));
    EXPECT_EQ(s.meshes[0].triMaterial, (std::vector<int32_t>{4, 5}));
    EXPECT_EQ(s.meshes[1].triMaterial, (std::vector<int32_t>{4, 2}));
    EXPECT_EQ(s.meshes[2].triMaterial, (std::vector<int32_t>{0, 0}));
    EXPECT_EQ(s.skippedDegenerate, 2u);  // "f 1 1 2" in b.obj, loaded twice
    EXPECT_FALSE(s.meshes[0].deforms());

    // Instances.
    ASSERT_EQ(s.instances.size(), 3u);
    EXPECT_EQ(s.instances[0].name, "a0");
    EXPECT_EQ(s.instances[0].mesh, 0);
    // Scale 2, then 90 degrees about +y ((1,0,0) → (0,0,-1)), then translate.
    expectVec(s.instances[0].transform.point({1, 0, 0}), 1, 2, 1);
    EXPECT_TRUE(s.instances[0].animation.empty());
    EXPECT_EQ(s.instances[1].name, "b");
    expectVec(s.instances[1].transform.point({1, 1, 1}), 1, 2, 3);
    const TrsKeyframes& k = s.instances[1].animation;
    EXPECT_EQ(k.times, (std::vector<float>{0.0f, 1.5f}));
    EXPECT_FALSE(k.loop);
    expectVec(k.translation[0], 0, 0, 0);
    expectVec(k.scale[0], 1, 1, 1);
    EXPECT_FLOAT_EQ(k.rotation[0].w, 1.0f);
    expectVec(k.translation[1], 0, 1, 0);
    expectVec(k.scale[1], 0.5f, 0.5f, 0.5f);
    EXPECT_NEAR(k.rotation[1].z, 1.0f, 1e-6f);  // half a turn about +z (axis normalised)
    EXPECT_NEAR(k.rotation[1].w, 0.0f, 1e-6f);
    EXPECT_EQ(s.instances[2].mesh, 2);
    expectVec(s.instances[2].transform.point({1, 2, 3}), 1, 2, 3);

    // Lights.
    EXPECT_EQ(s.environment.image, 1);
    EXPECT_EQ(s.images[1].width, hdr.width);
    expectVec(s.environment.color, 0.5f, 0.5f, 0.5f);
    EXPECT_FLOAT_EQ(s.environment.rotationDegrees, 90.0f);
    EXPECT_TRUE(s.sun.enabled);
    expectVec(s.sun.direction, 0, 1, 0);
    expectVec(s.sun.radiance, 3, 2, 1);
}

TEST(SceneLoader, CommittedCubeScene) {
    Scene s = loadScene(std::string(STRATA_SOURCE_DIR) + "/tests/data/cube_scene.json");
    ASSERT_EQ(s.meshes.size(), 1u);
    EXPECT_EQ(s.meshes[0].triangles.size(), 12u);
    ASSERT_EQ(s.instances.size(), 1u);  // no "instances": one identity instance per mesh
    EXPECT_EQ(s.instances[0].name, "cube");
    expectVec(s.instances[0].transform.point({1, 2, 3}), 1, 2, 3);
    EXPECT_EQ(s.materialNames, (std::vector<std::string>{"default", "red", "shiny"}));
    EXPECT_EQ(s.environment.image, -1);
    expectVec(s.environment.color, 0.2f, 0.3f, 0.4f);
    EXPECT_FALSE(s.sun.enabled);
    EXPECT_FLOAT_EQ(s.camera.fovYDegrees, 40.0f);
    EXPECT_EQ(s.options.render.spp, 2);
}

TEST(SceneLoader, ObjSequenceFromAPattern) {
    TempDir dir;
    // Frame 1 flattens the second triangle to zero area: it must stay, or the
    // frames would not share one topology.
    dir.write("frames/f_00.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nvn 0 0 1\nf 1//1 2//1 3//1\nf 2//1 4//1 3//1\n");
    dir.write("frames/f_01.obj",
              "v 0 0 1\nv 1 0 1\nv 0 1 1\nv 0.5 0.5 1\nvn 0 0 1\nf 1//1 2//1 3//1\nf 2//1 4//1 3//1\n");
    dir.write("frames/f_02.obj", "v 0 0 2\nv 1 0 2\nv 0 1 2\nv 1 1 2\nvn 0 0 1\nf 1//1 2//1 3//1\nf 2//1 4//1 3//1\n");
    std::string path = dir.write("s.json", R"({"meshes": [{"name": "flag",
        "obj_sequence": {"files": {"pattern": "frames/f_%02d.obj", "count": 3}, "fps": 12, "loop": false}}]})");
    Scene s = loadScene(path);
    const Mesh& m = s.meshes[0];
    EXPECT_EQ(m.animation, MeshAnimationKind::Frames);
    EXPECT_EQ(m.triangles.size(), 2u);
    ASSERT_EQ(m.frames.positions.size(), 3u);
    ASSERT_EQ(m.frames.normals.size(), 3u);
    EXPECT_FLOAT_EQ(m.frames.fps, 12.0f);
    EXPECT_FALSE(m.frames.loop);
    for (int f = 0; f < 3; ++f) {
        ASSERT_EQ(m.frames.positions[f].size(), m.positions.size());
        EXPECT_FLOAT_EQ(m.frames.positions[f][0].z, float(f));
    }
    EXPECT_FLOAT_EQ(m.positions[0].z, 0.0f);  // the rest pose is frame 0
}

TEST(SceneLoader, ObjSequenceWithMismatchedFramesNamesTheFrame) {
    SmallScene s("", R"([{"name": "seq", "obj_sequence": {"files": ["tri.obj", "quad.obj"]}}])");
    std::string quad = s.dir.write("quad.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n");
    std::string msg = s.error();
    EXPECT_CONTAINS(msg, s.scene + ": meshes[0].obj_sequence.files[1]");
    EXPECT_CONTAINS(msg, quad);
    EXPECT_CONTAINS(msg, "4 vertices");

    // Same vertex count, other connectivity.
    s.dir.write("tri.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3\nf 1 3 4\n");
    s.dir.write("quad.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 4\nf 2 3 4\n");
    msg = s.error();
    EXPECT_CONTAINS(msg, quad);
    EXPECT_CONTAINS(msg, "frame 1 has different faces (topology) from frame 0");
}

TEST(SceneLoader, MissingSceneFile) {
    std::string msg = errorOf([] { loadScene("/nonexistent/scene.json"); });
    EXPECT_CONTAINS(msg, "/nonexistent/scene.json");
    EXPECT_CONTAINS(msg, "cannot open");
}

TEST(SceneLoader, MalformedJsonGivesLineAndColumn) {
    TempDir dir;
    std::string a = dir.write("a.json", "{\n  \"render\": {\"spp\": }\n}\n");
    std::string msg = errorOf([&] { loadScene(a); });
    EXPECT_CONTAINS(msg, a + ":2:21: ");
    EXPECT_CONTAINS(msg, "unexpected '}'");

    std::string b = dir.write("b.json", "{\n  \"meshes\": [\n    {\"name\": \"a\"},\n  ]\n}\n");
    EXPECT_CONTAINS(errorOf([&] { loadScene(b); }), b + ":4:3: ");

    std::string c = dir.write("c.json", "// comment\n{\"render\": {\"exposure\": 1e999}}");
    EXPECT_CONTAINS(errorOf([&] { loadScene(c); }), c + ":2:25: ");  // number overflow

    std::string d = dir.write("d.json", "");
    EXPECT_CONTAINS(errorOf([&] { loadScene(d); }), d + ":1:1: ");
}

TEST(SceneLoader, UnknownFieldsAreNamed) {
    EXPECT_CONTAINS(SmallScene(R"("camra": {})").error(), "scene.json: camra: unknown field");
    EXPECT_CONTAINS(SmallScene(R"("camera": {"postion": [0, 0, 0]})").error(), "camera.postion: unknown field");
    EXPECT_CONTAINS(SmallScene("", R"([{"name": "tri", "objj": "tri.obj"}])").error(), "meshes[0].objj: unknown field");
    EXPECT_CONTAINS(SmallScene(R"("materials": {"m": {"type": "diffuse", "roughness": 0.1}})").error(),
                    "materials.m.roughness: unknown field (allowed here: type, albedo, texture)");
    EXPECT_CONTAINS(SmallScene(R"("instances": [{"mesh": "tri", "rotate": {"axis": [0, 1, 0], "deg": 4}}])").error(),
                    "instances[0].rotate.deg: unknown field");
    EXPECT_CONTAINS(SmallScene(R"("lights": {"sun": {"dir": [0, 1, 0]}})").error(), "lights.sun.dir: unknown field");
}

TEST(SceneLoader, WronglyTypedFieldsAreNamed) {
    SmallScene s("",
                 R"([{"name": "tri", "obj": "tri.obj"}, {"name": "x", "obj": "tri.obj"}, {"name": "y", "obj": 5}])");
    std::string msg = s.error();
    EXPECT_CONTAINS(msg, s.scene + ": meshes[2].obj: expected a string, got number");
    EXPECT_CONTAINS(SmallScene(R"("camera": {"fov": "wide"})").error(), "camera.fov: expected a number, got string");
    EXPECT_CONTAINS(SmallScene(R"("camera": {"position": [0, 1]})").error(),
                    "camera.position: expected an array of 3 numbers");
    EXPECT_CONTAINS(SmallScene(R"("camera": {"target": [0, "1", 2]})").error(),
                    "camera.target[1]: expected a number, got string");
    EXPECT_CONTAINS(SmallScene(R"("instances": {"mesh": "tri"})").error(), "instances: expected an array, got object");
    EXPECT_CONTAINS(SmallScene(R"("instances": [{"mesh": "tri", "scale": "big"}])").error(),
                    "instances[0].scale: expected a number or an array of 3 numbers, got string");
    EXPECT_CONTAINS(SmallScene("", R"({"name": "tri"})").error(), "meshes: expected an array, got object");
    EXPECT_CONTAINS(SmallScene("", R"([{"obj": "tri.obj"}])").error(), "meshes[0]: missing field 'name'");
}

TEST(SceneLoader, OptionsAreCheckedByKind) {
    std::string msg = SmallScene(R"("render": {"spps": 4})").error();
    EXPECT_CONTAINS(msg, "scene.json: render.spps: unknown option");
    EXPECT_CONTAINS(msg, "spp");  // the list of known ones
    EXPECT_CONTAINS(SmallScene(R"("accel": {"bulider": "x"})").error(), "accel.bulider: unknown option");
    EXPECT_CONTAINS(SmallScene(R"("render": {"spp": 0})").error(),
                    "render.spp: option 'render.spp' = 0 is out of range");
    EXPECT_CONTAINS(SmallScene(R"("render": {"spp": 2.5})").error(), "render.spp: expected an integer, got 2.5");
    EXPECT_CONTAINS(SmallScene(R"("render": {"spp": "4"})").error(), "render.spp: expected an integer, got string");
    EXPECT_CONTAINS(SmallScene(R"("render": {"nee": 1})").error(), "render.nee: expected true or false, got number");
    EXPECT_CONTAINS(SmallScene(R"("render": {"tonemap": "filmic"})").error(),
                    "render.tonemap: option 'render.tonemap': expected one of");
    EXPECT_CONTAINS(SmallScene(R"("accel": {"morton_bits": 31})").error(), "accel.morton_bits:");
    EXPECT_CONTAINS(SmallScene(R"("accel": {"width": 4})").error(), "accel.width");
    EXPECT_CONTAINS(SmallScene(R"("animation": {"fps": -1})").error(), "animation.fps:");
    EXPECT_CONTAINS(SmallScene(R"("render": 4)").error(), "render: expected an object, got number");
}

TEST(SceneLoader, BadObjInSceneNamesSceneFieldObjAndLine) {
    SmallScene s("");
    std::string obj = s.dir.write("tri.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n");
    std::string msg = s.error();
    EXPECT_CONTAINS(msg, s.scene + ": meshes[0].obj: " + obj + ":4: ");
    EXPECT_CONTAINS(msg, "vertex index 4");

    std::string missing = SmallScene("", R"([{"name": "m", "obj": "models/missing.obj"}])").error();
    EXPECT_CONTAINS(missing, "meshes[0].obj: ");
    EXPECT_CONTAINS(missing, "models/missing.obj: cannot open OBJ file");
}

TEST(SceneLoader, MissingMtlIsAWarningMissingTextureAnError) {
    SmallScene s("");
    s.dir.write("tri.obj", "mtllib gone.mtl\n" + kTriangle);
    testing::internal::CaptureStderr();
    Scene scene = loadScene(s.scene);
    std::string err = testing::internal::GetCapturedStderr();
    EXPECT_CONTAINS(err, "gone.mtl");
    EXPECT_EQ(scene.materialNames, std::vector<std::string>{"default"});

    s.dir.write("tri.mtl", "newmtl wood\nmap_Kd textures/wood.png\n");
    s.dir.write("tri.obj", "mtllib tri.mtl\nusemtl wood\n" + kTriangle);
    std::string msg = s.error();
    EXPECT_CONTAINS(msg, s.scene + ": meshes[0]: material 'wood' (map_Kd): ");
    EXPECT_CONTAINS(msg, s.dir.file("textures/wood.png") + ": cannot open image");

    std::string own = SmallScene(R"("materials": {"w": {"texture": "nope.png"}})").error();
    EXPECT_CONTAINS(own, "scene.json: materials.w.texture: ");
    EXPECT_CONTAINS(own, "nope.png: cannot open image");

    std::string env = SmallScene(R"("lights": {"environment": {"hdr": "sky.hdr"}})").error();
    EXPECT_CONTAINS(env, "lights.environment.hdr: ");
    EXPECT_CONTAINS(env, "sky.hdr: cannot open image");
}

TEST(SceneLoader, GarbageTextureNamesTheFile) {
    SmallScene s(R"("materials": {"w": {"texture": "bad.png"}})");
    std::string bad = s.dir.write("bad.png", std::string("\x89PNG\r\n\x1a\n", 8) + "truncated");
    std::string msg = s.error();
    EXPECT_CONTAINS(msg, "materials.w.texture: " + bad + ": cannot read image");
}

TEST(SceneLoader, InstancesAndKeysAreChecked) {
    std::string msg = SmallScene(R"("instances": [{"mesh": "tri"}, {"mesh": "tree"}])").error();
    EXPECT_CONTAINS(msg, "scene.json: instances[1].mesh: unknown mesh 'tree' (meshes: tri)");

    msg = SmallScene(R"("instances": [{"mesh": "tri", "animation": {"keys": [
        {"time": 0}, {"time": 1}, {"time": 1}]}}])")
              .error();
    EXPECT_CONTAINS(msg, "scene.json: instances[0].animation.keys[2].time: key times must be strictly increasing");

    msg = SmallScene(R"("camera": {"path": [{"time": 2, "position": [0, 0, 1], "target": [0, 0, 0]},
                                           {"time": 1, "position": [0, 0, 2], "target": [0, 0, 0]}]})")
              .error();
    EXPECT_CONTAINS(msg, "camera.path[1].time: key times must be strictly increasing");

    EXPECT_CONTAINS(SmallScene(R"("instances": [])").error(), "instances: no instances");
    EXPECT_CONTAINS(SmallScene(R"("instances": [{"mesh": "tri", "scale": [1, 0, 1]}])").error(), "instances[0].scale:");
    EXPECT_CONTAINS(
        SmallScene(R"("instances": [{"mesh": "tri", "rotate": {"axis": [0, 0, 0], "degrees": 3}}])").error(),
        "instances[0].rotate.axis: the rotation axis must not be zero");
    EXPECT_CONTAINS(SmallScene(R"("instances": [{"mesh": "tri", "animation": {"keys": []}}])").error(),
                    "instances[0].animation.keys: expected at least one key");
}

TEST(SceneLoader, MeshesAndMaterialsAreChecked) {
    EXPECT_CONTAINS(SmallScene("", "[]").error(), "scene.json: no meshes");
    EXPECT_CONTAINS(errorOf([] {
                        TempDir d;
                        loadScene(d.write("s.json", R"({"render": {"spp": 1}})"));
                    }),
                    "no meshes");
    EXPECT_CONTAINS(SmallScene("", R"([{"name": "a", "obj": "tri.obj"}, {"name": "a", "obj": "tri.obj"}])").error(),
                    "meshes[1].name: duplicate mesh name 'a' (also meshes[0])");
    EXPECT_CONTAINS(SmallScene("", R"([{"name": "a", "obj": "tri.obj", "generator": "g"}])").error(),
                    "meshes[0]: expected exactly one of");
    EXPECT_CONTAINS(SmallScene("", R"([{"name": "a", "generator": "no-such-generator"}])").error(),
                    "scene.json: meshes[0]: unknown generator 'no-such-generator'");
    EXPECT_CONTAINS(SmallScene("", R"([{"name": "a", "obj": "tri.obj", "material": "gold"}])").error(),
                    "meshes[0].material: unknown material 'gold'");
    EXPECT_CONTAINS(SmallScene(R"("materials": {"m": {"type": "plastic"}})").error(),
                    "materials.m.type: unknown material type 'plastic'");
    EXPECT_CONTAINS(SmallScene(R"("materials": {"m": {"type": "emissive"}})").error(),
                    "materials.m: missing field 'emission'");
    EXPECT_CONTAINS(SmallScene(R"("materials": {"m": {"albedo": [1, -1, 1]}})").error(),
                    "materials.m.albedo: expected non-negative components");
    EXPECT_CONTAINS(SmallScene(R"("materials": {"m": {"type": "conductor", "roughness": 2}})").error(),
                    "materials.m.roughness: expected a number in [0, 1]");
    EXPECT_CONTAINS(
        SmallScene("", R"([{"name": "s", "obj_sequence": {"files": {"pattern": "f.obj", "count": 2}}}])").error(),
        "meshes[0].obj_sequence.files.pattern: expected exactly one %d");
    // A first frame number near the integer limit would overflow first + k.
    EXPECT_CONTAINS(
        SmallScene(
            "",
            R"([{"name": "s", "obj_sequence": {"files": {"pattern": "f%d.obj", "first": 9223372036854775807, "count": 2}}}])")
            .error(),
        "meshes[0].obj_sequence.files.first: expected an integer in [0, 1000000000]");
}

TEST(SceneLoader, CameraAndLightsAreChecked) {
    EXPECT_CONTAINS(SmallScene(R"("camera": {"fov": 180})").error(),
                    "camera.fov: expected vertical degrees in (0, 180)");
    EXPECT_CONTAINS(SmallScene(R"("camera": {"fov": 0})").error(), "camera.fov:");
    EXPECT_CONTAINS(SmallScene(R"("camera": {"position": [1, 1, 1], "target": [1, 1, 1]})").error(),
                    "camera: position and target are the same point");
    EXPECT_CONTAINS(SmallScene(R"("camera": {"position": [0, 5, 0], "target": [0, 0, 0]})").error(),
                    "camera: the up vector is parallel");
    EXPECT_CONTAINS(SmallScene(R"("lights": {"sun": {"direction": [0, 0, 0]}})").error(),
                    "lights.sun.direction: the direction towards the sun must not be zero");
    EXPECT_CONTAINS(SmallScene(R"("lights": {"environment": {"color": [1, 1, 1], "hdr": "x.hdr"}})").error(),
                    "lights.environment: expected exactly one of");
    EXPECT_CONTAINS(SmallScene(R"("lights": {"environment": {"color": [1, 1, 1], "scale": 2}})").error(),
                    "lights.environment.scale: only used with");
}

// "data:FILE" meshes come from the data folder: --data (setDataFolder) over
// $STRATA_DATA over the default; a missing file names itself, the folder and
// how to set it, and nothing is loaded.
TEST(SceneLoader, DataPathsResolveInTheDataFolder) {
    TempDir data, other, scenes;
    data.write("tri.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    other.write("tri.obj", "v 0 0 0\nv 2 0 0\nv 0 2 0\nv 0 0 2\nf 1 2 3\nf 1 2 4\n");
    const std::string scene =
        scenes.write("s.json", R"({"meshes": [{"name": "m", "obj": "data:tri.obj"}], "instances": [{"mesh": "m"}]})");
    const char* before = std::getenv("STRATA_DATA");
    const std::string saved = before ? before : "";
    setenv("STRATA_DATA", data.path().c_str(), 1);
    setDataFolder("");
    EXPECT_EQ(dataFolderOrigin(), "STRATA_DATA");
    EXPECT_EQ(loadScene(scene).meshes[0].triangles.size(), 1u);
    setDataFolder(other.path().string());  // --data wins over the environment
    EXPECT_EQ(dataFolderOrigin(), "--data");
    EXPECT_EQ(loadScene(scene).meshes[0].triangles.size(), 2u);

    setDataFolder((data.path() / "missing").string());
    const std::string e = errorOf([&] { loadScene(scene); });
    EXPECT_NE(e.find(scene), std::string::npos) << e;
    EXPECT_NE(e.find("tri.obj is not in the data folder"), std::string::npos) << e;
    EXPECT_NE(e.find("--data DIR or STRATA_DATA"), std::string::npos) << e;

    const std::string noName =
        scenes.write("n.json", R"({"meshes": [{"name": "m", "obj": "data:"}], "instances": [{"mesh": "m"}]})");
    EXPECT_NE(errorOf([&] { loadScene(noName); }).find("expected a file name"), std::string::npos);

    setDataFolder("");
    if (before)
        setenv("STRATA_DATA", saved.c_str(), 1);
    else
        unsetenv("STRATA_DATA");
    EXPECT_EQ(dataFolder(), before ? saved : std::string(kDefaultDataFolder));
}
