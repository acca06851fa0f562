// GPU tests of the LBVH variants (each skips without a CUDA device): every
// GPU build equals the CPU run of the same host-device code bit for bit
// (Apetrei's too: node indices are splits, boxes merge left then right, so
// the order in which threads arrive changes nothing; H-PLOC's: a node is
// numbered by the first leaf its merge retires), one builder switches
// variants and sizes between builds, and every traversal finds the
// brute-force closest hits, also on a tree deeper than the fast stack.
#include <gtest/gtest.h>

#include <cmath>
#include <iterator>

#include "lbvh_cases.h"
#include "accel/bvh_validate.h"
#include "check/hit_compare.h"
#include "accel/host_accel.h"
#include "accel/lbvh/lbvh_compare.h"
#include "accel/lbvh/lbvh_gpu.h"
#include "accel/lbvh/lbvh_host.h"
#include "accel/lbvh/lbvh_memory.h"
#include "gpu/launch_context.h"
#include "check/gpu_probe.h"
#include "render/cuda_renderer.h"
#include "render/renderer.h"
#include "require_gpu.h"
#include "scene/obj_loader.h"
#include "loader_test_util.h"

using namespace strata;

namespace {

const auto& kVariants = kLbvhVariants;

// What differs between a GPU build and the CPU run over the same boxes.
std::string differences(const LbvhCopy& g, const LbvhHostResult& cpu) {
    std::string d;
    size_t nodes = countDifferentNodes(cpu.bvh.nodes, g.nodes);
    size_t skip = countDifferentNodes(cpu.skipNodes, g.skipNodes);
    if (nodes) d += std::to_string(nodes) + " nodes differ; ";
    if (skip) d += std::to_string(skip) + " skip nodes differ; ";
    if (cpu.bvh.primIndex != g.primIndex) d += "primitive order differs; ";
    if (cpu.bvh.root != g.root) d += "root " + std::to_string(g.root) + " != " + std::to_string(cpu.bvh.root);
    return d;
}

LbvhCopy buildOnce(LbvhBuilder& b, const DeviceBuffer<Aabb>& bounds, uint32_t n, int bits, LbvhVariant v,
                   cudaStream_t stream, bool blockHandOver = false, MortonSort sort = MortonSort::Radix) {
    b.build(LbvhConfig{v, bits, blockHandOver, sort}, bounds.data(), n, LaunchContext{stream});
    STRATA_CUDA_CHECK(cudaStreamSynchronize(stream));
    return b.download();
}

// True when the ray passes within a hair of the triangle's edges, where the
// GPU (FMA-contracted) and CPU (not contracted) intersection tests may
// legitimately disagree on hit or miss.
bool grazesEdge(const GeometryView& g, const Ray& ray, uint32_t prim) {
    Tri t = g.tris[prim];
    Vec2 b = triangleBarycentrics(ray, g.pos[t.v[0]], g.pos[t.v[1]], g.pos[t.v[2]]);
    float m = std::fmin(std::fmin(b.x, b.y), 1.0f - b.x - b.y);
    return std::fabs(m) < 1e-4f;
}

// check/hit_compare.h's rule: the same triangle (its distance may differ by
// more than a few ulps for rays at a grazing angle to it, where nvcc's FMA
// contraction and g++'s separate multiply-add round apart), or the same
// distance to a few ulps.
::testing::AssertionResult closeHit(HitRecord got, HitRecord ref) {
    if (sameHit(got, ref)) return ::testing::AssertionSuccess();
    if (isHit(got) != isHit(ref)) return ::testing::AssertionFailure() << "hit/miss differs";
    return ::testing::AssertionFailure() << hitDistance(got) << " vs " << hitDistance(ref);
}

// closeHit, excusing a disagreement where either side's triangle is grazed.
bool sameOrGrazing(const GeometryView& g, const Ray& ray, HitRecord got, HitRecord ref) {
    if (closeHit(got, ref)) return true;
    return (isHit(got) && grazesEdge(g, ray, hitPayload(got))) || (isHit(ref) && grazesEdge(g, ray, hitPayload(ref)));
}

// GPU hits against brute force: every ray agrees, or disagrees only where it
// grazes a triangle's edge, and grazes stay rare. Reports the first few misses.
void expectHitsMatch(const GeometryView& geo, const std::vector<Ray>& rays, const std::vector<HitRecord>& got,
                     const std::vector<HitRecord>& ref, const std::string& label) {
    auto describe = [](HitRecord h) {
        return isHit(h) ? std::to_string(hitPayload(h)) + " @" + std::to_string(hitDistance(h)) : std::string("miss");
    };
    size_t bad = 0, grazing = 0;
    for (size_t i = 0; i < rays.size(); ++i) {
        bool same = closeHit(got[i], ref[i]);
        bool ok = same || sameOrGrazing(geo, rays[i], got[i], ref[i]);
        if (!ok && bad < 3)
            ADD_FAILURE() << label << " ray " << i << ": gpu " << describe(got[i]) << ", cpu " << describe(ref[i]);
        bad += !ok;
        grazing += ok && !same;
    }
    EXPECT_EQ(bad, 0u) << label;
    EXPECT_LE(grazing, rays.size() / 1000) << label << ": edge grazes";
}

// Test meshes by name: random triangles of each size, duplicate-heavy keys
// (the δ* ties) and few distinct points.
struct SizedCase {
    std::string name;
    Mesh mesh;
};
std::vector<SizedCase> randomAndDuplicateCases(std::initializer_list<uint32_t> sizes) {
    std::vector<SizedCase> cases;
    for (uint32_t n : sizes) cases.push_back({"random " + std::to_string(n), test::makeRandomTriangles(n, 0.01f, n)});
    cases.push_back({"duplicate-heavy", test::makeDuplicateHeavy(200000, 13, 3)});
    cases.push_back({"few points", test::makeDuplicateHeavy(5000, 2, 4)});
    return cases;
}

// Each case's boxes built by build(builder, boxes, n, bits, variant, stream,
// on) with both key widths, each variant and on = true then false, one
// builder throughout (the two ways alternate in it), equals the CPU run node
// for node (`ways` names the two ways in a failure).
template <class Build>
void expectEachBuildIsTheCpuRun(const std::vector<SizedCase>& cases, const std::vector<LbvhVariant>& variants,
                                std::pair<const char*, const char*> ways, Build build) {
    cudaStream_t stream;
    STRATA_CUDA_CHECK(cudaStreamCreate(&stream));
    LbvhBuilder b;
    for (const SizedCase& c : cases) {
        const std::vector<Aabb> bounds = test::boundsOf(c.mesh);
        const uint32_t n = uint32_t(bounds.size());
        DeviceBuffer<Aabb> d;
        d.upload(bounds, stream);
        for (int bits : {30, 63})
            for (LbvhVariant v : variants) {
                const LbvhHostResult cpu = buildLbvhHost(bounds, bits, v);
                for (bool on : {true, false})
                    EXPECT_EQ(differences(build(b, d, n, bits, v, stream, on), cpu), "")
                        << c.name << ", " << lbvhVariantName(v) << ", " << bits << " bits, "
                        << (on ? ways.first : ways.second);
            }
    }
    STRATA_CUDA_CHECK(cudaStreamDestroy(stream));
}

}  // namespace

