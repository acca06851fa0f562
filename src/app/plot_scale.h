// app/plot_scale.h — the Timings window's plot arithmetic, apart from ImGui
// (tested on its own): a y axis that ends at a round number of milliseconds,
// the frames a window of the history shows, the frame under the mouse, and
// the labels of option changes.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace strata {

// The smallest of 1, 2, 2.5, 5 times a power of ten at or above v (0 for v <= 0):
// the top of a y axis, and its halfway tick a round number too.
inline double niceCeil(double v) {
    if (!(v > 0) || !std::isfinite(v)) return 0;
    const double p = std::pow(10.0, std::floor(std::log10(v)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (m * p >= v * (1 - 1e-12)) return m * p;
    return 10 * p;
}

// The last `window` of `available` frames: [first, available). A short run
// fills the plot (its x axis spans the frames there are).
struct PlotRange {
    size_t first = 0, count = 0;
};
inline PlotRange plotRange(size_t available, size_t window) {
    const size_t n = std::min(available, std::max<size_t>(window, 2));
    return {available - n, n};
}

// The frame (index into the range) under x in a plot of `width` starting at
// x0, over `count` frames spread over the width; -1 outside.
inline long frameAt(float x, float x0, float width, size_t count) {
    if (count == 0 || width <= 0 || x < x0 || x > x0 + width) return -1;
    if (count == 1) return 0;
    const float dx = width / float(count - 1);
    return long(std::min<float>(std::floor((x - x0) / dx + 0.5f), float(count - 1)));
}

// An option change as a marker's label: the first two "key=value", then
// how many more ("accel.builder=hploc, accel.kd_a=true +3").
inline std::string changeLabel(const std::vector<std::string>& changes) {
    std::string s;
    for (size_t i = 0; i < changes.size() && i < 2; ++i) s += (i ? ", " : "") + changes[i];
    if (changes.size() > 2) s += " +" + std::to_string(changes.size() - 2);
    return s;
}

}  // namespace strata
