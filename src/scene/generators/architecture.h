// scene/generators/architecture.h — building parts of the atrium: classical
// columns (lathe base and capital, fluted shaft), arcade walls with
// semicircular arches, balustrade railings, hanging banners, and turned vases.
#pragma once

#include "scene/generators/mesh_builder.h"

namespace strata {

// A column standing at `base` (its plinth's bottom centre), `height` tall
// from the plinth's bottom to the abacus' top, shaft radius `radius`.
// `segments` around for the lathe parts; the shaft has `flutes` grooves.
struct ColumnStyle {
    float height = 4.0f;
    float radius = 0.26f;
    int segments = 32;
    int flutes = 16;
    int shaftSides = 64;
    int shaftRings = 6;
    int torusSteps = 6;    // profile steps of the base's large torus (the others get one fewer)
    int echinusSteps = 7;  // profile steps of the capital's flare
};
void addColumn(MeshBuilder& b, Vec3 base, const ColumnStyle& style);
// Half the width of a column's abacus (the square block its arches spring from).
float abacusHalfWidth(const ColumnStyle& style);

// A wall in the plane z = zc, `thickness` deep, between x0 and x1 and heights
// ys (the springing line: the abacus tops) and yt, pierced by one
// semicircular arch per bay. `piers` are the x of the bay boundaries (column
// centres, ascending); each arch spans its bay less `halfPier` on both sides.
// `arcSteps` (a multiple of 4) segments per arch.
void addArcadeWall(MeshBuilder& b, const std::vector<float>& piers, float zc, float thickness, float ys, float yt,
                   float halfPier, int arcSteps);

// A balustrade from x0 to x1 along z = zc standing on y = y0: base rail,
// turned balusters every `spacing`, round handrail at y0 + height.
void addRailing(MeshBuilder& b, float x0, float x1, float zc, float y0, float height, float spacing);

// A cloth banner hanging from a rod centred at `top` (width along +X),
// `length` down, bulging towards `facing` (+1: +Z, -1: -Z) with `folds`
// vertical folds; cols x rows cells. Its front faces `facing`.
void addBanner(MeshBuilder& b, Vec3 top, float width, float length, float facing, int folds, int cols, int rows);

// A turned vase (a lathe with a lip and a hollow inside) standing at `base`.
void addVase(MeshBuilder& b, Vec3 base, float height, float radius, int segments, int profileSteps);

}  // namespace strata
