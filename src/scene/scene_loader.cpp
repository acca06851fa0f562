// scene/scene_loader.cpp — the JSON scene format (docs/scene-format.md): the
// top level, the options blocks, the camera and the lights. Materials and
// meshes are in scene_meshes.cpp, instances in scene_instances.cpp.
#include "scene/scene_loader.h"

#include <filesystem>
#include <string>
#include <vector>

#include "core/error.h"
#include "scene/data_folder.h"
#include "scene/image_io.h"
#include "scene/scene_build.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

// "render": {"spp": 4} → Options::set("render.spp", "4"), type-checked
// against the option's kind first so that the message names the field.
void loadOptions(SceneBuild& b, const JsonField& root, const std::string& block) {
    if (!root.has(block.c_str())) return;
    for (const auto& [key, v] : root[block].members()) {
        std::string full = block + "." + key;
        const OptionInfo* info = Options::find(full);
        if (!info) {
            std::string known;
            for (const OptionInfo& o : Options::all())
                if (o.key.rfind(block + ".", 0) == 0)
                    known += (known.empty() ? "" : ", ") + o.key.substr(block.size() + 1);
            v.fail("unknown option (known \"" + block + "\" options: " + known + ")");
        }
        std::string text;
        switch (info->kind) {
            case OptionKind::Int: text = std::to_string(v.integer()); break;
            case OptionKind::Float:
                (void)v.number();        // type and finiteness
                text = v.json().dump();  // shortest text that reads back the same
                break;
            case OptionKind::Bool: text = v.boolean() ? "true" : "false"; break;
            case OptionKind::String:  // a choice of numbers (accel.width) may be written as one
                text = v.json().is_number_integer() ? std::to_string(v.integer()) : v.string();
                break;
        }
        try {
            b.scene.options.set(full, text);
        } catch (const Error& e) {
            v.fail(e.what());
        }
    }
}

void checkView(const JsonField& f, Vec3 position, Vec3 target) {
    if (f.has("position")) checkCoordinates(f["position"], position);
    if (f.has("target")) checkCoordinates(f["target"], target);
    Vec3 view = target - position;
    if (dot(view, view) == 0) f.fail("position and target are the same point");
}

void loadCamera(const JsonField& c, Camera& cam) {
    c.allowOnly({"position", "target", "up", "fov", "path", "loop"});
    cam.position = c.vec3("position", cam.position);
    cam.target = c.vec3("target", cam.target);
    cam.up = c.vec3("up", cam.up);
    cam.fovYDegrees = c.number("fov", cam.fovYDegrees);
    cam.loop = c.boolean("loop", cam.loop);
    if (!(cam.fovYDegrees > 0 && cam.fovYDegrees < 180))
        c["fov"].fail("expected vertical degrees in (0, 180), got " + numberText(cam.fovYDegrees));
    if (dot(cam.up, cam.up) == 0) c["up"].fail("the up vector must not be zero");
    checkView(c, cam.position, cam.target);
    if (length(cross(normalize(cam.target - cam.position), normalize(cam.up))) < 1e-6f)
        c.fail("the up vector is parallel to the viewing direction");
    if (!c.has("path")) return;
    JsonField path = c["path"];
    std::vector<float> times;
    for (size_t i = 0; i < path.size(); ++i) {
        JsonField k = path[i];
        k.allowOnly({"time", "position", "target"});
        CameraKey key;
        key.time = k["time"].sceneTime();
        key.position = k["position"].vec3();
        key.target = k["target"].vec3();
        checkView(k, key.position, key.target);
        times.push_back(key.time);
        cam.path.push_back(key);
    }
    checkIncreasingTimes(path, times);
}

void loadEnvironment(SceneBuild& b, const JsonField& e) {
    e.allowOnly({"hdr", "color", "scale", "rotation"});
    EnvironmentLight& env = b.scene.environment;
    if (e.has("hdr") == e.has("color"))
        e.fail("expected exactly one of \"hdr\" (an equirectangular map) or \"color\" (uniform radiance)");
    env.rotationDegrees = e.number("rotation", 0.0f);
    if (e.has("hdr")) {
        env.image = b.image(b.resolve(e["hdr"].string()), e["hdr"].where());
        float scale = e.number("scale", 1.0f);
        if (scale < 0) e["scale"].fail("expected a non-negative number, got " + numberText(scale));
        env.color = make3(scale);
    } else {
        if (e.has("scale")) e["scale"].fail("only used with \"hdr\" (scale the colour itself instead)");
        env.color = e.color("color", env.color);
    }
}

void loadSun(const JsonField& s, SunLight& sun) {
    s.allowOnly({"direction", "radiance"});
    Vec3 d = s.vec3("direction", sun.direction);
    if (dot(d, d) == 0) s["direction"].fail("the direction towards the sun must not be zero");
    sun.direction = normalize(d);
    sun.radiance = s.color("radiance", sun.radiance);
    sun.enabled = true;
}

}  // namespace

std::string SceneBuild::resolve(const std::string& path) const {
    if (isDataPath(path)) {
        try {
            return resolveDataPath(path);
        } catch (const Error& e) {
            throw Error(file + ": " + e.what());
        }
    }
    fs::path p(path);
    return (p.is_absolute() ? p : dir / p).lexically_normal().string();
}

int32_t SceneBuild::image(const std::string& path, const std::string& context) {
    auto it = imageByPath.find(path);
    if (it != imageByPath.end()) return it->second;
    try {
        scene.images.push_back(loadImage(path));
    } catch (const Error& e) {
        throw Error(context + ": " + e.what());
    }
    int32_t index = int32_t(scene.images.size() - 1);
    imageByPath[path] = index;
    return index;
}

Scene loadScene(const std::string& path) {
    Json doc = parseJsonFile(path);
    Scene scene;
    scene.path = path;
    SceneBuild b{scene, path, fs::path(path).parent_path(), {}, {}, {}};
    JsonField root(doc, path, "");
    root.allowOnly({"camera", "materials", "meshes", "instances", "lights", "render", "accel", "animation", "vd",
                    "view"});
    for (const char* block : {"render", "accel", "animation", "vd", "view"}) loadOptions(b, root, block);
    if (root.has("camera")) loadCamera(root["camera"], scene.camera);
    if (root.has("materials")) loadMaterials(b, root["materials"]);
    if (!root.has("meshes")) throw Error(path + ": no meshes (the scene needs a \"meshes\" array)");
    loadMeshes(b, root["meshes"]);
    loadInstances(b, root);
    if (root.has("lights")) {
        JsonField lights = root["lights"];
        lights.allowOnly({"environment", "sun"});
        if (lights.has("environment")) loadEnvironment(b, lights["environment"]);
        if (lights.has("sun")) loadSun(lights["sun"], scene.sun);
    }
    return scene;
}

}  // namespace strata
