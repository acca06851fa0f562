#include "scene/generators/params.h"

#include <cmath>
#include <sstream>

#include "core/error.h"

namespace strata {

namespace {

std::string describe(const nlohmann::json& j) {
    std::string s = j.dump();
    if (s.size() > 40) s = s.substr(0, 37) + "...";
    return s;
}

std::string range(float lo, float hi) {
    std::ostringstream o;
    o << "[" << lo << ", " << hi << "]";
    return o.str();
}

}  // namespace

GeneratorParams::GeneratorParams(const nlohmann::json& params, std::string where, std::string generator,
                                 std::initializer_list<const char*> known)
    : params_(params), where_(std::move(where)), generator_(std::move(generator)) {
    if (params_.is_null()) return;
    if (!params_.is_object())
        throw Error(where_ + ": generator '" + generator_ + "': \"params\" must be an object, got " +
                    describe(params_));
    for (auto it = params_.begin(); it != params_.end(); ++it) {
        bool ok = false;
        for (const char* k : known) ok = ok || it.key() == k;
        if (!ok) {
            std::string list;
            for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
            throw Error(where_ + ": generator '" + generator_ + "': unknown param '" + it.key() + "' (expected " +
                        (list.empty() ? std::string("no params") : "one of: " + list) + ")");
        }
    }
}

const nlohmann::json* GeneratorParams::find(const char* key) const {
    if (!params_.is_object()) return nullptr;
    auto it = params_.find(key);
    return it == params_.end() ? nullptr : &*it;
}

void GeneratorParams::fail(const char* key, const std::string& expected, const nlohmann::json& got) const {
    throw Error(where_ + ": generator '" + generator_ + "': param '" + key + "': expected " + expected + ", got " +
                describe(got));
}

float GeneratorParams::number(const char* key, float def, float lo, float hi) const {
    const nlohmann::json* j = find(key);
    if (!j) return def;
    std::string expected = "a number in " + range(lo, hi);
    if (!j->is_number()) fail(key, expected, *j);
    double v = j->get<double>();
    if (!std::isfinite(v) || v < lo || v > hi) fail(key, expected, *j);
    return static_cast<float>(v);
}

int GeneratorParams::integer(const char* key, int def, int lo, int hi) const {
    const nlohmann::json* j = find(key);
    if (!j) return def;
    std::string expected = "an integer in " + range(float(lo), float(hi));
    if (!j->is_number_integer()) fail(key, expected, *j);
    long long v = j->get<long long>();
    if (v < lo || v > hi) fail(key, expected, *j);
    return static_cast<int>(v);
}

bool GeneratorParams::boolean(const char* key, bool def) const {
    const nlohmann::json* j = find(key);
    if (!j) return def;
    if (!j->is_boolean()) fail(key, "true or false", *j);
    return j->get<bool>();
}

uint32_t GeneratorParams::seed(const char* key, uint32_t def) const {
    const nlohmann::json* j = find(key);
    if (!j) return def;
    if (!j->is_number_integer() || j->get<long long>() < 0 || j->get<long long>() > 0xffffffffLL)
        fail(key, "a non-negative integer below 2^32", *j);
    return static_cast<uint32_t>(j->get<long long>());
}

Vec3 GeneratorParams::vec3OrNumber(const char* key, Vec3 def, float lo, float hi) const {
    const nlohmann::json* j = find(key);
    if (!j) return def;
    std::string expected = "a number or an array of 3 numbers in " + range(lo, hi);
    auto check = [&](const nlohmann::json& e) {
        if (!e.is_number()) fail(key, expected, *j);
        double v = e.get<double>();
        if (!std::isfinite(v) || v < lo || v > hi) fail(key, expected, *j);
        return static_cast<float>(v);
    };
    if (j->is_number()) return make3(check(*j));
    if (!j->is_array() || j->size() != 3) fail(key, expected, *j);
    return {check((*j)[0]), check((*j)[1]), check((*j)[2])};
}

}  // namespace strata
