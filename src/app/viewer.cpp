#include "app/viewer.h"

#include <glad/gl.h>
// glad first: GLFW must not pull in the system GL header.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <deque>
#include <fstream>
#include <memory>

#include "app/camera_control.h"
#include "app/key_bindings.h"
#include "app/display_path.h"
#include "app/gl_display.h"
#include "app/install_paths.h"
#include "app/panel.h"
#include "app/recorder.h"
#include "app/viewer_config.h"
#include "app/viewer_state.h"
#include "core/error.h"
#include "core/output_file.h"
#include "render/flat_scene.h"
#include "render/make_renderer.h"
#include "scene/data_folder.h"
#include "scene/image_io.h"
#include "scene/scene_loader.h"

namespace strata {
namespace {

using Clock = std::chrono::steady_clock;

double scrollAccum = 0;

// The renderer for the viewer's scene: a CUDA request without a GPU runs on
// the CPU backend (the note says so); what the options' rules refuse throws.
std::unique_ptr<Renderer> makeBackend(Scene& scene, std::string& note) {
    scene.options.render.backend = chooseBackend(scene.options, WithoutGpu::RunOnCpu, &note);
    return makeRenderer(scene);
}

// The shader folder: $STRATA_SHADER_DIR, else beside an installed
// executable, the source tree, or the working directory (app/install_paths.h).
std::string findShaderDir() {
    if (const char* e = std::getenv("STRATA_SHADER_DIR")) return e;
    return installedDataPath("shaders", STRATA_SOURCE_TREE);
}

float sceneSize(const Scene& s) {
    Aabb b;
    for (const Instance& inst : s.instances)
        for (const Vec3& p : s.meshes[inst.mesh].positions) b.grow(inst.transform.point(p));
    return b.isEmpty() ? 1.0f : length(b.extent());
}

DisplayMode parseDisplay(const std::string& s) {
    if (s == "texture") return DisplayMode::Texture;
    if (s == "pbo") return DisplayMode::Pbo;
    if (s == "copy") return DisplayMode::Copy;
    if (s == "auto") return DisplayMode::Texture;  // measured fastest on the H100: docs/perf.md
    throw Error("--display: expected auto, texture, pbo or copy, got '" + s + "'");
}

void writeWindowPng(const std::string& path, int w, int h) {
    std::vector<uint8_t> rgba(size_t(w) * h * 4), rgb(size_t(w) * h * 3);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < 3; ++c) rgb[(size_t(y) * w + x) * 3 + c] = rgba[(size_t(h - 1 - y) * w + x) * 4 + c];
    writePngAtomic(path, w, h, rgb);
}

}  // namespace

// The scene named on the command line. When it does not load, the window
// still opens and shows why (waitForScene); false: nothing was loaded.
bool Viewer::loadInitialScene() {
    setDataFolder(args_.data);
    std::string error;
    if (loadScene(args_.scene, error)) return true;
    std::fprintf(stderr, "strata: error: %s\n", error.c_str());
    std::snprintf(loadPath_, sizeof loadPath_, "%s", args_.scene.c_str());
    loadError_ = error;
    return waitForScene();
}

// No scene yet: a window with the whole message, wrapped, and a path to load
// another file from, until one loads (true) or the window closes. With --exit
// it stays --frames frames (and takes --screenshot-ui), then gives up.
bool Viewer::waitForScene() {
    for (uint64_t frames = 1; !glfwWindowShouldClose(window_); ++frames) {
        glfwPollEvents();
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        int fbw, fbh;
        glfwGetFramebufferSize(window_, &fbw, &fbh);
        ImGui::SetNextWindowPos(ImVec2(fbw * 0.05f, fbh * 0.05f));
        ImGui::SetNextWindowSize(ImVec2(fbw * 0.9f, 0));
        ImGui::Begin("No scene loaded", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse);
        errorText(loadError_);
        ImGui::Separator();
        ImGui::TextWrapped("Load another scene file:");
        ImGui::InputText("##path", loadPath_, sizeof loadPath_);
        ImGui::SameLine();
        bool loaded = false;
        if (ImGui::Button("Load")) {
            std::string err;
            loaded = loadScene(loadPath_, err);
            loadError_ = loaded ? "" : err;
        }
        ImGui::End();
        glViewport(0, 0, fbw, fbh);
        glClearColor(0.05f, 0.05f, 0.06f, 1);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui::Render();
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        if (loaded) return true;
        const bool done = args_.exitAfter && frames >= uint64_t(args_.frames);
        if (done && !args_.screenshotUi.empty()) writeWindowPng(inFolder(outputDir_, args_.screenshotUi), fbw, fbh);
        glfwSwapBuffers(window_);
        if (done) break;
    }
    return false;
}

