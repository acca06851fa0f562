// accel/kdtree/kd_layout.h — the compact kd-tree shared by the CPU reference
// builder, the GPU builder (Zhou et al. 2008) and both backends' traversal.
//
// One node is 8 bytes, two 32-bit words:
//   inner: a = split position (float bits), b = axis (0..2) | leftChild << 2
//   leaf:  a = first entry in primIndex,    b = 3          | count     << 2
// The two children of an inner node are adjacent (right = left + 1), so a
// builder that allocates children in pairs (as the GPU builder does per level)
// needs no second index. Node 0 is the root; the root cell is `bounds`.
// A child's cell is its parent's cell cut at the split plane; a primitive is
// referenced by every leaf whose cell it overlaps (it may be referenced by
// more: leaves may be conservative). An empty tree has numNodes == 0.
#pragma once

#include <cstdint>

#include "core/aabb.h"
#include "core/ray.h"

namespace strata {

struct alignas(8) KdNode {
    uint32_t a = 0, b = 3;

    STRATA_HD bool isLeaf() const { return (b & 3u) == 3u; }
    STRATA_HD int axis() const { return int(b & 3u); }
    STRATA_HD float split() const { return bitsFloat(a); }
    STRATA_HD uint32_t leftChild() const { return b >> 2; }
    STRATA_HD uint32_t rightChild() const { return (b >> 2) + 1; }
    STRATA_HD uint32_t firstPrim() const { return a; }
    STRATA_HD uint32_t primCount() const { return b >> 2; }

    STRATA_HD static KdNode inner(int axis, float split, uint32_t leftChild) {
        KdNode n;
        n.a = floatBits(split);
        n.b = uint32_t(axis) | (leftChild << 2);
        return n;
    }
    STRATA_HD static KdNode leaf(uint32_t first, uint32_t count) {
        KdNode n;
        n.a = first;
        n.b = 3u | (count << 2);
        return n;
    }
};
static_assert(sizeof(KdNode) == 8, "KdNode is one 8-byte load");

// Largest node index / leaf size the 30-bit field holds.
constexpr uint32_t kKdMaxField = (1u << 30) - 1;

// Depth cap of every builder; the traversal stack holds one entry per level,
// so it never overflows on a tree within the cap.
constexpr int kKdMaxDepth = 64;
constexpr int kKdStackSize = kKdMaxDepth;

struct KdView {
    const KdNode* nodes = nullptr;
    const uint32_t* primIndex = nullptr;  // leaf entries -> primitive ids
    uint32_t numNodes = 0;
    uint32_t numRefs = 0;  // entries in primIndex
    Aabb bounds;           // root cell
};

}  // namespace strata
