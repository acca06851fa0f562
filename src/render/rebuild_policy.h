// render/rebuild_policy.h — accel.rebuild: every frame (the default: what the
// tool measures), or only when the scene moved or a build option changed.
#pragma once

#include <string>

#include "core/options.h"

namespace strata {

class RebuildPolicy {
public:
    // True when this frame must animate and rebuild; remembers what it built.
    // vd: the VD options the middle level's boxes depend on.
    bool needed(const AccelOptions& a, const VdOptions& vd, float sceneTime) {
        const int vdKey = vd.maxLevel * 2 + int(vd.pairCull);
        unsigned kd = unsigned(a.kdA) | unsigned(a.kdB) << 1 | unsigned(a.kdC) << 2 | unsigned(a.kdD) << 3 |
                      unsigned(a.kdE) << 4 | unsigned(a.kdLookahead) << 5 | unsigned(a.kdSnsCompact) << 6;
        bool same = built_ && sceneTime == time_ && a.builder == builder_ && a.mortonBits == bits_ && kd == kd_ &&
                    a.mode == mode_ && vdKey == vdKey_;
        if (a.rebuild == "animated" && same) return false;
        built_ = true;
        time_ = sceneTime;
        builder_ = a.builder;
        bits_ = a.mortonBits;
        kd_ = kd;
        mode_ = a.mode;
        vdKey_ = vdKey;
        return true;
    }

private:
    bool built_ = false;
    float time_ = 0;
    std::string builder_;
    int bits_ = 0;
    unsigned kd_ = 0;
    int vdKey_ = 0;
    std::string mode_;
};

}  // namespace strata
