#include "core/options.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <sstream>

#include "core/error.h"

namespace strata {
namespace {

struct Field {
    OptionInfo info;
    std::function<void*(Options&)> ref;
};


const std::vector<Field>& fields() {
    static const std::vector<Field> table = {
        {{"render.width", OptionKind::Int, "image width in pixels", {}},
         [](Options& o) -> void* { return &o.render.width; }},
        {{"render.height", OptionKind::Int, "image height in pixels", {}},
         [](Options& o) -> void* { return &o.render.height; }},
        {{"render.spp", OptionKind::Int, "samples per pixel per frame", {}},
         [](Options& o) -> void* { return &o.render.spp; }},
        {{"render.bounces", OptionKind::Int, "path segments after the camera ray", {}},
         [](Options& o) -> void* { return &o.render.bounces; }},
        {{"render.nee", OptionKind::Bool, "next-event estimation with MIS", {}},
         [](Options& o) -> void* { return &o.render.nee; }},
        {{"render.rr_start", OptionKind::Int, "Russian roulette from this bounce on", {}},
         [](Options& o) -> void* { return &o.render.rrStart; }},
        {{"render.exposure", OptionKind::Float, "exposure in stops", {}},
         [](Options& o) -> void* { return &o.render.exposure; }},
        {{"render.tonemap", OptionKind::String, "tone-mapping operator", {"aces", "reinhard", "clamp"}},
         [](Options& o) -> void* { return &o.render.tonemap; }},
        {{"render.seed", OptionKind::Int, "random seed", {}},
         [](Options& o) -> void* { return &o.render.seed; }},
        {{"render.backend", OptionKind::String, "renderer backend", {"cuda", "cpu"}},
         [](Options& o) -> void* { return &o.render.backend; }},
        {{"render.threads", OptionKind::Int, "CPU backend threads (0: all cores)", {}},
         [](Options& o) -> void* { return &o.render.threads; }},
        {{"accel.builder", OptionKind::String, "acceleration structure builder",
          {"lbvh-karras", "lbvh-apetrei", "lbvh-skip", "cpu-sah", "kdtree"}},
         [](Options& o) -> void* { return &o.accel.builder; }},
        {{"accel.traversal", OptionKind::String, "ray traversal (stackless needs accel.builder lbvh-skip)",
          {"stack", "stackless"}},
         [](Options& o) -> void* { return &o.accel.traversal; }},
        {{"accel.morton_bits", OptionKind::Int, "LBVH Morton code bits (30 or 63)", {}},
         [](Options& o) -> void* { return &o.accel.mortonBits; }},
        {{"accel.mode", OptionKind::String, "flat: all instances baked into one structure", {"flat"}},
         [](Options& o) -> void* { return &o.accel.mode; }},
        {{"accel.rebuild", OptionKind::String,
          "every-frame: animate and rebuild each frame; animated: only when scene time or a build option changed",
          {"every-frame", "animated"}},
         [](Options& o) -> void* { return &o.accel.rebuild; }},
        {{"accel.kd_a", OptionKind::Bool, "[A] LNS1 triangle sorting: per-block atomics", {}},
         [](Options& o) -> void* { return &o.accel.kdA; }},
        {{"accel.kd_b", OptionKind::Bool, "[B] LNS1 intra-block scans: ballot/popc + shfl", {}},
         [](Options& o) -> void* { return &o.accel.kdB; }},
        {{"accel.kd_c", OptionKind::Bool, "[C] LNS2 node AABBs: per-block atomics", {}},
         [](Options& o) -> void* { return &o.accel.kdC; }},
        {{"accel.kd_d", OptionKind::Bool, "[D] LNS2 intra-block reductions: shfl", {}},
         [](Options& o) -> void* { return &o.accel.kdD; }},
        {{"accel.kd_e", OptionKind::Bool, "[E] SNS bit counting: popc", {}},
         [](Options& o) -> void* { return &o.accel.kdE; }},
        {{"animation.fps", OptionKind::Float, "scene time per frame is 1/fps seconds", {}},
         [](Options& o) -> void* { return &o.animation.fps; }},
        {{"animation.start_time", OptionKind::Float, "scene time of the first frame (s)", {}},
         [](Options& o) -> void* { return &o.animation.startTime; }},
        {{"animation.play", OptionKind::Bool, "advance scene time every frame", {}},
         [](Options& o) -> void* { return &o.animation.play; }},
    };
    return table;
}

const Field& field(const std::string& key) {
    for (const Field& f : fields())
        if (f.info.key == key) return f;
    std::string known;
    for (const Field& f : fields()) known += (known.empty() ? "" : ", ") + f.info.key;
    throw Error("unknown option '" + key + "' (known options: " + known + ")");
}

const char* kindName(OptionKind k) {
    switch (k) {
        case OptionKind::Int: return "an integer";
        case OptionKind::Float: return "a number";
        case OptionKind::Bool: return "true or false";
        case OptionKind::String: return "a string";
    }
    return "?";
}

void checkRange(const std::string& key, double v, double lo, double hi) {
    if (v < lo || v > hi) {
        std::ostringstream s;
        s << "option '" << key << "' = " << v << " is out of range [" << lo << ", " << hi << "]";
        throw Error(s.str());
    }
}

}  // namespace

const std::vector<OptionInfo>& Options::all() {
    static const std::vector<OptionInfo> infos = [] {
        std::vector<OptionInfo> v;
        for (const Field& f : fields()) v.push_back(f.info);
        return v;
    }();
    return infos;
}

const OptionInfo* Options::find(const std::string& key) {
    for (const Field& f : fields())
        if (f.info.key == key) return &f.info;
    return nullptr;
}

void Options::set(const std::string& key, const std::string& value) {
    const Field& f = field(key);
    void* p = f.ref(*this);
    auto bad = [&]() {
        return Error("option '" + key + "': expected " + kindName(f.info.kind) + ", got '" + value + "'");
    };
    switch (f.info.kind) {
        case OptionKind::Int: {
            errno = 0;
            char* end = nullptr;
            long long v = std::strtoll(value.c_str(), &end, 10);
            if (value.empty() || *end != '\0' || errno != 0) throw bad();
            if (key == "render.seed") {
                checkRange(key, double(v), 0, 4294967295.0);
                *static_cast<uint32_t*>(p) = static_cast<uint32_t>(v);
                return;
            }
            if (key == "render.width" || key == "render.height") checkRange(key, double(v), 1, kMaxRenderResolution);
            else if (key == "render.spp") checkRange(key, double(v), 1, 65536);
            else if (key == "render.bounces") checkRange(key, double(v), 0, 64);
            else if (key == "render.threads") checkRange(key, double(v), 0, 1024);
            else if (key == "render.rr_start") checkRange(key, double(v), 0, 1024);
            else if (key == "accel.morton_bits") {
                if (v != 30 && v != 63) throw Error("option 'accel.morton_bits': expected 30 or 63, got '" + value + "'");
            }
            *static_cast<int*>(p) = static_cast<int>(v);
            return;
        }
        case OptionKind::Float: {
            errno = 0;
            char* end = nullptr;
            double v = std::strtod(value.c_str(), &end);
            if (value.empty() || *end != '\0' || errno != 0 || !std::isfinite(v)) throw bad();
            if (key == "animation.fps") checkRange(key, v, 0.001, 10000);
            if (key == "render.exposure") checkRange(key, v, -64, 64);
            *static_cast<float*>(p) = static_cast<float>(v);
            return;
        }
        case OptionKind::Bool: {
            if (value == "true" || value == "1" || value == "on") *static_cast<bool*>(p) = true;
            else if (value == "false" || value == "0" || value == "off") *static_cast<bool*>(p) = false;
            else throw bad();
            return;
        }
        case OptionKind::String: {
            if (!f.info.choices.empty()) {
                bool ok = false;
                std::string list;
                for (const std::string& c : f.info.choices) {
                    ok = ok || c == value;
                    list += (list.empty() ? "" : ", ") + c;
                }
                if (!ok) throw Error("option '" + key + "': expected one of " + list + ", got '" + value + "'");
            }
            *static_cast<std::string*>(p) = value;
            return;
        }
    }
}

void Options::setAssignment(const std::string& assignment) {
    size_t eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
        throw Error("--set expects key=value, got '" + assignment + "'");
    set(assignment.substr(0, eq), assignment.substr(eq + 1));
}

std::string Options::get(const std::string& key) const {
    const Field& f = field(key);
    void* p = f.ref(const_cast<Options&>(*this));
    switch (f.info.kind) {
        case OptionKind::Int:
            if (key == "render.seed") return std::to_string(*static_cast<uint32_t*>(p));
            return std::to_string(*static_cast<int*>(p));
        case OptionKind::Float: {
            std::ostringstream s;
            s << *static_cast<float*>(p);
            return s.str();
        }
        case OptionKind::Bool: return *static_cast<bool*>(p) ? "true" : "false";
        case OptionKind::String: return *static_cast<std::string*>(p);
    }
    return {};
}

void Options::checkValues() const {
    // The same checks as set(), on each field's text: one table of ranges.
    Options scratch;
    for (const Field& f : fields()) scratch.set(f.info.key, get(f.info.key));
}

void Options::check() const {
    checkValues();
    if (accel.traversal == "stackless" && accel.builder != "lbvh-skip")
        throw Error("option 'accel.traversal' = 'stackless' needs accel.builder = 'lbvh-skip' (the builder that "
                    "installs skip links), got accel.builder = '" + accel.builder + "'");
}

}  // namespace strata
