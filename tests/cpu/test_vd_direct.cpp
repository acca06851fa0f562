// vd.mode direct on the CPU: the full pipeline (triangles, patch pairs, sort,
// per-patch build and traversal) gives the same closest hits and the same
// shadow-ray verdicts as pre-tessellation at the same level, for instances
// moved, turned and scaled; and the CPU backend renders direct mode like
// pre-tessellation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <sstream>
#include <type_traits>

#include "accel/cpu/sah_builder.h"
#include "accel/host_accel.h"
#include "loader_test_util.h"
#include "test_util.h"
#include "vd_test_scene.h"
#include "render/flat_scene.h"
#include "render/frame_csv.h"
#include "render/instancing.h"
#include "render/renderer.h"
#include "render/vd_host.h"
#include "scene/scene_loader.h"
#include "scene/vd_scene.h"

namespace strata {
namespace {

using test::kVdTestScene;

// One frame of s on the CPU backend at w x h: its radiance (and, when rec is
// given, its record).
std::vector<float> renderCpu(Scene s, uint32_t w, uint32_t h, int spp, int bounces, FrameRecord* rec = nullptr,
                             uint64_t* pairs = nullptr) {
    s.options.set("render.backend", "cpu");
    s.options.render.width = w;
    s.options.render.height = h;
    s.options.render.spp = spp;
    s.options.render.bounces = bounces;
    auto r = makeCpuRenderer(s);
    r->renderFrame(0.0f, 0);
    r->finish();
    std::vector<float> img;
    r->readRadiance(img);
    if (rec) EXPECT_TRUE(r->popRecord(*rec));
    if (pairs) *pairs = r->vdPairsResolved();
    return img;
}

struct Mode {
    Scene scene;
    std::unique_ptr<Scene> holder;
    const Scene* s = nullptr;
    FlatScene flat;
    std::vector<Vec3> pos, nrm;
    HostBvh bvh;
    SceneView view;
};

void setUp(Mode& m, const std::string& path, const std::string& mode) {
    m.scene = loadScene(path);
    m.scene.options.set("vd.mode", mode);
    m.s = &withQuadsAsTriangles(m.scene, m.holder);
    m.flat = flattenScene(*m.s);
    poseFlatScene(*m.s, m.flat, 0.0f, m.pos, m.nrm);
    std::vector<Aabb> bounds;
    triangleBounds(m.pos, m.flat.tris, bounds);
    m.bvh = buildSahBvh(bounds);
    m.view = hostSceneView(*m.s, m.flat, m.pos, m.nrm, m.bvh.view(), CameraView{});
}

// The VD test scene (written into dir) set up both ways.
void setUpBoth(const test::TempDir& dir, Mode& pre, Mode& direct) {
    const std::string path = dir.write("s.json", kVdTestScene);
    setUp(pre, path, "pretess");
    setUp(direct, path, "direct");
}

std::vector<Ray> randomRays(uint32_t n) {
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<Ray> rays(n);
    for (uint32_t i = 0; i < n; ++i) {
        Ray& r = rays[i];
        r.org = i % 2 ? Vec3{u(rng) * 2, 1.5f + u(rng), 2.5f + u(rng)} : Vec3{u(rng), 0.3f + 0.3f * u(rng), u(rng)};
        Vec3 target{u(rng) * 1.2f, 0.35f + 0.35f * u(rng), u(rng) * 0.8f};
        r.dir = normalize(target - r.org);
        if (i % 5 == 0) r.dir = normalize(Vec3{u(rng), u(rng), u(rng)});
        r.tmin = 1e-4f;
        r.tmax = i % 3 == 0 ? 2.0f : 1e30f;
    }
    return rays;
}

// Appends every ray's pairs (append(i)), again while they overflow the pair
// buffer (it grows: VdHost::pairsFit), as the renderers' schedule does.
template <class Append>
void appendPairs(VdHost& vd, VdView& view, uint32_t n, Append append) {
    do
        for (uint32_t i = 0; i < n; ++i) append(i);
    while (!vd.pairsFit(view));
}

// The direct pipeline's closest hits (triangles first, the pairs of the
// patch boxes in front, then the bottom level) and shadow verdicts (the
// same, with a blocked flag) for the rays.
std::pair<std::vector<HitRecord>, std::vector<uint32_t>> resolveRays(VdHost& vd, Mode& direct,
                                                                     const std::vector<Ray>& rays, ThreadPool& pool) {
    const uint32_t n = uint32_t(rays.size());
    std::vector<HitRecord> hits(n);
    appendPairs(vd, direct.view.vd, n, [&](uint32_t i) {
        hits[i] = traceClosest(direct.view, rays[i]);
        vdAppendPairs(direct.view.vd, rays[i], isHit(hits[i]) ? hitDistance(hits[i]) : rays[i].tmax, i);
    });
    vd.resolve(direct.view.vd, rays.data(), hits.data(), nullptr, pool);
    std::vector<uint32_t> blocked(n, 0);
    appendPairs(vd, direct.view.vd, n, [&](uint32_t i) {
        blocked[i] = traceAny(direct.view, rays[i]) ? 1u : 0u;
        if (!blocked[i]) vdAppendPairs(direct.view.vd, rays[i], rays[i].tmax, i);
    });
    vd.resolve(direct.view.vd, rays.data(), nullptr, blocked.data(), pool);
    return {hits, blocked};
}

// The whole direct pipeline for the rays (closest hits, then shadow
// verdicts), checked against pre-tessellation; returns the pairs resolved.
// The pair buffer starts as small as it can (made for one ray): it must
// grow, and no pair may be lost on the way.
// accel: the builder and traversal of the patch structure; instanced: found
// through the VD instances (else flat mode's tree over the world boxes).
uint64_t checkDirectAgainstPretess(Mode& direct, Mode& pre, const std::vector<Ray>& rays, const std::string& what,
                                   const AccelOptions& accel, bool instanced = false, bool pairCull = true) {
    const uint32_t n = uint32_t(rays.size());
    VdHost vd;
    VdOptions o = direct.scene.options.vd;
    o.pairCull = pairCull;
    vd.prepare(*direct.s, direct.flat, o, 0.0f, accel, instanced);
    direct.view.vd = vd.view(direct.flat, o, 1e-3f, Vec3{}, 1);
    EXPECT_LT(direct.view.vd.pairCapacity, n) << what << ": a buffer too small for the rays' pairs";
    EXPECT_EQ(direct.view.vd.instances.numInstances, instanced ? 3u : 0u) << what << ": the VD instances";
    ThreadPool pool(2);

    const auto [hits, blocked] = resolveRays(vd, direct, rays, pool);
    // Occlusion only (the last bounce's rays, vd.last_bounce_any_hit): any
    // VD hit before the closest triangle, which stays as it was; flagged
    // exactly when the closest hit above is a VD hit.
    std::vector<HitRecord> tris(n);
    std::vector<uint32_t> occluded(n, 0);
    appendPairs(vd, direct.view.vd, n, [&](uint32_t i) {
        tris[i] = traceClosest(direct.view, rays[i]);
        vdAppendPairs(direct.view.vd, rays[i], isHit(tris[i]) ? hitDistance(tris[i]) : rays[i].tmax, i);
    });
    const std::vector<HitRecord> trisBefore = tris;
    vd.resolve(direct.view.vd, rays.data(), tris.data(), occluded.data(), pool);
    EXPECT_EQ(tris, trisBefore) << what << ": an any-hit resolve leaves the hits alone";
    int occludedCount = 0;
    for (uint32_t i = 0; i < n; ++i) {
        EXPECT_EQ(occluded[i] != 0, isHit(hits[i]) && isVdPayload(hitPayload(hits[i]))) << what << ", ray " << i;
        occludedCount += occluded[i] != 0;
    }
    EXPECT_GT(occludedCount, int(n) / 8) << what;
    EXPECT_GT(vd.view(direct.flat, o, 1e-3f, Vec3{}, 1).pairCapacity, kVdMinPairs) << what << ": the buffer grew";
    EXPECT_GT(vd.pairsResolved(), uint64_t(n)) << what;

    int vdHits = 0, mismatched = 0;
    for (uint32_t i = 0; i < n; ++i) {
        HitRecord ref = traceClosest(pre.view, rays[i]);
        EXPECT_EQ(isHit(hits[i]), isHit(ref)) << what << ", ray " << i;
        EXPECT_EQ(blocked[i] != 0, isHit(ref)) << what << ", shadow verdict, ray " << i;
        if (!isHit(ref) || !isHit(hits[i])) continue;
        vdHits += isVdPayload(hitPayload(hits[i]));
        float a = hitDistance(hits[i]), b = hitDistance(ref);
        // The same triangles, one side in world space, the other with the ray in object space.
        mismatched += std::fabs(a - b) > 2e-4f * std::max(1.0f, b);
    }
    EXPECT_GT(vdHits, int(n) / 8) << what << ": the rays should mostly hit the patches";
    EXPECT_LE(mismatched, int(n) / 1000) << what << ": closest-hit distances differ from pre-tessellation";
    return vd.pairsResolved();
}

// Flat mode (the BVH over the patches' world boxes), then instanced mode:
// the patches found through a top level over the VD instances and one
// object-space BLAS per VD mesh (one for both mushroom instances). Both give
// pre-tessellation's answers; instanced mode from no more pairs (the object
// ray meets the patch's own box, not its world AABB). Without vd.pair_cull
// (every patch box the ray enters makes a pair) the answers are the same,
// from far more pairs.
TEST(VdDirect, ClosestHitsAndShadowVerdictsEqualPretessellationInBothModes) {
    test::TempDir dir;
    Mode pre, direct;
    setUpBoth(dir, pre, direct);
    ASSERT_EQ(direct.flat.patches.size(), 12u);
    ASSERT_TRUE(pre.flat.patches.empty());
    const std::vector<Ray> rays = randomRays(4000);
    const AccelOptions& accel = direct.scene.options.accel;
    const uint64_t flatPairs = checkDirectAgainstPretess(direct, pre, rays, "flat", accel);
    const uint64_t unculled =
        checkDirectAgainstPretess(direct, pre, rays, "flat, no pair culling", accel, false, false);
    EXPECT_LT(flatPairs, unculled * 3 / 4) << "the quadrant boxes should drop many pairs";
    std::printf("flat: %llu pairs, %llu without vd.pair_cull\n", (unsigned long long)flatPairs,
                (unsigned long long)unculled);
    for (const char* builder : {"lbvh-karras", "lbvh-skip", "kdtree"}) {  // kdtree: the patches' BVHs by Karras
        Options opts;
        opts.accel = direct.scene.options.accel;
        opts.set("accel.builder", builder);
        opts.set("accel.traversal", std::string(builder) == "lbvh-skip" ? "stackless" : "stack");
        const AccelOptions o = opts.accel;
        const MeshPatches mp = meshPatchRanges(*direct.s, direct.flat);
        EXPECT_EQ(mp.meshCount[1], 4u);
        EXPECT_EQ(mp.instanceBase[2], 4u);  // the second mushroom's patches follow the first's
        EXPECT_EQ(mp.meshFirst[2], 8u);     // the hook's
        // Flat mode's tree over the world boxes by the same builder and traversal: about the
        // same pairs (a ray meeting one patch's quadrants in two batches makes two).
        const uint64_t flatBuilt = checkDirectAgainstPretess(direct, pre, rays, std::string("flat ") + builder, o);
        EXPECT_NEAR(double(flatBuilt), double(flatPairs), 0.02 * double(flatPairs)) << builder;
        const uint64_t pairs =
            checkDirectAgainstPretess(direct, pre, rays, std::string("instanced ") + builder, o, true);
        EXPECT_LE(pairs, flatPairs) << builder;
        EXPECT_GT(pairs, flatPairs / 2) << builder;
        std::printf("%s: %llu pairs instanced, %llu flat\n", builder, (unsigned long long)pairs,
                    (unsigned long long)flatPairs);
    }
}

// The surface at a VD hit: unit normals, uv in the patch, and the smooth
// normal and texture coordinates that pre-tessellation interpolates at the
// same point from its vertices' (the tessellator's own central differences,
// an independent path). Before, hits on a cell's second triangle read their
// patch coordinates with u and v swapped: 92 of 260 normals and 148 of
// 260 texture coordinates differed.
TEST(VdDirect, VdSurfaceMatchesTheHitCellAndPretessellationsNormal) {
    test::TempDir dir;
    Mode pre, direct;
    setUpBoth(dir, pre, direct);
    ASSERT_FALSE(pre.nrm.empty());
    ASSERT_FALSE(pre.flat.uv.empty());
    VdHost vd;
    vd.prepare(*direct.s, direct.flat, direct.scene.options.vd, 0.0f, direct.scene.options.accel, false);
    VdOptions o = direct.scene.options.vd;
    direct.view.vd = vd.view(direct.flat, o, 1e-3f, Vec3{}, 1000);
    ThreadPool pool(1);
    std::vector<Ray> rays = randomRays(1000);
    std::vector<HitRecord> hits(rays.size(), kNoHit);
    appendPairs(vd, direct.view.vd, uint32_t(rays.size()),
                [&](uint32_t i) { vdAppendPairs(direct.view.vd, rays[i], rays[i].tmax, i); });
    vd.resolve(direct.view.vd, rays.data(), hits.data(), nullptr, pool);
    int checked = 0, farOff = 0, compared = 0, differs = 0, uvDiffers = 0;
    for (uint32_t i = 0; i < rays.size(); ++i) {
        if (!isHit(hits[i])) continue;
        VdSurface s = vdSurfaceAt(direct.view.vd, hitPayload(hits[i]), rays[i]);
        EXPECT_NEAR(length(s.ng), 1.0f, 1e-4f);
        EXPECT_NEAR(length(s.ns), 1.0f, 1e-4f);
        // The smooth normal is near the cell's facet normal at level 4 (but
        // for slivers where the surface pinches, like the hook's tip).
        farOff += std::fabs(dot(s.ns, s.ng)) < 0.3f;
        EXPECT_TRUE(s.uv.x >= -1e-4f && s.uv.x <= 1 + 1e-4f && s.uv.y >= -1e-4f && s.uv.y <= 1 + 1e-4f);
        ++checked;
        // Pre-tessellation's triangle at the same distance, and its normal there.
        Ray r = rays[i];
        r.tmax = hitDistance(hits[i]) * (1 + 1e-4f) + 1e-5f;
        HitRecord h = traceClosest(pre.view, r);
        // (Not the floor, instance 0, where a stem stands on it.)
        if (!isHit(h) || hitPayload(h) < pre.flat.instanceTriOffset[1] ||
            std::fabs(hitDistance(h) - hitDistance(hits[i])) > 1e-4f * hitDistance(h))
            continue;
        const Tri tri = pre.flat.tris[hitPayload(h)];
        const Vec2 bc = triangleBarycentrics(r, pre.pos[tri.v[0]], pre.pos[tri.v[1]], pre.pos[tri.v[2]]);
        const Vec3 n =
            normalize(pre.nrm[tri.v[0]] * (1 - bc.x - bc.y) + pre.nrm[tri.v[1]] * bc.x + pre.nrm[tri.v[2]] * bc.y);
        ++compared;
        // Equal but for rounding where the instance scales uniformly; within
        // the order of normalizing and interpolating under the hook's
        // non-uniform scale (pre-tessellation normalizes the posed vertex normals).
        const bool uniform = direct.flat.patchInstance[vdPayloadPatch(hitPayload(hits[i]))] != 3;
        differs += dot(n, s.ns) < (uniform ? 0.99999f : 0.998f);
        // And its texture coordinates.
        const Vec2 uv =
            pre.flat.uv[tri.v[0]] * (1 - bc.x - bc.y) + pre.flat.uv[tri.v[1]] * bc.x + pre.flat.uv[tri.v[2]] * bc.y;
        uvDiffers += std::fabs(uv.x - s.uv.x) + std::fabs(uv.y - s.uv.y) > 1e-4f;
    }
    EXPECT_GT(checked, 100);
    EXPECT_LE(farOff, checked / 50);
    EXPECT_GT(compared, checked * 9 / 10);
    EXPECT_EQ(uvDiffers, 0) << uvDiffers << " of " << compared << " texture coordinates differ from pre-tessellation's";
    EXPECT_EQ(differs, 0) << differs << " of " << compared << " normals differ from pre-tessellation's";
}

// The fused trace of kind K over sv (vd.middle_level unified: the patch
// boxes in the triangles' structure) appends each ray's pairs and, where
// the buffer made for one ray overflows, a walk of that structure appends
// them again (both happen); through the bottom level, the closest hits and
// shadow verdicts are pre-tessellation's.
template <TraceKind K>
void checkFusedAgainstPretess(const Mode& pre, VdHost& vd, SceneView& sv, const std::vector<Ray>& rays) {
    const uint32_t n = uint32_t(rays.size());
    ThreadPool pool(2);
    auto trace = [&](auto fused) {  // fused: the trace appends; else (overflow) the walk does
        constexpr bool AnyHit = decltype(fused)::value;
        std::vector<HitRecord> hits(n, kNoHit);
        std::vector<uint32_t> blocked(n, 0);
        int walks = 0;
        for (bool first = true;; first = false) {
            for (uint32_t i = 0; i < n; ++i) {
                float tmax = rays[i].tmax;
                if (first) {
                    const uint32_t prim = traceFusedAs<K, AnyHit>(sv, rays[i], tmax, i);
                    if (AnyHit)
                        blocked[i] = prim != ~0u;
                    else
                        hits[i] = prim == ~0u ? kNoHit : packHit(tmax, prim);
                } else if (AnyHit ? !blocked[i] : true) {
                    vdAppendPairs(sv.vd, rays[i],
                                  AnyHit ? rays[i].tmax : (isHit(hits[i]) ? hitDistance(hits[i]) : rays[i].tmax), i);
                }
            }
            if (vd.pairsFit(sv.vd)) break;
            ++walks;
        }
        if (!AnyHit) EXPECT_GT(walks, 0) << "the closest rays' pairs should overflow the buffer made for one ray";
        vd.resolve(sv.vd, rays.data(), AnyHit ? nullptr : hits.data(), AnyHit ? blocked.data() : nullptr, pool);
        return std::make_pair(hits, blocked);
    };
    const std::vector<HitRecord> hits = trace(std::false_type{}).first;
    const std::vector<uint32_t> blocked = trace(std::true_type{}).second;
    int vdHits = 0, mismatched = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const HitRecord ref = traceClosest(pre.view, rays[i]);
        ASSERT_EQ(isHit(hits[i]), isHit(ref)) << "ray " << i;
        ASSERT_EQ(blocked[i] != 0, isHit(ref)) << "shadow verdict, ray " << i;
        if (!isHit(ref)) continue;
        vdHits += isVdPayload(hitPayload(hits[i]));
        mismatched += std::fabs(hitDistance(hits[i]) - hitDistance(ref)) > 2e-4f * std::max(1.0f, hitDistance(ref));
    }
    EXPECT_GT(vdHits, int(n) / 8);
    EXPECT_LE(mismatched, int(n) / 1000);
}

// vd.middle_level unified (Harada's one middle level), flat mode: the
// patches' middle-level boxes in the triangles' own tree, through
// overflows (checkFusedAgainstPretess), with and without pair culling,
// stack and stackless.
TEST(VdDirect, UnifiedMiddleLevelGivesPretessellationsHitsThroughOverflows) {
    test::TempDir dir;
    Mode pre, direct;
    setUpBoth(dir, pre, direct);
    const std::vector<Ray> rays = randomRays(6000);
    const uint32_t numTris = uint32_t(direct.flat.tris.size());
    for (const bool pairCull : {true, false})
        for (const char* builder : {"lbvh-karras", "lbvh-skip"}) {
            SCOPED_TRACE(std::string(builder) + (pairCull ? ", pair culling" : ", loose boxes"));
            Options opts;
            opts.accel = direct.scene.options.accel;
            opts.set("accel.builder", builder);
            opts.set("accel.traversal", std::string(builder) == "lbvh-skip" ? "stackless" : "stack");
            VdOptions o = direct.scene.options.vd;
            o.pairCull = pairCull;
            o.middle = VdMiddle::Unified;
            VdHost vd;
            vd.prepare(*direct.s, direct.flat, o, 0.0f, opts.accel, false, true);
            // One tree over the triangles and the patch boxes, as the CPU renderer builds it.
            std::vector<Aabb> bounds;
            triangleBounds(direct.pos, direct.flat.tris, bounds);
            bounds.insert(bounds.end(), vd.middleBoxes().begin(), vd.middleBoxes().end());
            ASSERT_EQ(bounds.size(), numTris + (direct.flat.patches.size() << (pairCull ? kVdQuadrantShift : 0)));
            HostAccel tree;
            buildHostAccel(bounds, opts.accel, tree);
            SceneView sv = direct.view;
            sv.bvh = tree.view(opts.accel);
            sv.vd = vd.view(direct.flat, o, 1e-3f, Vec3{}, 1);
            vdUseUnifiedMiddle(sv);
            if (sv.bvh.traversal == BvhTraversal::Stackless)
                checkFusedAgainstPretess<TraceKind::BvhStackless>(pre, vd, sv, rays);
            else
                checkFusedAgainstPretess<TraceKind::Bvh>(pre, vd, sv, rays);
        }
}

// The same in instanced mode: one top level over every instance, each VD
// mesh's BLAS holding its patches' object-space boxes after its triangles
// (a mesh of both, twice, in the scene), as the CPU renderer builds them.
TEST(VdDirect, UnifiedMiddleLevelThroughInstancesGivesPretessellationsHits) {
    test::TempDir dir;
    Mode pre, direct;
    const std::string path = dir.write("s.json", test::vdMixedTestScene(dir));
    setUp(pre, path, "pretess");
    setUp(direct, path, "direct");
    const std::vector<Ray> rays = randomRays(6000);
    for (const bool pairCull : {true, false})
        for (const char* builder : {"lbvh-karras", "lbvh-apetrei"}) {
            SCOPED_TRACE(std::string(builder) + (pairCull ? ", pair culling" : ", loose boxes"));
            Options opts;
            opts.accel = direct.scene.options.accel;
            opts.set("accel.builder", builder);
            opts.set("accel.mode", "instanced");
            VdOptions o = direct.scene.options.vd;
            o.pairCull = pairCull;
            o.middle = VdMiddle::Unified;
            VdHost vd;
            vd.prepare(*direct.s, direct.flat, o, 0.0f, opts.accel, true, true);
            const UnifiedPatches object = vd.objectMiddleBoxes();
            std::vector<Aabb> bounds;
            triangleBounds(direct.pos, direct.flat.tris, bounds);
            InstancedHost instanced;
            instanced.build(*direct.s, direct.flat, direct.pos, bounds, 0.0f, opts.accel, nullptr, &object);
            SceneView sv = direct.view;
            sv.tl = instanced.view();
            sv.vd = vd.view(direct.flat, o, 1e-3f, Vec3{}, 1);
            vdUseUnifiedMiddle(sv);
            ASSERT_EQ(sv.tl.numInstances, direct.s->instances.size()) << "one top level over every instance";
            int mixed = 0, patchesOnly = 0;  // BLASes: the mixed mesh's, the mushroom's and the hook's
            for (uint32_t i = 0; i < sv.tl.numInstances; ++i) {
                const BlasView& b = sv.tl.blas[sv.tl.instances[i].blas];
                mixed += b.firstBox != ~0u && b.firstBox > 0;
                patchesOnly += b.firstBox == 0;
            }
            EXPECT_EQ(mixed, 2);
            EXPECT_EQ(patchesOnly, 3);
            checkFusedAgainstPretess<TraceKind::TwoLevel>(pre, vd, sv, rays);
        }
}

// Harada's method (vd.method harada: camera LOD, box leaves, the loose patch
// boxes) through the whole CPU pipeline, against pre-tessellation at the
// same level (vd.lod_bias 8: every patch at vd.max_level). A leaf box holds
// its cell's two triangles, so every ray hitting the pre-tessellated surface
// hits a box no later (and every shadow ray it blocks is blocked); a ray
// can also graze a box its cell's triangles leave empty, so some rays that
// miss pre-tessellation hit, and some hits come earlier than the triangle's
// by up to a box's depth. The surface there is the hit cell's: its node's
// normal (the cell's diagonals' cross product) and uv (the cell's centre).
TEST(VdDirect, HaradasMethodMeetsTheSurfaceNoLaterThanPretessellation) {
    test::TempDir dir;
    Mode pre, direct;
    setUpBoth(dir, pre, direct);
    VdOptions o = direct.scene.options.vd;
    Options withHarada;
    withHarada.set("render.backend", "cpu");
    withHarada.set("vd.method", "harada");
    o.lod = withHarada.vd.lod;
    o.leaf = withHarada.vd.leaf;
    o.pairCull = withHarada.vd.pairCull;
    o.lodBias = 8;
    VdHost vd;
    vd.prepare(*direct.s, direct.flat, o, 0.0f, direct.scene.options.accel, false);
    direct.view.vd = vd.view(direct.flat, o, 1e-3f, Vec3{0, 1, 3}, 1000);
    ASSERT_TRUE(direct.view.vd.boxLeaves && direct.view.vd.cameraLod);
    ThreadPool pool(2);
    const std::vector<Ray> rays = randomRays(4000);
    const uint32_t n = uint32_t(rays.size());
    const auto [hits, blocked] = resolveRays(vd, direct, rays, pool);
    int vdHits = 0, later = 0, lost = 0, unblocked = 0, extra = 0, near = 0, both = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const HitRecord ref = traceClosest(pre.view, rays[i]);
        if (!isHit(ref)) {
            extra += isHit(hits[i]);
            continue;
        }
        lost += !isHit(hits[i]);
        unblocked += !blocked[i];
        if (!isHit(hits[i])) continue;
        ++both;
        const float a = hitDistance(hits[i]), b = hitDistance(ref);
        later += a > b * (1 + 2e-4f) + 1e-5f;
        near += a >= b - 0.05f;  // within a level-5 cell's box of the mushrooms (about 1/32 of 1.2)
        if (!isVdPayload(hitPayload(hits[i]))) continue;
        ++vdHits;
        const VdSurface s = vdSurfaceAt(direct.view.vd, hitPayload(hits[i]), rays[i]);
        EXPECT_NEAR(length(s.ng), 1.0f, 1e-4f);
        EXPECT_TRUE(s.ng.x == s.ns.x && s.ng.y == s.ns.y && s.ng.z == s.ns.z) << "one normal: the node's";
        EXPECT_TRUE(s.uv.x >= 0 && s.uv.x <= 1 && s.uv.y >= 0 && s.uv.y <= 1);
    }
    EXPECT_GT(vdHits, int(n) / 8);
    // Rays starting inside a leaf box pass it: a few of the random origins.
    EXPECT_LE(lost, int(n) / 200) << "rays hitting pre-tessellation that miss every box";
    EXPECT_LE(unblocked, int(n) / 200) << "shadow rays pre-tessellation blocks that pass";
    EXPECT_LE(later, int(n) / 200) << "hits later than pre-tessellation's";
    EXPECT_LE(extra, int(n) / 20) << "rays missing pre-tessellation that hit a box";
    // Random rays, many at grazing angles: 95% when written.
    EXPECT_GE(near, both * 90 / 100) << "hits more than a cell's depth before pre-tessellation's";
    std::printf(
        "Harada's leaves: %d of %u rays hit patches; %d hit a box where pre-tessellation misses, %d lost, "
        "%d later; %d of %d hits within 0.05 of pre-tessellation's\n",
        vdHits, n, extra, lost, later, near, both);
}

