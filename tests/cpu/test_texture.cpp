// core/texture.h: the bilinear lookup that material textures and VD maps
// share, against the definition written out with integer remainders (u wraps
// at texel level, v clamps), and memory-safe for any uv.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "core/texture.h"

namespace strata {
namespace {

// The definition: texel (xi, yi) with xi taken modulo the width and yi
// clamped to the rows; bilinear between the four texel centres around uv.
Vec3 referenceLookup(const std::vector<Vec3>& px, int w, int h, Vec2 uv) {
    const double x = (uv.x - std::floor(uv.x)) * w - 0.5, y = (1.0 - (uv.y - std::floor(uv.y))) * h - 0.5;
    const double fx = std::floor(x), fy = std::floor(y);
    const double ax = x - fx, ay = y - fy;
    auto at = [&](long xi, long yi) {
        xi = ((xi % w) + w) % w;
        yi = std::min<long>(std::max<long>(yi, 0), h - 1);
        return px[size_t(yi) * size_t(w) + size_t(xi)];
    };
    const long x0 = long(fx), y0 = long(fy);
    auto mix = [](Vec3 a, Vec3 b, double f) { return a * float(1 - f) + b * float(f); };
    return mix(mix(at(x0, y0), at(x0 + 1, y0), ax), mix(at(x0, y0 + 1), at(x0 + 1, y0 + 1), ax), ay);
}

std::vector<Vec3> randomTexels(int w, int h, std::mt19937& rng) {
    std::uniform_real_distribution<float> u(-4.0f, 4.0f);
    std::vector<Vec3> px(size_t(w) * size_t(h));
    for (Vec3& p : px) p = Vec3{u(rng), u(rng), u(rng)};
    return px;
}

TEST(Texture, BilinearLookupWrapsUAndClampsVLikeItsDefinition) {
    std::mt19937 rng(7);
    for (auto [w, h] : {std::pair{1, 1}, {1, 5}, {7, 1}, {3, 4}, {64, 32}}) {
        const std::vector<Vec3> px = randomTexels(w, h, rng);
        const TextureView t{px.data(), w, h};
        std::vector<Vec2> uvs = {{0, 0},          {1, 1},        {0.5f, 0.5f},  {-1e-9f, 0},    {1 - 1e-8f, 1e-9f},
                                 {-0.25f, 1.75f}, {3.9f, -2.1f}, {-1e6f, 1e6f}, {1e-7f, -1e-7f}};
        std::uniform_real_distribution<float> u(-3.0f, 3.0f);
        for (int i = 0; i < 2000; ++i) uvs.push_back({u(rng), u(rng)});
        for (int i = 0; i <= 4 * w; ++i)  // texel edges and centres, where the columns change
            uvs.push_back({float(i) / float(4 * w), float(i % 5) / 4.0f});
        for (Vec2 uv : uvs) {
            const Vec3 got = sampleTexture(t, uv), want = referenceLookup(px, w, h, uv);
            EXPECT_NEAR(got.x, want.x, 1e-4f) << w << "x" << h << " at (" << uv.x << ", " << uv.y << ")";
            EXPECT_NEAR(got.y, want.y, 1e-4f) << w << "x" << h << " at (" << uv.x << ", " << uv.y << ")";
            EXPECT_NEAR(got.z, want.z, 1e-4f) << w << "x" << h << " at (" << uv.x << ", " << uv.y << ")";
        }
    }
}

TEST(Texture, NonFiniteCoordinatesReadInsideTheImage) {
    // Under ASan a read outside the texels fails the test; the value is unspecified.
    std::mt19937 rng(3);
    const std::vector<Vec3> px = randomTexels(5, 3, rng);
    const TextureView t{px.data(), 5, 3};
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    for (Vec2 uv : {Vec2{nan, 0.5f}, Vec2{0.5f, nan}, Vec2{inf, -inf}, Vec2{-inf, 0.25f}, Vec2{nan, nan}})
        (void)sampleTexture(t, uv);
}

}  // namespace
}  // namespace strata