bool Viewer::loadScene(const std::string& path, std::string& error) {
    worker_.wait();  // the renderer it replaces may be rendering
    pending_.reset();
    try {
        auto scene = std::make_unique<Scene>(strata::loadScene(path));
        Options defaults;
        Options& o = scene->options;
        // config < scene file < command line
        for (const auto& [k, v] : config_.options)
            if (Options::find(k) && o.get(k) == defaults.get(k)) o.set(k, v);
        if (!args_.backend.empty()) o.set("render.backend", args_.backend);
        for (const std::string& kv : args_.sets) o.setAssignment(kv);
        int fbw, fbh;
        glfwGetFramebufferSize(window_, &fbw, &fbh);
        bool resSet = false;
        for (const std::string& kv : args_.sets)
            resSet = resSet || kv.rfind("render.width", 0) == 0 || kv.rfind("render.height", 0) == 0;
        if (!resSet) {
            o.render.width = std::clamp(int(fbw * scale_), 1, kMaxRenderResolution);
            o.render.height = std::clamp(int(fbh * scale_), 1, kMaxRenderResolution);
        }
        std::string note;
        auto renderer = makeBackend(*scene, note);
        // Success: replace the running scene.
        display_.reset();
        renderer_ = std::move(renderer);
        scene_ = std::move(scene);
        sceneHasQuads_ = false;
        for (const Mesh& m : scene_->meshes) sceneHasQuads_ = sceneHasQuads_ || !m.quads.empty();
        options_ = scene_->options;
        backendNote_ = note;
        gl_->resize(options_.render.width, options_.render.height);
        display_ = makeDisplayPath(displayMode_, *renderer_, displayNote_);
        display_->attach(*gl_);
        camera_.reset(cameraAt(scene_->camera, 0.0f), sceneSize(*scene_));
        cameraOverride_ = false;
        renderer_->setCamera(nullptr);
        views_.load(scene_->path);
        time_ = options_.animation.startTime;
        playing_ = options_.animation.play;
        overlay_.clear();
        plottedOptions_.reset();
        refreshFacts();
        resetAccum_ = true;
        std::snprintf(loadPath_, sizeof loadPath_, "%s", scene_->path.c_str());
        return true;
    } catch (const Error& e) {
        error = e.what();
        return false;
    }
}

void Viewer::applyOptions(const Options& o, bool resetImage) {
    if (worker_.busy()) {  // the renderer is the worker's: apply before the next frame (startFrame)
        pending_ = o;
        pendingReset_ = pendingReset_ || resetImage;
        return;
    }
    const bool backendChanged = o.render.backend != options_.render.backend;
    // vd.* decide the geometry of a scene with quads: a new renderer makes it.
    const bool vdChanged = sceneHasQuads_ && (o.vd.mode != options_.vd.mode || o.vd.maxLevel != options_.vd.maxLevel);
    const Options previous = options_;
    options_ = o;
    if (backendChanged || vdChanged) {
        if (recorder_.recording()) {  // the stage columns (or the geometry) differ
            recorder_.stop();
            statusLine_ = backendChanged ? "recording stopped: the backend changed" : "recording stopped: vd.* changed";
        }
        scene_->options = o;
        std::string note;
        try {
            display_.reset();
            renderer_ = makeBackend(*scene_, note);
            options_ = scene_->options;
            backendNote_ = note;
        } catch (const Error& e) {
            backendNote_ = e.what();  // the previous renderer keeps running
            options_.render.backend = previous.render.backend;
            options_.vd = previous.vd;
            scene_->options = options_;
        }
        display_ = makeDisplayPath(displayMode_, *renderer_, displayNote_);
        display_->attach(*gl_);
        if (cameraOverride_) {
            CameraPose p = camera_.pose();
            renderer_->setCamera(&p);
        }
    }
    renderer_->setOptions(options_);
    if (options_.render.width != gl_->width() || options_.render.height != gl_->height()) {
        gl_->resize(options_.render.width, options_.render.height);
        display_->attach(*gl_);
    }
    if (resetImage) resetAccum_ = true;
}

std::string Viewer::keyLabel(KeyAction a) const { return KeyBindings::keyName(config_.keys.key(a)); }

