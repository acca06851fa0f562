// scene/generators/params.h — reading a generator's JSON parameters with
// defaults, range checks and errors that name the generator, the parameter and
// what was expected. Unknown parameters are rejected up front.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/vec.h"

namespace strata {

class GeneratorParams {
public:
    // `params` must be null or an object whose keys are all in `known`.
    GeneratorParams(const nlohmann::json& params, std::string where, std::string generator,
                    std::initializer_list<const char*> known);

    float number(const char* key, float def, float lo, float hi) const;
    int integer(const char* key, int def, int lo, int hi) const;
    bool boolean(const char* key, bool def) const;
    uint32_t seed(const char* key, uint32_t def) const;
    // A number (uniform) or an array of three numbers, each in [lo, hi].
    Vec3 vec3OrNumber(const char* key, Vec3 def, float lo, float hi) const;

private:
    const nlohmann::json* find(const char* key) const;
    [[noreturn]] void fail(const char* key, const std::string& expected, const nlohmann::json& got) const;

    const nlohmann::json& params_;
    std::string where_;
    std::string generator_;
};

}  // namespace strata
