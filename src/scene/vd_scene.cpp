#include "scene/vd_scene.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "core/error.h"

namespace strata {

int pretessLevel(const Mesh& m, const VdOptions& options) { return imin(options.maxLevel, m.vd.maxLevel); }

namespace {

// The displacement box of the texels a bilinear lookup can reach over the uv
// rectangle [lo, hi]: a patch's displaced surface lies in its quad's box plus
// this box (object space), or within its largest length of the quad (tangent
// space, where the frame turns the vectors).
struct TexelBounds {
    Vec3 lo, hi;
    float maxLength;
};
TexelBounds texelBounds(const VdMap& map, Vec2 lo, Vec2 hi) {
    const int w = map.width, h = map.height;
    // Texel centres sit at half integers: x = u * w - 0.5 (u wraps), y = (1 - v) * h - 0.5 (v clamps).
    long long x0 = (long long)std::floor(lo.x * w - 0.5f), x1 = (long long)std::floor(hi.x * w - 0.5f) + 1;
    long long y0 = (long long)std::floor((1.0f - hi.y) * h - 0.5f),
              y1 = (long long)std::floor((1.0f - lo.y) * h - 0.5f) + 1;
    if (x1 - x0 + 1 >= w) {
        x0 = 0;
        x1 = w - 1;
    }
    y0 = std::max(0ll, y0);
    y1 = std::min((long long)h - 1, y1);
    TexelBounds b{make3(INFINITY), make3(-INFINITY), 0.0f};
    for (long long y = y0; y <= y1; ++y)
        for (long long x = x0; x <= x1; ++x) {
            long long xi = ((x % w) + w) % w;
            const Vec3& d = map.texels[size_t(y) * size_t(w) + size_t(xi)];
            b.lo = vmin(b.lo, d);
            b.hi = vmax(b.hi, d);
            b.maxLength = std::fmax(b.maxLength, length(d));
        }
    if (y0 > y1)
        b = TexelBounds{make3(-map.maxLength), make3(map.maxLength), map.maxLength};  // cannot happen; stay safe
    return b;
}

}  // namespace

std::vector<VdPatch> meshPatches(const Scene& scene, const Mesh& m) {
    std::vector<VdPatch> out;
    if (m.vd.map < 0) return out;
    const VdMap& map = scene.vdMaps.at(size_t(m.vd.map));
    out.reserve(m.quads.size());
    for (size_t i = 0; i < m.quads.size(); ++i) {
        VdPatch p{};
        Aabb box;
        Vec2 uvLo{INFINITY, INFINITY}, uvHi{-INFINITY, -INFINITY};
        for (int k = 0; k < 4; ++k) {
            p.p[k] = m.positions[m.quads[i].v[k]];
            p.uv[k] =
                m.uvs.empty() ? make2(k == 1 || k == 2 ? 1.0f : 0.0f, k >= 2 ? 1.0f : 0.0f) : m.uvs[m.quads[i].v[k]];
            box.grow(p.p[k]);
            uvLo = {std::fmin(uvLo.x, p.uv[k].x), std::fmin(uvLo.y, p.uv[k].y)};
            uvHi = {std::fmax(uvHi.x, p.uv[k].x), std::fmax(uvHi.y, p.uv[k].y)};
        }
        // Bounds from the texels this patch reaches (a tighter, still
        // conservative, version of Harada's quad box grown by the map's
        // largest displacement), with a hair of padding for rounding.
        const TexelBounds t = texelBounds(map, uvLo, uvHi);
        Vec3 dlo, dhi;
        if (m.vd.space == VdSpace::Object) {
            dlo = vmin(t.lo * m.vd.scale, t.hi * m.vd.scale);
            dhi = vmax(t.lo * m.vd.scale, t.hi * m.vd.scale);
        } else {
            dlo = make3(-std::fabs(m.vd.scale) * t.maxLength);
            dhi = -dlo;
        }
        const float pad = 1e-4f * (maxComponent(dhi - dlo) + maxComponent(box.extent())) + 1e-6f;
        p.box = Aabb{box.lo + dlo - make3(pad), box.hi + dhi + make3(pad)};
        p.map = m.vd.map;
        p.space = int32_t(m.vd.space);
        p.scale = m.vd.scale;
        p.maxLevel = m.vd.maxLevel;
        p.material = m.quadMaterial.empty() ? 0 : m.quadMaterial[i];
        out.push_back(p);
    }
    return out;
}

namespace {

uint64_t trianglesOf(const Mesh& m, const VdOptions& o) {
    if (m.vd.map >= 0 && o.mode == VdMode::Direct) return m.triangles.size();  // the patches stay patches
    if (m.vd.map < 0 || o.mode == VdMode::Off) return m.triangles.size() + 2 * uint64_t(m.quads.size());
    return m.triangles.size() + m.quads.size() * (2ull << (2 * pretessLevel(m, o)));
}

// A displaced (2^L + 1)^2 grid per patch, two triangles per cell.
void tessellate(const Scene& scene, Mesh& m, int level) {
    const std::vector<VdPatch> patches = meshPatches(scene, m);
    const VdMap& map = scene.vdMaps.at(size_t(m.vd.map));
    const TextureView view{map.texels.data(), map.width, map.height};
    const uint32_t n = 1u << level, side = n + 1;
    const bool normals = !m.normals.empty(), uvs = !m.uvs.empty();
    std::vector<Vec3> grid(size_t(side) * side);
    for (size_t q = 0; q < patches.size(); ++q) {
        const VdPatch& p = patches[q];
        const uint32_t base = uint32_t(m.positions.size());
        for (uint32_t j = 0; j <= n; ++j)
            for (uint32_t i = 0; i <= n; ++i) grid[j * side + i] = vdPosition(p, view, float(i) / n, float(j) / n);
        for (uint32_t j = 0; j <= n; ++j)
            for (uint32_t i = 0; i <= n; ++i) {
                m.positions.push_back(grid[j * side + i]);
                if (uvs) m.uvs.push_back(vdUv(p, float(i) / n, float(j) / n));
                if (normals) {  // central differences over the grid (one-sided at the border)
                    Vec3 ds = grid[j * side + (i < n ? i + 1 : i)] - grid[j * side + (i > 0 ? i - 1 : i)];
                    Vec3 dt = grid[(j < n ? j + 1 : j) * side + i] - grid[(j > 0 ? j - 1 : j) * side + i];
                    Vec3 nn = cross(ds, dt);
                    m.normals.push_back(dot(nn, nn) > 0 ? normalize(nn) : make3(0, 1, 0));
                }
            }
        for (uint32_t j = 0; j < n; ++j)
            for (uint32_t i = 0; i < n; ++i) {
                uint32_t v00 = base + j * side + i, v10 = v00 + 1, v01 = v00 + side, v11 = v01 + 1;
                m.triangles.push_back(Tri{{v00, v10, v11}});
                m.triangles.push_back(Tri{{v00, v11, v01}});
                m.triMaterial.push_back(p.material);
                m.triMaterial.push_back(p.material);
            }
    }
}

void splitQuads(Mesh& m) {
    for (size_t q = 0; q < m.quads.size(); ++q) {
        const Quad& c = m.quads[q];
        m.triangles.push_back(Tri{{c.v[0], c.v[1], c.v[2]}});
        m.triangles.push_back(Tri{{c.v[0], c.v[2], c.v[3]}});
        int32_t mat = m.quadMaterial.empty() ? 0 : m.quadMaterial[q];
        m.triMaterial.push_back(mat);
        m.triMaterial.push_back(mat);
    }
}

}  // namespace

std::unique_ptr<Scene> trianglesFromQuads(const Scene& scene) {
    const VdOptions& o = scene.options.vd;
    const bool direct = o.mode == VdMode::Direct;
    bool any = false;  // quads that become triangles
    for (const Mesh& m : scene.meshes) any = any || (!m.quads.empty() && !(direct && m.vd.map >= 0));
    if (!any) return nullptr;
    uint64_t flat = 0, perMesh = 0;
    for (const Instance& inst : scene.instances) flat += trianglesOf(scene.meshes.at(size_t(inst.mesh)), o);
    for (const Mesh& m : scene.meshes) perMesh += trianglesOf(m, o);
    const uint64_t bytes = perMesh * (sizeof(Tri) + sizeof(int32_t) + sizeof(Vec3) * 2);
    const uint64_t hostBytes = uint64_t(sysconf(_SC_PHYS_PAGES)) * uint64_t(sysconf(_SC_PAGESIZE));
    if (flat >= uint64_t(std::numeric_limits<int32_t>::max()) || bytes > hostBytes / 2) {
        throw Error(scene.path + ": vd.mode " + name(o.mode) + " at vd.max_level " + std::to_string(o.maxLevel) +
                    " makes " + std::to_string(flat) + " triangles (" + std::to_string(bytes >> 20) +
                    " MiB of meshes); that exceeds " +
                    (bytes > hostBytes / 2 ? "half of this machine's memory" : "32-bit triangle indices") +
                    ". Lower vd.max_level");
    }
    auto out = std::make_unique<Scene>(scene);
    for (Mesh& m : out->meshes) {
        if (m.quads.empty() || (direct && m.vd.map >= 0)) continue;
        if (m.vd.map >= 0 && o.mode == VdMode::Pretess)
            tessellate(*out, m, pretessLevel(m, o));
        else
            splitQuads(m);
        m.quads.clear();
        m.quadMaterial.clear();
    }
    return out;
}

const Scene& withQuadsAsTriangles(const Scene& scene, std::unique_ptr<Scene>& holder) {
    holder = trianglesFromQuads(scene);
    return holder ? *holder : scene;
}

}  // namespace strata
