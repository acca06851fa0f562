// The runner's skeleton and its in-place run cycle, sampled from smooth
// functions of the cycle angle (one key every 1/24 cycle). The root's height
// keeps the lower foot on the ground, lifted in the flight phases.
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/transform.h"
#include "scene/generators/runner_rig.h"
#include "scene/skeleton_pose.h"

namespace strata {

namespace {

struct BoneDef {
    const char* name;
    int parent;
    Vec3 joint;  // 1.8 m figure
};

const BoneDef kBones[kRunnerBones] = {
    {"pelvis", -1, {0, 1.00f, 0}},
    {"spine", kPelvis, {0, 1.10f, -0.005f}},
    {"chest", kSpine, {0, 1.28f, -0.01f}},
    {"neck", kChest, {0, 1.50f, -0.01f}},
    {"head", kNeck, {0, 1.60f, 0.0f}},
    {"upper_arm.L", kChest, {0.195f, 1.45f, -0.01f}},
    {"lower_arm.L", kUpperArmL, {0.225f, 1.17f, -0.01f}},
    {"hand.L", kLowerArmL, {0.245f, 0.93f, 0.0f}},
    {"upper_arm.R", kChest, {-0.195f, 1.45f, -0.01f}},
    {"lower_arm.R", kUpperArmR, {-0.225f, 1.17f, -0.01f}},
    {"hand.R", kLowerArmR, {-0.245f, 0.93f, 0.0f}},
    {"upper_leg.L", kPelvis, {0.095f, 0.95f, 0.0f}},
    {"lower_leg.L", kUpperLegL, {0.10f, 0.52f, 0.0f}},
    {"foot.L", kLowerLegL, {0.10f, 0.095f, -0.01f}},
    {"upper_leg.R", kPelvis, {-0.095f, 0.95f, 0.0f}},
    {"lower_leg.R", kUpperLegR, {-0.10f, 0.52f, 0.0f}},
    {"foot.R", kLowerLegR, {-0.10f, 0.095f, -0.01f}},
};

Quat rotX(float a) { return axisAngle({1, 0, 0}, a); }
Quat rotY(float a) { return axisAngle({0, 1, 0}, a); }
Quat rotZ(float a) { return axisAngle({0, 0, 1}, a); }

Quat mul(Quat a, Quat b) {  // a * b: b first, then a
    return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

float pos(float x) { return x > 0 ? x : 0; }

// One leg at cycle angle th (foot strike near th = pi/2, swing around th = 0).
// Rotations about +X: negative swings the thigh forward, positive bends the knee.
void leg(float th, Quat& hip, Quat& knee, Quat& ankle) {
    float flex = 0.3f + 0.55f * sinf(th);  // hip flexion, radians
    float c = pos(cosf(th + 0.35f));
    float s = pos(-cosf(th));
    float kneeFlex = 0.25f + 1.4f * c * c + 0.3f * s * s;
    hip = rotX(-flex);
    knee = rotX(kneeFlex);
    ankle = rotX(0.3f * sinf(th - 0.5f) - 0.1f);
}

// One arm (side = +1 left, -1 right) swinging opposite to its leg.
void arm(float th, float side, Quat& shoulder, Quat& elbow) {
    shoulder = mul(rotZ(side * 0.12f), rotX(0.1f + 0.55f * sinf(th)));
    elbow = rotX(-(1.4f - 0.25f * sinf(th)));
}

// Every bone's local rotation and the root offset at cycle angle th.
void pose(float th, Quat* r, Vec3& root) {
    for (int b = 0; b < kRunnerBones; ++b) r[b] = Quat{};
    r[kPelvis] = mul(rotY(-0.12f * sinf(th)), rotZ(0.04f * sinf(th)));
    r[kSpine] = rotX(0.12f + 0.03f * cosf(2 * th));
    r[kChest] = mul(rotY(0.22f * sinf(th)), rotX(0.05f));
    r[kNeck] = rotX(-0.1f);
    r[kHead] = mul(rotY(-0.1f * sinf(th)), rotX(-0.05f));
    leg(th, r[kUpperLegL], r[kLowerLegL], r[kFootL]);
    leg(th + kPi, r[kUpperLegR], r[kLowerLegR], r[kFootR]);
    arm(th, 1.0f, r[kUpperArmL], r[kLowerArmL]);
    arm(th + kPi, -1.0f, r[kUpperArmR], r[kLowerArmR]);
    r[kHandL] = rotX(-0.2f);
    r[kHandR] = rotX(-0.2f);
    root = {0.015f * sinf(th), 0, 0};
}

// Points under the soles of the shoes (1.8 m figure), for ground contact.
const Vec3 kSole[] = {{0.10f, 0.017f, -0.06f},
                      {0.10f, 0.013f, -0.03f},
                      {0.10f, 0.012f, 0.05f},
                      {0.10f, 0.009f, 0.13f},
                      {0.10f, 0.018f, 0.16f}};

// Root height that puts the lower foot's sole on the ground (y = 0), plus
// the lift of the flight phase, twice a cycle between the stances.
float rootHeight(const Skeleton& rest, const Quat* r, float th) {
    Skeleton one = rest;
    one.times = {0.0f};
    one.rotation.assign(r, r + kRunnerBones);
    one.rootTranslation = {Vec3{}};
    std::vector<Affine> skin;
    poseSkeleton(one, 0.0f, skin);
    float low = 1e9f;
    for (const Vec3& p : kSole) {
        low = std::min(low, skin[kFootL].point(p).y);
        low = std::min(low, skin[kFootR].point({-p.x, p.y, p.z}).y);
    }
    float flight = cosf(2 * (th - 2.0f));
    return 0.004f - low + 0.05f * (flight > 0 ? flight : 0.0f);
}

}  // namespace

Vec3 runnerJoint(int bone) { return kBones[bone].joint; }

Skeleton makeRunnerSkeleton(float height, float phase) {
    const float s = height / kRunnerRestHeight;
    Skeleton rest;  // the 1.8 m figure, for ground contact
    for (const BoneDef& b : kBones) {
        rest.parent.push_back(b.parent);
        rest.joint.push_back(b.joint);
        rest.name.push_back(b.name);
    }
    Skeleton sk;
    for (const BoneDef& b : kBones) {
        sk.parent.push_back(b.parent);
        sk.joint.push_back(b.joint * s);
        sk.name.push_back(b.name);
    }
    const int keys = kRunCycleKeys + 1;
    sk.times.resize(keys);
    sk.rotation.resize(size_t(keys) * kRunnerBones);
    sk.rootTranslation.resize(keys);
    for (int k = 0; k < keys; ++k) {
        // The clip starts `phase` into the cycle; the last key repeats the first exactly.
        int kk = k == kRunCycleKeys ? 0 : k;
        float th = 2 * kPi * (float(kk) / float(kRunCycleKeys) + phase);
        sk.times[k] = kRunCycleSeconds * float(k) / float(kRunCycleKeys);
        Vec3 root;
        Quat* r = &sk.rotation[size_t(k) * kRunnerBones];
        pose(th, r, root);
        root.y = rootHeight(rest, r, th);
        sk.rootTranslation[k] = root * s;
    }
    return sk;
}

}  // namespace strata
