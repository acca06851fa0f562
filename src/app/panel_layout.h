// app/panel_layout.h — where the viewer's two windows (the "strata" panel and
// "Timings") open, from the framebuffer's size: side by side when both fit at
// their preferred widths, else sharing the width, else one above the other;
// never overlapping, never past the framebuffer. ImGui takes it on first use
// (the user may move and resize them afterwards).
#pragma once

#include <algorithm>

namespace strata {

struct WindowRect {
    float x = 0, y = 0, w = 0, h = 0;
};

struct PanelLayout {
    WindowRect panel, timings;
};

inline PanelLayout panelLayout(float width, float height) {
    constexpr float kMargin = 10, kPanelW = 400, kPanelH = 700, kTimingsW = 420, kTimingsH = 560;
    const float usableH = std::max(height - 2 * kMargin, 1.0f);
    PanelLayout l;
    if (width >= kPanelW + kTimingsW + 3 * kMargin) {  // side by side, preferred sizes
        l.panel = {kMargin, kMargin, kPanelW, std::min(kPanelH, usableH)};
        l.timings = {width - kMargin - kTimingsW, kMargin, kTimingsW, std::min(kTimingsH, usableH)};
    } else if (width >= 2 * 260 + 3 * kMargin) {  // side by side, sharing the width
        const float w = (width - 3 * kMargin) / 2;
        l.panel = {kMargin, kMargin, w, std::min(kPanelH, usableH)};
        l.timings = {2 * kMargin + w, kMargin, w, std::min(kTimingsH, usableH)};
    } else {  // one above the other, the panel on top
        const float w = std::max(width - 2 * kMargin, 1.0f);
        const float h = std::max((usableH - kMargin) / 2, 1.0f);
        l.panel = {kMargin, kMargin, w, h};
        l.timings = {kMargin, 2 * kMargin + h, w, h};
    }
    return l;
}

}  // namespace strata
