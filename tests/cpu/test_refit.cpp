// accel.rebuild = refit on the CPU (accel/lbvh/refit.h through
// accel/host_accel.h): for every Morton-order builder, a tree built at one
// pose and refitted to another keeps its shape, every box is exactly the
// union of the primitives below it (computed here independently), closest
// hits equal brute force at the new pose (stackless too), and a refit to the
// boxes it was built from changes no bit. The options refuse refit where it
// cannot apply.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "accel/bvh_validate.h"
#include "accel/host_accel.h"
#include "accel/toplevel/blas_refit.h"
#include "accel/lbvh/lbvh_compare.h"
#include "accel/lbvh/lbvh_host.h"
#include "core/error.h"
#include "lbvh_cases.h"

using namespace strata;

namespace {

const Builder kMortonBuilders[] = {Builder::LbvhKarras, Builder::LbvhApetrei, Builder::LbvhSkip, Builder::Hploc};

// Every triangle moved by its own random offset (a deformation that keeps
// the count): the tree built before no longer fits.
Mesh deformed(const Mesh& m, float amount, uint32_t seed) {
    Mesh d = m;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-amount, amount);
    for (size_t t = 0; t < d.triangles.size(); ++t) {
        Vec3 off{u(rng), u(rng), u(rng)};
        for (uint32_t v : d.triangles[t].v) d.positions[v] = m.positions[v] + off;
    }
    return d;
}

// The union of the primitive boxes below a child, checked against the box
// its parent stores (bit for bit); counts the children that differ.
Aabb exactUnion(const HostBvh& t, const std::vector<Aabb>& prims, int32_t index, int32_t count, size_t& wrong) {
    Aabb u;
    if (count == 0 && index < 0) return u;  // the absent child of a one-leaf root
    if (count > 0) {
        for (int32_t k = 0; k < count; ++k) u.grow(prims[t.primIndex[index + k]]);
        return u;
    }
    const BvhNode& n = t.nodes[index];
    Aabb l = exactUnion(t, prims, n.left, n.leftCount, wrong);
    Aabb r = exactUnion(t, prims, n.right, n.rightCount, wrong);
    wrong += std::memcmp(&l, &(const Aabb&)n.leftBox(), sizeof(Aabb)) != 0;
    wrong += std::memcmp(&r, &(const Aabb&)n.rightBox(), sizeof(Aabb)) != 0;
    return merge(l, r);
}

size_t inexactBoxes(const HostBvh& t, const std::vector<Aabb>& prims) {
    size_t wrong = 0;
    exactUnion(t, prims, int32_t(t.root), 0, wrong);
    return wrong;
}

AccelOptions refitOptions(Builder b) {
    AccelOptions o;
    o.builder = b;
    o.rebuild = Rebuild::Refit;
    return o;
}

}  // namespace

TEST(Refit, BoxesAreExactUnionsAndTheShapeStays) {
    for (const test::LbvhCase& c : test::lbvhCases(false))
        for (Builder b : kMortonBuilders) {
            const AccelOptions o = refitOptions(b);
            HostAccel a;
            buildHostAccel(test::boundsOf(c.mesh), o, a);
            const HostBvh before = a.bvh;
            const std::vector<Aabb> moved = test::boundsOf(deformed(c.mesh, 0.2f, 3));
            buildHostAccel(moved, o, a);  // refits: same builder, count and bits
            const char* what = name(b);
            EXPECT_EQ(a.bvh.root, before.root) << c.name << " " << what;
            EXPECT_EQ(a.bvh.primIndex, before.primIndex) << c.name << " " << what;
            ASSERT_EQ(a.bvh.nodes.size(), before.nodes.size()) << c.name << " " << what;
            for (size_t i = 0; i < a.bvh.nodes.size(); ++i) {  // the same children, new boxes
                ASSERT_EQ(a.bvh.nodes[i].left, before.nodes[i].left) << c.name << " " << what << " node " << i;
                ASSERT_EQ(a.bvh.nodes[i].right, before.nodes[i].right) << c.name << " " << what << " node " << i;
                ASSERT_EQ(a.bvh.nodes[i].leftCount, before.nodes[i].leftCount) << c.name << " " << what;
                ASSERT_EQ(a.bvh.nodes[i].rightCount, before.nodes[i].rightCount) << c.name << " " << what;
            }
            EXPECT_EQ(inexactBoxes(a.bvh, moved), 0u) << c.name << " " << what;
            BvhReport rep = validateBvh(a.bvh.view(), moved);
            EXPECT_TRUE(rep.ok) << c.name << " " << what << ": " << (rep.errors.empty() ? "" : rep.errors[0]);
        }
}

