// Inputs of the LBVH variant tests (CPU and GPU): random, duplicate-heavy,
// tiny, and a tree deeper than the fast traversal stack.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "render/flat_scene.h"
#include "render/scene_view.h"
#include "test_util.h"

namespace strata::test {

inline std::vector<Aabb> boundsOf(const Mesh& m) {
    std::vector<Aabb> b;
    triangleBounds(m.positions, m.triangles, b);
    return b;
}

inline GeometryView geometryOf(const Mesh& m) {
    GeometryView g;
    g.pos = m.positions.data();
    g.tris = m.triangles.data();
    g.numTris = uint32_t(m.triangles.size());
    return g;
}

inline void addTriangle(Mesh& m, Vec3 a, Vec3 b, Vec3 c) {
    uint32_t v = uint32_t(m.positions.size());
    m.positions.insert(m.positions.end(), {a, b, c});
    m.triangles.push_back(Tri{{v, v + 1, v + 2}});
    m.triMaterial.push_back(0);
}

// n triangles whose centroids sit on only `points` distinct spots (copies
// of a few triangles), plus a tenth random ones: long runs of equal Morton
// codes that only the index augmentation orders.
inline Mesh makeDuplicateHeavy(uint32_t n, uint32_t points, uint32_t seed) {
    Mesh spots = makeRandomTriangles(points, 0.05f, seed);
    Mesh extra = makeRandomTriangles(n / 10 + 1, 0.02f, seed + 1);
    Mesh m;
    m.name = "duplicates";
    std::mt19937 rng(seed);
    for (uint32_t i = 0; i < n; ++i) {
        if (i % 10 == 9) {
            uint32_t k = 3 * (i / 10);
            addTriangle(m, extra.positions[k], extra.positions[k + 1], extra.positions[k + 2]);
        } else {
            uint32_t k = 3 * uint32_t(rng() % points);
            addTriangle(m, spots.positions[k], spots.positions[k + 1], spots.positions[k + 2]);
        }
    }
    return m;
}

// n small triangles in a cluster `size` across at the origin, and one far
// triangle that stretches the centroid box to 1e4: with size 2 the whole
// cluster shares the top 32 bits of its 63-bit codes (one run of n, the
// split sort's worst case), with size 100 it falls into runs of up to about
// a hundred; their low bits still order them.
inline Mesh makeClusterBesideFarTriangle(uint32_t n, float size, uint32_t seed) {
    Mesh m = makeRandomTriangles(n, 0.05f, seed);
    for (Vec3& p : m.positions) p = p * size;
    addTriangle(m, make3(1.0e4f), make3(1.0e4f) + Vec3{1, 0, 0}, make3(1.0e4f) + Vec3{0, 1, 0});
    return m;
}

// Runs of the given lengths, each within one top cell of the 63-bit codes
// (the top 32 bits: 11 of x's and y's 21 bits, 10 of z's) with distinct low
// bits where the cell allows, in cells apart from each other; two tiny
// triangles at (0,0,0) and (1,1,1) fix the centroid box. The split sort's
// tiers and their bounds (split_sort.h) whatever test data is at hand.
inline Mesh makeRunsOfLengths(const std::vector<uint32_t>& lengths, uint32_t seed) {
    const float tiny = 1.0e-7f;
    auto triangleAt = [&](Mesh& m, Vec3 c) { addTriangle(m, c, c + Vec3{tiny, 0, 0}, c + Vec3{0, tiny, 0}); };
    Mesh m;
    m.name = "runs";
    triangleAt(m, make3(0.0f));
    triangleAt(m, make3(1.0f));
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.1f, 0.9f);  // inside a cell, off its borders
    const Vec3 cell{1.0f / 2048, 1.0f / 2048, 1.0f / 1024};
    for (size_t g = 0; g < lengths.size(); ++g) {
        const Vec3 corner{float(100 + 8 * g) * cell.x, 1000 * cell.y, 500 * cell.z};
        for (uint32_t k = 0; k < lengths[g]; ++k) triangleAt(m, corner + Vec3{u(rng), u(rng), u(rng)} * cell);
    }
    return m;
}

