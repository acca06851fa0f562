// scene/generators/kitchen_parts.h — the pieces of the kitchen: furniture and
// appliances (kitchen_furniture.cpp), tableware, pots and the lamp
// (kitchenware.cpp). Furniture is built in a local frame (x along the run or
// across the piece, z towards the room, y up); callers place it with a
// ScopedTransform. Tableware takes the point it stands on.
#pragma once

#include "scene/generators/mesh_builder.h"

namespace strata {

struct KitchenMaterials {
    int32_t wall, floorWhite, floorBlack, ceiling, cabinet, countertop, wood, steel, appliance, black, ceramic, copper,
        glass, fruitRed, fruitOrange, lampShade, lampGlow, frame;
};

// Detail of the lathe-turned and swept parts (segments around, profile steps).
struct KitchenDetail {
    int legSegments = 20, legSteps = 2;  // turned table and chair legs
    int wareSegments = 48;               // plates, bowls, cups, pots, jars
    int burnerSegments = 40;
};

// A run of base cabinets `length` long (drawers over doors), countertop on
// top. With sinkAt >= 0 a steel basin and tap sit at that x; with stoveAt >= 0
// a cooktop with four burners and an oven below.
void addBaseCabinets(MeshBuilder& b, const KitchenMaterials& m, const KitchenDetail& d, float length, float sinkAt,
                     float stoveAt);
// Wall cabinets hung at 1.45..2.2 m.
void addWallCabinets(MeshBuilder& b, const KitchenMaterials& m, float length);
// A fridge, 0.8 m wide, 0.68 m deep, 1.85 m tall, front at z = 0.68.
void addFridge(MeshBuilder& b, const KitchenMaterials& m);
// A table centred at the origin, `w` x `dd`, 0.76 m tall, turned legs.
void addTable(MeshBuilder& b, const KitchenMaterials& m, const KitchenDetail& d, float w, float dd);
// A chair centred at the origin facing +Z (the back at -Z).
void addChair(MeshBuilder& b, const KitchenMaterials& m, const KitchenDetail& d);

// A turned leg profile (r, y) from the floor up to `height`.
std::vector<Vec2> turnedLegProfile(float height, float radius, int steps);

void addPlate(MeshBuilder& b, Vec3 at, float radius, int segments);
void addBowl(MeshBuilder& b, Vec3 at, float radius, int segments);
void addCup(MeshBuilder& b, Vec3 at, float radius, int segments);
// A pot (steel or copper body, two side handles), optionally with a lid.
void addPot(MeshBuilder& b, const KitchenMaterials& m, Vec3 at, float radius, float height, bool lid, int segments);
void addJar(MeshBuilder& b, const KitchenMaterials& m, Vec3 at, float radius, float height, int segments);
// A ring burner on a cooktop.
void addBurner(MeshBuilder& b, Vec3 at, float radius, int segments);
// A ceiling lamp hanging from `ceiling` down `drop`: cord, shade (whose
// inside is the emissive material) and bulb.
void addLamp(MeshBuilder& b, const KitchenMaterials& m, Vec3 ceiling, float drop, int segments);

}  // namespace strata
