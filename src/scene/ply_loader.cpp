// scene/ply_loader.cpp — PLY: the header names the elements (in file order,
// each with a count) and their properties (a scalar type, or a list with a
// count type and an item type); the body holds the elements' items one after
// another, as whitespace-separated numbers (ascii) or packed values
// (binary_little_endian, binary_big_endian).
#include "scene/ply_loader.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/input_file.h"
#include "scene/face_area.h"

namespace strata {
namespace {

enum class PlyType { Int8, Uint8, Int16, Uint16, Int32, Uint32, Float32, Float64 };

bool parseType(const std::string& s, PlyType& t) {
    static const struct {
        const char* name;
        PlyType type;
    } kTypes[] = {{"char", PlyType::Int8},     {"int8", PlyType::Int8},       {"uchar", PlyType::Uint8},
                  {"uint8", PlyType::Uint8},   {"short", PlyType::Int16},     {"int16", PlyType::Int16},
                  {"ushort", PlyType::Uint16}, {"uint16", PlyType::Uint16},   {"int", PlyType::Int32},
                  {"int32", PlyType::Int32},   {"uint", PlyType::Uint32},     {"uint32", PlyType::Uint32},
                  {"float", PlyType::Float32}, {"float32", PlyType::Float32}, {"double", PlyType::Float64},
                  {"float64", PlyType::Float64}};
    for (const auto& k : kTypes)
        if (s == k.name) {
            t = k.type;
            return true;
        }
    return false;
}

size_t sizeOf(PlyType t) {
    switch (t) {
        case PlyType::Int8:
        case PlyType::Uint8: return 1;
        case PlyType::Int16:
        case PlyType::Uint16: return 2;
        case PlyType::Int32:
        case PlyType::Uint32:
        case PlyType::Float32: return 4;
        case PlyType::Float64: return 8;
    }
    return 1;
}

bool isInteger(PlyType t) { return t != PlyType::Float32 && t != PlyType::Float64; }

struct PlyProperty {
    std::string name;
    PlyType type = PlyType::Float32;
    bool list = false;
    PlyType countType = PlyType::Uint8;
};

struct PlyElement {
    std::string name;
    uint64_t count = 0;
    std::vector<PlyProperty> properties;
    int headerLine = 0;
};

enum class PlyFormat { Ascii, BinaryLittle, BinaryBig };

// The body's values one at a time, as doubles, with where they came from.
class BodyReader {
public:
    BodyReader(const std::string& path, const std::string& data, size_t begin, PlyFormat format, int line)
        : path_(path), data_(data), pos_(begin), format_(format), line_(line) {}

