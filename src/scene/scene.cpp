#include "scene/scene.h"

namespace strata {

size_t Scene::triangleCount() const {
    size_t n = 0;
    for (const Instance& inst : instances)
        if (inst.mesh >= 0 && size_t(inst.mesh) < meshes.size()) n += meshes[inst.mesh].triangles.size();
    return n;
}

size_t Scene::patchCount() const {
    size_t n = 0;
    for (const Instance& inst : instances)
        if (inst.mesh >= 0 && size_t(inst.mesh) < meshes.size() && meshes[inst.mesh].vd.map >= 0)
            n += meshes[inst.mesh].quads.size();
    return n;
}

}  // namespace strata
