// The generator registry: names to entry points (catalog.h).
#include "scene/generators/generators.h"

#include "core/error.h"
#include "scene/generators/catalog.h"

namespace strata {

namespace {

struct Entry {
    const char* name;
    LoadedMesh (*make)(const nlohmann::json&, const std::string&);
};

const Entry kGenerators[] = {
    {"atrium", generateAtrium},  {"kitchen", generateKitchen},  {"runner", generateRunner},
    {"forest", generateForest},  {"plane", generatePlane},      {"box", generateBox},
    {"sphere", generateSphere},  {"cornell", generateCornell},  {"vd-mushroom", generateVdMushroom},
    {"vd-hook", generateVdHook}, {"vd-spike", generateVdSpike}, {"vd-bark", generateVdBark},
};

}  // namespace

LoadedMesh generateMesh(const std::string& generator, const nlohmann::json& params, const std::string& where) {
    for (const Entry& e : kGenerators)
        if (generator == e.name) return e.make(params, where);
    std::string list;
    for (const Entry& e : kGenerators) list += (list.empty() ? "" : ", ") + std::string(e.name);
    throw Error(where + ": unknown generator '" + generator + "' (expected one of: " + list + ")");
}

std::vector<std::string> generatorNames() {
    std::vector<std::string> names;
    for (const Entry& e : kGenerators) names.push_back(e.name);
    return names;
}

}  // namespace strata
