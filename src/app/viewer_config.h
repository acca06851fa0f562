// app/viewer_config.h — the viewer's config file (config/default.json):
// window, display path, overlay history, option defaults and key bindings.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "app/key_bindings.h"

namespace strata {

// Window sides and the render scale the viewer accepts (config and flags).
constexpr int kMinWindowSide = 64, kMaxWindowSide = 16384;
constexpr double kMinRenderScale = 0.05, kMaxRenderScale = 4.0;

struct ViewerConfig {
    int width = 1600, height = 900;
    bool vsync = false;
    float scale = 1.0f;
    std::string display = "auto";
    size_t history = 300;
    std::string outputFolder;  // output.folder: screenshots and recordings (empty: the working directory)
    std::vector<std::pair<std::string, std::string>> options;  // key, value as text
    KeyBindings keys;
};

// Reads PATH. A missing file gives the built-in defaults unless `given`
// (the user named it with --config); anything else wrong — bad JSON, an
// unknown key (a typo), a value of the wrong type or out of range — throws
// strata::Error "PATH[:LINE:COLUMN]: field: what".
ViewerConfig loadViewerConfig(const std::string& path, bool given);

// The checks of the window flags, shared with the config: throws
// "what: N is out of range (64-16384)" and the like.
void checkWindowSide(const std::string& what, long long v);
void checkRenderScale(const std::string& what, double v);

}  // namespace strata