// vd.last_bounce_any_hit applies where no VD patch emits (an any-hit ray
// gathers nothing only then): on by default, off by the option, off when a
// patch's material emits. (The image it renders is the same: typed over the
// backends in tests/backends/test_backends_render.cpp.)
TEST(VdDirect, LastBounceAnyHitAppliesOnlyWhereNoPatchEmits) {
    test::TempDir dir;
    const std::string path = dir.write("s.json", test::vdLitTestScene());
    Scene s = loadScene(path);
    EXPECT_TRUE(vdAnyHitLast(flattenScene(s), s.options.vd));
    s.options.vd.lastBounceAnyHit = false;
    EXPECT_FALSE(vdAnyHitLast(flattenScene(s), s.options.vd));
    s = loadScene(path);
    s.materials.push_back(Material{});
    s.materials.back().type = MaterialType::Emissive;
    s.materials.back().emission = Vec3{1, 1, 1};
    for (Mesh& m : s.meshes)
        if (m.vd.map >= 0) m.quadMaterial.assign(m.quads.size(), int32_t(s.materials.size() - 1));
    EXPECT_FALSE(vdAnyHitLast(flattenScene(s), s.options.vd)) << "a VD patch emits";
}

// Shaded: direct and pre-tessellated renders at the same level (vd.lod_bias
// 8 asks every patch for vd.max_level) with the same samples differ by far
// less than two pre-tessellated renders with different samples do (1% of
// it when written): the same surface, materials and lighting. It does not
// tell the smooth normals' constructions apart (central differences at the
// hit, interpolated vertex normals): even the cells' flat normals stay
// under the bound.
TEST(VdDirect, ShadedDirectAgreesWithPretessWithinNoise) {
    test::TempDir dir;
    const std::string path = dir.write("s.json", test::vdLitTestScene());
    auto render = [&](const char* mode, uint32_t seed) {
        Scene s = loadScene(path);
        s.options.set("vd.mode", mode);
        s.options.render.seed = seed;
        return renderCpu(s, 64, 48, 4, 2);
    };
    const std::vector<float> direct = render("direct", 1), pre = render("pretess", 1), pre2 = render("pretess", 2);
    const test::ImageDiff same = test::compareImages(direct, pre), noise = test::compareImages(pre2, pre);
    std::printf("mean |direct - pretess| %.5f, |pretess seed 2 - seed 1| %.5f (mean %.4f)\n", same.meanAbsDiff,
                noise.meanAbsDiff, noise.mean);
    EXPECT_GT(noise.meanAbsDiff, 0.0);
    EXPECT_LT(same.meanAbsDiff, 0.25 * noise.meanAbsDiff);
}

