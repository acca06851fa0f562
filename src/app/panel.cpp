#include "app/panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/panel_layout.h"
#include "core/error.h"
#include "core/number_format.h"

namespace strata {

namespace {

// One option's widget, labelled `label`; true when it changed `o`.
bool optionWidget(Options& o, const OptionInfo& info, std::string label,
                  const std::vector<std::string>& hiddenChoices) {
    // Table 13.1's switches are labelled as in the chapter.
    if (!info.help.empty() && info.help[0] == '[') label = info.help;
    std::string value = o.get(info.key), next = value;
    ImGui::PushID(info.key.c_str());
    switch (info.kind) {
        case OptionKind::Bool: {
            bool b = value == "true";
            if (ImGui::Checkbox(label.c_str(), &b)) next = b ? "true" : "false";
            break;
        }
        case OptionKind::Int: {
            int v = std::atoi(value.c_str());
            if (ImGui::InputInt(label.c_str(), &v, 1, 10, ImGuiInputTextFlags_EnterReturnsTrue))
                next = std::to_string(v);
            break;
        }
        case OptionKind::Float: {
            float v = float(std::atof(value.c_str()));
            // Drag steps of 1% of the value (0.05 near zero): exposures and heatmap scales alike.
            if (ImGui::DragFloat(label.c_str(), &v, std::max(0.05f, std::fabs(v) * 0.01f))) next = std::to_string(v);
            break;
        }
        case OptionKind::String: {
            if (info.choices.empty()) {
                ImGui::Text("%s: %s", label.c_str(), value.c_str());
                break;
            }
            if (ImGui::BeginCombo(label.c_str(), value.c_str())) {
                for (const std::string& c : info.choices) {
                    const std::string kv = info.key + "=" + c;
                    if (std::find(hiddenChoices.begin(), hiddenChoices.end(), kv) != hiddenChoices.end()) continue;
                    if (ImGui::Selectable(c.c_str(), c == value)) next = c;
                }
                ImGui::EndCombo();
            }
            break;
        }
    }
    if (ImGui::IsItemHovered()) {
        const std::string tip = info.detail.empty() ? info.help : info.help + "\n" + info.detail;
        if (!tip.empty()) ImGui::SetTooltip("%s", tip.c_str());
    }
    ImGui::PopID();
    if (next != value) {
        try {
            o.set(info.key, next);
            return true;
        } catch (const Error&) {
            // Out of range: keep the old value (the widget shows it again next frame).
        }
    }
    return false;
}

}  // namespace

bool optionWidgets(Options& o, const std::string& block, const std::vector<std::string>& hidden,
                   const std::vector<std::string>& hiddenChoices) {
    bool changed = false;
    for (const OptionInfo& info : Options::all()) {
        if (info.key.compare(0, block.size(), block) != 0) continue;
        if (info.derived || std::find(hidden.begin(), hidden.end(), info.key) != hidden.end()) continue;
        changed |= optionWidget(o, info, info.key.substr(block.size()), hiddenChoices);
    }
    return changed;
}

const std::vector<std::string>& kdSwitchKeys() {
    static const std::vector<std::string> keys = {
        "accel.kd_a",         "accel.kd_b",     "accel.kd_c",           "accel.kd_d",           "accel.kd_e",
        "accel.kd_lookahead", "accel.kd_small", "accel.kd_sns_compact", "accel.kd_large_split", "accel.kd_clip_leaves"};
    return keys;
}

void disabledNote(const char* text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", text);
    ImGui::PopStyleColor();
}

bool kdTreeWidgets(Options& o) {
    bool changed = false;
    // The CPU backend builds the reference kd-tree: of the switches it takes
    // the two that change the tree (Options::inert names the others).
    if (o.render.backend != Backend::Cuda) {
        disabledNote("[A]-[E], the presets and strata's GPU schedule switches: with the CUDA backend only");
        for (const char* key : {"accel.kd_large_split", "accel.kd_clip_leaves"})
            if (const OptionInfo* info = Options::find(key)) changed |= optionWidget(o, *info, key + 9, {});
        return changed;
    }
    ImGui::TextUnformatted("preset:");
    const std::string preset = o.get("accel.kd_preset");
    for (const char* p : {"original", "all", "all+strata"}) {
        ImGui::SameLine();
        const bool on = preset == p;
        if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
        if (ImGui::SmallButton(p) && !on) {
            o.set("accel.kd_preset", p);
            changed = true;
        }
        if (on) ImGui::PopStyleColor();
    }
    if (preset == "custom") {
        ImGui::SameLine();
        ImGui::TextDisabled("(custom)");
    }
    ImGui::Separator();
    ImGui::TextDisabled("Table 13.1 (Chang, Seo & Ihm)");
    const std::vector<std::string>& keys = kdSwitchKeys();
    for (size_t i = 0; i < keys.size(); ++i) {
        if (i == 5) {
            ImGui::Separator();
            ImGui::TextDisabled("strata's (not in the chapter)");
        }
        const OptionInfo* info = Options::find(keys[i]);
        if (!info) continue;
        // [A]-[E] are labelled by their help; strata's by the key after "accel.kd_".
        changed |= optionWidget(o, *info, keys[i].substr(9), {});
    }
    return changed;
}

void TimingOverlay::clear() {
    recent_.clear();
    display_.clear();
}

void TimingOverlay::add(const FrameRecord& r, double displayMs, double wallFps) {
    recent_.push_back(r);
    display_.push_back(displayMs);
    while (recent_.size() > history_) {
        recent_.pop_front();
        display_.pop_front();
    }
    fps_ = wallFps;
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
    // Rolling plots: total, build, trace.
    std::vector<float> series(recent_.size());
    auto plot = [&](const char* name, auto get) {
        float hi = 0;
        for (size_t i = 0; i < recent_.size(); ++i) hi = std::max(hi, series[i] = float(get(recent_[i])));
        // Drawn directly: a frame, the series as a polyline, the latest value.
        hi = hi * 1.2f + 1e-3f;
        ImVec2 p0 = ImGui::GetCursorScreenPos();
        float w = ImGui::GetContentRegionAvail().x, h = 56.0f;
        ImDrawList* dl = ImGui::GetWindowDrawList();
        dl->AddRectFilled(p0, ImVec2(p0.x + w, p0.y + h), ImGui::GetColorU32(ImGuiCol_FrameBg));
        std::vector<ImVec2> pts(series.size());
        float dx = series.size() > 1 ? w / float(history_ - 1) : 0.0f;
        for (size_t i = 0; i < series.size(); ++i)
            pts[i] = ImVec2(p0.x + dx * float(i), p0.y + h * (1.0f - series[i] / hi));
        if (pts.size() > 1)
            dl->AddPolyline(pts.data(), int(pts.size()), ImGui::GetColorU32(ImGuiCol_PlotLines), 0, 1.5f);
        char label[64];
        std::snprintf(label, sizeof label, "%s %.3f ms (max %.3f)", name, series.back(), hi / 1.2f);
        dl->AddText(ImVec2(p0.x + 4, p0.y + 2), ImGui::GetColorU32(ImGuiCol_Text), label);
        ImGui::Dummy(ImVec2(w, h + 4));
    };
    ImGui::PushID("total");
    plot("total", [](const FrameRecord& r) { return r.totalMs; });
    ImGui::PopID();
    ImGui::PushID("build");
    plot("build", [](const FrameRecord& r) { return r.stageMs("build"); });
    ImGui::PopID();
    ImGui::PushID("trace");
    plot("trace", [](const FrameRecord& r) { return r.stageMs("trace") + r.stageMs("shadow"); });
    ImGui::PopID();
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
