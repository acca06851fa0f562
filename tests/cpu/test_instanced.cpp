// Instanced mode (accel.mode = instanced) on the CPU: the top level over
// instances and the middle level per mesh (shared object-space BLAS for
// static meshes, a world-space BLAS per deforming instance) give the same
// closest and any hits as flat mode and as brute force, for every builder and
// traversal, and the CPU backend renders the same image.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include "instanced_scene.h"
#include "loader_test_util.h"
#include "render/flat_scene.h"
#include "accel/toplevel/instance_plan.h"
#include "accel/toplevel/top_cluster.h"
#include "check/hit_compare.h"
#include "render/instancing.h"
#include "render/renderer.h"
#include "scene/scene_loader.h"

namespace strata {
namespace {

// The instanced test scene posed at t = 0.7 s: its flat arrays, posed
// vertices and triangle boxes, and a view of its triangles (no structure).
struct PosedScene {
    test::TempDir dir;
    Scene s = test::loadInstancedScene(dir);
    FlatScene flat = flattenScene(s);
    const float t = 0.7f;
    std::vector<Vec3> pos, nrm;
    std::vector<Aabb> bounds;
    SceneView base;
    PosedScene() {
        poseFlatScene(s, flat, t, pos, nrm);
        triangleBounds(pos, flat.tris, bounds);
        base = hostSceneView(s, flat, pos, nrm, BvhView{}, CameraView{});
    }
};

// Whether box holds p's image under w computed in double precision (not
// with the float arithmetic the boxes are made with).
bool holdsExactImage(const Aabb& box, const Affine& w, Vec3 p) {
    for (int i = 0; i < 3; ++i) {
        const double q = double(w.m[i][0]) * p.x + double(w.m[i][1]) * p.y + double(w.m[i][2]) * p.z + w.m[i][3];
        if (q < box.lo[i] || q > box.hi[i]) return false;
    }
    return true;
}

// The tight box holds p's image under w as computed in float, and its exact
// image wherever the transformed object box does (that box, made in float,
// may miss an exact image by an ulp; the traversal computes in float too).
bool holdsWhatLooseHolds(const Aabb& tight, const Aabb& loose, const Affine& w, Vec3 p) {
    const Vec3 q = w.point(p);
    return tight.contains(Aabb{q, q}) && (!holdsExactImage(loose, w, p) || holdsExactImage(tight, w, p));
}

// Two hierarchies over the same posed scene give the same hits: closest hit
// or miss, any hit, and the distance bit for bit; the triangle may differ
// only where two tie (at most 3 rays). a: the one under test; b: the
// reference.
void expectSameHits(const SceneView& a, const SceneView& b, const std::vector<Ray>& rays) {
    int hits = 0, ties = 0;
    for (const Ray& r : rays) {
        const HitRecord h = traceClosest(a, r), ref = traceClosest(b, r);
        ASSERT_EQ(isHit(h), isHit(ref));
        ASSERT_EQ(traceAny(a, r), isHit(ref));
        if (!isHit(h)) continue;
        ++hits;
        ASSERT_EQ(hitDistance(h), hitDistance(ref));
        ties += h != ref;
    }
    EXPECT_GT(hits, 500);
    EXPECT_LE(ties, 3);
}

// A switch of strata's that keeps the hits: for every builder, the two
// levels with `option` on (its default) against the same levels with it off
// (expectSameHits, the latter the reference); `onView` checks the first
// hierarchy's view.
void expectSameHitsWithout(const PosedScene& p, const char* option,
                           const std::function<void(const TwoLevelView&)>& onView = {}) {
    const std::vector<Ray> rays = test::instancedSceneRays(3000);
    for (const char* builder : {"lbvh-karras", "lbvh-skip", "hploc", "cpu-sah", "kdtree"}) {
        SCOPED_TRACE(std::string(builder) + " with and without " + option);
        Options opts;
        opts.set("accel.builder", builder);
        opts.set("accel.mode", "instanced");
        InstancedHost on, off;
        on.build(p.s, p.flat, p.pos, p.bounds, p.t, opts.accel);
        opts.set(option, "false");
        off.build(p.s, p.flat, p.pos, p.bounds, p.t, opts.accel);
        SceneView a = p.base, b = p.base;
        a.tl = on.view();
        b.tl = off.view();
        if (onView) onView(a.tl);
        expectSameHits(a, b, rays);
    }
}

TEST(Instanced, HitsEqualFlatModeAndBruteForceForEveryBuilder) {
    PosedScene p;
    const Scene& s = p.s;
    const FlatScene& flat = p.flat;
    const float t = p.t;
    const std::vector<Vec3>& pos = p.pos;
    const std::vector<Aabb>& bounds = p.bounds;
    const SceneView& base = p.base;

    std::vector<Ray> rays = test::instancedSceneRays(3000);
    struct Case {
        const char* builder;
        const char* traversal;
    };
    for (Case c :
         {Case{"lbvh-karras", "stack"}, Case{"lbvh-apetrei", "stack"}, Case{"lbvh-skip", "stack"},
          Case{"lbvh-skip", "stackless"}, Case{"cpu-sah", "stack"}, Case{"hploc", "stack"}, Case{"kdtree", "stack"}}) {
        Options opts;
        opts.set("accel.builder", c.builder);
        opts.set("accel.traversal", c.traversal);
        opts.set("accel.mode", "instanced");
        const AccelOptions o = opts.accel;
        InstancedHost inst;
        inst.build(s, flat, pos, bounds, t, o);
        SceneView sv = base;
        sv.tl = inst.view();
        ASSERT_EQ(sv.tl.numInstances, 6u);
        ASSERT_EQ(sv.tl.kdBlas, std::string(c.builder) == "kdtree");
        if (sv.tl.kdBlas)  // each BLAS a kd-tree (the static ones and the swaying plants' own)
            for (uint32_t i = 0; i < sv.tl.numInstances; ++i)
                ASSERT_GT(sv.tl.blas[sv.tl.instances[i].blas].kd.numNodes, 0u) << "instance " << i;
        int hits = 0, far = 0;
        for (const Ray& r : rays) {
            HitRecord ref = traceBruteForce(base.geo, r);
            HitRecord h = traceClosest(sv, r);
            ASSERT_EQ(isHit(h), isHit(ref)) << c.builder << " " << c.traversal;
            ASSERT_EQ(traceAny(sv, r), isHit(ref)) << c.builder << " " << c.traversal;
            if (!isHit(ref)) continue;
            ++hits;
            // Object-space hits of static instances differ from world space by rounding only.
            far += !sameHit(h, ref, 10 * kHitDistanceTolerance);
        }
        EXPECT_GT(hits, 500);
        EXPECT_LE(far, 3) << c.builder << " " << c.traversal;
    }
}

// accel.copy_leaf_tris in instanced mode: every BLAS over triangles holds
// its triangles in leaf order (a static mesh's in object space, a swaying
// plant's in world space) and the hits through both levels are the indexed
// triangles' hits, bit for bit; the stackless traversal and kd-tree BLASes
// copy nothing.
TEST(Instanced, CopiedLeafTrianglesGiveTheIndexedHits) {
    PosedScene p;
    const std::vector<Ray> rays = test::instancedSceneRays(3000);
    for (const char* builder : {"lbvh-karras", "hploc", "cpu-sah", "lbvh-skip", "kdtree"})
        for (const char* traversal : {"stack", "stackless"}) {
            if (std::string(traversal) == "stackless" && std::string(builder) != "lbvh-skip") continue;
            SCOPED_TRACE(std::string(builder) + " " + traversal);
            Options opts;
            opts.set("accel.builder", builder);
            opts.set("accel.traversal", traversal);
            opts.set("accel.mode", "instanced");
            opts.set("accel.copy_leaf_tris", "false");
            InstancedHost indexed, copied;
            indexed.build(p.s, p.flat, p.pos, p.bounds, p.t, opts.accel);
            opts.set("accel.copy_leaf_tris", "true");
            copied.build(p.s, p.flat, p.pos, p.bounds, p.t, opts.accel);
            SceneView a = p.base, b = p.base;
            a.tl = indexed.view();
            b.tl = copied.view();
            const bool copies = copiesLeafTris(opts.accel, false);
            EXPECT_EQ(copies, std::string(builder) != "kdtree" && std::string(traversal) == "stack");
            for (uint32_t i = 0; i < b.tl.numInstances; ++i) {
                const uint32_t k = b.tl.instances[i].blas;
                EXPECT_EQ(a.tl.blas[k].bvh.leafTris, nullptr);
                EXPECT_EQ(b.tl.blas[k].bvh.leafTris != nullptr, copies) << "instance " << i;
            }
            int hits = 0;
            for (const Ray& r : rays) {
                const HitRecord h = traceClosest(b, r);
                ASSERT_EQ(h, traceClosest(a, r));
                ASSERT_EQ(traceAny(b, r), traceAny(a, r));
                hits += isHit(h);
            }
            EXPECT_GT(hits, 500);
        }
}

// accel.rebraid: the static instances opened into parts (the floor, the two
// balls, one scaled, and the turned box) give the hits of the plain two
// levels: the same distances bit for bit (the same triangles tested in the
// same object spaces), the same triangles but for ties, and the plain
// levels' hit or miss for any hit; for every BVH builder, with and without
// the copied leaves.
TEST(Instanced, RebraidedTopLevelGivesThePlainHits) {
    PosedScene p;
    const std::vector<Ray> rays = test::instancedSceneRays(3000);
    int fallbacks = 0;  // top levels past accel.cluster_top_level's leaves (4096 parts per static member)
    for (const char* builder : {"lbvh-karras", "lbvh-apetrei", "lbvh-skip", "hploc", "cpu-sah"})
        for (const char* copy : {"true", "false"})
            for (const char* perStatic : {"1", "16", "4096"}) {
                SCOPED_TRACE(std::string(builder) + ", copy " + copy + ", rebraid " + perStatic);
                Options opts;
                opts.set("accel.builder", builder);
                opts.set("accel.mode", "instanced");
                opts.set("accel.copy_leaf_tris", copy);
                InstancedHost plain, braided;
                plain.build(p.s, p.flat, p.pos, p.bounds, p.t, opts.accel);
                opts.set("accel.rebraid", perStatic);
                braided.build(p.s, p.flat, p.pos, p.bounds, p.t, opts.accel);
                SceneView a = p.base, b = p.base;
                a.tl = plain.view();
                b.tl = braided.view();
                ASSERT_EQ(a.tl.numInstances, 6u);
                EXPECT_GT(b.tl.numInstances, 6u);
                EXPECT_LE(b.tl.numInstances, 6u + 4u * uint32_t(std::stoi(perStatic)));  // 4 static members
                fallbacks += b.tl.numInstances > kClusterMaxLeaves;  // accel.builder's top level then
                expectSameHits(b, a, rays);
            }
    EXPECT_GE(fallbacks, 8);  // the LBVHs' trees, with and without copies
}

// accel.tight_instance_boxes: each static instance's world box (its
// transformed object box clipped to its transformed bounding sphere) holds
// every vertex of the instance and lies inside the transformed object box
// (the scaled ball's and the turned box's among them; how much tighter a
// turned sphere's is, the next test); the hits are those of
// the transformed object boxes for every builder, bit for bit.
TEST(Instanced, TightInstanceBoxesHoldTheirVerticesAndGiveTheSameHits) {
    PosedScene p;
    const InstancePlan plan = trianglePlan(p.s, p.flat);
    const std::vector<Affine> w = instanceTransforms(p.s, p.t);
    int checked = 0;
    for (const InstancePlan::Member& mb : plan.members) {
        if (!plan.isStatic(mb.blas)) continue;
        const PlanMesh& pm = plan.meshes[plan.blas[mb.blas].mesh];
        const Mesh& mesh = p.s.meshes[plan.blas[mb.blas].mesh];
        const Aabb tight = memberWorldBox(w[mb.instance], pm, true), loose = memberWorldBox(w[mb.instance], pm, false);
        EXPECT_TRUE(loose.contains(tight)) << "instance " << mb.instance;
        for (const Tri& t : mesh.triangles)
            for (int k = 0; k < 3; ++k)
                ASSERT_TRUE(holdsWhatLooseHolds(tight, loose, w[mb.instance], mesh.positions[t.v[k]]))
                    << "instance " << mb.instance;
        ++checked;
    }
    EXPECT_EQ(checked, 4);  // the floor, the two balls (one scaled) and the turned box
    expectSameHitsWithout(p, "accel.tight_instance_boxes");
}

// accel.cluster_top_level: the clustered top level (6 leaves here) gives the
// hits of accel.builder's top level, for every builder (kd-tree BLASes under
// a Karras LBVH otherwise).
TEST(Instanced, ClusteredTopLevelGivesTheBuildersHits) {
    PosedScene p;
    expectSameHitsWithout(p, "accel.cluster_top_level", [](const TwoLevelView& tl) {
        EXPECT_EQ(tl.top.root, clusterRootOf(tl.numInstances));  // the clustered tree's root, the last node
    });
}

// A sphere turned about two axes keeps its own width in the tight box (its
// radius, scaled per axis), where the turned object box reaches past it;
// a scaled sphere's box is its ellipsoid's. Under a mirror, a shear, and an
// object far from its origin brought back by a cancelling translation, the
// tight box holds every exact image the transformed object box holds.
TEST(Instanced, TightBoxOfATurnedSphereIsTheSpheres) {
    auto ballAt = [](Vec3 centre, float radius, std::vector<Vec3>& points) {
        PlanMesh ball;
        std::mt19937 rng(3);
        std::normal_distribution<float> g;
        points.clear();
        for (int i = 0; i < 4000; ++i) {
            const Vec3 d{g(rng), g(rng), g(rng)};
            points.push_back(d * (radius / std::sqrt(dot(d, d))) + centre);
            ball.objectBox.grow(points.back());
        }
        SphereRadius r{ball.objectBox.center()};
        for (const Vec3& q : points) r.grow(q);
        ball.radius = r.radius();
        return ball;
    };
    std::vector<Vec3> points;
    const PlanMesh ball = ballAt({2, 0, 0}, 1.0f, points);
    EXPECT_NEAR(ball.radius, 1.0f, 1e-3f);
    const Affine turned = compose(translation({5, -1, 3}), compose(rotation(axisAngle({0, 0, 1}, 0.785398f)),
                                                                   rotation(axisAngle({0, 1, 0}, 0.6f))));
    const Affine scaled = compose(turned, scaling({2.0f, 0.5f, 1.0f}));
    for (const Affine& w : {turned, scaled}) {
        const Aabb tight = memberWorldBox(w, ball, true), loose = memberWorldBox(w, ball, false);
        Aabb exact;
        for (const Vec3& q : points) {
            exact.grow(w.point(q));
            ASSERT_TRUE(holdsWhatLooseHolds(tight, loose, w, q));
        }
        EXPECT_TRUE(loose.contains(tight));
        for (int i = 0; i < 3; ++i) {
            EXPECT_LT(tight.extent()[i], exact.extent()[i] * 1.01f) << i;  // the sphere's image
            EXPECT_GT(loose.extent()[i], exact.extent()[i] * 1.15f) << i;  // the turned box's corners
        }
    }
    Affine shear = turned;
    shear.m[0][1] += 0.7f;
    shear.m[2][0] -= 0.4f;
    const Affine mirror = compose(turned, scaling({-1.0f, 1.0f, 1.0f}));
    std::vector<Vec3> farPoints;
    const PlanMesh farBall = ballAt({1000, 0, 0}, 0.01f, farPoints);  // a 1 cm ball modelled 1 km out
    const Affine spin = rotation(axisAngle({0, 0, 1}, 0.007f));
    const Affine back = compose(translation(Vec3{0, 0, 0} - spin.point({1000, 0, 0})), spin);  // to the origin
    struct Case {
        const char* name;
        const PlanMesh& mesh;
        const std::vector<Vec3>& pts;
        Affine w;
    };
    for (const Case& c : {Case{"shear", ball, points, shear}, Case{"mirror", ball, points, mirror},
                          Case{"far, brought back", farBall, farPoints, back}}) {
        const Aabb tight = memberWorldBox(c.w, c.mesh, true), loose = memberWorldBox(c.w, c.mesh, false);
        int held = 0;
        for (const Vec3& q : c.pts) {
            held += holdsExactImage(loose, c.w, q);
            ASSERT_TRUE(holdsWhatLooseHolds(tight, loose, c.w, q)) << c.name;
        }
        EXPECT_GT(held, 3900) << c.name;
    }
    // The patch boxes' corners: a box's farthest corner from the centre,
    // also where the centre's coordinates are large (no rounding through
    // centre + offset).
    SphereRadius c{{0, 0, 0}};
    c.growBox(Aabb{{-1, 2, -3}, {0.5f, 2.5f, 1}});
    EXPECT_NEAR(c.radius(), std::sqrt(1.0f + 6.25f + 9.0f), 1e-4f);
    SphereRadius big{{1023.995f, 0, 0}};
    const Aabb edge{{1023.99f, 0, 0}, {1023.995f, 0, 0}};
    big.growBox(edge);
    EXPECT_GE(double(big.radius()), double(1023.995f) - double(1023.99f));
}

// assets/scenes/rigid-160.json (issue 21's scene of 160 moving rigid
// instances): at two times every prop's tight box holds its posed vertices,
// and the instanced hits with tight boxes are brute force's.
TEST(Instanced, Rigid160TightBoxesHoldEveryPropAndTraceLikeBruteForce) {
    const Scene s = loadScene(test::sourceFile("assets/scenes/rigid-160.json"));
    ASSERT_EQ(s.instances.size(), 161u);
    const FlatScene flat = flattenScene(s);
    const InstancePlan plan = trianglePlan(s, flat);
    ASSERT_EQ(plan.numStatic, 5u);  // the hall and the four props' meshes: every BLAS built once
    ASSERT_EQ(plan.numDeforming(), 0u);
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (float t : {0.0f, 4.3f}) {
        SCOPED_TRACE(t);
        const std::vector<Affine> w = instanceTransforms(s, t);
        for (const InstancePlan::Member& mb : plan.members) {
            const Mesh& mesh = s.meshes[plan.blas[mb.blas].mesh];
            const Aabb box = memberWorldBox(w[mb.instance], plan.meshes[plan.blas[mb.blas].mesh], true);
            const Aabb loose = memberWorldBox(w[mb.instance], plan.meshes[plan.blas[mb.blas].mesh], false);
            for (const Vec3& v : mesh.positions)
                ASSERT_TRUE(holdsWhatLooseHolds(box, loose, w[mb.instance], v)) << s.instances[mb.instance].name;
        }
        std::vector<Vec3> pos, nrm;
        std::vector<Aabb> bounds;
        poseFlatScene(s, flat, t, pos, nrm);
        triangleBounds(pos, flat.tris, bounds);
        SceneView base = hostSceneView(s, flat, pos, nrm, BvhView{}, CameraView{});
        Options opts;
        opts.set("accel.mode", "instanced");
        InstancedHost inst;
        inst.build(s, flat, pos, bounds, t, opts.accel);
        SceneView sv = base;
        sv.tl = inst.view();
        int hits = 0, far = 0;
        for (int i = 0; i < 300; ++i) {  // from the nave's middle, through the props
            const Vec3 o{10.0f * u(rng), 3.0f + 2.0f * u(rng), 2.0f * u(rng)};
            const Vec3 d{u(rng), 0.3f * u(rng), 0.5f * u(rng)};
            const Ray r{o, 0.0f, d * (1.0f / std::sqrt(dot(d, d))), 1e30f};
            const HitRecord ref = traceBruteForce(base.geo, r), h = traceClosest(sv, r);
            ASSERT_EQ(isHit(h), isHit(ref));
            if (!isHit(ref)) continue;
            ++hits;
            far += !sameHit(h, ref, 10 * kHitDistanceTolerance);
        }
        EXPECT_GT(hits, 250);
        EXPECT_LE(far, 3);
    }
}

// One hierarchy kept through switches of the copy, the builder (to kd-tree
// BLASes and back) and the traversal (to stackless and back) and re-braiding (on, then off): after each its
// BLASes hold copies exactly where copiesLeafTris says, and its hits are
// those of a hierarchy built afresh with the same options.
TEST(Instanced, CopiesFollowSwitchesOfOneHierarchy) {
    PosedScene p;
    const std::vector<Ray> rays = test::instancedSceneRays(1000);
    const std::pair<const char*, const char*> steps[] = {
        {"accel.copy_leaf_tris", "true"}, {"accel.copy_leaf_tris", "false"}, {"accel.copy_leaf_tris", "true"},
        {"accel.builder", "kdtree"},      {"accel.builder", "lbvh-skip"},    {"accel.traversal", "stackless"},
        {"accel.traversal", "stack"},     {"accel.builder", "hploc"},        {"accel.rebraid", "16"},
        {"accel.builder", "lbvh-apetrei"}, {"accel.rebraid", "0"}};
    Options opts;
    opts.set("accel.mode", "instanced");
    opts.set("accel.builder", "lbvh-skip");
    InstancedHost kept;
    for (auto [key, value] : steps) {
        SCOPED_TRACE(std::string(key) + " = " + value);
        opts.set(key, value);
        kept.build(p.s, p.flat, p.pos, p.bounds, p.t, opts.accel);
        InstancedHost fresh;
        fresh.build(p.s, p.flat, p.pos, p.bounds, p.t, opts.accel);
        SceneView a = p.base, b = p.base;
        a.tl = kept.view();
        b.tl = fresh.view();
        const bool copies = copiesLeafTris(opts.accel, false);
        for (uint32_t i = 0; i < a.tl.numInstances; ++i)
            EXPECT_EQ(a.tl.blas[a.tl.instances[i].blas].bvh.leafTris != nullptr, copies) << "instance " << i;
        for (const Ray& r : rays) {
            ASSERT_EQ(traceClosest(a, r), traceClosest(b, r));
            ASSERT_EQ(traceAny(a, r), traceAny(b, r));
        }
    }
}

// accel.rebuild = refit | auto in instanced mode: the deforming instances'
// BLASes, built at the first pose and refitted at later ones, give the
// closest and any hits of brute force at each later pose (issue 21, item 3:
// a refitted tree validated against brute force at later frames).
TEST(Instanced, RefittedBlasesTraceLikeBruteForceAtLaterPoses) {
    test::TempDir dir;
    Scene s = test::loadInstancedScene(dir);
    FlatScene flat = flattenScene(s);
    const std::vector<Ray> rays = test::instancedSceneRays(1500);
    struct Case {
        const char* builder;
        const char* traversal;
        const char* rebuild;
    };
    for (Case c : {Case{"lbvh-karras", "stack", "refit"}, Case{"lbvh-apetrei", "stack", "refit"},
                   Case{"lbvh-skip", "stackless", "refit"}, Case{"hploc", "stack", "refit"},
                   Case{"lbvh-karras", "stack", "auto"}}) {
        Options opts;
        opts.set("accel.builder", c.builder);
        opts.set("accel.traversal", c.traversal);
        opts.set("accel.mode", "instanced");
        opts.set("accel.rebuild", c.rebuild);
        opts.set("accel.refit_growth", "100");  // auto: refits throughout, as refit does
        InstancedHost inst;
        uint32_t frame = 0;
        for (float t : {0.0f, 0.35f, 0.7f, 1.4f}) {
            std::vector<Vec3> pos, nrm;
            poseFlatScene(s, flat, t, pos, nrm);
            std::vector<Aabb> bounds;
            triangleBounds(pos, flat.tris, bounds);
            inst.build(s, flat, pos, bounds, t, opts.accel);
            const std::vector<BlasRefit> refits = inst.blasRefits(s, opts.accel);
            ASSERT_FALSE(refits.empty()) << "the scene has deforming instances";
            for (const BlasRefit& r : refits) ASSERT_EQ(r.refits, frame) << c.builder << " " << r.name;
            SceneView sv = hostSceneView(s, flat, pos, nrm, BvhView{}, CameraView{});
            const GeometryView geo = sv.geo;
            sv.tl = inst.view();
            int far = 0;
            for (const Ray& r : rays) {
                const HitRecord ref = traceBruteForce(geo, r), h = traceClosest(sv, r);
                ASSERT_EQ(isHit(h), isHit(ref)) << c.builder << " " << c.rebuild << " at t = " << t;
                ASSERT_EQ(traceAny(sv, r), isHit(ref)) << c.builder << " " << c.rebuild << " at t = " << t;
                if (isHit(ref)) far += !sameHit(h, ref, 10 * kHitDistanceTolerance);
            }
            EXPECT_LE(far, 3) << c.builder << " " << c.rebuild << " at t = " << t;
            ++frame;
        }
    }
}

TEST(Instanced, StaticMeshesShareOneBlasWithEveryBuilder) {
    test::TempDir dir;
    Scene s = test::loadInstancedScene(dir);
    FlatScene flat = flattenScene(s);
    std::vector<Vec3> pos, nrm;
    poseFlatScene(s, flat, 0.0f, pos, nrm);
    std::vector<Aabb> bounds;
    triangleBounds(pos, flat.tris, bounds);
    for (const char* builder : {"lbvh-karras", "kdtree"}) {
        Options opt;
        opt.set("accel.mode", "instanced");
        opt.set("accel.builder", builder);
        EXPECT_NO_THROW(opt.check());
        InstancedHost inst;
        inst.build(s, flat, pos, bounds, 0.0f, opt.accel);
        TwoLevelView v = inst.view();
        EXPECT_EQ(v.instances[1].blas, v.instances[2].blas) << builder << ": two balls, one BLAS";
        EXPECT_NE(v.instances[4].blas, v.instances[5].blas) << builder << ": each swaying plant has its own";
    }
}

// The one plan both backends and both hierarchies follow: static meshes
// share a BLAS (built over their first instance's primitives), each
// deforming instance has its own, instances of meshes without primitives
// are left out, members keep the scene's order.
TEST(Instanced, PlanGivesStaticMeshesOneBlasAndDeformingInstancesTheirOwn) {
    std::vector<PlanMesh> meshes(3);
    meshes[0].prims = 3;  // static
    meshes[1].prims = 2;
    meshes[1].deforms = true;
    meshes[2].prims = 0;  // nothing in this level
    const std::vector<PlanInstance> instances = {{1, 0}, {0, 2}, {2, 5}, {0, 5}, {1, 8}};
    const InstancePlan p = planInstances(PlanPrims::Triangles, meshes, instances);
    ASSERT_EQ(p.numStatic, 1u);
    ASSERT_EQ(p.blas.size(), 3u);  // mesh 0's, then instance 0's and instance 4's
    EXPECT_EQ(p.blas[0].mesh, 0u);
    EXPECT_EQ(p.blas[0].instance, -1);
    EXPECT_EQ(p.blas[0].primBase, 2u);  // mesh 0's first instance (instance 1)
    EXPECT_EQ(p.blas[1].instance, 0);
    EXPECT_EQ(p.blas[2].instance, 4);
    EXPECT_EQ(p.blas[2].primBase, 8u);
    ASSERT_EQ(p.members.size(), 4u);  // instance 2 (an empty mesh) left out
    const uint32_t wantInstance[4] = {0, 1, 3, 4}, wantBlas[4] = {1, 0, 0, 2}, wantBase[4] = {0, 2, 5, 8};
    for (int j = 0; j < 4; ++j) {
        EXPECT_EQ(p.members[j].instance, wantInstance[j]) << j;
        EXPECT_EQ(p.members[j].blas, wantBlas[j]) << j;
        EXPECT_EQ(p.members[j].primBase, wantBase[j]) << j;
    }
    EXPECT_EQ(p.meshBlas[0], 0);
    EXPECT_EQ(p.meshBlas[1], -1);
    EXPECT_EQ(p.numDeforming(), 2u);
    EXPECT_TRUE(p.isStatic(0));
    EXPECT_FALSE(p.isStatic(1));
    AccelOptions a;
    const std::string key = staticBlasKey(a);
    a.traversal = Traversal::Stackless;  // views are made every frame: not in the key
    EXPECT_EQ(staticBlasKey(a), key);
    a.mortonBits = 30;
    EXPECT_NE(staticBlasKey(a), key);
    EXPECT_NE(staticBlasKey(AccelOptions{}, "cull 5"), key);
}

}  // namespace
}  // namespace strata