// Patches of an OBJ that are barely quads: one with an edge collapsed to a
// point (a triangle; its tangent frame is undefined at that edge), one a
// sliver, one plain; a tangent-space map with a large scale. Both modes
// load them, render finite radiance and cover the same pixels.
TEST(VdDirect, DegenerateQuadsRenderSanelyInBothModes) {
    test::TempDir dir;
    std::string map = "PF\n2 2\n-1\n";
    const float texels[12] = {0.2f, -0.1f, 0.5f, -0.3f, 0.2f, 0.8f, 0.1f, 0.1f, -0.4f, 0.0f, 0.3f, 1.2f};
    map.append(reinterpret_cast<const char*>(texels), sizeof texels);
    dir.write("m.pfm", map);
    dir.write("q.obj",
              "v 0 0 0\nv 1 0 0\nv 1 0 0\nv 0 0 1\n"        // 2 = 3: an edge collapsed
              "v 2 0 0\nv 3 0 0\nv 3 0 1e-3\nv 2 0 1e-3\n"  // a sliver
              "v -2 0 0\nv -1 0 0\nv -1 0 1\nv -2 0 1\n"    // a plain quad
              "f 1 2 3 4\nf 5 6 7 8\nf 9 10 11 12\n");
    const std::string path =
        dir.write("s.json", R"({"meshes": [{"name": "q", "obj": "q.obj", "vd": {"map": "m.pfm", "space": "tangent",
                     "scale": 0.5, "max_level": 3}}],
                     "camera": {"position": [0.5, 2.5, 2.5], "target": [0.5, 0, 0.5]},
                     "lights": {"environment": {"color": [1, 1, 1]}}})");
    std::vector<float> img[2];
    const char* modes[2] = {"direct", "pretess"};
    for (int k = 0; k < 2; ++k) {
        Scene s = loadScene(path);
        EXPECT_EQ(s.patchCount(), 3u);
        s.options.set("vd.mode", modes[k]);
        img[k] = renderCpu(s, 64, 48, 1, 0);
        for (float v : img[k]) ASSERT_TRUE(std::isfinite(v)) << modes[k];
    }
    int differ = 0, background = 0;
    for (size_t i = 0; i < img[0].size(); ++i) {
        differ += img[0][i] != img[1][i];
        background += img[1][i] == img[1][0];
    }
    EXPECT_LT(background, int(img[1].size())) << "the patches should cover some pixels";
    EXPECT_LE(differ, 6) << "direct and pre-tessellated coverage differ";
}

