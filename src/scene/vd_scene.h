// scene/vd_scene.h — a mesh's quads as the renderer sees them: VD patches
// (object-space patch records) and, for vd.mode pretess / off, triangles.
#pragma once

#include <memory>
#include <vector>

#include "core/vd_patch.h"
#include "scene/scene.h"

namespace strata {

// The VD patches of mesh m (its quads, if it has a displacement map).
std::vector<VdPatch> meshPatches(const Scene& scene, const Mesh& m);

// The subdivision level pre-tessellation uses for mesh m under `options`.
int pretessLevel(const Mesh& m, const VdOptions& options);

// The scene with every quad turned into triangles, by scene.options.vd.mode:
// pretess: a VD patch becomes the 2 * 4^level triangles of its displaced
// grid (level = pretessLevel); off: plain quads (and VD patches undisplaced)
// become two triangles; direct: VD patches stay quads (traced directly), plain
// quads become two triangles. Returns nullptr when no quad needs converting
// (use the scene as it is). Throws strata::Error, before allocating, when the result would
// exceed 32-bit indices or the machine's memory.
std::unique_ptr<Scene> trianglesFromQuads(const Scene& scene);

// `scene` itself, or the quads-as-triangles copy made into `holder`.
const Scene& withQuadsAsTriangles(const Scene& scene, std::unique_ptr<Scene>& holder);

}  // namespace strata
