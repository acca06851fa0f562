// scene/scene_instances.cpp — the "instances" block of a scene file: which
// mesh, a static translate/rotate/scale, and optional keyframed animation.
// worldFromObject(t) = animation(t) * T * R * S; evaluating animation(t) is
// the animation layer's job, not the loader's.
#include <map>
#include <string>
#include <vector>

#include "core/error.h"
#include "scene/scene_build.h"

namespace strata {
namespace {

struct Trs {
    Vec3 translate{0, 0, 0};
    Quat rotate;
    Vec3 scale{1, 1, 1};
};

Quat parseRotate(const JsonField& r) {
    r.allowOnly({"axis", "degrees"});
    Vec3 axis = r["axis"].vec3();
    if (dot(axis, axis) == 0) r["axis"].fail("the rotation axis must not be zero");
    float degrees = float(r["degrees"].number());
    return axisAngle(axis, degrees * kPi / 180.0f);
}

// A number (uniform) or [x, y, z]; no component may be zero (the transform
// must stay invertible).
Vec3 parseScale(const JsonField& f) {
    Vec3 s;
    if (f.json().is_number()) s = make3(float(f.number()));
    else if (f.json().is_array()) s = f.vec3();
    else f.expected("a number or an array of 3 numbers");
    if (s.x == 0 || s.y == 0 || s.z == 0) f.fail("a scale of zero cannot be inverted");
    return s;
}

// Missing fields are the identity.
Trs parseTrs(const JsonField& f) {
    Trs out;
    out.translate = f.vec3("translate", out.translate);
    if (f.has("rotate")) out.rotate = parseRotate(f["rotate"]);
    if (f.has("scale")) out.scale = parseScale(f["scale"]);
    return out;
}

TrsKeyframes parseAnimation(const JsonField& a) {
    a.allowOnly({"loop", "keys"});
    JsonField keys = a["keys"];
    if (keys.size() == 0) keys.fail("expected at least one key");
    TrsKeyframes out;
    for (size_t i = 0; i < keys.size(); ++i) {
        JsonField k = keys[i];
        k.allowOnly({"time", "translate", "rotate", "scale"});
        out.times.push_back(float(k["time"].number()));
        Trs key = parseTrs(k);
        out.translation.push_back(key.translate);
        out.rotation.push_back(key.rotate);
        out.scale.push_back(key.scale);
    }
    checkIncreasingTimes(keys, out.times);
    out.loop = a.boolean("loop", true);
    return out;
}

}  // namespace

void checkIncreasingTimes(const JsonField& keys, const std::vector<float>& times) {
    for (size_t i = 1; i < times.size(); ++i) {
        if (!(times[i] > times[i - 1])) {
            keys[i]["time"].fail("key times must be strictly increasing: " + numberText(times[i]) +
                                 " does not come after " + numberText(times[i - 1]) + " (key " +
                                 std::to_string(i - 1) + ")");
        }
    }
}

void loadInstances(SceneBuild& b, const JsonField& root) {
    std::vector<Instance>& out = b.scene.instances;
    if (!root.has("instances")) {
        for (size_t i = 0; i < b.scene.meshes.size(); ++i) {
            Instance inst;
            inst.name = b.scene.meshes[i].name;
            inst.mesh = int32_t(i);
            out.push_back(inst);
        }
        return;
    }
    JsonField list = root["instances"];
    if (list.size() == 0) list.fail("no instances (leave the field out for one instance per mesh)");
    std::map<std::string, int32_t> meshByName;
    std::string meshNames;
    for (size_t i = 0; i < b.scene.meshes.size(); ++i) {
        meshByName[b.scene.meshes[i].name] = int32_t(i);
        meshNames += (meshNames.empty() ? "" : ", ") + b.scene.meshes[i].name;
    }
    for (size_t i = 0; i < list.size(); ++i) {
        JsonField f = list[i];
        f.allowOnly({"mesh", "name", "translate", "rotate", "scale", "animation"});
        std::string mesh = f["mesh"].string();
        auto it = meshByName.find(mesh);
        if (it == meshByName.end()) f["mesh"].fail("unknown mesh '" + mesh + "' (meshes: " + meshNames + ")");
        Instance inst;
        inst.mesh = it->second;
        inst.name = f.string("name", mesh);
        Trs t = parseTrs(f);
        inst.transform = trs(t.translate, t.rotate, t.scale);
        if (f.has("animation")) inst.animation = parseAnimation(f["animation"]);
        out.push_back(inst);
    }
}

}  // namespace strata
