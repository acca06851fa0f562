// accel/lbvh/lbvh_compare.h — comparisons of built LBVHs, for the tests,
// `strata-cli validate` and the LBVH benchmark's check: bit-for-bit node
// arrays, Karras's hierarchy against Apetrei's (the same tree in another
// node ordering), and any two trees walked from their roots.
#pragma once

#include <string>
#include <vector>

#include "accel/cpu/sah_builder.h"

namespace strata {

// Nodes that differ bit for bit (plus the difference in length).
size_t countDifferentNodes(const std::vector<BvhNode>& a, const std::vector<BvhNode>& b);
size_t countDifferentNodes(const std::vector<StacklessNode>& a, const std::vector<StacklessNode>& b);

// "" when `apetrei` is `karras` renumbered as Apetrei does (node = split:
// Karras node k is Apetrei node karras.nodes[k].left) with the root stored;
// otherwise what differs first.
std::string compareUpToApetreiOrder(const HostBvh& karras, const HostBvh& apetrei);

// "" when both are the same tree read from their roots (the same child boxes
// bit for bit, leaves and leaf order), whatever their node numbering (H-PLOC
// numbers nodes as the GPU's threads make them); otherwise how many nodes
// differ and the first.
std::string compareFromRoots(const HostBvh& a, const HostBvh& b);

}  // namespace strata
