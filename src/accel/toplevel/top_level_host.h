// accel/toplevel/top_level_host.h — a two-level hierarchy built on the host
// (CPU backend) by an InstancePlan: the static BLASes in object space (again
// when the static key changes), one BLAS per deforming instance over its
// world-space primitive boxes, and the top level (accel.builder's BVH over the
// members' world boxes), every frame. The same plan and inputs as
// top_level_gpu.h; madmann91's "builders see boxes": no scene, no mesh.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "accel/host_accel.h"
#include "accel/kdtree/kd_cpu_builder.h"
#include "accel/toplevel/blas_refit.h"
#include "accel/toplevel/instance_plan.h"
#include "accel/toplevel/rebraid.h"
#include "accel/toplevel/two_level.h"

namespace strata {

// What a BLAS's primitives index when they are triangles (BlasView's pos
// and tris); null for patches.
struct BlasGeometry {
    const Vec3* pos = nullptr;
    const Tri* tris = nullptr;
};

struct TopLevelFrame {
    const std::vector<Affine>* worldFromObject = nullptr;  // per scene instance, this frame
    const Aabb* worldBoxes = nullptr;  // per flat primitive, this frame (the deforming members' input)
    const std::vector<BlasGeometry>* geometry = nullptr;  // per BLAS of the plan, or null (patches)
};

// The options the top level is built with: accel.builder's BVH, or for the
// kd-tree (whose BLASes are kd-trees) the Karras LBVH.
inline AccelOptions topLevelOptions(const AccelOptions& o) {
    AccelOptions t = o;
    if (o.builder == Builder::KdTree) t.builder = Builder::LbvhKarras;
    t.rebuild = Rebuild::EveryFrame;  // refit applies to the deforming BLASes (accel/toplevel/blas_refit.h)
    return t;
}

class TopLevelHost {
public:
    explicit TopLevelHost(InstancePlan plan) : plan_(std::move(plan)) {}

    // staticBoxes(b, out): the object-space primitive boxes of static BLAS b
    // (called only when staticKey differs from the last build's). With
    // accel.builder kdtree the BLASes are kd-trees over frame.geometry's
    // triangles (a plan of triangles; the CPU reference builder).
    void build(const AccelOptions& o, const std::string& staticKey,
               const std::function<void(uint32_t, std::vector<Aabb>&)>& staticBoxes, const TopLevelFrame& frame) {
        buildBlases(o, staticKey, staticBoxes, frame);
        buildTop(o);
    }
    // build's two phases, for callers that time them (stages build/blas and
    // build/top): the BLASes and the members' world boxes, then the top level.
    void buildBlases(const AccelOptions& o, const std::string& staticKey,
                     const std::function<void(uint32_t, std::vector<Aabb>&)>& staticBoxes,
                     const TopLevelFrame& frame);
    void buildTop(const AccelOptions& o);
    TwoLevelView view() const;
    const InstancePlan& plan() const { return plan_; }
    size_t memoryBytes() const;
    // accel.rebuild = refit | auto: each deforming member's BLAS after the
    // last build (accel/toplevel/blas_refit.h), named `names[instance]`.
    std::vector<BlasRefit> blasRefits(const std::vector<std::string>& names, const AccelOptions& o) const;
    // The next build builds every deforming BLAS (a frame in another mode came
    // between: their trees are not the last frame's).
    void restartRefits() { fresh_ = true; }

private:
    InstancePlan plan_;
    std::vector<HostAccel> blasAccel_;  // per BLAS of the plan
    std::vector<HostKdTree> blasKd_;    // per BLAS of the plan (accel.builder kdtree)
    bool kd_ = false;                   // the BLASes are kd-trees
    TopLevelLeaves leaves_;  // this frame's (rebraid.h): the top level's input, its instances and BLAS views
    std::string staticKey_;
    bool fresh_ = true;  // the deforming BLASes' trees are not the last frame's
    HostAccel top_;
    BvhView topView_;
};

}  // namespace strata
