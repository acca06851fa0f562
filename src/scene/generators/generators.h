// scene/generators/generators.h — procedural meshes made at load time, so the
// benchmark scenes stay small in git. A scene file names a generator and its
// parameters: {"name": "runner1", "generator": "runner", "params": {"phase": 0.25}}.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scene/scene.h"

namespace strata {

// Makes the mesh of generator `generator` with `params` (a JSON object, may be
// empty: every parameter has a default). `where` names the scene file and field
// for error messages ("scenes/atrium.json: meshes[2]"). Throws strata::Error on
// an unknown generator or a bad parameter (naming it).
LoadedMesh generateMesh(const std::string& generator, const nlohmann::json& params, const std::string& where);

// Names of every generator, for --help and error messages.
std::vector<std::string> generatorNames();

}  // namespace strata
