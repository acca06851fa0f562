// tests/common/instanced_scene.h — the instanced-mode test scene (CPU and GPU
// tests): a floor, two instances of one ball (one scaled), a rigidly animated
// box, and two instances of a swaying plant (a deforming mesh: one BLAS per
// instance), plus random rays through it.
#pragma once

#include <random>
#include <vector>

#include "core/ray.h"
#include "loader_test_util.h"
#include "scene/scene_loader.h"

namespace strata::test {

inline const char* kInstancedScene =
    R"({"meshes": [{"name": "floor", "generator": "plane", "params": {"size": 8, "subdivisions": 4}},
    {"name": "ball", "generator": "sphere", "params": {"radius": 0.5, "segments": 24}},
    {"name": "box", "generator": "box", "params": {"size": [0.6, 1.2, 0.4]}},
    {"name": "plant", "generator": "sphere", "params": {"radius": 0.4, "segments": 16}}],
  "instances": [{"mesh": "floor"},
    {"mesh": "ball", "translate": [-1, 0.5, 0]}, {"mesh": "ball", "translate": [1, 0.7, -0.5], "scale": [1.5, 0.8, 1]},
    {"mesh": "box", "translate": [0, 0.6, -1], "rotate": {"axis": [0.3, 1, 0.2], "degrees": 35},
     "animation": {"keys": [{"time": 0}, {"time": 2, "translate": [0.5, 0.2, 0]}]}},
    {"mesh": "plant", "translate": [0.3, 0.4, 0.8]}, {"mesh": "plant", "translate": [-0.8, 0.4, 1.0]}],
  "camera": {"position": [0, 1.5, 4], "target": [0, 0.4, 0]},
  "lights": {"environment": {"color": [0.4, 0.45, 0.5]}, "sun": {"direction": [0.3, 1, 0.4]}}})";

inline Scene loadInstancedScene(TempDir& dir) {
    Scene s = loadScene(dir.write("s.json", kInstancedScene));
    // The "plant" sways: a deforming mesh (a BLAS per instance, world space).
    Mesh& plant = s.meshes[3];
    plant.animation = MeshAnimationKind::Sway;
    plant.sway.amplitude = 0.3f;
    plant.sway.height = 0.8f;
    plant.sway.base = -0.4f;
    return s;
}

// Rays from inside the scene's volume in random directions; half of them
// with a short interval (tmax 2), half unbounded.
inline std::vector<Ray> instancedSceneRays(size_t n, unsigned seed = 9) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<Ray> rays(n);
    for (Ray& r : rays) {
        r.org = Vec3{u(rng) * 3, 0.6f + u(rng) * 1.2f, u(rng) * 3};
        r.dir = normalize(Vec3{u(rng), u(rng), u(rng)});
        r.tmin = 1e-4f;
        r.tmax = u(rng) > 0.5f ? 2.0f : 1e30f;
    }
    return rays;
}

}  // namespace strata::test
