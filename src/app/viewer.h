// app/viewer.h — the interactive viewer: a GLFW window showing the path-traced
// animated scene, the ImGui panel that changes every option live, the timing
// overlay, the CSV recorder and screenshots.
#pragma once

#include <string>
#include <vector>

namespace strata {

struct ViewerArgs {
    std::string scene;
    std::string config;             // config/default.json by default
    bool configGiven = false;       // --config named it: a missing file is an error
    std::string backend;            // cuda | cpu (default: cuda where there is a GPU)
    std::vector<std::string> sets;  // key=value
    std::string data;               // --data: folder of "data:" models (scene/data_folder.h)
    std::string display = "auto";   // auto | texture | pbo | copy
    std::string record;             // CSV path: record from the first frame
    int frames = 0;                 // with exitAfter: frames to render
    bool exitAfter = false;
    std::string screenshot;    // tone-mapped image at exit
    std::string screenshotUi;  // the whole window at exit
    std::string outputDir;     // --output-dir: where screenshots and recordings go (over the config's output.folder)
    bool linear = false;       // screenshots also write the linear radiance (.pfm)
    bool fixedStep = false;    // scene time advances exactly 1/fps per frame
    int windowWidth = 0, windowHeight = 0;
    float scale = 0;  // render resolution / window size (0: from config)
    bool vsync = false;
    bool hideUi = false;  // start with the panel and overlay hidden (Tab toggles)
    // FRAME:key=value: change an option live before rendering frame FRAME,
    // as the panel does (scripted toggles for reproducible recordings).
    std::vector<std::string> at;
    // FRAME:[SHIFT+]KEY: press and release KEY (a GLFW key name, as in the
    // config's "keys") through the window's key callback before frame FRAME's
    // UI, both inside that one frame (scripted key taps: a slow frame must not
    // lose them).
    std::vector<std::string> press;
};

// One --at entry, parsed and checked against the option registry.
struct ScheduledChange {
    uint64_t frame = 0;
    std::string assignment;  // key=value
};
// Throws strata::Error naming the entry when it is malformed or names an
// unknown option or a value the option refuses.
std::vector<ScheduledChange> parseScheduledChanges(const std::vector<std::string>& at);

// One --press entry.
struct ScheduledPress {
    uint64_t frame = 0;
    int key = 0;  // GLFW key code
    bool shift = false;
};
// Throws strata::Error naming the entry when it is malformed or names an
// unknown key.
std::vector<ScheduledPress> parseScheduledPresses(const std::vector<std::string>& press);

// Runs until the window closes (or --frames N --exit). Returns the exit code.
int runViewer(const ViewerArgs& args);

}  // namespace strata
