#include "accel/lbvh/lbvh_compare.h"

#include <cstring>
#include <utility>

namespace strata {
namespace {

template <class Node>
size_t countDifferent(const std::vector<Node>& a, const std::vector<Node>& b) {
    size_t d = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
    for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) d += std::memcmp(&a[i], &b[i], sizeof(Node)) != 0;
    return d;
}

}  // namespace

size_t countDifferentNodes(const std::vector<BvhNode>& a, const std::vector<BvhNode>& b) {
    return countDifferent(a, b);
}
size_t countDifferentNodes(const std::vector<StacklessNode>& a, const std::vector<StacklessNode>& b) {
    return countDifferent(a, b);
}

std::string compareUpToApetreiOrder(const HostBvh& karras, const HostBvh& apetrei) {
    const std::vector<BvhNode>& K = karras.nodes;
    const std::vector<BvhNode>& A = apetrei.nodes;
    if (K.size() != A.size()) return "node counts differ";
    if (karras.primIndex != apetrei.primIndex) return "leaf order differs";
    if (K.empty()) return "";
    if (K.size() == 1 && K[0].rightCount == 0 && K[0].right < 0) {  // one primitive
        if (apetrei.root != 0 || std::memcmp(&K[0], &A[0], sizeof(BvhNode))) return "single-leaf root differs";
        return "";
    }
    auto apetreiIndex = [&](int32_t index, int32_t count) { return count > 0 ? index : K[index].left; };
    if (apetrei.root != uint32_t(K[0].left))
        return "root " + std::to_string(apetrei.root) + ", expected " + std::to_string(K[0].left);
    std::vector<uint8_t> used(A.size(), 0);
    for (size_t k = 0; k < K.size(); ++k) {
        int32_t p = K[k].left;
        if (p < 0 || size_t(p) >= A.size() || used[p]++)
            return "Karras node " + std::to_string(k) + " has a bad split " + std::to_string(p);
        BvhNode expect = K[k];
        expect.left = apetreiIndex(K[k].left, K[k].leftCount);
        expect.right = apetreiIndex(K[k].right, K[k].rightCount);
        if (std::memcmp(&expect, &A[p], sizeof(BvhNode)))
            return "Karras node " + std::to_string(k) + " differs from Apetrei node " + std::to_string(p);
    }
    return "";
}

std::string compareFromRoots(const HostBvh& a, const HostBvh& b) {
    if (a.nodes.size() != b.nodes.size()) return "node counts differ";
    if (a.primIndex != b.primIndex) return "leaf order differs";
    if (a.nodes.empty()) return "";
    if (a.root >= a.nodes.size() || b.root >= b.nodes.size()) return "root out of range";
    size_t differ = 0, visited = 0;
    std::string first;
    std::vector<std::pair<uint32_t, uint32_t>> pending{{a.root, b.root}};
    while (!pending.empty()) {
        auto [ia, ib] = pending.back();
        pending.pop_back();
        if (++visited > a.nodes.size()) return "a cycle below the root";
        const BvhNode &x = a.nodes[ia], &y = b.nodes[ib];
        const bool sameBoxes = std::memcmp(&x, &y, 12 * sizeof(float)) == 0;
        const bool sameKinds = x.leftCount == y.leftCount && x.rightCount == y.rightCount;
        const bool sameLeaves = (x.leftCount == 0 || x.left == y.left) && (x.rightCount == 0 || x.right == y.right);
        if (!sameBoxes || !sameKinds || !sameLeaves) {
            if (differ++ == 0)
                first = "node " + std::to_string(ia) + " (" + std::to_string(ib) + ") has other " +
                        (!sameKinds ? "children" : !sameLeaves ? "leaves" : "child boxes");
            continue;
        }
        for (int side = 0; side < 2; ++side) {
            const int32_t ca = side ? x.right : x.left, cb = side ? y.right : y.left;
            const int32_t count = side ? x.rightCount : x.leftCount;
            if (count != 0 || ca < 0) continue;  // a leaf, or the absent child of a one-leaf root
            if (size_t(ca) >= a.nodes.size() || size_t(cb) >= b.nodes.size()) return "child out of range";
            pending.push_back({uint32_t(ca), uint32_t(cb)});
        }
    }
    return differ ? std::to_string(differ) + " nodes differ; first: " + first : "";
}

}  // namespace strata
