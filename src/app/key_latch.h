// app/key_latch.h — the viewer's key presses as events, not as state. GLFW's
// key callback appends every press (not its auto-repeats); each frame takes
// them all. Dear ImGui 1.86 (Debian's) reads keys as state once per frame:
// a press and release inside one slow frame never registered (a tapped
// Space at 1 fps was lost 3 times of 3), and a held key repeated (a held Tab
// toggled the panel an even number of times). Here every press counts once,
// whatever the frame time. No GLFW here: the two GLFW values it reads are
// checked where GLFW is included (viewer.cpp).
#pragma once

#include <vector>

namespace strata {

struct KeyPress {
    int key;     // GLFW key code
    bool shift;  // Shift was held at the press
};

class KeyLatch {
public:
    static constexpr int kPressAction = 1;  // GLFW_PRESS (GLFW_RELEASE 0, GLFW_REPEAT 2 are not presses)
    static constexpr int kShiftMod = 1;     // GLFW_MOD_SHIFT

    // GLFW's key callback's action and mods.
    void onKey(int key, int action, int mods) {
        if (action == kPressAction) pending_.push_back({key, (mods & kShiftMod) != 0});
    }
    // The presses since the last call, in order.
    std::vector<KeyPress> take() {
        std::vector<KeyPress> out;
        out.swap(pending_);
        return out;
    }

private:
    std::vector<KeyPress> pending_;
};

}  // namespace strata