// Through the renderer's build (GPU-posed triangles, the scene's options).
TEST(GpuLbvhVariants, EveryVariantEqualsItsCpuRunBitForBit) {
    REQUIRE_GPU();
    for (int bits : {30, 63})
        for (LbvhVariant v : kVariants)
            for (const test::LbvhCase& c : test::lbvhCases()) {
                Scene s = test::sceneWith(c.mesh);
                s.options.accel.mortonBits = bits;
                s.options.set("accel.builder", lbvhVariantName(v));
                GpuBuildResult g = buildOnGpuForValidation(s, 0.0f);
                std::vector<Aabb> bounds;
                triangleBounds(g.positions, s.meshes[0].triangles, bounds);
                LbvhHostResult cpu = buildLbvhHost(bounds, bits, v);
                LbvhCopy copy{g.nodes, g.primIndex, g.root, g.skipNodes};
                EXPECT_EQ(differences(copy, cpu), "") << c.name << ", " << lbvhVariantName(v) << ", " << bits;
                HostBvh h{g.nodes, g.primIndex, g.root};
                BvhReport rep = validateBvh(h.view(), bounds);
                EXPECT_TRUE(rep.ok) << c.name << ", " << lbvhVariantName(v) << ": "
                                    << (rep.errors.empty() ? "" : rep.errors[0]);
            }
}

