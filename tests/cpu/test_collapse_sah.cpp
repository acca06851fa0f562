// The SAH-optimal collapse (accel/wide/collapse_sah.h, Ylitie et al. §4.1):
// the wide tree it makes costs, by the paper's model measured on the tree
// itself, exactly the least cost an exhaustive search over every way of
// collapsing the binary tree finds (small trees), never more than the
// greedy collapse's (large ones, the real bunny too), and the bottom-up
// pass's root cost is that tree's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>

#include "accel/cpu/sah_builder.h"
#include "accel/lbvh/lbvh_host.h"
#include "accel/wide/collapse_host.h"
#include "accel/wide/collapse_sah.h"
#include "lbvh_cases.h"
#include "loader_test_util.h"
#include "scene/obj_loader.h"

using namespace strata;

namespace {

// The paper's cost of a wide tree, from the tree itself: per wide node
// c_node times its area, per leaf slot c_prim times its primitives times the
// area of their box (boxes exact: the unions of the primitives' bounds, as
// the binary builders' boxes are; areas as the collapse computes them; a
// binary leaf of more than 3, split into slots, would be charged its parts'
// boxes, not its own: the trees here have leaves of at most 3).
double wideTreeCost(const HostCwbvh& w, const std::vector<Aabb>& bounds) {
    double cost = 0;
    std::function<Aabb(uint32_t)> node = [&](uint32_t i) {
        const CwbvhNode& n = w.nodes[i];
        Aabb box;
        uint32_t rank = 0;
        for (int s = 0; s < kCwbvhWidth; ++s) {
            const uint8_t meta = n.meta[s];
            if (!meta) continue;
            if (cwbvhIsInnerMeta(meta)) {
                box.grow(node(n.childBase + rank++));
                continue;
            }
            Aabb leaf;
            int count = 0;
            for (uint32_t j = 0; j < 3 && (meta >> (5 + j) & 1u); ++j, ++count)
                leaf.grow(bounds[w.primIndex[n.primBase + (meta & 0x1f) + j]]);
            cost += double(kWidePrimCost) * count * collapseArea(leaf);
            box.grow(leaf);
        }
        cost += double(kWideNodeCost) * collapseArea(box);
        return box;
    };
    if (!w.nodes.empty()) node(0);
    return cost;
}

// Exhaustive search, independent of the dynamic program: a wide node made
// from binary node n costs c_node A(n) plus, over every cut of n's subtree
// below n (a set of its nodes that covers each leaf once) that fits 8 slots,
// the least sum of its members' costs (a binary leaf of p: c_prim p A,
// ceil(p / 3) slots; an inner node: a leaf slot of its primitives when they
// are at most 3, or a wide node of its own).
struct Exhaustive {
    const BvhView& bvh;
    std::map<int32_t, double> memo;

    static double area(const Aabb& b) { return collapseArea(b); }

