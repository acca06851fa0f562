// scene/face_area.h — the one rule the mesh loaders (OBJ, PLY) drop faces by:
// a face whose area is zero, or negligible next to the mesh's size.
#pragma once

#include <cmath>

#include "core/vec.h"

namespace strata {

// n: the face's cross product (twice its area vector); diag2: the squared
// diagonal of the mesh's bounding box.
inline bool negligibleArea(Vec3 n, double diag2) {
    const double area = 0.5 * std::sqrt(double(n.x) * n.x + double(n.y) * n.y + double(n.z) * n.z);
    return area <= 0.0 || area < 1e-12 * diag2;
}

}  // namespace strata
