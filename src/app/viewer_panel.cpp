// app/viewer_panel.cpp — the viewer's panel: scene, acceleration (every
// option the other options allow: Options::unavailable), VD patches,
// rendering, animation, camera, display and recording.
#include <glad/gl.h>

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>

#include "app/panel_layout.h"
#include "app/viewer_state.h"
#include "core/error.h"
#include "core/output_file.h"
#include "render/heatmap.h"
#include "render/vd_memory.h"
#include "scene/keyframes.h"

namespace strata {

// An error message in the panel: red and wrapped (the reason is at the end of
// a long message, past the panel's edge otherwise).
void errorText(const std::string& msg) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.4f, 0.3f, 1));
    ImGui::TextWrapped("%s", msg.c_str());
    ImGui::PopStyleColor();
}

// view.heatmap: its options, the colour scale with its counts, and the
// newest frame's counts per camera ray.
void Viewer::viewWidgets(Options& next, bool& changed) {
    const ViewOptions& v = options_.view;
    changed |= optionWidgets(next, "view.", v.heatmap == Heatmap::Off ? std::vector<std::string>{"view.heatmap_max"}
                                                                       : std::vector<std::string>{});
    if (v.heatmap == Heatmap::Off) return;
    const float top = heatmapScaleOf(v.heatmap, v.heatmapMax);
    // The scale: 0 .. top, then the fade to white up to twice the top.
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float width = std::max(ImGui::GetContentRegionAvail().x, 60.0f), height = ImGui::GetFrameHeight() * 0.6f;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const int steps = 64;
    for (int i = 0; i < steps; ++i) {
        const uint32_t c = heatColor(2.0f * top * (i + 0.5f) / steps, top);  // RGBA8 is ImGui's ABGR order
        dl->AddRectFilled(ImVec2(at.x + width * i / steps, at.y), ImVec2(at.x + width * (i + 1) / steps, at.y + height),
                          c);
    }
    ImGui::Dummy(ImVec2(width, height));
    ImGui::Text("0");
    ImGui::SameLine(width * 0.5f);
    ImGui::Text("%g", top);
    ImGui::SameLine(std::max(width - ImGui::CalcTextSize("x2").x - 20.0f, width * 0.55f));
    ImGui::Text("%g+", 2 * top);
    const double rays = double(options_.render.width) * options_.render.height;
    if (lastRecord_.heatNodes + lastRecord_.heatTriangles > 0 && rays > 0)
        ImGui::TextWrapped("per camera ray: %.1f nodes, %.1f triangles, %.1f steps, %.2f BLAS entries (frame %llu)",
                           lastRecord_.heatNodes / rays, lastRecord_.heatTriangles / rays, lastRecord_.heatSteps / rays,
                           lastRecord_.heatBlas / rays, static_cast<unsigned long long>(lastRecord_.frame));
    if (sceneHasQuads_ && options_.vd.mode == VdMode::Direct) disabledNote("VD patches are not counted");
}

