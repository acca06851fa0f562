#include "accel/lbvh/hploc_host.h"

#include <algorithm>

#include "accel/lbvh/apetrei.h"
#include "accel/lbvh/hploc.h"

namespace strata {
namespace {

struct Cluster {
    Aabb box;
    int32_t index;  // BvhNode child: a sorted position (count 1) or a node
    int32_t count;
    int32_t first;  // its first leaf (hploc.h's numbering)
};

class HplocHost {
public:
    HplocHost(const std::vector<Aabb>& bounds, const std::vector<uint32_t>& sortedPrim, std::vector<BvhNode>& nodes)
        : bounds_(bounds), sortedPrim_(sortedPrim), nodes_(nodes) {}

    Cluster leaf(int pos) const { return {bounds_[sortedPrim_[pos]], pos, 1, pos}; }

    // The node the last merge made (the root once every merge is done).
    int32_t lastMade() const { return lastMade_; }

    // PLOC rounds (hploc.h) until at most `target` clusters remain.
    void plocRounds(std::vector<Cluster>& c, size_t target) {
        std::vector<int> nearest;
        std::vector<Cluster> next;
        while (c.size() > target) {
            const int k = int(c.size());
            nearest.assign(k, -1);
            for (int j = 0; j < k; ++j) {
                float best = 0.0f;
                for (int i = std::max(0, j - kHplocRadius); i <= std::min(k - 1, j + kHplocRadius); ++i) {
                    if (i == j) continue;
                    float d = plocDistance(c[j].box, c[i].box);
                    if (nearest[j] < 0 || plocNearer(d, i, best, nearest[j], j)) {
                        best = d;
                        nearest[j] = i;
                    }
                }
            }
            next.clear();
            for (int j = 0; j < k; ++j) {
                const int m = nearest[j];
                if (nearest[m] != j) {
                    next.push_back(c[j]);
                } else if (j < m) {
                    lastMade_ = hplocNodeOf(c[m].first);
                    nodes_[size_t(lastMade_)] =
                        makeNode(c[j].box, c[j].index, c[j].count, c[m].box, c[m].index, c[m].count);
                    next.push_back({merge(c[j].box, c[m].box), lastMade_, 0, c[j].first});
                }
            }
            c.swap(next);
        }
    }

    // The clusters of the subtree rooted at Apetrei node p over [lo, hi].
    std::vector<Cluster> clusters(const std::vector<BvhNode>& ranges, int p, int lo, int hi, bool root) {
        std::vector<Cluster> c;
        if (hi - lo + 1 <= kHplocThreshold) {
            for (int pos = lo; pos <= hi; ++pos) c.push_back(leaf(pos));
        } else {
            const BvhNode& r = ranges[p];  // split between sorted leaves p and p+1
            c = r.leftCount ? std::vector<Cluster>{leaf(p)} : clusters(ranges, r.left, lo, p, false);
            std::vector<Cluster> right =
                r.rightCount ? std::vector<Cluster>{leaf(p + 1)} : clusters(ranges, r.right, p + 1, hi, false);
            c.insert(c.end(), right.begin(), right.end());
        }
        if (root || hi - lo + 1 > kHplocThreshold) plocRounds(c, root ? 1 : size_t(kHplocThreshold));
        return c;
    }

private:
    const std::vector<Aabb>& bounds_;
    const std::vector<uint32_t>& sortedPrim_;
    std::vector<BvhNode>& nodes_;
    int32_t lastMade_ = 0;
};

}  // namespace

uint32_t buildHplocFromRanges(const std::vector<BvhNode>& apetreiNodes, uint32_t apetreiRoot,
                              const std::vector<Aabb>& primBounds, const std::vector<uint32_t>& sortedPrim,
                              std::vector<BvhNode>& nodes) {
    const int n = int(sortedPrim.size());
    nodes.clear();
    if (n == 0) return 0;
    if (n == 1) {
        nodes.assign(1, BvhNode{});
        setSingleLeafRoot(nodes[0], primBounds[sortedPrim[0]]);
        return 0;
    }
    nodes.assign(size_t(n - 1), BvhNode{});
    HplocHost h(primBounds, sortedPrim, nodes);
    h.clusters(apetreiNodes, int(apetreiRoot), 0, n - 1, true);
    return uint32_t(h.lastMade());
}

}  // namespace strata
