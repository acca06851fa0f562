// scene/obj_loader.cpp — Wavefront OBJ + MTL through Debian's tinyobjloader
// (header-only use: this is the one translation unit with its implementation).
//
// tinyobjloader is lenient: it warns about (or silently drops) out-of-range
// indices, reads "nan" as a number and says nothing of the line. So a light
// pre-scan (obj_prescan.cpp) checks the numbers and face indices first and
// names the line; tinyobjloader then does the parsing proper, and this file
// de-indexes its result into one mesh with per-vertex attributes.
#include "scene/obj_loader.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>
#include <unordered_map>

#include "core/error.h"
#include "core/input_file.h"
#include "scene/face_area.h"
#include "scene/obj_prescan.h"

#define TINYOBJLOADER_IMPLEMENTATION
#include <tiny_obj_loader.h>

namespace strata {
namespace {

namespace fs = std::filesystem;

// An MTL material whose Ns is at least this and whose Ks outweighs Kd is
// read as a conductor (roughness = sqrt(2 / (Ns + 2)), the Phong-to-Beckmann
// correspondence). Exporters commonly write Ns 250 with Ks 0.5 for plain
// diffuse materials; the Ks > Kd condition keeps those diffuse.
constexpr float kGlossyNs = 100.0f;

Vec3 vec3(const tinyobj::real_t* v) { return {float(v[0]), float(v[1]), float(v[2])}; }

void warn(const std::string& msg) { std::cerr << "warning: " << msg << "\n"; }

std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ' || s.back() == '.')) s.pop_back();
    return s;
}

std::string resolveTexture(const std::string& objPath, std::string name) {
    if (name.empty()) return {};
    for (char& c : name)
        if (c == '\\') c = '/';
    fs::path p(name);
    if (p.is_absolute()) return p.lexically_normal().string();
    return (fs::path(objPath).parent_path() / p).lexically_normal().string();
}

void checkColor(const std::string& where, const char* field, Vec3 c) {
    if (!isFinite(c)) throw Error(where + ": " + field + " is not finite");
    if (c.x < 0 || c.y < 0 || c.z < 0) throw Error(where + ": " + field + " has a negative component");
}

// MTL → Material: Ke emits; d/Tr < 1 or illum 4/6/7 is a dielectric (Ni the
// IOR); illum 3, Pm >= 0.5 or a glossy Ks is a conductor; else diffuse Kd.
NamedMaterial convertMaterial(const std::string& path, const tinyobj::material_t& m) {
    std::string where = path + ": material '" + m.name + "'";
    Vec3 kd = vec3(m.diffuse), ks = vec3(m.specular), ke = vec3(m.emission), tf = vec3(m.transmittance);
    checkColor(where, "Kd", kd);
    checkColor(where, "Ks", ks);
    checkColor(where, "Ke", ke);
    checkColor(where, "Tf", tf);
    for (float v : {float(m.shininess), float(m.ior), float(m.dissolve), float(m.metallic), float(m.roughness)})
        if (!std::isfinite(v)) throw Error(where + ": Ns, Ni, d, Pm or Pr is not finite");

    NamedMaterial out;
    out.name = m.name;
    Material& mat = out.material;
    bool dielectric = m.illum == 4 || m.illum == 6 || m.illum == 7 || m.dissolve < 1.0f;
    bool glossy = m.shininess >= kGlossyNs && luminance(ks) > luminance(kd);
    if (maxComponent(ke) > 0) {
        mat.type = MaterialType::Emissive;
        mat.emission = ke;
        mat.albedo = kd;
    } else if (dielectric) {
        mat.type = MaterialType::Dielectric;
        mat.albedo = maxComponent(tf) > 0 ? tf : make3(1.0f);
        // tinyobjloader's default Ni is 1, which would make the surface vanish.
        mat.ior = (m.ior > 0 && m.ior != 1.0f) ? float(m.ior) : 1.5f;
    } else if (m.illum == 3 || m.metallic >= 0.5f || glossy) {
        mat.type = MaterialType::Conductor;
        mat.albedo = maxComponent(ks) > 0 ? ks : kd;
        float ns = std::fmax(float(m.shininess), 0.0f);
        mat.roughness = m.metallic >= 0.5f && m.roughness > 0 ? float(m.roughness) : std::sqrt(2.0f / (ns + 2.0f));
        mat.roughness = clampf(mat.roughness, 0.0f, 1.0f);
    } else {
        mat.type = MaterialType::Diffuse;
        mat.albedo = kd;
    }
    return out;
}

// tinyobjloader's warnings, each line prefixed with the file. Missing MTL
// files are reported by the pre-scan with their line, so not repeated here.
void forwardWarnings(const std::string& path, const std::string& text) {
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        line = trimmed(line);
        if (line.empty() || line.find("not found in a path") != std::string::npos) continue;
        warn(path + ": " + line);
    }
}

