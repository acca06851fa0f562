#include "scene/pose.h"

#include <cmath>

namespace strata {

void poseMesh(const Mesh& m, float t, std::vector<Vec3>& pos, std::vector<Vec3>& nrm) {
    pos = m.positions;
    nrm = m.normals;
    (void)t;
}

}  // namespace strata
