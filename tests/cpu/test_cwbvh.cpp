// The 8-wide compressed BVH (accel/wide): the collapse of every binary
// builder's tree keeps every primitive in exactly one leaf under boxes
// that hold it, and the wide traversal finds the brute-force closest hit
// and the same any-hit answer, on random, duplicate-heavy, coincident,
// deep, coplanar and far-from-origin inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "accel/lbvh/lbvh_host.h"
#include "accel/wide/collapse.h"
#include "accel/wide/collapse_host.h"
#include "accel/wide/cwbvh_traverse.h"
#include "check/hit_compare.h"
#include "core/error.h"
#include "kd_test_util.h"
#include "lbvh_cases.h"

using namespace strata;

namespace {

struct Built {
    std::string name;
    HostBvh binary;
};

// The binary trees the collapse takes: the Morton-order builders' (one
// primitive per leaf) and the binned-SAH tree's (leaves of up to 4).
std::vector<Built> binaryTrees(const std::vector<Aabb>& bounds) {
    std::vector<Built> out;
    for (LbvhVariant v : {LbvhVariant::Karras, LbvhVariant::Apetrei, LbvhVariant::Hploc})
        out.push_back({lbvhVariantName(v), buildLbvhHost(bounds, 63, v).bvh});
    out.push_back({"cpu-sah", buildSahBvh(bounds)});
    return out;
}

HitRecord wideClosest(const CwbvhView& w, const GeometryView& g, const Ray& ray, TraversalStats* stats = nullptr) {
    float tmax = ray.tmax;
    const uint32_t p = traverseCwbvh<false>(
        w, ray, tmax, [&](uint32_t prim, const Ray& r, float tm) { return intersectTri(g, prim, r, tm); }, stats);
    return p == ~0u ? kNoHit : packHit(tmax, p);
}
bool wideAny(const CwbvhView& w, const GeometryView& g, const Ray& ray) {
    float tmax = ray.tmax;
    return traverseCwbvh<true>(w, ray, tmax, [&](uint32_t prim, const Ray& r, float tm) {
               return intersectTri(g, prim, r, tm);
           }) != ~0u;
}

// Collapses each builder's tree of m, validates it and traces rays through it
// against brute force (the same triangle test: distances bit-identical).
void expectWideMatches(const std::string& name, const Mesh& m, const std::vector<Ray>& rays) {
    const std::vector<Aabb> bounds = test::boundsOf(m);
    const GeometryView g = test::geometryOf(m);
    for (const Built& b : binaryTrees(bounds))
        for (WideCollapse how : {WideCollapse::Sah, WideCollapse::Greedy}) {
            const std::string what = name + " " + b.name + " " + strata::name(how);
            const HostCwbvh wide = collapseToCwbvh(b.binary.view(), how);
            const CwbvhReport rep = validateCwbvh(wide.view(), bounds);
            ASSERT_TRUE(rep.ok) << what << ": " << (rep.errors.empty() ? "" : rep.errors[0]);
            ASSERT_EQ(wide.primIndex.size(), bounds.size()) << what;
            for (size_t i = 0; i < rays.size(); ++i) {
                const HitRecord ref = traceBruteForce(g, rays[i]);
                const HitRecord got = wideClosest(wide.view(), g, rays[i]);
                ASSERT_TRUE(sameHit(got, ref, 0.0f))
                    << what << " ray " << i << ": " << std::hex << got << " vs " << ref;
                ASSERT_EQ(wideAny(wide.view(), g, rays[i]), isHit(ref)) << what << " ray " << i;
            }
        }
}

}  // namespace

TEST(Cwbvh, EveryBuildersTreeCollapsedTracesAsBruteForce) {
    for (const test::LbvhCase& c : test::lbvhCases(true))
        expectWideMatches(c.name, c.mesh, test::raysAtTriangles(c.mesh, 600, 31));
}

// Coplanar walls (flat boxes: a grid step of the smallest float on that
// axis) and a fan, hit along and across the walls.
TEST(Cwbvh, CoplanarWallsAndFan) {
    const Mesh m = test::wallsAndFan(12, 40);
    std::vector<Ray> rays = test::raysAtTriangles(m, 800, 7);
    std::mt19937 rng(3);
    for (int i = 0; i < 400; ++i) rays.push_back(test::randomRay(rng));
    expectWideMatches("walls", m, rays);
}

