// The bottom level (accel/vd/vd_bvh.h) on the CPU: link table, quantization,
// the built tree's invariants, and closest / any hits of the stackless
// traversal against brute force over the same level's pre-tessellated
// triangles.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "accel/vd/vd_bvh.h"
#include "render/vd_view.h"
#include "loader_test_util.h"
#include "scene/scene_loader.h"
#include "scene/vd_scene.h"

namespace strata {
namespace {

std::vector<uint32_t> linkTable() {
    std::vector<uint32_t> links(vdNodeCount(kVdMaxLevel));
    for (uint32_t i = 0; i < links.size(); ++i) links[i] = vdMakeLink(i);
    return links;
}

TEST(VdBvh, LayoutAndLinksWalkEveryNodeOnceInDepthFirstOrder) {
    EXPECT_EQ(vdLevelOffset(0), 0u);
    EXPECT_EQ(vdLevelOffset(1), 1u);
    EXPECT_EQ(vdLevelOffset(2), 5u);
    EXPECT_EQ(vdNodeCount(5), 1365u);
    EXPECT_EQ(vdNodeCount(kVdMaxLevel), 21845u);
    const std::vector<uint32_t> links = linkTable();
    for (int level = 0; level <= kVdMaxLevel; ++level) {
        // Descend everywhere: the walk must visit each node of the tree once,
        // parents before children, and stop at the sentinel.
        std::vector<int> seen(vdNodeCount(level), 0);
        const uint32_t leafStart = vdLevelOffset(level);
        uint32_t node = 0, steps = 0;
        while (node != kVdNoNode && steps <= seen.size()) {
            ASSERT_LT(node, seen.size()) << "level " << level;
            ++seen[node];
            ++steps;
            node = node >= leafStart ? vdLinkSkip(links[node]) : vdLinkChild(links[node]);
        }
        EXPECT_EQ(node, kVdNoNode) << "level " << level;
        for (size_t i = 0; i < seen.size(); ++i) ASSERT_EQ(seen[i], 1) << "node " << i << " at level " << level;
    }
    // Children of node k of a level are the 2x2 block of its cell.
    for (uint32_t k = 0; k < 64; ++k) {
        uint32_t x, y;
        vdUnmorton(k, x, y);
        for (uint32_t c = 0; c < 4; ++c) {
            uint32_t cx, cy;
            vdUnmorton(4 * k + c, cx, cy);
            EXPECT_EQ(cx / 2, x);
            EXPECT_EQ(cy / 2, y);
        }
        EXPECT_EQ(vdMorton(x, y), k);
    }
}

TEST(VdBvh, QuantizationRoundsOutwardAndEncodingsRoundTrip) {
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(-3.0f, 7.0f);
    const VdFrame f = vdFrame(Aabb{{-3, -3, -3}, {7, 7, 7}});
    for (int i = 0; i < 100000; ++i) {
        float v = u(rng);
        EXPECT_LE(vdDequant(vdQuantLo(v, f.lo.x, f.step.x), f.lo.x, f.step.x), v);
        EXPECT_GE(vdDequant(vdQuantHi(v, f.lo.x, f.step.x), f.lo.x, f.step.x), v);
        EXPECT_LE(vdDequant(vdQuantHi(v, f.lo.x, f.step.x), f.lo.x, f.step.x) - v, 2 * f.step.x);
    }
    std::uniform_real_distribution<float> s(-1.0f, 1.0f);
    for (int i = 0; i < 10000; ++i) {
        Vec3 n = normalize(Vec3{s(rng), s(rng), s(rng)});
        EXPECT_GT(dot(vdDecodeNormal(vdEncodeNormal(n)), n), 0.9999f);
        Vec2 st{0.5f * s(rng) + 0.5f, 0.5f * s(rng) + 0.5f};
        Vec2 d = vdDecodeSt(vdEncodeSt(st.x, st.y));
        EXPECT_NEAR(d.x, st.x, 1e-5f);
        EXPECT_NEAR(d.y, st.y, 1e-5f);
    }
}

struct PatchFixture {
    Scene scene;
    std::vector<VdPatch> patches;
    TextureView map;
};

PatchFixture loadAsset(const char* generator) {
    test::TempDir dir;
    PatchFixture f;
    const std::string params = std::string(generator) == "vd-bark" ? R"({"resolution": 128, "around": 3, "up": 2})"
                                                                   : R"({"resolution": 128, "patches": 2})";
    f.scene = loadScene(dir.write("s.json", std::string(R"({"meshes": [{"name": "a", "generator": ")") + generator +
                                                R"(", "params": )" + params + "}]}"));
    f.patches = meshPatches(f.scene, f.scene.meshes[0]);
    const VdMap& m = f.scene.vdMaps[0];
    f.map = TextureView{m.texels.data(), m.width, m.height};
    return f;
}

