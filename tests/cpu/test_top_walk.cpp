// The top level's walk as a sequence of instances (accel/toplevel/top_walk.h)
// against traverseBvh with the same leaf test: the same entries in the same
// order, the same hit, the same node counts, for every builder's tree (leaves
// of one entry and of several); and on a tree too deep for its stack, every
// entry by the scan, so that the closest hit is brute force's.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "accel/host_accel.h"
#include "accel/toplevel/top_walk.h"
#include "core/options.h"
#include "test_util.h"

namespace strata {
namespace {

// A leaf test on boxes: entry p "hits" at its box's entry distance plus a
// small multiple of its index (so that two entries almost never hit at one
// distance), if p is not a multiple of 3; a deterministic test whose hits
// shrink tmax as real BLAS walks do.
struct BoxHits {
    const std::vector<Aabb>* boxes;
    float operator()(uint32_t p, const Ray& r, float tmax) const {
        if (p % 3 == 0) return 3.0e38f;
        const Aabb& b = (*boxes)[p];
        const float t = slabEntry(b.lo, b.hi, r.org, safeInverse(r.dir), r.tmin, tmax);
        return t <= tmax ? t + 1e-6f * float(p) : 3.0e38f;
    }
};

struct Walked {
    std::vector<uint32_t> entries;
    uint32_t hit = ~0u;
    float tmax = 0;
    TraversalStats stats;
};

template <bool AnyHit>
Walked byTraverseBvh(const BvhView& v, const Ray& r, const BoxHits& hits) {
    Walked w;
    w.tmax = r.tmax;
    auto test = [&](uint32_t p, const Ray& ray, float tmax) {
        w.entries.push_back(p);
        return hits(p, ray, tmax);
    };
    w.hit = traverseBvh<AnyHit>(v, r, w.tmax, test, &w.stats);
    return w;
}

template <bool AnyHit>
Walked byTopLevelWalk(const BvhView& v, const Ray& r, const BoxHits& hits) {
    Walked w;
    w.tmax = r.tmax;
    TopLevelWalk::Stack stack;
    TopLevelWalk walk(v, r, stack);
    for (uint32_t p; (p = walk.next(w.tmax, &w.stats)) != ~0u;) {
        w.entries.push_back(p);
        const float t = hits(p, r, w.tmax);
        if (t < w.tmax) {
            w.tmax = t;
            w.hit = p;
            if (AnyHit) break;
        }
    }
    return w;
}

std::vector<Aabb> randomBoxes(uint32_t n, uint32_t seed) { return test::randomBoxes(n, seed, 1.0f, 0.01f, 0.3f); }

Ray randomRay(std::mt19937& rng) {
    std::uniform_real_distribution<float> u(-1.5f, 1.5f);
    Ray r;
    r.org = {u(rng), u(rng), u(rng)};
    r.dir = normalize(Vec3{u(rng), u(rng), u(rng)} - r.org * 0.3f);
    r.tmin = 0.0f;
    r.tmax = 1e30f;
    return r;
}

TEST(TopLevelWalk, GivesTraverseBvhsEntriesInItsOrder) {
    for (const char* builder : {"lbvh-karras", "lbvh-apetrei", "hploc", "cpu-sah"})
        for (uint32_t n : {1u, 2u, 3u, 200u, 5000u}) {
            const std::vector<Aabb> boxes = randomBoxes(n, n);
            Options o;
            o.set("accel.builder", builder);
            HostAccel accel;
            buildHostAccel(boxes, o.accel, accel);
            const BvhView v = accel.view(o.accel);
            const BoxHits hits{&boxes};
            std::mt19937 rng(n + 11);
            size_t entries = 0;
            for (int k = 0; k < 300; ++k) {
                const Ray r = randomRay(rng);
                SCOPED_TRACE(::testing::Message() << builder << " n " << n << " ray " << k);
                const Walked a = byTraverseBvh<false>(v, r, hits), b = byTopLevelWalk<false>(v, r, hits);
                EXPECT_EQ(a.entries, b.entries);
                EXPECT_EQ(a.hit, b.hit);
                EXPECT_EQ(a.tmax, b.tmax);
                EXPECT_EQ(a.stats.nodesVisited, b.stats.nodesVisited);
                EXPECT_EQ(a.stats.steps, b.stats.steps);
                EXPECT_FALSE(b.stats.stackOverflow);
                const Walked c = byTraverseBvh<true>(v, r, hits), d = byTopLevelWalk<true>(v, r, hits);
                EXPECT_EQ(c.entries, d.entries);
                EXPECT_EQ(c.hit, d.hit);
                entries += a.entries.size();
            }
            if (n >= 200) EXPECT_GT(entries, 300u);  // the rays meet boxes: the test compares something
        }
}

// A tree whose walk needs a stack deeper than kBvhDeepStackSize, with leaves
// reached before the overflow: each spine node S_i has an inner child A_i
// (a leaf, then S_i+1) and an inner child B_i (two leaves), every box the
// whole space's, so the walk pushes B_i, takes A_i's leaf and goes down to
// S_i+1. After the overflow it scans every entry: each comes at most twice,
// and the closest hit is brute force's and traverseBvh's (which ends in a
// scan too).
TEST(TopLevelWalk, ScansEveryEntryWhenTheStackOverflows) {
    const int spine = kBvhDeepStackSize + 20;
    const Aabb all{{-10, -10, -10}, {10, 10, 10}};
    std::vector<BvhNode> nodes;
    std::vector<uint32_t> primIndex;
    std::vector<Aabb> boxes;
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    auto leaf = [&] {  // a new entry: its first primIndex slot
        primIndex.push_back(uint32_t(boxes.size()));
        boxes.push_back(Aabb{{u(rng), u(rng), u(rng)}, {2, 2, 2}});
        return int32_t(primIndex.size() - 1);
    };
    // S_i at 3i, A_i at 3i + 1, B_i at 3i + 2; the last spine node holds two leaves.
    nodes.resize(3 * spine + 1);
    for (int i = 0; i < spine; ++i) {
        BvhNode &s = nodes[3 * i], &a = nodes[3 * i + 1], &b = nodes[3 * i + 2];
        s.setLeft(all, 3 * i + 1, 0);
        s.setRight(all, 3 * i + 2, 0);
        a.setLeft(all, leaf(), 1);
        a.setRight(all, 3 * i + 3, 0);
        b.setLeft(all, leaf(), 1);
        b.setRight(all, leaf(), 1);
    }
    nodes[3 * spine].setLeft(all, leaf(), 1);
    nodes[3 * spine].setRight(all, leaf(), 1);
    BvhView v;
    v.nodes = nodes.data();
    v.primIndex = primIndex.data();
    v.numNodes = uint32_t(nodes.size());
    v.numPrims = uint32_t(primIndex.size());
    const BoxHits hits{&boxes};
    std::mt19937 rays(9);
    for (int k = 0; k < 50; ++k) {
        const Ray r = randomRay(rays);
        float best = r.tmax;
        uint32_t bestPrim = ~0u;
        for (uint32_t p = 0; p < boxes.size(); ++p) {
            const float t = hits(p, r, best);
            if (t < best) {
                best = t;
                bestPrim = p;
            }
        }
        const Walked w = byTopLevelWalk<false>(v, r, hits);
        EXPECT_TRUE(w.stats.stackOverflow);
        EXPECT_EQ(w.hit, bestPrim);
        EXPECT_EQ(w.tmax, best);
        std::vector<int> seen(boxes.size(), 0);
        for (uint32_t p : w.entries) seen[p]++;
        for (uint32_t p = 0; p < boxes.size(); ++p) {
            EXPECT_GE(seen[p], 1) << "entry " << p;
            EXPECT_LE(seen[p], 2) << "entry " << p;
        }
        EXPECT_GT(w.entries.size(), boxes.size()) << "leaves were reached before the overflow";
        const Walked b = byTraverseBvh<false>(v, r, hits);
        EXPECT_EQ(b.hit, w.hit);
        EXPECT_EQ(b.tmax, w.tmax);
    }
}

}  // namespace
}  // namespace strata
