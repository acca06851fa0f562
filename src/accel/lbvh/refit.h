// accel/lbvh/refit.h — refitting a built BVH to moved primitives
// (accel.rebuild = refit): the tree keeps its shape, every box is recomputed
// bottom-up from the new primitive boxes. Written once for both backends: the
// climb is Karras's bottom-up pass (karras.h: the same hand-over, one thread
// per leaf, the second thread up writes each node whole), over parent
// entries found from any tree's nodes (its child links), so it serves every
// Morton-order builder (one primitive per leaf: a leaf child is a sorted
// position with count 1) and leaves the nodes bit for bit as a build over the
// same boxes would have made them.
#pragma once

#include "accel/bvh.h"
#include "accel/lbvh/karras.h"
#include "accel/lbvh/node_io.h"

namespace strata {

// Node i's children's parent entries (karras.h's layout: internal node k at
// k, the leaf at sorted position j at n-1+j). parent[] starts all -1, so the
// root's entry stays -1: where the climb ends.
STRATA_HD void setParentEntries(const BvhNode& node, int i, int n, int32_t* parent) {
    if (node.leftCount > 0)
        parent[(n - 1) + node.left] = karrasParentEntry(i, false);
    else if (node.left >= 0)
        parent[node.left] = karrasParentEntry(i, false);
    if (node.rightCount > 0)
        parent[(n - 1) + node.right] = karrasParentEntry(i, true);
    else if (node.right >= 0)
        parent[node.right] = karrasParentEntry(i, true);
}

// lbvh-skip: skip-link node k's box from the refitted tree (Karras order:
// internal node k's children, or the leaf's primitive).
STRATA_HD void refitSkipNode(int k, const BvhNode* nodes, const Aabb* primBounds, StacklessNode* skip) {
    StacklessNode s = skip[k];
    const Aabb box = s.isLeaf() ? primBounds[s.primitive()] : merge(nodes[k].leftBox(), nodes[k].rightBox());
    s.set(box, s.left, s.skip);
    storeNode(&skip[k], s);
}

// accel.rebuild = auto: node i's share of the tree's SAH (C_t = C_i = 1, as
// bvh_validate.h's sahCost): its children's areas, a leaf's times its count.
// The sum over all nodes, over the root's area, is the SAH the policy watches.
STRATA_HD float sahTerms(const BvhNode& n) {
    return n.leftBox().area() * float(n.leftCount > 0 ? n.leftCount : 1) +
           n.rightBox().area() * float(n.rightCount > 0 ? n.rightCount : 1);
}
STRATA_HD float rootArea(const BvhNode& root) { return merge(root.leftBox(), root.rightBox()).area(); }

}  // namespace strata
