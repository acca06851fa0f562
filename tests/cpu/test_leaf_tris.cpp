// accel.copy_leaf_tris (accel/leaf_tris.h): the triangles copied in a tree's
// leaf order give the indexed triangles' hits bit for bit, closest and any,
// on random, coincident and real triangles, through every traversal path
// (the fast stack, the deep restart, the scan), in the binary tree and in
// its 8-wide collapse; the CPU backend's copy is made only where a stack
// traversal reads it, in the order of the tree traced.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "accel/cpu/sah_builder.h"
#include "accel/host_accel.h"
#include "accel/lbvh/lbvh_host.h"
#include "accel/wide/collapse_host.h"
#include "accel/wide/cwbvh_traverse.h"
#include "lbvh_cases.h"
#include "loader_test_util.h"
#include "render/flat_scene.h"
#include "render/scene_view.h"
#include "scene/obj_loader.h"
#include "test_util.h"

namespace strata {
namespace {

// Rays from around the mesh's box towards random points in it.
std::vector<Ray> raysInto(const Mesh& m, int n) {
    Aabb box;
    for (const Vec3& p : m.positions) box.grow(p);
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    const Vec3 e = box.extent();
    auto at = [&](float margin) {
        return box.lo + Vec3{(u(rng) * (1 + 2 * margin) - margin) * e.x, (u(rng) * (1 + 2 * margin) - margin) * e.y,
                             (u(rng) * (1 + 2 * margin) - margin) * e.z};
    };
    std::vector<Ray> rays(n);
    for (Ray& r : rays) {
        r.org = at(0.3f);
        r.dir = normalize(at(0.0f) - r.org);
    }
    return rays;
}

// Each ray traced indexed and with the copy (closest(copied, ray, stats) ->
// HitRecord, any(copied, ray) -> bool): the same closest hit (id and
// distance bits), the same any hit, and brute force's closest over g.
// Returns the hits; counted(stats) of the copy's rays is added to *count.
template <class Closest, class Any, class Counted>
int expectSameHits(const GeometryView& g, const std::vector<Ray>& rays, const std::string& what, Closest closest,
                   Any any, Counted counted, uint32_t* count) {
    int hits = 0;
    for (size_t i = 0; i < rays.size(); ++i) {
        const Ray& r = rays[i];
        TraversalStats st;
        const HitRecord ha = closest(false, r, nullptr), hb = closest(true, r, &st), ref = traceBruteForce(g, r);
        EXPECT_EQ(hb, ha) << what << " ray " << i;  // packed id and distance: bit for bit
        EXPECT_EQ(isHit(ha), isHit(ref)) << what << " ray " << i;
        if (isHit(ha) && isHit(ref)) EXPECT_EQ(hitDistance(ha), hitDistance(ref)) << what << " ray " << i;
        EXPECT_EQ(any(true, r), any(false, r)) << what << " ray " << i;
        hits += isHit(ha);
        if (count) *count += counted(st);
    }
    return hits;
}

// Traces the rays through bvh over m, indexed and with the copy
// (expectSameHits). Returns the hits and counts the copy's rays that
// overflowed the fast stack.
int expectCopyTracesAsIndexed(const Mesh& m, const BvhView& indexed, const std::vector<Ray>& rays,
                              const std::string& what, uint32_t* overflowed = nullptr) {
    std::vector<LeafTri> copy;
    copyLeafTris(std::vector<uint32_t>(indexed.primIndex, indexed.primIndex + indexed.numPrims), m.positions.data(),
                 m.triangles.data(), copy);
    for (size_t k = 0; k < copy.size(); ++k) EXPECT_EQ(copy[k].prim, indexed.primIndex[k]) << what;
    SceneView a, b;
    a.geo = b.geo = test::geometryOf(m);
    a.bvh = b.bvh = indexed;
    b.bvh.leafTris = copy.data();
    auto closest = [&](bool copied, const Ray& r, TraversalStats* st) { return traceClosest(copied ? b : a, r, st); };
    auto any = [&](bool copied, const Ray& r) { return traceAny(copied ? b : a, r); };
    return expectSameHits(
        a.geo, rays, what, closest, any, [](const TraversalStats& st) { return st.stackOverflow; }, overflowed);
}

TEST(LeafTris, TheCopyTracesAsTheIndexedTriangles) {
    const Mesh m = test::makeRandomTriangles(3000, 0.08f, 7);
    const std::vector<Aabb> bounds = test::boundsOf(m);
    const std::vector<Ray> rays = raysInto(m, 3000);
    // Leaves of several triangles (the binned SAH) and of one (every LBVH).
    const HostBvh sah = buildSahBvh(bounds);
    EXPECT_GT(expectCopyTracesAsIndexed(m, sah.view(), rays, "binned SAH"), 1000);
    for (LbvhVariant v : kLbvhVariants) {
        const LbvhHostResult r = buildLbvhHost(bounds, 63, v);
        EXPECT_GT(expectCopyTracesAsIndexed(m, r.bvh.view(), rays, lbvhVariantName(v)), 1000);
    }
}

// Coincident triangles, whose equal distances the id decides (packHit), in
// an LBVH deeper than the fast stack: every ray restarts with the deep
// stack, which reads the copy too.
TEST(LeafTris, CoincidentTrianglesAndTheDeepRestart) {
    const Mesh m = test::makeDeepCoincident(1u << 17);
    const LbvhHostResult r = buildLbvhHost(test::boundsOf(m), 63, LbvhVariant::Karras);
    const std::vector<Ray> rays = test::raysIntoDeepCoincident(24, 4);
    uint32_t overflowed = 0;
    EXPECT_EQ(expectCopyTracesAsIndexed(m, r.bvh.view(), rays, "deep coincident, lbvh-karras", &overflowed),
              int(rays.size()));
    EXPECT_EQ(overflowed, rays.size());
}

// The same for the binary tree collapsed 8 wide, its triangles copied in
// the wide tree's leaf order, through stacks of FastStack and DeepStack
// entries (1 and 2 make the rays that need more restart, then scan).
// Returns the hits and counts the rays that scanned.
template <int FastStack = kBvhStackSize, int DeepStack = kBvhDeepStackSize>
int expectWideCopyTracesAsIndexed(const Mesh& m, const HostCwbvh& wide, const std::vector<Ray>& rays,
                                  const std::string& what, uint32_t* scanned = nullptr) {
    std::vector<LeafTri> copy;
    copyLeafTris(wide.primIndex, m.positions.data(), m.triangles.data(), copy);
    const GeometryView g = test::geometryOf(m);
    const CwbvhView indexed = wide.view();
    CwbvhView copied = indexed;
    copied.leafTris = copy.data();
    auto tri = [&](uint32_t p, const Ray& r, float tm) { return intersectTri(g, p, r, tm); };
    auto closest = [&](bool c, const Ray& r, TraversalStats* st) {
        float tmax = r.tmax;
        const uint32_t p = traverseCwbvh<false, FastStack, DeepStack>(c ? copied : indexed, r, tmax, tri, st);
        return p == ~0u ? kNoHit : packHit(tmax, p);
    };
    auto any = [&](bool c, const Ray& r) {
        float tmax = r.tmax;
        return traverseCwbvh<true, FastStack, DeepStack>(c ? copied : indexed, r, tmax, tri) != ~0u;
    };
    return expectSameHits(
        g, rays, what, closest, any, [](const TraversalStats& st) { return st.scanRestarts; }, scanned);
}

TEST(LeafTris, TheWideTreesCopyTracesAsItsIndexedTriangles) {
    const Mesh m = test::makeRandomTriangles(3000, 0.08f, 7);
    const std::vector<Aabb> bounds = test::boundsOf(m);
    const std::vector<Ray> rays = raysInto(m, 2000);
    const HostBvh sah = buildSahBvh(bounds);
    const LbvhHostResult hploc = buildLbvhHost(bounds, 63, LbvhVariant::Hploc);
    for (WideCollapse how : {WideCollapse::Sah, WideCollapse::Greedy}) {
        const std::string name = strata::name(how);
        EXPECT_GT(expectWideCopyTracesAsIndexed(m, collapseToCwbvh(sah.view(), how), rays, "binned SAH " + name), 700);
        const HostCwbvh wide = collapseToCwbvh(hploc.bvh.view(), how);
        EXPECT_GT(expectWideCopyTracesAsIndexed(m, wide, rays, "hploc " + name), 700);
        uint32_t scanned = 0;
        const int small = expectWideCopyTracesAsIndexed<1, 2>(m, wide, rays, "hploc, stacks of 1 and 2 " + name,
                                                              &scanned);  // (a macro's arguments cannot hold <1, 2>)
        EXPECT_GT(small, 700);
        EXPECT_GT(scanned, rays.size() / 4) << "rays that overflow both stacks scan the copied entries";
    }
}

// A real model made elsewhere (../shared/testdata), where present.
TEST(LeafTris, TheRealBunny) {
    const std::string path = test::testdataFile("stanford-bunny.obj");
    if (path.empty()) GTEST_SKIP() << "stanford-bunny.obj not found (../shared/testdata)";
    const Mesh m = loadObj(path).mesh;
    const LbvhHostResult r = buildLbvhHost(test::boundsOf(m), 63, LbvhVariant::Hploc);
    const std::vector<Ray> rays = raysInto(m, 1000);
    EXPECT_GT(expectCopyTracesAsIndexed(m, r.bvh.view(), rays, "bunny, hploc"), 300);
    EXPECT_GT(
        expectWideCopyTracesAsIndexed(m, collapseToCwbvh(r.bvh.view(), WideCollapse::Sah), rays, "bunny, hploc 8 wide"),
        300);
}

// The CPU backend copies only where the stack traversal of the binary tree
// reads the leaves and all of them are triangles, and a new build or refit
// drops the last copy (its vertices are old).
TEST(LeafTris, TheHostCopyIsMadeWhereItIsRead) {
    const Mesh m = test::makeRandomTriangles(500, 0.08f, 3);
    const std::vector<Aabb> bounds = test::boundsOf(m);
    auto copied = [&](const char* key, const char* value, bool unified = false) {
        Options o;
        o.set("accel.builder", "lbvh-skip");
        if (key) o.set(key, value);
        HostAccel a;
        buildHostAccel(bounds, o.accel, a);
        collapseHostAccel(o.accel, a);
        copyHostLeafTris(o.accel, unified, m.positions.data(), m.triangles.data(), m.triangles.size(), a);
        // The tree traced reads the copy, in its own order; the other does not.
        const bool wide = o.accel.width == BvhWidth::Eight;
        const bool seen = (wide ? a.wideView(o.accel).leafTris : a.view(o.accel).leafTris) != nullptr;
        EXPECT_EQ(wide ? a.view(o.accel).leafTris : a.wideView(o.accel).leafTris, nullptr);
        EXPECT_EQ(seen, !a.leafTris.empty()) << (key ? key : "defaults");
        if (seen) {
            const std::vector<uint32_t>& order = wide ? a.wide.primIndex : a.bvh.primIndex;
            for (size_t k = 0; k < order.size(); ++k) EXPECT_EQ(a.leafTris[k].prim, order[k]) << k;
            buildHostAccel(bounds, o.accel, a);
            EXPECT_TRUE(a.leafTris.empty());
            EXPECT_EQ(a.view(o.accel).leafTris, nullptr);
            EXPECT_EQ(a.wideView(o.accel).leafTris, nullptr);
        }
        return seen;
    };
    EXPECT_TRUE(copied(nullptr, nullptr));
    EXPECT_FALSE(copied("accel.copy_leaf_tris", "false"));
    EXPECT_TRUE(copied("accel.width", "8"));
    EXPECT_FALSE(copied("accel.traversal", "stackless"));
    EXPECT_FALSE(copied(nullptr, nullptr, true));  // vd.middle_level unified: patch boxes in the tree
    EXPECT_TRUE(copied("accel.builder", "cpu-sah"));
}

}  // namespace
}  // namespace strata