// One LbvhBuilder, as the renderer keeps it, switching variant and size
// between builds (the store array stays ◇ across builds and reallocations).
TEST(GpuLbvhVariants, OneBuilderSwitchesVariantsAndSizesBetweenBuilds) {
    REQUIRE_GPU();
    cudaStream_t stream;
    STRATA_CUDA_CHECK(cudaStreamCreate(&stream));
    LbvhBuilder b;
    const uint32_t sizes[] = {1000, 100, 3, 200000, 1, 50000, 2, 200000};
    int step = 0;
    const int variants = int(std::size(kVariants));
    for (uint32_t n : sizes)
        for (int k = 0; k < variants; ++k) {
            LbvhVariant v = kVariants[(step++) % variants];
            Mesh m = n % 2 ? test::makeRandomTriangles(n, 0.01f, n) : test::makeDuplicateHeavy(n, 13, n);
            std::vector<Aabb> bounds = test::boundsOf(m);
            DeviceBuffer<Aabb> d;
            d.upload(bounds, stream);
            LbvhCopy g = buildOnce(b, d, n, 63, v, stream);
            EXPECT_EQ(differences(g, buildLbvhHost(bounds, 63, v)), "") << n << " " << lbvhVariantName(v);
        }
    STRATA_CUDA_CHECK(cudaStreamDestroy(stream));
}

// The three LBVHs' bottom-up votes in shared memory where a parent's range
// lies within a block (accel.lbvh_block_hand_over, lbvh_block.cuh) and in
// global memory at every parent (as published) give the CPU run's tree, node
// for node: sizes within one block and around multiples of the block of 128
// leaves, duplicate keys (the δ* ties), a tree deeper than a block, both key
// widths.
TEST(GpuLbvhVariants, BlockAndGlobalHandOverEqualTheCpuRun) {
    REQUIRE_GPU();
    std::vector<SizedCase> cases =
        randomAndDuplicateCases({1u, 2u, 3u, 64u, 127u, 128u, 129u, 255u, 256u, 257u, 1023u, 1024u, 1025u, 100000u});
    cases.push_back({"deep coincident", test::makeDeepCoincident(1u << 12)});
    expectEachBuildIsTheCpuRun(
        cases, {LbvhVariant::Karras, LbvhVariant::Apetrei, LbvhVariant::ApetreiSkip},
        {"block hand-over", "global hand-over"},
        [](LbvhBuilder& b, const DeviceBuffer<Aabb>& d, uint32_t n, int bits, LbvhVariant v, cudaStream_t stream,
           bool block) { return buildOnce(b, d, n, bits, v, stream, block); });
}

namespace {

// Each case built by every Morton-order builder with `sort` and with the
// radix sort, alternating in one builder (its buffers follow the switch),
// equals the CPU run node for node.
void expectSortGivesTheRadixSortsTree(const std::vector<SizedCase>& cases, MortonSort sort) {
    expectEachBuildIsTheCpuRun(
        cases, std::vector<LbvhVariant>(std::begin(kLbvhVariants), std::end(kLbvhVariants)), {name(sort), "radix"},
        [sort](LbvhBuilder& b, const DeviceBuffer<Aabb>& d, uint32_t n, int bits, LbvhVariant v, cudaStream_t stream,
               bool on) { return buildOnce(b, d, n, bits, v, stream, false, on ? sort : MortonSort::Radix); });
}

}  // namespace

