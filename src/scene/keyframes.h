// scene/keyframes.h — evaluation of rigid keyframed animation and camera paths.
#pragma once

#include "scene/scene.h"

namespace strata {

// Maps scene time to a track's local time: wraps when looping, clamps otherwise.
float trackTime(const std::vector<float>& times, bool loop, float t);

Affine evaluateTrs(const TrsKeyframes& k, float t);

// worldFromObject of an instance at scene time t.
Affine instanceTransformAt(const Instance& inst, float t);

struct CameraPose {
    Vec3 position, target, up;
    float fovYDegrees;
};
CameraPose cameraAt(const Camera& cam, float t);

}  // namespace strata
