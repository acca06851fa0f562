// accel/bvh.h — the binary BVH node layout shared by every BVH builder (CPU
// binned SAH, LBVH Karras) and by both backends' traversal.
//
// Each node stores the boxes of both of its children (Aila & Laine 2009), so a
// traversal step reads one 64-byte node as four 16-byte loads and tests both
// children at once. A child is a leaf when its count is > 0; then its index is
// the first entry in primIndex (count entries). Otherwise it is an inner node
// index. The root is BvhView::root, or *BvhView::rootIndex where a GPU
// build finds it during its pass (Apetrei's and H-PLOC's, whose node numbers
// come from leaf positions; the CPU runs of those builders set root). A
// child with count 0 and an empty box is absent (only the root of a
// one-primitive tree has one).
#pragma once

#include <cstdint>

#include "accel/bvh_stackless.h"
#include "core/aabb.h"

namespace strata {

struct alignas(16) BvhNode {
    float lxLo, lxHi, lyLo, lyHi;   // left child box, x and y
    float rxLo, rxHi, ryLo, ryHi;   // right child box, x and y
    float lzLo, lzHi, rzLo, rzHi;   // z of both
    int32_t left, right;            // child index (node, or first primIndex entry of a leaf)
    int32_t leftCount, rightCount;  // > 0: leaf with that many primitives

    STRATA_HD Aabb leftBox() const { return Aabb{{lxLo, lyLo, lzLo}, {lxHi, lyHi, lzHi}}; }
    STRATA_HD Aabb rightBox() const { return Aabb{{rxLo, ryLo, rzLo}, {rxHi, ryHi, rzHi}}; }
    STRATA_HD void setLeft(const Aabb& b, int32_t index, int32_t count) {
        lxLo = b.lo.x;
        lxHi = b.hi.x;
        lyLo = b.lo.y;
        lyHi = b.hi.y;
        lzLo = b.lo.z;
        lzHi = b.hi.z;
        left = index;
        leftCount = count;
    }
    STRATA_HD void setRight(const Aabb& b, int32_t index, int32_t count) {
        rxLo = b.lo.x;
        rxHi = b.hi.x;
        ryLo = b.lo.y;
        ryHi = b.hi.y;
        rzLo = b.lo.z;
        rzHi = b.hi.z;
        right = index;
        rightCount = count;
    }
};
static_assert(sizeof(BvhNode) == 64, "BvhNode is read as four 16-byte loads");

// Which traversal traceClosest/traceAny run (accel.traversal).
enum class BvhTraversal : uint32_t {
    Stack,      // ordered stack traversal of the BvhNodes (accel/bvh_traverse.h)
    Stackless,  // skip links (accel/stackless_traverse.h); needs skipNodes
};

struct LeafTri;  // accel/leaf_tris.h

struct BvhView {
    const BvhNode* nodes = nullptr;
    const uint32_t* primIndex = nullptr;  // leaf entries -> primitive ids
    uint32_t numNodes = 0;
    uint32_t numPrims = 0;
    uint32_t root = 0;  // index of the root node
    // When set, the root index lives in (device) memory: the GPU Apetrei
    // and H-PLOC builds find their root during the pass, and reading it back
    // to fill `root` would stall the CPU every frame.
    const uint32_t* rootIndex = nullptr;
    // The skip-link layout of the same tree (lbvh-skip only): 2n-1 nodes,
    // root 0, sentinel kSkipSentinel.
    const StacklessNode* skipNodes = nullptr;
    uint32_t numSkipNodes = 0;
    BvhTraversal traversal = BvhTraversal::Stack;
    // accel.copy_leaf_tris: primIndex's triangles copied in its order
    // (accel/leaf_tris.h), which the stack traversal's leaf tests read
    // instead of the intersect callback. Set only where every primitive is a
    // triangle of the traced geometry (not the unified VD middle level's tree).
    const LeafTri* leafTris = nullptr;
};

STRATA_HD uint32_t rootOf(const BvhView& v) { return v.rootIndex ? *v.rootIndex : v.root; }

// Traversal stack depth of the fast path. A deeper tree (LBVHs over many
// coincident primitives reach ~95 levels with 63-bit codes) does not lose
// nodes: on overflow the ray restarts with kBvhDeepStackSize entries, and past
// that (no builder here produces such a tree; the validator rejects it) with
// a scan of every leaf entry. See traverseBvh.
constexpr int kBvhStackSize = 64;
constexpr int kBvhDeepStackSize = 128;

}  // namespace strata
