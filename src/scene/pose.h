// scene/pose.h — a mesh's object-space positions and normals at scene time t
// (CPU reference of the GPU animate stage).
#pragma once

#include <vector>

#include "scene/scene.h"

namespace strata {

void poseMesh(const Mesh& m, float t, std::vector<Vec3>& pos, std::vector<Vec3>& nrm);

}  // namespace strata
