// scene/generators/runner_rig.h — the runner's skeleton: bone ids, rest joints
// (for a 1.8 m figure facing +Z, left side at +X) and the run-cycle clip.
#pragma once

#include "core/vec.h"
#include "scene/scene.h"

namespace strata {

enum RunnerBone : int {
    kPelvis,
    kSpine,
    kChest,
    kNeck,
    kHead,
    kUpperArmL,
    kLowerArmL,
    kHandL,
    kUpperArmR,
    kLowerArmR,
    kHandR,
    kUpperLegL,
    kLowerLegL,
    kFootL,
    kUpperLegR,
    kLowerLegR,
    kFootR,
    kRunnerBones
};

constexpr float kRunnerRestHeight = 1.8f;  // the rest figure's height; others are scaled
constexpr float kRunCycleSeconds = 0.7f;   // one stride pair (left + right step)
constexpr int kRunCycleKeys = 24;          // key intervals per cycle (25 keys, the last = the first)

// Skeleton of a runner `height` metres tall whose clip starts `phase` (0..1)
// into the run cycle: parents, joints, names and the looping clip.
Skeleton makeRunnerSkeleton(float height, float phase);

// Rest joint of a bone in the 1.8 m figure.
Vec3 runnerJoint(int bone);

}  // namespace strata