static_assert(KeyLatch::kPressAction == GLFW_PRESS && KeyLatch::kShiftMod == GLFW_MOD_SHIFT,
              "app/key_latch.h reads GLFW's values");

// --press: each key due by this frame, pressed and released through the
// window's key callback (ImGui's backend, chained to the latch) within this
// one pass of the loop, as a tap inside a slow frame arrives.
void Viewer::pressScheduledKeys() {
    while (nextPress_ < presses_.size() && presses_[nextPress_].frame <= frame_) {
        const ScheduledPress& p = presses_[nextPress_++];
        const GLFWkeyfun callback = glfwSetKeyCallback(window_, nullptr);
        glfwSetKeyCallback(window_, callback);
        if (!callback) continue;
        const int scancode = glfwGetKeyScancode(p.key), mods = p.shift ? GLFW_MOD_SHIFT : 0;
        callback(window_, p.key, scancode, GLFW_PRESS, mods);
        callback(window_, p.key, scancode, GLFW_RELEASE, mods);
        std::fprintf(stderr, "strata: --press %s%s at frame %llu\n", p.shift ? "SHIFT+" : "",
                     KeyBindings::keyName(p.key).c_str(), static_cast<unsigned long long>(frame_));
    }
}

// The frame's key presses (every press since the last frame counts once,
// app/key_latch.h); none while a panel text field has the keyboard.
void Viewer::handleKeys() {
    const std::vector<KeyPress> presses = keyLatch_.take();
    if (ImGui::GetIO().WantCaptureKeyboard) return;
    const KeyBindings& k = config_.keys;
    for (const KeyPress& p : presses) {
        if (p.key == k.key(KeyAction::Pause)) playing_ = !playing_;
        if (p.key == k.key(KeyAction::ToggleUi)) showUi_ = !showUi_;
        if (p.key == k.key(KeyAction::Screenshot)) (p.shift ? wantUiShot_ : wantShot_) = true;
        if (p.key == k.key(KeyAction::Record)) {
            if (recorder_.recording())
                recorder_.stop();
            else
                recorder_.startOrSay(uniqueName(outputDir_, "strata", "csv"), recordStages());
        }
        if (p.key == k.key(KeyAction::ResetCamera)) {  // the scene's camera from the next frame (startFrame)
            camera_.reset(cameraAt(scene_->camera, time_), sceneSize(*scene_));
            cameraOverride_ = false;
            resetAccum_ = true;
        }
    }
}

