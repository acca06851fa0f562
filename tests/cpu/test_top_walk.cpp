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

namespace strata {
namespace {

// A leaf test on boxes: entry p "hits" at its box's entry distance plus a
// small multiple of its index (no two entries at one distance), if p is not
// a multiple of 3; a deterministic test whose hits shrink tmax as real BLAS
// walks do.
struct BoxHits {
    const std::vector<Aabb>* boxes;
    float operator()(uint32_t p, const Ray& r, float tmax) const {
        if (p % 3 == 0) return 3.0e38f;
        const Aabb& b = (*boxes)[p];
        const float t = slabEntry(b.lo, b.hi, r.org, safeInverse(r.dir), r.tmin, tmax);
        return t <= tmax ? t + 1e-5f * float(p % 1000) : 3.0e38f;
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
    TopLevelWalk walk(v, r);
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

std::vector<Aabb> randomBoxes(uint32_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f), s(0.01f, 0.3f);
    std::vector<Aabb> boxes(n);
    for (Aabb& b : boxes) {
        const Vec3 c{u(rng), u(rng), u(rng)}, h{s(rng), s(rng), s(rng)};
        b = Aabb{c - h, c + h};
    }
    return boxes;
}

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

// A tree whose walk needs a stack deeper than kBvhDeepStackSize: a spine of
// inner nodes, each with a second inner child holding two leaves, every box
// the whole space's. The walk scans every entry after the overflow, so the
// closest hit is the brute-force one.
TEST(TopLevelWalk, ScansEveryEntryWhenTheStackOverflows) {
    const int spine = kBvhDeepStackSize + 20;
    const Aabb all{{-10, -10, -10}, {10, 10, 10}};
    std::vector<BvhNode> nodes(2 * spine);
    std::vector<uint32_t> primIndex;
    std::vector<Aabb> boxes;
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (int i = 0; i < spine; ++i) {
        const int side = spine + i;
        const bool last = i + 1 == spine;
        // The spine's next node, or at the end a leaf.
        if (last) {
            nodes[i].setLeft(all, int32_t(primIndex.size()), 1);
            primIndex.push_back(uint32_t(boxes.size()));
            boxes.push_back(Aabb{{u(rng), u(rng), u(rng)}, {2, 2, 2}});
        } else {
            nodes[i].setLeft(all, i + 1, 0);
        }
        nodes[i].setRight(all, side, 0);
        for (int leaf = 0; leaf < 2; ++leaf) {
            const Aabb b{{u(rng), u(rng), u(rng)}, {2, 2, 2}};
            (leaf ? nodes[side].setRight(all, int32_t(primIndex.size()), 1)
                  : nodes[side].setLeft(all, int32_t(primIndex.size()), 1));
            primIndex.push_back(uint32_t(boxes.size()));
            boxes.push_back(b);
        }
    }
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
    }
}

}  // namespace
}  // namespace strata
