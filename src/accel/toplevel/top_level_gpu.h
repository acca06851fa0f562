// accel/toplevel/top_level_gpu.h — a two-level hierarchy built on the GPU by
// an InstancePlan, as top_level_host.h builds it on the host: the static
// BLASes in object space (again when the static key changes; the LBVH variant
// of accel.builder), one BLAS per deforming instance over its world-space
// primitive boxes, and the top level every frame: the members' world boxes
// (static: the transformed object box, or with accel.rebraid its opened
// parts' boxes, on the host: accel/toplevel/rebraid.h; deforming: one
// reduction block each over its primitives' boxes) and over them a tree
// clustered in one block (accel.cluster_top_level: top_cluster_gpu.h) or
// accel.builder's LBVH. Stages build/blas (the BLAS builds' phases add up in the LBVH's own
// stages) and build/top.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "accel/kdtree/kd_gpu.h"
#include "accel/lbvh/lbvh_gpu.h"
#include "accel/leaf_tris.h"
#include "accel/toplevel/blas_refit.h"
#include "accel/toplevel/instance_plan.h"
#include "accel/toplevel/top_level_host.h"
#include "accel/toplevel/two_level.h"
#include "gpu/device_buffer.h"
#include "gpu/launch_context.h"

namespace strata {

// A BLAS's object-space primitive boxes in device memory.
struct DeviceBoxes {
    const Aabb* boxes = nullptr;
    uint32_t count = 0;
};

class TopLevelGpu {
public:
    explicit TopLevelGpu(InstancePlan plan);

    // staticBoxes(b, ctx): static BLAS b's boxes, made on ctx's stream if need
    // be (called only when staticKey differs from the last build's). frame:
    // worldBoxes and geometry in device memory. With accel.builder kdtree
    // the BLASes are GPU kd-trees over frame.geometry's triangles (a plan of
    // triangles), each by a builder of its own.
    void build(const AccelOptions& o, const std::string& staticKey,
               const std::function<DeviceBoxes(uint32_t, const LaunchContext&)>& staticBoxes,
               const TopLevelFrame& frame, const LaunchContext& ctx);
    TwoLevelView view() const { return view_; }
    const InstancePlan& plan() const { return plan_; }
    size_t memoryBytes() const;
    // accel.rebuild = refit | auto: each deforming member's BLAS after the
    // last build (accel/toplevel/blas_refit.h), named `names[instance]`.
    std::vector<BlasRefit> blasRefits(const std::vector<std::string>& names, const AccelOptions& o);
    // The next build builds every deforming BLAS (a frame in another mode came
    // between: their trees are not the last frame's).
    void restartRefits() { fresh_ = true; }

    // Device bytes of the structures of a plan (before allocating): per BLAS an
    // LBVH over its primitives (a deforming one is rebuilt in place), the top
    // level over its members and extraLeaves opened parts (accel.rebraid),
    // their codes sorted by `sort`.
    static size_t estimateBytes(const InstancePlan& plan, MortonSort sort, size_t extraLeaves = 0);

private:
    InstancePlan plan_;
    std::vector<std::unique_ptr<LbvhBuilder>> blas_;  // per BLAS of the plan
    std::vector<std::unique_ptr<KdGpuBuilder>> blasKd_;  // per BLAS of the plan (accel.builder kdtree)
    // accel.copy_leaf_tris: per BLAS its triangles in leaf order, and whether
    // they are the current tree's (a static BLAS's stay until it is built again).
    std::vector<DeviceBuffer<LeafTri>> leafTris_;
    std::vector<bool> leafTrisCopied_;
    bool kd_ = false;
    // accel.rebraid: per static BLAS its nodes on the host (rebraid.h), read
    // once after each build of it.
    struct StaticNodes {
        std::vector<BvhNode> nodes;
        uint32_t root = 0;
        bool loaded = false;
        void download(const BvhView& v, const LaunchContext& ctx);
    };
    std::vector<StaticNodes> staticNodes_;
    TopLevelLeaves leaves_;                           // this frame's: the top level's input (rebraid.h)
    DeviceBuffer<uint32_t> boxJobs_;                  // deforming members: (first primitive, count, member slot)
    DeviceBuffer<Aabb> memberBoxes_;                  // per top-level leaf (the members, then opened parts), world space
    DeviceBuffer<InstanceView> instances_;            // per top-level leaf
    DeviceBuffer<BlasView> blasViews_;
    LbvhBuilder top_;
    DeviceBuffer<BvhNode> clusterNodes_;  // accel.cluster_top_level's top level
    DeviceBuffer<uint32_t> clusterPrims_;
    std::string staticKey_;
    bool fresh_ = true;  // the deforming BLASes' trees are not the last frame's
    TwoLevelView view_;
};

}  // namespace strata
