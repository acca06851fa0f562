// accel/lbvh/hploc_host.h — H-PLOC on the CPU (the rule of accel/lbvh/
// hploc.h, written sequentially): the CPU backend's hploc builder and the
// reference the GPU builder is tested against (the same tree, node for
// node: hploc.h's numbering).
#pragma once

#include <cstdint>
#include <vector>

#include "accel/bvh.h"

namespace strata {

// From the LBVH that Apetrei's pass built over the sorted leaves (its nodes
// and root: the ranges H-PLOC merges in), the H-PLOC tree: n-1 BvhNodes
// numbered as hploc.h says, leaves as sorted positions (count 1), the root
// returned (0 for one leaf, whose root holds it alone).
uint32_t buildHplocFromRanges(const std::vector<BvhNode>& apetreiNodes, uint32_t apetreiRoot,
                              const std::vector<Aabb>& primBounds, const std::vector<uint32_t>& sortedPrim,
                              std::vector<BvhNode>& nodes);

}  // namespace strata
