// render/rebuild_policy.h — accel.rebuild: every frame (the default: what the
// tool measures), or only when the scene moved or a build option changed.
#pragma once

#include "core/options.h"

namespace strata {

class RebuildPolicy {
public:
    // True when this frame must animate and rebuild; remembers what it built.
    // vd: the VD options the middle level's boxes depend on.
    bool needed(const AccelOptions& a, const VdOptions& vd, float sceneTime) {
        const bool same = built_ && sceneTime == time_ && a == accel_ && vd.maxLevel == vdMaxLevel_ &&
                          vd.pairCull == vdPairCull_ && vd.middle == vdMiddle_;
        if (a.rebuild == Rebuild::Animated && same) return false;
        built_ = true;
        time_ = sceneTime;
        accel_ = a;
        vdMaxLevel_ = vd.maxLevel;
        vdPairCull_ = vd.pairCull;
        vdMiddle_ = vd.middle;
        return true;
    }

private:
    bool built_ = false;
    float time_ = 0;
    AccelOptions accel_;
    int vdMaxLevel_ = 0;
    bool vdPairCull_ = false;
    VdMiddle vdMiddle_ = VdMiddle::Separate;  // vd.middle_level: the patch boxes in the triangles' tree or not
};

}  // namespace strata