int Viewer::run() {
    scheduled_ = parseScheduledChanges(args_.at);  // before any window: bad input needs no display
    presses_ = parseScheduledPresses(args_.press);
    config_ = loadViewerConfig(args_.config, args_.configGiven);
    scale_ = args_.scale > 0 ? args_.scale : config_.scale;
    outputDir_ = !args_.outputDir.empty() ? args_.outputDir : config_.outputFolder;
    checkOutputFolder(!args_.outputDir.empty() ? "--output-dir" : args_.config + ": output.folder", outputDir_);
    vsync_ = args_.vsync || config_.vsync;
    fixedStep_ = args_.fixedStep;
    showUi_ = !args_.hideUi;
    displayMode_ = parseDisplay(args_.display != "auto" ? args_.display : config_.display);
    overlay_ = TimingOverlay(config_.history);

    glfwSetErrorCallback(
        [](int code, const char* msg) { std::fprintf(stderr, "strata: GLFW error %d: %s\n", code, msg); });
    if (!glfwInit())
        throw Error("cannot open a window (no display?): use `strata-cli render SCENE` to render headless");
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    int ww = args_.windowWidth ? args_.windowWidth : config_.width;
    int wh = args_.windowHeight ? args_.windowHeight : config_.height;
    window_ = glfwCreateWindow(ww, wh, "strata", nullptr, nullptr);
    if (!window_)
        throw Error("cannot create an OpenGL 4.5 core window: use `strata-cli render SCENE` to render headless");
    glfwMakeContextCurrent(window_);
    if (!gladLoadGL(glfwGetProcAddress)) throw Error("cannot load OpenGL 4.5 functions");
    glfwSwapInterval(vsync_ ? 1 : 0);
    glfwSetScrollCallback(window_, [](GLFWwindow*, double, double dy) { scrollAccum += dy; });
    // Before ImGui's backend installs its callbacks: it chains to this one.
    glfwSetWindowUserPointer(window_, this);
    glfwSetKeyCallback(window_, [](GLFWwindow* w, int key, int, int action, int mods) {
        static_cast<Viewer*>(glfwGetWindowUserPointer(w))->keyLatch_.onKey(key, action, mods);
    });

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    ImGui::StyleColorsDark();
    ImGui_ImplGlfw_InitForOpenGL(window_, true);
    ImGui_ImplOpenGL3_Init("#version 450");
    imguiReady_ = true;

    gl_ = std::make_unique<GlDisplay>(findShaderDir());
    glTimer_ = std::make_unique<GlTimer>();
    if (!loadInitialScene()) {
        shutdown();
        return 1;
    }
    if (!args_.record.empty()) recorder_.start(inFolder(outputDir_, args_.record), recordStages());

    auto last = Clock::now();
    double fpsTimer = 0;
    int fpsFrames = 0;
    glfwGetCursorPos(window_, &lastX_, &lastY_);
    while (!glfwWindowShouldClose(window_)) {
        glfwPollEvents();
        auto now = Clock::now();
        float dt = std::chrono::duration<float>(now - last).count();
        last = now;
        fpsTimer += dt;
        ++fpsFrames;
        if (fpsTimer >= 0.5) {
            wallFps_ = fpsFrames / fpsTimer;
            fpsTimer = 0;
            fpsFrames = 0;
        }
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        pressScheduledKeys();
        handleKeys();
        ImGuiIO& io = ImGui::GetIO();
        CameraInput in = readCameraInput(window_, config_.keys, io.WantCaptureKeyboard, io.WantCaptureMouse, lastX_,
                                         lastY_, scrollAccum);
        scrollAccum = 0;
        if (camera_.update(in, dt)) {
            cameraOverride_ = true;
            resetAccum_ = true;
        }
        // Follow the window size.
        int fbw, fbh;
        glfwGetFramebufferSize(window_, &fbw, &fbh);
        bool resFixed = false;
        for (const std::string& kv : args_.sets) resFixed = resFixed || kv.rfind("render.width", 0) == 0;
        if (!resFixed && fbw > 0 && fbh > 0 &&
            (std::clamp(int(fbw * scale_), 1, kMaxRenderResolution) != options_.render.width ||
             std::clamp(int(fbh * scale_), 1, kMaxRenderResolution) != options_.render.height)) {
            Options o = options_;
            o.render.width = std::clamp(int(fbw * scale_), 1, kMaxRenderResolution);
            o.render.height = std::clamp(int(fbh * scale_), 1, kMaxRenderResolution);
            applyOptions(o, true);
        }
        panel();

        if (playing_ && !fixedStep_) {  // wall-clock time (a fixed step advances per frame: startFrame)
            time_ += dt * speed_;
            if (!loop_ && time_ > 60.0f) time_ = 60.0f;
        }
        // The CUDA backend queues its frame and shows it at once; the CPU
        // backend renders on the worker while the window keeps drawing, and
        // a frame is shown when the worker is done with it (then the next
        // one starts, at the end of this pass).
        const bool async = !renderer_->deviceDisplay();
        if (!async) startFrame();
        const bool idle = !async || !worker_.busy();
        if (idle) {
            if (std::string e = worker_.takeError(); !e.empty()) statusLine_ = e;
            collectRecords();
            refreshFacts();
            if (wantTree_) measureTree();
        }
        overlay_.draw(renderer_->stageNames(), renderer_->deviceDisplay());
        if (!idle) progressLine();

        // Display = CUDA's map + write + unmap (or the host copy) + GL's draw
        // and ImGui, each timed on its GPU queue and read a frame late.
        // The GL timer starts after present(): GL work that follows an unmap
        // first waits for CUDA's frame, which a GL timer would count. (So the
        // PBO path's pixel-buffer-to-texture copy is in neither number.)
        if (idle && frame_ > 0) display_->present(*renderer_, *gl_);
        glTimer_->begin();
        gl_->draw(fbw, fbh);
        ImGui::Render();
        if (showUi_) ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        glTimer_->end();
        presentMs_ = display_->lastMs();
        drawMs_ = glTimer_->lastMs();
        displayMs_ = presentMs_ + drawMs_;

        const bool done = idle && args_.exitAfter && args_.frames > 0 && frame_ >= uint64_t(args_.frames);
        screenshots(idle, done, fbw, fbh);
        glfwSwapBuffers(window_);
        if (done) break;
        if (async && idle) startFrame();
    }
    // Flush the last frames' records (they arrive a frame late).
    worker_.wait();
    renderer_->finish();
    collectRecords();
    shutdown();
    return 0;
}