// The MTL texture maps strata does not read (it reads map_Kd), named once
// per OBJ with the number of materials that use each: "map_bump (24
// materials)". Empty when every map is read.
std::string ignoredMaps(const std::vector<tinyobj::material_t>& mtl) {
    const struct {
        const char* name;
        std::string tinyobj::material_t::*field;
    } maps[] = {{"map_Ka", &tinyobj::material_t::ambient_texname},
                {"map_Ks", &tinyobj::material_t::specular_texname},
                {"map_Ns", &tinyobj::material_t::specular_highlight_texname},
                {"map_bump", &tinyobj::material_t::bump_texname},
                {"disp", &tinyobj::material_t::displacement_texname},
                {"map_d", &tinyobj::material_t::alpha_texname},
                {"refl", &tinyobj::material_t::reflection_texname},
                {"map_Pr", &tinyobj::material_t::roughness_texname},
                {"map_Pm", &tinyobj::material_t::metallic_texname},
                {"map_Ps", &tinyobj::material_t::sheen_texname},
                {"map_Ke", &tinyobj::material_t::emissive_texname},
                {"norm", &tinyobj::material_t::normal_texname}};
    std::string out;
    for (const auto& m : maps) {
        const size_t users = size_t(std::count_if(mtl.begin(), mtl.end(), [&](const tinyobj::material_t& t) {
            return !(t.*(m.field)).empty();
        }));
        if (users == 0) continue;
        out += (out.empty() ? "" : ", ") + std::string(m.name) + " (" + std::to_string(users) +
               (users == 1 ? " material)" : " materials)");
    }
    return out;
}

// tinyobjloader's MTL files through prescanMtl: read once with the input
// limits of core/input_file.h, numbers checked with their line. A missing
// file is left to the loader's warning (it names the OBJ line).
class MtlReader : public tinyobj::MaterialReader {
public:
    explicit MtlReader(std::string dir) : dir_(std::move(dir)) {}
    bool operator()(const std::string& name, std::vector<tinyobj::material_t>* materials,
                    std::map<std::string, int>* matMap, std::string* warn, std::string* err) override {
        const fs::path p = fs::path(name).is_absolute() ? fs::path(name) : fs::path(dir_) / name;
        std::error_code ec;
        if (!fs::exists(p, ec)) return false;
        const std::string text = prescanMtl(p.string());
        TextStreamBuf buf(text);
        std::istream in(&buf);
        tinyobj::LoadMtl(matMap, materials, &in, warn, err);
        return true;
    }

private:
    std::string dir_;
};

struct CornerKey {
    int v, vt, vn;  // vn < -1: no usable normal; the triangle's own normal (-2 - triangle)
    bool operator==(const CornerKey& o) const { return v == o.v && vt == o.vt && vn == o.vn; }
};

struct CornerHash {
    size_t operator()(const CornerKey& k) const {
        uint64_t h = uint64_t(uint32_t(k.v)) * 0x9E3779B97F4A7C15ull;
        h ^= (uint64_t(uint32_t(k.vt)) + 0x7F4A7C159E3779B9ull + (h << 6) + (h >> 2));
        h ^= (uint64_t(uint32_t(k.vn)) * 0xC2B2AE3D27D4EB4Full + (h << 6) + (h >> 2));
        return size_t(h ^ (h >> 29));
    }
};

// Builds the de-indexed mesh from tinyobjloader's shapes.
class MeshBuilder {
public:
    MeshBuilder(const std::string& path, const tinyobj::attrib_t& attrib, const ObjLoadOptions& options)
        : path_(path), a_(attrib), options_(options) {
        Vec3 lo = make3(INFINITY), hi = make3(-INFINITY);
        for (size_t i = 0; i + 2 < a_.vertices.size(); i += 3) {
            lo = vmin(lo, position(int(i / 3)));
            hi = vmax(hi, position(int(i / 3)));
        }
        Vec3 d = hi - lo;
        diag2_ = a_.vertices.empty() ? 0.0 : double(d.x) * d.x + double(d.y) * d.y + double(d.z) * d.z;
    }

