// render/heatmap.h — view.heatmap: per pixel, what the camera ray's traversal
// of the current structure did (accel/bvh_traverse.h's TraversalStats), as a
// colour on one scale the user sets (view.heatmap_max), the same for every
// builder. One camera ray through each pixel's centre (no jitter: the same
// rays whatever the frame), closest hit, after the frame's own stages; both
// backends run this file. The frame's totals of all four counts go to the
// FrameRecord (the CSV's heat_* columns) whichever one is shown.
#pragma once

#if defined(__CUDACC__)
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#endif

#include "core/options.h"
#include "render/scene_view.h"

namespace strata {

enum HeatTotal : uint32_t { kHeatNodes = 0, kHeatTriangles = 1, kHeatSteps = 2, kHeatBlas = 3, kNumHeatTotals = 4 };

// The count at the top of the scale: the option, or the quantity's default
// (about twice what an LBVH's camera rays average on Sponza: 56 nodes, 4
// triangles, 15 steps; BLAS entries: rigid-160's camera rays enter 1.45 in
// instanced mode; a costly region shows red, a saturated one white).
STRATA_HD float heatmapScaleOf(Heatmap q, float userMax) {
    if (userMax > 0) return userMax;
    return q == Heatmap::Nodes ? 100.0f : q == Heatmap::Triangles ? 20.0f : q == Heatmap::Blas ? 4.0f : 30.0f;
}

// One of the four counts.
STRATA_HD uint32_t heatOf(const TraversalStats& st, Heatmap q) {
    return q == Heatmap::Triangles ? st.primsTested
           : q == Heatmap::Steps   ? st.steps
           : q == Heatmap::Blas    ? st.blasEntries
                                   : st.nodesVisited;
}

// The colour scale: dark blue (0) through blue, cyan, green and yellow to red
// (at the scale's top); counts past the top fade to white, so a saturated
// region reads as such. RGBA8 as the tone mapper writes it.
STRATA_HD uint32_t heatColor(float count, float top) {
    // Anchors at 0, 1/5, 2/5, ... 1 of the scale.
    const float ramp[6][3] = {{0.02f, 0.02f, 0.20f}, {0.10f, 0.25f, 0.95f}, {0.05f, 0.80f, 0.90f},
                              {0.20f, 0.85f, 0.20f}, {0.98f, 0.90f, 0.10f}, {0.90f, 0.10f, 0.05f}};
    float x = top > 0 ? count / top : 0.0f;
    float r, g, b;
    if (x >= 1.0f) {
        const float w = fminf((x - 1.0f) * 2.0f, 1.0f);  // white at twice the top
        r = ramp[5][0] + (1.0f - ramp[5][0]) * w;
        g = ramp[5][1] + (1.0f - ramp[5][1]) * w;
        b = ramp[5][2] + (1.0f - ramp[5][2]) * w;
    } else {
        x = fmaxf(x, 0.0f) * 5.0f;
        const int i = imin(int(x), 4);
        const float f = x - float(i);
        r = ramp[i][0] + (ramp[i + 1][0] - ramp[i][0]) * f;
        g = ramp[i][1] + (ramp[i + 1][1] - ramp[i][1]) * f;
        b = ramp[i][2] + (ramp[i + 1][2] - ramp[i][2]) * f;
    }
    return uint32_t(r * 255.0f + 0.5f) | (uint32_t(g * 255.0f + 0.5f) << 8) | (uint32_t(b * 255.0f + 0.5f) << 16) |
           (255u << 24);
}

// Adds v to *p once per warp (the warp's sum) on the GPU, once per call on
// the host.
STRATA_HD void addToTotal(unsigned long long* p, unsigned long long v) {
#if defined(__CUDA_ARCH__)
    namespace cg = cooperative_groups;
    cg::coalesced_group g = cg::coalesced_threads();
    const unsigned long long sum = cg::reduce(g, v, cg::plus<unsigned long long>());
    if (g.thread_rank() == 0) atomicAdd(p, sum);
#else
    __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
#endif
}

// The heatmap pass for one pixel, traversal kind K: writes the shown count
// to heat[pixel] and adds all four to totals[kNumHeatTotals].
template <TraceKind K>
STRATA_HD void stageHeatmapAs(const SceneView& s, uint32_t width, uint32_t height, Heatmap shown, uint32_t* heat,
                              unsigned long long* totals, uint32_t pixel) {
    TraversalStats st;
    (void)traceClosestAnyTreeAs<K>(s, pixelCentreRay(s.camera, width, height, pixel), &st);
    heat[pixel] = heatOf(st, shown);
    addToTotal(&totals[kHeatNodes], st.nodesVisited);
    addToTotal(&totals[kHeatTriangles], st.primsTested);
    addToTotal(&totals[kHeatSteps], st.steps);
    addToTotal(&totals[kHeatBlas], st.blasEntries);
}

}  // namespace strata