// accel.morton_sort = merge: CUB's stable merge sort gives the radix sort's
// order, so every Morton-order builder's tree is the CPU run's, node for
// node: sizes around the merge sort's tiles, duplicate keys (equal codes in
// primitive order), both key widths.
TEST(GpuLbvhVariants, MergeSortGivesTheRadixSortsTree) {
    REQUIRE_GPU();
    expectSortGivesTheRadixSortsTree(randomAndDuplicateCases({2u, 3u, 255u, 4096u, 66454u, 300001u}),
                                     MortonSort::Merge);
}

// accel.morton_sort = split: the tops by radix, then the runs, give the radix
// sort's order: random sets (almost every run of 1, a hundred of 2 at 1M),
// runs of lengths at each tier's bounds with distinct low bits, duplicate-
// heavy ones (runs of up to 14,000 equal codes: the merge passes), a cluster
// beside one far triangle (one run of 300,000; and runs of up to about a
// hundred), and the real Conference room where present (runs up to 6,749).
TEST(GpuLbvhVariants, SplitSortGivesTheRadixSortsTree) {
    REQUIRE_GPU();
    std::vector<SizedCase> cases = randomAndDuplicateCases({2u, 3u, 255u, 66454u, 1000000u});
    cases.push_back({"runs at the tiers' bounds",
                     test::makeRunsOfLengths({2, 8, 9, 129, 256, 257, 4000, 8192, 8193, 16385, 3}, 9)});
    cases.push_back({"tight cluster beside a far triangle", test::makeClusterBesideFarTriangle(300000, 2.0f, 5)});
    cases.push_back({"loose cluster beside a far triangle", test::makeClusterBesideFarTriangle(300000, 100.0f, 6)});
    cases.push_back({"deep coincident", test::makeDeepCoincident(1u << 15)});
    const std::string conference = test::testdataFile("conference.obj");
    if (!conference.empty())
        cases.push_back({"Conference", loadObj(conference).mesh});
    else
        std::printf("conference.obj not found (set STRATA_TESTDATA_DIR): that case is left out\n");
    expectSortGivesTheRadixSortsTree(cases, MortonSort::Split);
}

// Apetrei's claim checked where races are real: a million duplicate-heavy
// boxes, built repeatedly, every other build with the block hand-over; every
// build equals the sequential CPU run.
TEST(GpuLbvhVariants, ApetreiIsDeterministicUnderRaces) {
    REQUIRE_GPU();
    cudaStream_t stream;
    STRATA_CUDA_CHECK(cudaStreamCreate(&stream));
    const uint32_t n = 1000000;
    std::vector<Aabb> bounds = test::boundsOf(test::makeDuplicateHeavy(n, 1000, 7));
    DeviceBuffer<Aabb> d;
    d.upload(bounds, stream);
    LbvhBuilder b;
    for (LbvhVariant v : {LbvhVariant::Karras, LbvhVariant::Apetrei, LbvhVariant::ApetreiSkip, LbvhVariant::Hploc}) {
        LbvhHostResult cpu = buildLbvhHost(bounds, 63, v);
        for (int r = 0; r < 4; ++r)
            EXPECT_EQ(differences(buildOnce(b, d, n, 63, v, stream, r % 2 == 1), cpu), "")
                << lbvhVariantName(v) << " build " << r << (r % 2 ? ", block hand-over" : "");
    }
    STRATA_CUDA_CHECK(cudaStreamDestroy(stream));
}