TEST(VdBvh, BuiltTreeBoxesContainTheSurfaceAndTheirChildren) {
    PatchFixture f = loadAsset("vd-mushroom");
    for (int level : {1, 3, 5}) {
        for (const VdPatch& p : f.patches) {
            std::vector<VdNode> nodes(vdNodeCount(level));
            vdBuildTree(p, f.map, level, nodes.data());
            const VdFrame fr = vdFrame(p.box);
            const uint32_t leafStart = vdLevelOffset(level);
            for (uint32_t i = 0; i < leafStart; ++i) {
                Aabb b = vdNodeBox(nodes[i], fr);
                uint32_t c = vdLinkChild(vdMakeLink(i));
                for (uint32_t k = 0; k < 4; ++k) ASSERT_TRUE(b.contains(vdNodeBox(nodes[c + k], fr)));
            }
            for (uint32_t k = 0; k < (1u << (2 * level)); ++k) {
                uint32_t x, y;
                vdUnmorton(k, x, y);
                Vec3 c[4];
                vdCellCorners(p, f.map, level, x, y, c);
                Aabb b = vdNodeBox(nodes[leafStart + k], fr);
                for (const Vec3& q : c)
                    ASSERT_TRUE(q.x >= b.lo.x && q.y >= b.lo.y && q.z >= b.lo.z && q.x <= b.hi.x && q.y <= b.hi.y &&
                                q.z <= b.hi.z);
                ASSERT_TRUE(p.box.contains(b)) << "a leaf outside the patch's loose box";
            }
        }
    }
}

// Quantization never loses a hit the exact boxes give: rays aimed at a corner
// or a face of a leaf's exact box (the box of its four displaced vertices),
// so they graze it, pass the traversal's box test (vdNodeHit, quantized and
// folded into one FMA per bound) at the leaf and at every ancestor.
TEST(VdBvh, RaysGrazingLeafBoxesPassEveryQuantizedBoxOnTheirPath) {
    for (const char* g : {"vd-mushroom", "vd-hook"}) {
        PatchFixture f = loadAsset(g);
        std::mt19937 rng(5);
        std::uniform_real_distribution<float> u(0.0f, 1.0f);
        const int level = 5;
        int grazing = 0;
        for (const VdPatch& p : f.patches) {
            std::vector<VdNode> nodes(vdNodeCount(level));
            vdBuildTree(p, f.map, level, nodes.data());
            const VdFrame fr = vdFrame(p.box);
            const uint32_t leafStart = vdLevelOffset(level);
            const Vec3 e = p.box.extent();
            for (int r = 0; r < 400; ++r) {
                const uint32_t k = uint32_t(u(rng) * float(1u << (2 * level))) % (1u << (2 * level));
                uint32_t x, y;
                vdUnmorton(k, x, y);
                Vec3 c[4];
                vdCellCorners(p, f.map, level, x, y, c);
                Aabb exact;
                for (const Vec3& q : c) exact.grow(q);
                // A corner of the exact box, or a point on one of its faces.
                Vec3 target{r & 1 ? exact.hi.x : exact.lo.x, r & 2 ? exact.hi.y : exact.lo.y,
                            r & 4 ? exact.hi.z : exact.lo.z};
                if (r % 3 == 0) {
                    const int a = r % 9 / 3;
                    target = exact.lo + exact.extent() * Vec3{u(rng), u(rng), u(rng)};
                    target[a] = r & 8 ? exact.hi[a] : exact.lo[a];
                }
                Ray ray;
                ray.org =
                    p.box.center() + normalize(Vec3{u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f}) * (3.0f * length(e));
                ray.dir = normalize(target - ray.org);
                ray.tmin = 0;
                const Vec3 invDir = safeInverse(ray.dir);
                if (!(slabEntry(exact.lo, exact.hi, ray.org, invDir, ray.tmin, ray.tmax) <= ray.tmax)) continue;
                ++grazing;
                const VdRayFrame rf = vdRayFrame(fr, ray, invDir);
                for (uint32_t node = leafStart + k, l = uint32_t(level);; --l) {
                    ASSERT_TRUE(vdNodeHit(nodes[node], rf, ray.tmin, ray.tmax))
                        << g << ": ray " << r << " skips node " << node << " above its leaf " << leafStart + k;
                    if (l == 0) break;
                    node = vdLevelOffset(int(l) - 1) + (node - vdLevelOffset(int(l))) / 4;
                }
            }
        }
        EXPECT_GT(grazing, 200) << g << ": too few rays met their exact box to test anything";
    }
}

