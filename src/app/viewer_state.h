// app/viewer_state.h — the viewer's state, shared by its jobs: the loop and
// scene loading (viewer.cpp), the panel (viewer_panel.cpp), camera
// bookmarks (camera_views.cpp). Internal to app/.
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/camera_control.h"
#include "app/display_path.h"
#include "app/frame_worker.h"
#include "app/gl_display.h"
#include "app/key_bindings.h"
#include "app/key_latch.h"
#include "app/panel.h"
#include "app/recorder.h"
#include "app/timing_overlay.h"
#include "app/viewer.h"
#include "app/viewer_config.h"
#include "render/renderer.h"
#include "scene/scene.h"

struct GLFWwindow;

namespace strata {

// Saved cameras, in SCENE.views.json.
struct Views {
    std::vector<CameraPose> list;
    static std::string pathFor(const std::string& scene) { return scene + ".views.json"; }
    // A bookmark file that is wrong is reported and left alone (not
    // overwritten until the user saves a view).
    void load(const std::string& scene);
    void save(const std::string& scene) const;
};

// An error message in the panel: red and wrapped.
void errorText(const std::string& msg);

class Viewer {
public:
    explicit Viewer(const ViewerArgs& a) : args_(a) {}
    ~Viewer() { shutdown(); }
    int run();

private:
    bool loadInitialScene();
    bool waitForScene();
    bool loadScene(const std::string& path, std::string& error);
    void applyOptions(const Options& o, bool resetImage);
    void panel();
    void viewWidgets(Options& next, bool& changed);
    void startFrame();
    void collectRecords();
    void refreshFacts();
    void progressLine();
    void measureTree();
    void screenshots(bool idle, bool done, int fbw, int fbh);
    void handleKeys();
    void pressScheduledKeys();
    std::string keyLabel(KeyAction a) const;
    void shutdown();
    std::vector<std::string> recordStages() const {
        std::vector<std::string> s = renderer_->stageNames();
        s.push_back("display");
        s.push_back("display/present");
        s.push_back("display/draw");
        return s;
    }

    ViewerArgs args_;
    ViewerConfig config_;
    GLFWwindow* window_ = nullptr;
    std::unique_ptr<GlDisplay> gl_;
    std::unique_ptr<GlTimer> glTimer_;
    std::unique_ptr<DisplayPath> display_;
    std::unique_ptr<Scene> scene_;
    std::unique_ptr<Renderer> renderer_;
    FrameWorker worker_;  // the CPU backend's frames (after renderer_: it stops first)
    Options options_;
    // Options changed while the worker rendered: applied before the next frame.
    std::optional<Options> pending_;
    bool pendingReset_ = false;
    // What the panel shows of the renderer, read when the worker is idle.
    struct Facts {
        size_t geometryBytes = 0, accelBytes = 0, vdPairBytes = 0;
        VdMemoryComparison vdMemory;
        VdDeviceComparison vdDevice;
        RefitStatus refit;
        uint32_t samplesPerPixel = 0;
    } facts_;
    std::string backendNote_, displayNote_, loadError_, statusLine_;
    char loadPath_[512] = {};
    CameraControl camera_;
    bool cameraOverride_ = false;
    Views views_;
    TimingOverlay overlay_;
    FrameRecord lastRecord_;  // the newest frame's record (the heatmap's totals)
    std::optional<Options> plottedOptions_;  // the options of the last frame given to the plots
    TreeQuality tree_;        // the panel's "Measure tree", at frame treeFrame_
    uint64_t treeFrame_ = 0;
    std::string treeNote_;
    bool wantTree_ = false;
    Recorder recorder_;
    KeyLatch keyLatch_;  // GLFW key presses since the last frame (handleKeys)
    std::string outputDir_;  // screenshots and recordings (--output-dir, output.folder; empty: working dir)
    float time_ = 0, speed_ = 1;
    bool playing_ = true, fixedStep_ = false, loop_ = true, vsync_ = false;
    bool sceneHasQuads_ = false;
    bool resetAccum_ = true;
    uint64_t frame_ = 0;
    std::vector<ScheduledChange> scheduled_;  // --at, in frame order
    size_t nextScheduled_ = 0;
    std::vector<ScheduledPress> presses_;  // --press, in frame order
    size_t nextPress_ = 0;
    // The options each frame in flight was rendered with: its record arrives
    // a frame or more later, when the options may have changed.
    std::deque<std::pair<uint64_t, Options>> frameOptions_;
    const Options& optionsOfFrame(uint64_t frame) {
        while (frameOptions_.size() > 1 && frameOptions_.front().first < frame) frameOptions_.pop_front();
        return !frameOptions_.empty() && frameOptions_.front().first == frame ? frameOptions_.front().second : options_;
    }
    double lastX_ = 0, lastY_ = 0, displayMs_ = 0, presentMs_ = 0, drawMs_ = 0, wallFps_ = 0;
    void addDisplayStages(FrameRecord& rec) const {
        rec.stages.push_back({"display", displayMs_, 0});
        rec.stages.push_back({"display/present", presentMs_, 0});
        rec.stages.push_back({"display/draw", drawMs_, 0});
    }
    bool wantShot_ = false, wantUiShot_ = false, imguiReady_ = false, showUi_ = true;
    DisplayMode displayMode_ = DisplayMode::Texture;
    float scale_ = 1.0f;
};

}  // namespace strata
