// The three LBVH builders run on the CPU with the host-device code of the
// GPU (CAS shim): Karras 2012, Apetrei 2014 (Algorithm 3) and the modified
// Apetrei with skip links (Algorithm 4) build the same hierarchy; the skip
// links equal Algorithm 2 and a walk of the tree.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <random>
#include <thread>

#include "accel/bvh_validate.h"
#include "accel/lbvh/apetrei.h"
#include "accel/lbvh/apetrei_skip.h"
#include "accel/lbvh/karras.h"
#include "accel/lbvh/lbvh_compare.h"
#include "accel/lbvh/lbvh_host.h"
#include "accel/lbvh/skip_reference.h"
#include "lbvh_cases.h"

using namespace strata;

namespace {

size_t nodesDiffering(const std::vector<BvhNode>& a, const std::vector<BvhNode>& b) {
    return countDifferentNodes(a, b);
}
size_t nodesDiffering(const std::vector<StacklessNode>& a, const std::vector<StacklessNode>& b) {
    return countDifferentNodes(a, b);
}

// Apetrei's node p is Karras's node k with p = split(k) = karras[k].left.
::testing::AssertionResult equalUpToApetreiOrder(const LbvhHostResult& karras, const LbvhHostResult& apetrei) {
    std::string why = compareUpToApetreiOrder(karras.bvh, apetrei.bvh);
    if (why.empty()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << why;
}

}  // namespace

TEST(ApetreiDelta, OrdersLikeKarrasPrefixLengths) {
    // Sorted keys with runs of duplicates; wherever Karras's δ* differ, the
    // XOR form orders them the other way round (smaller = more similar).
    std::mt19937 rng(1);
    for (int bits : {30, 63}) {
        std::vector<uint64_t> keys(3000);
        for (uint64_t& k : keys)
            k = (bits == 30 ? rng() & 0x3fffffffu : (uint64_t(rng()) << 31) ^ rng()) >> (rng() % 24);
        for (size_t i = 0; i < keys.size(); i += 7) keys[i] = keys[i / 2];  // duplicates
        std::sort(keys.begin(), keys.end());
        int n = int(keys.size());
        for (int t = 0; t < 20000; ++t) {
            int i = int(rng() % (n - 1)), j = int(rng() % (n - 1));
            int ki = karrasDelta(keys.data(), n, i, i + 1), kj = karrasDelta(keys.data(), n, j, j + 1);
            uint64_t ai = apetreiDelta(keys.data(), n, i), aj = apetreiDelta(keys.data(), n, j);
            if (ki > kj) ASSERT_LT(ai, aj) << i << " " << j;
            if (ki < kj) ASSERT_GT(ai, aj) << i << " " << j;
        }
        EXPECT_EQ(apetreiDelta(keys.data(), n, -1), kDeltaInfinity);
        EXPECT_EQ(apetreiDelta(keys.data(), n, n - 1), kDeltaInfinity);
    }
    // Equal keys compare by index XOR, below any real difference.
    uint32_t k4[4] = {5, 5, 5, 9};
    EXPECT_EQ(apetreiDelta(k4, 4, 0), uint64_t(0 ^ 1));
    EXPECT_EQ(apetreiDelta(k4, 4, 1), uint64_t(1 ^ 2));
    EXPECT_GT(apetreiDelta(k4, 4, 2), apetreiDelta(k4, 4, 1));
}

// Algorithm 4 restores Karras's ordering: the same BvhNodes, bit for bit.
TEST(LbvhVariants, ModifiedApetreiEqualsKarrasNodeForNode) {
    for (int bits : {30, 63})
        for (const test::LbvhCase& c : test::lbvhCases()) {
            auto bounds = test::boundsOf(c.mesh);
            LbvhHostResult k = buildLbvhHost(bounds, bits, LbvhVariant::Karras);
            LbvhHostResult s = buildLbvhHost(bounds, bits, LbvhVariant::ApetreiSkip);
            EXPECT_EQ(s.bvh.root, 0u);
            EXPECT_EQ(k.bvh.primIndex, s.bvh.primIndex) << c.name;
            EXPECT_EQ(nodesDiffering(k.bvh.nodes, s.bvh.nodes), 0u) << c.name << ", " << bits << " bits";
            BvhReport rep = validateBvh(s.bvh.view(), bounds);
            EXPECT_TRUE(rep.ok) << c.name << ": " << (rep.errors.empty() ? "" : rep.errors[0]);
        }
}

// Algorithm 3: the same hierarchy in Apetrei's ordering (node = split).
TEST(LbvhVariants, ApetreiEqualsKarrasUpToItsOrdering) {
    for (int bits : {30, 63})
        for (const test::LbvhCase& c : test::lbvhCases()) {
            auto bounds = test::boundsOf(c.mesh);
            LbvhHostResult k = buildLbvhHost(bounds, bits, LbvhVariant::Karras);
            LbvhHostResult a = buildLbvhHost(bounds, bits, LbvhVariant::Apetrei);
            EXPECT_TRUE(equalUpToApetreiOrder(k, a)) << c.name << ", " << bits << " bits";
            BvhReport rep = validateBvh(a.bvh.view(), bounds);
            EXPECT_TRUE(rep.ok) << c.name << ": " << (rep.errors.empty() ? "" : rep.errors[0]);
            EXPECT_EQ(rep.leaves, bounds.size());
        }
}

// GPU threads reach the nodes in any order; which thread goes on decides
// nothing in the result (every node index is a function of the keys, boxes
// merge left then right).
// The block hand-over's rule (apetreiSplitInBlock) against the ranges of
// the tree itself: for random sorted keys with many equal δ* (ties), every
// split is called within a block exactly when its node's range of leaves
// is, for blocks of every size from 1 to 160 leaves.
TEST(LbvhVariants, ApetreiBlockRuleMatchesTheRanges) {
    std::mt19937 rng(4);
    for (int round = 0; round < 40; ++round) {
        const int n = 1 + int(rng() % 400);
        std::vector<uint32_t> keys(static_cast<size_t>(n));
        const uint32_t spread = 1u + rng() % 64;  // few distinct keys: equal δ* everywhere
        for (uint32_t& k : keys) k = rng() % spread * 1000u + rng() % 3;
        std::sort(keys.begin(), keys.end());
        // Each split's range, from the tree the published pass builds.
        std::vector<Aabb> boxes(static_cast<size_t>(n), Aabb{Vec3{0, 0, 0}, Vec3{1, 1, 1}});
        std::vector<uint32_t> order(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i) order[size_t(i)] = uint32_t(i);
        std::vector<BvhNode> nodes(size_t(std::max(n - 1, 1)));
        std::vector<int32_t> store(static_cast<size_t>(n), kStoreEmpty);
        uint32_t root = 0;
        for (int leaf = 0; leaf < n; ++leaf)
            apetreiBottomUp(leaf, n, keys.data(), boxes.data(), order.data(), nodes.data(), store.data(), &root);
        std::vector<int> lo(size_t(std::max(n - 1, 1))), hi(lo.size());
        std::function<void(int, int, int&, int&)> range = [&](int index, int count, int& l, int& h) {
            if (count == 1) {
                l = h = index;
                return;
            }
            int a, b, c, d;
            range(nodes[size_t(index)].left, nodes[size_t(index)].leftCount, a, b);
            range(nodes[size_t(index)].right, nodes[size_t(index)].rightCount, c, d);
            l = a, h = d;
            lo[size_t(index)] = l, hi[size_t(index)] = h;
        };
        if (n > 1) {
            int l, h;
            range(int(root), 0, l, h);
            ASSERT_EQ(l, 0);
            ASSERT_EQ(h, n - 1);
        }
        for (int block = 1; block <= 160; block += 1 + block / 8)
            for (int b0 = 0; b0 < n; b0 += block) {
                const int b1 = std::min(b0 + block, n);
                for (int p = b0; p < b1; ++p) {
                    uint64_t prefix = apetreiDelta(keys.data(), n, b0 - 1), suffix = 0;
                    for (int j = b0; j < p; ++j) prefix = std::max(prefix, apetreiDelta(keys.data(), n, j));
                    for (int j = p + 1; j < b1; ++j) suffix = std::max(suffix, apetreiDelta(keys.data(), n, j));
                    const bool inBlock = p < n - 1 && lo[size_t(p)] >= b0 && hi[size_t(p)] < b1;
                    EXPECT_EQ(apetreiSplitInBlock(p, n, prefix, apetreiDelta(keys.data(), n, p), suffix), inBlock)
                        << "n " << n << ", block " << block << ", split " << p;
                }
            }
    }
}

TEST(LbvhVariants, LeafArrivalOrderDoesNotChangeTheResult) {
    for (const test::LbvhCase& c : test::lbvhCases(false)) {
        auto bounds = test::boundsOf(c.mesh);
        for (LbvhVariant v : {LbvhVariant::Karras, LbvhVariant::Apetrei, LbvhVariant::ApetreiSkip}) {
            LbvhHostResult ref = buildLbvhHost(bounds, 63, v);
            for (uint32_t seed : {1u, 2u, 3u}) {
                LbvhHostConfig cfg;
                cfg.variant = v;
                cfg.leafOrderSeed = seed;
                LbvhHostResult r = buildLbvhHost(bounds, 63, cfg);
                EXPECT_EQ(r.bvh.root, ref.bvh.root) << c.name;
                EXPECT_EQ(nodesDiffering(r.bvh.nodes, ref.bvh.nodes), 0u) << c.name << " " << lbvhVariantName(v);
                EXPECT_EQ(nodesDiffering(r.skipNodes, ref.skipNodes), 0u) << c.name << " " << lbvhVariantName(v);
            }
        }
    }
}

// The same per-leaf procedures run concurrently on CPU threads (real CAS,
// real races between siblings): the result equals the sequential run and
// the store array is left all ◇ for the next build.
TEST(LbvhVariants, ConcurrentBottomUpOnCpuThreadsEqualsSequentialRun) {
    auto bounds = test::boundsOf(test::makeDuplicateHeavy(30000, 50, 3));
    const int n = int(bounds.size());
    LbvhHostResult a = buildLbvhHost(bounds, 63, LbvhVariant::Apetrei);
    LbvhHostResult s = buildLbvhHost(bounds, 63, LbvhVariant::ApetreiSkip);
    const unsigned threads = 8;
    auto parallel = [&](auto&& perLeaf) {
        std::atomic<int> next{0};
        std::vector<std::thread> pool;
        for (unsigned t = 0; t < threads; ++t)
            pool.emplace_back([&] {
                for (int i; (i = next.fetch_add(1)) < n;) perLeaf(i);
            });
        for (std::thread& t : pool) t.join();
    };
    for (int round = 0; round < 3; ++round) {
        std::vector<int32_t> store(n, kStoreEmpty);
        std::vector<BvhNode> nodes(n - 1);
        uint32_t root = ~0u;
        parallel([&](int i) {
            apetreiBottomUp(i, n, a.sortedKeys.data(), bounds.data(), a.bvh.primIndex.data(), nodes.data(),
                            store.data(), &root);
        });
        EXPECT_EQ(root, a.bvh.root);
        EXPECT_EQ(nodesDiffering(nodes, a.bvh.nodes), 0u);
        EXPECT_EQ(std::count(store.begin(), store.end(), kStoreEmpty), n);

        std::vector<StacklessNode> skip(2 * n - 1);
        parallel([&](int i) {
            apetreiSkipBottomUp(i, n, s.sortedKeys.data(), bounds.data(), s.bvh.primIndex.data(), skip.data(),
                                nodes.data(), store.data());
        });
        EXPECT_EQ(nodesDiffering(nodes, s.bvh.nodes), 0u);
        EXPECT_EQ(nodesDiffering(skip, s.skipNodes), 0u);
        EXPECT_EQ(std::count(store.begin(), store.end(), kStoreEmpty), n);
    }
}

// The skip links of the single pass equal Algorithm 2 computed from the
// Karras tree, and a depth-first walk of that tree (boxes and left children
// included).
TEST(SkipLinks, EqualAlgorithm2AndAWalkOfTheTree) {
    for (int bits : {30, 63})
        for (const test::LbvhCase& c : test::lbvhCases()) {
            auto bounds = test::boundsOf(c.mesh);
            LbvhHostResult k = buildLbvhHost(bounds, bits, LbvhVariant::Karras);
            LbvhHostResult s = buildLbvhHost(bounds, bits, LbvhVariant::ApetreiSkip);
            const size_t n = bounds.size();
            ASSERT_EQ(s.skipNodes.size(), 2 * n - 1) << c.name;
            std::vector<StacklessNode> walk = stacklessByWalk(k.bvh.view());
            EXPECT_EQ(nodesDiffering(walk, s.skipNodes), 0u) << c.name << ", " << bits << " bits";
            std::vector<int32_t> alg2 = skipsByAlgorithm2(k.bvh.view(), k.sortedKeys);
            ASSERT_EQ(alg2.size(), s.skipNodes.size());
            size_t bad = 0;
            for (size_t i = 0; i < alg2.size(); ++i) bad += alg2[i] != s.skipNodes[i].skip;
            EXPECT_EQ(bad, 0u) << c.name << ", " << bits << " bits";
            // Leaves hold their primitive; the right-most path ends at the sentinel.
            for (size_t e = 0; e < n; ++e) EXPECT_EQ(s.skipNodes[n - 1 + e].primitive(), k.bvh.primIndex[e]);
            EXPECT_EQ(s.skipNodes.back().skip, kSkipSentinel);
            EXPECT_EQ(s.skipNodes[0].skip, kSkipSentinel);
        }
}

TEST(SkipLinks, PaperFigureExample) {
    // Eight keys as in the paper's Figure 2 (n = 8): check a hand-derived
    // tree. Keys 1,2,4,5,19,24,25,30 (5 bits).
    std::vector<uint32_t> keys = {1, 2, 4, 5, 19, 24, 25, 30};
    const int n = 8;
    std::vector<Aabb> prim(n);
    std::vector<uint32_t> order(n);
    for (int i = 0; i < n; ++i) {
        prim[i].grow(Vec3{float(i), 0, 0});
        order[i] = uint32_t(i);
    }
    std::vector<int32_t> store(n, kStoreEmpty);
    std::vector<StacklessNode> skip(2 * n - 1);
    std::vector<BvhNode> nodes(n - 1);
    for (int i = n - 1; i >= 0; --i)
        apetreiSkipBottomUp(i, n, keys.data(), prim.data(), order.data(), skip.data(), nodes.data(), store.data());
    // Karras: root I0 = [0,7] split 3 (00xxx | 1xxxx): children I3 = [0,3], I4 = [4,7].
    EXPECT_EQ(skip[0].left, 3);
    EXPECT_EQ(skip[0].skip, kSkipSentinel);
    EXPECT_EQ(skip[3].skip, 4);  // I3's sibling I4
    EXPECT_EQ(skip[4].skip, kSkipSentinel);
    // I3 = [0,3] splits at 1 (0000x | 001xx): I1 = [0,1], I2 = [2,3].
    EXPECT_EQ(skip[3].left, 1);
    EXPECT_EQ(skip[1].skip, 2);
    EXPECT_EQ(skip[1].left, n - 1 + 0);          // L0
    EXPECT_EQ(skip[n - 1 + 0].skip, n - 1 + 1);  // L0 -> L1
    EXPECT_EQ(skip[n - 1 + 1].skip, 2);          // L1 -> I2
    EXPECT_EQ(skip[n - 1 + 3].skip, 4);          // L3 -> I4
    // I4 = [4,7] splits at 4 (10011 | 11xxx): L4 and I5 = [5,7].
    EXPECT_EQ(skip[4].left, n - 1 + 4);
    EXPECT_EQ(skip[n - 1 + 4].skip, 5);
    EXPECT_EQ(skip[n - 1 + 7].skip, kSkipSentinel);
    BvhView v{nodes.data(), order.data(), uint32_t(n - 1), uint32_t(n)};
    std::vector<uint64_t> wide(keys.begin(), keys.end());
    std::vector<int32_t> alg2 = skipsByAlgorithm2(v, wide);
    for (int i = 0; i < 2 * n - 1; ++i) EXPECT_EQ(alg2[i], skip[i].skip) << i;
}