// A tree deeper than kBvhStackSize, and a ray set that needs the whole depth
// on the stack. With 63-bit codes, triangles centred at the origin (the
// cluster, all coincident) and pairs centred at x, y or z = 2^j (j = 0..20,
// one Morton bit each) plus one at the far corner: the path from the root to
// the cluster branches at every one of the 63 bits, each time beside a pair
// (an inner node, so the stack traversal pushes it), then the cluster's
// equal codes add log2(cluster) levels of index bits. Every triangle is
// huge (2^23 across, boxes centred on its point), so every box is hit and a
// ray from the (-,-,-) side always enters the path child first. With 30-bit
// codes the same construction stays below 30 + 32 levels, never deeper
// than the stack: 63-bit codes are needed.
inline Mesh makeDeepCoincident(uint32_t cluster) {
    const float a = 8388608.0f;  // 2^23
    Mesh m;
    m.name = "deep";
    auto big = [&](Vec3 c) { addTriangle(m, c + Vec3{-a, -a, a}, c + Vec3{a, -a, -a}, c + Vec3{0, a, 0}); };
    for (uint32_t i = 0; i < cluster; ++i) big({0, 0, 0});
    for (int j = 0; j <= 20; ++j) {
        float p = float(1u << j);
        for (int copy = 0; copy < 2; ++copy) {
            big({p, 0, 0});
            big({0, p, 0});
            big({0, 0, p});
        }
    }
    big(make3(2097152.0f));  // 2^21: the centroid box is [0, 2^21]^3
    return m;
}

// Rays from the (-,-,-) side through the cluster region.
inline std::vector<Ray> raysIntoDeepCoincident(uint32_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<Ray> rays(n);
    for (Ray& r : rays) {
        r.org = make3(-2.0e7f) + Vec3{u(rng), u(rng), u(rng)} * 1.0e6f;
        Vec3 target = Vec3{u(rng), u(rng), u(rng)} * 1.0e6f;
        r.dir = normalize(target - r.org);
    }
    return rays;
}

// Random rays in and around the unit cube (the random meshes' space).
inline std::vector<Ray> randomRays(uint32_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    std::vector<Ray> rays(n);
    for (Ray& r : rays) {
        r.org = Vec3{u(rng), u(rng), u(rng)} * 1.4f - make3(0.2f);
        r.dir = normalize(Vec3{u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f});
    }
    return rays;
}

// Rays from random points around the unit cube: the even ones aimed at the
// centroid of a random triangle (so most hit), the odd ones in random
// directions.
inline std::vector<Ray> raysAtTriangles(const Mesh& m, uint32_t n, uint32_t seed) {
    std::vector<Ray> rays = randomRays(n, seed);
    std::mt19937 rng(seed + 1);
    for (uint32_t i = 0; i < n && !m.triangles.empty(); i += 2) {
        const Tri& t = m.triangles[rng() % m.triangles.size()];
        Vec3 c = (m.positions[t.v[0]] + m.positions[t.v[1]] + m.positions[t.v[2]]) * (1.0f / 3.0f);
        Vec3 d = c - rays[i].org;
        if (length(d) > 1e-4f) rays[i].dir = normalize(d);
    }
    return rays;
}

struct LbvhCase {
    std::string name;
    Mesh mesh;
};

// Random (tiny to large), duplicate-heavy and all-coincident inputs.
inline std::vector<LbvhCase> lbvhCases(bool large = true) {
    std::vector<LbvhCase> c;
    for (uint32_t n : {1u, 2u, 3u, 4u, 5u, 8u, 17u, 100u, 1000u})
        c.push_back({"random " + std::to_string(n), makeRandomTriangles(n, 0.02f, n + 11)});
    if (large) c.push_back({"random 20000", makeRandomTriangles(20000, 0.01f, 20011)});
    c.push_back({"duplicates 3000/7", makeDuplicateHeavy(3000, 7, 5)});
    c.push_back({"duplicates 40/2", makeDuplicateHeavy(40, 2, 6)});
    Mesh one = makeRandomTriangles(1, 0.02f, 9);
    Mesh same;
    for (int i = 0; i < 4097; ++i) addTriangle(same, one.positions[0], one.positions[1], one.positions[2]);
    c.push_back({"coincident 4097", same});
    return c;
}

}  // namespace strata::test
