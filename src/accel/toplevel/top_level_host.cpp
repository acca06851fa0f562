#include "accel/toplevel/top_level_host.h"

#include "accel/kdtree/kd_config.h"
#include "accel/lbvh/lbvh_host.h"
#include "accel/toplevel/top_cluster.h"

namespace strata {

void TopLevelHost::buildBlases(const AccelOptions& o, const std::string& staticKey,
                               const std::function<void(uint32_t, std::vector<Aabb>&)>& staticBoxes,
                               const TopLevelFrame& frame) {
    // kd-tree BLASes over triangles; a plan of patches keeps BVHs (Karras's
    // under the kd-tree, as on the GPU: topLevelOptions).
    kd_ = o.builder == Builder::KdTree && plan_.kind == PlanPrims::Triangles;
    const bool fresh = fresh_ || staticKey != staticKey_;  // a switch came between: no tree to refit
    fresh_ = false;
    const AccelOptions bvhOptions = plan_.kind == PlanPrims::Patches ? topLevelOptions(o) : o;
    blasAccel_.resize(kd_ ? 0 : plan_.blas.size());  // only the builder's own (a switch frees the other's)
    blasKd_.resize(kd_ ? plan_.blas.size() : 0);
    // A kd-tree BLAS over triangle range b of the frame's geometry (numTris of them).
    auto buildKd = [&](uint32_t b, uint32_t numTris) {
        const BlasGeometry& g = frame.geometry->at(b);
        blasKd_[b] = buildKdTreeCpu(g.pos, g.tris, numTris, kdConfigOf(o));
    };
    if (staticKey != staticKey_) {  // static meshes: object space, shared by their instances
        std::vector<Aabb> boxes;
        for (uint32_t b = 0; b < plan_.numStatic; ++b) {
            if (kd_) {
                buildKd(b, plan_.meshes[plan_.blas[b].mesh].prims);
                continue;
            }
            boxes.clear();
            staticBoxes(b, boxes);
            buildOrRefitHostAccel(boxes, bvhOptions, false, blasAccel_[b]);  // built once, never refitted
        }
        staticKey_ = staticKey;
    }
    // accel.copy_leaf_tris: a BLAS's triangles in its leaf order (its
    // geometry's space); a static BLAS's again only when built or switched.
    // Not where some BLAS holds patch boxes (the unified middle level's
    // walks pass its triangles to callbacks).
    const bool mixed = plan_.holdsPatchBoxes();
    auto copyLeafTris = [&](uint32_t b, uint32_t numTris) {
        if (kd_ || !frame.geometry) return;
        const BlasGeometry& g = frame.geometry->at(b);
        copyHostLeafTris(bvhOptions, mixed, g.pos, g.tris, numTris, blasAccel_[b]);
    };
    for (uint32_t b = 0; b < plan_.numStatic; ++b)
        if (!kd_ && blasAccel_[b].leafTris.empty() == copiesLeafTris(bvhOptions, mixed))
            copyLeafTris(b, plan_.meshes[plan_.blas[b].mesh].prims);
    // accel.rebuild = refit | auto: which deforming BLASes refit this frame
    // (blas_refit.h: auto's rebuilds staggered, one a frame).
    std::vector<BlasRefitState> states;
    for (const InstancePlan::Member& mb : plan_.members)
        if (!plan_.isStatic(mb.blas) && !kd_) {
            const HostAccel& a = blasAccel_[mb.blas];
            states.push_back({a.canRefit(bvhOptions, mb.prims), a.sahGrowth()});
        }
    const std::vector<bool> refit = blasRefitPlan(bvhOptions, states, fresh);
    std::vector<BlasView>& blas = leaves_.blas;  // the plan's BLASes' views, then the opened parts'
    blas.assign(plan_.blas.size(), BlasView{});
    for (size_t b = 0; b < plan_.blas.size(); ++b) {
        blas[b].firstBox = plan_.meshes[plan_.blas[b].mesh].firstBox;
        if (frame.geometry) {
            blas[b].pos = (*frame.geometry)[b].pos;
            blas[b].tris = (*frame.geometry)[b].tris;
        }
    }
    size_t deforming = 0;
    for (const InstancePlan::Member& mb : plan_.members)
        if (!plan_.isStatic(mb.blas)) {  // its posed primitives in world space, every frame
            std::vector<Aabb> b(frame.worldBoxes + mb.primBase, frame.worldBoxes + mb.primBase + mb.prims);
            if (kd_)
                buildKd(mb.blas, mb.prims);
            else
                buildOrRefitHostAccel(b, bvhOptions, refit[deforming++], blasAccel_[mb.blas]);
            copyLeafTris(mb.blas, mb.prims);  // the vertices moved
        }
    for (size_t b = 0; b < plan_.blas.size(); ++b)
        if (kd_)
            blas[b].kd = blasKd_[b].view();
        else
            blas[b].bvh = blasAccel_[b].view(bvhOptions);
    // The top level's leaves: the members, and with accel.rebraid the opened
    // static members' parts (the static BLASes' nodes are on the host).
    std::vector<RebraidTree> trees;
    if (plan_.kind == PlanPrims::Triangles && rebraids(o))
        for (uint32_t b = 0; b < plan_.numStatic; ++b) trees.push_back({blas[b].bvh.nodes, rootOf(blas[b].bvh)});
    topLevelLeaves(plan_, *frame.worldFromObject, trees, uint32_t(o.rebraid), o.tightInstanceBoxes, leaves_);
    for (size_t j = 0; j < plan_.members.size(); ++j) {
        const InstancePlan::Member& mb = plan_.members[j];
        if (!plan_.isStatic(mb.blas))
            for (uint32_t k = 0; k < mb.prims; ++k) leaves_.boxes[j].grow(frame.worldBoxes[mb.primBase + k]);
    }
}

// The top level is clustered (accel.cluster_top_level: top_cluster.h) or
// built by accel.builder too (an LBVH variant or the binned SAH; Karras's
// LBVH under kd-trees: topLevelOptions), and traversed with a stack: the
// two-level walk's (two_level.h).
void TopLevelHost::buildTop(const AccelOptions& o) {
    if (clustersTopLevel(o, leaves_.boxes.size())) {
        top_ = HostAccel{};
        top_.bvh = clusterTopLevel(leaves_.boxes);
    } else {
        buildHostAccel(leaves_.boxes, topLevelOptions(o), top_);
    }
    topView_ = top_.bvh.view();
}

std::vector<BlasRefit> TopLevelHost::blasRefits(const std::vector<std::string>& names, const AccelOptions& o) const {
    std::vector<BlasRefit> out;
    for (const InstancePlan::Member& mb : plan_.members)
        if (!plan_.isStatic(mb.blas) && mb.blas < blasAccel_.size()) {
            const HostAccel& a = blasAccel_[mb.blas];
            const float growth = a.refits && o.rebuild == Rebuild::Auto ? a.sahGrowth() : 0.0f;
            out.push_back({mb.instance < names.size() ? names[mb.instance] : "", a.refits, growth});
        }
    return out;
}

TwoLevelView TopLevelHost::view() const {
    TwoLevelView v;
    v.top = topView_;
    v.instances = leaves_.instances.data();
    v.blas = leaves_.blas.data();
    v.numInstances = uint32_t(leaves_.instances.size());
    v.kdBlas = kd_;
    return v;
}

size_t TopLevelHost::memoryBytes() const {
    size_t b = top_.bytes();  // with its skip links (lbvh-skip)
    for (const HostAccel& a : blasAccel_) b += a.bytes();
    for (const HostKdTree& k : blasKd_) b += k.nodes.size() * sizeof(KdNode) + k.primIndex.size() * sizeof(uint32_t);
    return b;
}

}  // namespace strata
