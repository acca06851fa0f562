// scene/generators/catalog.h — one entry point per generator (one .cpp each);
// generators.cpp dispatches on the name. Each reads its own params and throws
// strata::Error naming `where` and the parameter on anything unexpected.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "scene/scene.h"

namespace strata {

LoadedMesh generatePlane(const nlohmann::json& params, const std::string& where);
LoadedMesh generateBox(const nlohmann::json& params, const std::string& where);
LoadedMesh generateSphere(const nlohmann::json& params, const std::string& where);
LoadedMesh generateCornell(const nlohmann::json& params, const std::string& where);
LoadedMesh generateAtrium(const nlohmann::json& params, const std::string& where);
LoadedMesh generateKitchen(const nlohmann::json& params, const std::string& where);
LoadedMesh generateRunner(const nlohmann::json& params, const std::string& where);
LoadedMesh generateForest(const nlohmann::json& params, const std::string& where);
LoadedMesh generateVdMushroom(const nlohmann::json& params, const std::string& where);
LoadedMesh generateVdHook(const nlohmann::json& params, const std::string& where);
LoadedMesh generateVdSpike(const nlohmann::json& params, const std::string& where);
LoadedMesh generateVdBark(const nlohmann::json& params, const std::string& where);

}  // namespace strata
