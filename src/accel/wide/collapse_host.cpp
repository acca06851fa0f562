#include "accel/wide/collapse_host.h"

#include <algorithm>
#include <cmath>
#include <deque>

#include "accel/wide/collapse_sah.h"
#include "core/error.h"

namespace strata {

namespace {

// A box in double precision (the validator's exact containment).
struct DBox {
    double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    static DBox of(const Aabb& b) { return DBox{{b.lo.x, b.lo.y, b.lo.z}, {b.hi.x, b.hi.y, b.hi.z}}; }
    // Slot s's box as its planes are quantized: p + q * 2^(e - 127).
    static DBox ofSlot(const CwbvhNode& n, int s) {
        const double p[3] = {n.px, n.py, n.pz};
        const double step[3] = {cwbvhStep(n.ex), cwbvhStep(n.ey), cwbvhStep(n.ez)};
        const uint8_t ql[3] = {n.qlox[s], n.qloy[s], n.qloz[s]}, qh[3] = {n.qhix[s], n.qhiy[s], n.qhiz[s]};
        DBox d;
        for (int a = 0; a < 3; ++a) {
            d.lo[a] = p[a] + ql[a] * step[a];
            d.hi[a] = p[a] + qh[a] * step[a];
        }
        return d;
    }
    DBox unite(const DBox& o) const {
        DBox r;
        for (int a = 0; a < 3; ++a) {
            r.lo[a] = std::min(lo[a], o.lo[a]);
            r.hi[a] = std::max(hi[a], o.hi[a]);
        }
        return r;
    }
    DBox intersect(const DBox& o) const {
        DBox r;
        for (int a = 0; a < 3; ++a) {
            r.lo[a] = std::max(lo[a], o.lo[a]);
            r.hi[a] = std::min(hi[a], o.hi[a]);
        }
        return r;
    }
    bool holds(const DBox& in) const {
        for (int a = 0; a < 3; ++a)
            if (in.lo[a] < lo[a] || in.hi[a] > hi[a]) return false;
        return true;
    }
    double area() const {
        const double x = hi[0] - lo[0], y = hi[1] - lo[1], z = hi[2] - lo[2];
        return x < 0 || y < 0 || z < 0 ? 0.0 : 2.0 * (x * y + y * z + z * x);
    }
};

struct HostSink {
    uint32_t nodes = 1, prims = 0;  // node 0 is the root
    std::deque<std::pair<uint32_t, int32_t>> tasks;
    uint32_t allocNodes(uint32_t k) {
        const uint32_t first = nodes;
        nodes += k;
        return first;
    }
    uint32_t allocPrims(uint32_t k) {
        const uint32_t first = prims;
        prims += k;
        return first;
    }
    void task(uint32_t wide, int32_t binary) { tasks.emplace_back(wide, binary); }
};

}  // namespace

std::vector<WideCost> wideCostsOf(const BvhView& bvh) {
    std::vector<WideCost> costs(bvh.numNodes);
    if (bvh.numNodes == 0) return costs;
    auto get = [&](int32_t i) { return costs[size_t(i)]; };
    // Post-order from the root: a node's costs once its inner children's are made.
    std::vector<std::pair<int32_t, bool>> stack{{int32_t(rootOf(bvh)), false}};
    while (!stack.empty()) {
        const auto [n, childrenDone] = stack.back();
        stack.pop_back();
        if (childrenDone) {
            costs[size_t(n)] = wideCostOf(bvh, get, n);
            continue;
        }
        stack.emplace_back(n, true);
        CollapseChild g[2];
        const int gm = binaryChildren(bvh.nodes, n, g);
        for (int h = 0; h < gm; ++h)
            if (g[h].count == 0) stack.emplace_back(g[h].index, false);
    }
    return costs;
}

HostCwbvh collapseToCwbvh(const BvhView& bvh, WideCollapse how) {
    HostCwbvh out;
    if (bvh.numNodes == 0) return out;
    for (uint32_t i = 0; i < bvh.numNodes; ++i) {
        const BvhNode& n = bvh.nodes[i];
        if (n.leftCount > kCwbvhMaxBinaryLeaf || n.rightCount > kCwbvhMaxBinaryLeaf)
            throw Error("the wide BVH takes binary leaves of at most " + std::to_string(kCwbvhMaxBinaryLeaf) +
                        " primitives; node " + std::to_string(i) + " has one of " +
                        std::to_string(std::max(n.leftCount, n.rightCount)));
    }
    // A wide node per binary inner node at most (each is made from one).
    out.nodes.resize(bvh.numNodes);
    out.primIndex.resize(bvh.numPrims);
    HostSink sink;
    sink.task(0, int32_t(rootOf(bvh)));
    auto run = [&](const auto& choose) {
        while (!sink.tasks.empty()) {
            const auto [wide, binary] = sink.tasks.front();
            sink.tasks.pop_front();
            collapseNode(bvh, choose, binary, wide, out.nodes.data(), out.primIndex.data(), sink);
        }
    };
    if (how == WideCollapse::Greedy) {
        run(ChooseGreedy{});
    } else {
        const std::vector<WideCost> costs = wideCostsOf(bvh);
        run(ChooseSah{costs.data()});
    }
    out.nodes.resize(sink.nodes);
    out.primIndex.resize(sink.prims);
    return out;
}

std::string compareCwbvhFromRoots(const HostCwbvh& a, const HostCwbvh& b) {
    if (a.nodes.empty() || b.nodes.empty()) return a.nodes.size() == b.nodes.size() ? "" : "one tree is empty";
    std::vector<std::pair<uint32_t, uint32_t>> stack{{0, 0}};
    size_t visited = 0;
    while (!stack.empty()) {
        const auto [ia, ib] = stack.back();
        stack.pop_back();
        const std::string at = "node " + std::to_string(ia) + " / " + std::to_string(ib);
        if (ia >= a.nodes.size() || ib >= b.nodes.size()) return at + ": index out of range";
        if (++visited > a.nodes.size()) return "a cycle";
        const CwbvhNode &na = a.nodes[ia], &nb = b.nodes[ib];
        if (na.px != nb.px || na.py != nb.py || na.pz != nb.pz || na.ex != nb.ex || na.ey != nb.ey || na.ez != nb.ez ||
            na.imask != nb.imask)
            return at + ": grid or imask differs";
        for (int s = 0; s < kCwbvhWidth; ++s)
            if (na.meta[s] != nb.meta[s] || na.qlox[s] != nb.qlox[s] || na.qloy[s] != nb.qloy[s] ||
                na.qloz[s] != nb.qloz[s] || na.qhix[s] != nb.qhix[s] || na.qhiy[s] != nb.qhiy[s] ||
                na.qhiz[s] != nb.qhiz[s])
                return at + ": slot " + std::to_string(s) + " differs";
        uint32_t rank = 0;
        for (int s = 0; s < kCwbvhWidth; ++s) {
            const uint8_t meta = na.meta[s];
            if (!meta) continue;
            if (cwbvhIsInnerMeta(meta)) {
                stack.emplace_back(na.childBase + rank, nb.childBase + rank);
                ++rank;
                continue;
            }
            for (uint32_t j = 0; j < 3 && (meta >> (5 + j) & 1u); ++j) {
                const size_t ea = na.primBase + (meta & 0x1f) + j, eb = nb.primBase + (meta & 0x1f) + j;
                if (ea >= a.primIndex.size() || eb >= b.primIndex.size()) return at + ": leaf entry out of range";
                if (a.primIndex[ea] != b.primIndex[eb])
                    return at + ": slot " + std::to_string(s) + " holds primitive " + std::to_string(a.primIndex[ea]) +
                           " against " + std::to_string(b.primIndex[eb]);
            }
        }
    }
    if (visited != a.nodes.size() || visited != b.nodes.size())
        return std::to_string(visited) + " nodes reached of " + std::to_string(a.nodes.size()) + " / " +
               std::to_string(b.nodes.size());
    return "";
}

CwbvhReport validateCwbvh(const CwbvhView& w, const std::vector<Aabb>& primBounds) {
    CwbvhReport rep;
    auto fail = [&](const std::string& e) {
        rep.ok = false;
        if (rep.errors.size() < 8) rep.errors.push_back(e);
    };
    if (w.numNodes == 0) {
        if (!primBounds.empty()) fail("no nodes for " + std::to_string(primBounds.size()) + " primitives");
        return rep;
    }
    // Boxes in double, without tolerance: a quantized plane is p + q 2^e
    // exactly (to double's 53 bits), so a box one grid step too small shows.
    DBox scene;
    for (const Aabb& b : primBounds) scene = scene.unite(DBox::of(b));
    std::vector<uint8_t> seenNode(w.numNodes, 0), seenPrim(primBounds.size(), 0);
    struct Entry {
        uint32_t node, depth;
        DBox clip;  // the boxes tested on the way to it, intersected (the root: the scene)
    };
    std::vector<Entry> stack{{0, 0, scene}};
    double innerArea = 0, leafArea = 0;
    uint32_t slots = 0;
    while (!stack.empty()) {
        const Entry e = stack.back();
        stack.pop_back();
        if (e.node >= w.numNodes) {
            fail("node index " + std::to_string(e.node) + " out of range");
            continue;
        }
        if (seenNode[e.node]++) {
            fail("node " + std::to_string(e.node) + " reached twice");
            continue;
        }
        rep.nodes++;
        rep.maxDepth = std::max(rep.maxDepth, e.depth);
        if (e.depth > uint32_t(kBvhDeepStackSize)) fail("deeper than the traversal's deep stack");
        const CwbvhNode& n = w.nodes[e.node];
        uint32_t rank = 0;
        for (int s = 0; s < kCwbvhWidth; ++s) {
            const uint8_t meta = n.meta[s];
            const bool innerBit = n.imask >> s & 1u;
            if (!meta) {
                if (innerBit) fail("node " + std::to_string(e.node) + ": empty slot in imask");
                continue;
            }
            ++slots;
            const DBox box = DBox::ofSlot(n, s);
            if (cwbvhIsInnerMeta(meta)) {
                if (!innerBit || (meta & 0x1f) != 24 + s) fail("node " + std::to_string(e.node) + ": bad inner meta");
                innerArea += box.area();
                stack.push_back({n.childBase + rank++, e.depth + 1, e.clip.intersect(box)});
                continue;
            }
            const uint32_t unary = meta >> 5, off = meta & 0x1f;
            if (innerBit || (unary != 1 && unary != 3 && unary != 7))
                fail("node " + std::to_string(e.node) + ": bad leaf meta");
            ++rep.leafSlots;
            for (uint32_t j = 0; j < 3 && (unary >> j & 1u); ++j) {
                const uint32_t entry = n.primBase + off + j;
                if (entry >= w.numPrims) {
                    fail("leaf entry " + std::to_string(entry) + " out of range");
                    continue;
                }
                const uint32_t prim = w.primIndex[entry];
                if (prim >= primBounds.size()) {
                    fail("primitive " + std::to_string(prim) + " out of range");
                    continue;
                }
                if (seenPrim[prim]++) fail("primitive " + std::to_string(prim) + " in two leaves");
                // A ray meets the primitive only through every box on its way.
                if (!e.clip.intersect(box).holds(DBox::of(primBounds[prim])))
                    fail("node " + std::to_string(e.node) + " slot " + std::to_string(s) + ": box misses primitive " +
                         std::to_string(prim));
                leafArea += box.area();
            }
        }
    }
    for (size_t p = 0; p < primBounds.size(); ++p)
        if (!seenPrim[p]) {
            fail("primitive " + std::to_string(p) + " in no leaf");
            break;
        }
    if (rep.nodes != w.numNodes) fail(std::to_string(w.numNodes - rep.nodes) + " nodes unreachable");
    rep.childrenPerNode = rep.nodes ? double(slots) / rep.nodes : 0.0;
    const double rootArea = scene.area();
    if (rootArea > 0) rep.sahCost = float((innerArea + leafArea) / rootArea);
    return rep;
}

}  // namespace strata
