// accel/toplevel/rebraid.h — the leaves of instanced mode's top level, and
// partial re-braiding (Benthin, Woop, Wald, Áfra 2017; accel.rebraid).
//
// Without it each member of the plan is one leaf: its instance view and its
// world box. A large static instance then sits in the top level as one box
// around everything (kitchen-3's room around its runners): a ray starting
// inside walks the room's BLAS to the far wall before it meets a runner
// standing in front of that wall.
//
// Re-braiding opens static instances' BLASes into subtrees, each a top-level
// leaf of its own: the instance's view with a BlasView whose root is the
// subtree's node (any inner node of a binary BVH is the root of a tree the
// stack traversal walks as it is). The top level then orders the room's parts
// among the runners. As in Benthin et al., nodes are opened largest
// world-space surface area first within a budget of leaves, here
// accel.rebraid leaves per static instance, and a node is opened into its two
// children. Here only a node whose children are both inner nodes (a leaf of
// the BLAS is not a tree); and the paper's merge step (a top-level subtree
// whose leaves are all one instance's parts returns to their common node) is
// not done. Deforming instances stay whole: their BLASes are rebuilt every
// frame on the device, their nodes are not on the host.
//
// The shapes of the static BLASes are read on the host (TopLevelGpu downloads
// them once per build), the cut is made per frame from the world transforms:
// both backends call topLevelLeaves.
#pragma once

#include <cstdint>
#include <vector>

#include "accel/toplevel/instance_plan.h"
#include "accel/toplevel/two_level.h"

namespace strata {

struct TopLevelLeaves {
    std::vector<InstanceView> instances;  // per leaf
    // Per leaf, world space. Member j is leaf j; a deforming member's box is
    // left empty for the builder (its primitives' union), opened parts follow
    // the members.
    std::vector<Aabb> boxes;
    // The plan's BLAS views (the caller's, per BLAS), then one per opened part.
    std::vector<BlasView> blas;
};

// What the host knows of a static BLAS for re-braiding: its nodes and root
// (nodes null: it is not opened).
struct RebraidTree {
    const BvhNode* nodes = nullptr;
    uint32_t root = 0;
};

// The most leaves re-braiding adds to a plan's top level: perStatic per
// static member, and no more than the members' BLASes can open (a BLAS over
// n primitives has fewer than n / 2 nodes whose children are both inner).
size_t rebraidBudget(const InstancePlan& plan, uint32_t perStatic);

// Fills out.instances and out.boxes from the plan and this frame's transforms,
// and appends the opened parts' views to out.blas (which holds the plan's
// BLAS views). trees: per static BLAS (the plan's first numStatic), or empty;
// perStatic: accel.rebraid; the budget, perStatic extra leaves per opened
// static member, is shared: the largest parts open first, whoever's they are.
// tightBoxes: accel.tight_instance_boxes (memberWorldBox); an opened
// member's parts take their nodes' transformed boxes clipped to it.
void topLevelLeaves(const InstancePlan& plan, const std::vector<Affine>& worldFromObject,
                    const std::vector<RebraidTree>& trees, uint32_t perStatic, bool tightBoxes, TopLevelLeaves& out);

}  // namespace strata
