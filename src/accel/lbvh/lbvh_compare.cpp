#include "accel/lbvh/lbvh_compare.h"

#include <cstring>

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

}  // namespace strata