// Every builder x traversal on the GPU: closest hits equal brute force, and
// stack and stackless agree with each other.
TEST(GpuLbvhVariants, StackAndStacklessHitsEqualBruteForce) {
    REQUIRE_GPU();
    Mesh m = test::makeRandomTriangles(30000, 0.03f, 17);
    Scene s = test::sceneWith(m);
    std::vector<Ray> rays = test::raysAtTriangles(m, 20000, 5);
    GeometryView geo = test::geometryOf(m);
    std::vector<HitRecord> ref(rays.size());
    size_t hits = 0;
    for (size_t i = 0; i < rays.size(); ++i) hits += isHit(ref[i] = traceBruteForce(geo, rays[i]));
    EXPECT_GT(hits, rays.size() / 3);
    const std::pair<const char*, const char*> combos[] = {{"lbvh-karras", "stack"},
                                                          {"lbvh-apetrei", "stack"},
                                                          {"lbvh-skip", "stack"},
                                                          {"lbvh-skip", "stackless"},
                                                          {"hploc", "stack"}};
    std::vector<HitRecord> skipStack;
    for (auto [builder, traversal] : combos) {
        s.options.set("accel.builder", builder);
        s.options.set("accel.traversal", traversal);
        std::vector<HitRecord> got = traceOnGpuForValidation(s, 0.0f, rays);
        expectHitsMatch(geo, rays, got, ref, std::string(builder) + " " + traversal);
        if (std::string(builder) == "lbvh-skip" && std::string(traversal) == "stack") skipStack = got;
        if (std::string(traversal) == "stackless") {
            size_t differ = 0;
            for (size_t i = 0; i < rays.size(); ++i) differ += !closeHit(got[i], skipStack[i]);
            EXPECT_EQ(differ, 0u) << "stackless vs stack";
        }
    }
}

// 2^17 coincident primitives, 63-bit codes: depth 80 > the fast stack (64)
// for the LBVHs. The GPU's stack traversal restarts those rays with the deep
// stack; hits equal brute force for every builder, stackless included.
TEST(GpuLbvhVariants, DeepTreeHitsEqualBruteForce) {
    REQUIRE_GPU();
    Mesh m = test::makeDeepCoincident(1u << 17);
    Scene s = test::sceneWith(m);
    s.options.accel.mortonBits = 63;
    std::vector<Ray> rays = test::raysIntoDeepCoincident(128, 4);
    GeometryView geo = test::geometryOf(m);
    std::vector<HitRecord> ref(rays.size());
    for (size_t i = 0; i < rays.size(); ++i) ref[i] = traceBruteForce(geo, rays[i]);
    const std::pair<const char*, const char*> combos[] = {{"lbvh-karras", "stack"},
                                                          {"lbvh-apetrei", "stack"},
                                                          {"lbvh-skip", "stack"},
                                                          {"lbvh-skip", "stackless"},
                                                          {"hploc", "stack"}};
    for (auto [builder, traversal] : combos) {
        s.options.set("accel.builder", builder);
        s.options.set("accel.traversal", traversal);
        GpuBuildResult g = buildOnGpuForValidation(s, 0.0f);
        HostBvh h{g.nodes, g.primIndex, g.root};
        BvhReport rep = validateBvh(h.view(), test::boundsOf(m));
        EXPECT_TRUE(rep.ok) << builder << ": " << (rep.errors.empty() ? "" : rep.errors[0]);
        // H-PLOC pairs coincident boxes evenly (hploc.h): its tree stays shallow.
        if (std::string(builder) != "hploc") EXPECT_GT(rep.maxDepth, uint32_t(kBvhStackSize) + 1) << builder;
        std::vector<HitRecord> got = traceOnGpuForValidation(s, 0.0f, rays);
        expectHitsMatch(geo, rays, got, ref, std::string(builder) + " " + traversal);
    }
}