void Viewer::panel() {
    const ImVec2 fb = ImGui::GetIO().DisplaySize;
    const WindowRect r = panelLayout(fb.x, fb.y).panel;
    ImGui::SetNextWindowPos(ImVec2(r.x, r.y), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(r.w, r.h), ImGuiCond_FirstUseEver);
    ImGui::Begin("strata");
    Options next = pending_ ? *pending_ : options_;
    bool changed = false;
    if (ImGui::CollapsingHeader("Scene", ImGuiTreeNodeFlags_DefaultOpen)) {
        ImGui::TextWrapped("%s", scene_->path.c_str());
        ImGui::TextWrapped("%zu triangles, %zu instances, %zu meshes, %zu VD patches", scene_->triangleCount(),
                           scene_->instances.size(), scene_->meshes.size(), scene_->patchCount());
        ImGui::TextWrapped("%s memory: geometry %.1f MiB, acceleration %.1f MiB",
                           options_.render.backend == Backend::Cuda ? "GPU" : "host",
                           facts_.geometryBytes / 1048576.0, facts_.accelBytes / 1048576.0);
        ImGui::InputText("##path", loadPath_, sizeof loadPath_);
        ImGui::SameLine();
        if (ImGui::Button("Load")) {
            std::string err;
            if (!loadScene(loadPath_, err))
                loadError_ = err;
            else
                loadError_.clear();
        }
        if (!loadError_.empty()) errorText(loadError_);
    }
    if (ImGui::CollapsingHeader("Acceleration", ImGuiTreeNodeFlags_DefaultOpen)) {
        // The kd-tree builders' switches: their own group, shown when the
        // kd-tree is built (kdTreeWidgets shows those the backend honours).
        changed |= optionWidgets(next, "accel.", kdSwitchKeys(), options_.unavailable());
        if ((options_.accel.rebuild == Rebuild::Refit || options_.accel.rebuild == Rebuild::Auto) &&
            !facts_.refit.blas.empty()) {
            // Instanced mode: each deforming instance's BLAS, the most grown
            // (auto) or longest refitted first.
            std::vector<BlasRefit> b = facts_.refit.blas;
            std::sort(b.begin(), b.end(), [](const BlasRefit& x, const BlasRefit& y) {
                return x.sahGrowth != y.sahGrowth ? x.sahGrowth > y.sahGrowth : x.refits > y.refits;
            });
            const bool autoRebuild = options_.accel.rebuild == Rebuild::Auto;
            ImGui::TextWrapped(autoRebuild ? "deforming BLASes: refits since the build, SAH against the built tree's "
                                             "(one rebuild a frame past %+.0f%%)"
                                           : "deforming BLASes: refits since the build",
                               100.0 * options_.accel.refitGrowth);
            const size_t shown = std::min<size_t>(b.size(), 8);
            for (size_t k = 0; k < shown; ++k) {
                if (autoRebuild)
                    ImGui::Text("  %-20.20s %5u  %+6.1f%%", b[k].name.c_str(), b[k].refits, 100.0 * b[k].sahGrowth);
                else
                    ImGui::Text("  %-20.20s %5u", b[k].name.c_str(), b[k].refits);
            }
            if (b.size() > shown) ImGui::Text("  ... and %zu more", b.size() - shown);
        } else if ((options_.accel.rebuild == Rebuild::Refit || options_.accel.rebuild == Rebuild::Auto) &&
                   options_.accel.mode == AccelMode::Instanced) {
            ImGui::TextWrapped("no deforming instances: the BLASes are built once and nothing is refitted");
        } else if (options_.accel.rebuild == Rebuild::Refit || options_.accel.rebuild == Rebuild::Auto) {
            const RefitStatus r = facts_.refit;
            if (options_.accel.rebuild == Rebuild::Auto)
                ImGui::TextWrapped(
                    "refits since the build: %u; SAH %+.1f%% against the built tree's (rebuilds past "
                    "%+.0f%%)",
                    r.refits, 100.0 * r.sahGrowth, 100.0 * options_.accel.refitGrowth);
            else
                ImGui::TextWrapped("refits since the build: %u", r.refits);
        }
        // The tree's quality on demand: the GPU's tree is copied back (a stall
        // of a few milliseconds, kept out of the frames' stages).
        if (ImGui::Button("Measure tree")) wantTree_ = true;  // when no frame renders: Viewer::measureTree
        if (!treeNote_.empty()) {
            ImGui::SameLine();
            ImGui::TextWrapped("frame %llu: %s", static_cast<unsigned long long>(treeFrame_), treeNote_.c_str());
        }
        if (options_.accel.builder != Builder::KdTree)
            disabledNote("kd-tree switches ([A]-[E], strata's): with accel.builder = kdtree");
        else if (ImGui::TreeNodeEx("kd-tree switches", ImGuiTreeNodeFlags_DefaultOpen)) {
            changed |= kdTreeWidgets(next);
            ImGui::TreePop();
        }
    }
    if (ImGui::CollapsingHeader("View", ImGuiTreeNodeFlags_DefaultOpen)) viewWidgets(next, changed);
    if (sceneHasQuads_ && ImGui::CollapsingHeader("VD patches", ImGuiTreeNodeFlags_DefaultOpen)) {
        // vd.mode / vd.max_level make a new renderer (the geometry changes);
        // lod_bias and freeze_lod act on the next frame.
        changed |= presetButtons(next, "vd.method");
        changed |= optionWidgets(next, "vd.", {}, options_.unavailable());
        ImGui::Text("geometry %.2f MiB + acceleration %.2f MiB", facts_.geometryBytes / 1048576.0,
                    facts_.accelBytes / 1048576.0);
        if (facts_.vdPairBytes)
            ImGui::Text("ray-pair buffers %.1f MiB (sized by the image)", facts_.vdPairBytes / 1048576.0);
        ImGui::TextWrapped("VD patches on the GPU (estimate, as Harada's Table 1.1 counts them): %s",
                           describeVdMemory(facts_.vdMemory).c_str());
        if (facts_.vdDevice.measured())
            ImGui::TextWrapped("%s (this mode's measured, the other's estimated)",
                               describeVdDeviceMemory(facts_.vdDevice).c_str());
    }
    if (ImGui::CollapsingHeader("Rendering", ImGuiTreeNodeFlags_DefaultOpen)) {
        changed |= optionWidgets(next, "render.", {"render.width", "render.height"}, options_.unavailable());
        ImGui::Text("%dx%d, %u samples per pixel", options_.render.width, options_.render.height,
                    facts_.samplesPerPixel);
        if (ImGui::Button("Reset accumulation")) resetAccum_ = true;
        if (!backendNote_.empty()) ImGui::TextColored(ImVec4(1, 0.8f, 0.3f, 1), "%s", backendNote_.c_str());
    }
    if (ImGui::CollapsingHeader("Animation", ImGuiTreeNodeFlags_DefaultOpen)) {
        ImGui::Checkbox(("play (" + keyLabel(KeyAction::Pause) + ")").c_str(), &playing_);
        ImGui::SameLine();
        ImGui::Checkbox("loop", &loop_);
        ImGui::SameLine();
        ImGui::Checkbox("fixed step", &fixedStep_);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("advance exactly 1/fps of scene time per frame");
        ImGui::SliderFloat("speed", &speed_, 0.0f, 4.0f);
        if (ImGui::SliderFloat("time", &time_, 0.0f, 60.0f, "%.2f s")) resetAccum_ = true;
        changed |= optionWidgets(next, "animation.", {"animation.play", "animation.start_time"});
    }
    if (ImGui::CollapsingHeader("Camera")) {
        CameraPose p = cameraOverride_ ? camera_.pose() : cameraAt(scene_->camera, time_);
        ImGui::Text("position %.2f %.2f %.2f", p.position.x, p.position.y, p.position.z);
        ImGui::Text("target   %.2f %.2f %.2f", p.target.x, p.target.y, p.target.z);
        if (ImGui::SliderFloat("fov", &camera_.fov(), 5.0f, 120.0f)) {
            cameraOverride_ = true;
            resetAccum_ = true;
        }
        if (ImGui::Button("Save view")) {
            views_.list.push_back(camera_.pose());
            views_.save(scene_->path);
        }
        for (size_t i = 0; i < views_.list.size(); ++i) {
            ImGui::SameLine();
            if (ImGui::Button(std::to_string(i + 1).c_str())) {
                camera_.setPose(views_.list[i]);
                cameraOverride_ = true;
                resetAccum_ = true;
            }
        }
        ImGui::Text("WASD move, Q/E down/up, right-drag look, Alt/middle-drag orbit, R reset");
    }
    if (ImGui::CollapsingHeader("Display & recording", ImGuiTreeNodeFlags_DefaultOpen)) {
        ImGui::Text("display: %s", displayModeName(display_->mode()));
        if (!displayNote_.empty()) ImGui::TextWrapped("%s", displayNote_.c_str());
        const char* modes[] = {"texture", "pbo", "copy"};
        int m = int(displayMode_);
        if (ImGui::Combo("display path", &m, modes, 3)) {
            displayMode_ = DisplayMode(m);
            display_ = makeDisplayPath(displayMode_, *renderer_, displayNote_);
            display_->attach(*gl_);
        }
        if (ImGui::Checkbox("vsync", &vsync_)) glfwSwapInterval(vsync_ ? 1 : 0);
        if (recorder_.recording()) {
            if (ImGui::Button(("Stop recording (" + keyLabel(KeyAction::Record) + ")").c_str())) recorder_.stop();
            ImGui::SameLine();
            ImGui::Text("%zu rows -> %s", recorder_.rows(), recorder_.path().c_str());
        } else {
            if (!recorder_.error().empty()) {  // the last recording's failure, in full
                ImGui::PushTextWrapPos(0.0f);
                ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "%s", recorder_.error().c_str());
                ImGui::PopTextWrapPos();
            }
            if (ImGui::Button(("Record CSV (" + keyLabel(KeyAction::Record) + ")").c_str()))
                recorder_.startOrSay(uniqueName(outputDir_, "strata", "csv"), recordStages());
        }
        if (ImGui::Button(("Screenshot (" + keyLabel(KeyAction::Screenshot) + ")").c_str())) wantShot_ = true;
        ImGui::SameLine();
        if (ImGui::Button(("with UI (Shift+" + keyLabel(KeyAction::Screenshot) + ")").c_str())) wantUiShot_ = true;
        if (!statusLine_.empty()) ImGui::TextWrapped("%s", statusLine_.c_str());
    }
    ImGui::End();
    if (changed) applyOptions(next, true);
}

}  // namespace strata
