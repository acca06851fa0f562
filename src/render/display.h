// render/display.h — what the display shows of a pixel: the film tone mapped
// (its mean over the samples), the view.filter's output, or view.heatmap's
// colour. The backends' tone-map kernels and loops, and readImage, call it.
#pragma once

#include "render/heatmap.h"
#include "render/integrator.h"

namespace strata {

struct DisplayParams {
    float invSamples = 0, exposureScale = 1;
    Tonemap op = Tonemap::Aces;
    const Vec3* filtered = nullptr;  // view.filter: the filtered radiance per pixel (nullptr: off)
    const uint32_t* heat = nullptr;  // view.heatmap: the shown count per pixel (nullptr: off)
    float heatTop = 0;               // heatmapScaleOf
};

STRATA_HD uint32_t stageDisplay(const Vec3* film, uint32_t pixel, const DisplayParams& d) {
    if (d.heat) return heatColor(float(d.heat[pixel]), d.heatTop);
    if (d.filtered) return tonemapPixel(d.filtered[pixel], d.exposureScale, d.op);
    return stageTonemap(film, pixel, d.invSamples, d.exposureScale, d.op);
}

}  // namespace strata