// Brute force over the level's triangles (the pre-tessellation of the patch).
float bruteForce(const VdPatch& p, const TextureView& map, int level, const Ray& ray) {
    float tmax = ray.tmax;
    const uint32_t n = 1u << level;
    for (uint32_t y = 0; y < n; ++y)
        for (uint32_t x = 0; x < n; ++x) {
            Vec3 c[4];
            vdCellCorners(p, map, level, x, y, c);
            vdIntersectCell(c, ray, tmax);
        }
    return tmax;
}

TEST(VdBvh, ClosestAndAnyHitEqualBruteForceOverThePretessellatedCells) {
    const std::vector<uint32_t> links = linkTable();
    for (const char* g : {"vd-mushroom", "vd-hook", "vd-spike", "vd-bark"}) {
        PatchFixture f = loadAsset(g);
        std::mt19937 rng(11);
        std::uniform_real_distribution<float> u(0.0f, 1.0f);
        for (int level : {2, 4, 5}) {
            int hits = 0, rays = 0;
            uint32_t leaves = 0;
            for (const VdPatch& p : f.patches) {
                std::vector<VdNode> nodes(vdNodeCount(level));
                vdBuildTree(p, f.map, level, nodes.data());
                Vec3 e = p.box.extent();
                for (int r = 0; r < 300; ++r) {
                    // From outside the box towards a random point of the surface; a
                    // third from inside the box in random directions.
                    Vec3 target = vdPosition(p, f.map, u(rng), u(rng));
                    Vec3 from = r % 3 == 0
                                    ? p.box.lo + e * Vec3{u(rng), u(rng), u(rng)}
                                    : p.box.center() + normalize(Vec3{u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f}) *
                                                           (2.0f * length(e));
                    Ray ray;
                    ray.org = from;
                    ray.dir = normalize(target - from);
                    if (r % 3 == 0) ray.dir = normalize(Vec3{u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f});
                    ray.tmin = 0;
                    float ref = bruteForce(p, f.map, level, ray);
                    float t = ray.tmax;
                    uint32_t node = vdTraverse<false>(nodes.data(), links.data(), level, p, f.map, ray, t, &leaves);
                    ASSERT_EQ(node != kVdNoNode, ref < ray.tmax) << g << " level " << level << " ray " << r;
                    ASSERT_EQ(t, ref) << g << " level " << level << " ray " << r;
                    float ta = ray.tmax;
                    EXPECT_EQ(vdTraverse<true>(nodes.data(), links.data(), level, p, f.map, ray, ta) != kVdNoNode,
                              ref < ray.tmax);
                    hits += ref < ray.tmax;
                    ++rays;
                }
            }
            EXPECT_GT(hits, rays / 3) << g << ": too few hits to test anything";
            // The hierarchy prunes: far fewer leaves tested than cells per ray.
            EXPECT_LT(double(leaves) / rays, 0.5 * double(1u << (2 * level)) + 4) << g << " level " << level;
        }
    }
}

