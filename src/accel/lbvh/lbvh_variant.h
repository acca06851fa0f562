// accel/lbvh/lbvh_variant.h — the Morton-order builders: the three LBVHs
// (one per paper algorithm) and H-PLOC over them and how accel.builder / accel.traversal select them. Both
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
    Hploc,        // hploc:        H-PLOC (Benthin et al. 2024), PLOC merging in the LBVH's subtrees
};

constexpr LbvhVariant kLbvhVariants[] = {LbvhVariant::Karras, LbvhVariant::Apetrei, LbvhVariant::ApetreiSkip,
                                         LbvhVariant::Hploc};

inline const char* lbvhVariantName(LbvhVariant v) {
    switch (v) {
        case LbvhVariant::Karras: return "lbvh-karras";
        case LbvhVariant::Apetrei: return "lbvh-apetrei";
        case LbvhVariant::ApetreiSkip: return "lbvh-skip";
        case LbvhVariant::Hploc: return "hploc";
    }
    return "?";
}

// The LBVH variant of accel.builder; Karras for a builder that is not an
// LBVH (the VD middle level under the kd-tree; cpu-sah has no GPU version).
inline LbvhVariant lbvhVariantOf(const AccelOptions& o) {
    switch (o.builder) {
        case Builder::LbvhApetrei: return LbvhVariant::Apetrei;
        case Builder::LbvhSkip: return LbvhVariant::ApetreiSkip;
        case Builder::Hploc: return LbvhVariant::Hploc;
        default: return LbvhVariant::Karras;
    }
}

// The accel.builder of a variant.
inline Builder builderOf(LbvhVariant v) {
    switch (v) {
        case LbvhVariant::Apetrei: return Builder::LbvhApetrei;
        case LbvhVariant::ApetreiSkip: return Builder::LbvhSkip;
        case LbvhVariant::Hploc: return Builder::Hploc;
        default: return Builder::LbvhKarras;
    }
}

// Whether the frame runs through the instance hierarchy (accel.mode
// instanced: with any builder, the kd-tree's BLASes kd-trees).
inline bool runsInstanced(const AccelOptions& o) { return o.mode == AccelMode::Instanced; }

// The traversal to run. Stackless needs the skip links that only lbvh-skip
// installs: with any other builder the stack traversal runs (the rule is in
// Options::unavailable(); a live change in the viewer may pass through the
// combination while two options are flipped).
inline BvhTraversal traversalOf(const AccelOptions& o) {
    return o.traversal == Traversal::Stackless && o.builder == Builder::LbvhSkip ? BvhTraversal::Stackless
                                                                                 : BvhTraversal::Stack;
}

}  // namespace strata