    void checkIndices(const std::vector<tinyobj::shape_t>& shapes) const {
        int nv = int(a_.vertices.size() / 3), nn = int(a_.normals.size() / 3), nt = int(a_.texcoords.size() / 2);
        for (const tinyobj::shape_t& s : shapes) {
            for (const tinyobj::index_t& i : s.mesh.indices) {
                if (i.vertex_index < 0 || i.vertex_index >= nv || i.normal_index < -1 || i.normal_index >= nn ||
                    i.texcoord_index < -1 || i.texcoord_index >= nt)
                    throw Error(path_ + ": face index out of range in object '" + s.name + "'");
            }
        }
    }

    // Decides, over every corner, whether the mesh gets normals and uvs.
    void scanAttributes(const std::vector<tinyobj::shape_t>& shapes) {
        for (const tinyobj::shape_t& s : shapes) {
            for (const tinyobj::index_t& i : s.mesh.indices) {
                hasNormals_ = hasNormals_ || usableNormal(i.normal_index);
                hasUvs_ = hasUvs_ || i.texcoord_index >= 0;
            }
        }
    }

    // Fan-triangulates every face; materialOf maps a tinyobj material id to a local one.
    template <typename MaterialOf>
    void addShape(const tinyobj::shape_t& s, MaterialOf materialOf) {
        size_t offset = 0;
        for (size_t f = 0; f < s.mesh.num_face_vertices.size(); ++f) {
            size_t n = s.mesh.num_face_vertices[f];
            int32_t mat = materialOf(f < s.mesh.material_ids.size() ? s.mesh.material_ids[f] : -1);
            if (options_.keepQuads && n == 4) {
                addQuad(&s.mesh.indices[offset], mat);
                offset += n;
                continue;
            }
            for (size_t k = 1; k + 1 < n; ++k)
                addTriangle(s.mesh.indices[offset], s.mesh.indices[offset + k], s.mesh.indices[offset + k + 1], mat);
            offset += n;
        }
    }

    LoadedMesh finish() {
        if (out_.mesh.triangles.empty() && out_.mesh.quads.empty()) {
            throw Error(path_ + ": no triangles" +
                        (out_.skippedDegenerate
                             ? " (all " + std::to_string(out_.skippedDegenerate) + " were degenerate and skipped)"
                             : std::string(" (the file has no faces)")));
        }
        out_.mesh.source = path_;
        return std::move(out_);
    }

private:
    Vec3 position(int i) const { return vec3(&a_.vertices[3 * size_t(i)]); }
    Vec3 normal(int i) const { return vec3(&a_.normals[3 * size_t(i)]); }
    bool usableNormal(int i) const { return i >= 0 && dot(normal(i), normal(i)) > 0; }

    void addTriangle(const tinyobj::index_t& a, const tinyobj::index_t& b, const tinyobj::index_t& c, int32_t mat) {
        if (a.vertex_index == b.vertex_index || b.vertex_index == c.vertex_index || a.vertex_index == c.vertex_index) {
            ++out_.skippedDegenerate;
            return;
        }
        Vec3 p0 = position(a.vertex_index), p1 = position(b.vertex_index), p2 = position(c.vertex_index);
        Vec3 n = cross(p1 - p0, p2 - p0);
        if (options_.skipZeroArea && negligibleArea(n, diag2_)) {
            ++out_.skippedDegenerate;
            return;
        }
        int tri = int(out_.mesh.triangles.size());
        Tri t;
        t.v[0] = vertex(a, tri, n);
        t.v[1] = vertex(b, tri, n);
        t.v[2] = vertex(c, tri, n);
        out_.mesh.triangles.push_back(t);
        out_.mesh.triMaterial.push_back(mat);
    }

    void addQuad(const tinyobj::index_t* c, int32_t mat) {
        for (int i = 0; i < 4; ++i)
            for (int j = i + 1; j < 4; ++j)
                if (c[i].vertex_index == c[j].vertex_index) {
                    ++out_.skippedDegenerate;
                    return;
                }
        Vec3 p[4];
        for (int i = 0; i < 4; ++i) p[i] = position(c[i].vertex_index);
        Vec3 n = cross(p[1] - p[0], p[2] - p[0]) + cross(p[2] - p[0], p[3] - p[0]);
        if (options_.skipZeroArea && negligibleArea(n, diag2_)) {
            ++out_.skippedDegenerate;
            return;
        }
        int face = -1 - int(out_.mesh.quads.size());  // missing normals: a key of its own per face
        Quad q;
        for (int i = 0; i < 4; ++i) q.v[i] = vertex(c[i], face, n);
        out_.mesh.quads.push_back(q);
        out_.mesh.quadMaterial.push_back(mat);
    }