    uint32_t prims(const CollapseChild& c) {
        if (c.count > 0) return uint32_t(c.count);
        CollapseChild g[2];
        const int gm = binaryChildren(bvh.nodes, c.index, g);
        return prims(g[0]) + (gm > 1 ? prims(g[1]) : 0);
    }
    double memberCost(const CollapseChild& c) {
        if (c.count > 0) return double(kWidePrimCost) * c.count * area(c.box);
        double best = wideNode(c.index, c.box);
        const uint32_t p = prims(c);
        if (p <= uint32_t(kCwbvhMaxLeafPrims)) best = std::min(best, double(kWidePrimCost) * p * area(c.box));
        return best;
    }
    static int slots(const CollapseChild& c) { return c.count > 0 ? (c.count + 2) / 3 : 1; }
    // Every cut of the subtree below binary node n: (slots, least cost) pairs.
    std::vector<std::pair<int, double>> cuts(int32_t n) {
        CollapseChild g[2];
        const int gm = binaryChildren(bvh.nodes, n, g);
        std::vector<std::vector<std::pair<int, double>>> sides;
        for (int h = 0; h < gm; ++h) {
            std::vector<std::pair<int, double>> options{{slots(g[h]), memberCost(g[h])}};
            if (g[h].count == 0)
                for (const auto& c : cuts(g[h].index)) options.push_back(c);
            sides.push_back(options);
        }
        std::vector<std::pair<int, double>> out = sides[0];
        if (gm > 1) {
            out.clear();
            for (const auto& a : sides[0])
                for (const auto& b : sides[1])
                    if (a.first + b.first <= kCwbvhWidth) out.push_back({a.first + b.first, a.second + b.second});
        }
        // Keep the least cost per slot count.
        std::map<int, double> least;
        for (const auto& [s, c] : out)
            if (s <= kCwbvhWidth && (!least.count(s) || c < least[s])) least[s] = c;
        return {least.begin(), least.end()};
    }
    double wideNode(int32_t n, const Aabb& box) {
        if (auto it = memo.find(n); it != memo.end()) return it->second;
        double best = INFINITY;
        for (const auto& c : cuts(n)) best = std::min(best, c.second);
        const double cost = double(kWideNodeCost) * area(box) + best;
        memo[n] = cost;
        return cost;
    }
    double root() {
        CollapseChild g[2];
        const int gm = binaryChildren(bvh.nodes, int32_t(rootOf(bvh)), g);
        Aabb box = g[0].box;
        if (gm > 1) box.grow(g[1].box);
        return wideNode(int32_t(rootOf(bvh)), box);
    }
};

double relative(double a, double b) { return std::abs(a - b) / std::max(1e-30, std::abs(b)); }

// The binary trees of the exhaustive test: the Morton-order builders' (one
// primitive per leaf) and binned-SAH trees with leaves of up to 2 and 3
// (binary leaves of several entries: merged into leaf slots in runs).
std::vector<std::pair<std::string, HostBvh>> smallTrees(const std::vector<Aabb>& bounds) {
    std::vector<std::pair<std::string, HostBvh>> out;
    for (LbvhVariant v : {LbvhVariant::Karras, LbvhVariant::Hploc})
        out.emplace_back(lbvhVariantName(v), buildLbvhHost(bounds, 63, v).bvh);
    for (int leaf : {2, 3}) {
        SahConfig config;
        config.maxLeafSize = leaf;
        out.emplace_back("cpu-sah, leaves of " + std::to_string(leaf), buildSahBvh(bounds, config));
    }
    return out;
}

}  // namespace

// Small trees of every shape the builders make: the SAH collapse's tree
// costs the exhaustive least (float sums against double: 1e-5), the greedy
// one's at least that, and the bottom-up pass's C(root, 1) is the cost.
TEST(CollapseSah, CostsTheLeastOfAnExhaustiveSearch) {
    int strictlyBetter = 0, trees = 0;
    for (uint32_t n : {2u, 3u, 4u, 5u, 7u, 9u, 12u, 17u, 24u, 31u})
        for (uint32_t seed = 1; seed <= 6; ++seed) {
            const Mesh m = test::makeRandomTriangles(n, 0.2f, 1000 * n + seed);
            const std::vector<Aabb> bounds = test::boundsOf(m);
            for (const auto& [name, binary] : smallTrees(bounds)) {
                const std::string what = std::to_string(n) + " triangles, seed " + std::to_string(seed) + ", " + name;
                Exhaustive ex{binary.view(), {}};
                const double least = ex.root();
                const HostCwbvh sah = collapseToCwbvh(binary.view(), WideCollapse::Sah);
                const HostCwbvh greedy = collapseToCwbvh(binary.view(), WideCollapse::Greedy);
                ASSERT_TRUE(validateCwbvh(sah.view(), bounds).ok) << what;
                const double got = wideTreeCost(sah, bounds), other = wideTreeCost(greedy, bounds);
                EXPECT_LT(relative(got, least), 1e-5) << what << ": " << got << " against " << least;
                EXPECT_GE(other, least * (1 - 1e-5)) << what;
                // The wide root is always a node: C_internal(root) = C(root, 1) unless a leaf was cheaper.
                const std::vector<WideCost> costs = wideCostsOf(binary.view());
                const double root = costs[rootOf(binary.view())].c[0];
                if (n > 3) EXPECT_LT(relative(root, got), 1e-5) << what;
                strictlyBetter += other > least * (1 + 1e-4);
                ++trees;
            }
        }
    // The search is not idle: the greedy collapse misses the least on some.
    EXPECT_GT(strictlyBetter, 0) << "of " << trees;
    std::printf("greedy above the least on %d of %d trees\n", strictlyBetter, trees);
}

