// scene/scene_json_util.cpp — see scene_json_util.h.
#include "scene/scene_json_util.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "core/input_file.h"

namespace strata {
namespace {

// nlohmann's message without its "[json.exception...] parse error at line L, column C: " prefix.
std::string bareMessage(const std::string& what) {
    size_t k = what.find("] ");
    std::string m = k == std::string::npos ? what : what.substr(k + 2);
    size_t col = m.find("column ");
    if (m.rfind("parse error", 0) == 0 && col != std::string::npos) {
        size_t colon = m.find(": ", col);
        if (colon != std::string::npos) m = m.substr(colon + 2);
    }
    return m;
}

// 1-based line and column of the character at 0-based offset `pos`.
std::string lineColumn(const std::string& text, size_t pos) {
    pos = std::min(pos, text.size());
    size_t line = 1 + size_t(std::count(text.begin(), text.begin() + long(pos), '\n'));
    size_t lineStart = 0;
    if (pos > 0) {
        size_t nl = text.rfind('\n', pos - 1);
        if (nl != std::string::npos) lineStart = nl + 1;
    }
    return std::to_string(line) + ":" + std::to_string(pos - lineStart + 1);
}

}  // namespace

Json parseJsonFile(const std::string& path, const std::string& what) {
    const std::string text = readInputFile(path, what, kMaxTextStreamBytes);
    try {
        return Json::parse(text, nullptr, /*allow_exceptions=*/true, /*ignore_comments=*/true);
    } catch (const Json::parse_error& e) {
        // e.byte counts the characters read, the offending one included.
        throw Error(path + ":" + lineColumn(text, e.byte == 0 ? 0 : e.byte - 1) + ": " + bareMessage(e.what()));
    } catch (const Json::exception& e) {
        // Number overflow ("1e400") has no position; find the literal it quotes.
        std::string m = bareMessage(e.what());
        size_t q = m.find('\''), q2 = m.rfind('\'');
        if (q != std::string::npos && q2 > q + 1) {
            size_t at = text.find(m.substr(q + 1, q2 - q - 1));
            if (at != std::string::npos) throw Error(path + ":" + lineColumn(text, at) + ": " + m);
        }
        throw Error(path + ": " + m);
    }
}

std::string jsonTypeName(const Json& j) { return j.type_name(); }

std::string numberText(double v) {
    std::ostringstream s;
    s << v;
    return s.str();
}

void JsonField::fail(const std::string& msg) const { throw Error(where() + ": " + msg); }

void JsonField::expected(const std::string& what) const { fail("expected " + what + ", got " + jsonTypeName(*v_)); }

void JsonField::allowOnly(std::initializer_list<const char*> keys) const {
    if (!v_->is_object()) expected("an object");
    for (const auto& item : v_->items()) {
        bool known = false;
        for (const char* k : keys) known = known || item.key() == k;
        if (known) continue;
        std::string list;
        for (const char* k : keys) list += (list.empty() ? "" : ", ") + std::string(k);
        JsonField(item.value(), file_, childPath(item.key())).fail("unknown field (allowed here: " + list + ")");
    }
}

JsonField JsonField::operator[](const std::string& key) const {
    if (!v_->is_object()) expected("an object");
    auto it = v_->find(key);
    if (it == v_->end()) fail("missing field '" + key + "'");
    return JsonField(*it, file_, childPath(key));
}

std::vector<std::pair<std::string, JsonField>> JsonField::members() const {
    if (!v_->is_object()) expected("an object");
    std::vector<std::pair<std::string, JsonField>> out;
    for (const auto& item : v_->items())
        out.push_back({item.key(), JsonField(item.value(), file_, childPath(item.key()))});
    return out;
}

size_t JsonField::size() const {
    if (!v_->is_array()) expected("an array");
    return v_->size();
}

JsonField JsonField::operator[](size_t i) const {
    if (!v_->is_array()) expected("an array");
    return JsonField(v_->at(i), file_, path_ + "[" + std::to_string(i) + "]");
}

std::string JsonField::string() const {
    if (!v_->is_string()) expected("a string");
    return v_->get<std::string>();
}

double JsonField::number() const {
    if (!v_->is_number()) expected("a number");
    double d = v_->get<double>();
    if (!std::isfinite(d)) fail("expected a finite number");
    return d;
}

long long JsonField::integer() const {
    if (v_->is_number_float()) fail("expected an integer, got " + numberText(v_->get<double>()));
    if (!v_->is_number_integer()) expected("an integer");
    if (v_->is_number_unsigned() && v_->get<unsigned long long>() > (unsigned long long)(LLONG_MAX))
        fail("integer too large");
    return v_->get<long long>();
}

bool JsonField::boolean() const {
    if (!v_->is_boolean()) expected("true or false");
    return v_->get<bool>();
}

Vec3 JsonField::vec3() const {
    if (!v_->is_array() || v_->size() != 3) {
        if (v_->is_array()) fail("expected an array of 3 numbers, got " + std::to_string(v_->size()) + " elements");
        expected("an array of 3 numbers");
    }
    Vec3 r;
    for (int i = 0; i < 3; ++i) r[i] = float((*this)[size_t(i)].number());
    if (!isFinite(r)) fail("a component is too large for a float");
    return r;
}

std::string JsonField::string(const char* key, const std::string& def) const {
    return has(key) ? (*this)[key].string() : def;
}

float JsonField::number(const char* key, float def) const {
    if (!has(key)) return def;
    JsonField f = (*this)[key];
    double d = f.number();
    if (std::fabs(d) > 3.0e38) f.fail("number too large for a float");
    return float(d);
}

float JsonField::sceneTime() const {
    const double d = number();
    if (std::fabs(d) > 1e9) fail("expected a scene time within +-1e9 s, got " + numberText(d));
    return float(d);
}

bool JsonField::boolean(const char* key, bool def) const { return has(key) ? (*this)[key].boolean() : def; }

Vec3 JsonField::vec3(const char* key, Vec3 def) const { return has(key) ? (*this)[key].vec3() : def; }

Vec3 JsonField::color(const char* key, Vec3 def) const {
    Vec3 v = vec3(key, def);
    if (v.x < 0 || v.y < 0 || v.z < 0) (*this)[key].fail("expected non-negative components");
    return v;
}

}  // namespace strata
