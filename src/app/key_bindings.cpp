#include "app/key_bindings.h"

#include <GLFW/glfw3.h>

#include <cstdlib>

#include "core/error.h"

namespace strata {
namespace {

struct ActionInfo {
    const char* name;
    int defaultKey;
};
// Indexed by KeyAction.
constexpr ActionInfo kActions[int(KeyAction::Count)] = {
    {"forward", GLFW_KEY_W},      {"back", GLFW_KEY_S},           {"left", GLFW_KEY_A},
    {"right", GLFW_KEY_D},        {"down", GLFW_KEY_Q},           {"up", GLFW_KEY_E},
    {"look_left", GLFW_KEY_LEFT}, {"look_right", GLFW_KEY_RIGHT}, {"look_up", GLFW_KEY_UP},
    {"look_down", GLFW_KEY_DOWN}, {"reset_camera", GLFW_KEY_R},   {"pause", GLFW_KEY_SPACE},
    {"toggle_ui", GLFW_KEY_TAB},  {"record", GLFW_KEY_F9},        {"screenshot", GLFW_KEY_F12},
};

struct NamedKey {
    const char* name;
    int key;
};
constexpr NamedKey kNamedKeys[] = {
    {"SPACE", GLFW_KEY_SPACE},
    {"TAB", GLFW_KEY_TAB},
    {"ENTER", GLFW_KEY_ENTER},
    {"BACKSPACE", GLFW_KEY_BACKSPACE},
    {"INSERT", GLFW_KEY_INSERT},
    {"DELETE", GLFW_KEY_DELETE},
    {"HOME", GLFW_KEY_HOME},
    {"END", GLFW_KEY_END},
    {"PAGE_UP", GLFW_KEY_PAGE_UP},
    {"PAGE_DOWN", GLFW_KEY_PAGE_DOWN},
    {"LEFT", GLFW_KEY_LEFT},
    {"RIGHT", GLFW_KEY_RIGHT},
    {"UP", GLFW_KEY_UP},
    {"DOWN", GLFW_KEY_DOWN},
    {"PAUSE", GLFW_KEY_PAUSE},
    {"PRINT_SCREEN", GLFW_KEY_PRINT_SCREEN},
    {"COMMA", GLFW_KEY_COMMA},
    {"PERIOD", GLFW_KEY_PERIOD},
    {"MINUS", GLFW_KEY_MINUS},
    {"EQUAL", GLFW_KEY_EQUAL},
    {"SLASH", GLFW_KEY_SLASH},
    {"SEMICOLON", GLFW_KEY_SEMICOLON},
    {"APOSTROPHE", GLFW_KEY_APOSTROPHE},
    {"LEFT_BRACKET", GLFW_KEY_LEFT_BRACKET},
    {"RIGHT_BRACKET", GLFW_KEY_RIGHT_BRACKET},
    {"BACKSLASH", GLFW_KEY_BACKSLASH},
    {"GRAVE_ACCENT", GLFW_KEY_GRAVE_ACCENT},
};

int keyFromName(const std::string& n) {
    if (n.size() == 1 && ((n[0] >= 'A' && n[0] <= 'Z') || (n[0] >= '0' && n[0] <= '9'))) return n[0];  // GLFW = ASCII
    if (n.size() == 1 && n[0] >= 'a' && n[0] <= 'z') return n[0] - 'a' + 'A';
    if (n.size() >= 2 && n.size() <= 3 && (n[0] == 'F' || n[0] == 'f')) {
        int f = std::atoi(n.c_str() + 1);
        if (f >= 1 && f <= 25 && std::to_string(f) == n.substr(1)) return GLFW_KEY_F1 + f - 1;
    }
    if (n.size() == 4 && n.compare(0, 3, "KP_") == 0 && n[3] >= '0' && n[3] <= '9') return GLFW_KEY_KP_0 + (n[3] - '0');
    for (const NamedKey& k : kNamedKeys)
        if (n == k.name) return k.key;
    return -1;
}

}  // namespace

KeyBindings::KeyBindings() {
    for (int a = 0; a < int(KeyAction::Count); ++a) keys_[a] = kActions[a].defaultKey;
}

const char* KeyBindings::actionName(KeyAction a) { return kActions[int(a)].name; }

std::string KeyBindings::keyName(int key) {
    if ((key >= 'A' && key <= 'Z') || (key >= '0' && key <= '9')) return std::string(1, char(key));
    if (key >= GLFW_KEY_F1 && key <= GLFW_KEY_F25) return "F" + std::to_string(key - GLFW_KEY_F1 + 1);
    if (key >= GLFW_KEY_KP_0 && key <= GLFW_KEY_KP_9) return "KP_" + std::to_string(key - GLFW_KEY_KP_0);
    for (const NamedKey& k : kNamedKeys)
        if (k.key == key) return k.name;
    return "?";
}

int KeyBindings::keyCode(const std::string& name) { return keyFromName(name); }

void KeyBindings::bind(const std::string& action, const std::string& key) {
    int a = 0;
    while (a < int(KeyAction::Count) && action != kActions[a].name) ++a;
    if (a == int(KeyAction::Count)) {
        std::string known;
        for (const ActionInfo& i : kActions) known += (known.empty() ? "" : ", ") + std::string(i.name);
        throw Error("keys: unknown action '" + action + "' (actions: " + known + ")");
    }
    int k = keyFromName(key);
    if (k < 0)
        throw Error("keys." + action + ": unknown key '" + key +
                    "' (use GLFW's names without GLFW_KEY_: W, 7, F9, SPACE, LEFT, KP_8, ...)");
    keys_[a] = k;
}

}  // namespace strata
