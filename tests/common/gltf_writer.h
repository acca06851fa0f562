// tests/common/gltf_writer.h — glTF 2.0 files made in the tests, byte by byte
// as the specification lays them out: a JSON document with its buffer as a
// base64 data URI, as a .bin file beside it, or both packed in a GLB. Written
// here from the specification, so the loader is read against the format
// itself and not against tinygltf's writer.
#pragma once

#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace strata::test {

inline std::string base64(const std::string& bytes) {
    static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const uint32_t v =
            uint32_t(uint8_t(bytes[i])) << 16 | uint32_t(uint8_t(bytes[i + 1])) << 8 | uint8_t(bytes[i + 2]);
        for (int s = 18; s >= 0; s -= 6) out += k[(v >> s) & 63];
    }
    if (i + 1 == bytes.size()) {
        const uint32_t v = uint32_t(uint8_t(bytes[i])) << 16;
        out += k[(v >> 18) & 63];
        out += k[(v >> 12) & 63];
        out += "==";
    } else if (i + 2 == bytes.size()) {
        const uint32_t v = uint32_t(uint8_t(bytes[i])) << 16 | uint32_t(uint8_t(bytes[i + 1])) << 8;
        out += k[(v >> 18) & 63];
        out += k[(v >> 12) & 63];
        out += k[(v >> 6) & 63];
        out += '=';
    }
    return out;
}

class GltfWriter {
public:
    using Json = nlohmann::json;
    static constexpr int kFloat = 5126, kUByte = 5121, kUShort = 5123, kUInt = 5125, kShort = 5122;

    Json doc = Json{{"asset", {{"version", "2.0"}}}};

    // Appends raw bytes (4-byte aligned) as a buffer view; returns its index.
    int view(const std::string& bytes, int stride = 0) {
        while (bin_.size() % 4) bin_ += '\0';
        Json v = {{"buffer", 0}, {"byteOffset", bin_.size()}, {"byteLength", bytes.size()}};
        if (stride) v["byteStride"] = stride;
        bin_ += bytes;
        doc["bufferViews"].push_back(v);
        return int(doc["bufferViews"].size() - 1);
    }

    template <typename T>
    static std::string bytesOf(const std::vector<T>& v) {
        return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
    }

    // An accessor over a new buffer view holding `values`.
    template <typename T>
    int accessor(const std::vector<T>& values, const char* type, int componentType, int components,
                 bool normalized = false) {
        Json a = {{"bufferView", view(bytesOf(values))},
                  {"componentType", componentType},
                  {"count", values.size() / size_t(components)},
                  {"type", type}};
        if (normalized) a["normalized"] = true;
        if (componentType == kFloat && std::string(type) == "VEC3") {  // POSITION needs min and max
            std::vector<double> lo(3, 1e300), hi(3, -1e300);
            for (size_t i = 0; i < values.size(); ++i) {
                lo[i % 3] = std::min(lo[i % 3], double(values[i]));
                hi[i % 3] = std::max(hi[i % 3], double(values[i]));
            }
            a["min"] = lo;
            a["max"] = hi;
        }
        doc["accessors"].push_back(a);
        return int(doc["accessors"].size() - 1);
    }
    int floats(const std::vector<float>& v, const char* type, int components) {
        return accessor(v, type, kFloat, components);
    }
    int vec3(const std::vector<float>& v) { return floats(v, "VEC3", 3); }
    int scalars(const std::vector<float>& v) { return floats(v, "SCALAR", 1); }
    int indices(const std::vector<uint16_t>& v) { return accessor(v, "SCALAR", kUShort, 1); }

    // A mesh of one primitive; returns the mesh index.
    int mesh(Json attributes, int indices = -1, int mode = 4, int material = -1) {
        Json p = {{"attributes", attributes}, {"mode", mode}};
        if (indices >= 0) p["indices"] = indices;
        if (material >= 0) p["material"] = material;
        doc["meshes"].push_back({{"primitives", Json::array({p})}});
        return int(doc["meshes"].size() - 1);
    }
    int node(Json n) {
        doc["nodes"].push_back(n);
        return int(doc["nodes"].size() - 1);
    }
    void scene(std::vector<int> roots) { doc["scenes"] = Json::array({{{"nodes", roots}}}), doc["scene"] = 0; }

    // The buffer as a data URI in the JSON.
    std::string embedded() const {
        Json d = doc;
        d["buffers"] = Json::array(
            {{{"byteLength", bin_.size()}, {"uri", "data:application/octet-stream;base64," + base64(bin_)}}});
        return d.dump(1);
    }
    // Writes NAME.gltf with NAME.bin beside it in `dir`; returns the .gltf path.
    std::string writeSeparate(const std::string& dir, const std::string& name) const {
        Json d = doc;
        d["buffers"] = Json::array({{{"byteLength", bin_.size()}, {"uri", name + ".bin"}}});
        std::ofstream(dir + "/" + name + ".bin", std::ios::binary) << bin_;
        std::ofstream(dir + "/" + name + ".gltf", std::ios::binary) << d.dump(1);
        return dir + "/" + name + ".gltf";
    }
    // The GLB container: header, JSON chunk (space padded), BIN chunk (zero padded).
    std::string glb() const {
        Json d = doc;
        d["buffers"] = Json::array({{{"byteLength", bin_.size()}}});
        std::string json = d.dump();
        while (json.size() % 4) json += ' ';
        std::string bin = bin_;
        while (bin.size() % 4) bin += '\0';
        auto u32 = [](uint32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); };
        const uint32_t total = uint32_t(12 + 8 + json.size() + 8 + bin.size());
        return "glTF" + u32(2) + u32(total) + u32(uint32_t(json.size())) + u32(0x4E4F534A) + json +
               u32(uint32_t(bin.size())) + u32(0x004E4942) + bin;
    }

private:
    std::string bin_;
};

}  // namespace strata::test