// Starts the next frame: options changed while the last one rendered, the
// scheduled changes (--at), the camera, then the frame itself.
void Viewer::startFrame() {
    if (playing_) {
        if (fixedStep_) time_ += 1.0f / options_.animation.fps;  // exactly one step per frame rendered
        if (!loop_ && time_ > 60.0f) time_ = 60.0f;
        resetAccum_ = true;
    }
    if (pending_) {
        const Options o = *pending_;
        const bool reset = pendingReset_;
        pending_.reset();
        pendingReset_ = false;
        applyOptions(o, reset);
    }
    while (nextScheduled_ < scheduled_.size() && scheduled_[nextScheduled_].frame <= frame_) {
        Options o = options_;
        o.setAssignment(scheduled_[nextScheduled_++].assignment);  // checked at start-up
        applyOptions(o, true);
    }
    if (cameraOverride_) {
        CameraPose p = camera_.pose();
        renderer_->setCamera(&p);
    } else {
        renderer_->setCamera(nullptr);
    }
    const bool accumulate = !resetAccum_;
    resetAccum_ = false;
    frameOptions_.emplace_back(frame_, options_);
    if (renderer_->deviceDisplay()) {
        try {
            renderer_->renderFrame(time_, frame_, accumulate);
        } catch (const Error& e) {
            statusLine_ = e.what();
        }
    } else {
        worker_.start(*renderer_, time_, frame_, accumulate);
    }
    ++frame_;
}

// The records of completed frames: the plots (marked where the options
// changed), the recording, the panel's last record.
void Viewer::collectRecords() {
    FrameRecord rec;
    while (renderer_->popRecord(rec)) {
        addDisplayStages(rec);
        const Options frameOptions = optionsOfFrame(rec.frame);
        std::vector<std::string> change;
        if (plottedOptions_) change = frameOptions.changedFrom(*plottedOptions_);
        plottedOptions_ = frameOptions;
        overlay_.add(rec, displayMs_, wallFps_, std::move(change));
        recorder_.add(rec, frameOptions);
        lastRecord_ = rec;
    }
}

// What the panel shows of the renderer, read while the worker is idle.
void Viewer::refreshFacts() {
    facts_.geometryBytes = renderer_->geometryBytes();
    facts_.accelBytes = renderer_->accelBytes();
    facts_.vdPairBytes = renderer_->vdPairBytes();
    facts_.vdMemory = renderer_->vdMemory();
    facts_.vdDevice = renderer_->vdDeviceMemory();
    facts_.refit = renderer_->refitStatus();
    facts_.samplesPerPixel = renderer_->samplesPerPixel();
}

// The panel's "Measure tree": the last build's tree (the GPU's copied back,
// a stall of a few milliseconds outside the frames' stages).
void Viewer::measureTree() {
    wantTree_ = false;
    treeFrame_ = frame_ ? frame_ - 1 : 0;
    try {
        tree_ = renderer_->treeQuality();
        treeNote_ = tree_.measured() ? tree_.summary() : "instanced mode: strata-cli validate reports each level";
    } catch (const Error& e) {
        treeNote_ = e.what();
    }
}

// While the CPU backend renders a frame: which frame, its stage, how long.
void Viewer::progressLine() {
    const std::string stage = renderer_->activeStage();
    char text[160];
    std::snprintf(text, sizeof text, "rendering frame %llu on the CPU backend: %s, %.1f s",
                  static_cast<unsigned long long>(worker_.frame()), stage.empty() ? "starting" : stage.c_str(),
                  worker_.secondsBusy());
    const ImVec2 size = ImGui::CalcTextSize(text), display = ImGui::GetIO().DisplaySize;
    const ImVec2 at((display.x - size.x) * 0.5f, display.y - size.y - 12.0f);
    ImDrawList* dl = ImGui::GetForegroundDrawList();
    dl->AddRectFilled(ImVec2(at.x - 8, at.y - 4), ImVec2(at.x + size.x + 8, at.y + size.y + 4), IM_COL32(0, 0, 0, 190),
                      4.0f);
    dl->AddText(at, IM_COL32(255, 220, 120, 255), text);
}