    // The vertex of one corner, made on first use of its index triple.
    uint32_t vertex(const tinyobj::index_t& i, int tri, Vec3 faceNormal) {
        CornerKey key{i.vertex_index, hasUvs_ ? i.texcoord_index : -1, -1};
        // A corner without a usable normal gets its face's: a key per face
        // (triangle k: -2 - k; quad k: -2 - 2^30 - (k + 1)).
        if (hasNormals_)
            key.vn = usableNormal(i.normal_index) ? i.normal_index : tri >= 0 ? -2 - tri : -2 - (1 << 30) + tri;
        auto [it, inserted] = index_.try_emplace(key, uint32_t(out_.mesh.positions.size()));
        if (!inserted) return it->second;
        Mesh& m = out_.mesh;
        m.positions.push_back(position(i.vertex_index));
        if (hasNormals_) m.normals.push_back(normalize(key.vn >= 0 ? normal(key.vn) : faceNormal));
        if (hasUvs_) {
            m.uvs.push_back(i.texcoord_index >= 0 ? make2(float(a_.texcoords[2 * size_t(i.texcoord_index)]),
                                                          float(a_.texcoords[2 * size_t(i.texcoord_index) + 1]))
                                                  : make2(0, 0));
        }
        return it->second;
    }

    const std::string& path_;
    const tinyobj::attrib_t& a_;
    ObjLoadOptions options_;
    double diag2_ = 0;
    bool hasNormals_ = false, hasUvs_ = false;
    std::unordered_map<CornerKey, uint32_t, CornerHash> index_;
    LoadedMesh out_;
};

}  // namespace

LoadedMesh loadObj(const std::string& path) { return loadObj(path, nullptr); }

LoadedMesh loadObj(const std::string& path, std::vector<std::string>* texturePaths, const ObjLoadOptions& options) {
    ObjPrescan scan = prescanObj(path);  // throws on unreadable files, bad numbers and indices
    std::string dir = fs::path(path).parent_path().string();
    for (const auto& [line, lib] : scan.materialLibraries) {
        fs::path p = fs::path(lib).is_absolute() ? fs::path(lib) : fs::path(dir) / lib;
        std::error_code ec;  // e.g. a name too long: a warning like any missing file, not a filesystem_error
        if (!fs::exists(p, ec))
            warn(path + ":" + std::to_string(line) + ": material library '" + lib +
                 "' not found; its faces get the default material");
    }

    tinyobj::attrib_t attrib;
    std::vector<tinyobj::shape_t> shapes;
    std::vector<tinyobj::material_t> mtl;
    std::string warnings, err;
    // The text the pre-scan read (a FIFO gives it once), and MTL files read
    // and checked the same way.
    TextStreamBuf objBuf(scan.text);
    std::istream objText(&objBuf);
    MtlReader mtlReader(dir.empty() ? "." : dir);
    bool ok = tinyobj::LoadObj(&attrib, &shapes, &mtl, &warnings, &err, &objText, &mtlReader, /*triangulate=*/false,
                               /*default_vcols_fallback=*/false);
    scan.text = std::string();  // parsed: its memory back before the mesh is built
    if (!ok) throw Error(path + ": " + (err.empty() ? "cannot parse OBJ" : trimmed(err)));
    forwardWarnings(path, warnings + err);  // on success, err holds only MTL complaints
    const std::string ignored = ignoredMaps(mtl);
    if (!ignored.empty()) warn(path + ": texture maps strata does not read (it reads map_Kd): " + ignored);

    // The pre-scan has checked every number; this guards against a parser that reads them differently.
    for (const auto* values : {&attrib.vertices, &attrib.normals, &attrib.texcoords})
        for (tinyobj::real_t v : *values)
            if (!std::isfinite(v)) throw Error(path + ": vertex data is not finite");

    MeshBuilder builder(path, attrib, options);
    builder.checkIndices(shapes);
    builder.scanAttributes(shapes);

    std::vector<NamedMaterial> materials;
    for (const tinyobj::material_t& m : mtl) materials.push_back(convertMaterial(path, m));
    int32_t fallback = -1;  // the "default" material, added when a face has none
    auto materialOf = [&](int id) -> int32_t {
        if (id >= 0 && size_t(id) < mtl.size()) return id;
        if (fallback < 0) {
            fallback = int32_t(materials.size());
            materials.push_back({"default", Material{}});
        }
        return fallback;
    };
    for (const tinyobj::shape_t& s : shapes) builder.addShape(s, materialOf);

    LoadedMesh out = builder.finish();
    out.materials = std::move(materials);
    if (texturePaths) {
        texturePaths->assign(out.materials.size(), std::string());
        for (size_t i = 0; i < mtl.size(); ++i) (*texturePaths)[i] = resolveTexture(path, mtl[i].diffuse_texname);
    }
    return out;
}

}  // namespace strata