namespace {

// Large trees: never above the greedy collapse, and the root's C is the cost.
void expectNoWorseThanGreedy(const std::vector<Aabb>& bounds, const std::string& name) {
    for (LbvhVariant v : {LbvhVariant::Karras, LbvhVariant::Hploc}) {
        const HostBvh binary = buildLbvhHost(bounds, 63, v).bvh;
        const HostCwbvh sah = collapseToCwbvh(binary.view(), WideCollapse::Sah);
        const HostCwbvh greedy = collapseToCwbvh(binary.view(), WideCollapse::Greedy);
        const CwbvhReport rs = validateCwbvh(sah.view(), bounds), rg = validateCwbvh(greedy.view(), bounds);
        ASSERT_TRUE(rs.ok && rg.ok) << name;
        const double got = wideTreeCost(sah, bounds), other = wideTreeCost(greedy, bounds);
        EXPECT_LE(got, other * (1 + 1e-5)) << name << " " << lbvhVariantName(v);
        const double root = wideCostsOf(binary.view())[rootOf(binary.view())].c[0];
        EXPECT_LT(relative(root, got), 1e-4) << name << " " << lbvhVariantName(v);
        std::printf("%s %s: sah %.4g (%u nodes, %.2f children, depth %u) greedy %.4g (%u nodes, %.2f, depth %u)\n",
                    name.c_str(), lbvhVariantName(v), got, rs.nodes, rs.childrenPerNode, rs.maxDepth, other, rg.nodes,
                    rg.childrenPerNode, rg.maxDepth);
    }
}

}  // namespace

TEST(CollapseSah, NoWorseThanGreedyOnLargeTrees) {
    expectNoWorseThanGreedy(test::boundsOf(test::makeRandomTriangles(20000, 0.01f, 20011)), "20,000 random");
    expectNoWorseThanGreedy(test::boundsOf(test::makeDuplicateHeavy(5000, 50, 3)), "duplicate-heavy");
}

TEST(CollapseSah, TheRealBunny) {
    const std::string path = test::testdataFile("stanford-bunny.obj");
    if (path.empty()) GTEST_SKIP() << "stanford-bunny.obj not found (../shared/testdata)";
    expectNoWorseThanGreedy(test::boundsOf(loadObj(path).mesh), "bunny");
}

// Coincident and collinear primitives (boxes of zero area: every cost 0):
// ties go to more roots, so the wide tree is as wide as the greedy one's,
// not a binary tree of wide nodes.
TEST(CollapseSah, ZeroAreaSubtreesAreTakenWhole) {
    std::vector<Aabb> bounds;
    for (int i = 0; i < 5000; ++i) bounds.push_back(Aabb{{float(i % 97), 0, 0}, {float(i % 97), 0, 0}});
    for (LbvhVariant v : {LbvhVariant::Karras, LbvhVariant::Hploc}) {
        const HostBvh binary = buildLbvhHost(bounds, 63, v).bvh;
        const CwbvhReport sah = validateCwbvh(collapseToCwbvh(binary.view(), WideCollapse::Sah).view(), bounds);
        const CwbvhReport greedy = validateCwbvh(collapseToCwbvh(binary.view(), WideCollapse::Greedy).view(), bounds);
        ASSERT_TRUE(sah.ok && greedy.ok) << lbvhVariantName(v);
        EXPECT_GE(sah.childrenPerNode, greedy.childrenPerNode * 0.9) << lbvhVariantName(v);
        EXPECT_LE(sah.maxDepth, greedy.maxDepth + 2) << lbvhVariantName(v);
        std::printf("zero area, %s: sah %.2f children per node, depth %u; greedy %.2f, depth %u\n", lbvhVariantName(v),
                    sah.childrenPerNode, sah.maxDepth, greedy.childrenPerNode, greedy.maxDepth);
    }
}