    // The next value of type t; `what` names it for messages ("vertex 12").
    double next(PlyType t, const std::string& what) {
        return format_ == PlyFormat::Ascii ? nextText(t, what) : nextBinary(t, what);
    }
    // After the last element: only whitespace may follow ASCII data.
    void finish() {
        if (format_ != PlyFormat::Ascii) return;
        skipSpace();
        if (pos_ < data_.size()) fail("data after the last element");
    }
    [[noreturn]] void fail(const std::string& why) const {
        if (format_ == PlyFormat::Ascii) throw Error(path_ + ":" + std::to_string(line_) + ": " + why);
        throw Error(path_ + ": byte " + std::to_string(pos_) + ": " + why);
    }

private:
    void skipSpace() {
        while (pos_ < data_.size() && std::isspace(static_cast<unsigned char>(data_[pos_]))) {
            if (data_[pos_] == '\n') ++line_;
            ++pos_;
        }
    }
    double nextText(PlyType t, const std::string& what) {
        skipSpace();
        if (pos_ >= data_.size()) fail("the file ends within " + what + " (fewer items than the header says)");
        size_t end = pos_;
        while (end < data_.size() && !std::isspace(static_cast<unsigned char>(data_[end]))) ++end;
        const std::string token = data_.substr(pos_, end - pos_);
        char* stop = nullptr;
        const double v = std::strtod(token.c_str(), &stop);
        if (stop != token.c_str() + token.size())
            fail("expected a number in " + what + ", got '" + token + "'");
        if (isInteger(t) && v != std::floor(v)) fail("expected an integer in " + what + ", got '" + token + "'");
        pos_ = end;
        return v;
    }
    double nextBinary(PlyType t, const std::string& what) {
        const size_t n = sizeOf(t);
        if (pos_ + n > data_.size()) fail("the file ends within " + what + " (fewer items than the header says)");
        unsigned char b[8];
        std::memcpy(b, data_.data() + pos_, n);
        pos_ += n;
        const bool swap = format_ == PlyFormat::BinaryBig;  // strata runs on little-endian hosts
        if (swap)
            for (size_t i = 0; i < n / 2; ++i) std::swap(b[i], b[n - 1 - i]);
        switch (t) {
            case PlyType::Int8: return double(int8_t(b[0]));
            case PlyType::Uint8: return double(b[0]);
            case PlyType::Int16: { int16_t v; std::memcpy(&v, b, 2); return v; }
            case PlyType::Uint16: { uint16_t v; std::memcpy(&v, b, 2); return v; }
            case PlyType::Int32: { int32_t v; std::memcpy(&v, b, 4); return v; }
            case PlyType::Uint32: { uint32_t v; std::memcpy(&v, b, 4); return v; }
            case PlyType::Float32: { float v; std::memcpy(&v, b, 4); return v; }
            case PlyType::Float64: { double v; std::memcpy(&v, b, 8); return v; }
        }
        return 0;
    }

