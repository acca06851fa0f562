#include "check/rays.h"

#include <random>

#include "render/flat_scene.h"

namespace strata {

std::vector<Ray> makeRays(const Scene& scene, const std::vector<Vec3>& pos, float t, uint32_t n, uint32_t seed) {
    Aabb box;
    for (const Vec3& p : pos) box.grow(p);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    CameraView cam = makeCameraView(scene, t, scene.options.render.width, scene.options.render.height);
    std::vector<Ray> rays(n);
    for (uint32_t i = 0; i < n; ++i) {
        Ray& r = rays[i];
        if (i % 2 == 0) {  // camera rays through random pixels
            r.org = cam.position;
            r.dir = normalize(cam.forward + cam.right * (2 * u(rng) - 1) + cam.up * (1 - 2 * u(rng)));
        } else {  // rays from random points inside the scene box
            r.org = box.lo + box.extent() * Vec3{u(rng), u(rng), u(rng)};
            r.dir = normalize(Vec3{u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f});
        }
    }
    return rays;
}

}  // namespace strata
