// Placeholder until the generators land: every name is unknown.
#include "scene/generators/generators.h"

#include "core/error.h"

namespace strata {

LoadedMesh generateMesh(const std::string& generator, const nlohmann::json&, const std::string& where) {
    throw Error(where + ": unknown generator '" + generator + "'");
}

std::vector<std::string> generatorNames() { return {}; }

}  // namespace strata
