#include "scene/scene.h"

namespace strata {

size_t Scene::triangleCount() const {
    size_t n = 0;
    for (const Instance& inst : instances)
        if (inst.mesh >= 0 && size_t(inst.mesh) < meshes.size()) n += meshes[inst.mesh].triangles.size();
    return n;
}

}  // namespace strata
