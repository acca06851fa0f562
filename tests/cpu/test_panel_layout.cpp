// app/panel_layout.h: the viewer's panel and timings windows open inside the
// framebuffer and never overlap, at any size from tiny to 4K.
#include <gtest/gtest.h>

#include "app/panel_layout.h"

using namespace strata;

namespace {

bool inside(const WindowRect& r, float w, float h) {
    return r.x >= 0 && r.y >= 0 && r.x + r.w <= w && r.y + r.h <= h && r.w > 0 && r.h > 0;
}

bool overlap(const WindowRect& a, const WindowRect& b) {
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

}  // namespace

TEST(PanelLayout, WindowsStayInsideAndApartAtEverySize) {
    for (float w : {200.f, 320.f, 530.f, 640.f, 800.f, 849.f, 850.f, 1280.f, 1920.f, 3840.f})
        for (float h : {120.f, 200.f, 450.f, 720.f, 1080.f, 2160.f}) {
            PanelLayout l = panelLayout(w, h);
            EXPECT_TRUE(inside(l.panel, w, h)) << w << "x" << h;
            EXPECT_TRUE(inside(l.timings, w, h)) << w << "x" << h;
            EXPECT_FALSE(overlap(l.panel, l.timings)) << w << "x" << h;
        }
}

TEST(PanelLayout, PreferredSizesWhereTheyFit) {
    PanelLayout l = panelLayout(1920, 1080);
    EXPECT_FLOAT_EQ(l.panel.w, 400);
    EXPECT_FLOAT_EQ(l.panel.h, 700);
    EXPECT_FLOAT_EQ(l.timings.w, 420);
    EXPECT_FLOAT_EQ(l.timings.x + l.timings.w, 1910);  // at the right edge
    PanelLayout narrow = panelLayout(800, 450);        // the overlapping case
    EXPECT_FLOAT_EQ(narrow.panel.w, narrow.timings.w);
    EXPECT_LE(narrow.panel.x + narrow.panel.w, narrow.timings.x);
}
