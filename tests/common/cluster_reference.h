// Agglomerative clustering's reference for the tests of builders that
// cluster (H-PLOC, the clustered top level): a tree as the set of its nodes'
// primitive sets, and the greedy clustering that merges the pair of least
// merged-box area of all, one pair at a time.
#pragma once

#include <cfloat>
#include <cmath>
#include <set>
#include <utility>
#include <vector>

#include "accel/cpu/sah_builder.h"

namespace strata::test {

using LeafSet = std::set<uint32_t>;

namespace detail {
inline void collectClusters(const HostBvh& t, int32_t index, int32_t count, std::set<LeafSet>& out, LeafSet& below) {
    if (count > 0) {
        for (int32_t k = 0; k < count; ++k) below.insert(t.primIndex[size_t(index + k)]);
        return;
    }
    const BvhNode& n = t.nodes[size_t(index)];
    LeafSet mine;
    collectClusters(t, n.left, n.leftCount, out, mine);
    if (n.right >= 0) collectClusters(t, n.right, n.rightCount, out, mine);  // a one-leaf root has none
    out.insert(mine);
    below.insert(mine.begin(), mine.end());
}
}  // namespace detail

// The tree as the set of its nodes' primitive sets (numbering-free).
inline std::set<LeafSet> clustersOf(const HostBvh& t) {
    std::set<LeafSet> out;
    LeafSet all;
    detail::collectClusters(t, int32_t(t.root), 0, out, all);
    return out;
}

// Greedy agglomerative clustering: merge the pair whose union box has the
// smallest area until one cluster is left; every cluster made, as sets.
inline std::set<LeafSet> greedyClusters(const std::vector<Aabb>& bounds) {
    std::vector<std::pair<Aabb, LeafSet>> c;
    for (uint32_t i = 0; i < bounds.size(); ++i) c.push_back({bounds[i], {i}});
    std::set<LeafSet> out;
    while (c.size() > 1) {
        size_t bi = 0, bj = 1;
        float best = INFINITY;
        for (size_t i = 0; i < c.size(); ++i)
            for (size_t j = i + 1; j < c.size(); ++j) {
                const float d = merge(c[i].first, c[j].first).area();
                if (d < best) best = d, bi = i, bj = j;
            }
        c[bi].first = merge(c[bi].first, c[bj].first);
        c[bi].second.insert(c[bj].second.begin(), c[bj].second.end());
        out.insert(c[bi].second);
        c.erase(c.begin() + long(bj));
    }
    return out;
}

}  // namespace strata::test
