// core/geometry.h — the indexed primitives every layer shares: a triangle's
// and a quad's vertex indices (scene meshes, the flat scene, every builder).
#pragma once

#include <cstdint>

namespace strata {

struct Tri {
    uint32_t v[3];
};

// Corners in patch order: (s,t) = (0,0), (1,0), (1,1), (0,1).
struct Quad {
    uint32_t v[4];
};

}  // namespace strata