// lbvhBytes (accel/lbvh/lbvh_memory.h), what memory reports and checks
// count for structures they do not build, against a fresh builder's buffers
// (within 5% and CUB's scratch for small sorts).
TEST(GpuLbvhVariants, MemoryFromTheCountMatchesTheBuildersBuffers) {
    REQUIRE_GPU();
    cudaStream_t stream;
    STRATA_CUDA_CHECK(cudaStreamCreate(&stream));
    for (uint32_t n : {2000u, 300000u, 2000000u})
        for (LbvhVariant v : kVariants)
            for (int bits : {30, 63})
                for (MortonSort sort : {MortonSort::Radix, MortonSort::Split}) {
                    Mesh m = test::makeRandomTriangles(n, 0.01f, n);
                    DeviceBuffer<Aabb> d;
                    d.upload(test::boundsOf(m), stream);
                    LbvhBuilder b;
                    buildOnce(b, d, n, bits, v, stream, false, sort);
                    const double got = double(b.memoryBytes()), est = double(lbvhBytes(n, v, bits > 32, sort));
                    std::printf("lbvh %u %s %d bits, %s sort: %.0f bytes, estimated %.0f\n", n, lbvhVariantName(v),
                                bits, name(sort), got, est);
                    EXPECT_NEAR(est, got, 0.05 * got + 65536)
                        << n << " " << lbvhVariantName(v) << " " << bits << " " << name(sort);
                }
    STRATA_CUDA_CHECK(cudaStreamDestroy(stream));
}

// accel.rebuild = refit on the GPU equals the CPU refit of the same tree
// (accel/lbvh/refit.h, one code): built over one set of boxes, refitted to
// another of the same count, node for node (H-PLOC: from the root), skip
// links included; a second refit reuses the parent entries found by the first.
TEST(GpuLbvhVariants, RefitEqualsTheCpuRefit) {
    REQUIRE_GPU();
    cudaStream_t stream;
    STRATA_CUDA_CHECK(cudaStreamCreate(&stream));
    for (uint32_t n : {1u, 2u, 17u, 5000u, 200000u})
        for (LbvhVariant v : kVariants)
            for (bool block : {false, true}) {  // with the block hand-over, Karras's parent entries carry its flag
                const Mesh m = test::makeRandomTriangles(n, 0.02f, n + 3);
                const std::vector<Aabb> a = test::boundsOf(m);
                std::vector<Aabb> later = a;
                for (size_t i = 0; i < later.size(); ++i) {  // each box moved its own way
                    Vec3 off{0.01f * float(i % 7), -0.02f * float(i % 5), 0.015f * float(i % 3)};
                    later[i] = Aabb{later[i].lo + off, later[i].hi + off};
                }
                DeviceBuffer<Aabb> dA, dB;
                dA.upload(a, stream);
                dB.upload(later, stream);
                LbvhBuilder b;
                const LbvhConfig config{v, 63, block};
                b.build(config, dA.data(), n, LaunchContext{stream});
                ASSERT_TRUE(b.canRefit(config, n));
                EXPECT_FALSE(b.canRefit(config, n + 1));
                b.refit(dB.data(), LaunchContext{stream});
                b.refit(dB.data(), LaunchContext{stream});  // again: the same result
                STRATA_CUDA_CHECK(cudaStreamSynchronize(stream));
                LbvhCopy g = b.download();
                AccelOptions o;
                o.builder = builderOf(v);
                o.rebuild = Rebuild::Refit;
                HostAccel cpu;
                buildHostAccel(a, o, cpu);
                buildHostAccel(later, o, cpu);
                LbvhHostResult ref;
                ref.bvh = cpu.bvh;
                ref.skipNodes = cpu.skipNodes;
                EXPECT_EQ(differences(g, ref), "") << n << " " << lbvhVariantName(v) << (block ? ", block" : "");
                BvhReport rep = validateBvh(HostBvh{g.nodes, g.primIndex, g.root}.view(), later);
                EXPECT_TRUE(rep.ok) << n << " " << lbvhVariantName(v) << ": "
                                    << (rep.errors.empty() ? "" : rep.errors[0]);
            }
    STRATA_CUDA_CHECK(cudaStreamDestroy(stream));
}
