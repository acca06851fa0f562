#include "render/vd_memory.h"

#include <algorithm>
#include <cstdio>

#include "accel/lbvh/lbvh_memory.h"
#include "accel/leaf_tris.h"
#include "accel/toplevel/two_level.h"
#include "accel/vd/vd_bvh.h"
#include "core/number_format.h"
#include "core/vd_patch.h"
#include "core/texture.h"
#include "core/transform.h"

namespace strata {

VdSceneCounts countVdScene(const Scene& scene) {
    VdSceneCounts c;
    c.instances = uint32_t(scene.instances.size());
    c.maps = uint32_t(scene.vdMaps.size());
    for (const VdMap& m : scene.vdMaps) c.mapTexels += uint64_t(m.width) * uint64_t(m.height);
    std::vector<uint32_t> uses(scene.meshes.size(), 0);
    for (const Instance& inst : scene.instances)
        if (inst.mesh >= 0 && size_t(inst.mesh) < uses.size()) ++uses[size_t(inst.mesh)];
    for (size_t i = 0; i < scene.meshes.size(); ++i) {
        const Mesh& m = scene.meshes[i];
        c.normals = c.normals || !m.normals.empty();
        c.uvs = c.uvs || !m.uvs.empty();
        const bool vd = m.vd.map >= 0 && !m.quads.empty();
        // Its triangles (a VD mesh's own too) and, for any other mesh, its
        // quads' two each (the renderer splits them; VD quads are patches).
        c.flatTriangles += (uint64_t(m.triangles.size()) + (vd ? 0 : 2 * uint64_t(m.quads.size()))) * uses[i];
        if (!vd || uses[i] == 0) continue;
        c.meshes.push_back({m.quads.size(), uses[i], m.vd.maxLevel, m.deforms()});
    }
    return c;
}

namespace {

// Bytes per element of the CUDA backend's arrays (render/gpu_scene.cu,
// render/vd_gpu.cu, render/instanced_gpu.cu).
constexpr uint64_t kAabb = sizeof(Aabb), kVec3 = sizeof(Vec3);
uint64_t flatVertexBytes(const VdSceneCounts& c) {  // posed position, normal, uv
    return kVec3 + (c.normals ? kVec3 : 0) + (c.uvs ? sizeof(Vec2) : 0);
}
uint64_t meshVertexBytes(const VdSceneCounts& c) {  // rest position and normal, skin bone and weight
    return kVec3 + (c.normals ? kVec3 : 0) + 8;
}
constexpr uint64_t kFlatTriangleBytes = sizeof(Tri) + 4 + 4 + kAabb;  // indices, material, light, bounds

}  // namespace

VdMemoryComparison compareVdMemory(const VdSceneCounts& c, const Options& o, uint32_t bottomBlocks) {
    VdMemoryComparison r;
    r.level = o.vd.maxLevel;
    const bool instanced = runsInstanced(o.accel);
    const bool wide = o.accel.mortonBits > 32;
    const LbvhVariant variant = lbvhVariantOf(o.accel);
    const MortonSort sort = o.accel.mortonSort;
    const uint64_t shift = o.vd.pairCull ? kVdQuadrantShift : 0;  // middle-level boxes per patch: 4 quadrants, or 1

    uint64_t members = 0, largestBlas = 0;
    for (const VdSceneCounts::PatchMesh& m : c.meshes) {
        r.patches += m.quads * m.instances;
        members += m.instances;
        // Pre-tessellation: a displaced (2^L + 1)^2 grid of 2 * 4^L triangles per patch.
        const int level = std::min(o.vd.maxLevel, m.maxLevel);
        const uint64_t side = (1ull << level) + 1, tris = m.quads * (2ull << (2 * level)),
                       verts = m.quads * side * side;
        r.pretess.geometry +=
            verts * meshVertexBytes(c) + m.instances * (verts * flatVertexBytes(c) + tris * kFlatTriangleBytes);
        if (!instanced) {
            r.pretessTriangles += tris * m.instances;
            continue;
        }
        r.pretessTriangles += tris;
        // Pre-tessellation: a static mesh's BLAS and its object-space triangles, once; a deforming one's BLAS
        // per instance. Direct: a BLAS per VD mesh over its patches' boxes, and their object boxes.
        // accel.copy_leaf_tris: each BLAS's triangles in its leaf order.
        const uint64_t blasBytes =
            lbvhBytes(tris, variant, wide, sort) + (copiesLeafTris(o.accel, false) ? tris * sizeof(LeafTri) : 0);
        if (m.deforms)
            r.pretess.accel += m.instances * blasBytes;
        else
            r.pretess.accel += blasBytes + tris * sizeof(Tri);
        largestBlas = std::max(largestBlas, tris);
        r.direct.accel += lbvhBytes(m.quads << shift, variant, wide, sort) + m.quads * kAabb;
    }
    // accel.copy_leaf_tris: pre-tessellation copies every triangle; direct
    // mode the scene's others only with its middle level separate (in
    // instanced mode counted as flat: per instance, an upper bound).
    const bool directUnified = o.vd.middle == VdMiddle::Unified && o.accel.builder != Builder::KdTree;
    const uint64_t otherCopies = copiesLeafTris(o.accel, false) && directUnified ? c.flatTriangles * sizeof(LeafTri) : 0;
    if (!instanced) {
        r.pretess.accel += lbvhBytes(r.pretessTriangles, variant, wide, sort) + otherCopies;
        if (copiesLeafTris(o.accel, false)) r.pretess.accel += r.pretessTriangles * sizeof(LeafTri);
    } else {
        r.pretess.accel += largestBlas * kAabb + otherCopies;  // the static BLASes' shared bounds buffer
    }

    // Direct: patch records and their instances, the maps, the link table.
    r.direct.geometry = r.patches * (sizeof(VdPatch) + 4) + c.mapTexels * kVec3 + c.maps * sizeof(TextureView) +
                        uint64_t(vdNodeCount(kVdMaxLevel)) * 4;
    // Per patch: its rays' range, level, frozen level, a job; per instance: both transforms.
    r.direct.accel += r.patches * (8 + 4 + 1 + 16) + 12 + c.instances * 2 * sizeof(Affine);
    if (o.vd.pairCull) r.direct.accel += r.patches * (4 + kVdCullBoxes) * kAabb;  // object-space cull boxes
    if (!instanced) {
        // World boxes (and sixteenths) each frame, and the tree over them.
        r.direct.accel += (r.patches << shift) * kAabb + (o.vd.pairCull ? r.patches * kVdCullBoxes * kAabb : 0) +
                          lbvhBytes(r.patches << shift, variant, wide, sort);
    } else {
        r.direct.accel += members * (kAabb + sizeof(InstanceView)) + c.meshes.size() * sizeof(BlasView) +
                          lbvhBytes(members, variant, wide, sort);  // the top level: accel.builder's, as the BLASes
    }
    const bool grid = o.vd.leaf == VdLeaf::Triangles;
    if (o.vd.maxLevel > kVdSharedLevel || !o.vd.sharedTrees)  // the bottom level's global-memory work buffers
        r.direct.accel += uint64_t(bottomBlocks) * vdTreeBytes(o.vd.maxLevel, grid);
    if (o.vd.treeCache)  // the kept trees, per patch a slot and the level it holds
        r.direct.accel +=
            uint64_t(vdTreeCacheSlots(uint32_t(r.patches), o.vd.maxLevel, grid)) * vdTreeBytes(o.vd.maxLevel, grid) +
            r.patches * (4 + 1) + 4;
    return r;
}

namespace {
std::string mib(uint64_t b) {
    char s[32];
    const double m = double(b) / (1024.0 * 1024.0);
    std::snprintf(s, sizeof s, m < 10 ? "%.2f MiB" : m < 1000 ? "%.1f MiB" : "%.0f MiB", m);
    return std::string(s);
}
}  // namespace

VdDeviceComparison compareVdDeviceMemory(const VdMemoryComparison& c, VdMode running, uint64_t inUse,
                                         uint64_t pairBytes) {
    const uint64_t directShare = c.direct.total() + pairBytes, pretessShare = c.pretess.total();
    VdDeviceComparison d;
    if (running == VdMode::Direct) {
        d.direct = inUse;
        d.pretess = inUse > directShare ? inUse - directShare + pretessShare : pretessShare;
    } else if (running == VdMode::Pretess) {
        d.pretess = inUse;
        d.direct = inUse > pretessShare ? inUse - pretessShare + directShare : directShare;
    }
    return d;
}

std::string describeVdDeviceMemory(const VdDeviceComparison& d) {
    if (!d.measured()) return "whole device: not measured";
    return "whole device: direct " + mib(d.direct) + ", pre-tessellated " + mib(d.pretess) + ": " +
           threeDigits(double(d.pretess) / double(d.direct)) + "x";
}

std::string describeVdMemory(const VdMemoryComparison& c) {
    char line[256];
    const double ratio = c.direct.total() ? double(c.pretess.total()) / double(c.direct.total()) : 0.0;
    std::snprintf(line, sizeof line, "direct %s, pre-tessellated %s (%.2f M triangles at level %d): %sx",
                  mib(c.direct.total()).c_str(), mib(c.pretess.total()).c_str(), double(c.pretessTriangles) / 1e6,
                  c.level, threeDigits(ratio).c_str());
    return line;
}

}  // namespace strata
