// app/camera_views.cpp — the viewer's camera bookmarks (SCENE.views.json).
#include <cstdio>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "app/viewer_state.h"
#include "core/error.h"
#include "core/output_file.h"
#include "scene/scene_json_util.h"

namespace strata {

void Views::load(const std::string& scene) {
    list.clear();
    std::error_code ec;
    if (!std::filesystem::exists(pathFor(scene), ec)) return;
    try {
        const Json j = parseJsonFile(pathFor(scene), "camera bookmarks");
        if (!j.is_array()) throw Error(pathFor(scene) + ": expected an array of views");
        for (const auto& v : j) {
            CameraPose p{};
            p.position = {v.at("position").at(0), v.at("position").at(1), v.at("position").at(2)};
            p.target = {v.at("target").at(0), v.at("target").at(1), v.at("target").at(2)};
            p.up = {0, 1, 0};
            p.fovYDegrees = v.at("fov");
            if (!isFinite(p.position) || !isFinite(p.target) || !(p.fovYDegrees > 0 && p.fovYDegrees < 180))
                throw Error(pathFor(scene) + ": view " + std::to_string(list.size()) +
                            ": position and target must be finite and fov in (0, 180)");
            list.push_back(p);
        }
    } catch (const Error& e) {
        list.clear();
        std::fprintf(stderr, "strata: the camera bookmarks are not loaded: %s\n", e.what());
    } catch (const nlohmann::json::exception& e) {
        list.clear();
        std::fprintf(stderr, "strata: the camera bookmarks are not loaded: %s: %s\n", pathFor(scene).c_str(), e.what());
    }
}

void Views::save(const std::string& scene) const {
    nlohmann::json j = nlohmann::json::array();
    for (const CameraPose& p : list)
        j.push_back({{"position", {p.position.x, p.position.y, p.position.z}},
                     {"target", {p.target.x, p.target.y, p.target.z}},
                     {"fov", p.fovYDegrees}});
    try {
        writeFileAtomic(pathFor(scene), j.dump(2) + "\n");
    } catch (const Error& e) {
        std::fprintf(stderr, "strata: the camera bookmarks are not saved: %s\n", e.what());
    }
}

}  // namespace strata
