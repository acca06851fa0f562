// scene/scene_meshes.cpp — the "materials" and "meshes" blocks of a scene file:
// named materials, OBJ, PLY and glTF files, OBJ frame sequences and generated meshes, and the
// remapping of each mesh's own materials into Scene::materials.
#include <cctype>
#include <cmath>
#include <string>
#include <vector>

#include "core/error.h"
#include "scene/generators/generators.h"
#include "scene/gltf_loader.h"
#include "scene/obj_loader.h"
#include "scene/vd_map.h"
#include "scene/ply_loader.h"
#include "scene/scene_build.h"

namespace strata {
namespace {

Material parseMaterial(SceneBuild& b, const JsonField& f) {
    Material m;
    std::string type = f.string("type", "diffuse");
    if (type == "diffuse") {
        f.allowOnly({"type", "albedo", "texture"});
        m.type = MaterialType::Diffuse;
    } else if (type == "conductor") {
        f.allowOnly({"type", "albedo", "texture", "roughness"});
        m.type = MaterialType::Conductor;
    } else if (type == "dielectric") {
        f.allowOnly({"type", "albedo", "texture", "ior"});
        m.type = MaterialType::Dielectric;
    } else if (type == "emissive") {
        f.allowOnly({"type", "emission"});
        m.type = MaterialType::Emissive;
    } else {
        f["type"].fail("unknown material type '" + type + "' (expected diffuse, conductor, dielectric or emissive)");
    }
    m.albedo = f.color("albedo", m.albedo);
    if (f.has("texture")) m.albedoTexture = b.image(b.resolve(f["texture"].string()), f["texture"].where());
    m.roughness = f.number("roughness", m.roughness);
    if (m.roughness < 0 || m.roughness > 1)
        f["roughness"].fail("expected a number in [0, 1], got " + numberText(m.roughness));
    m.ior = f.number("ior", m.ior);
    if (!(m.ior > 0)) f["ior"].fail("expected a positive number, got " + numberText(m.ior));
    if (m.type == MaterialType::Emissive) {
        (void)f["emission"];  // required: an emitter without emission is a mistake
        m.emission = f.color("emission", m.emission);
    }
    return m;
}

// One Scene::materials entry per name: a scene material, or the first mesh
// material of that name (with its map_Kd texture, if any).
int32_t globalMaterial(SceneBuild& b, const NamedMaterial& nm, const std::string& texture, const std::string& where,
                       const char* textureField) {
    auto it = b.materialByName.find(nm.name);
    if (it != b.materialByName.end()) return it->second;
    Material m = nm.material;
    m.albedoTexture = texture.empty() ? -1 : b.image(texture, where + ": material '" + nm.name + "' (" + textureField + ")");
    int32_t index = int32_t(b.scene.materials.size());
    b.scene.materials.push_back(m);
    b.scene.materialNames.push_back(nm.name);
    b.materialByName[nm.name] = index;
    return index;
}

// Rewrites triMaterial from the mesh's own materials to Scene::materials. Only
// materials that some triangle uses are added (and their textures loaded).
// `textureField` names the texture in messages (map_Kd, baseColorTexture).
void assignMaterials(SceneBuild& b, LoadedMesh& lm, const std::vector<std::string>& textures, const JsonField& m,
                     const char* textureField) {
    std::vector<int32_t>& triMaterial = lm.mesh.triMaterial;
    if (m.has("material")) {
        JsonField f = m["material"];
        std::string name = f.string();
        if (!b.sceneMaterials.count(name)) {
            std::string known;
            for (const std::string& s : b.sceneMaterials) known += (known.empty() ? "" : ", ") + s;
            f.fail("unknown material '" + name +
                   "' (the scene's \"materials\" block defines: " + (known.empty() ? "none" : known) + ")");
        }
        triMaterial.assign(lm.mesh.triangles.size(), b.materialByName.at(name));
        lm.mesh.quadMaterial.assign(lm.mesh.quads.size(), b.materialByName.at(name));
        return;
    }
    std::vector<int32_t> remap(lm.materials.size(), -1);
    for (std::vector<int32_t>* list : {&triMaterial, &lm.mesh.quadMaterial})
        for (int32_t& t : *list) {
            size_t local = size_t(t);  // range checked by validateMesh
            if (remap[local] < 0)
                remap[local] =
                    globalMaterial(b, lm.materials[local], local < textures.size() ? textures[local] : "", m.where(),
                                   textureField);
            t = remap[local];
        }
}

// What the renderer relies on; generators are checked as strictly as files.
void validateMesh(const LoadedMesh& lm, const std::string& where) {
    const Mesh& m = lm.mesh;
    size_t nv = m.positions.size();
    if (m.triangles.empty() && m.quads.empty()) throw Error(where + ": the mesh has no triangles");
    if (m.triMaterial.size() != m.triangles.size()) throw Error(where + ": triMaterial does not match the triangles");
    if (m.quadMaterial.size() != m.quads.size()) throw Error(where + ": quadMaterial does not match the quads");
    if ((!m.normals.empty() && m.normals.size() != nv) || (!m.uvs.empty() && m.uvs.size() != nv))
        throw Error(where + ": normals or uvs do not match the positions");
    for (const Vec3& p : m.positions)
        if (!isFinite(p)) throw Error(where + ": a vertex position is not finite");
    for (size_t t = 0; t < m.triangles.size(); ++t) {
        const Tri& tri = m.triangles[t];
        if (tri.v[0] >= nv || tri.v[1] >= nv || tri.v[2] >= nv)
            throw Error(where + ": triangle " + std::to_string(t) + " has a vertex index out of range");
        if (m.triMaterial[t] < 0 || size_t(m.triMaterial[t]) >= lm.materials.size())
            throw Error(where + ": triangle " + std::to_string(t) + " has a material index out of range");
    }
    for (size_t q = 0; q < m.quads.size(); ++q) {
        for (uint32_t v : m.quads[q].v)
            if (v >= nv) throw Error(where + ": quad " + std::to_string(q) + " has a vertex index out of range");
        if (m.quadMaterial[q] < 0 || size_t(m.quadMaterial[q]) >= lm.materials.size())
            throw Error(where + ": quad " + std::to_string(q) + " has a material index out of range");
    }
    if (!m.quads.empty() && m.deforms())
        throw Error(where +
                    ": quads and VD patches need a static mesh (move it with an instance's animation "
                    "instead of skinning, sway or frames)");
}

// "vd": {"map": FILE, "space": "object" | "tangent", "scale": S, "max_level": L}.
// A generator's own map is used unless "map" names a file.
void loadVd(SceneBuild& b, const JsonField& m, LoadedMesh& lm) {
    Mesh& mesh = lm.mesh;
    const bool own = lm.vdMap.width > 0;
    if (!m.has("vd") && !own) return;
    VdBinding vd = mesh.vd;
    if (m.has("vd")) {
        JsonField f = m["vd"];
        if (!f.json().is_object()) f.expected("an object");
        f.allowOnly({"map", "space", "scale", "max_level"});
        if (!f.has("map") && !own) f.fail("missing \"map\" (a .pfm, .hdr or 16-bit .png displacement map)");
        if (f.has("space")) {
            std::string sp = f["space"].string();
            if (sp != "object" && sp != "tangent")
                f["space"].fail("expected \"object\" or \"tangent\", got '" + sp + "'");
            vd.space = sp == "object" ? VdSpace::Object : VdSpace::Tangent;
        }
        vd.scale = f.number("scale", vd.scale);
        if (!(std::fabs(vd.scale) <= 1e4f)) f["scale"].fail("expected a number in [-10000, 10000]");
        if (f.has("max_level")) {
            long long l = f["max_level"].integer();
            if (l < 1 || l > 7) f["max_level"].fail("expected an integer in [1, 7], got " + std::to_string(l));
            vd.maxLevel = int(l);
        }
        if (f.has("map")) {
            std::string path = b.resolve(f["map"].string());
            try {
                lm.vdMap = loadVdMap(path);
            } catch (const Error& e) {
                f["map"].fail(e.what());
            }
        }
    }
    if (mesh.quads.empty()) throw Error(m.where() + ": \"vd\" needs a mesh with quads (four-vertex faces)");
    finishVdMap(lm.vdMap);
    // Displaced vertices obey the scene's coordinate rule too (a texel of
    // 3e38, or 1e30 at scale 1e4, made the patch's box infinite: it vanished).
    const double reach = double(lm.vdMap.maxLength) * std::fabs(double(vd.scale));
    if (reach > kMaxSceneCoordinate) {
        const std::string where = m.has("vd") ? m["vd"].where() : m.where();
        throw Error(where + ": the displacement reaches " + numberText(reach) + " (largest texel " +
                    numberText(lm.vdMap.maxLength) + " x scale " + numberText(vd.scale) +
                    "); displaced positions must stay within +-1e18");
    }
    vd.map = int32_t(b.scene.vdMaps.size());
    b.scene.vdMaps.push_back(std::move(lm.vdMap));
    lm.vdMap = VdMap{};
    mesh.vd = vd;
}

// Wraps an error from a loader with the scene file and field.
template <typename Fn>
LoadedMesh withContext(const JsonField& f, Fn load) {
    try {
        return load();
    } catch (const Error& e) {
        f.fail(e.what());
    }
}

// "flag_%03d.obj" with n: exactly one %d or %0Nd; %% is a literal %.
std::string formatPattern(const JsonField& f, const std::string& pattern, long long n) {
    std::string out;
    int conversions = 0;
    bool bad = false;
    for (size_t i = 0; i < pattern.size() && !bad; ++i) {
        if (pattern[i] != '%') {
            out += pattern[i];
        } else if (i + 1 < pattern.size() && pattern[i + 1] == '%') {
            out += '%';
            ++i;
        } else {
            size_t j = i + 1, width = 0;
            while (j < pattern.size() && std::isdigit((unsigned char)pattern[j]) && width < 100)
                width = width * 10 + size_t(pattern[j++] - '0');
            bad = j >= pattern.size() || pattern[j] != 'd';
            std::string num = std::to_string(n);
            out += std::string(num.size() < width ? width - num.size() : 0, '0') + num;
            ++conversions;
            i = j;
        }
    }
    if (bad || conversions != 1)
        f.fail("expected exactly one %d or %0Nd (and %% for a literal %) in the pattern, got '" + pattern + "'");
    return out;
}

struct FrameFile {
    std::string path;
    std::string field;  // for messages: "files[3]" or "files (frame 3)"
};

std::vector<FrameFile> frameFiles(SceneBuild& b, const JsonField& files) {
    std::vector<FrameFile> out;
    if (files.json().is_array()) {
        for (size_t i = 0; i < files.size(); ++i) out.push_back({b.resolve(files[i].string()), files[i].where()});
    } else if (files.json().is_object()) {
        files.allowOnly({"pattern", "first", "count"});
        std::string pattern = files["pattern"].string();
        long long first = files.has("first") ? files["first"].integer() : 0;
        long long count = files["count"].integer();
        if (first < 0 || first > 1000000000) files["first"].fail("expected an integer in [0, 1000000000]");
        if (count < 1 || count > 100000) files["count"].fail("expected an integer in [1, 100000]");
        for (long long k = 0; k < count; ++k)
            out.push_back({b.resolve(formatPattern(files["pattern"], pattern, first + k)),
                           files.where() + " (frame " + std::to_string(k) + ")"});
    } else {
        files.expected("an array of file names or {\"pattern\", \"first\", \"count\"}");
    }
    if (out.empty()) files.fail("expected at least one frame");
    return out;
}

// Every frame is an OBJ with the topology of frame 0; positions (and normals)
// go to Mesh::frames, frame 0 is also the rest pose.
LoadedMesh loadSequence(SceneBuild& b, const JsonField& seq, std::vector<std::string>& textures) {
    seq.allowOnly({"files", "fps", "loop"});
    std::vector<FrameFile> files = frameFiles(b, seq["files"]);
    float fps = seq.number("fps", 24.0f);
    if (!(fps > 0) || fps > 10000) seq["fps"].fail("expected a number in (0, 10000], got " + numberText(fps));
    ObjLoadOptions keepAll;
    keepAll.skipZeroArea = false;  // a triangle may collapse in one frame only
    auto load = [&](const FrameFile& f, std::vector<std::string>* tex) {
        try {
            return loadObj(f.path, tex, keepAll);
        } catch (const Error& e) {
            throw Error(f.field + ": " + e.what());
        }
    };
    LoadedMesh out = load(files[0], &textures);
    FrameSequence& seqOut = out.mesh.frames;
    seqOut.fps = fps;
    seqOut.loop = seq.boolean("loop", true);
    seqOut.positions.push_back(out.mesh.positions);
    if (!out.mesh.normals.empty()) seqOut.normals.push_back(out.mesh.normals);
    for (size_t k = 1; k < files.size(); ++k) {
        LoadedMesh f = load(files[k], nullptr);
        std::string frame = files[k].field + ": " + files[k].path + ": frame " + std::to_string(k);
        if (f.mesh.positions.size() != out.mesh.positions.size()) {
            throw Error(frame + " has " + std::to_string(f.mesh.positions.size()) + " vertices, frame 0 (" +
                        files[0].path + ") has " + std::to_string(out.mesh.positions.size()));
        }
        if (f.mesh.normals.size() != out.mesh.normals.size())
            throw Error(frame + (f.mesh.normals.empty() ? " has no normals" : " has normals") + ", frame 0 (" +
                        files[0].path + (f.mesh.normals.empty() ? ") has" : ") has not"));
        bool same = f.mesh.triangles.size() == out.mesh.triangles.size();
        for (size_t t = 0; same && t < f.mesh.triangles.size(); ++t)
            for (int c = 0; c < 3; ++c) same = same && f.mesh.triangles[t].v[c] == out.mesh.triangles[t].v[c];
        if (!same) throw Error(frame + " has different faces (topology) from frame 0 (" + files[0].path + ")");
        seqOut.positions.push_back(std::move(f.mesh.positions));
        if (!f.mesh.normals.empty()) seqOut.normals.push_back(std::move(f.mesh.normals));
    }
    out.mesh.animation = MeshAnimationKind::Frames;
    return out;
}

LoadedMesh loadGenerated(const JsonField& m) {
    std::string generator = m["generator"].string();
    Json params = Json::object();
    if (m.has("params")) {
        if (!m["params"].json().is_object()) m["params"].expected("an object");
        params = m["params"].json();
    }
    try {
        return generateMesh(generator, params, m.where());
    } catch (const Json::exception& e) {  // a parameter read with the wrong type
        m["params"].fail("generator '" + generator + "': " + e.what());
    }
}

}  // namespace

void loadMaterials(SceneBuild& b, const JsonField& block) {
    for (const auto& [name, f] : block.members()) {
        if (name.empty()) f.fail("a material needs a non-empty name");
        Material m = parseMaterial(b, f);
        b.materialByName[name] = int32_t(b.scene.materials.size());
        b.sceneMaterials.insert(name);
        b.scene.materials.push_back(m);
        b.scene.materialNames.push_back(name);
    }
}

// An "obj" that names another format's file says so (tinyobjloader would
// read a PLY or glTF file as an OBJ with no faces).
void checkNotOtherFormat(const JsonField& f, const std::string& path) {
    std::string ext = path.substr(path.find_last_of('.') == std::string::npos ? path.size() : path.find_last_of('.'));
    for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (ext == ".ply") f.fail("'" + path + "' is a PLY file: name it as \"ply\"");
    if (ext == ".gltf" || ext == ".glb") f.fail("'" + path + "' is a glTF file: name it as \"gltf\"");
}

// "gltf": FILE with "clip", "fps", "loop": the file's scene as one mesh, its
// animation baked to frames (scene/gltf_loader.h). Embedded textures become
// images of the scene under the name "<file>#images[i]".
LoadedMesh loadGltfMesh(SceneBuild& b, const JsonField& m, const std::string& source,
                        std::vector<std::string>& textures) {
    GltfLoadOptions o;
    if (m.has("clip")) {
        const JsonField c = m["clip"];
        o.clip = c.json().is_number_integer() ? std::to_string(c.integer()) : c.string();
        if (c.json().is_number_integer() && c.integer() < 0) c.fail("expected an animation's name or index");
        if (o.clip.empty()) c.fail("expected an animation's name or index, or \"none\"");
    }
    o.fps = m.number("fps", o.fps);
    if (!(o.fps > 0) || o.fps > 10000) m["fps"].fail("expected a number in (0, 10000], got " + numberText(o.fps));
    o.loop = m.boolean("loop", o.loop);
    LoadedGltf g;
    try {
        g = loadGltf(source, o);
    } catch (const Error& e) {
        m["gltf"].fail(e.what());
    }
    for (GltfTexture& t : g.textures) {
        if (t.embedded.width > 0 && !b.imageByPath.count(t.path)) {
            b.imageByPath[t.path] = int32_t(b.scene.images.size());
            b.scene.images.push_back(std::move(t.embedded));
        }
        textures.push_back(t.path);
    }
    return std::move(g.loaded);
}

void loadMeshes(SceneBuild& b, const JsonField& list) {
    if (!list.json().is_array()) list.expected("an array");
    if (list.size() == 0) throw Error(b.file + ": no meshes (\"meshes\" is empty)");
    std::map<std::string, size_t> seen;
    for (size_t i = 0; i < list.size(); ++i) {
        JsonField m = list[i];
        m.allowOnly(
            {"name", "obj", "ply", "gltf", "clip", "fps", "loop", "obj_sequence", "generator", "params", "material", "vd"});
        std::string name = m["name"].string();
        if (name.empty()) m["name"].fail("expected a non-empty name");
        if (seen.count(name))
            m["name"].fail("duplicate mesh name '" + name + "' (also meshes[" + std::to_string(seen[name]) + "])");
        seen[name] = i;
        int sources = int(m.has("obj")) + int(m.has("ply")) + int(m.has("gltf")) + int(m.has("obj_sequence")) +
                      int(m.has("generator"));
        if (sources != 1)
            m.fail("expected exactly one of \"obj\", \"ply\", \"gltf\", \"obj_sequence\" or \"generator\"");
        if (m.has("params") && !m.has("generator")) m["params"].fail("only used with \"generator\"");
        for (const char* f : {"clip", "fps", "loop"})
            if (m.has(f) && !m.has("gltf"))
                m[f].fail("only used with \"gltf\" (an OBJ sequence takes \"fps\" and \"loop\" in its own block)");

        std::vector<std::string> textures;
        LoadedMesh lm;
        std::string source;
        if (m.has("obj")) {
            source = b.resolve(m["obj"].string());
            checkNotOtherFormat(m["obj"], source);
            ObjLoadOptions objOptions;
            objOptions.keepQuads = m.has("vd");  // the quads are the VD patches
            lm = withContext(m["obj"], [&] { return loadObj(source, &textures, objOptions); });
        } else if (m.has("ply")) {
            source = b.resolve(m["ply"].string());
            PlyLoadOptions plyOptions;
            plyOptions.keepQuads = m.has("vd");  // the quads are the VD patches
            lm = withContext(m["ply"], [&] { return loadPly(source, plyOptions); });
        } else if (m.has("gltf")) {
            source = b.resolve(m["gltf"].string());
            lm = loadGltfMesh(b, m, source, textures);
        } else if (m.has("obj_sequence")) {
            lm = loadSequence(b, m["obj_sequence"], textures);  // its messages name the frame
            source = lm.mesh.source;
        } else {
            lm = loadGenerated(m);
            source = "generator:" + m["generator"].string();
            textures.clear();  // generators have no texture files
        }
        validateMesh(lm, m.where() + " (" + source + ")");
        loadVd(b, m, lm);
        assignMaterials(b, lm, textures, m, m.has("gltf") ? "baseColorTexture" : "map_Kd");
        lm.mesh.name = name;
        lm.mesh.source = source;
        b.scene.skippedDegenerate += lm.skippedDegenerate;
        b.scene.meshes.push_back(std::move(lm.mesh));
    }
}

}  // namespace strata
