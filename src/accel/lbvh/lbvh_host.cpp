#include "accel/lbvh/lbvh_host.h"

#include <algorithm>
#include <numeric>
#include <random>

#include "accel/lbvh/apetrei.h"
#include "accel/lbvh/apetrei_skip.h"
#include "accel/lbvh/hploc_host.h"
#include "accel/lbvh/karras.h"

namespace strata {

Aabb centroidBounds(const std::vector<Aabb>& primBounds) {
    Aabb c;
    for (const Aabb& b : primBounds) c.grow(b.center());
    return c;
}

namespace {

// Order in which the bottom-up pass visits the leaves.
std::vector<int> leafOrder(int n, uint32_t seed) {
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    if (seed) std::shuffle(order.begin(), order.end(), std::mt19937(seed));
    return order;
}

template <class Key>
void buildWithKeys(const std::vector<Aabb>& bounds, const Aabb& scene, const LbvhHostConfig& cfg, LbvhHostResult& r) {
    const int n = int(bounds.size());
    // Karras §3: Morton codes of the centroids, sorted (stably, like the
    // GPU's radix sort: equal keys keep index order).
    std::vector<Key> keys(n);
    for (int i = 0; i < n; ++i) {
        Vec3 u = unitPosition(bounds[i].center(), scene);
        keys[i] = sizeof(Key) == 8 ? Key(morton63(u)) : Key(morton30(u));
    }
    std::vector<uint32_t>& order = r.bvh.primIndex;
    order.resize(n);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
    std::vector<Key> sorted(n);
    for (int i = 0; i < n; ++i) sorted[i] = keys[order[i]];
    r.sortedKeys.assign(sorted.begin(), sorted.end());
    r.bvh.nodes.assign(n > 1 ? n - 1 : 1, BvhNode{});
    r.bvh.root = 0;
    const std::vector<int> leaves = leafOrder(n, cfg.leafOrderSeed);
    switch (cfg.variant) {
        case LbvhVariant::Karras: {
            if (n == 1) {
                setSingleLeafRoot(r.bvh.nodes[0], bounds[0]);
                return;
            }
            r.parent.assign(2 * n - 1, -1);
            for (int i = 0; i < n - 1; ++i)
                karrasInternalNode(sorted.data(), n, i, r.parent.data());
            std::vector<uint32_t> visits(n - 1, 0);
            for (int leaf : leaves)
                karrasBottomUp(leaf, n, bounds.data(), order.data(), r.bvh.nodes.data(), r.parent.data(),
                               visits.data());
            return;
        }
        case LbvhVariant::Apetrei: {
            std::vector<int32_t> store(n, kStoreEmpty);
            for (int leaf : leaves)
                apetreiBottomUp(leaf, n, sorted.data(), bounds.data(), order.data(), r.bvh.nodes.data(), store.data(),
                                &r.bvh.root);
            return;
        }
        case LbvhVariant::ApetreiSkip: {
            std::vector<int32_t> store(n, kStoreEmpty);
            r.skipNodes.assign(2 * n - 1, StacklessNode{});
            for (int leaf : leaves)
                apetreiSkipBottomUp(leaf, n, sorted.data(), bounds.data(), order.data(), r.skipNodes.data(),
                                    r.bvh.nodes.data(), store.data());
            return;
        }
        case LbvhVariant::Hploc: {
            // H-PLOC merges within the ranges of Apetrei's LBVH.
            std::vector<int32_t> store(n, kStoreEmpty);
            std::vector<BvhNode> ranges(n > 1 ? n - 1 : 1);
            uint32_t rangeRoot = 0;
            for (int leaf : leaves)
                apetreiBottomUp(leaf, n, sorted.data(), bounds.data(), order.data(), ranges.data(), store.data(),
                                &rangeRoot);
            r.bvh.root = buildHplocFromRanges(ranges, rangeRoot, bounds, order, r.bvh.nodes);
            return;
        }
    }
}

}  // namespace

LbvhHostResult buildLbvhHost(const std::vector<Aabb>& primBounds, int mortonBits, const LbvhHostConfig& config) {
    LbvhHostResult r;
    if (primBounds.empty()) return r;
    Aabb scene = centroidBounds(primBounds);
    if (mortonBits == 30)
        buildWithKeys<uint32_t>(primBounds, scene, config, r);
    else
        buildWithKeys<uint64_t>(primBounds, scene, config, r);
    return r;
}

}  // namespace strata
