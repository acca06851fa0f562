// CPU reference of mesh animation: the skeleton clip, two-bone skinning, wind
// sway and frame interpolation, checked against hand-computed values.
#include <gtest/gtest.h>

#include <cmath>

#include "core/error.h"
#include "scene/deform.h"
#include "scene/skeleton_pose.h"

using namespace strata;

namespace {

void expectNear(Vec3 a, Vec3 b, float eps = 1e-5f) {
    EXPECT_NEAR(a.x, b.x, eps);
    EXPECT_NEAR(a.y, b.y, eps);
    EXPECT_NEAR(a.z, b.z, eps);
}

// Root at the origin, child joint at (0, 1, 0). Keys at 0 and 1 s: the child
// turns 0 -> 90 degrees about Z, the root moves 0 -> (2, 0, 0).
Skeleton twoBones() {
    Skeleton s;
    s.parent = {-1, 0};
    s.joint = {{0, 0, 0}, {0, 1, 0}};
    s.name = {"root", "child"};
    s.times = {0.0f, 1.0f};
    s.rotation = {Quat{}, Quat{}, Quat{}, axisAngle({0, 0, 1}, 0.5f * kPi)};
    s.rootTranslation = {{0, 0, 0}, {2, 0, 0}};
    return s;
}

}  // namespace

TEST(SkeletonPose, FollowsTheFormulaAndLoops) {
    Skeleton s = twoBones();
    std::vector<Affine> skin;
    poseSkeleton(s, 1.0f - 1e-6f, skin);  // the end of the clip
    // Child: T(root) * T(j) * Rz(90) * T(-j): the point (0, 2, 0) goes to (2 - 1, 1, 0).
    expectNear(skin[1].point({0, 2, 0}), {1, 1, 0}, 1e-4f);
    expectNear(skin[0].point({0, 2, 0}), {2, 2, 0}, 1e-4f);
    poseSkeleton(s, 0.5f, skin);  // midway: nlerp gives 45 degrees, root at (1, 0, 0)
    float h = sqrtf(0.5f);
    expectNear(skin[1].point({0, 2, 0}), {1 - h, 1 + h, 0}, 1e-4f);
    std::vector<Affine> again;
    poseSkeleton(s, 2.5f, again);  // loops with period 1
    expectNear(again[1].point({0, 2, 0}), skin[1].point({0, 2, 0}));
    poseSkeleton(s, -0.5f, again);
    expectNear(again[1].point({0, 2, 0}), skin[1].point({0, 2, 0}));
}

TEST(SkeletonPose, NoKeysIsTheRestPoseAndBadSizesAreErrors) {
    Skeleton s = twoBones();
    s.times.clear();
    s.rotation.clear();
    s.rootTranslation.clear();
    std::vector<Affine> skin;
    poseSkeleton(s, 3.0f, skin);
    expectNear(skin[1].point({1, 2, 3}), {1, 2, 3});
    Skeleton bad = twoBones();
    bad.rotation.pop_back();
    EXPECT_THROW(poseSkeleton(bad, 0, skin), Error);
    bad = twoBones();
    bad.parent[1] = 1;
    EXPECT_THROW(poseSkeleton(bad, 0, skin), Error);
}

TEST(SkeletonPose, TwoBoneBlend) {
    Affine skin[2] = {translation({1, 0, 0}), translation({0, 2, 0})};
    uint32_t bones = 0u | (1u << 16);
    expectNear(skinVertex(skin, bones, 1.0f, {0, 0, 0}), {1, 0, 0});
    expectNear(skinVertex(skin, bones, 0.0f, {0, 0, 0}), {0, 2, 0});
    expectNear(skinVertex(skin, bones, 0.25f, {1, 1, 1}), {1.25f, 2.5f, 1});
    std::vector<Affine> v(skin, skin + 2);
    expectNear(skinVertex(v, bones, 0.25f, {1, 1, 1}), {1.25f, 2.5f, 1});
    EXPECT_THROW(skinVertex(v, 5u, 1.0f, {0, 0, 0}), Error);
    Affine rot[2] = {rotation(axisAngle({0, 1, 0}, 0.5f * kPi)), Affine{}};
    Vec3 n = skinNormal(rot, bones, 0.5f, {1, 0, 0});
    EXPECT_NEAR(length(n), 1.0f, 1e-5f);
    expectNear(n, normalize(Vec3{0.5f, 0, -0.5f}));
}

TEST(Sway, MatchesTheFormulaAndKeepsTheBaseStill) {
    Sway s;
    s.direction = {1, 0, 0};
    s.amplitude = 0.2f;
    s.frequency = 0.5f;
    s.height = 10;
    s.base = -1;
    s.phaseScale = 0.3f;
    Vec3 p{2, 4, 1};  // 5 m above the base
    float t = 0.7f;
    float expected = 0.2f * 0.25f * sinf(2 * kPi * 0.5f * t + 0.3f * 3);
    expectNear(swayVertex(s, p, t), p + Vec3{expected, 0, 0});
    expectNear(swayVertex(s, {3, -1, 2}, t), {3, -1, 2});
    expectNear(swayVertex(s, {3, -2, 2}, t), {3, -2, 2});
}

TEST(Frames, InterpolatesLoopsAndClamps) {
    Mesh m;
    m.animation = MeshAnimationKind::Frames;
    m.positions = {{0, 0, 0}, {1, 1, 1}};
    m.frames.fps = 10;
    m.frames.positions = {{{0, 0, 0}, {1, 0, 0}}, {{2, 0, 0}, {1, 4, 0}}, {{4, 2, 0}, {1, 0, 8}}};
    std::vector<Vec3> out;
    poseMeshPositions(m, 0.05f, out);  // midway between frames 0 and 1: their average
    expectNear(out[0], {1, 0, 0});
    expectNear(out[1], {1, 2, 0});
    poseMeshPositions(m, 0.15f, out);  // midway between 1 and 2
    expectNear(out[0], {3, 1, 0});
    poseMeshPositions(m, 0.25f, out);  // looping: midway between the last frame and the first
    expectNear(out[0], {2, 1, 0});
    expectNear(out[1], {1, 0, 4});
    poseMeshPositions(m, 0.35f, out);  // one loop (0.3 s) later
    expectNear(out[0], {1, 0, 0});
    m.frames.loop = false;
    poseMeshPositions(m, 5.0f, out);  // clamped to the last frame
    expectNear(out[0], {4, 2, 0});
    poseMeshPositions(m, -1.0f, out);
    expectNear(out[0], {0, 0, 0});
    m.frames.positions[1].pop_back();
    EXPECT_THROW(poseMeshPositions(m, 0.05f, out), Error);
}

TEST(Frames, StaticMeshesCopy) {
    Mesh m;
    m.positions = {{1, 2, 3}};
    std::vector<Vec3> out;
    poseMeshPositions(m, 4.0f, out);
    ASSERT_EQ(out.size(), 1u);
    expectNear(out[0], {1, 2, 3});
}
