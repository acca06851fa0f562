// strata — the interactive viewer. `strata SCENE` opens a window on the
// path-traced animated scene; see --help.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "app/install_paths.h"
#include "app/viewer.h"
#include "core/build_info.h"
#include "strata_version.h"
#include "core/error.h"
#include "app/viewer_config.h"
#include "core/output_file.h"
#include "core/suggest.h"
#include "scene/data_folder.h"

int main(int argc, char** argv) {
    strata::removeOutputsOnSignal();  // Ctrl-C leaves no half-written screenshot or recording
    strata::ViewerArgs a;
    // The installed config, the source tree's, or the working directory's
    // (a carried binary): app/install_paths.h.
    a.config = strata::installedDataPath("config/default.json", STRATA_SOURCE_TREE);
    CLI::App app{
        "strata: interactive path tracer with per-frame acceleration-structure rebuilds.\n"
        "Keys: WASD/QE move, right-drag or arrows look, Alt/middle-drag orbit, scroll speed,\n"
        "Shift faster, Ctrl slower, R reset camera, Space pause, F9 record CSV,\n"
        "Tab hide/show the panel, F12 screenshot, Shift+F12 screenshot with the panel.\n"
        "Keys are rebound in the config's \"keys\" object (config/default.json lists every action)."};
    app.set_version_flag("--version", std::string("strata ") + STRATA_VERSION + ", " + strata::builtWith() +
                                          "\nshaders: " +
                                          (std::getenv("STRATA_SHADER_DIR") ? std::getenv("STRATA_SHADER_DIR")
                                                                           : strata::installedDataPath(
                                                                                 "shaders", STRATA_SOURCE_TREE)) +
                                          "\nconfig: " + a.config);
    app.footer("Exit status: 0 done; 1 an error strata reports (bad input, a failed write); 2 a usage error.");
    app.add_option("scene", a.scene, "scene file (JSON)")->required();
    app.add_option("--config", a.config, "defaults: window, display path, options")->capture_default_str();
    app.add_option("--backend", a.backend, "cuda | cpu (default: cuda, falling back to cpu without a GPU)");
    app.add_option("--set", a.sets, "key=value: set any option, named as in the scene file (repeatable)");
    app.add_option("--data", a.data,
                   "folder of the models scene files name as \"data:FILE\" (default: $STRATA_DATA, else " +
                       std::string(strata::kDefaultDataFolder) + ")");
    app.add_option("--at", a.at,
                   "FRAME:key=value: change an option live before frame FRAME, as the panel does (repeatable; "
                   "with --record, scripted toggles)");
    app.add_option("--press", a.press,
                   "FRAME:KEY or FRAME:SHIFT+KEY: press and release KEY (the config's key names: F12, SPACE, TAB, "
                   "...) within frame FRAME (repeatable; scripted key taps)");
    app.add_option("--display", a.display, "display path: auto | texture | pbo | copy")->capture_default_str();
    app.add_flag_callback(
        "--no-interop", [&] { a.display = "copy"; }, "display through host memory (no CUDA-GL interop)");
    app.add_option("--record", a.record, "record one CSV row per frame from the start");
    app.add_option("--frames", a.frames, "with --exit: frames to render before quitting");
    app.add_flag("--exit", a.exitAfter, "quit after --frames frames (recordings and screenshots are finished)");
    app.add_option("--screenshot", a.screenshot, "at exit: the rendered image as PNG");
    app.add_option("--screenshot-ui", a.screenshotUi, "at exit: the whole window (panel, overlay) as PNG");
    app.add_option("--output-dir", a.outputDir,
                   "folder of screenshots and recordings, F12/F9 and relative --record/--screenshot paths alike "
                   "(default: the config's output.folder, else the working directory)");
    app.add_flag("--linear", a.linear, "screenshots also write the linear radiance as .pfm beside the PNG");
    app.add_flag("--fixed-step", a.fixedStep, "advance scene time exactly 1/fps per frame");
    app.add_option("--width", a.windowWidth, "window width");
    app.add_option("--height", a.windowHeight, "window height");
    app.add_option("--scale", a.scale, "render resolution as a fraction of the window's");
    app.add_flag("--hide-ui", a.hideUi, "start with the panel and overlay hidden (Tab toggles them)");
    app.add_flag("--vsync", a.vsync, "wait for vertical sync (off by default while measuring)");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // --help and --version exit 0; a usage error 2 (strata's own errors: 1).
        if (app.exit(e) == 0) return 0;
        const std::string hint = strata::usageHint(app, argc, argv);
        if (!hint.empty()) std::fprintf(stderr, "strata: %s\n", hint.c_str());
        return 2;
    }
    a.configGiven = app.get_option("--config")->count() > 0;
    try {
        if (app.get_option("--width")->count()) strata::checkWindowSide("--width", a.windowWidth);
        if (app.get_option("--height")->count()) strata::checkWindowSide("--height", a.windowHeight);
        if (app.get_option("--scale")->count()) strata::checkRenderScale("--scale", a.scale);
    } catch (const strata::Error& e) {
        std::fprintf(stderr, "strata: error: %s\n", e.what());
        return 2;
    }
    if (a.exitAfter && a.frames <= 0) {
        std::fprintf(stderr, "strata: --exit needs --frames N\n");
        return 2;
    }
    try {
        return strata::runViewer(a);
    } catch (const strata::Error& e) {
        std::fprintf(stderr, "strata: error: %s\n", e.what());
        return 1;
    }
}
