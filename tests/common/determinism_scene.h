// tests/common/determinism_scene.h — the scene of the determinism tests (both
// backends in tests/backends/test_backends_render.cpp, the CPU backend's
// thread count in tests/cpu/test_determinism.cpp).
#pragma once

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "render/renderer.h"
#include "test_util.h"

namespace strata::test {

// Diffuse, conductor, dielectric and emissive surfaces, a sun and a sky, an
// animated instance and a deforming (swaying) mesh: every shading and
// animation path, small enough for the sanitizer build.
inline Scene animatedScene() {
    Mesh tree = makeSphere({0, 1, 0}, 0.6f, 16, 1);
    tree.animation = MeshAnimationKind::Sway;
    tree.sway.amplitude = 0.2f;
    tree.sway.height = 1.6f;
    Scene s = sceneWith(makeSphere({0, -100, 0}, 99.0f, 32, 0));
    s.meshes.push_back(tree);
    s.meshes.push_back(makeSphere({0, 0, 0}, 0.3f, 12, 2));
    s.meshes.push_back(makeSphere({0, 0, 0}, 0.2f, 8, 3));
    s.instances.push_back(Instance{"tree", 1, Affine{}, {}});
    Instance ball{"ball", 2, translation({0.8f, 0.3f, 0.5f}), {}};
    ball.animation.times = {0.0f, 1.0f};
    ball.animation.translation = {{0, 0, 0}, {-1.5f, 0.2f, 0}};
    ball.animation.rotation = {Quat{}, axisAngle({0, 1, 0}, 1.0f)};
    ball.animation.scale = {make3(1.0f), make3(1.2f)};
    s.instances.push_back(ball);
    s.instances.push_back(Instance{"lamp", 3, translation({-0.8f, 1.5f, 0.3f}), {}});
    Material conductor, glass, lamp;
    conductor.type = MaterialType::Conductor;
    conductor.albedo = {0.9f, 0.7f, 0.4f};
    glass.type = MaterialType::Dielectric;
    lamp.type = MaterialType::Emissive;
    lamp.emission = make3(8.0f);
    s.materials = {Material{}, conductor, glass, lamp};
    s.materialNames = {"floor", "metal", "glass", "lamp"};
    s.environment.color = {0.3f, 0.4f, 0.6f};
    s.sun.enabled = true;
    s.sun.direction = normalize(Vec3{0.4f, 1.0f, 0.2f});
    s.camera.position = {0, 1.2f, 3.5f};
    s.camera.target = {0, 0.6f, 0};
    s.options.render.width = 40;
    s.options.render.height = 30;
    s.options.render.spp = 2;
    s.options.render.bounces = 4;
    s.options.render.rrStart = 1;  // Russian roulette draws from the sampler too
    s.options.render.seed = 7;
    s.options.render.threads = 2;
    return s;
}

// What the determinism tests compare: the radiance after each of three
// animation frames (scene time advancing, the last two accumulating) and the
// tone-mapped image after the last, rendered by `make(scene)`'s renderer.
struct Frames {
    std::vector<std::vector<float>> radiance;
    std::vector<uint8_t> image;
};
template <class MakeRenderer>
Frames renderFrames(const Scene& s, MakeRenderer make) {
    Frames out;
    std::unique_ptr<Renderer> r = make(s);
    for (uint64_t f = 0; f < 3; ++f) {
        r->renderFrame(float(f) / s.options.animation.fps, f, /*accumulate=*/f > 0);
        r->finish();
        out.radiance.emplace_back();
        r->readRadiance(out.radiance.back());
    }
    r->readImage(out.image);
    return out;
}

inline bool bitIdentical(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// How many floats differ, for messages.
inline size_t differing(const std::vector<float>& a, const std::vector<float>& b) {
    size_t n = 0;
    for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) n += std::memcmp(&a[i], &b[i], sizeof(float)) != 0;
    return n + (a.size() > b.size() ? a.size() - b.size() : b.size() - a.size());
}

}  // namespace strata::test
