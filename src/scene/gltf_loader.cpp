// scene/gltf_loader.cpp — see gltf_loader.h. The file's scene is walked
// through its node hierarchy (scene/gltf_rig.h); each primitive of each mesh
// node becomes a piece of one strata mesh, posed here: morph targets first,
// then the skin's joints or the node's global transform, as glTF defines it.
#include "scene/gltf_loader.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>

#include "core/error.h"
#include "scene/face_area.h"
#include "scene/gltf_accessor.h"
#include "scene/gltf_parse.h"
#include "scene/gltf_rig.h"
#include "scene/image_io.h"
#include "scene/scene_json_util.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

// Extensions a file may require that strata reads (or whose absence changes
// nothing it renders). Any other required extension refuses the file.
const char* const kReadExtensions[] = {"KHR_mesh_quantization", "KHR_materials_emissive_strength",
                                       "KHR_materials_transmission", "KHR_materials_ior", "KHR_materials_unlit"};

// Vertices beyond this (in the file's units, after the hierarchy) are refused:
// the scene's coordinate limit (scene_build.h's kMaxSceneCoordinate).
constexpr double kMaxCoordinate = 1e18;
// A clip shorter than this shows no motion: the mesh stays at its first pose.
constexpr double kShortestClip = 1e-6;
// The most steps (poseWork() per frame, times the frames) a bake may take:
// a few seconds. A small file with a long clip and a big skin asked for weeks.
constexpr double kMaxBakeWork = double(uint64_t(1) << 31);

// Features strata does not render, named once per file (one line) with how
// often each occurs.
class Ignored {
public:
    void add(const std::string& what, size_t n = 1) { counts_[what] += n; }
    void print(const std::string& file) const {
        if (counts_.empty()) return;
        std::string list;
        for (const auto& [what, n] : counts_)
            list += (list.empty() ? "" : ", ") + what + " (" + std::to_string(n) + ")";
        std::cerr << "warning: " << file << ": not rendered: " << list << "\n";
    }

private:
    std::map<std::string, size_t> counts_;
};

struct SkinWeight {
    uint32_t joint;
    float weight;
};

// One primitive of one mesh node, its vertices [first, first + count) in
// the rest arrays (the primitive's own space).
struct Piece {
    int node = -1;
    int skin = -1;
    uint32_t first = 0, count = 0;
    std::vector<std::vector<Vec3>> dPos, dNrm;  // per morph target (empty: the target moves none)
};

struct Rest {
    std::vector<Vec3> pos, nrm;
    std::vector<Vec2> uv;
    std::vector<uint32_t> skinStart{0};  // CSR over `skin`, per vertex
    std::vector<SkinWeight> skin;
    std::vector<Tri> tris;
    std::vector<int32_t> triMaterial;  // local material index
    std::vector<uint32_t> triPiece;    // the piece each triangle belongs to
    std::vector<Piece> pieces;
    size_t primitivesWithoutNormals = 0, primitives = 0;
    bool anyUv = false;
};

struct SkinData {
    bool used = false;  // by a mesh node of the scene (only those are read and posed)
    std::vector<int> joints;
    std::vector<GltfMat> inverseBind;
};

bool same(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                              [](Vec3 x, Vec3 y) { return x.x == y.x && x.y == y.y && x.z == y.z; });
}

