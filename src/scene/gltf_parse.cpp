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
#include <fstream>
#include <iterator>

#include "core/error.h"

namespace strata {
namespace {

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

bool startsWithGlbMagic(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    char magic[4] = {};
    in.read(magic, 4);
    return in.gcount() == 4 && magic[0] == 'g' && magic[1] == 'l' && magic[2] == 'T' && magic[3] == 'F';
}

// tinygltf's messages end in newlines and may hold several lines.
std::string oneLine(std::string s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
    for (char& c : s)
        if (c == '\n') c = ';';
    return s;
}

// The extensionsRequired of a file tinygltf could not read (a compressed
// mesh fails as a missing buffer view), read from its JSON; none when that
// fails too.
std::vector<std::string> requiredExtensions(const std::string& path, bool binary) {
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (binary) {
        uint32_t length = 0;
        if (bytes.size() < 20) return {};
        std::memcpy(&length, bytes.data() + 12, 4);
        bytes = bytes.substr(20, length);
    }
    const nlohmann::json doc = nlohmann::json::parse(bytes, nullptr, false);
    std::vector<std::string> out;
    if (doc.is_object() && doc.contains("extensionsRequired") && doc["extensionsRequired"].is_array())
        for (const auto& e : doc["extensionsRequired"])
            if (e.is_string()) out.push_back(e.get<std::string>());
    return out;
}

}  // namespace

ParsedGltf parseGltf(const std::string& path) {
    {
        std::ifstream probe(path, std::ios::binary);
        if (!probe) throw Error(path + ": cannot open the glTF file");
    }
    ParsedGltf out;
    tinygltf::TinyGLTF loader;
    loader.SetImageLoader(keepEncodedBytes, &out.model);
    std::string err, warn;
    const bool binary = startsWithGlbMagic(path);
    const bool ok = binary ? loader.LoadBinaryFromFile(&out.model, &err, &warn, path)
                           : loader.LoadASCIIFromFile(&out.model, &err, &warn, path);
    if (!ok || !err.empty()) {
        std::string required;
        for (const std::string& e : requiredExtensions(path, binary)) required += (required.empty() ? "" : ", ") + e;
        throw Error(path + ": not a readable glTF " + (binary ? "binary (GLB)" : "file") + ": " +
                    oneLine(err.empty() ? "tinygltf gave no reason" : err) +
                    (required.empty() ? "" : " (the file requires " + required + ")"));
    }
    out.warnings = oneLine(warn);
    return out;
}

}  // namespace strata
