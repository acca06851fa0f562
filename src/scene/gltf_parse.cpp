// scene/gltf_parse.cpp — the one translation unit that instantiates Debian's
// tinygltf (libtinygltf-dev, header only as used here). tinygltf parses the
// JSON and GLB containers and reads buffers (files and data URIs); it decodes
// no image (strata's own decoders do: scene/image_io.h) and leaves external
// image files to the caller (TINYGLTF_NO_EXTERNAL_IMAGE).
#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include "scene/gltf_parse.h"

#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "core/error.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

// Embedded images (data URIs, GLB buffer views) are kept as their encoded
// bytes; scene/gltf_loader.cpp decodes those a material uses. tinygltf hands
// over a buffer view's bytes without checking that the view lies inside its
// buffer (found by fuzz/gltf_fuzz.cpp), so that is checked here first: the
// model being loaded (user data) already holds its buffers and views.
bool keepEncodedBytes(tinygltf::Image* image, const int index, std::string* err, std::string*, int, int,
                      const unsigned char* bytes, int size, void* user) {
    const auto* model = static_cast<const tinygltf::Model*>(user);
    bool inside = size >= 0;
    if (inside && image->bufferView >= 0) {
        const tinygltf::BufferView& view = model->bufferViews.at(size_t(image->bufferView));
        const size_t have = model->buffers.at(size_t(view.buffer)).data.size();
        inside =
            view.byteOffset <= have && view.byteLength <= have - view.byteOffset && size_t(size) == view.byteLength;
    }
    if (!inside) {
        if (err) *err += "images[" + std::to_string(index) + "]: its buffer view lies beyond its buffer\n";
        return false;
    }
    image->image.assign(bytes, bytes + size);
    image->as_is = true;
    return true;
}

// tinygltf's messages end in newlines and may hold several lines.
std::string oneLine(std::string s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
    for (char& c : s)
        if (c == '\n') c = ';';
    return s;
}

// Files larger than this are refused (tinygltf takes sizes as 32-bit ints).
constexpr size_t kMaxFileBytes = size_t(1) << 31;
// JSON nested deeper than this is refused before tinygltf reads it: its
// extras and extensions parser recurses once per level (a file of 16,000
// nested arrays overflowed the stack; found in review). glTF itself needs
// fewer than ten levels.
constexpr size_t kMaxJsonDepth = 64;

bool readRegularFile(const std::string& path, std::vector<unsigned char>& out, std::string& why) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) {
        why = fs::exists(path, ec) ? "not a regular file" : "no such file";
        return false;
    }
    const auto size = fs::file_size(path, ec);
    if (ec || size > kMaxFileBytes) {
        why = ec ? "cannot read its size" : "larger than 2 GiB";
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    out.resize(size_t(size));
    if (!in.read(reinterpret_cast<char*>(out.data()), std::streamsize(size))) {
        why = "cannot read it";
        return false;
    }
    return true;
}

// tinygltf's file access for buffers beside the glTF: regular files only,
// within the size limit, paths taken as written (no shell expansion).
bool fileExists(const std::string& path, void*) {
    std::error_code ec;
    return fs::is_regular_file(path, ec);
}
std::string expandFilePath(const std::string& path, void*) { return path; }
bool readWholeFile(std::vector<unsigned char>* out, std::string* err, const std::string& path, void*) {
    std::string why;
    if (readRegularFile(path, *out, why)) return true;
    if (err) *err += "'" + path + "': " + why + "\n";
    return false;
}
bool writeWholeFile(std::string* err, const std::string&, const std::vector<unsigned char>&, void*) {
    if (err) *err += "strata does not write glTF files\n";
    return false;
}

// Counts nesting and nothing else (nlohmann's SAX parser is iterative).
struct DepthCheck : nlohmann::json_sax<nlohmann::json> {
    size_t depth = 0;
    bool deep = false;
    bool open() {
        deep = ++depth > kMaxJsonDepth;
        return !deep;
    }
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return open(); }
    bool key(string_t&) override { return true; }
    bool end_object() override { return --depth, true; }
    bool start_array(std::size_t) override { return open(); }
    bool end_array() override { return --depth, true; }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }
};

// The JSON text of a .gltf, or of a GLB's first chunk (empty when the GLB
// header does not hold one; tinygltf then says what is wrong).
std::string jsonOf(const std::vector<unsigned char>& bytes, bool binary) {
    if (!binary) return std::string(bytes.begin(), bytes.end());
    uint32_t length = 0;
    if (bytes.size() < 20) return {};
    std::memcpy(&length, bytes.data() + 12, 4);
    if (length > bytes.size() - 20) return {};
    return std::string(bytes.begin() + 20, bytes.begin() + 20 + length);
}

// The extensionsRequired of a file tinygltf could not read (a compressed
// mesh fails as a missing buffer view); none when the JSON does not say.
std::vector<std::string> requiredExtensions(const std::string& json) {
    const nlohmann::json doc = nlohmann::json::parse(json, nullptr, false);
    std::vector<std::string> out;
    if (doc.is_object() && doc.contains("extensionsRequired") && doc["extensionsRequired"].is_array())
        for (const auto& e : doc["extensionsRequired"])
            if (e.is_string()) out.push_back(e.get<std::string>());
    return out;
}