// Far from the origin, small: the grid origin's coordinates are large
// against the node extents (the quantization's subtractions).
TEST(Cwbvh, SmallMeshFarFromTheOrigin) {
    Mesh m = test::scaled(test::makeRandomTriangles(2000, 0.02f, 77), 0.01f, Vec3{30000.0f, -52000.0f, 12000.0f});
    std::vector<Ray> rays = test::raysAtTriangles(m, 1, 1);
    rays.clear();
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (int i = 0; i < 1000; ++i) {
        const Tri& t = m.triangles[rng() % m.triangles.size()];
        const Vec3 c = (m.positions[t.v[0]] + m.positions[t.v[1]] + m.positions[t.v[2]]) * (1.0f / 3.0f);
        Ray r;
        r.org = c + Vec3{u(rng), u(rng), u(rng)} * 0.05f;
        r.dir = normalize(c - r.org + Vec3{u(rng), u(rng), u(rng)} * 0.001f);
        rays.push_back(r);
    }
    expectWideMatches("far", m, rays);
}

// The deep binary tree of coincident triangles (its wide tree is shallow).
TEST(Cwbvh, DeepBinaryTree) {
    const Mesh m = test::makeDeepCoincident(64);
    expectWideMatches("deep", m, test::raysIntoDeepCoincident(300, 13));
}

// A stack too small for the tree: rays restart with the deep stack and, when
// that is too small too, scan every leaf entry; no hit is lost (stacks of 1
// and 2 entries make both restarts happen).
TEST(Cwbvh, StackOverflowRestartsLoseNothing) {
    const Mesh m = test::makeRandomTriangles(3000, 0.03f, 41);
    const GeometryView g = test::geometryOf(m);
    const HostCwbvh wide =
        collapseToCwbvh(buildLbvhHost(test::boundsOf(m), 63, LbvhVariant::Karras).bvh.view(), WideCollapse::Sah);
    auto tri = [&](uint32_t p, const Ray& r, float tm) { return intersectTri(g, p, r, tm); };
    TraversalStats stats;
    for (const Ray& r : test::raysAtTriangles(m, 500, 4)) {
        float tmax = r.tmax;
        const uint32_t p = traverseCwbvh<false, 1, 2>(wide.view(), r, tmax, tri, &stats);  // (a macro's
        // arguments cannot hold the template's commas: results first)
        const HitRecord ref = traceBruteForce(g, r);
        ASSERT_TRUE(sameHit(p == ~0u ? kNoHit : packHit(tmax, p), ref, 0.0f));
        float t2 = r.tmax;
        const bool any = traverseCwbvh<true, 1, 2>(wide.view(), r, t2, tri) != ~0u;
        ASSERT_EQ(any, isHit(ref));
    }
    EXPECT_GT(stats.deepRestarts, 0u);
    EXPECT_GT(stats.scanRestarts, 0u);
}

// A ray parallel to an axis (its inverse direction 1e30 there) whose origin
// is far from the grid origins: a ground plane 8e8 wide hit from above.
TEST(Cwbvh, AxisParallelRaysFarFromTheGridOrigin) {
    Mesh m;
    test::addTriangle(m, {-4e8f, 0, -4e8f}, {4e8f, 0, -4e8f}, {0, 0, 4e8f});
    for (int i = 0; i < 40; ++i)  // and small ones elsewhere, so that there are inner nodes
        test::addTriangle(m, {float(i), 50, 0}, {float(i) + 0.5f, 50, 0}, {float(i), 50.5f, 0});
    std::vector<Ray> rays;
    for (float x : {1e8f, -1.5e8f, 1.9e8f, 1e6f, 0.25f}) {
        Ray r;
        r.org = {x, 100, 0};
        r.dir = {0, -1, 0};
        rays.push_back(r);
        r.org = {0.3f, 100, x * 0.5f};
        rays.push_back(r);
    }
    expectWideMatches("ground", m, rays);
    const GeometryView g = test::geometryOf(m);
    for (const Ray& r : rays) EXPECT_TRUE(isHit(traceBruteForce(g, r)));
}