// Screenshots of the frame shown (F12: once no frame renders) and of the
// window with its UI (Shift+F12). One that cannot be written is said in the
// panel and the viewer keeps running; one asked for on the command line
// (--exit) is an error.
void Viewer::screenshots(bool idle, bool done, int fbw, int fbh) {
    auto saving = [&](bool scripted, auto write) {
        try {
            write();
        } catch (const Error& e) {
            if (scripted) throw;
            statusLine_ = std::string("not saved: ") + e.what();
            std::fprintf(stderr, "strata: %s\n", statusLine_.c_str());
        }
    };
    if (idle && (wantShot_ || (done && !args_.screenshot.empty()))) {
        const bool scripted = done && !args_.screenshot.empty();
        saving(scripted, [&] {
            std::vector<uint8_t> rgb;
            renderer_->readImage(rgb);
            std::string path =
                scripted ? inFolder(outputDir_, args_.screenshot) : uniqueName(outputDir_, "strata", "png");
            writePngAtomic(path, options_.render.width, options_.render.height, rgb);
            statusLine_ = "saved " + path;
            if (args_.linear) {  // the linear radiance beside it
                std::vector<float> rad;
                renderer_->readRadiance(rad);
                std::string pfm = path.substr(0, path.rfind('.')) + ".pfm";
                writePfmAtomic(pfm, options_.render.width, options_.render.height, rad);
                statusLine_ += " and " + pfm;
            }
        });
        wantShot_ = false;
    }
    if (wantUiShot_ || (done && !args_.screenshotUi.empty())) {
        const bool scripted = done && !args_.screenshotUi.empty();
        saving(scripted, [&] {
            std::string path =
                scripted ? inFolder(outputDir_, args_.screenshotUi) : uniqueName(outputDir_, "strata-ui", "png");
            writeWindowPng(path, fbw, fbh);
            statusLine_ = "saved " + path;
        });
        wantUiShot_ = false;
    }
}

void Viewer::shutdown() {
    worker_.wait();
    recorder_.stop();
    display_.reset();
    renderer_.reset();
    glTimer_.reset();
    gl_.reset();
    if (imguiReady_) {
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
        imguiReady_ = false;
    }
    if (window_) {
        glfwDestroyWindow(window_);
        window_ = nullptr;
        glfwTerminate();
    }
}

std::vector<ScheduledChange> parseScheduledChanges(const std::vector<std::string>& at) {
    std::vector<ScheduledChange> out;
    for (const std::string& entry : at) {
        const size_t colon = entry.find(':');
        ScheduledChange c;
        char* end = nullptr;
        const std::string frame = entry.substr(0, colon);
        const unsigned long long f = std::strtoull(frame.c_str(), &end, 10);
        if (colon == std::string::npos || frame.empty() || *end != '\0' || frame[0] == '-')
            throw Error("--at expects FRAME:key=value, got '" + entry + "'");
        c.frame = f;
        c.assignment = entry.substr(colon + 1);
        Options probe;
        try {
            probe.setAssignment(c.assignment);
        } catch (const Error& e) {
            throw Error("--at '" + entry + "': " + e.what());
        }
        out.push_back(c);
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const ScheduledChange& a, const ScheduledChange& b) { return a.frame < b.frame; });
    return out;
}

std::vector<ScheduledPress> parseScheduledPresses(const std::vector<std::string>& press) {
    std::vector<ScheduledPress> out;
    for (const std::string& entry : press) {
        const size_t colon = entry.find(':');
        const std::string frame = entry.substr(0, colon);
        char* end = nullptr;
        const unsigned long long f = std::strtoull(frame.c_str(), &end, 10);
        if (colon == std::string::npos || frame.empty() || *end != '\0' || frame[0] == '-')
            throw Error("--press expects FRAME:KEY or FRAME:SHIFT+KEY, got '" + entry + "'");
        ScheduledPress p;
        p.frame = f;
        std::string key = entry.substr(colon + 1);
        if (key.rfind("SHIFT+", 0) == 0 || key.rfind("Shift+", 0) == 0) {
            p.shift = true;
            key = key.substr(6);
        }
        p.key = KeyBindings::keyCode(key);
        if (p.key < 0)
            throw Error("--press '" + entry + "': unknown key '" + key +
                        "' (GLFW's names without GLFW_KEY_: W, F9, SPACE, TAB, ...)");
        out.push_back(p);
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const ScheduledPress& a, const ScheduledPress& b) { return a.frame < b.frame; });
    return out;
}

int runViewer(const ViewerArgs& args) {
    Viewer v(args);
    return v.run();
}

}  // namespace strata
