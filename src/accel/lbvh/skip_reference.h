// accel/lbvh/skip_reference.h — two independent CPU computations of the skip
// links that the modified Apetrei pass (accel/lbvh/apetrei_skip.h) installs,
// for the tests and `strata-cli validate`:
//   stacklessByWalk      a depth-first walk of a built BvhNode tree: a left
//                        child skips to its sibling, a right child to its
//                        parent's skip, the root to the sentinel;
//   skipsByAlgorithm2    Prokopenko & Lebrun-Grandié 2024, Algorithm 2, from
//                        each node's range in a Karras-ordered tree and the
//                        sorted keys (Karras's prefix-length δ, not the XOR).
// Both number nodes as accel/bvh_stackless.h does.
#pragma once

#include <cstdint>
#include <vector>

#include "accel/bvh.h"

namespace strata {

// The skip layout of a tree whose leaves hold one primitive each and whose
// n-1 internal nodes are numbered 0..n-2 (any LBVH): internal node k stays k,
// leaf entry e (primIndex[e]) becomes n-1+e; the root becomes node
// tree.root. Boxes come from the parents' child boxes. Empty if the tree is
// not of that shape.
std::vector<StacklessNode> stacklessByWalk(const BvhView& tree);

// Algorithm 2 for every node of a Karras-ordered LBVH (root 0), in the same
// numbering: skip[k] for internal node k, skip[n-1+e] for leaf e.
std::vector<int32_t> skipsByAlgorithm2(const BvhView& karrasTree, const std::vector<uint64_t>& sortedKeys);

}  // namespace strata
