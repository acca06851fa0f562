// scene/scene_build.h — state shared by the parts of the scene loader while it
// fills one Scene (internal to scene_loader.cpp, scene_meshes.cpp and
// scene_instances.cpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "scene/scene.h"
#include "scene/scene_json_util.h"

namespace strata {

struct SceneBuild {
    Scene& scene;
    std::string file;                               // the scene file, as given: starts every message
    std::filesystem::path dir;                      // its folder: relative paths start here
    std::map<std::string, int32_t> materialByName;  // into Scene::materials
    std::set<std::string> sceneMaterials;           // names from the "materials" block
    std::map<std::string, int32_t> imageByPath;     // into Scene::images

    // A path from the scene file, relative to the scene's folder unless absolute.
    std::string resolve(const std::string& path) const;
    // Loads an image once per distinct path; errors are prefixed with `context`.
    int32_t image(const std::string& path, const std::string& context);
};

// Scene coordinates the renderer supports: intersection tests square them, and
// a float holds squares up to 3.4e38. Vertices (as placed by instances) and the
// camera must stay within +-kMaxSceneCoordinate.
constexpr double kMaxSceneCoordinate = 1e18;
// Fails on `f` when a component of v is beyond kMaxSceneCoordinate.
void checkCoordinates(const JsonField& f, Vec3 v);

// "materials": {"name": {...}, ...}                       (scene_meshes.cpp)
void loadMaterials(SceneBuild& b, const JsonField& block);
// "meshes": [...]: OBJ files, OBJ sequences, generators   (scene_meshes.cpp)
void loadMeshes(SceneBuild& b, const JsonField& list);
// "instances": [...]; without the field one identity instance per mesh (scene_instances.cpp)
void loadInstances(SceneBuild& b, const JsonField& root);
// Strictly increasing key times; `keys` is the array, `time(i)` reads key i's time field.
void checkIncreasingTimes(const JsonField& keys, const std::vector<float>& times);

}  // namespace strata
