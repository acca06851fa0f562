// fuzz/scene_fuzz.cpp — libFuzzer target: strata::loadScene on arbitrary text,
// then flattenScene (what every renderer does first) on what it accepts.
//
// The input is written as "scene.json" into a folder that also holds small
// files a scene can refer to: "cube.obj" (+ "cube.mtl", which uses "tex.png"),
// "f0.obj" and "f1.obj" (a two-frame sequence, also "f%d.obj"), "tex.png" and
// "env.hdr", and "null.obj", a link to /dev/null. loadScene must return a
// scene or throw strata::Error; then one numeric field of the scene is set to
// a float extreme and the result must hold to the same rule.
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <stb/stb_image_write.h>  // declarations only: the implementation is image_io.cpp's

#include "core/error.h"
#include "fuzz_common.h"
#include "render/flat_scene.h"
#include "scene/keyframes.h"
#include "scene/image_io.h"
#include "scene/scene_loader.h"

namespace {

const char* kCubeObj = R"(mtllib cube.mtl
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 0 0 1
v 1 0 1
v 1 1 1
v 0 1 1
vt 0 0
vt 1 0
vt 1 1
vt 0 1
vn 0 0 -1
vn 0 0 1
f 1/1/1 4/4/1 3/3/1 2/2/1
usemtl red
f 5/1/2 6/2/2 7/3/2 8/4/2
usemtl tex
f 1/1 2/2 6/3 5/4
usemtl lamp
f 4 8 7 3
f 1 5 8 4
f 2 3 7 6
)";

const char* kCubeMtl = R"(newmtl red
Kd 0.8 0.1 0.1
newmtl tex
Kd 1 1 1
map_Kd tex.png
newmtl lamp
Ke 4 4 4
)";

std::string frameObj(float dy) {
    std::string s;
    for (int i = 0; i < 4; ++i)
        s += "v " + std::to_string(i & 1) + " " + std::to_string(dy) + " " + std::to_string(i >> 1) + "\n";
    return s + "vn 0 1 0\nf 1//1 2//1 4//1 3//1\n";
}

// Scenes whose generated geometry is large are legal but take seconds each
// under the sanitizers; the fuzzer skips them (the generators' own parameter
// checks run just the same with small sizes). Returns false to skip.
bool withinBudget(const nlohmann::json& doc) {
    if (!doc.is_object()) return true;
    auto meshes = doc.find("meshes");
    if (meshes == doc.end() || !meshes->is_array()) return true;
    if (meshes->size() > 64) return false;
    for (const auto& m : *meshes) {
        if (!m.is_object()) continue;
        auto seq = m.find("obj_sequence");
        if (seq != m.end() && seq->is_object()) {
            auto files = seq->find("files");
            if (files != seq->end() && files->is_object()) {
                auto count = files->find("count");
                if (count != files->end() && count->is_number() && count->get<double>() > 16) return false;
            }
        }
        auto gen = m.find("generator");
        if (gen == m.end() || !gen->is_string()) continue;
        std::string g = gen->get<std::string>();
        if (g != "box" && g != "plane" && g != "sphere" && g != "cornell") return false;  // 66K-175K triangles
        auto params = m.find("params");
        if (params == m.end() || !params->is_object()) continue;
        for (const char* key : {"subdivisions", "segments"}) {
            auto p = params->find(key);
            if (p != params->end() && p->is_number() && p->get<double>() > 64) return false;
        }
    }
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    strata::fuzz::quietWarnings();
    const auto& dir = strata::fuzz::fuzzDir();
    dir.write("cube.obj", kCubeObj);
    dir.write("cube.mtl", kCubeMtl);
    dir.write("f0.obj", frameObj(0.0f));
    dir.write("f1.obj", frameObj(0.5f));
    std::vector<uint8_t> rgb(4 * 4 * 3);
    for (size_t i = 0; i < rgb.size(); ++i) rgb[i] = uint8_t(i * 13);
    strata::writePngAtomic(dir.file("tex.png"), 4, 4, rgb);
    std::vector<float> env(8 * 4 * 3);
    for (size_t i = 0; i < env.size(); ++i) env[i] = 0.1f * float(i % 7);
    if (!stbi_write_hdr(dir.file("env.hdr").c_str(), 8, 4, 3, env.data())) std::abort();
    // A character device as a mesh file: read as empty ("no triangles").
    std::filesystem::create_symlink("/dev/null", dir.file("null.obj"));
    return 0;
}

namespace {

// Loads and checks one scene text (written as scene.json).
void checkScene(const std::string& text) {
    std::string path = strata::fuzz::fuzzDir().write("scene.json", text);
    try {
        strata::Scene scene = strata::loadScene(path);
        strata::FlatScene flat = strata::flattenScene(scene);
        if (flat.tris.empty() || flat.triMaterial.size() != flat.tris.size()) {
            std::fprintf(stderr, "flattenScene: %zu triangles, %zu materials\n", flat.tris.size(),
                         flat.triMaterial.size());
            std::abort();
        }
        // Animation at a few times, the extremes of the scene-time rule
        // included: the camera and every vertex stay finite.
        std::vector<strata::Vec3> pos, nrm;
        for (float t : {0.0f, 0.37f, 5.0f, 1e4f, -1e9f, 1e9f}) {
            strata::CameraPose c = strata::cameraAt(scene.camera, t);
            if (!strata::isFinite(c.position) || !strata::isFinite(c.target)) {
                std::fprintf(stderr, "cameraAt(%g) is not finite\n", t);
                std::abort();
            }
            strata::poseFlatScene(scene, flat, t, pos, nrm);
            for (const strata::Vec3& p : pos)
                if (!strata::isFinite(p)) {
                    std::fprintf(stderr, "a vertex posed at t = %g is not finite\n", t);
                    std::abort();
                }
        }
        strata::fuzz::accepted(std::to_string(scene.meshes.size()) + " meshes, " + std::to_string(flat.tris.size()) +
                               " triangles, " + std::to_string(scene.images.size()) + " images");
    } catch (const strata::Error& e) {
        strata::fuzz::refused(e);
    }
}

// Float extremes in every numeric field: of a scene that parses, one numeric
// field (chosen by the input's hash) is replaced by one of these. Over many
// inputs every field meets every extreme (issue 18: times of 1e39 and 1e300,
// texels of 3e38 and rates of 3e38 crashed or went silently wrong).
const double kExtremes[] = {3e38,  -3e38,  3.5e38, 1e39,  -1e300,       1e300,
                            1e18,  1.1e18, 1e9,    -1e9,  2147483648.0, 9223372036854775807.0,
                            1e-45, -0.0,   0.0,    1e-300};

void numericFields(nlohmann::json& j, std::vector<nlohmann::json*>& out) {
    if (j.is_number())
        out.push_back(&j);
    else if (j.is_object() || j.is_array())
        for (auto& v : j) numericFields(v, out);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    nlohmann::json doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false, /*ignore_comments=*/true);
    if (!doc.is_discarded() && !withinBudget(doc)) return -1;
    checkScene(text);
    if (doc.is_discarded()) return 0;
    std::vector<nlohmann::json*> fields;
    numericFields(doc, fields);
    if (fields.empty()) return 0;
    const size_t h = std::hash<std::string>{}(text);
    const size_t n = sizeof kExtremes / sizeof kExtremes[0];
    *fields[h % fields.size()] = kExtremes[(h / fields.size()) % n];
    if (withinBudget(doc)) checkScene(doc.dump());
    return 0;
}
