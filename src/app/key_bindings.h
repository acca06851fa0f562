// app/key_bindings.h — the viewer's keys, rebindable in config/default.json
// ("keys": {"forward": "W", "record": "F9", ...}). Key names are GLFW's
// without the GLFW_KEY_ prefix (W, F9, SPACE, LEFT, KP_8, ...).
#pragma once

#include <string>

namespace strata {

enum class KeyAction {
    Forward,
    Back,
    Left,
    Right,
    Down,
    Up,  // fly camera
    LookLeft,
    LookRight,
    LookUp,
    LookDown,  // look with keys
    ResetCamera,
    Pause,
    ToggleUi,
    Record,
    Screenshot,  // Shift+Screenshot includes the UI
    Count
};

class KeyBindings {
public:
    KeyBindings();  // the defaults listed in README.md
    // Binds the action named `action` ("forward") to the key named `key`
    // ("W"). Throws strata::Error naming both when either is unknown.
    void bind(const std::string& action, const std::string& key);
    int key(KeyAction a) const { return keys_[int(a)]; }  // a GLFW key code
    static const char* actionName(KeyAction a);
    static std::string keyName(int glfwKey);  // "W", "F9", ... ("?" if unnamed)
    static int keyCode(const std::string& name);  // the GLFW key code of "W", "F9", "SPACE"; -1 if unknown

private:
    int keys_[int(KeyAction::Count)];
};

}  // namespace strata