// Pair culling's boxes (vdCullBoxes at level L) hold every cell of the
// levels the trees may have (vdClampLevel: 2..L, or 1 when L is 1) in the box
// of its sixteenth (inside its quadrant's), so no ray that hits the patch at such a level misses them
// all; and they cull: many rays entering the loose box miss every one.
TEST(VdBvh, CullBoxesHoldEveryCellOfTheirLevelsAndCullRaysThatMissTheSurface) {
    auto meets = [](const Aabb& b, const Ray& r) {
        const Vec3 inv = safeInverse(r.dir);
        return slabEntry(b.lo, b.hi, r.org, inv, r.tmin, r.tmax) < r.tmax;
    };
    for (const char* g : {"vd-mushroom", "vd-hook", "vd-spike", "vd-bark"}) {
        PatchFixture f = loadAsset(g);
        std::mt19937 rng(5);
        std::uniform_real_distribution<float> u(0.0f, 1.0f);
        int entered = 0, culled = 0, hits = 0;
        for (int L : {1, 2, 4}) {
            for (const VdPatch& p : f.patches) {
                Aabb quadrant[4], b[kVdCullBoxes];
                vdCullBoxes(p, f.map, L, quadrant, b);
                for (int q = 0; q < 4; ++q) {
                    ASSERT_TRUE(p.box.contains(quadrant[q])) << g;  // never looser than the patch box
                    for (int k = 0; k < 4; ++k) ASSERT_TRUE(quadrant[q].contains(b[4 * q + k])) << g;
                }
                for (int l = vdClampLevel(1, L); l <= L; ++l) {
                    const uint32_t n = 1u << l;
                    for (uint32_t y = 0; y < n; ++y)
                        for (uint32_t x = 0; x < n; ++x) {
                            Vec3 c[4];
                            vdCellCorners(p, f.map, l, x, y, c);
                            const uint32_t X = 4 * x / n, Y = 4 * y / n;  // the sixteenth
                            const Aabb& box = b[4 * (2 * (Y / 2) + X / 2) + 2 * (Y % 2) + X % 2];
                            for (const Vec3& v : c)
                                ASSERT_TRUE(box.contains(Aabb{v, v})) << g << " L " << L << " level " << l;
                        }
                }
                const Vec3 e = p.box.extent();
                for (int r = 0; r < 200; ++r) {
                    // Rays through random points of the loose box in random directions.
                    Ray ray;
                    const Vec3 through = p.box.lo + e * Vec3{u(rng), u(rng), u(rng)};
                    ray.dir = normalize(Vec3{u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f});
                    ray.org = through - ray.dir * (2.0f * length(e));
                    ray.tmin = 0;
                    ray.tmax = 1e30f;
                    bool kept = false;  // as step 1 tests them: a quadrant, then its sixteenths
                    for (int q = 0; q < 4; ++q)
                        kept = kept || (meets(quadrant[q], ray) && vdSixteenthsHit(b + 4 * q, ray, ray.tmax));
                    for (int l = vdClampLevel(1, L); l <= L; ++l) {
                        const bool hit = bruteForce(p, f.map, l, ray) < ray.tmax;
                        ASSERT_TRUE(kept || !hit) << g << " L " << L << ": a ray hitting level " << l << " was culled";
                        hits += hit;
                    }
                    ++entered;
                    culled += !kept;
                }
            }
        }
        EXPECT_GT(hits, 0) << g;
        EXPECT_GT(culled, entered / 10) << g << ": the cull boxes should drop rays that only cross the loose box";
        std::printf("%s: %d of %d rays through the loose box culled\n", g, culled, entered);
    }
}

