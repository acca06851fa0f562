// render/vd_memory.h — what a scene's VD patches cost the CUDA backend in
// GPU memory, traced directly against pre-tessellated, from counts alone
// (nothing is tessellated or uploaded): the side-by-side report of the panel
// and `bench`, at any vd.max_level, including levels whose triangles would
// not fit. It counts what the two modes do not share (the rest of the scene
// is the same in both):
//   direct:  the patch records, the displacement maps and the link table
//           (geometry); the cull boxes, the tree over the patch boxes (flat
//           mode) or the patch BLASes under their top level (instanced), the
//           per-patch level and range arrays, and the bottom level's
//           per-block work buffers above level 5 or with vd.shared_trees
//           off (structure);
//   pretess: the 2 * 4^level triangles and (2^level + 1)^2 vertices of each
//           patch in the scene's vertex and triangle arrays (geometry) and
//           their share of the triangle structure: the flat LBVH over every
//           instance's copy (flat mode) or the meshes' BLASes, shared by
//           their instances (instanced), and with accel.copy_leaf_tris
//           their copy in leaf order (per BLAS in instanced mode), and
//           that of the scene's other triangles where direct mode's unified
//           middle level has none. A kd-tree is counted as an LBVH.
// The transient ray-pair buffers of direct mode (sized by the image, not the
// scene) are not in it; the renderer reports them apart.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/options.h"
#include "scene/scene.h"

namespace strata {

// What compareVdMemory needs of a scene, taken before its quads become
// triangles (the renderer keeps a tessellated copy in pretess mode).
struct VdSceneCounts {
    struct PatchMesh {
        uint64_t quads = 0;      // its VD patches
        uint32_t instances = 0;  // how many instances draw it
        int maxLevel = 0;        // its own cap on the level
        bool deforms = false;    // instanced mode builds a BLAS per instance
    };
    std::vector<PatchMesh> meshes;  // the VD meshes
    uint64_t mapTexels = 0;
    uint32_t maps = 0;
    uint32_t instances = 0;  // all of the scene's
    uint64_t flatTriangles = 0;  // flat mode's triangles over the instances (other meshes' quads split; not VD patches)
    bool normals = false;    // the scene's vertices carry normals (per vertex, every mesh)
    bool uvs = false;        // and texture coordinates
};
VdSceneCounts countVdScene(const Scene& scene);

struct VdModeBytes {
    uint64_t geometry = 0, accel = 0;
    uint64_t total() const { return geometry + accel; }
};
struct VdMemoryComparison {
    int level = 0;                  // vd.max_level
    uint64_t patches = 0;           // as traced: each VD quad of each instance
    uint64_t pretessTriangles = 0;  // stored: per instance in flat mode, per mesh in instanced mode
    VdModeBytes direct, pretess;
};
// accel.mode, accel.builder and accel.morton_bits choose the structures;
// vd.max_level and vd.pair_cull the rest. bottomBlocks: the bottom kernel's
// persistent blocks (each owns a work buffer above level 5 or with
// vd.shared_trees off).
VdMemoryComparison compareVdMemory(const VdSceneCounts& counts, const Options& options, uint32_t bottomBlocks);

// "direct 10.4 MiB, pre-tessellated 1,424 MiB (8.79 M triangles at level 5): 136x less"
std::string describeVdMemory(const VdMemoryComparison& c);

// The whole device, like for like (the panel and bench; `vdtable` measures
// both modes instead): what the GPU holds now (inUse: cudaMemGetInfo, so
// the ray queues, the film and the loaded kernels too) in the mode that
// runs, and the other mode's estimated by swapping the VD share: the count
// above and direct mode's ray-pair buffers (pairBytes: as allocated when
// direct mode runs, else their starting size for the image).
struct VdDeviceComparison {
    uint64_t direct = 0, pretess = 0;
    bool measured() const { return direct > 0 && pretess > 0; }
};
VdDeviceComparison compareVdDeviceMemory(const VdMemoryComparison& c, VdMode running, uint64_t inUse,
                                         uint64_t pairBytes);
// "whole device: direct 478 MiB, pre-tessellated 1,826 MiB: 3.82x less"
std::string describeVdDeviceMemory(const VdDeviceComparison& d);

}  // namespace strata
