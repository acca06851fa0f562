// accel/vd/vd_cull.h — vd.pair_cull's boxes for the middle level of the VD
// patches: per patch its four quadrants' boxes (the middle level's
// primitives) and their sixteenths' (a pair is made only when the ray meets
// one), for trees up to a level, in object space; and in world space under
// an instance's transform.
#pragma once

#include <cstdint>
#include <vector>

#include "accel/vd/vd_bvh.h"
#include "core/texture.h"
#include "core/transform.h"
#include "core/vd_patch.h"

namespace strata {

// vdCullBoxes of every patch for trees up to `maxLevel` (and each patch's own
// cap), computed once per distinct patch (origin[k] == k; the others copy
// their origin's): 4 quadrants and kVdCullBoxes sixteenths per patch.
struct VdCullTable {
    std::vector<Aabb> quadrants, sixteenths;
};
VdCullTable vdCullTable(const std::vector<VdPatch>& patches, const std::vector<TextureView>& maps,
                        const std::vector<uint32_t>& origin, int maxLevel);

// A patch's cull boxes in world space: its instance's transform of the
// sixteenths, and the quadrants as their unions.
STRATA_HD void vdWorldCullBoxes(const Aabb* sixteenths, const Affine& worldFromObject, Aabb* worldSixteenths,
                                Aabb* worldQuadrants) {
    for (int q = 0; q < 4; ++q) {
        worldQuadrants[q] = Aabb{};
        for (int k = 0; k < 4; ++k) {
            worldSixteenths[4 * q + k] = transformBox(worldFromObject, sixteenths[4 * q + k]);
            worldQuadrants[q].grow(worldSixteenths[4 * q + k]);
        }
    }
}

}  // namespace strata