// The two builds (vdBuildTree): strata's from the displaced grid and
// Harada's from the map per leaf give the same boxes bit for bit; Harada's
// nodes carry the cell's normal (its diagonals' cross product) and centre at
// the leaves and their children's means above, strata's none.
TEST(VdBvh, HaradasAndStratasBuildsGiveTheSameBoxesOnlyHaradasCarryNormalsAndUvs) {
    PatchFixture f = loadAsset("vd-hook");
    for (int level : {1, 3, 5}) {
        for (const VdPatch& p : f.patches) {
            std::vector<VdNode> harada(vdNodeCount(level)), strata(vdNodeCount(level));
            std::vector<Vec3> grid(vdGridCount(level));
            vdBuildTree(p, f.map, level, harada.data());
            vdBuildTree(p, f.map, level, strata.data(), grid.data());
            const uint32_t leafStart = vdLevelOffset(level);
            for (uint32_t i = 0; i < harada.size(); ++i) {
                for (int a = 0; a < 3; ++a) {
                    ASSERT_EQ(harada[i].lo[a], strata[i].lo[a]) << "node " << i << " level " << level;
                    ASSERT_EQ(harada[i].hi[a], strata[i].hi[a]) << "node " << i << " level " << level;
                }
                ASSERT_EQ(strata[i].normal, 0u);
                ASSERT_EQ(strata[i].st, 0u);
                if (i < leafStart) {  // the mean of the children's
                    const uint32_t c = vdLinkChild(vdMakeLink(i));
                    Vec3 n{0, 0, 0};
                    for (uint32_t k = 0; k < 4; ++k) n = n + vdDecodeNormal(harada[c + k].normal);
                    EXPECT_GT(dot(vdDecodeNormal(harada[i].normal), normalize(n)), 0.9999f);
                    continue;
                }
                uint32_t x, y;
                vdUnmorton(i - leafStart, x, y);
                Vec3 q[4];
                vdCellCorners(p, f.map, level, x, y, q);
                const Vec3 want = normalize(cross(q[2] - q[0], q[3] - q[1]));
                EXPECT_GT(dot(vdDecodeNormal(harada[i].normal), want), 0.9999f);
                const Vec2 st = vdDecodeSt(harada[i].st);
                EXPECT_NEAR(st.x, (x + 0.5f) / float(1u << level), 1e-4f);
                EXPECT_NEAR(st.y, (y + 0.5f) / float(1u << level), 1e-4f);
            }
        }
    }
}

// Harada's leaves (vd.leaf box): the closest hit is where the ray enters the
// first leaf box it meets, the brute-force minimum over every leaf's
// (quantized) box that the ray enters within [tmin, tmax) — never inside one
// it starts in — and any hit agrees; the box holds the cell's triangles, so a
// ray hitting them enters it no later (and a ray missing every box misses
// the surface).
TEST(VdBvh, BoxLeavesMeetTheFirstLeafBoxTheRayEntersAndNeverLaterThanTheSurface) {
    const std::vector<uint32_t> links = linkTable();
    for (const char* g : {"vd-mushroom", "vd-hook", "vd-bark"}) {
        PatchFixture f = loadAsset(g);
        std::mt19937 rng(17);
        std::uniform_real_distribution<float> u(0.0f, 1.0f);
        for (int level : {2, 4, 5}) {
            int hits = 0, rays = 0, inside = 0;
            for (const VdPatch& p : f.patches) {
                std::vector<VdNode> nodes(vdNodeCount(level));
                vdBuildTree(p, f.map, level, nodes.data());
                const VdFrame fr = vdFrame(p.box);
                const uint32_t leafStart = vdLevelOffset(level), leaves = 1u << (2 * level);
                const Vec3 e = p.box.extent();
                for (int r = 0; r < 200; ++r) {
                    Vec3 target = vdPosition(p, f.map, u(rng), u(rng));
                    Vec3 from = r % 3 == 0
                                    ? target + normalize(Vec3{u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f}) *
                                                   (0.02f * length(e))  // near the surface: in leaf boxes
                                    : p.box.center() + normalize(Vec3{u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f}) *
                                                           (2.0f * length(e));
                    Ray ray;
                    ray.org = from;
                    ray.dir = r % 3 == 0 ? normalize(Vec3{u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f})
                                         : normalize(target - from);
                    ray.tmin = 0;
                    // Every leaf box in turn, with the traversal's own box
                    // test (vdLeafBoxEntry: quantized, folded, its far end
                    // widened), so what is compared is the walk: its order,
                    // its pruning, its skip links.
                    const VdRayFrame rf = vdRayFrame(fr, ray, safeInverse(ray.dir));
                    float ref = ray.tmax;
                    bool startsInside = false;
                    for (uint32_t k = 0; k < leaves; ++k) {
                        float tn, tf;
                        vdNodeSlabs(nodes[leafStart + k], rf, tn, tf);
                        if (vdSlabsMeet(tn, tf) && tf >= 0 && tn < 0) startsInside = true;
                        const float t = vdLeafBoxEntry(nodes[leafStart + k], rf, ray.tmin, ref);
                        if (t >= 0.0f) ref = t;
                    }
                    inside += startsInside;
                    float t = ray.tmax;
                    const uint32_t node = vdTraverse<false, true>(nodes.data(), links.data(), level, p, f.map, ray, t);
                    ASSERT_EQ(node != kVdNoNode, ref < ray.tmax) << g << " level " << level << " ray " << r;
                    float ta = ray.tmax;
                    const bool any =
                        vdTraverse<true, true>(nodes.data(), links.data(), level, p, f.map, ray, ta) != kVdNoNode;
                    EXPECT_EQ(any, ref < ray.tmax);
                    if (node == kVdNoNode) continue;
                    ASSERT_EQ(t, ref) << g << " level " << level << " ray " << r;
                    // The hit leaf's box is entered at t.
                    const Aabb b = vdNodeBox(nodes[node], fr);
                    const Vec3 at = ray.org + ray.dir * t, slack = e * 1e-4f;
                    const Aabb grown{b.lo - slack, b.hi + slack};
                    EXPECT_TRUE(grown.contains(Aabb{at, at})) << g << " ray " << r;
                    // From outside every leaf box: no later than the cell triangles.
                    const float tri = bruteForce(p, f.map, level, ray);
                    if (!startsInside && tri < ray.tmax) EXPECT_LE(t, tri * (1 + 1e-5f) + 1e-6f) << g << " ray " << r;
                    ++hits;
                    ++rays;
                }
            }
            EXPECT_GT(hits, 100) << g << " level " << level << ": too few hits to test anything";
            EXPECT_GT(inside, 20) << g << " level " << level << ": too few rays start in a leaf box";
        }
    }
}