// The validator sees a box one grid step too small: each leaf slot's upper
// x plane lowered by a step is reported exactly when the slot's primitives
// then reach past it (compared here in double, as the planes are exact).
TEST(Cwbvh, ValidatorSeesAPlaneOneStepTooTight) {
    const Mesh m = test::makeRandomTriangles(2000, 0.002f, 8);
    const std::vector<Aabb> bounds = test::boundsOf(m);
    const HostCwbvh wide =
        collapseToCwbvh(buildLbvhHost(bounds, 63, LbvhVariant::Karras).bvh.view(), WideCollapse::Sah);
    ASSERT_TRUE(validateCwbvh(wide.view(), bounds).ok);
    size_t excluded = 0, checked = 0;
    for (size_t k = 0; k < wide.nodes.size() && checked < 400; ++k)
        for (int s = 0; s < kCwbvhWidth; ++s) {
            const CwbvhNode& n = wide.nodes[k];
            if (!n.meta[s] || cwbvhIsInnerMeta(n.meta[s]) || n.qhix[s] == 0) continue;
            HostCwbvh bad = wide;
            bad.nodes[k].qhix[s]--;
            const double plane = double(n.px) + double(bad.nodes[k].qhix[s]) * double(cwbvhStep(n.ex));
            bool outside = false;
            for (uint32_t j = 0; j < 3 && (n.meta[s] >> (5 + j) & 1u); ++j)
                outside |= double(bounds[wide.primIndex[n.primBase + (n.meta[s] & 0x1f) + j]].hi.x) > plane;
            EXPECT_EQ(validateCwbvh(bad.view(), bounds).ok, !outside) << "node " << k << " slot " << s;
            excluded += outside;
            ++checked;
        }
    EXPECT_GT(excluded, checked / 4) << excluded << " of " << checked;
}

// The wide tree of 20,000 random triangles, both collapses: nodes mostly
// full, far fewer than the binary tree's, and per ray fewer node reads than
// the binary traversal's for the same hits.
TEST(Cwbvh, NodesAreWideAndTraversalsShort) {
    const Mesh m = test::makeRandomTriangles(20000, 0.01f, 20011);
    const std::vector<Aabb> bounds = test::boundsOf(m);
    const HostBvh binary = buildLbvhHost(bounds, 63, LbvhVariant::Karras).bvh;
    const GeometryView g = test::geometryOf(m);
    const std::vector<Ray> rays = test::raysAtTriangles(m, 2000, 9);
    TraversalStats bs;
    for (const Ray& r : rays) {
        float tmax = r.tmax;
        traverseBvh<false>(
            binary.view(), r, tmax, [&](uint32_t p, const Ray& ray, float tm) { return intersectTri(g, p, ray, tm); },
            &bs);
    }
    for (WideCollapse how : {WideCollapse::Sah, WideCollapse::Greedy}) {
        const HostCwbvh wide = collapseToCwbvh(binary.view(), how);
        const CwbvhReport rep = validateCwbvh(wide.view(), bounds);
        ASSERT_TRUE(rep.ok);
        EXPECT_GT(rep.childrenPerNode, 3.5) << name(how);  // the bottom nodes of a few leaves hold fewer
        EXPECT_LT(wide.nodes.size() * 4, binary.nodes.size()) << name(how);
        TraversalStats ws;
        for (const Ray& r : rays) wideClosest(wide.view(), g, r, &ws);
        EXPECT_LT(ws.nodesVisited * 2, bs.nodesVisited)
            << name(how) << ": " << ws.nodesVisited << " wide against " << bs.nodesVisited;
        std::printf(
            "%s: wide %u nodes, %.2f children per node, SAH %.1f; node reads per ray %.1f, triangles %.2f "
            "(binary %.1f, %.2f)\n",
            name(how), unsigned(wide.nodes.size()), rep.childrenPerNode, rep.sahCost, ws.nodesVisited / 2000.0,
            ws.primsTested / 2000.0, bs.nodesVisited / 2000.0, bs.primsTested / 2000.0);
    }
}

// Each leaf slot names 1 to 3 consecutive entries; a binary leaf of 4
// (the binned-SAH tree's largest) takes two slots; a larger one is refused.
TEST(Cwbvh, LeafSlotsAndTheLargestBinaryLeaf) {
    const Mesh m = test::makeRandomTriangles(4, 0.02f, 3);
    const std::vector<Aabb> bounds = test::boundsOf(m);
    HostBvh one;  // a root whose left child is a leaf of all 4
    one.primIndex = {0, 1, 2, 3};
    BvhNode root{};
    Aabb box;
    for (const Aabb& b : bounds) box.grow(b);
    root.setLeft(box, 0, 4);
    root.setRight(Aabb{}, -1, 0);
    one.nodes = {root};
    for (WideCollapse how : {WideCollapse::Sah, WideCollapse::Greedy}) {
        const HostCwbvh wide = collapseToCwbvh(one.view(), how);
        ASSERT_EQ(wide.nodes.size(), 1u);
        int slots = 0;
        for (uint8_t meta : wide.nodes[0].meta) slots += meta != 0;
        EXPECT_EQ(slots, 2) << name(how);
        EXPECT_TRUE(validateCwbvh(wide.view(), bounds).ok) << name(how);
    }
    one.nodes[0].leftCount = kCwbvhMaxBinaryLeaf + 1;
    one.primIndex.resize(kCwbvhMaxBinaryLeaf + 1, 0);
    EXPECT_THROW(collapseToCwbvh(one.view(), WideCollapse::Sah), Error);
    EXPECT_THROW(collapseToCwbvh(one.view(), WideCollapse::Greedy), Error);
}

