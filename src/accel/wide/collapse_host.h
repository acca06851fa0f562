// accel/wide/collapse_host.h — the CWBVH on the CPU: the binary tree
// collapsed with the GPU's per-node step (accel/wide/collapse.h), one wide
// node after another; and the invariants the tests and `validate` check.
#pragma once

#include <string>
#include <vector>

#include "accel/bvh.h"
#include "accel/wide/cwbvh.h"
#include "core/options.h"

namespace strata {

struct WideCost;  // accel/wide/collapse_sah.h

struct HostCwbvh {
    std::vector<CwbvhNode> nodes;
    std::vector<uint32_t> primIndex;
    CwbvhView view() const {
        return CwbvhView{nodes.data(), primIndex.data(), uint32_t(nodes.size()), uint32_t(primIndex.size())};
    }
    size_t bytes() const { return nodes.capacity() * sizeof(CwbvhNode) + primIndex.capacity() * sizeof(uint32_t); }
};

// The wide tree of `bvh` (its root: rootOf(bvh), host memory), collapsed
// as `how` says. Throws Error for a leaf of more than kCwbvhMaxBinaryLeaf
// entries.
HostCwbvh collapseToCwbvh(const BvhView& bvh, WideCollapse how);

// The SAH-optimal collapse's bottom-up pass (collapse_sah.h): every binary
// node's C(n, 1..8) and primitive count, children before parents.
std::vector<WideCost> wideCostsOf(const BvhView& bvh);

// "" when a and b are the same tree read from node 0 (node contents,
// leaves' primitives in slot order; node and leaf entry numbering may
// differ: the GPU numbers them as its threads make them), else the first
// difference.
std::string compareCwbvhFromRoots(const HostCwbvh& a, const HostCwbvh& b);

struct CwbvhReport {
    bool ok = true;
    std::vector<std::string> errors;  // the first few problems
    uint32_t nodes = 0, maxDepth = 0, leafSlots = 0;
    double childrenPerNode = 0;  // filled slots per node
    // validate's model (C_t = C_i = 1, areas over the root's, the root not
    // counted): the quantized boxes a traversal tests.
    float sahCost = 0;
};

// Checks: every node reachable from node 0 exactly once, inner children
// consecutive from childBase, every primitive in exactly one leaf slot, the
// leaves' entries within the node's range, every quantized child box holds
// the bounds of everything below it, depth within kBvhDeepStackSize.
CwbvhReport validateCwbvh(const CwbvhView& w, const std::vector<Aabb>& primBounds);

}  // namespace strata