TEST(VdDirect, CpuBackendRendersDirectLikePretess) {
    test::TempDir dir;
    const std::string path = dir.write("s.json", kVdTestScene);
    std::vector<float> img[2];
    const char* modes[2] = {"direct", "pretess"};
    // The CSV's vd_pairs column of a record's row (found by the header's name).
    auto vdPairsColumn = [](const FrameRecord& rec, const Options& o) {
        std::vector<std::string> stageNames;
        for (const StageTime& st : rec.stages) stageNames.push_back(st.name);
        std::istringstream h(csvHeader(stageNames)), r(csvRow(rec, o));
        std::string hf, rf;
        while (std::getline(h, hf, ',') && std::getline(r, rf, ','))
            if (hf == "vd_pairs") return rf;
        return std::string("(no vd_pairs column)");
    };
    for (int k = 0; k < 2; ++k) {
        Scene s = loadScene(path);
        s.options.set("vd.mode", modes[k]);
        // Silhouettes (no bounce): the background where a camera ray misses.
        // The frame's record (overlay, CSV) carries its pairs: all of them in direct mode, none in pretess.
        FrameRecord rec;
        uint64_t pairs = 0;
        img[k] = renderCpu(s, 48, 32, 1, 0, &rec, &pairs);
        EXPECT_EQ(rec.vdPairs, pairs) << modes[k];
        EXPECT_EQ(rec.vdPairs > 0, k == 0) << modes[k];
        EXPECT_EQ(vdPairsColumn(rec, s.options), std::to_string(rec.vdPairs));
    }
    ASSERT_EQ(img[0].size(), img[1].size());
    int differ = 0;
    for (size_t i = 0; i < img[0].size(); ++i) differ += img[0][i] != img[1][i];
    EXPECT_LE(differ, 3) << "coverage of direct and pre-tessellated patches differs";
}

}  // namespace
}  // namespace strata

namespace strata {

// A VD hit's payload holds the patch (17 bits: paper-scale scenes of 10^5
// patches) and the hit cell at the patch's level (14 bits at level 7); a
// triangle id is never mistaken for one.
TEST(VdPayload, PatchAndCellRoundTripAtTheLimits) {
    const uint32_t cells = 1u << (2 * kVdMaxLevel);
    for (uint32_t patch : {0u, 1u, 65536u, kVdMaxPatches - 1u})
        for (uint32_t cell : {0u, 1u, cells / 2, cells - 1u}) {
            const uint32_t p = vdPayload(patch, cell);
            EXPECT_TRUE(isVdPayload(p));
            EXPECT_EQ(vdPayloadPatch(p), patch) << patch << " " << cell;
            EXPECT_EQ(vdPayloadCell(p), cell) << patch << " " << cell;
        }
    EXPECT_GE(kVdMaxPatches, 100000u) << "Harada's party scale";
    EXPECT_FALSE(isVdPayload(0x7fffffffu));
}

}  // namespace strata