    const std::string& path_;
    const std::string& data_;
    size_t pos_;
    PlyFormat format_;
    int line_;
};

struct Header {
    PlyFormat format = PlyFormat::Ascii;
    std::vector<PlyElement> elements;
    size_t bodyBegin = 0;
    int bodyLine = 0;
};

Header parseHeader(const std::string& path, const std::string& data) {
    Header h;
    size_t pos = 0;
    int line = 0;
    bool sawFormat = false;
    auto fail = [&](const std::string& why) { throw Error(path + ":" + std::to_string(line) + ": " + why); };
    for (;;) {
        if (pos >= data.size()) fail("the header has no end_header line");
        size_t end = data.find('\n', pos);
        if (end == std::string::npos) end = data.size();
        std::string text = data.substr(pos, end - pos);
        if (!text.empty() && text.back() == '\r') text.pop_back();
        pos = end + 1;
        ++line;
        std::istringstream words(text);
        std::string key;
        words >> key;
        if (line == 1) {
            if (key != "ply") throw Error(path + ": not a PLY file (its first line is not 'ply')");
            continue;
        }
        if (key.empty() || key == "comment" || key == "obj_info") continue;
        if (key == "end_header") break;
        if (key == "format") {
            std::string f, version;
            words >> f >> version;
            if (f == "ascii")
                h.format = PlyFormat::Ascii;
            else if (f == "binary_little_endian")
                h.format = PlyFormat::BinaryLittle;
            else if (f == "binary_big_endian")
                h.format = PlyFormat::BinaryBig;
            else
                fail("unknown format '" + f + "' (ascii, binary_little_endian or binary_big_endian)");
            if (version != "1.0") fail("unknown format version '" + version + "' (1.0)");
            sawFormat = true;
        } else if (key == "element") {
            PlyElement e;
            long long count = -1;
            std::string extra;
            words >> e.name >> count;
            if (e.name.empty() || !words || count < 0 || (words >> extra)) fail("expected 'element NAME COUNT'");
            e.count = uint64_t(count);
            e.headerLine = line;
            h.elements.push_back(e);
        } else if (key == "property") {
            if (h.elements.empty()) fail("a property before any element");
            PlyProperty p;
            std::string type;
            words >> type;
            if (type == "list") {
                std::string countType, itemType;
                words >> countType >> itemType >> p.name;
                p.list = true;
                if (!parseType(countType, p.countType) || !isInteger(p.countType))
                    fail("unknown or non-integer list count type '" + countType + "'");
                if (!parseType(itemType, p.type)) fail("unknown property type '" + itemType + "'");
            } else {
                words >> p.name;
                if (!parseType(type, p.type)) fail("unknown property type '" + type + "'");
            }
            if (p.name.empty()) fail("a property without a name");
            h.elements.back().properties.push_back(p);
        } else {
            fail("unknown header line '" + key + "'");
        }
    }
    if (!sawFormat) throw Error(path + ": the header has no format line");
    h.bodyBegin = pos;
    h.bodyLine = line + 1;
    return h;
}

int find(const PlyElement& e, const char* name) {
    for (size_t i = 0; i < e.properties.size(); ++i)
        if (e.properties[i].name == name && !e.properties[i].list) return int(i);
    return -1;
}

}  // namespace

LoadedMesh loadPly(const std::string& path, const PlyLoadOptions& options) {
    const std::string data = readInputFile(path, "PLY file", kMaxDataStreamBytes);
    const Header h = parseHeader(path, data);
    BodyReader body(path, data, h.bodyBegin, h.format, h.bodyLine);

    std::vector<Vec3> pos, nrm;
    std::vector<Vec2> uv;
    std::vector<std::vector<uint32_t>> faces;
    bool sawVertices = false, sawFaces = false;
    for (const PlyElement& e : h.elements) {
        const bool vertex = e.name == "vertex", face = e.name == "face";
        int ix = -1, iy = -1, iz = -1, inx = -1, iny = -1, inz = -1, iu = -1, iv = -1, ilist = -1;
        if (vertex) {
            sawVertices = true;
            ix = find(e, "x"), iy = find(e, "y"), iz = find(e, "z");
            if (ix < 0 || iy < 0 || iz < 0)
                throw Error(path + ":" + std::to_string(e.headerLine) + ": element vertex has no x, y and z");
            inx = find(e, "nx"), iny = find(e, "ny"), inz = find(e, "nz");
            if ((inx < 0) != (iny < 0) || (iny < 0) != (inz < 0)) inx = iny = inz = -1;
            for (const char* u : {"u", "s", "texture_u"})
                if (iu < 0) iu = find(e, u);
            for (const char* v : {"v", "t", "texture_v"})
                if (iv < 0) iv = find(e, v);
            if ((iu < 0) != (iv < 0)) iu = iv = -1;
            pos.reserve(size_t(std::min<uint64_t>(e.count, 1u << 20)));  // a count past the data fails below
        }
        if (face) {
            sawFaces = true;
            for (size_t i = 0; i < e.properties.size(); ++i)
                if (e.properties[i].list &&
                    (e.properties[i].name == "vertex_indices" || e.properties[i].name == "vertex_index"))
                    ilist = int(i);
            if (ilist < 0)
                throw Error(path + ":" + std::to_string(e.headerLine) +
                            ": element face has no list property vertex_indices");
            faces.reserve(size_t(std::min<uint64_t>(e.count, 1u << 20)));
        }
        // An element without properties has no data: its items take no bytes
        // (a header may claim 7.7e18 of them; the loop over them never ended).
        if (e.properties.empty()) continue;
        double v[64];
        for (uint64_t item = 0; item < e.count; ++item) {
            const std::string what = e.name + " " + std::to_string(item);
            std::vector<uint32_t> corners;
            for (size_t k = 0; k < e.properties.size(); ++k) {
                const PlyProperty& p = e.properties[k];
                if (!p.list) {
                    const double x = body.next(p.type, what);
                    if (k < 64) v[k] = x;
                    continue;
                }
                const double n = body.next(p.countType, what);
                if (n < 0) body.fail("a negative list length in " + what);
                for (double j = 0; j < n; ++j) {
                    const double x = body.next(p.type, what);
                    if (int(k) == ilist) {
                        if (x < 0 || x >= double(pos.size())) {
                            // Formatted as a double: a value past long long's range (4.4e49) must not be cast.
                            char index[32];
                            std::snprintf(index, sizeof index, "%.17g", x);
                            body.fail("vertex index " + std::string(index) + " of " + what + " out of range (" +
                                      std::to_string(pos.size()) + " vertices)");
                        }
                        corners.push_back(uint32_t(x));
                    }
                }
            }
            if (vertex) {
                if (e.properties.size() > 64) body.fail("more than 64 properties per vertex");
                const Vec3 p{float(v[ix]), float(v[iy]), float(v[iz])};
                if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
                    body.fail("a NaN or infinite position in " + what);
                pos.push_back(p);
                if (inx >= 0) nrm.push_back(Vec3{float(v[inx]), float(v[iny]), float(v[inz])});
                if (iu >= 0) uv.push_back(Vec2{float(v[iu]), float(v[iv])});
            }
            if (face) faces.push_back(std::move(corners));
        }
    }
    body.finish();
    if (!sawVertices) throw Error(path + ": no element vertex");
    if (!sawFaces) throw Error(path + ": no element face (strata renders surfaces, not point clouds)");

    LoadedMesh out;
    Mesh& m = out.mesh;
    m.source = path;
    m.positions = std::move(pos);
    // Normals only where every one is usable; a corrupt one would shade black.
    bool normalsOk = !nrm.empty();
    for (const Vec3& n : nrm) normalsOk = normalsOk && std::isfinite(n.x + n.y + n.z) && dot(n, n) > 0;
    if (normalsOk) m.normals = std::move(nrm);
    for (const Vec2& t : uv)
        if (!std::isfinite(t.x + t.y)) {
            uv.clear();
            break;
        }
    m.uvs = std::move(uv);
    out.materials.push_back({"default", Material{}});
    Vec3 lo = make3(INFINITY), hi = make3(-INFINITY);
    for (const Vec3& p : m.positions) {
        lo = vmin(lo, p);
        hi = vmax(hi, p);
    }
    const Vec3 d = hi - lo;
    const double diag2 = m.positions.empty() ? 0.0 : double(d.x) * d.x + double(d.y) * d.y + double(d.z) * d.z;
    auto degenerate = [&](Vec3 n) { return negligibleArea(n, diag2); };
    auto addTriangle = [&](uint32_t a, uint32_t b, uint32_t c) {
        const Vec3 n = cross(m.positions[b] - m.positions[a], m.positions[c] - m.positions[a]);
        if (a == b || b == c || a == c || degenerate(n)) {
            ++out.skippedDegenerate;
            return;
        }
        m.triangles.push_back(Tri{{a, b, c}});
        m.triMaterial.push_back(0);
    };
    for (const std::vector<uint32_t>& f : faces) {
        if (f.size() < 3) {
            ++out.skippedDegenerate;
            continue;
        }
        if (f.size() == 4 && options.keepQuads) {
            const Vec3* p = m.positions.data();
            const Vec3 n = cross(p[f[1]] - p[f[0]], p[f[2]] - p[f[0]]) + cross(p[f[2]] - p[f[0]], p[f[3]] - p[f[0]]);
            bool repeats = false;
            for (int i = 0; i < 4; ++i)
                for (int j = i + 1; j < 4; ++j) repeats = repeats || f[i] == f[j];
            if (repeats || degenerate(n)) {
                ++out.skippedDegenerate;
                continue;
            }
            m.quads.push_back(Quad{{f[0], f[1], f[2], f[3]}});
            m.quadMaterial.push_back(0);
            continue;
        }
        for (size_t k = 1; k + 1 < f.size(); ++k) addTriangle(f[0], f[k], f[k + 1]);
    }
    if (m.triangles.empty() && m.quads.empty())
        throw Error(path + ": no triangles" +
                    (out.skippedDegenerate
                         ? " (all " + std::to_string(out.skippedDegenerate) + " were degenerate and skipped)"
                         : std::string(" (the file has no faces)")));
    return out;
}

}  // namespace strata
