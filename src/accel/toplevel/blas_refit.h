// accel/toplevel/blas_refit.h — accel.rebuild = refit | auto in instanced
// mode: each deforming instance's BLAS (a Morton-order BVH over its posed
// triangles) is refitted frame after frame instead of rebuilt, and with auto
// rebuilt once its SAH has grown by accel.refit_growth over the tree it was
// built as — staggered: of the BLASes past the threshold in one frame, only
// the one grown most is rebuilt, the others refit until their turn, so the
// rebuild cost spreads over frames instead of landing all in one; a BLAS
// grown past kStaggerCap times the threshold does not wait. One decision
// for the host (top_level_host.cpp) and the GPU (top_level_gpu.cu).
// The static meshes' BLASes are built once (object space) and never refitted;
// the top level is rebuilt every frame.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/options.h"

namespace strata {

// What a deforming BLAS reports after a frame: the panel's per-mesh line.
struct BlasRefit {
    std::string name;     // its instance's
    uint32_t refits = 0;  // frames refitted since it was built
    float sahGrowth = 0;  // auto: its SAH over the built tree's, minus 1 (a frame late on the GPU)
};

struct BlasRefitState {
    bool canRefit = false;  // built before, over the same count, builder and Morton bits
    float sahGrowth = 0;    // the latest measurement (auto)
};

// A BLAS grown past this many times accel.refit_growth is rebuilt in the
// frame it is seen, whatever the others: the staggering only delays.
constexpr float kStaggerCap = 4.0f;

// Per deforming BLAS: true to refit this frame, false to build it. fresh:
// the BLASes' trees are not this plan's last frame's (a switch of builder,
// Morton bits or mode came between): all are built.
inline std::vector<bool> blasRefitPlan(const AccelOptions& o, const std::vector<BlasRefitState>& blas,
                                       bool fresh = false) {
    std::vector<bool> refit(blas.size(), false);
    if ((o.rebuild != Rebuild::Refit && o.rebuild != Rebuild::Auto) || fresh) return refit;
    int grownMost = -1;
    for (size_t b = 0; b < blas.size(); ++b) {
        refit[b] = blas[b].canRefit;
        if (o.rebuild != Rebuild::Auto || !blas[b].canRefit || !(blas[b].sahGrowth > o.refitGrowth)) continue;
        if (o.refitGrowth > 0 && blas[b].sahGrowth > kStaggerCap * o.refitGrowth)
            refit[b] = false;  // too far gone to wait
        else if (grownMost < 0 || blas[b].sahGrowth > blas[size_t(grownMost)].sahGrowth)
            grownMost = int(b);
    }
    if (grownMost >= 0) refit[size_t(grownMost)] = false;  // one staggered rebuild a frame
    return refit;
}

// The frame's summary for the timings CSV (refits_since_build, sah_growth):
// the BLAS grown most (with auto), else the one refitted longest.
inline BlasRefit blasRefitSummary(const std::vector<BlasRefit>& blas) {
    BlasRefit s;
    for (size_t k = 0; k < blas.size(); ++k) {
        const BlasRefit& b = blas[k];
        if (k == 0 || b.sahGrowth > s.sahGrowth || (b.sahGrowth == s.sahGrowth && b.refits > s.refits)) s = b;
    }
    return s;
}

}  // namespace strata