TEST(Refit, ToTheSameBoxesChangesNoBit) {
    for (const test::LbvhCase& c : test::lbvhCases(false))
        for (Builder b : kMortonBuilders) {
            const std::vector<Aabb> bounds = test::boundsOf(c.mesh);
            HostAccel a;
            buildHostAccel(bounds, refitOptions(b), a);
            const HostAccel built = a;
            refitHostAccel(bounds, a);
            EXPECT_EQ(countDifferentNodes(a.bvh.nodes, built.bvh.nodes), 0u) << c.name << " " << name(b);
            EXPECT_EQ(countDifferentNodes(a.skipNodes, built.skipNodes), 0u) << c.name << " " << name(b);
        }
}

TEST(Refit, ClosestHitsAtTheNewPoseEqualBruteForce) {
    const Mesh m = test::makeRandomTriangles(8000, 0.02f, 31);
    const Mesh later = deformed(m, 0.05f, 7);
    const std::vector<Ray> rays = test::raysAtTriangles(later, 2000, 9);
    for (Builder b : kMortonBuilders)
        for (Traversal tr : {Traversal::Stack, Traversal::Stackless}) {
            if (tr == Traversal::Stackless && b != Builder::LbvhSkip) continue;
            AccelOptions o = refitOptions(b);
            o.traversal = tr;
            HostAccel a;
            buildHostAccel(test::boundsOf(m), o, a);
            buildHostAccel(test::boundsOf(later), o, a);
            SceneView s;
            s.geo = test::geometryOf(later);
            s.bvh = a.view(o);
            size_t bad = 0, hits = 0;
            for (const Ray& r : rays) {
                HitRecord ref = traceBruteForce(s.geo, r);
                bad += traceClosest(s, r) != ref;
                hits += isHit(ref);
            }
            EXPECT_EQ(bad, 0u) << name(b) << " " << name(tr);
            EXPECT_GT(hits, rays.size() / 3);
        }
}

TEST(Refit, ANewTreeWhenTheBuilderOrCountChanges) {
    const Mesh m = test::makeRandomTriangles(500, 0.02f, 5);
    HostAccel a;
    buildHostAccel(test::boundsOf(m), refitOptions(Builder::LbvhKarras), a);
    buildHostAccel(test::boundsOf(m), refitOptions(Builder::Hploc), a);  // another builder: built anew
    EXPECT_EQ(a.builtWith, Builder::Hploc);
    const LbvhHostResult hploc =
        buildLbvhHost(test::boundsOf(m), refitOptions(Builder::Hploc).mortonBits, LbvhVariant::Hploc);
    EXPECT_EQ(a.bvh.root, hploc.bvh.root);  // H-PLOC's tree
    EXPECT_EQ(countDifferentNodes(a.bvh.nodes, hploc.bvh.nodes), 0u);
    const Mesh more = test::makeRandomTriangles(700, 0.02f, 6);
    buildHostAccel(test::boundsOf(more), refitOptions(Builder::Hploc), a);  // another count
    EXPECT_EQ(a.bvh.primIndex.size(), 700u);
    EXPECT_TRUE(validateBvh(a.bvh.view(), test::boundsOf(more)).ok);
}

TEST(Refit, OptionsRefuseItWhereItCannotApply) {
    for (const char* b : {"kdtree", "cpu-sah"}) {
        Options o;
        o.render.backend = Backend::Cpu;
        o.set("accel.builder", b);
        o.set("accel.rebuild", "refit");
        try {
            o.check();
            ADD_FAILURE() << b << ": accepted";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("Morton-order builder"), std::string::npos) << e.what();
        }
    }
    Options inst;  // instanced: the deforming instances' BLASes refit (accel/toplevel/blas_refit.h)
    inst.set("accel.mode", "instanced");
    inst.set("accel.rebuild", "auto");
    EXPECT_NO_THROW(inst.check());
    inst.set("accel.builder", "lbvh-skip");
    EXPECT_NO_THROW(inst.check());
    Options ok;
    ok.set("accel.builder", "hploc");
    ok.set("accel.rebuild", "refit");
    EXPECT_NO_THROW(ok.check());
}