// vd.lod camera (Harada's): a ray's level is the pixel footprint's at the
// patch's distance from the camera, whoever casts it; first-rays (strata's)
// takes the ray's own distance, so a ray starting next to the patch asks for
// its finest level.
TEST(VdBvh, CameraLodGivesEveryRayTheLevelTheCameraSeesThePatchAt) {
    PatchFixture f = loadAsset("vd-mushroom");
    const VdPatch& p = f.patches[0];
    VdView v;
    v.pixelAngle = 1e-3f;
    v.maxLevel = 7;
    v.camera = p.box.center() + Vec3{0, 0, 40.0f * length(p.box.extent())};
    Ray fromCamera;
    fromCamera.org = v.camera;
    fromCamera.dir = normalize(p.box.center() - v.camera);
    Ray nearby;  // a shadow ray leaving the patch
    nearby.org = p.box.center();
    nearby.dir = Vec3{0, 1, 0};
    const Affine id{};
    VdPatch capped = p;
    capped.maxLevel = 7;
    const int atCamera = vdRayLevel(v, capped, id, fromCamera);
    EXPECT_GT(atCamera, 2);
    EXPECT_LT(atCamera, 7);
    EXPECT_EQ(vdRayLevel(v, capped, id, nearby), 7) << "first-rays: the ray's own distance";
    v.cameraLod = true;
    EXPECT_EQ(vdRayLevel(v, capped, id, fromCamera), atCamera);
    EXPECT_EQ(vdRayLevel(v, capped, id, nearby), atCamera);
    v.camera = p.box.center() + Vec3{0, 0, 160.0f * length(p.box.extent())};  // 4x as far: 2 levels coarser
    EXPECT_EQ(vdRayLevel(v, capped, id, nearby), atCamera - 2);
}

TEST(VdBvh, LevelsStayAtTwoOrMoreWhereTheCapsAllow) {
    EXPECT_EQ(vdClampLevel(1, 5), 2);
    EXPECT_EQ(vdClampLevel(0, 5), 2);
    EXPECT_EQ(vdClampLevel(4, 5), 4);
    EXPECT_EQ(vdClampLevel(7, 5), 5);
    EXPECT_EQ(vdClampLevel(1, 1), 1);
    EXPECT_EQ(vdClampLevel(3, 1), 1);
    EXPECT_EQ(vdClampLevel(1, 2), 2);
}

}  // namespace
}  // namespace strata
