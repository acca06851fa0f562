// The viewer's key presses as events (app/key_latch.h): a press and release
// inside one slow frame counts once, two taps count twice, a held key's
// auto-repeats do not count, Shift at the press is kept, and a frame takes
// the presses only once.
#include <gtest/gtest.h>

#include "app/key_latch.h"

using namespace strata;

namespace {
constexpr int kRelease = 0, kPress = KeyLatch::kPressAction, kRepeat = 2;  // GLFW's actions
constexpr int kSpace = 32, kTab = 258, kF12 = 301;                         // GLFW's key codes
}  // namespace

TEST(KeyLatch, EveryPressCountsOnceWhateverTheFrameTime) {
    KeyLatch latch;
    // One slow frame: Space tapped (pressed and released before the frame
    // reads the keys), Tab held (auto-repeats), then Space tapped again.
    latch.onKey(kSpace, kPress, 0);
    latch.onKey(kSpace, kRelease, 0);
    latch.onKey(kTab, kPress, 0);
    for (int i = 0; i < 5; ++i) latch.onKey(kTab, kRepeat, 0);
    latch.onKey(kSpace, kPress, 0);
    latch.onKey(kSpace, kRelease, 0);
    const std::vector<KeyPress> frame = latch.take();
    ASSERT_EQ(frame.size(), 3u);
    EXPECT_EQ(frame[0].key, kSpace);
    EXPECT_EQ(frame[1].key, kTab);
    EXPECT_EQ(frame[2].key, kSpace);
    // The next frame sees nothing new; Tab's release is no press.
    latch.onKey(kTab, kRelease, 0);
    EXPECT_TRUE(latch.take().empty());
}

TEST(KeyLatch, ShiftAtThePressIsKept) {
    KeyLatch latch;
    latch.onKey(kF12, kPress, KeyLatch::kShiftMod);
    latch.onKey(kF12, kRelease, 0);
    latch.onKey(kF12, kPress, 0);
    const std::vector<KeyPress> frame = latch.take();
    ASSERT_EQ(frame.size(), 2u);
    EXPECT_TRUE(frame[0].shift);
    EXPECT_FALSE(frame[1].shift);
}