std::string percentDecoded(const std::string& uri) {
    std::string out;
    for (size_t i = 0; i < uri.size(); ++i) {
        if (uri[i] == '%' && i + 2 < uri.size() && std::isxdigit((unsigned char)uri[i + 1]) &&
            std::isxdigit((unsigned char)uri[i + 2])) {
            out += char(std::stoi(uri.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else {
            out += uri[i];
        }
    }
    return out;
}

class Loader {
public:
    Loader(const std::string& path, const GltfLoadOptions& options) : file_(path), options_(options) {
        budget_.values = options.maxValues;
    }

    LoadedGltf load() {
        ParsedGltf parsed = parseGltf(file_);
        model_ = &parsed.model;
        if (!parsed.warnings.empty()) std::cerr << "warning: " << file_ << ": " << parsed.warnings << "\n";
        checkExtensions();
        const std::vector<int> roots = sceneRoots();
        const int clip = chooseClip();
        GltfRig rig(file_, *model_, roots, clip, budget_);
        readSkins(rig);
        for (int node : rig.order()) readNode(node);
        if (rest_.pieces.empty()) throw Error(file_ + ": the scene has no triangle meshes");
        LoadedGltf out;
        out.clip = clip >= 0 ? clipName(clip) : "";
        bake(rig, out);
        readMaterials(out);
        if (model_->cameras.size()) ignored_.add("cameras", model_->cameras.size());
        if (model_->lights.size()) ignored_.add("KHR_lights_punctual lights", model_->lights.size());
        ignored_.print(file_);
        return out;
    }

private:
    [[noreturn]] void fail(const std::string& where, const std::string& msg) const {
        throw Error(file_ + ": " + where + ": " + msg);
    }

    void checkExtensions() const {
        for (const std::string& e : model_->extensionsRequired) {
            bool known = false;
            for (const char* k : kReadExtensions) known = known || e == k;
            if (!known) fail("extensionsRequired", "strata does not read extension " + e);
        }
    }

    std::vector<int> sceneRoots() const {
        const auto& scenes = model_->scenes;
        if (!scenes.empty()) {
            const int s = model_->defaultScene >= 0 ? model_->defaultScene : 0;
            if (size_t(s) >= scenes.size()) fail("scene", "scene " + std::to_string(s) + " does not exist");
            return scenes[size_t(s)].nodes;
        }
        // No scene: every node that is no node's child.
        std::vector<char> child(model_->nodes.size(), 0);
        for (const tinygltf::Node& n : model_->nodes)
            for (int c : n.children)
                if (c >= 0 && size_t(c) < child.size()) child[size_t(c)] = 1;
        std::vector<int> roots;
        for (size_t i = 0; i < child.size(); ++i)
            if (!child[i]) roots.push_back(int(i));
        return roots;
    }

    std::string clipName(int clip) const {
        const std::string& n = model_->animations[size_t(clip)].name;
        return n.empty() ? "#" + std::to_string(clip) : n;
    }

    int chooseClip() const {
        const auto& anims = model_->animations;
        const std::string& want = options_.clip;
        if (want == "none") return -1;
        if (want.empty()) return anims.empty() ? -1 : 0;
        for (size_t i = 0; i < anims.size(); ++i)
            if (anims[i].name == want) return int(i);
        if (!want.empty() &&
            std::all_of(want.begin(), want.end(), [](char c) { return std::isdigit((unsigned char)c); })) {
            const size_t i = want.size() <= 9 ? size_t(std::stoul(want)) : anims.size();
            if (i < anims.size()) return int(i);
        }
        std::string names;
        for (size_t i = 0; i < anims.size(); ++i) names += (i ? ", " : "") + clipName(int(i));
        throw Error(file_ + ": no animation '" + want + "' (the file has " +
                    (anims.empty() ? std::string("none") : names) + ")");
    }

    // The skins of the scene's mesh nodes (another scene's are not read).
    void readSkins(const GltfRig& rig) {
        std::vector<char> inScene(model_->nodes.size(), 0), used(model_->skins.size(), 0);
        for (int n : rig.order()) {
            inScene[size_t(n)] = 1;
            const tinygltf::Node& nd = model_->nodes[size_t(n)];
            if (nd.mesh >= 0 && nd.skin >= 0 && size_t(nd.skin) < used.size()) used[size_t(nd.skin)] = 1;
        }
        skins_.resize(model_->skins.size());
        for (size_t s = 0; s < model_->skins.size(); ++s) {
            if (!used[s]) continue;
            const tinygltf::Skin& sk = model_->skins[s];
            const std::string where = "skins[" + std::to_string(s) + "]";
            SkinData d;
            d.joints = sk.joints;
            if (d.joints.empty()) fail(where, "no joints");
            for (int j : d.joints) {
                if (j < 0 || size_t(j) >= model_->nodes.size())
                    fail(where, "joint " + std::to_string(j) + " does not exist");
                if (!inScene[size_t(j)]) fail(where, "joint nodes[" + std::to_string(j) + "] is not in the scene");
            }
            d.inverseBind.assign(d.joints.size(), GltfMat{});
            if (sk.inverseBindMatrices >= 0) {
                const std::vector<float> m = readGltfFloats(file_, *model_, sk.inverseBindMatrices, TINYGLTF_TYPE_MAT4,
                                                            where + " inverseBindMatrices", budget_);
                if (m.size() < 16 * d.joints.size())
                    fail(where, std::to_string(m.size() / 16) + " inverse bind matrices for " +
                                    std::to_string(d.joints.size()) + " joints");
                for (size_t j = 0; j < d.joints.size(); ++j)
                    for (int k = 0; k < 16; ++k) {
                        if (!std::isfinite(m[16 * j + size_t(k)])) fail(where, "an inverse bind matrix is not finite");
                        d.inverseBind[j].m[k] = m[16 * j + size_t(k)];
                    }
            }
            d.used = true;
            skins_[s] = std::move(d);
        }
    }

    // The vertex count of attribute `name` (or -1 when absent) and its values.
    std::vector<float> attribute(const tinygltf::Primitive& p, const char* name, int type, const std::string& where,
                                 size_t count, bool required) {
        const size_t comps = type == TINYGLTF_TYPE_VEC2 ? 2 : type == TINYGLTF_TYPE_VEC3 ? 3 : 4;
        auto it = p.attributes.find(name);
        if (it == p.attributes.end()) {
            if (required) fail(where, std::string("no ") + name + " attribute");
            return {};
        }
        std::vector<float> v =
            readGltfFloats(file_, *model_, it->second, type, std::string(name) + " of " + where, budget_);
        if (count != ~size_t(0) && v.size() != count * comps)
            fail(where, std::string(name) + " has " + std::to_string(v.size() / comps) + " values for " +
                            std::to_string(count) + " vertices");
        for (float x : v)
            if (!std::isfinite(x)) fail(where, std::string(name) + " holds a value that is not finite");
        return v;
    }

    void readNode(int node) {
        const tinygltf::Node& nd = model_->nodes[size_t(node)];
        if (nd.mesh < 0) return;
        const std::string nw = "nodes[" + std::to_string(node) + "]";
        if (size_t(nd.mesh) >= model_->meshes.size()) fail(nw, "mesh " + std::to_string(nd.mesh) + " does not exist");
        if (nd.skin >= 0 && size_t(nd.skin) >= skins_.size())
            fail(nw, "skin " + std::to_string(nd.skin) + " does not exist");
        const tinygltf::Mesh& mesh = model_->meshes[size_t(nd.mesh)];
        for (size_t pi = 0; pi < mesh.primitives.size(); ++pi) {
            const tinygltf::Primitive& p = mesh.primitives[pi];
            const std::string where = "meshes[" + std::to_string(nd.mesh) + "].primitives[" + std::to_string(pi) + "]";
            if (p.targets.size() != mesh.primitives[0].targets.size())
                fail(where, "has a different number of morph targets from the mesh's first primitive");
            if (p.mode >= 0 && p.mode <= 3) {
                ignored_.add("points and lines primitives");
                continue;
            }
            if (p.mode != -1 && (p.mode < 4 || p.mode > 6)) fail(where, "unknown mode " + std::to_string(p.mode));
            readPrimitive(node, nd.skin, p, where);
        }
    }

    void readPrimitive(int node, int skin, const tinygltf::Primitive& p, const std::string& where) {
        const std::vector<float> pos = attribute(p, "POSITION", TINYGLTF_TYPE_VEC3, where, ~size_t(0), true);
        const size_t n = pos.size() / 3;
        if (n == 0) {
            ignored_.add("primitives without vertices");
            return;
        }
        if (rest_.pos.size() + n > (size_t(1) << 31)) fail(where, "more than 2^31 vertices in all");
        const std::vector<float> nrm = attribute(p, "NORMAL", TINYGLTF_TYPE_VEC3, where, n, false);
        const std::vector<float> uv = attribute(p, "TEXCOORD_0", TINYGLTF_TYPE_VEC2, where, n, false);
        ++rest_.primitives;
        rest_.primitivesWithoutNormals += nrm.empty();
        rest_.anyUv = rest_.anyUv || !uv.empty();
        Piece piece;
        piece.node = node;
        piece.skin = skin;
        piece.first = uint32_t(rest_.pos.size());
        piece.count = uint32_t(n);
        for (size_t v = 0; v < n; ++v) {
            rest_.pos.push_back(Vec3{pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]});
            rest_.nrm.push_back(nrm.empty() ? Vec3{0, 0, 0} : Vec3{nrm[3 * v], nrm[3 * v + 1], nrm[3 * v + 2]});
            rest_.uv.push_back(uv.empty() ? Vec2{0, 0} : Vec2{uv[2 * v], uv[2 * v + 1]});
        }
        readSkinWeights(p, skin, n, where);
        for (size_t k = 0; k < p.targets.size(); ++k) {
            const std::string tw = where + ".targets[" + std::to_string(k) + "]";
            auto delta = [&](const char* name) {
                std::vector<Vec3> d;
                auto it = p.targets[k].find(name);
                if (it == p.targets[k].end()) return d;
                const std::vector<float> v = readGltfFloats(file_, *model_, it->second, TINYGLTF_TYPE_VEC3,
                                                            std::string(name) + " of " + tw, budget_);
                if (v.size() != 3 * n) fail(tw, std::string(name) + " does not have one value per vertex");
                for (size_t i = 0; i < n; ++i) {
                    d.push_back(Vec3{v[3 * i], v[3 * i + 1], v[3 * i + 2]});
                    if (!isFinite(d.back())) fail(tw, std::string(name) + " holds a value that is not finite");
                }
                return d;
            };
            piece.dPos.push_back(delta("POSITION"));
            piece.dNrm.push_back(delta("NORMAL"));
        }
        // Triangles, from the index list or the vertices in order.
        std::vector<uint32_t> idx;
        if (p.indices >= 0) {
            idx = readGltfUints(file_, *model_, p.indices, TINYGLTF_TYPE_SCALAR, "indices of " + where, budget_);
            for (uint32_t i : idx)
                if (i >= n)
                    fail(where, "index " + std::to_string(i) + " is beyond its " + std::to_string(n) + " vertices");
        } else {
            if (n > budget_.values) fail(where, "more vertices than strata reads from one file");
            budget_.values -= n;
            idx.resize(n);
            for (size_t i = 0; i < n; ++i) idx[i] = uint32_t(i);
        }
        const int32_t material = localMaterial(p.material, where);
        auto tri = [&](uint32_t a, uint32_t b, uint32_t c) {
            rest_.tris.push_back(Tri{{piece.first + a, piece.first + b, piece.first + c}});
            rest_.triMaterial.push_back(material);
            rest_.triPiece.push_back(uint32_t(rest_.pieces.size()));
        };
        const int mode = p.mode == -1 ? TINYGLTF_MODE_TRIANGLES : p.mode;
        if (mode == TINYGLTF_MODE_TRIANGLES) {
            if (idx.size() % 3) fail(where, std::to_string(idx.size()) + " indices do not make whole triangles");
            for (size_t i = 0; i + 2 < idx.size(); i += 3) tri(idx[i], idx[i + 1], idx[i + 2]);
        } else if (mode == TINYGLTF_MODE_TRIANGLE_STRIP) {  // every other triangle turned to keep the winding
            for (size_t i = 0; i + 2 < idx.size(); ++i)
                i % 2 ? tri(idx[i + 1], idx[i], idx[i + 2]) : tri(idx[i], idx[i + 1], idx[i + 2]);
        } else {  // fan
            for (size_t i = 1; i + 1 < idx.size(); ++i) tri(idx[0], idx[i], idx[i + 1]);
        }
        rest_.pieces.push_back(std::move(piece));
    }

    void readSkinWeights(const tinygltf::Primitive& p, int skin, size_t n, const std::string& where) {
        std::vector<std::vector<SkinWeight>> per(skin >= 0 ? n : 0);
        for (int set = 0; skin >= 0; ++set) {
            const std::string js = "JOINTS_" + std::to_string(set), ws = "WEIGHTS_" + std::to_string(set);
            auto jt = p.attributes.find(js), wt = p.attributes.find(ws);
            if (jt == p.attributes.end() && wt == p.attributes.end()) break;
            if (jt == p.attributes.end() || wt == p.attributes.end()) fail(where, js + " and " + ws + " come in pairs");
            const std::vector<uint32_t> j =
                readGltfUints(file_, *model_, jt->second, TINYGLTF_TYPE_VEC4, js + " of " + where, budget_);
            const std::vector<float> w = attribute(p, ws.c_str(), TINYGLTF_TYPE_VEC4, where, n, true);
            if (j.size() != 4 * n) fail(where, js + " does not have one value per vertex");
            const size_t joints = skins_[size_t(skin)].joints.size();
            for (size_t v = 0; v < n; ++v)
                for (int k = 0; k < 4; ++k) {
                    const float weight = w[4 * v + size_t(k)];
                    if (weight == 0) continue;
                    if (weight < 0) fail(where, ws + " holds a negative weight (vertex " + std::to_string(v) + ")");
                    if (j[4 * v + size_t(k)] >= joints)
                        fail(where, js + " names joint " + std::to_string(j[4 * v + size_t(k)]) + " of a skin of " +
                                        std::to_string(joints));
                    per[v].push_back({j[4 * v + size_t(k)], weight});
                }
        }
        for (size_t v = 0; v < n; ++v) {
            if (skin >= 0) {
                float sum = 0;
                for (const SkinWeight& s : per[v]) sum += s.weight;
                for (SkinWeight s : per[v]) rest_.skin.push_back({s.joint, s.weight / sum});
            }
            rest_.skinStart.push_back(uint32_t(rest_.skin.size()));
        }
    }

    int32_t localMaterial(int gltfMaterial, const std::string& where) {
        if (gltfMaterial >= 0 && size_t(gltfMaterial) >= model_->materials.size())
            fail(where, "material " + std::to_string(gltfMaterial) + " does not exist");
        auto it = localOf_.find(gltfMaterial);
        if (it != localOf_.end()) return it->second;
        const int32_t local = int32_t(usedMaterials_.size());
        usedMaterials_.push_back(gltfMaterial);
        localOf_[gltfMaterial] = local;
        return local;
    }

    // The mesh at clip time t: positions and normals of every vertex; with
    // `mirrored`, per piece whether its node's global transform mirrors
    // (a negative determinant: glTF's clockwise front faces).
    void pose(const GltfRig& rig, double t, std::vector<Vec3>& pos, std::vector<Vec3>& nrm,
              std::vector<char>* mirrored = nullptr) const {
        GltfPose g;
        rig.poseAt(t, g);
        if (mirrored) {
            mirrored->clear();
            for (const Piece& pc : rest_.pieces) {
                const double* m = g.global[size_t(pc.node)].m;
                const double det = m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) +
                                   m[8] * (m[1] * m[6] - m[5] * m[2]);
                mirrored->push_back(pc.skin < 0 && det < 0);  // a skinned node's own transform does not apply
            }
        }
        pos.resize(rest_.pos.size());
        nrm.resize(rest_.pos.size());
        std::vector<std::vector<GltfMat>> jointMats(skins_.size());
        for (size_t s = 0; s < skins_.size(); ++s)
            for (size_t j = 0; skins_[s].used && j < skins_[s].joints.size(); ++j)
                jointMats[s].push_back(g.global[size_t(skins_[s].joints[j])] * skins_[s].inverseBind[j]);
        for (const Piece& pc : rest_.pieces) {
            const std::vector<double>& w = g.weights[size_t(pc.node)];
            for (uint32_t i = 0; i < pc.count; ++i) {
                const uint32_t v = pc.first + i;
                double p[3] = {rest_.pos[v].x, rest_.pos[v].y, rest_.pos[v].z};
                double n[3] = {rest_.nrm[v].x, rest_.nrm[v].y, rest_.nrm[v].z};
                for (size_t k = 0; k < pc.dPos.size() && k < w.size(); ++k) {
                    if (!pc.dPos[k].empty())
                        for (int c = 0; c < 3; ++c) p[c] += w[k] * double((&pc.dPos[k][i].x)[c]);
                    if (!pc.dNrm[k].empty())
                        for (int c = 0; c < 3; ++c) n[c] += w[k] * double((&pc.dNrm[k][i].x)[c]);
                }
                GltfMat m;
                if (pc.skin < 0) {
                    m = g.global[size_t(pc.node)];
                } else if (rest_.skinStart[v] != rest_.skinStart[v + 1]) {  // the node's own transform is ignored
                    for (double& x : m.m) x = 0;
                    for (uint32_t s = rest_.skinStart[v]; s < rest_.skinStart[v + 1]; ++s) {
                        const GltfMat& jm = jointMats[size_t(pc.skin)][rest_.skin[s].joint];
                        for (int k = 0; k < 16; ++k) m.m[k] += rest_.skin[s].weight * jm.m[k];
                    }
                }
                double op[3], on[3];
                m.point(p, op);
                m.normal(n, on);
                for (double c : op)
                    if (!(std::fabs(c) <= kMaxCoordinate))
                        throw Error(file_ + ": nodes[" + std::to_string(pc.node) + "]: a vertex lands beyond +-1e18" +
                                    (rig.animated() ? " at clip time " + std::to_string(t) : std::string()));
                const double len = std::sqrt(on[0] * on[0] + on[1] * on[1] + on[2] * on[2]);
                pos[v] = Vec3{float(op[0]), float(op[1]), float(op[2])};
                nrm[v] = len > 0 && std::isfinite(len)
                             ? Vec3{float(on[0] / len), float(on[1] / len), float(on[2] / len)}
                             : Vec3{0, 0, 1};
            }
        }
    }

    void bake(const GltfRig& rig, LoadedGltf& out) {
        Mesh& mesh = out.loaded.mesh;
        mesh.source = file_;
        const bool normals = rest_.primitivesWithoutNormals == 0;
        if (rest_.primitivesWithoutNormals && rest_.primitivesWithoutNormals < rest_.primitives)
            std::cerr << "warning: " << file_ << ": " << rest_.primitivesWithoutNormals << " of " << rest_.primitives
                      << " primitives have no normals: the whole mesh is shaded with flat normals\n";
        std::vector<Vec3> pos, nrm;
        std::vector<char> mirrored;
        pose(rig, rig.start(), pos, nrm, &mirrored);
        mesh.positions = pos;
        if (normals) mesh.normals = nrm;
        if (rest_.anyUv) mesh.uvs = rest_.uv;
        const double duration = rig.end() - rig.start();
        if (rig.animated() && duration >= kShortestClip) {
            const double wanted = std::max(1.0, std::round(duration * double(options_.fps)));
            const double frames = wanted + (options_.loop ? 0 : 1);
            const std::string clip = "animation '" + out.clip + "' at " + numberText(options_.fps) + " fps is " +
                                     numberText(frames) + " frames";
            if (frames * double(pos.size()) > double(kMaxGltfBakedVertices))
                throw Error(file_ + ": " + clip + " of " + std::to_string(pos.size()) + " vertices, beyond the " +
                            std::to_string(kMaxGltfBakedVertices) + " baked vertices strata holds: lower \"fps\"");
            if (frames * poseWork() > kMaxBakeWork)
                throw Error(file_ + ": " + clip + " of " + numberText(poseWork()) +
                            " steps each (nodes, joints, vertices x morph targets and joint weights), beyond the " +
                            numberText(kMaxBakeWork) + " steps of baking strata does: lower \"fps\"");
            const size_t intervals = size_t(wanted);
            FrameSequence& seq = mesh.frames;
            seq.fps = float(double(intervals) / duration);
            seq.loop = options_.loop;
            bool moves = false;
            for (size_t f = 0; f < size_t(frames); ++f) {
                if (f > 0) pose(rig, rig.start() + duration * double(f) / double(intervals), pos, nrm);
                moves = moves || !same(pos, mesh.positions) || (normals && !same(nrm, mesh.normals));
                seq.positions.push_back(pos);
                if (normals) seq.normals.push_back(nrm);
            }
            if (moves) {
                mesh.animation = MeshAnimationKind::Frames;
                out.frames = size_t(frames);
            } else {
                mesh.frames = FrameSequence{};
            }
        }
        // Triangles repeating a vertex are dropped; so are those of negligible
        // area when nothing moves (a moving triangle may open up later).
        double diag2 = 0;
        {
            Vec3 lo = make3(INFINITY), hi = make3(-INFINITY);
            for (const Vec3& p : mesh.positions) lo = vmin(lo, p), hi = vmax(hi, p);
            const Vec3 d = hi - lo;
            diag2 = double(d.x) * d.x + double(d.y) * d.y + double(d.z) * d.z;
        }
        for (size_t t = 0; t < rest_.tris.size(); ++t) {
            const Tri& tr = rest_.tris[t];
            const bool repeated = tr.v[0] == tr.v[1] || tr.v[1] == tr.v[2] || tr.v[0] == tr.v[2];
            const bool flat = !repeated && !mesh.deforms() &&
                              negligibleArea(cross(mesh.positions[tr.v[1]] - mesh.positions[tr.v[0]],
                                                   mesh.positions[tr.v[2]] - mesh.positions[tr.v[0]]),
                                             diag2);
            if (repeated || flat) {
                ++out.loaded.skippedDegenerate;
                continue;
            }
            // A mirroring node turns the front faces clockwise; strata's are counterclockwise.
            mesh.triangles.push_back(mirrored[rest_.triPiece[t]] ? Tri{{tr.v[0], tr.v[2], tr.v[1]}} : tr);
            mesh.triMaterial.push_back(rest_.triMaterial[t]);
        }
    }

    // The work of posing the mesh once: every node, the joints of the skins
    // used, every vertex with its morph targets and joint weights.
    double poseWork() const {
        double work = double(model_->nodes.size()) + double(rest_.skin.size());
        for (const SkinData& sk : skins_) work += sk.used ? double(sk.joints.size()) : 0.0;
        for (const Piece& pc : rest_.pieces) work += double(pc.count) * double(1 + pc.dPos.size() + pc.dNrm.size());
        return work;
    }

    // ---- materials ----

    std::string stem() const { return fs::path(file_).stem().string(); }

    const tinygltf::Image* textureImage(const tinygltf::TextureInfo& ti, const std::string& where) {
        if (ti.index < 0) return nullptr;
        if (size_t(ti.index) >= model_->textures.size())
            fail(where, "texture " + std::to_string(ti.index) + " does not exist");
        const int src = model_->textures[size_t(ti.index)].source;
        if (src < 0) {  // only an extension's image (KTX2, WebP) and no PNG or JPEG fallback
            ignored_.add("textures without a PNG or JPEG source");
            return nullptr;
        }
        if (size_t(src) >= model_->images.size()) fail(where, "image " + std::to_string(src) + " does not exist");
        return &model_->images[size_t(src)];
    }

    // An image of the file as strata loads it: a file beside the glTF, or
    // embedded bytes decoded here.
    GltfTexture textureOf(const tinygltf::Image& img, int index) const {
        GltfTexture t;
        if (!img.image.empty()) {
            t.path = file_ + "#images[" + std::to_string(index) + "]";
            t.embedded = decodeImage(t.path, std::string(img.image.begin(), img.image.end()));
        } else if (!img.uri.empty()) {
            const fs::path p(percentDecoded(img.uri));
            t.path = (p.is_absolute() ? p : fs::path(file_).parent_path() / p).lexically_normal().string();
        } else {
            fail("images[" + std::to_string(index) + "]", "no data (neither a uri nor a buffer view)");
        }
        return t;
    }

    double extensionNumber(const tinygltf::ExtensionMap& ext, const char* name, const char* key,
                           double fallback) const {
        auto it = ext.find(name);
        if (it == ext.end() || !it->second.Has(key) || !it->second.Get(key).IsNumber()) return fallback;
        return it->second.Get(key).GetNumberAsDouble();
    }

    void readMaterials(LoadedGltf& out) {
        for (size_t local = 0; local < usedMaterials_.size(); ++local) {
            const int gi = usedMaterials_[local];
            NamedMaterial nm;
            GltfTexture tex;
            if (gi < 0) {
                nm.name = stem() + "/default";  // glTF's default material, as strata's OBJ default
            } else {
                const tinygltf::Material& gm = model_->materials[size_t(gi)];
                const std::string where = "materials[" + std::to_string(gi) + "]";
                nm.name = stem() + "/" + (gm.name.empty() ? "#" + std::to_string(gi) : gm.name);
                // Materials of one name are one material in a scene: a name
                // the file gives twice is told apart by its index.
                size_t same = 0;
                for (const tinygltf::Material& other : model_->materials) same += other.name == gm.name;
                if (!gm.name.empty() && same > 1) nm.name += "#" + std::to_string(gi);
                nm.material = material(gm, where, tex);
            }
            out.loaded.materials.push_back(nm);
            out.textures.push_back(std::move(tex));
        }
    }

    Material material(const tinygltf::Material& gm, const std::string& where, GltfTexture& tex) {
        const tinygltf::PbrMetallicRoughness& pbr = gm.pbrMetallicRoughness;
        Material m;
        if (pbr.baseColorFactor.size() != 4) fail(where, "baseColorFactor must have 4 values");
        for (double v : pbr.baseColorFactor)
            if (!(v >= 0 && v <= 1)) fail(where, "baseColorFactor values must lie in [0, 1]");
        const Vec3 base{float(pbr.baseColorFactor[0]), float(pbr.baseColorFactor[1]), float(pbr.baseColorFactor[2])};
        double metallic = std::clamp(pbr.metallicFactor, 0.0, 1.0), rough = std::clamp(pbr.roughnessFactor, 0.0, 1.0);
        // A metallic-roughness texture is read as its mean: metallic in blue, roughness in green.
        if (const tinygltf::Image* img = textureImage(pbr.metallicRoughnessTexture, where)) {
            Image im;
            try {
                const GltfTexture t = textureOf(*img, int(img - model_->images.data()));
                im = t.embedded.width ? t.embedded : loadImage(t.path);
            } catch (const Error& e) {
                throw Error(file_ + ": " + where + ": metallicRoughnessTexture: " + e.what());
            }
            double g = 0, b = 0;
            for (const Vec3& p : im.pixels) g += linearToSrgb(p.y), b += linearToSrgb(p.z);
            const double n = double(std::max<size_t>(im.pixels.size(), 1));
            metallic *= b / n;
            rough *= g / n;
        }
        double emission[3] = {0, 0, 0};
        if (gm.emissiveFactor.size() == 3) {
            const double strength =
                extensionNumber(gm.extensions, "KHR_materials_emissive_strength", "emissiveStrength", 1.0);
            for (int c = 0; c < 3; ++c) emission[c] = std::max(0.0, gm.emissiveFactor[size_t(c)] * strength);
        }
        const double transmission =
            extensionNumber(gm.extensions, "KHR_materials_transmission", "transmissionFactor", 0.0);
        if (emission[0] > 0 || emission[1] > 0 || emission[2] > 0) {
            m.type = MaterialType::Emissive;
            m.emission = Vec3{float(emission[0]), float(emission[1]), float(emission[2])};
            if (!isFinite(m.emission))
                fail(where, "the emission (emissiveFactor x emissiveStrength) is beyond a float");
            if (gm.emissiveTexture.index >= 0) ignored_.add("emissive textures (the emissive factor is used)");
            return m;
        }
        const double ior = extensionNumber(gm.extensions, "KHR_materials_ior", "ior", 1.5);
        if (!(ior == 0 || (ior >= 1 && ior <= 10)))
            fail(where, "KHR_materials_ior: ior " + numberText(ior) + " is neither 0 (a mirror) nor in [1, 10]");
        if (transmission > 0.5 && ior >= 1) {
            m.type = MaterialType::Dielectric;
            m.ior = float(ior);
        } else if (metallic >= 0.5 || ior == 0) {  // ior 0: KHR_materials_ior's fully reflective surface
            m.type = MaterialType::Conductor;
            m.roughness = float(rough);
        }
        m.albedo = base;
        if (const tinygltf::Image* img = textureImage(pbr.baseColorTexture, where)) {
            if (pbr.baseColorTexture.texCoord != 0) {
                ignored_.add("base colour textures on TEXCOORD_1 and above");
            } else {
                try {
                    tex = textureOf(*img, int(img - model_->images.data()));
                } catch (const Error& e) {
                    throw Error(file_ + ": " + where + ": baseColorTexture: " + e.what());
                }
                if (pbr.baseColorTexture.extensions.count("KHR_texture_transform"))
                    ignored_.add("KHR_texture_transform");
            }
        }
        if (gm.normalTexture.index >= 0) ignored_.add("normal maps");
        if (gm.occlusionTexture.index >= 0) ignored_.add("occlusion maps");
        if (gm.alphaMode != "OPAQUE") ignored_.add("alpha modes MASK and BLEND (rendered opaque)");
        for (const auto& [name, value] : gm.extensions) {
            (void)value;
            bool read = false;
            for (const char* k : kReadExtensions) read = read || name == k;
            if (!read) ignored_.add("material extension " + name);
        }
        return m;
    }

    static double linearToSrgb(double c) { return c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055; }

    std::string file_;
    GltfLoadOptions options_;
    const tinygltf::Model* model_ = nullptr;
    std::vector<SkinData> skins_;  // per skin of the file; read where `used`
    Rest rest_;
    GltfBudget budget_;
    std::vector<int> usedMaterials_;  // local index -> glTF material (-1: the default)
    std::map<int, int32_t> localOf_;
    Ignored ignored_;
};

}  // namespace

LoadedGltf loadGltf(const std::string& path, const GltfLoadOptions& options) {
    if (!(options.fps > 0) || options.fps > 10000)
        throw Error(path + ": fps must lie in (0, 10000], got " + numberText(options.fps));
    return Loader(path, options).load();
}

}  // namespace strata
