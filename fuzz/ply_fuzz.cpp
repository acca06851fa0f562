// fuzz/ply_fuzz.cpp — libFuzzer target: strata::loadPly (ASCII and binary
// PLY). The loader must return a mesh that keeps its documented contract
// (scene/ply_loader.h) or throw strata::Error.
#include <cmath>
#include <cstdlib>
#include <string>

#include "core/error.h"
#include "fuzz_common.h"
#include "scene/ply_loader.h"

namespace {

[[noreturn]] void broken(const std::string& what) {
    std::fprintf(stderr, "loadPly broke its contract: %s\n", what.c_str());
    std::abort();
}

void checkMesh(const strata::LoadedMesh& lm) {
    const strata::Mesh& m = lm.mesh;
    if (m.triangles.empty() && m.quads.empty()) broken("no faces");
    if (m.triMaterial.size() != m.triangles.size() || m.quadMaterial.size() != m.quads.size()) broken("materials size");
    if (lm.materials.size() != 1) broken("one default material");
    if (const char* problem = strata::fuzz::meshAttributesProblem(m)) broken(problem);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    strata::fuzz::quietWarnings();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto& dir = strata::fuzz::fuzzDir();
    const std::string path = dir.write("in.ply", std::string(reinterpret_cast<const char*>(data), size));
    strata::PlyLoadOptions options;
    options.keepQuads = (size & 1) == 0;  // both ways the scene loader calls it (a "vd" mesh keeps quads)
    try {
        const strata::LoadedMesh lm = strata::loadPly(path, options);
        checkMesh(lm);
        strata::fuzz::accepted(std::to_string(lm.mesh.triangles.size()) + " triangles, " +
                               std::to_string(lm.mesh.quads.size()) + " quads");
    } catch (const strata::Error& e) {
        strata::fuzz::refused(e);
    }
    return 0;
}
