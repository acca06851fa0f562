#include "render/flat_scene.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.h"
#include "scene/keyframes.h"
#include "scene/pose.h"

namespace strata {

EnvTables makeEnvTables(const Scene& scene) {
    EnvTables e;
    const EnvironmentLight& L = scene.environment;
    e.rotation = L.rotationDegrees * kPi / 180.0f;
    e.scale = L.color;
    if (L.image >= 0) {
        const Image& img = scene.images.at(L.image);
        e.width = img.width;
        e.height = img.height;
        e.pixels = img.pixels;
    } else {
        // A uniform sky: a small constant map, so one sampling path serves both.
        e.width = 64;
        e.height = 32;
        e.pixels.assign(size_t(e.width) * e.height, make3(1.0f));
    }
    const int w = e.width, h = e.height;
    e.conditionalCdf.resize(size_t(w) * h);
    e.marginalCdf.resize(h);
    std::vector<double> rowSum(h, 0.0);
    for (int y = 0; y < h; ++y) {
        double sinT = std::sin(kPi * (y + 0.5) / h), acc = 0;
        for (int x = 0; x < w; ++x) {
            acc += (luminance(e.pixels[size_t(y) * w + x]) + 1e-6) * sinT;
            e.conditionalCdf[size_t(y) * w + x] = float(acc);
        }
        rowSum[y] = acc;
        for (int x = 0; x < w; ++x) {
            float& c = e.conditionalCdf[size_t(y) * w + x];
            c = acc > 0 ? float(c / acc) : float(x + 1) / w;
        }
        e.conditionalCdf[size_t(y) * w + w - 1] = 1.0f;
    }
    double total = 0;
    for (int y = 0; y < h; ++y) total += rowSum[y];
    double acc = 0;
    for (int y = 0; y < h; ++y) {
        acc += rowSum[y];
        e.marginalCdf[y] = total > 0 ? float(acc / total) : float(y + 1) / h;
    }
    e.marginalCdf[h - 1] = 1.0f;
    return e;
}

FlatScene flattenScene(const Scene& scene) {
    FlatScene f;
    uint64_t nv = 0, nt = 0;
    bool anyUv = false;
    for (const Instance& inst : scene.instances) {
        const Mesh& m = scene.meshes.at(inst.mesh);
        nv += m.positions.size();
        nt += m.triangles.size();
        anyUv = anyUv || !m.uvs.empty();
        f.hasNormals = f.hasNormals || !m.normals.empty();
    }
    if (nv >= std::numeric_limits<uint32_t>::max() || nt >= uint64_t(std::numeric_limits<int32_t>::max()))
        throw Error(scene.path + ": the flattened scene has " + std::to_string(nt) + " triangles and " +
                    std::to_string(nv) + " vertices; at most 2^31-1 triangles and 2^32-1 vertices are supported");
    f.numVertices = uint32_t(nv);
    f.tris.reserve(nt);
    f.triMaterial.reserve(nt);
    if (anyUv) f.uv.reserve(nv);
    uint32_t vOff = 0;
    for (const Instance& inst : scene.instances) {
        const Mesh& m = scene.meshes.at(inst.mesh);
        f.instanceVertexOffset.push_back(vOff);
        f.instanceTriOffset.push_back(uint32_t(f.tris.size()));
        for (size_t i = 0; i < m.triangles.size(); ++i) {
            const Tri& t = m.triangles[i];
            f.tris.push_back(Tri{{t.v[0] + vOff, t.v[1] + vOff, t.v[2] + vOff}});
            f.triMaterial.push_back(m.triMaterial.empty() ? 0 : m.triMaterial[i]);
        }
        if (anyUv) {
            if (m.uvs.empty())
                f.uv.insert(f.uv.end(), m.positions.size(), Vec2{});
            else
                f.uv.insert(f.uv.end(), m.uvs.begin(), m.uvs.end());
        }
        vOff += uint32_t(m.positions.size());
    }
    f.materials = scene.materials;
    if (f.materials.empty()) f.materials.push_back(Material{});
    for (int32_t& mi : f.triMaterial)
        if (mi < 0 || size_t(mi) >= f.materials.size()) mi = 0;
    for (const Image& img : scene.images) f.textures.push_back(TextureView{img.pixels.data(), img.width, img.height});

    // VD patches left as quads (vd.mode direct): every instance of a VD mesh.
    std::vector<std::vector<VdPatch>> meshVd(scene.meshes.size());
    std::vector<uint32_t> meshOrigin(scene.meshes.size(), 0);
    for (size_t i = 0; i < scene.instances.size(); ++i) {
        const size_t mi = size_t(scene.instances[i].mesh);
        const Mesh& m = scene.meshes.at(mi);
        if (m.vd.map < 0 || m.quads.empty()) continue;
        if (meshVd[mi].empty()) {  // the mesh's first instance
            meshVd[mi] = meshPatches(scene, m);
            meshOrigin[mi] = uint32_t(f.patches.size());
        }
        for (size_t k = 0; k < meshVd[mi].size(); ++k) {
            f.patches.push_back(meshVd[mi][k]);
            f.patchInstance.push_back(uint32_t(i));
            f.patchOrigin.push_back(meshOrigin[mi] + uint32_t(k));
        }
    }
    if (f.patches.size() > kVdMaxPatches)
        throw Error(scene.path + ": " + std::to_string(f.patches.size()) + " VD patches over all instances; vd.mode " +
                    "direct supports at most " + std::to_string(kVdMaxPatches) + " (use vd.mode pretess)");
    for (const VdPatch& p : f.patches)
        f.vdEmits = f.vdEmits || (size_t(p.material) < f.materials.size() &&
                                  f.materials[size_t(p.material)].type == MaterialType::Emissive);
    if (!f.patches.empty()) {
        for (const VdMap& m : scene.vdMaps) f.vdMaps.push_back(TextureView{m.texels.data(), m.width, m.height});
        f.vdLinks.resize(vdNodeCount(kVdMaxLevel));
        for (uint32_t n = 0; n < f.vdLinks.size(); ++n) f.vdLinks[n] = vdMakeLink(n);
    }

    // Emissive triangles, picked in proportion to power at the rest pose.
    std::vector<Vec3> pos, nrm;
    poseFlatScene(scene, f, scene.options.animation.startTime, pos, nrm);
    f.lightOfTri.assign(f.tris.size(), -1);
    double total = 0;
    std::vector<double> power;
    for (uint32_t i = 0; i < f.tris.size(); ++i) {
        const Material& mat = f.materials[f.triMaterial[i]];
        if (mat.type != MaterialType::Emissive || luminance(mat.emission) <= 0) continue;
        const Tri& t = f.tris[i];
        double area = 0.5 * length(cross(pos[t.v[1]] - pos[t.v[0]], pos[t.v[2]] - pos[t.v[0]]));
        if (!(area > 0)) continue;
        f.lightOfTri[i] = int32_t(f.lightTris.size());
        f.lightTris.push_back(i);
        power.push_back(area * luminance(mat.emission));
        total += power.back();
    }
    double acc = 0;
    for (double p : power) {
        acc += p;
        f.lightCdf.push_back(float(acc / total));
        f.lightPickPdf.push_back(float(p / total));
    }
    if (!f.lightCdf.empty()) f.lightCdf.back() = 1.0f;
    f.env = makeEnvTables(scene);
    return f;
}

void poseFlatScene(const Scene& scene, const FlatScene& flat, float t, std::vector<Vec3>& pos, std::vector<Vec3>& nrm) {
    pos.resize(flat.numVertices);
    nrm.resize(flat.hasNormals ? flat.numVertices : 0);
    std::vector<Vec3> meshPos, meshNrm;
    for (size_t i = 0; i < scene.instances.size(); ++i) {
        const Instance& inst = scene.instances[i];
        const Mesh& m = scene.meshes.at(inst.mesh);
        Affine x = instanceTransformAt(inst, t);
        poseMesh(m, t, meshPos, meshNrm);
        uint32_t off = flat.instanceVertexOffset[i];
        for (size_t v = 0; v < meshPos.size(); ++v) pos[off + v] = x.point(meshPos[v]);
        if (flat.hasNormals) {
            Affine nx = inverse(x);  // normals use the inverse transpose
            for (size_t v = 0; v < meshPos.size(); ++v) {
                Vec3 n = v < meshNrm.size() ? meshNrm[v] : Vec3{};
                nrm[off + v] = normalize(Vec3{nx.m[0][0] * n.x + nx.m[1][0] * n.y + nx.m[2][0] * n.z,
                                              nx.m[0][1] * n.x + nx.m[1][1] * n.y + nx.m[2][1] * n.z,
                                              nx.m[0][2] * n.x + nx.m[1][2] * n.y + nx.m[2][2] * n.z});
            }
        }
    }
}

void poseVdPatches(const Scene& scene, const FlatScene& flat, float t, VdFrameData& out, bool worldBoxes) {
    out.objectFromWorld.resize(scene.instances.size());
    out.worldFromObject.resize(scene.instances.size());
    std::vector<char> used(scene.instances.size(), 0);
    for (uint32_t i : flat.patchInstance) used[i] = 1;
    for (size_t i = 0; i < scene.instances.size(); ++i) {
        if (!used[i]) continue;
        out.worldFromObject[i] = instanceTransformAt(scene.instances[i], t);
        out.objectFromWorld[i] = inverse(out.worldFromObject[i]);
    }
    out.worldBoxes.resize(worldBoxes ? flat.patches.size() : 0);
    for (size_t k = 0; k < out.worldBoxes.size(); ++k)
        out.worldBoxes[k] = transformBox(out.worldFromObject[flat.patchInstance[k]], flat.patches[k].box);
}

MeshPatches meshPatchRanges(const Scene& scene, const FlatScene& flat) {
    MeshPatches r;
    r.instanceBase.assign(scene.instances.size(), 0);
    r.meshFirst.assign(scene.meshes.size(), 0);
    r.meshCount.assign(scene.meshes.size(), 0);
    for (uint32_t k = uint32_t(flat.patchInstance.size()); k-- > 0;) r.instanceBase[flat.patchInstance[k]] = k;
    for (uint32_t k = 0; k < flat.patchInstance.size(); ++k) {
        const uint32_t i = flat.patchInstance[k];
        const size_t m = size_t(scene.instances[i].mesh);
        if (k == r.instanceBase[i] && r.meshCount[m] == 0) r.meshFirst[m] = k;  // the mesh's first instance
        if (r.instanceBase[i] == r.meshFirst[m]) r.meshCount[m]++;
    }
    return r;
}

void triangleBounds(const std::vector<Vec3>& pos, const std::vector<Tri>& tris, std::vector<Aabb>& out) {
    out.resize(tris.size());
    for (size_t i = 0; i < tris.size(); ++i) {
        Aabb b;
        for (int k = 0; k < 3; ++k) b.grow(pos[tris[i].v[k]]);
        out[i] = b;
    }
}

CameraView makeCameraView(const Scene& scene, float t, int width, int height) {
    return makeCameraView(cameraAt(scene.camera, t), width, height);
}

CameraView makeCameraView(const CameraPose& c, int width, int height) {
    CameraView v;
    v.position = c.position;
    v.forward = normalize(c.target - c.position);
    Vec3 right = normalize(cross(v.forward, c.up));
    if (!isFinite(right) || length(right) < 0.5f) right = {1, 0, 0};
    Vec3 up = cross(right, v.forward);
    float tanHalf = std::tan(0.5f * c.fovYDegrees * kPi / 180.0f);
    float aspect = float(width) / float(height);
    v.right = right * (tanHalf * aspect);
    v.up = up * tanHalf;
    return v;
}

SceneView makeSceneView(const Scene& scene, const FlatScene& flat, const FlatScenePointers& p, const BvhView& bvh,
                        const CameraView& cam) {
    SceneView s;
    s.geo = GeometryView{p.pos, p.nrm, p.uv, p.tris, p.triMaterial, uint32_t(flat.tris.size())};
    s.materials = p.materials;
    s.textures = p.textures;
    s.env.pixels = p.envPixels;
    s.env.width = flat.env.width;
    s.env.height = flat.env.height;
    s.env.scale = flat.env.scale;
    s.env.rotation = flat.env.rotation;
    s.env.marginalCdf = p.envMarginal;
    s.env.conditionalCdf = p.envConditional;
    s.sun.enabled = scene.sun.enabled;
    s.sun.direction = normalize(scene.sun.direction);
    s.sun.radiance = scene.sun.radiance;
    s.emissive = EmissiveView{p.lightTris, p.lightCdf, p.lightPickPdf, p.lightOfTri, uint32_t(flat.lightTris.size())};
    s.bvh = bvh;
    s.camera = cam;
    return s;
}

SceneView hostSceneView(const Scene& scene, const FlatScene& flat, const std::vector<Vec3>& pos,
                        const std::vector<Vec3>& nrm, const BvhView& bvh, const CameraView& cam) {
    auto orNull = [](const auto& v) { return v.empty() ? nullptr : v.data(); };
    FlatScenePointers p{pos.data(),
                        orNull(nrm),
                        orNull(flat.uv),
                        flat.tris.data(),
                        flat.triMaterial.data(),
                        flat.materials.data(),
                        flat.textures.data(),
                        flat.env.pixels.data(),
                        flat.env.marginalCdf.data(),
                        flat.env.conditionalCdf.data(),
                        flat.lightTris.data(),
                        flat.lightCdf.data(),
                        flat.lightPickPdf.data(),
                        flat.lightOfTri.data()};
    return makeSceneView(scene, flat, p, bvh, cam);
}

}  // namespace strata
