// render/ray_order.h — render.sort_rays (strata's): a bounce's rays ordered
// by where they start and where they go before they are traced, so that the
// threads of a warp walk nearby parts of the tree together. The key
// interleaves the bits of the ray's origin (in the scene's box) and of its
// direction, kRayOrderBits per coordinate, as Morton codes interleave a
// point's: six coordinates, 24 bits. H200 measurements (docs/perf.md,
// "Bounce rays in order"): 4 bits a coordinate beat 3 and 5, and an
// origin-only key or direction above origin traced slower.
#pragma once

#include <cstdint>

#include "render/scene_view.h"

namespace strata {

constexpr int kRayOrderBits = 4;                     // per coordinate
constexpr int kRayOrderKeyBits = 6 * kRayOrderBits;  // what the sort looks at

// The box the origins are quantised in: the structure's root box (flat
// tree, instanced top level or kd-tree), or the unit cube when there is none.
STRATA_HD Aabb rayOrderBox(const SceneView& s) {
    if (s.kd.numNodes) return s.kd.bounds;
    const BvhView& v = s.tl.numInstances ? s.tl.top : s.bvh;
    if (!v.numNodes) return Aabb{{-1, -1, -1}, {1, 1, 1}};
    const NodeBoxes n = loadNode(v.nodes, int32_t(rootOf(v)));
    Aabb b{n.lLo, n.lHi};
    if (n.right >= 0) b.grow(Aabb{n.rLo, n.rHi});
    return b;
}

STRATA_HD uint32_t rayOrderLevel(float x, float lo, float hi) {
    constexpr float levels = float(1u << kRayOrderBits);
    const float u = (x - lo) / fmaxf(hi - lo, 1e-30f) * levels;
    return uint32_t(fminf(fmaxf(u, 0.0f), levels - 1.0f));  // NaN: level 0
}

// The ray's key: bit b of coordinate d at 6b + d (direction x, y, z, then
// origin x, y, z), so the sort orders by the coarsest cell of all six first.
STRATA_HD uint32_t rayOrderKey(const Ray& r, const Aabb& box) {
    const uint32_t q[6] = {rayOrderLevel(r.dir.x, -1.0f, 1.0f),        rayOrderLevel(r.dir.y, -1.0f, 1.0f),
                           rayOrderLevel(r.dir.z, -1.0f, 1.0f),        rayOrderLevel(r.org.x, box.lo.x, box.hi.x),
                           rayOrderLevel(r.org.y, box.lo.y, box.hi.y), rayOrderLevel(r.org.z, box.lo.z, box.hi.z)};
    uint32_t k = 0;
    for (int b = 0; b < kRayOrderBits; ++b)
        for (int d = 0; d < 6; ++d) k |= ((q[d] >> b) & 1u) << (6 * b + d);
    return k;
}

}  // namespace strata
