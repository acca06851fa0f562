// fuzz/gltf_fuzz.cpp — libFuzzer target: strata::loadGltf (glTF JSON and
// GLB, through Debian's tinygltf and strata's own accessor, hierarchy,
// animation and material code). The loader must return a mesh that keeps its
// documented contract (scene/gltf_loader.h) or throw strata::Error.
#include <cmath>
#include <cstdlib>
#include <string>

#include "core/error.h"
#include "fuzz_common.h"
#include "scene/gltf_loader.h"

namespace {

[[noreturn]] void broken(const std::string& what) {
    std::fprintf(stderr, "loadGltf broke its contract: %s\n", what.c_str());
    std::abort();
}

void checkMesh(const strata::LoadedGltf& g) {
    const strata::Mesh& m = g.loaded.mesh;
    if (m.triangles.empty() && g.loaded.skippedDegenerate == 0) broken("no triangles and none skipped");
    if (m.triMaterial.size() != m.triangles.size()) broken("materials size");
    if (g.textures.size() != g.loaded.materials.size()) broken("one texture entry per material");
    for (int32_t t : m.triMaterial)
        if (t < 0 || size_t(t) >= g.loaded.materials.size()) broken("material index out of range");
    if (const char* problem = strata::fuzz::meshAttributesProblem(m)) broken(problem);
    const strata::FrameSequence& f = m.frames;
    if ((m.animation == strata::MeshAnimationKind::Frames) != (g.frames > 0)) broken("frames without Frames");
    if (f.positions.size() != g.frames) broken("frame count");
    if (f.positions.size() * m.positions.size() > strata::kMaxGltfBakedVertices) broken("bake beyond its limit");
    for (const auto& frame : f.positions) {
        if (frame.size() != m.positions.size()) broken("a frame's vertex count");
        for (const strata::Vec3& p : frame)
            if (!strata::isFinite(p)) broken("a baked position is not finite");
    }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    strata::fuzz::quietWarnings();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto& dir = strata::fuzz::fuzzDir();
    const std::string path = dir.write("in.gltf", std::string(reinterpret_cast<const char*>(data), size));
    strata::GltfLoadOptions options;
    options.fps = (size & 1) ? 30.0f : 7.0f;
    options.loop = (size & 2) == 0;
    options.maxValues = size_t(1) << 22;  // a data-less accessor of the default 2^27 would pass the 2 GiB RSS limit
    try {
        const strata::LoadedGltf g = strata::loadGltf(path, options);
        checkMesh(g);
        strata::fuzz::accepted(std::to_string(g.loaded.mesh.triangles.size()) + " triangles, " +
                               std::to_string(g.frames) + " frames");
    } catch (const strata::Error& e) {
        strata::fuzz::refused(e);
    }
    return 0;
}
