// scene/scene_instances.cpp — the "instances" block of a scene file: which
// mesh, a static translate/rotate/scale, and optional keyframed animation.
// worldFromObject(t) = animation(t) * T * R * S; evaluating animation(t) is
// the animation layer's job, not the loader's.
#include <cmath>
#include <limits>
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
    if (f.json().is_number())
        s = make3(float(f.number()));
    else if (f.json().is_array())
        s = f.vec3();
    else
        f.expected("a number or an array of 3 numbers");
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
        out.times.push_back(k["time"].sceneTime());
        Trs key = parseTrs(k);
        out.translation.push_back(key.translate);
        out.rotation.push_back(key.rotate);
        out.scale.push_back(key.scale);
    }
    checkIncreasingTimes(keys, out.times);
    out.loop = a.boolean("loop", true);
    return out;
}

// Every vertex the instance can place stays within kMaxSceneCoordinate: the
// corners of the mesh's bounds (rest pose and every frame) under the static
// transform and under each key (in between, translation and scale are
// interpolated linearly and rotation keeps lengths). Computed in double, so
// the check itself cannot overflow.
void checkPlacement(const JsonField& f, const Mesh& m, const Instance& inst) {
    const double inf = std::numeric_limits<double>::infinity();
    double lo[3] = {inf, inf, inf}, hi[3] = {-inf, -inf, -inf};
    auto grow = [&](const std::vector<Vec3>& ps) {
        for (const Vec3& p : ps)
            for (int c = 0; c < 3; ++c) {
                lo[c] = std::fmin(lo[c], p[c]);
                hi[c] = std::fmax(hi[c], p[c]);
            }
    };
    grow(m.positions);
    for (const std::vector<Vec3>& frame : m.frames.positions) grow(frame);
    if (!(lo[0] <= hi[0])) return;  // no vertices: the mesh checks say so
    auto check = [&](const JsonField& where, const Affine& xf) {
        double worst = 0;
        for (int corner = 0; corner < 8; ++corner) {
            double p[3] = {corner & 1 ? hi[0] : lo[0], corner & 2 ? hi[1] : lo[1], corner & 4 ? hi[2] : lo[2]};
            for (int i = 0; i < 3; ++i) {
                double v = double(xf.m[i][0]) * p[0] + double(xf.m[i][1]) * p[1] + double(xf.m[i][2]) * p[2] +
                           double(xf.m[i][3]);
                worst = std::isnan(v) ? inf : std::fmax(worst, std::fabs(v));
            }
        }
        if (!(worst <= kMaxSceneCoordinate)) {
            where.fail("places mesh '" + m.name + "' at coordinates up to " + numberText(worst) + "; at most " +
                       numberText(kMaxSceneCoordinate) + " are supported (intersection tests square them)");
        }
    };
    check(f, inst.transform);
    const TrsKeyframes& a = inst.animation;
    for (size_t k = 0; k < a.times.size(); ++k)
        check(f["animation"]["keys"][k], compose(trs(a.translation[k], a.rotation[k], a.scale[k]), inst.transform));
}

}  // namespace

void checkCoordinates(const JsonField& f, Vec3 v) {
    for (int c = 0; c < 3; ++c)
        if (!(std::fabs(double(v[c])) <= kMaxSceneCoordinate))
            f.fail("coordinate " + numberText(v[c]) + " is beyond +-" + numberText(kMaxSceneCoordinate) +
                   " (intersection tests square coordinates)");
}

void checkIncreasingTimes(const JsonField& keys, const std::vector<float>& times) {
    for (size_t i = 1; i < times.size(); ++i) {
        if (!(times[i] > times[i - 1])) {
            keys[i]["time"].fail("key times must be strictly increasing: " + numberText(times[i]) +
                                 " does not come after " + numberText(times[i - 1]) + " (key " + std::to_string(i - 1) +
                                 ")");
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
            checkPlacement(root["meshes"][i], b.scene.meshes[i], inst);
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
        checkPlacement(f, b.scene.meshes[size_t(inst.mesh)], inst);
        out.push_back(inst);
    }
}

}  // namespace strata
