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
                  const std::vector<Unavailable>& ruledOut) {
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
                    // A choice the other options rule out is greyed, its reason on hover.
                    const Unavailable* why = nullptr;
                    for (const Unavailable& u : ruledOut)
                        if (u.key == info.key && u.value == c) why = &u;
                    if (why) {
                        ImGui::BeginDisabled();
                        ImGui::Selectable(c.c_str(), false);
                        ImGui::EndDisabled();
                        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
                            ImGui::SetTooltip("%s", why->reason.c_str());
                        continue;
                    }
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
                   const std::vector<Unavailable>& ruledOut) {
    bool changed = false;
    for (const OptionInfo& info : Options::all()) {
        if (info.key.compare(0, block.size(), block) != 0) continue;
        if (info.derived || std::find(hidden.begin(), hidden.end(), info.key) != hidden.end()) continue;
        changed |= optionWidget(o, info, info.key.substr(block.size()), ruledOut);
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

bool presetButtons(Options& o, const char* key) {
    const OptionInfo* info = Options::find(key);
    if (!info) return false;
    bool changed = false;
    ImGui::PushID(key);
    ImGui::TextUnformatted("preset:");
    const std::string preset = o.get(key);
    for (const std::string& p : info->choices) {
        if (p == "custom") continue;
        ImGui::SameLine();
        const bool on = preset == p;
        // A preset the other options rule out (vd.method harada in instanced
        // mode) is greyed, with why.
        std::string why;
        try {
            Options t = o;
            t.set(key, p);
            t.check();
        } catch (const Error& e) {
            why = e.what();
        }
        if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
        ImGui::BeginDisabled(!why.empty() && !on);
        if (ImGui::SmallButton(p.c_str()) && !on) {
            o.set(key, p);
            changed = true;
        }
        ImGui::EndDisabled();
        if (on) ImGui::PopStyleColor();
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
            const std::string tip = why.empty() ? info->detail : why;
            if (!tip.empty()) ImGui::SetTooltip("%s", tip.c_str());
        }
    }
    if (preset == "custom") {
        ImGui::SameLine();
        ImGui::TextDisabled("(custom)");
    }
    ImGui::PopID();
    return changed;
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
    changed |= presetButtons(o, "accel.kd_preset");
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

}  // namespace strata