// The greedy collapse: a binary node of two one-primitive leaves becomes
// one leaf slot of two entries (Ylitie's leaves of up to 3): the wide tree
// of 20,000 random triangles holds such slots, each with both primitives
// under its box.
TEST(Cwbvh, PairsOfLeavesBecomeOneSlot) {
    const Mesh m = test::makeRandomTriangles(20000, 0.01f, 20011);
    const std::vector<Aabb> bounds = test::boundsOf(m);
    const HostCwbvh wide =
        collapseToCwbvh(buildLbvhHost(bounds, 63, LbvhVariant::Karras).bvh.view(), WideCollapse::Greedy);
    size_t pairs = 0, slots = 0;
    for (const CwbvhNode& n : wide.nodes)
        for (uint8_t meta : n.meta)
            if (meta && !cwbvhIsInnerMeta(meta)) {
                ++slots;
                pairs += (meta >> 5) == 3u;
            }
    EXPECT_GT(pairs, slots / 4) << pairs << " of " << slots << " leaf slots";
    EXPECT_TRUE(validateCwbvh(wide.view(), bounds).ok);  // every entry under its slot's box, once
}

// The slot assignment (collapse.h's assignCwbvhSlots, a tree of comparisons
// per round) against the greedy loop it replaces, written here as a chain:
// each round the unplaced child and free slot of the greatest cost, the
// first pair in (child, slot) order of equals, costs that are not greater
// than -inf never chosen, and a lone leftover's lowest free slot. Random
// costs drawn from a few values (so that ties are common), with -0 and +0,
// NaN and both infinities, for every child count.
TEST(Cwbvh, SlotAssignmentIsTheGreedyChain) {
    auto chain = [](const float(&cost)[kCwbvhWidth][kCwbvhWidth], int m, int(&slotOf)[kCwbvhWidth]) {
        uint32_t freeSlots = 0xffu, unplaced = (1u << m) - 1u;
        while (unplaced) {
            int bc = -1, bs = -1;
            float best = -INFINITY;
            for (int k = 0; k < kCwbvhWidth; ++k)
                for (int s = 0; s < kCwbvhWidth; ++s)
                    if ((unplaced >> k & 1u) && (freeSlots >> s & 1u) && cost[k][s] > best) {
                        best = cost[k][s];
                        bc = k;
                        bs = s;
                    }
            if (bc < 0) {
                bc = int(lowestBit(unplaced));
                bs = int(lowestBit(freeSlots));
            }
            unplaced &= ~(1u << bc);
            freeSlots &= ~(1u << bs);
            slotOf[bc] = bs;
        }
    };
    const float values[] = {0.0f, -0.0f, 1.0f, -1.0f, 2.5f, -1e-40f, 1e-40f, INFINITY, -INFINITY, NAN};
    std::mt19937 rng(8);
    for (int trial = 0; trial < 20000; ++trial) {
        const int m = 1 + trial % kCwbvhWidth;
        const unsigned kinds = trial % 3 == 0 ? 10u : trial % 3 == 1 ? 6u : 3u;  // all, no specials, few values
        float cost[kCwbvhWidth][kCwbvhWidth];
        for (auto& row : cost)
            for (float& v : row)
                v = (rng() % 4u == 0u && kinds == 6u) ? float(rng() % 1000u) * 0.01f : values[rng() % kinds];
        int want[kCwbvhWidth], got[kCwbvhWidth];
        chain(cost, m, want);
        assignCwbvhSlots(cost, m, got);
        for (int k = 0; k < m; ++k) ASSERT_EQ(got[k], want[k]) << "trial " << trial << ", child " << k << " of " << m;
    }
}
