#include "app/timing_overlay.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/panel_layout.h"
#include "app/plot_scale.h"
#include "core/number_format.h"

namespace strata {

std::string stageMeaning(const std::string& stage) {
    if (stage == "total") return "the frame: the sum of its top-level stages (not display)";
    if (stage == "animate") return "posing the meshes at the frame's scene time";
    if (stage == "build") return "every acceleration structure of the frame (its parts: build/...)";
    if (stage == "trace")
        return "closest hits of the camera and bounce rays (trace/primary + trace/bounce, and trace/sort with "
               "render.sort_rays); shadow rays are 'shadow'";
    if (stage == "vd") return "VD patches traced directly: pairs, sort, the per-patch trees (vd/...)";
    if (stage == "shade") return "camera rays' generation (shade/primary) and shading at every hit";
    if (stage == "shadow") return "shadow rays (any hit) and their light";
    if (stage == "accumulate") return "adding the frame's samples to the image";
    if (stage == "heatmap") return "view.heatmap's pass: the camera rays again with counters";
    if (stage == "display") return "showing the frame: the copy or map to OpenGL, the draw and the UI";
    if (stage.find('/') != std::string::npos) return "a part of stage '" + stage.substr(0, stage.find('/')) + "'";
    return {};
}

void TimingOverlay::clear() {
    recent_.clear();
    display_.clear();
    changes_.clear();
}

void TimingOverlay::add(const FrameRecord& r, double displayMs, double wallFps, std::vector<std::string> change) {
    recent_.push_back(r);
    display_.push_back(displayMs);
    changes_.push_back(std::move(change));
    while (recent_.size() > history_) {
        recent_.pop_front();
        display_.pop_front();
        changes_.pop_front();
    }
    fps_ = wallFps;
}

double TimingOverlay::value(const std::string& stage, size_t i) const {
    if (stage == "total") return recent_[i].totalMs;
    if (stage == "display") return display_[i];
    return recent_[i].stageMs(stage);
}

// One plot: its stage (a combo over every stage), then the last window_
// frames as a polyline over a y axis in ms from 0 to a round number, frame
// numbers under both ends, an orange dashed line and label at each option
// change, and the frame under the mouse in a tooltip.
void TimingOverlay::plot(size_t slot, const std::vector<std::string>& choices, bool gpuClock) {
    ImGui::PushID(int(slot));
    if (plots_.size() > 1) {
        if (ImGui::SmallButton("x")) {
            plots_.erase(plots_.begin() + long(slot));
            ImGui::PopID();
            return;
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("remove this plot");
        ImGui::SameLine();
    }
    std::string& stage = plots_[slot];
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.4f);
    if (ImGui::BeginCombo("##stage", stage.c_str())) {
        for (const std::string& c : choices)
            if (ImGui::Selectable(c.c_str(), c == stage)) stage = c;
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", stageMeaning(stage).c_str());
    const PlotRange range = plotRange(recent_.size(), window_);
    std::vector<float> v(range.count);
    float hi = 0;
    for (size_t k = 0; k < range.count; ++k) hi = std::max(hi, v[k] = float(value(stage, range.first + k)));
    ImGui::SameLine();
    ImGui::Text("ms, %s: %.3f (max %.3f)", gpuClock ? "GPU" : "wall clock", v.back(), hi);
    const float top = float(niceCeil(hi > 0 ? hi : 1e-3));
    char topText[32], midText[32];
    std::snprintf(topText, sizeof topText, "%g", top);
    std::snprintf(midText, sizeof midText, "%g", top / 2);
    const float axis = std::max(ImGui::CalcTextSize(topText).x, ImGui::CalcTextSize(midText).x) + 6.0f;
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float w = std::max(ImGui::GetContentRegionAvail().x - axis, 40.0f), h = 64.0f;
    const ImVec2 p0(at.x + axis, at.y), p1(at.x + axis + w, at.y + h);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), grid = ImGui::GetColorU32(ImGuiCol_Border),
                marker = IM_COL32(255, 160, 40, 255);
    dl->AddRectFilled(p0, p1, ImGui::GetColorU32(ImGuiCol_FrameBg));
    for (int g = 0; g <= 2; ++g) {  // 0, top/2, top
        const float y = p1.y - h * float(g) / 2.0f;
        dl->AddLine(ImVec2(p0.x, y), ImVec2(p1.x, y), grid);
        const char* label = g == 0 ? "0" : g == 1 ? midText : topText;
        dl->AddText(ImVec2(p0.x - ImGui::CalcTextSize(label).x - 3.0f, y - ImGui::GetFontSize() * 0.5f), text, label);
    }
    auto xOf = [&](size_t k) { return range.count > 1 ? p0.x + w * float(k) / float(range.count - 1) : p0.x; };
    dl->PushClipRect(p0, p1, true);
    int markers = 0;  // option changes: dashed lines, labelled at the top (three rows, so close ones stay apart)
    for (size_t k = 0; k < range.count; ++k) {
        const std::vector<std::string>& c = changes_[range.first + k];
        if (c.empty()) continue;
        const float x = xOf(k);
        for (float y = p0.y; y < p1.y; y += 6.0f)
            dl->AddLine(ImVec2(x, y), ImVec2(x, std::min(y + 3.0f, p1.y)), marker);
        dl->AddText(ImVec2(x + 2.0f, p0.y + 1.0f + ImGui::GetFontSize() * float(markers++ % 3)), marker,
                    changeLabel(c).c_str());
    }
    std::vector<ImVec2> pts(range.count);
    for (size_t k = 0; k < range.count; ++k) pts[k] = ImVec2(xOf(k), p1.y - h * std::min(v[k] / top, 1.0f));
    if (pts.size() > 1) dl->AddPolyline(pts.data(), int(pts.size()), ImGui::GetColorU32(ImGuiCol_PlotLines), 0, 1.5f);
    dl->PopClipRect();
    ImGui::Dummy(ImVec2(axis + w, h));
    const bool hovered = ImGui::IsItemHovered();
    // Frame numbers under both ends.
    char left[32], right[32];
    std::snprintf(left, sizeof left, "frame %llu", static_cast<unsigned long long>(recent_[range.first].frame));
    std::snprintf(right, sizeof right, "%llu", static_cast<unsigned long long>(recent_.back().frame));
    ImGui::SetCursorScreenPos(ImVec2(p0.x, p1.y + 1.0f));
    ImGui::TextDisabled("%s", left);
    ImGui::SameLine(axis + w - ImGui::CalcTextSize(right).x);
    ImGui::TextDisabled("%s", right);
    if (hovered) {
        const long k = frameAt(ImGui::GetIO().MousePos.x, p0.x, w, range.count);
        if (k >= 0) {
            const size_t i = range.first + size_t(k);
            dl->AddLine(ImVec2(xOf(size_t(k)), p0.y), ImVec2(xOf(size_t(k)), p1.y), text);
            std::string tip = "frame " + std::to_string(recent_[i].frame) + " (scene time " +
                              threeDigits(recent_[i].sceneTime) + " s): " + stage + " " + threeDigits(v[size_t(k)]) +
                              " ms";
            for (const std::string& c : changes_[i]) tip += "\n" + c;
            ImGui::SetTooltip("%s", tip.c_str());
        }
    }
    ImGui::PopID();
}

void TimingOverlay::draw(const std::vector<std::string>& stages, bool gpuClock) {
    const ImVec2 display = ImGui::GetIO().DisplaySize;  // ImGui's units (screen coordinates)
    const WindowRect r = panelLayout(display.x, display.y).timings;
    ImGui::SetNextWindowPos(ImVec2(r.x, r.y), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(r.w, r.h), ImGuiCond_FirstUseEver);
    ImGui::Begin("Timings");
    if (recent_.empty()) {
        ImGui::Text("waiting for the first frame...");
        ImGui::End();
        return;
    }
    const size_t avgN = std::min<size_t>(recent_.size(), 60);
    auto avg = [&](auto get) {
        double s = 0;
        for (size_t i = recent_.size() - avgN; i < recent_.size(); ++i) s += get(recent_[i], i);
        return s / double(avgN);
    };
    const FrameRecord& last = recent_.back();
    double total = avg([](const FrameRecord& r, size_t) { return r.totalMs; });
    double disp = avg([&](const FrameRecord&, size_t i) { return display_[i]; });
    ImGui::TextWrapped("%.1f fps (window)   frame %.3f ms, %s time (avg of %zu)", fps_, total,
                       gpuClock ? "GPU" : "wall-clock", avgN);
    ImGui::TextWrapped("launches: %u per frame, %u per build", last.launches, last.buildLaunches);
    double rays = avg([](const FrameRecord& r, size_t) { return double(r.rays + r.shadowRays); });
    double traceMs = avg([](const FrameRecord& r, size_t) { return r.stageMs("trace") + r.stageMs("shadow"); });
    ImGui::TextWrapped("%.2f M rays/frame, %s Mrays/s (trace + shadow)", rays * 1e-6,
                       threeDigits(traceMs > 0 ? rays / (traceMs * 1e3) : 0.0).c_str());
    if (last.vdPairs > 0) {
        double pairs = avg([](const FrameRecord& r, size_t) { return double(r.vdPairs); });
        ImGui::Text("VD: %.2f M (patch, ray) pairs/frame, vd %.3f ms (pairs %.3f, sort %.3f, bottom %.3f)",
                    pairs * 1e-6, avg([](const FrameRecord& r, size_t) { return r.stageMs("vd"); }),
                    avg([](const FrameRecord& r, size_t) { return r.stageMs("vd/pairs"); }),
                    avg([](const FrameRecord& r, size_t) { return r.stageMs("vd/sort"); }),
                    avg([](const FrameRecord& r, size_t) { return r.stageMs("vd/bottom"); }));
    }
    // Plots of any stage over the last window_ frames.
    int window = int(window_);
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.45f);
    if (ImGui::SliderInt("frames plotted", &window, 2, int(history_))) window_ = size_t(window);
    ImGui::SameLine();
    if (ImGui::SmallButton("+ plot")) plots_.push_back("total");
    std::vector<std::string> choices = {"total"};
    choices.insert(choices.end(), stages.begin(), stages.end());
    choices.push_back("display");
    for (size_t slot = 0; slot < plots_.size(); ++slot) plot(slot, choices, gpuClock);
    if (ImGui::BeginTable("stages", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
        ImGui::TableSetupColumn("stage");
        ImGui::TableSetupColumn("ms");
        ImGui::TableSetupColumn("launches");
        ImGui::TableHeadersRow();
        for (size_t k = 0; k < stages.size(); ++k) {
            double ms = avg([&](const FrameRecord& r, size_t) { return k < r.stages.size() ? r.stages[k].ms : 0.0; });
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            bool sub = stages[k].find('/') != std::string::npos;
            ImGui::Text("%s%s", sub ? "  " : "", stages[k].c_str());
            ImGui::TableNextColumn();
            ImGui::Text("%.3f", ms);
            ImGui::TableNextColumn();
            ImGui::Text("%u", k < last.stages.size() ? last.stages[k].launches : 0u);
        }
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text("display");
        ImGui::TableNextColumn();
        ImGui::Text("%.3f", disp);
        ImGui::EndTable();
    }
    ImGui::End();
}

}  // namespace strata
