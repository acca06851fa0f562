// accel/toplevel/instance_plan.h — which middle-level structure ("BLAS") each
// instance of a two-level hierarchy uses. One planner for instanced mode's
// triangle meshes and for the VD patches' hierarchy, on both backends:
//   a static mesh        one BLAS in object space, shared by its instances,
//                        built again only when staticBlasKey changes
//   a deforming mesh     one BLAS per instance over its posed world-space
//                        primitives (identity transform), every frame
//   a mesh without primitives in this level: its instances are left out.
// The inputs are plain counts and boxes (render/instancing.cpp makes them
// from the scene); the builders (top_level_host.h, top_level_gpu.h) follow it.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/aabb.h"
#include "core/options.h"
#include "core/transform.h"

namespace strata {

// What an instance's local primitive 0 is in the flat arrays.
enum class PlanPrims : uint8_t { Triangles, Patches };

struct PlanMesh {
    uint32_t prims = 0;    // primitives per instance (triangles, patches); 0: not in this level
    bool deforms = false;  // posed per instance every frame
    Aabb objectBox;        // static meshes: the box of its primitives in object space
    // Static meshes: the radius of a sphere about objectBox's center holding
    // its primitives (the triangles' vertices, the patch boxes' corners:
    // SphereRadius); infinite: none known (memberWorldBox then keeps the
    // transformed object box).
    float radius = INFINITY;
    // Triangle plans with vd.middle_level unified: its primitives from here on
    // are its patches' middle-level boxes (BlasView::firstBox); ~0u: none.
    uint32_t firstBox = ~0u;
};

struct PlanInstance {
    uint32_t mesh = 0;
    uint32_t primBase = 0;   // its first primitive in the flat arrays (world-space primitive boxes too)
    uint32_t patchBase = 0;  // triangle plans with patch boxes: its first flat patch
};

struct InstancePlan {
    struct Blas {
        uint32_t mesh = 0;
        int32_t instance = -1;  // a deforming instance's own BLAS; -1: a static mesh's, shared
        uint32_t primBase = 0;  // its primitives in the flat arrays (a static mesh: its first instance's)
        uint32_t patchBase = 0;  // likewise its first flat patch (triangle plans with patch boxes)
    };
    struct Member {  // one leaf of the top level
        uint32_t instance = 0, blas = 0, primBase = 0, prims = 0, patchBase = 0;
    };
    PlanPrims kind = PlanPrims::Triangles;
    std::vector<PlanMesh> meshes;
    std::vector<Blas> blas;         // the static meshes' first (numStatic of them), then the deforming instances'
    std::vector<Member> members;    // the instances with primitives, in scene order
    std::vector<int32_t> meshBlas;  // per mesh: its shared BLAS, -1: none
    uint32_t numStatic = 0;

    bool isStatic(uint32_t blasIndex) const { return blasIndex < numStatic; }
    // vd.middle_level unified: some BLAS holds patch boxes beside its triangles.
    bool holdsPatchBoxes() const {
        for (const PlanMesh& m : meshes)
            if (m.firstBox != ~0u) return true;
        return false;
    }
    uint32_t numDeforming() const { return uint32_t(blas.size()) - numStatic; }
};

// The radius about `center` that holds every point grown into it (a
// primitive box's corners: growBox).
struct SphereRadius {
    Vec3 center;
    float squared = 0.0f;
    void grow(Vec3 p);
    void growBox(const Aabb& b);  // its farthest corner
    float radius() const;         // rounded up a little: a bound
};

// A static member's box in world space under w. tight (accel.tight_instance_boxes,
// strata's): its transformed object box clipped to its transformed sphere's box
// (an ellipsoid under scaling, whose box is exact): a sphere turned by 45
// degrees keeps its own width where the turned box's corners reach 1.41 to
// 1.73 times as far. Both hold the primitives, so their intersection does.
Aabb memberWorldBox(const Affine& w, const PlanMesh& mesh, bool tight);

InstancePlan planInstances(PlanPrims kind, std::vector<PlanMesh> meshes, const std::vector<PlanInstance>& instances);

// The options the static BLASes are built with: when the key changes they
// are built again (the builder, its Morton bits or kd-tree switches, and `boxes`: what the
// caller's object-space boxes depend on, such as the VD cull level). The
// traversal is not in it: the views are made again every frame.
std::string staticBlasKey(const AccelOptions& o, const std::string& boxes = "");

}  // namespace strata