// tinygltf takes an image's buffer view as &buffer.data[byteOffset] before
// any check (an out-of-range operator[]: libstdc++'s assertions abort; found
// by fuzz/gltf_fuzz.cpp twice). A loaded buffer holds exactly its declared
// byteLength (tinygltf checks that), so each image's view is checked against
// the declarations first. Empty when they hold, else what is wrong.
std::string imageViewProblem(const nlohmann::json& doc) {
    if (!doc.is_object() || !doc.contains("images") || !doc["images"].is_array()) return {};
    const nlohmann::json* views = doc.contains("bufferViews") ? &doc["bufferViews"] : nullptr;
    const nlohmann::json* buffers = doc.contains("buffers") ? &doc["buffers"] : nullptr;
    // A whole number, the fallback where absent, -1 where not a whole number.
    auto number = [](const nlohmann::json& o, const char* key, double fallback) {
        if (!o.is_object() || !o.contains(key)) return fallback;
        const nlohmann::json& x = o[key];
        return x.is_number_integer() || x.is_number_unsigned() ? x.get<double>() : -1.0;
    };
    for (size_t i = 0; i < doc["images"].size(); ++i) {
        const nlohmann::json& img = doc["images"][i];
        if (!img.is_object() || !img.contains("bufferView")) continue;
        const std::string where = "images[" + std::to_string(i) + "]";
        const double v = number(img, "bufferView", -1);
        if (!views || !views->is_array() || !(v >= 0 && v < double(views->size())))
            return where + ": its buffer view does not exist";
        const nlohmann::json& view = (*views)[size_t(v)];
        const double b = number(view, "buffer", -1);
        if (!buffers || !buffers->is_array() || !(b >= 0 && b < double(buffers->size())))
            return where + ": its buffer view's buffer does not exist";
        const double have = number((*buffers)[size_t(b)], "byteLength", 0);
        const double offset = number(view, "byteOffset", 0), length = number(view, "byteLength", 0);
        if (!(offset >= 0 && length >= 0 && offset < have && offset + length <= have))
            return where + ": its buffer view lies beyond its buffer";
    }
    return {};
}

// tinygltf reports a skin without inverseBindMatrices as an error; glTF
// makes them optional (identity), so that one message is dropped.
std::string withoutOptionalSkinMatrices(std::string err) {
    const std::string optional = "'inverseBindMatrices' property is missing in Skin.\n";
    for (size_t at; (at = err.find(optional)) != std::string::npos;) err.erase(at, optional.size());
    return err;
}

}  // namespace

ParsedGltf parseGltf(const std::string& path) {
    std::vector<unsigned char> bytes;
    std::string why;
    if (!readRegularFile(path, bytes, why)) throw Error(path + ": cannot open the glTF file: " + why);
    const bool binary = bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0;
    const std::string kind = binary ? "binary (GLB)" : "file";
    const std::string json = jsonOf(bytes, binary);
    DepthCheck depth;
    nlohmann::json::sax_parse(json, &depth, nlohmann::json::input_format_t::json, false);
    if (depth.deep)
        throw Error(path + ": not a readable glTF " + kind + ": JSON nested deeper than " +
                    std::to_string(kMaxJsonDepth) + " levels");
    const std::string problem = imageViewProblem(nlohmann::json::parse(json, nullptr, false));
    if (!problem.empty()) throw Error(path + ": not a readable glTF " + kind + ": " + problem);
    ParsedGltf out;
    tinygltf::TinyGLTF loader;
    loader.SetImageLoader(keepEncodedBytes, &out.model);
    loader.SetFsCallbacks({fileExists, expandFilePath, readWholeFile, writeWholeFile, nullptr});
    std::string err, warn;
    const std::string base = fs::path(path).parent_path().string();
    bool ok = false;
    try {
        ok = binary ? loader.LoadBinaryFromMemory(&out.model, &err, &warn, bytes.data(), unsigned(bytes.size()), base)
                    : loader.LoadASCIIFromString(&out.model, &err, &warn, reinterpret_cast<const char*>(bytes.data()),
                                                 unsigned(bytes.size()), base);
    } catch (const std::exception& e) {  // tinygltf's own containers (.at(), allocation) on damaged input
        ok = false;
        err = e.what();
    }
    err = withoutOptionalSkinMatrices(err);
    if (!ok || !err.empty()) {
        std::string required;
        for (const std::string& e : requiredExtensions(json)) required += (required.empty() ? "" : ", ") + e;
        throw Error(path + ": not a readable glTF " + kind + ": " +
                    oneLine(err.empty() ? "tinygltf gave no reason" : err) +
                    (required.empty() ? "" : " (the file requires " + required + ")"));
    }
    out.warnings = oneLine(warn);
    return out;
}

}  // namespace strata
