// accel/kdtree/kd_config.h — the kd-tree build configuration the options ask for
// ([A]-[E] and strata's switches). Every builder call that
// honours the options takes it from here: the renderers, validate, kdtable.
#pragma once

#include "accel/kdtree/kd_rules.h"
#include "core/options.h"

namespace strata {

inline KdConfig kdConfigOf(const AccelOptions& a) {
    KdConfig c;
    c.opts = a.kdOpts;
    c.lookahead = a.kdLookahead ? kKdMaxLookahead : 0;
    c.snsCompact = a.kdSnsCompact;
    c.snsSubtree = a.kdSmall == KdSmall::Subtree;
    c.largeSah = a.kdLargeSplit == KdLargeSplit::Sah;
    c.clipLeaves = a.kdClipLeaves;
    return c;
}

}  // namespace strata
