// accel/lbvh/lbvh_variant.h — the three LBVH builders (one per paper
// algorithm) and how accel.builder / accel.traversal select them. Both
// backends read the options here every frame, so a switch made between
// frames takes effect on the next one.
#pragma once

#include <string>

#include "accel/bvh.h"
#include "core/options.h"

namespace strata {

enum class LbvhVariant {
    Karras,       // lbvh-karras:  Karras 2012, hierarchy pass then bottom-up boxes
    Apetrei,      // lbvh-apetrei: Apetrei 2014 (Algorithm 3), one pass, Apetrei's ordering
    ApetreiSkip,  // lbvh-skip:    modified Apetrei (Algorithm 4), Karras's ordering + skip links
};

inline const char* lbvhVariantName(LbvhVariant v) {
    switch (v) {
        case LbvhVariant::Karras: return "lbvh-karras";
        case LbvhVariant::Apetrei: return "lbvh-apetrei";
        case LbvhVariant::ApetreiSkip: return "lbvh-skip";
    }
    return "?";
}

inline bool isLbvhBuilder(const std::string& builder) {
    return builder == "lbvh-karras" || builder == "lbvh-apetrei" || builder == "lbvh-skip";
}

// The LBVH variant of accel.builder; Karras for a builder that is not an
// LBVH (cpu-sah has no GPU version: the CLI refuses it on the CUDA backend).
inline LbvhVariant lbvhVariantOf(const AccelOptions& o) {
    if (o.builder == "lbvh-apetrei") return LbvhVariant::Apetrei;
    if (o.builder == "lbvh-skip") return LbvhVariant::ApetreiSkip;
    return LbvhVariant::Karras;
}

// Whether the frame runs through the instance hierarchy (accel.mode
// instanced); the kd-tree is flat mode only, so with it the frame is flat.
inline bool runsInstanced(const AccelOptions& o) { return o.mode == "instanced" && o.builder != "kdtree"; }

// The traversal to run. Stackless needs the skip links that only lbvh-skip
// installs: with any other builder the stack traversal runs (Options::check
// turns that combination into an error on the CLI, once the scene file
// and the flags are applied; a live
// change in the viewer may pass through it while two options are flipped).
inline BvhTraversal traversalOf(const AccelOptions& o) {
    return o.traversal == "stackless" && o.builder == "lbvh-skip" ? BvhTraversal::Stackless : BvhTraversal::Stack;
}

}  // namespace strata
