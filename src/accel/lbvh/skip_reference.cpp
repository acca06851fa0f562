#include "accel/lbvh/skip_reference.h"

#include "accel/lbvh/karras.h"

namespace strata {
namespace {

struct Child {
    int32_t index;  // in the skip numbering
    Aabb box;
};

Child childOf(const BvhView& t, int32_t index, int32_t count, const Aabb& box) {
    int32_t n = int32_t(t.numPrims);
    return Child{count > 0 ? n - 1 + index : index, box};
}

}  // namespace

std::vector<StacklessNode> stacklessByWalk(const BvhView& t) {
    const uint32_t n = t.numPrims;
    std::vector<StacklessNode> out;
    if (n == 0) return out;
    if (n == 1) {
        out.resize(1);
        out[0].set(t.nodes[t.root].leftBox(), skipLeafLeft(t.primIndex[0]), kSkipSentinel);
        return out;
    }
    if (t.numNodes != n - 1) return out;
    out.assign(2 * n - 1, StacklessNode{});
    std::vector<uint8_t> seen(2 * n - 1, 0);
    // Explicit stack of (node, its box, its skip).
    struct Item {
        Child c;
        int32_t skip;
    };
    const BvhNode& r = t.nodes[t.root];
    std::vector<Item> stack = {{Child{int32_t(t.root), merge(r.leftBox(), r.rightBox())}, kSkipSentinel}};
    while (!stack.empty()) {
        Item it = stack.back();
        stack.pop_back();
        int32_t k = it.c.index;
        if (k < 0 || uint32_t(k) >= 2 * n - 1 || seen[k]++) return {};
        if (uint32_t(k) >= n - 1) {  // a leaf
            uint32_t e = uint32_t(k) - (n - 1);
            out[k].set(it.c.box, skipLeafLeft(t.primIndex[e]), it.skip);
            continue;
        }
        const BvhNode& b = t.nodes[k];
        if (b.leftCount > 1 || b.rightCount > 1) return {};
        Child l = childOf(t, b.left, b.leftCount, b.leftBox());
        Child rc = childOf(t, b.right, b.rightCount, b.rightBox());
        out[k].set(it.c.box, l.index, it.skip);
        // The left child's subtree is followed by the right child's; the
        // right child's by whatever follows this node's.
        stack.push_back({rc, it.skip});
        stack.push_back({l, rc.index});
    }
    return out;
}

std::vector<int32_t> skipsByAlgorithm2(const BvhView& t, const std::vector<uint64_t>& keys) {
    const int n = int(t.numPrims);
    std::vector<int32_t> skip;
    if (n == 0) return skip;
    skip.assign(2 * n - 1, kSkipSentinel - 1);
    if (n == 1) {
        skip[0] = kSkipSentinel;
        return skip;
    }
    // δ*(i) as the common-prefix length of keys i, i+1 (-1 outside): larger
    // means more similar, the opposite sense of the XOR form.
    auto deltaStar = [&](int i) { return karrasDelta(keys.data(), n, i, i + 1); };
    // Every node's range, from a walk; then lines 1-8 of Algorithm 2.
    struct Item {
        int32_t index;  // skip numbering
        int first, last;
    };
    std::vector<Item> stack = {{0, 0, n - 1}};
    auto algorithm2 = [&](int rangeRight) -> int32_t {
        if (rangeRight == n - 1) return kSkipSentinel;  // lines 1-2
        int r = rangeRight + 1;                         // line 4
        // Line 5: δ*(r-1) < δ*(r) in the XOR sense is a longer common prefix.
        return deltaStar(r - 1) > deltaStar(r) ? n - 1 + r : r;  // lines 6, 8
    };
    while (!stack.empty()) {
        Item it = stack.back();
        stack.pop_back();
        skip[it.index] = algorithm2(it.last);
        if (it.index >= n - 1) continue;
        const BvhNode& b = t.nodes[it.index];
        int split = b.left;  // Karras: the left child ends at the split
        stack.push_back({b.leftCount > 0 ? n - 1 + b.left : b.left, it.first, split});
        stack.push_back({b.rightCount > 0 ? n - 1 + b.right : b.right, split + 1, it.last});
    }
    return skip;
}

}  // namespace strata
