// scene/scene_loader.h — the JSON scene format (docs/scene-format.md).
#pragma once

#include <string>

#include "scene/scene.h"

namespace strata {

// Loads a scene file and everything it references (OBJ/MTL, images, generated
// meshes). Relative paths are relative to the scene file's folder. Throws
// strata::Error with one message naming the file, and the line and column (for
// malformed JSON) or the field (for unknown / wrongly typed fields: "meshes[2].obj:
// expected a string").
Scene loadScene(const std::string& path);

}  // namespace strata
