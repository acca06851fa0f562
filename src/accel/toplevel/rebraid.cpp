#include "accel/toplevel/rebraid.h"

#include <algorithm>
#include <queue>

namespace strata {
namespace {

// A member's instance view before its transform: its BLAS and where its local
// primitives are in the flat arrays.
InstanceView memberView(const InstancePlan& plan, const InstancePlan::Member& mb) {
    InstanceView iv;
    iv.blas = mb.blas;
    if (plan.kind == PlanPrims::Triangles) {
        iv.triBase = mb.primBase;
        iv.patchBase = mb.patchBase;  // vd.middle_level unified: its patch boxes' patches
    } else {
        iv.patchBase = mb.primBase;
    }
    return iv;
}

Aabb nodeBox(const BvhNode& n) {
    Aabb b = n.leftBox();
    if (n.right >= 0) b.grow(n.rightBox());
    return b;
}

// A node is opened into its children only when both are inner nodes.
bool opens(const BvhNode& n) { return n.leftCount == 0 && n.rightCount == 0 && n.right >= 0; }

struct Part {  // a top-level leaf that is an opened static member's subtree
    float area;
    uint32_t leaf;
    uint32_t node;
    uint32_t member;
    bool operator<(const Part& o) const {  // the queue's top: largest area, then first leaf
        return area != o.area ? area < o.area : leaf > o.leaf;
    }
};

}  // namespace

size_t rebraidBudget(const InstancePlan& plan, uint32_t perStatic) {
    size_t budget = 0, opens = 0;
    for (const InstancePlan::Member& mb : plan.members)
        if (plan.isStatic(mb.blas)) {
            budget += perStatic;
            opens += mb.prims / 2;
        }
    return std::min(budget, opens);
}

void topLevelLeaves(const InstancePlan& plan, const std::vector<Affine>& worldFromObject,
                    const std::vector<RebraidTree>& trees, uint32_t perStatic, bool tightBoxes, TopLevelLeaves& out) {
    const size_t members = plan.members.size();
    out.instances.assign(members, InstanceView{});
    out.boxes.assign(members, Aabb{});
    std::priority_queue<Part> open;
    size_t budget = 0;
    std::vector<Aabb> whole(members);  // each static member's own world box (memberWorldBox)
    for (size_t j = 0; j < members; ++j) {
        const InstancePlan::Member& mb = plan.members[j];
        InstanceView& iv = out.instances[j] = memberView(plan, mb);
        if (!plan.isStatic(mb.blas)) continue;  // identity transform (world space), the box the builder's
        const Affine& w = worldFromObject.at(mb.instance);
        iv.objectFromWorld = inverse(w);
        out.boxes[j] = whole[j] = memberWorldBox(w, plan.meshes[plan.blas[mb.blas].mesh], tightBoxes);
        const bool opened = perStatic > 0 && mb.blas < trees.size() && trees[mb.blas].nodes;
        if (!opened) continue;
        const RebraidTree& t = trees[mb.blas];
        out.boxes[j] = intersection(whole[j], transformBox(w, nodeBox(t.nodes[t.root])));
        open.push({out.boxes[j].area(), uint32_t(j), t.root, uint32_t(j)});
        budget += perStatic;
    }
    // Open the largest part while the budget lasts: its leaf takes the left
    // child, a new leaf the right one, each with a view rooted there.
    for (size_t added = 0; added < budget && !open.empty();) {
        const Part p = open.top();
        open.pop();
        const InstancePlan::Member& mb = plan.members[p.member];
        const RebraidTree& t = trees[mb.blas];
        const BvhNode& n = t.nodes[p.node];
        if (!opens(n)) continue;  // it stays one leaf
        const Affine& w = worldFromObject[mb.instance];
        auto rooted = [&](uint32_t leaf, int32_t node, const Aabb& objectBox) {
            InstanceView& iv = out.instances[leaf];
            if (iv.blas < plan.blas.size()) {  // the whole BLAS's view: a view of its own from here on
                const BlasView whole = out.blas[iv.blas];
                out.blas.push_back(whole);
                iv.blas = uint32_t(out.blas.size() - 1);
            }
            BvhView& v = out.blas[iv.blas].bvh;
            v.root = uint32_t(node);
            v.rootIndex = nullptr;
            v.skipNodes = nullptr;  // the skip links start at the whole tree's root
            v.numSkipNodes = 0;
            v.traversal = BvhTraversal::Stack;
            out.boxes[leaf] =
                intersection(whole[p.member], transformBox(w, objectBox));  // a part lies inside its member
            open.push({out.boxes[leaf].area(), leaf, uint32_t(node), p.member});
        };
        const InstanceView same = out.instances[p.leaf];
        out.instances.push_back(same);  // the right child's leaf, the same instance
        out.boxes.emplace_back();
        const uint32_t right = uint32_t(out.instances.size() - 1);
        out.instances[right].blas = mb.blas;  // a view of its own in rooted
        rooted(p.leaf, n.left, n.leftBox());
        rooted(right, n.right, n.rightBox());
        ++added;
    }
}

}  // namespace strata
