// check/rays.h — the rays validation traces: half camera rays through random
// pixels, half from random points in the scene's box in random directions.
#pragma once

#include <cstdint>
#include <vector>

#include "core/ray.h"
#include "scene/scene.h"

namespace strata {

std::vector<Ray> makeRays(const Scene& scene, const std::vector<Vec3>& pos, float t, uint32_t n, uint32_t seed);

}  // namespace strata
