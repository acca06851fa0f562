#include "accel/cpu/sah_builder.h"

#include <algorithm>

namespace strata {
namespace {

struct Builder {
    const std::vector<Aabb>& bounds;
    const SahConfig& cfg;
    std::vector<Vec3> centers;
    HostBvh out;

    struct Child {
        Aabb box;
        int32_t index;  // node index, or first primIndex entry
        int32_t count;  // > 0: leaf
    };

    Aabb rangeBounds(uint32_t first, uint32_t count) const {
        Aabb b;
        for (uint32_t i = first; i < first + count; ++i) b.grow(bounds[out.primIndex[i]]);
        return b;
    }

    // Finds the best binned SAH split of [first, first+count); returns the
    // split position in primIndex (first < mid < first+count) or 0 for a leaf.
    uint32_t split(uint32_t first, uint32_t count, const Aabb& box) {
        Aabb cb;
        for (uint32_t i = first; i < first + count; ++i) cb.grow(centers[out.primIndex[i]]);
        uint32_t* idx = out.primIndex.data();
        const int nb = cfg.bins;
        float bestCost = 3.0e38f;
        int bestAxis = -1, bestBin = 0;
        for (int axis = 0; axis < 3; ++axis) {
            float lo = cb.lo[axis], ext = cb.hi[axis] - lo;
            if (!(ext > 0.0f)) continue;
            std::vector<Aabb> binBox(nb);
            std::vector<uint32_t> binCount(nb, 0);
            float scale = nb / ext;
            for (uint32_t i = first; i < first + count; ++i) {
                int b = std::min(nb - 1, int((centers[idx[i]][axis] - lo) * scale));
                binBox[b].grow(bounds[idx[i]]);
                binCount[b]++;
            }
            std::vector<float> rightArea(nb);
            std::vector<uint32_t> rightCount(nb);
            Aabb acc;
            uint32_t cnt = 0;
            for (int b = nb - 1; b > 0; --b) {
                acc.grow(binBox[b]);
                cnt += binCount[b];
                rightArea[b] = acc.area();
                rightCount[b] = cnt;
            }
            acc = Aabb();
            cnt = 0;
            for (int b = 0; b < nb - 1; ++b) {
                acc.grow(binBox[b]);
                cnt += binCount[b];
                if (cnt == 0 || rightCount[b + 1] == 0) continue;
                float cost = acc.area() * cnt + rightArea[b + 1] * rightCount[b + 1];
                if (cost < bestCost) {
                    bestCost = cost;
                    bestAxis = axis;
                    bestBin = b;
                }
            }
        }
        float parentArea = box.area();
        float leafCost = cfg.intersectionCost * count;
        if (bestAxis < 0) {
            // All centres coincide: split by count so no leaf grows unbounded.
            return count > uint32_t(cfg.maxLeafSize) ? first + count / 2 : 0;
        }
        float splitCost =
            cfg.traversalCost + cfg.intersectionCost * (parentArea > 0 ? bestCost / parentArea : float(count));
        if (count <= uint32_t(cfg.maxLeafSize) && leafCost <= splitCost) return 0;
        float lo = cb.lo[bestAxis], scale = nb / (cb.hi[bestAxis] - lo);
        uint32_t* mid = std::partition(idx + first, idx + first + count, [&](uint32_t p) {
            return std::min(nb - 1, int((centers[p][bestAxis] - lo) * scale)) <= bestBin;
        });
        uint32_t m = uint32_t(mid - idx);
        if (m == first || m == first + count) m = first + count / 2;
        return m;
    }

    // Builds the subtree of [first, first+count) and returns it as a child.
    Child build(uint32_t first, uint32_t count, const Aabb& box) {
        uint32_t mid = count > 1 ? split(first, count, box) : 0;
        if (mid == 0) return {box, int32_t(first), int32_t(count)};
        int32_t node = int32_t(out.nodes.size());
        out.nodes.push_back(BvhNode{});
        Aabb lb = rangeBounds(first, mid - first), rb = rangeBounds(mid, first + count - mid);
        Child l = build(first, mid - first, lb);
        Child r = build(mid, first + count - mid, rb);
        out.nodes[node].setLeft(l.box, l.index, l.count);
        out.nodes[node].setRight(r.box, r.index, r.count);
        return {box, node, 0};
    }
};

}  // namespace

HostBvh buildSahBvh(const std::vector<Aabb>& primBounds, const SahConfig& config) {
    Builder b{primBounds, config, {}, {}};
    const uint32_t n = uint32_t(primBounds.size());
    if (n == 0) return {};
    b.centers.resize(n);
    b.out.primIndex.resize(n);
    for (uint32_t i = 0; i < n; ++i) {
        b.centers[i] = primBounds[i].center();
        b.out.primIndex[i] = i;
    }
    b.out.nodes.reserve(2 * n / std::max(1, config.maxLeafSize) + 1);
    Aabb all = b.rangeBounds(0, n);
    b.out.nodes.push_back(BvhNode{});  // the root is always an inner node
    uint32_t mid = n > 1 ? b.split(0, n, all) : 0;
    if (mid == 0) {
        b.out.nodes[0].setLeft(all, 0, int32_t(n));
        b.out.nodes[0].setRight(Aabb(), -1, 0);
    } else {
        Aabb lb = b.rangeBounds(0, mid), rb = b.rangeBounds(mid, n - mid);
        Builder::Child l = b.build(0, mid, lb);
        Builder::Child r = b.build(mid, n - mid, rb);
        b.out.nodes[0].setLeft(l.box, l.index, l.count);
        b.out.nodes[0].setRight(r.box, r.index, r.count);
    }
    return std::move(b.out);
}

}  // namespace strata
