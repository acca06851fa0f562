// scene/vd_map.h — vector displacement maps: loading (PFM, Radiance HDR,
// 16-bit PNG) and the bound every patch's box is grown by.
#pragma once

#include <string>

#include "scene/scene.h"

namespace strata {

// Loads a displacement map. Values are taken as they are stored: PFM and HDR
// floats directly; 16-bit PNG channels v map to 2 v / 65535 - 1 (so [-1, 1]).
// Throws strata::Error naming the file on: a missing or unreadable file, a
// format other than these three (an 8-bit PNG has too little precision), a
// side over 16384 texels, a NaN or infinite texel (naming it), a truncated PFM.
VdMap loadVdMap(const std::string& path);

// Sets map.maxLength from the texels; throws strata::Error (naming map.path)
// if a texel is not finite or the map is empty.
void finishVdMap(VdMap& map);

}  // namespace strata
