// app/plot_scale.h and Options::changedFrom: the Timings plots' y axis ends
// at a round number at or above the largest value, a short run fills the
// plot, the frame under the mouse is the nearest one, and an option change
// is labelled with exactly what changed.
#include <gtest/gtest.h>

#include "app/plot_scale.h"
#include "core/options.h"

using namespace strata;

TEST(PlotScale, AxisEndsAtTheNextRoundNumber) {
    EXPECT_DOUBLE_EQ(niceCeil(0.7), 1.0);
    EXPECT_DOUBLE_EQ(niceCeil(1.0), 1.0);
    EXPECT_DOUBLE_EQ(niceCeil(1.01), 2.0);
    EXPECT_DOUBLE_EQ(niceCeil(2.3), 2.5);
    EXPECT_DOUBLE_EQ(niceCeil(3.2), 5.0);
    EXPECT_DOUBLE_EQ(niceCeil(7.0), 10.0);
    EXPECT_DOUBLE_EQ(niceCeil(0.0123), 0.02);
    EXPECT_DOUBLE_EQ(niceCeil(7771.3), 10000.0);
    EXPECT_EQ(niceCeil(0.0), 0.0);
    EXPECT_EQ(niceCeil(-1.0), 0.0);
    for (double v = 1e-4; v < 1e5; v *= 1.37) {
        EXPECT_GE(niceCeil(v), v);
        EXPECT_LE(niceCeil(v), 2.5 * v);  // never more than 2.5x the data: the line uses the plot
    }
}

TEST(PlotScale, ShortRunsFillThePlotAndLongOnesShowTheLastWindow) {
    PlotRange r = plotRange(7, 300);
    EXPECT_EQ(r.first, 0u);
    EXPECT_EQ(r.count, 7u);
    r = plotRange(1000, 300);
    EXPECT_EQ(r.first, 700u);
    EXPECT_EQ(r.count, 300u);
    r = plotRange(1000, 0);  // at least two frames make a line
    EXPECT_EQ(r.count, 2u);
}

TEST(PlotScale, FrameUnderTheMouseIsTheNearest) {
    EXPECT_EQ(frameAt(100.0f, 100.0f, 200.0f, 5), 0);
    EXPECT_EQ(frameAt(300.0f, 100.0f, 200.0f, 5), 4);
    EXPECT_EQ(frameAt(124.0f, 100.0f, 200.0f, 5), 0);  // frames every 50: 124 is nearer 100
    EXPECT_EQ(frameAt(126.0f, 100.0f, 200.0f, 5), 1);
    EXPECT_EQ(frameAt(99.0f, 100.0f, 200.0f, 5), -1);
    EXPECT_EQ(frameAt(301.0f, 100.0f, 200.0f, 5), -1);
    EXPECT_EQ(frameAt(150.0f, 100.0f, 200.0f, 0), -1);
    EXPECT_EQ(frameAt(150.0f, 100.0f, 200.0f, 1), 0);
}

TEST(PlotScale, OptionChangesAreLabelledWithWhatChanged) {
    Options a;
    Options b = a;
    EXPECT_TRUE(b.changedFrom(a).empty());
    b.accel.builder = Builder::Hploc;
    b.view.heatmap = Heatmap::Steps;
    EXPECT_EQ(b.changedFrom(a), (std::vector<std::string>{"accel.builder=hploc", "view.heatmap=steps"}));
    EXPECT_EQ(changeLabel(b.changedFrom(a)), "accel.builder=hploc, view.heatmap=steps");
    // A preset changes several switches: each is listed once, the derived
    // views (kd_opts, kd_preset) are not.
    Options c = a;
    c.set("accel.kd_preset", "all");
    const std::vector<std::string> kd = c.changedFrom(a);
    EXPECT_EQ(kd.size(), 5u);
    EXPECT_EQ(kd.front(), "accel.kd_a=true");
    EXPECT_EQ(changeLabel(kd), "accel.kd_a=true, accel.kd_b=true +3");
}
