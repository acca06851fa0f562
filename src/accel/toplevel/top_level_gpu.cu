#include "accel/toplevel/top_level_gpu.h"

#include "accel/kdtree/kd_config.h"
#include "accel/lbvh/lbvh_memory.h"
#include "accel/lbvh/lbvh_variant.h"
#include "accel/leaf_tris_gpu.h"
#include "accel/toplevel/top_cluster.h"
#include "accel/toplevel/top_cluster_gpu.h"
#include "gpu/block_reduce.cuh"
#include "gpu/launch.cuh"

namespace strata {
namespace {

constexpr int kBoxBlock = 256;

// One block per deforming member: the union of its primitives' boxes.
// jobs: (first primitive, count, member slot) triples.
__global__ void instanceBoxesKernel(const Aabb* primBounds, const uint32_t* jobs, Aabb* out) {
    const uint32_t first = jobs[3 * blockIdx.x], count = jobs[3 * blockIdx.x + 1], slot = jobs[3 * blockIdx.x + 2];
    Aabb b;
    for (uint32_t i = threadIdx.x; i < count; i += blockDim.x) b.grow(primBounds[first + i]);
    b = blockUnion<kBoxBlock>(b);
    if (threadIdx.x == 0) out[slot] = b;
}

}  // namespace

void TopLevelGpu::StaticNodes::download(const BvhView& v, const LaunchContext& ctx) {
    nodes.resize(v.numNodes);
    root = v.root;
    if (v.numNodes)
        STRATA_CUDA_CHECK(cudaMemcpyAsync(nodes.data(), v.nodes, v.numNodes * sizeof(BvhNode),
                                          cudaMemcpyDeviceToHost, ctx.stream));
    if (v.rootIndex)  // Apetrei's or H-PLOC's root, found on the device
        STRATA_CUDA_CHECK(
            cudaMemcpyAsync(&root, v.rootIndex, sizeof(uint32_t), cudaMemcpyDeviceToHost, ctx.stream));
    STRATA_CUDA_CHECK(cudaStreamSynchronize(ctx.stream));
    loaded = true;
}

TopLevelGpu::TopLevelGpu(InstancePlan plan) : plan_(std::move(plan)) {
    std::vector<uint32_t> jobs;
    for (size_t j = 0; j < plan_.members.size(); ++j) {
        const InstancePlan::Member& mb = plan_.members[j];
        if (!plan_.isStatic(mb.blas)) jobs.insert(jobs.end(), {mb.primBase, mb.prims, uint32_t(j)});
    }
    for (size_t b = 0; b < plan_.blas.size(); ++b) blas_.push_back(std::make_unique<LbvhBuilder>());
    leafTris_.resize(plan_.blas.size());
    leafTrisCopied_.assign(plan_.blas.size(), false);
    staticNodes_.resize(plan_.numStatic);
    boxJobs_.upload(jobs);
    memberBoxes_.resize(plan_.members.size());
    instances_.resize(plan_.members.size());
    blasViews_.resize(plan_.blas.size());
    STRATA_CUDA_CHECK(cudaDeviceSynchronize());
}

size_t TopLevelGpu::estimateBytes(const InstancePlan& plan, MortonSort sort, size_t extraLeaves) {
    const size_t leaves = plan.members.size() + extraLeaves;
    // An opened part has a view of its own (a member's first opening makes two).
    // accel.cluster_top_level: a node and an index per leaf, besides the LBVH's.
    size_t b = LbvhBuilder::estimateBytes(leaves, sort) +
               leaves * (sizeof(InstanceView) + sizeof(Aabb) + sizeof(BvhNode) + sizeof(uint32_t)) +
               (plan.blas.size() + 2 * extraLeaves) * sizeof(BlasView);
    for (const InstancePlan::Blas& x : plan.blas) {
        b += LbvhBuilder::estimateBytes(plan.meshes[x.mesh].prims, sort);
        // accel.rebuild = refit | auto: a deforming BLAS's refit finds its
        // parent entries once (2n - 1) and counts visits (n - 1).
        if (x.instance >= 0) b += size_t(plan.meshes[x.mesh].prims) * 2 * sizeof(int32_t);
    }
    return b;
}

void TopLevelGpu::build(const AccelOptions& o, const std::string& staticKey,
                        const std::function<DeviceBoxes(uint32_t, const LaunchContext&)>& staticBoxes,
                        const TopLevelFrame& frame, const LaunchContext& ctx) {
    const LbvhConfig blasConfig = lbvhConfigOf(o);
    const BvhTraversal traversal = traversalOf(o);
    kd_ = o.builder == Builder::KdTree && plan_.kind == PlanPrims::Triangles;  // patches: Karras's LBVH
    const bool fresh = fresh_ || staticKey != staticKey_;  // a switch came between: no tree to refit
    fresh_ = false;
    if (!kd_) blasKd_.clear();  // their memory back after a switch to another builder
    if (kd_ && blasKd_.size() != plan_.blas.size()) {
        blasKd_.clear();
        for (size_t b = 0; b < plan_.blas.size(); ++b) blasKd_.push_back(std::make_unique<KdGpuBuilder>());
    }
    // A kd-tree BLAS over triangle range b of the frame's geometry (numTris of them).
    auto buildKd = [&](uint32_t b, uint32_t numTris) {
        const BlasGeometry& g = frame.geometry->at(b);
        blasKd_[b]->build(g.pos, g.tris, numTris, kdConfigOf(o), ctx);
    };
    // accel.copy_leaf_tris: BLAS b's triangles in its leaf order (its
    // geometry's space); not where some BLAS holds patch boxes (the unified
    // middle level's walks pass its triangles to callbacks).
    const bool copies = !kd_ && frame.geometry && copiesLeafTris(o, plan_.holdsPatchBoxes());
    auto copyLeafTris = [&](uint32_t b, uint32_t numTris) {
        const BlasGeometry& g = frame.geometry->at(b);
        leafTris_[b].resize(numTris);
        copyLeafTrisGpu(blas_[b]->view().primIndex, g.tris, g.pos, numTris, leafTris_[b].data(), ctx);
        leafTrisCopied_[b] = true;
    };
    {
        StageScope s(ctx.timer, "build/blas");  // the BLAS builds' phases add up in build/bounds, build/morton, ...
        if (staticKey != staticKey_) {          // static meshes: object space, once per builder
            for (uint32_t b = 0; b < plan_.numStatic; ++b) {
                leafTrisCopied_[b] = false;
                staticNodes_[b].loaded = false;
                if (kd_) {
                    buildKd(b, plan_.meshes[plan_.blas[b].mesh].prims);
                    continue;
                }
                const DeviceBoxes boxes = staticBoxes(b, ctx);
                blas_[b]->build(blasConfig, boxes.boxes, boxes.count, ctx);
            }
            staticKey_ = staticKey;
        }
        for (uint32_t b = 0; b < plan_.numStatic; ++b)
            if (copies && !leafTrisCopied_[b]) copyLeafTris(b, plan_.meshes[plan_.blas[b].mesh].prims);
        // Deforming instances: world space, every frame; with accel.rebuild =
        // refit | auto refitted where blas_refit.h's plan says (auto's
        // rebuilds staggered, one a frame), their SAH measured for auto.
        std::vector<BlasRefitState> states;
        for (const InstancePlan::Member& mb : plan_.members)
            if (!plan_.isStatic(mb.blas) && !kd_)
                states.push_back({blas_[mb.blas]->canRefit(blasConfig, mb.prims), blas_[mb.blas]->sahGrowth()});
        const std::vector<bool> refit = blasRefitPlan(o, states, fresh);
        size_t deforming = 0;
        for (const InstancePlan::Member& mb : plan_.members)
            if (!plan_.isStatic(mb.blas)) {
                if (kd_) {
                    buildKd(mb.blas, mb.prims);
                    continue;
                }
                LbvhBuilder& b = *blas_[mb.blas];
                if (refit[deforming++])
                    b.refit(frame.worldBoxes + mb.primBase, ctx);
                else
                    b.build(blasConfig, frame.worldBoxes + mb.primBase, mb.prims, ctx);
                if (o.rebuild == Rebuild::Auto) b.measureSah(ctx);  // read a frame or so later
                if (copies) copyLeafTris(mb.blas, mb.prims);        // the vertices moved
            }
        if (!copies)
            for (size_t b = 0; b < leafTris_.size(); ++b) {  // their memory back
                leafTris_[b].release();
                leafTrisCopied_[b] = false;
            }
    }

    std::vector<BlasView>& blas = leaves_.blas;  // the plan's BLASes' views, then the opened parts'
    blas.assign(plan_.blas.size(), BlasView{});
    for (size_t b = 0; b < blas.size(); ++b) {
        if (kd_)
            blas[b].kd = blasKd_[b]->view();
        else
            blas[b].bvh = blas_[b]->view(traversal);
        if (copies && leafTrisCopied_[b]) blas[b].bvh.leafTris = leafTris_[b].data();
        blas[b].firstBox = plan_.meshes[plan_.blas[b].mesh].firstBox;
        if (frame.geometry) {
            blas[b].pos = (*frame.geometry)[b].pos;
            blas[b].tris = (*frame.geometry)[b].tris;
        }
    }
    // The top level's leaves: the members (a deforming one's box from the
    // kernel below), and with accel.rebraid the opened static members' parts,
    // cut on the host from the static BLASes' nodes (downloaded once after
    // each build of them).
    std::vector<RebraidTree> trees;
    if (plan_.kind == PlanPrims::Triangles && rebraids(o)) {
        for (uint32_t b = 0; b < plan_.numStatic; ++b) {
            if (!staticNodes_[b].loaded) staticNodes_[b].download(blas[b].bvh, ctx);
            trees.push_back({staticNodes_[b].nodes.data(), staticNodes_[b].root});
        }
    } else {
        for (StaticNodes& n : staticNodes_) n = StaticNodes{};  // their memory back
    }
    topLevelLeaves(plan_, *frame.worldFromObject, trees, uint32_t(o.rebraid), o.tightInstanceBoxes, leaves_);
    StageScope s(ctx.timer, "build/top");
    // Pageable sources: each copy has left the host vector when the call returns.
    blasViews_.upload(blas, ctx.stream);
    instances_.upload(leaves_.instances, ctx.stream);
    memberBoxes_.upload(leaves_.boxes, ctx.stream);
    if (plan_.numDeforming())
        launch(ctx, "build/top/instance_boxes", {plan_.numDeforming(), kBoxBlock}, instanceBoxesKernel,
               frame.worldBoxes, boxJobs_.data(), memberBoxes_.data());
    Untimed phases(ctx.timer);  // the top level's build phases count under build/top
    // Clustered (accel.cluster_top_level: top_cluster.h), or accel.builder's
    // LBVH variant and Morton bits, as the BLASes; traversed with a stack (the
    // two-level walk's).
    const uint32_t leaves = uint32_t(leaves_.instances.size());
    BvhView top;
    if (clustersTopLevel(o, leaves)) {
        clusterNodes_.resize(leaves > 1 ? leaves - 1 : 1);
        clusterPrims_.resize(leaves);
        clusterTopLevelGpu(memberBoxes_.data(), leaves, clusterNodes_.data(), clusterPrims_.data(), ctx);
        top = BvhView{clusterNodes_.data(), clusterPrims_.data(), uint32_t(clusterNodes_.size()), leaves};
        top.root = clusterRootOf(leaves);
    } else {
        top_.build(lbvhConfigOf(topLevelOptions(o)), memberBoxes_.data(), leaves, ctx);
        top = top_.view();
    }
    view_ = TwoLevelView{top, instances_.data(), blasViews_.data(), leaves, kd_};
}

std::vector<BlasRefit> TopLevelGpu::blasRefits(const std::vector<std::string>& names, const AccelOptions& o) {
    std::vector<BlasRefit> out;
    for (const InstancePlan::Member& mb : plan_.members)
        if (!plan_.isStatic(mb.blas) && !kd_) {
            LbvhBuilder& b = *blas_[mb.blas];
            const uint32_t refits = b.refitsSinceBuild();
            const float growth = refits && o.rebuild == Rebuild::Auto ? b.sahGrowth() : 0.0f;
            out.push_back({mb.instance < names.size() ? names[mb.instance] : "", refits, growth});
        }
    return out;
}

size_t TopLevelGpu::memoryBytes() const {
    size_t b = top_.memoryBytes() + clusterNodes_.bytes() + clusterPrims_.bytes() + boxJobs_.bytes() +
               memberBoxes_.bytes() + instances_.bytes() + blasViews_.bytes();
    for (const auto& x : blas_) b += x->memoryBytes();
    for (const auto& x : blasKd_) b += x->memoryBytes();
    for (const auto& x : leafTris_) b += x.bytes();
    return b;
}

}  // namespace strata
