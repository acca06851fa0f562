#include "scene/keyframes.h"

#include <algorithm>
#include <cmath>

namespace strata {

float trackTime(const std::vector<float>& times, bool loop, float t) {
    if (times.empty()) return t;
    float t0 = times.front(), t1 = times.back();
    if (!(t1 > t0)) return t0;
    if (loop) {
        float span = t1 - t0;
        float u = std::fmod(t - t0, span);
        if (u < 0) u += span;
        return t0 + u;
    }
    return std::clamp(t, t0, t1);
}

namespace {
// Index k and fraction f with times[k] <= t <= times[k+1].
void bracket(const std::vector<float>& times, float t, size_t& k, float& f) {
    if (times.size() < 2) {
        k = 0;
        f = 0;
        return;
    }
    auto it = std::upper_bound(times.begin(), times.end(), t);
    size_t hi = std::min<size_t>(std::max<size_t>(size_t(it - times.begin()), 1), times.size() - 1);
    k = hi - 1;
    float span = times[hi] - times[k];
    f = span > 0 ? std::clamp((t - times[k]) / span, 0.0f, 1.0f) : 0.0f;
}
}  // namespace

Affine evaluateTrs(const TrsKeyframes& key, float t) {
    if (key.empty()) return Affine{};
    float lt = trackTime(key.times, key.loop, t);
    size_t k;
    float f;
    bracket(key.times, lt, k, f);
    size_t k1 = std::min(k + 1, key.times.size() - 1);
    Vec3 tr = key.translation.empty() ? Vec3{} : lerp(key.translation[k], key.translation[k1], f);
    Quat q = key.rotation.empty() ? Quat{} : nlerp(key.rotation[k], key.rotation[k1], f);
    Vec3 sc = key.scale.empty() ? make3(1.0f) : lerp(key.scale[k], key.scale[k1], f);
    return trs(tr, q, sc);
}

Affine instanceTransformAt(const Instance& inst, float t) {
    if (inst.animation.empty()) return inst.transform;
    return compose(evaluateTrs(inst.animation, t), inst.transform);
}

CameraPose cameraAt(const Camera& cam, float t) {
    CameraPose p{cam.position, cam.target, cam.up, cam.fovYDegrees};
    if (cam.path.empty()) return p;
    std::vector<float> times;
    for (const CameraKey& k : cam.path) times.push_back(k.time);
    float lt = trackTime(times, cam.loop, t);
    size_t k;
    float f;
    bracket(times, lt, k, f);
    size_t k1 = std::min(k + 1, times.size() - 1);
    p.position = lerp(cam.path[k].position, cam.path[k1].position, f);
    p.target = lerp(cam.path[k].target, cam.path[k1].target, f);
    return p;
}

}  // namespace strata
