// scene/scene_json_util.h — typed, located access to a parsed JSON document
// for the scene loader. Every value carries its file and field path, so each
// error reads "scene.json: meshes[2].obj: expected a string, got number".
#pragma once

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/vec.h"

namespace strata {

using Json = nlohmann::json;

// Parses a JSON file (comments allowed). Throws strata::Error
// "FILE: cannot open ..." or "FILE:LINE:COLUMN: what was wrong".
Json parseJsonFile(const std::string& path, const std::string& what = "scene file");

// "number", "string", "object", ... as JSON names them.
std::string jsonTypeName(const Json& j);

// Short decimal text of a number, for messages.
std::string numberText(double v);

class JsonField {
public:
    JsonField(const Json& value, std::string file, std::string path)
        : v_(&value), file_(std::move(file)), path_(std::move(path)) {}

    const Json& json() const { return *v_; }
    const std::string& file() const { return file_; }
    const std::string& path() const { return path_; }
    std::string where() const { return path_.empty() ? file_ : file_ + ": " + path_; }
    [[noreturn]] void fail(const std::string& msg) const;
    [[noreturn]] void expected(const std::string& what) const;  // "expected WHAT, got TYPE"

    // Objects. allowOnly also checks that this is an object; unknown keys are
    // errors that list the allowed ones.
    void allowOnly(std::initializer_list<const char*> keys) const;
    bool has(const char* key) const { return v_->is_object() && v_->contains(key); }
    JsonField operator[](const std::string& key) const;  // missing → "missing field"
    std::vector<std::pair<std::string, JsonField>> members() const;

    // Arrays.
    size_t size() const;  // expects an array
    JsonField operator[](size_t i) const;
    JsonField operator[](int i) const { return (*this)[size_t(i)]; }

    // Scalars, type-checked; numbers must be finite.
    std::string string() const;
    double number() const;
    long long integer() const;
    bool boolean() const;
    Vec3 vec3() const;  // an array of three numbers

    // Optional members: the default where the key is absent.
    std::string string(const char* key, const std::string& def) const;
    float number(const char* key, float def) const;
    // A scene time in seconds (a key time): within +-1e9 s, as animation.start_time.
    float sceneTime() const;
    bool boolean(const char* key, bool def) const;
    Vec3 vec3(const char* key, Vec3 def) const;
    Vec3 color(const char* key, Vec3 def) const;  // vec3 with no negative component

private:
    std::string childPath(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }

    const Json* v_;
    std::string file_;
    std::string path_;
};

}  // namespace strata
