// Small scenes and random geometry made in code for the tests.
#pragma once

#include <cmath>
#include <random>
#include <vector>

#include "core/options.h"
#include "scene/scene.h"

namespace strata::test {

// UV sphere, outward winding, per-vertex normals.
// Two radiance images against each other: the mean absolute difference,
// the mean of the reference, and the fraction of values within 1e-3 relative.
struct ImageDiff {
    double meanAbsDiff = 0, mean = 0, fractionClose = 0;
};
inline ImageDiff compareImages(const std::vector<float>& got, const std::vector<float>& ref) {
    ImageDiff d;
    size_t close = 0;
    for (size_t i = 0; i < ref.size(); ++i) {
        d.meanAbsDiff += std::fabs(got[i] - ref[i]);
        d.mean += ref[i];
        close += std::fabs(got[i] - ref[i]) <= 1e-3f * (1.0f + ref[i]);
    }
    if (!ref.empty()) {
        d.meanAbsDiff /= double(ref.size());
        d.mean /= double(ref.size());
        d.fractionClose = double(close) / double(ref.size());
    }
    return d;
}

inline Mesh makeSphere(Vec3 c, float r, int seg, int material = 0) {
    Mesh m;
    m.name = "sphere";
    int rings = seg / 2;
    for (int i = 0; i <= rings; ++i) {
        float th = kPi * i / rings;
        for (int j = 0; j <= seg; ++j) {
            float ph = 2 * kPi * j / seg;
            Vec3 n{std::sin(th) * std::cos(ph), std::cos(th), std::sin(th) * std::sin(ph)};
            m.positions.push_back(c + n * r);
            m.normals.push_back(n);
        }
    }
    auto id = [&](int i, int j) { return uint32_t(i * (seg + 1) + j); };
    for (int i = 0; i < rings; ++i)
        for (int j = 0; j < seg; ++j) {
            if (i > 0) m.triangles.push_back(Tri{{id(i, j), id(i, j + 1), id(i + 1, j)}});
            if (i < rings - 1) m.triangles.push_back(Tri{{id(i, j + 1), id(i + 1, j + 1), id(i + 1, j)}});
        }
    m.triMaterial.assign(m.triangles.size(), material);
    return m;
}

// n random triangles in the unit cube, sizes ~size.
inline Mesh makeRandomTriangles(uint32_t n, float size, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    Mesh m;
    m.name = "random";
    for (uint32_t i = 0; i < n; ++i) {
        Vec3 c{u(rng), u(rng), u(rng)};
        for (int k = 0; k < 3; ++k) m.positions.push_back(c + Vec3{u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f} * size);
        m.triangles.push_back(Tri{{3 * i, 3 * i + 1, 3 * i + 2}});
    }
    m.triMaterial.assign(n, 0);
    return m;
}

inline Scene sceneWith(Mesh m) {
    Scene s;
    s.path = "<test>";
    s.meshes.push_back(std::move(m));
    s.instances.push_back(Instance{"i0", 0, Affine{}, {}});
    s.materials.push_back(Material{});
    s.materialNames.push_back("default");
    return s;
}

// n boxes, centres uniform in [-centre, centre]^3, half extents uniform in
// [halfMin, halfMax] per axis.
inline std::vector<Aabb> randomBoxes(uint32_t n, uint32_t seed, float centre, float halfMin, float halfMax) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-centre, centre), s(halfMin, halfMax);
    std::vector<Aabb> boxes(n);
    for (Aabb& b : boxes) {
        const Vec3 c{u(rng), u(rng), u(rng)}, h{s(rng), s(rng), s(rng)};
        b = Aabb{c - h, c + h};
    }
    return boxes;
}

// Whether o.inert() names option `key` (set where it does nothing).
inline bool namesInert(const Options& o, const std::string& key) {
    for (const std::string& n : o.inert())
        if (n.find(key) != std::string::npos) return true;
    return false;
}

}  // namespace strata::test
