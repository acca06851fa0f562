// app/viewer_config.cpp — see viewer_config.h.
#include "app/viewer_config.h"

#include <cmath>
#include <filesystem>
#include <initializer_list>

#include "core/error.h"
#include "core/options.h"
#include "scene/scene_json_util.h"

namespace strata {
namespace {

// Refuses keys of `obj` outside `known` (a typo would be ignored otherwise).
void knownKeys(const std::string& path, const std::string& where, const Json& obj,
               std::initializer_list<const char*> known) {
    for (const auto& [k, v] : obj.items()) {
        bool ok = false;
        std::string list;
        for (const char* n : known) {
            ok = ok || k == n;
            list += std::string(list.empty() ? "" : ", ") + n;
        }
        if (!ok) throw Error(path + ": " + where + "unknown key '" + k + "' (known: " + list + ")");
    }
}

const Json& object(const std::string& path, const Json& j, const char* key) {
    if (!j[key].is_object()) throw Error(path + ": '" + key + "' must be an object, not " + jsonTypeName(j[key]));
    return j[key];
}

double number(const std::string& path, const std::string& field, const Json& v) {
    if (!v.is_number()) throw Error(path + ": " + field + ": expected a number, got " + jsonTypeName(v));
    return v.get<double>();
}

bool boolean(const std::string& path, const std::string& field, const Json& v) {
    if (!v.is_boolean()) throw Error(path + ": " + field + ": expected true or false, got " + jsonTypeName(v));
    return v.get<bool>();
}

}  // namespace

void checkWindowSide(const std::string& what, long long v) {
    if (v < kMinWindowSide || v > kMaxWindowSide)
        throw Error(what + ": " + std::to_string(v) + " is out of range (" + std::to_string(kMinWindowSide) + "-" +
                    std::to_string(kMaxWindowSide) + ")");
}

void checkRenderScale(const std::string& what, double v) {
    if (!(v >= kMinRenderScale && v <= kMaxRenderScale))
        throw Error(what + ": " + numberText(v) + " is out of range (" + numberText(kMinRenderScale) + " to " +
                    numberText(kMaxRenderScale) + " of the window's size)");
}

ViewerConfig loadViewerConfig(const std::string& path, bool given) {
    ViewerConfig c;
    std::error_code ec;
    if (!given && !std::filesystem::exists(path, ec)) return c;  // no config: built-in defaults
    const Json j = parseJsonFile(path, "config file");
    if (!j.is_object()) throw Error(path + ": a config is a JSON object, not " + jsonTypeName(j));
    knownKeys(path, "", j, {"window", "display", "overlay", "options", "keys", "output"});
    if (j.contains("window")) {
        const Json& w = object(path, j, "window");
        knownKeys(path, "window: ", w, {"width", "height", "vsync", "scale"});
        auto side = [&](const char* k, int& out) {
            if (!w.contains(k)) return;
            const double v = number(path, std::string("window.") + k, w[k]);
            if (v != std::floor(v) || v < kMinWindowSide || v > kMaxWindowSide)
                throw Error(path + ": window." + k + ": " + numberText(v) + " is not a whole number of pixels in " +
                            std::to_string(kMinWindowSide) + "-" + std::to_string(kMaxWindowSide));
            out = int(v);
        };
        side("width", c.width);
        side("height", c.height);
        if (w.contains("vsync")) c.vsync = boolean(path, "window.vsync", w["vsync"]);
        if (w.contains("scale")) {
            const double s = number(path, "window.scale", w["scale"]);
            checkRenderScale(path + ": window.scale", s);
            c.scale = float(s);
        }
    }
    if (j.contains("display")) {
        if (!j["display"].is_string()) throw Error(path + ": display: expected auto, texture, pbo or copy");
        c.display = j["display"].get<std::string>();
    }
    if (j.contains("overlay")) {
        const Json& o = object(path, j, "overlay");
        knownKeys(path, "overlay: ", o, {"history"});
        if (o.contains("history")) {
            const double h = number(path, "overlay.history", o["history"]);
            if (!(h >= 2 && h <= 100000) || h != std::floor(h))
                throw Error(path + ": overlay.history: " + numberText(h) + " is not a frame count in 2-100000");
            c.history = size_t(h);
        }
    }
    if (j.contains("output")) {
        const Json& o = object(path, j, "output");
        knownKeys(path, "output: ", o, {"folder"});
        if (o.contains("folder")) {
            if (!o["folder"].is_string()) throw Error(path + ": output.folder: expected a folder name string");
            c.outputFolder = o["folder"].get<std::string>();
        }
    }
    if (j.contains("keys")) {
        if (!j["keys"].is_object()) throw Error(path + ": 'keys' must be an object of action: key name");
        for (const auto& [action, key] : j["keys"].items()) {
            if (!key.is_string()) throw Error(path + ": keys." + action + ": expected a key name string");
            try {
                c.keys.bind(action, key.get<std::string>());
            } catch (const Error& e) {
                throw Error(path + ": " + e.what());
            }
        }
    }
    if (j.contains("options")) {
        Options scratch;  // each key known and each value valid, as a scene file's
        for (const auto& [k, v] : object(path, j, "options").items()) {
            const std::string text = v.is_string() ? v.get<std::string>() : v.dump();
            try {
                scratch.set(k, text);
            } catch (const Error& e) {
                throw Error(path + ": options." + k + ": " + e.what());
            }
            c.options.emplace_back(k, text);
        }
    }
    return c;
}

}  // namespace strata
