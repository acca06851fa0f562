#include "accel/lbvh/lbvh_host.h"

#include <algorithm>
#include <numeric>

#include "accel/lbvh/karras.h"

namespace strata {

Aabb centroidBounds(const std::vector<Aabb>& primBounds) {
    Aabb c;
    for (const Aabb& b : primBounds) c.grow(b.center());
    return c;
}

namespace {
template <class Key>
void buildWithKeys(const std::vector<Aabb>& bounds, const Aabb& scene, LbvhHostResult& r) {
    const int n = int(bounds.size());
    std::vector<Key> keys(n);
    for (int i = 0; i < n; ++i) {
        Vec3 u = unitPosition(bounds[i].center(), scene);
        keys[i] = sizeof(Key) == 8 ? Key(morton63(u)) : Key(morton30(u));
    }
    std::vector<uint32_t>& order = r.bvh.primIndex;
    order.resize(n);
    std::iota(order.begin(), order.end(), 0u);
    // Stable, like the GPU's radix sort: equal keys keep index order.
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
    std::vector<Key> sorted(n);
    for (int i = 0; i < n; ++i) sorted[i] = keys[order[i]];
    r.sortedKeys.assign(sorted.begin(), sorted.end());
    r.bvh.nodes.assign(n - 1, BvhNode{});
    r.parent.assign(2 * n - 1, -1);
    for (int i = 0; i < n - 1; ++i) karrasInternalNode(sorted.data(), n, i, r.bvh.nodes.data(), r.parent.data());
    std::vector<uint32_t> visits(n - 1, 0);
    for (int leaf = 0; leaf < n; ++leaf)
        karrasBottomUp(leaf, n, bounds.data(), order.data(), r.bvh.nodes.data(), r.parent.data(), visits.data());
}
}  // namespace

LbvhHostResult buildLbvhHost(const std::vector<Aabb>& primBounds, int mortonBits) {
    LbvhHostResult r;
    const size_t n = primBounds.size();
    if (n == 0) return r;
    if (n == 1) {
        r.bvh.primIndex = {0};
        r.bvh.nodes.resize(1);
        r.bvh.nodes[0].setLeft(primBounds[0], 0, 1);
        r.bvh.nodes[0].setRight(Aabb(), -1, 0);
        r.sortedKeys = {0};
        return r;
    }
    Aabb scene = centroidBounds(primBounds);
    if (mortonBits == 30) buildWithKeys<uint32_t>(primBounds, scene, r);
    else buildWithKeys<uint64_t>(primBounds, scene, r);
    return r;
}

}  // namespace strata
