// Partial re-braiding (accel.rebraid, accel/toplevel/rebraid.h): the top
// level's leaves made from a plan and the static BLASes' trees. Each opened
// static member's parts cover its BLAS's primitives exactly once, each part a
// subtree rooted at an inner node with its world box; the budget holds, the
// largest world boxes open first, and a budget of 0 leaves the plain members.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

#include "accel/host_accel.h"
#include "accel/toplevel/rebraid.h"
#include "core/error.h"
#include "core/options.h"
#include "test_util.h"

namespace strata {
namespace {

bool sameBox(const Aabb& a, const Aabb& b) {
    return a.lo.x == b.lo.x && a.lo.y == b.lo.y && a.lo.z == b.lo.z && a.hi.x == b.hi.x && a.hi.y == b.hi.y &&
           a.hi.z == b.hi.z;
}

// The primitive entries under node `node` of a tree (its leaves' entries).
void collect(const BvhView& v, int32_t node, std::vector<uint32_t>& out) {
    const BvhNode& n = v.nodes[node];
    for (int side = 0; side < 2; ++side) {
        const int32_t child = side ? n.right : n.left, count = side ? n.rightCount : n.leftCount;
        if (child < 0) continue;
        if (count > 0)
            for (int32_t k = 0; k < count; ++k) out.push_back(v.primIndex[child + k]);
        else
            collect(v, child, out);
    }
}

// A static mesh of 2000 random small boxes (one BLAS, shared by two
// members: one 10 times the other's size) and a deforming instance. onSphere:
// the boxes' centres on the unit sphere (a ball's), else in the unit cube.
struct Fixture {
    HostAccel blas;
    InstancePlan plan;
    std::vector<Affine> worldFromObject;
    std::vector<BlasView> views;  // the plan's, as a builder makes them
    std::vector<Aabb> boxes;      // the static mesh's primitives
    explicit Fixture(const char* builder, bool onSphere = false) {
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        boxes.resize(2000);
        Aabb all;
        for (Aabb& b : boxes) {
            Vec3 c{u(rng), u(rng), u(rng)};
            if (onSphere) c = c * (1.0f / std::sqrt(dot(c, c)));
            b = Aabb{c - Vec3{0.01f, 0.01f, 0.01f}, c + Vec3{0.01f, 0.01f, 0.01f}};
            all.grow(b);
        }
        Options o;
        o.set("accel.builder", builder);
        buildHostAccel(boxes, o.accel, blas);
        std::vector<PlanMesh> meshes(2);
        meshes[0].prims = 2000;
        meshes[0].objectBox = all;
        meshes[1].prims = 5;
        meshes[1].deforms = true;
        plan = planInstances(PlanPrims::Triangles, meshes, {{0, 0}, {1, 2000}, {0, 2005}});
        worldFromObject = {compose(translation({5, 0, 0}), scaling({10, 10, 10})), Affine{},
                           translation({-3, 1, 0})};
        views.assign(plan.blas.size(), BlasView{});
        views[0].bvh = blas.view(o.accel);
    }
    std::vector<RebraidTree> trees() const { return {{views[0].bvh.nodes, rootOf(views[0].bvh)}}; }
    TopLevelLeaves leaves(uint32_t perStatic) const {
        TopLevelLeaves l;
        l.blas = views;
        topLevelLeaves(plan, worldFromObject, trees(), perStatic, false, l);
        return l;
    }
};

TEST(Rebraid, OpenedPartsCoverEachStaticMemberOnceWithinTheBudget) {
    for (const char* builder : {"lbvh-karras", "lbvh-apetrei", "hploc", "cpu-sah"})
        for (uint32_t perStatic : {1u, 5u, 64u, 100000u}) {
            SCOPED_TRACE(std::string(builder) + ", " + std::to_string(perStatic) + " per static member");
            const Fixture f(builder);
            const TopLevelLeaves l = f.leaves(perStatic);
            const size_t members = f.plan.members.size();
            ASSERT_EQ(l.instances.size(), l.boxes.size());
            ASSERT_GT(l.instances.size(), members);
            EXPECT_LE(l.instances.size(), members + 2 * perStatic);
            EXPECT_EQ(rebraidBudget(f.plan, perStatic), std::min<size_t>(2 * perStatic, 2000));  // 1000 opens each
            // The deforming member: its own BLAS's view, identity, its box the builder's.
            EXPECT_EQ(l.instances[1].blas, 1u);
            EXPECT_TRUE(l.boxes[1].isEmpty());
            // Each static member's parts (by triBase) cover its primitives once.
            std::map<uint32_t, std::vector<uint32_t>> prims;
            for (size_t k = 0; k < l.instances.size(); ++k) {
                const InstanceView& iv = l.instances[k];
                if (k == 1) continue;
                const BvhView& v = l.blas.at(iv.blas).bvh;
                EXPECT_EQ(v.nodes, f.views[0].bvh.nodes) << "leaf " << k;
                std::vector<uint32_t> under;
                collect(v, int32_t(v.root), under);
                prims[iv.triBase].insert(prims[iv.triBase].end(), under.begin(), under.end());
                const BvhNode& n = v.nodes[v.root];
                Aabb object = n.leftBox();
                object.grow(n.rightBox());
                const Affine& w = f.worldFromObject[iv.triBase == 0 ? 0 : 2];
                EXPECT_TRUE(sameBox(l.boxes[k], transformBox(w, object))) << "leaf " << k;
                for (int r = 0; r < 3; ++r)
                    for (int c = 0; c < 4; ++c) EXPECT_EQ(iv.objectFromWorld.m[r][c], inverse(w).m[r][c]);
                // A part that is not the whole BLAS has a view of its own.
                if (v.root != rootOf(f.views[0].bvh)) EXPECT_GE(iv.blas, f.plan.blas.size()) << "leaf " << k;
            }
            ASSERT_EQ(prims.size(), 2u);
            for (auto& [base, p] : prims) {
                std::sort(p.begin(), p.end());
                ASSERT_EQ(p.size(), 2000u) << "member at " << base;
                for (uint32_t i = 0; i < 2000; ++i) ASSERT_EQ(p[i], i) << "member at " << base;
            }
            // Every view past the plan's is one part's.
            std::map<uint32_t, int> uses;
            for (const InstanceView& iv : l.instances)
                if (iv.blas >= f.plan.blas.size()) uses[iv.blas]++;
            EXPECT_EQ(uses.size(), l.blas.size() - f.plan.blas.size());
            for (auto [view, n] : uses) EXPECT_EQ(n, 1) << "view " << view;
            if (perStatic == 100000u)  // nothing left that opens: every part has a BLAS leaf as a child
                for (size_t k = 0; k < l.instances.size(); ++k) {
                    if (k == 1) continue;
                    const BvhView& v = l.blas[l.instances[k].blas].bvh;
                    const BvhNode& n = v.nodes[v.root];
                    EXPECT_TRUE(n.leftCount > 0 || n.rightCount > 0) << "leaf " << k;
                }
        }
}

// The largest world boxes open first: with a budget of 2 (1 per static
// member), both go to the member 10 times the other's size.
TEST(Rebraid, LargestWorldBoxesOpenFirst) {
    const Fixture f("lbvh-karras");
    const TopLevelLeaves l = f.leaves(1);
    ASSERT_EQ(l.instances.size(), f.plan.members.size() + 2);
    int bigParts = 0, smallParts = 0;
    for (size_t k = 0; k < l.instances.size(); ++k) {
        if (k == 1) continue;
        (l.instances[k].triBase == 0 ? bigParts : smallParts)++;
    }
    EXPECT_EQ(bigParts, 3);
    EXPECT_EQ(smallParts, 1);
    EXPECT_EQ(l.instances[2].blas, 0u) << "the small member keeps the whole BLAS's view";
}

// Off (0) or without trees: one leaf per member with its transformed object box.
TEST(Rebraid, ZeroBudgetOrNoTreesLeaveTheMembers) {
    const Fixture f("lbvh-karras");
    for (bool withTrees : {true, false}) {
        TopLevelLeaves l;
        l.blas = f.views;
        topLevelLeaves(f.plan, f.worldFromObject, withTrees ? f.trees() : std::vector<RebraidTree>{}, withTrees ? 0 : 8,
                       false, l);
        ASSERT_EQ(l.instances.size(), f.plan.members.size());
        ASSERT_EQ(l.blas.size(), f.plan.blas.size());
        const Aabb object = f.plan.meshes[0].objectBox;
        EXPECT_TRUE(sameBox(l.boxes[0], transformBox(f.worldFromObject[0], object)));
        EXPECT_TRUE(sameBox(l.boxes[2], transformBox(f.worldFromObject[2], object)));
        EXPECT_EQ(l.instances[0].blas, 0u);
        EXPECT_EQ(l.instances[2].triBase, 2005u);
    }
}

// accel.tight_instance_boxes with re-braiding: a member left whole gets
// memberWorldBox's box, and an opened member's parts are clipped to it while
// still holding the corners of every primitive box under them.
TEST(Rebraid, TightBoxesClipEveryPartToItsMember) {
    Fixture f("lbvh-karras", true);
    f.worldFromObject[0] = compose(f.worldFromObject[0], rotation(axisAngle({0.3f, 1.0f, 0.2f}, 0.8f)));
    SphereRadius r{f.plan.meshes[0].objectBox.center()};
    for (const Aabb& b : f.boxes) r.growBox(b);
    f.plan.meshes[0].radius = r.radius();
    // The turned ball's tight box is smaller than its turned object box.
    EXPECT_LT(memberWorldBox(f.worldFromObject[0], f.plan.meshes[0], true).area(),
              0.9f * memberWorldBox(f.worldFromObject[0], f.plan.meshes[0], false).area());
    for (uint32_t perStatic : {0u, 5u, 300u}) {
        SCOPED_TRACE(perStatic);
        TopLevelLeaves l;
        l.blas = f.views;
        topLevelLeaves(f.plan, f.worldFromObject, f.trees(), perStatic, true, l);
        if (perStatic) EXPECT_GT(l.instances.size(), f.plan.members.size());
        for (size_t k = 0; k < l.instances.size(); ++k) {
            if (k == 1) continue;  // the deforming member
            const Affine& w = f.worldFromObject[l.instances[k].triBase == 0 ? 0 : 2];
            const Aabb tight = memberWorldBox(w, f.plan.meshes[0], true);
            if (perStatic == 0) EXPECT_TRUE(sameBox(l.boxes[k], tight)) << "leaf " << k;
            EXPECT_TRUE(tight.contains(l.boxes[k])) << "leaf " << k;
            const BvhView& v = l.blas.at(l.instances[k].blas).bvh;
            std::vector<uint32_t> under;
            collect(v, int32_t(v.root), under);
            for (uint32_t p : under)
                for (int c = 0; c < 8; ++c) {
                    const Aabb& b = f.boxes[p];
                    const Vec3 q =
                        w.point({(c & 1) ? b.hi.x : b.lo.x, (c & 2) ? b.hi.y : b.lo.y, (c & 4) ? b.hi.z : b.lo.z});
                    ASSERT_TRUE(l.boxes[k].contains(Aabb{q, q})) << "leaf " << k << ", primitive " << p;
                }
        }
    }
}

// accel.tight_instance_boxes: on by default, a build option, named when
// it does nothing (flat mode).
TEST(Options, TightInstanceBoxes) {
    Options o;
    EXPECT_TRUE(o.accel.tightInstanceBoxes);
    const AccelOptions before = o.accel;
    o.set("accel.tight_instance_boxes", "false");
    EXPECT_FALSE(o.accel.tightInstanceBoxes);
    EXPECT_FALSE(o.accel == before);
    EXPECT_TRUE(test::namesInert(o, "accel.tight_instance_boxes"));
    o.set("accel.mode", "instanced");
    EXPECT_FALSE(test::namesInert(o, "accel.tight_instance_boxes"));
}

// accel.rebraid: 0 (off) by default, 0..65536; part of the build options; in
// instanced mode with BVH BLASes walked with the stack, named elsewhere.
TEST(Options, Rebraid) {
    Options o;
    EXPECT_EQ(o.accel.rebraid, 0);
    EXPECT_FALSE(rebraids(o.accel));
    const AccelOptions before = o.accel;
    o.set("accel.rebraid", "32");
    EXPECT_NE(o.accel, before) << "a switch the rebuild policy sees";
    EXPECT_THROW(o.set("accel.rebraid", "-1"), Error);
    EXPECT_THROW(o.set("accel.rebraid", "65537"), Error);
    ASSERT_EQ(o.inert().size(), 1u) << "flat mode";
    EXPECT_NE(o.inert()[0].find("accel.rebraid = 32 does nothing here"), std::string::npos) << o.inert()[0];
    o.set("accel.mode", "instanced");
    for (const char* builder : {"lbvh-karras", "lbvh-apetrei", "lbvh-skip", "hploc", "cpu-sah"}) {
        o.set("accel.builder", builder);
        EXPECT_TRUE(rebraids(o.accel)) << builder;
        EXPECT_TRUE(o.inert().empty()) << builder;
    }
    o.set("accel.builder", "lbvh-skip");
    o.set("accel.traversal", "stackless");  // the skip links start at the BLAS's root
    EXPECT_FALSE(rebraids(o.accel));
    EXPECT_EQ(o.inert().size(), 1u);
    o.set("accel.traversal", "stack");
    o.set("accel.builder", "kdtree");
    EXPECT_FALSE(rebraids(o.accel));
    EXPECT_EQ(o.inert().size(), 1u);
}

}  // namespace
}  // namespace strata