// accel.rebuild = auto: refits while the SAH has grown by at most
// accel.refit_growth over the built tree's, then builds anew (the growth
// back to 0); with a large threshold it never rebuilds.
TEST(Refit, AutoRebuildsOnceTheSahHasGrown) {
    const Mesh m = test::makeRandomTriangles(3000, 0.01f, 12);
    for (float threshold : {0.05f, 100.0f}) {
        AccelOptions o = refitOptions(Builder::Hploc);
        o.rebuild = Rebuild::Auto;
        o.refitGrowth = threshold;
        HostAccel a;
        buildHostAccel(test::boundsOf(m), o, a);
        EXPECT_GT(a.builtSah, 0.0f);
        int rebuilds = 0;
        float grown = 0;
        for (int frame = 1; frame <= 12; ++frame) {
            const uint32_t before = a.refits;
            buildHostAccel(test::boundsOf(deformed(m, 0.01f * float(frame), 40 + frame)), o, a);
            if (a.refits == 0) {
                ++rebuilds;
                EXPECT_GT(grown, threshold) << "frame " << frame << ": rebuilt before the SAH grew past it";
                EXPECT_FLOAT_EQ(a.sahGrowth(), 0.0f);
            } else {
                EXPECT_EQ(a.refits, before + 1);
                EXPECT_LE(grown, threshold) << "frame " << frame << ": refitted past the threshold";
            }
            grown = a.sahGrowth();
        }
        if (threshold < 1) {
            EXPECT_GT(rebuilds, 0) << "the deformation grows the SAH past 5%";
        } else {
            EXPECT_EQ(rebuilds, 0);
            EXPECT_GT(grown, 0.05f);
        }
    }
}

// Instanced mode's plan (accel/toplevel/blas_refit.h): refit refits every
// BLAS that can be; auto too, except that of the BLASes grown past the
// threshold only the one grown most is rebuilt this frame (the others wait,
// refitting); BLASes that cannot be refitted are built; every-frame builds all.
TEST(Refit, InstancedPlanStaggersRebuilds) {
    AccelOptions o;
    const std::vector<BlasRefitState> blas = {{true, 0.30f}, {true, 0.01f}, {false, 0.0f}, {true, 0.35f}, {true, 0.20f}};
    o.rebuild = Rebuild::EveryFrame;
    EXPECT_EQ(blasRefitPlan(o, blas), std::vector<bool>(5, false));
    o.rebuild = Rebuild::Refit;
    EXPECT_EQ(blasRefitPlan(o, blas), (std::vector<bool>{true, true, false, true, true}));
    o.rebuild = Rebuild::Auto;
    o.refitGrowth = 0.1f;  // three are past it (none past 4x): only the one grown most (0.35) is rebuilt
    EXPECT_EQ(blasRefitPlan(o, blas), (std::vector<bool>{true, true, false, false, true}));
    o.refitGrowth = 1.0f;  // none past it
    EXPECT_EQ(blasRefitPlan(o, blas), (std::vector<bool>{true, true, false, true, true}));
    // The summary the CSV records: the BLAS grown most.
    const BlasRefit s = blasRefitSummary({{"a", 3, 0.1f}, {"b", 7, 0.4f}, {"c", 9, 0.2f}});
    EXPECT_EQ(s.name, "b");
    EXPECT_EQ(s.refits, 7u);
    EXPECT_EQ(blasRefitSummary({{"a", 3, 0}, {"b", 5, 0}}).name, "b") << "refit only: the longest refitted";
    EXPECT_EQ(blasRefitSummary({{"a", 3, -0.1f}, {"b", 7, -0.2f}}).name, "a") << "shrunk SAHs are still reported";
    // Grown past kStaggerCap x the threshold: rebuilt without waiting, beside the staggered one.
    o.refitGrowth = 0.05f;
    const std::vector<BlasRefitState> far = {{true, 0.06f}, {true, 0.30f}, {true, 0.07f}, {true, 0.25f}};
    EXPECT_EQ(blasRefitPlan(o, far), (std::vector<bool>{true, false, false, false}));
    // A switch came between (fresh): every BLAS is built.
    EXPECT_EQ(blasRefitPlan(o, far, true), std::vector<bool>(4, false));
}
