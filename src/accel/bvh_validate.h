// accel/bvh_validate.h — structural invariants of a BvhNode tree, checked
// against the primitive bounds it was built from; and its SAH cost.
#pragma once

#include <string>
#include <vector>

#include "accel/bvh.h"

namespace strata {

struct BvhReport {
    bool ok = true;
    std::vector<std::string> errors;  // first few problems found
    uint32_t innerNodes = 0, leaves = 0, maxDepth = 0, maxLeafSize = 0;
    float sahCost = 0;  // traversal 1, intersection 1, relative to the root area
    // peerbench's S_inner (root counted) and S_leaf, relative to the root
    // area, so its SAH(C_t, C_i) = C_t * innerSum + C_i * leafSum applies.
    double innerSum = 0, leafSum = 0;
    double peerSah() const { return 1.2 * innerSum + leafSum; }  // peerbench's SAH(1.2, 1)
};

// Checks: every node reachable from the root exactly once; every primitive in
// exactly one leaf; every child box contains the bounds of all primitives
// below it (boxes may be loose, never too small); depth within the traversal
// stack (the deep one: deeper than kBvhStackSize is allowed, traversal
// restarts those rays). Starts at bvh.root (rootIndex is not read: device
// memory). Tolerance is relative to the scene size.
BvhReport validateBvh(const BvhView& bvh, const std::vector<Aabb>& primBounds);

}  // namespace strata
