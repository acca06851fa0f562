// fuzz/obj_fuzz.cpp — libFuzzer target: strata::loadObj (the pre-scan and
// tinyobjloader behind it) with its MTL file.
//
// Input: an OBJ file, optionally followed by a line "#---mtl---" and then an
// MTL file, written beside the OBJ as "m.mtl" (so "mtllib m.mtl" in the OBJ
// part reads it). The folder also holds "t.png" for map_Kd and "null.mtl", a
// link to /dev/null (a device as an input). The loader must
// return a mesh that keeps its documented contract or throw strata::Error.
#include <cstdlib>
#include <string>
#include <vector>

#include "core/error.h"
#include "fuzz_common.h"
#include "scene/image_io.h"
#include "scene/obj_loader.h"

namespace {

const std::string kMtlSeparator = "#---mtl---\n";

[[noreturn]] void broken(const std::string& what) {
    std::fprintf(stderr, "loadObj broke its contract: %s\n", what.c_str());
    std::abort();
}

void checkMesh(const strata::LoadedMesh& lm, const std::vector<std::string>& textures) {
    const strata::Mesh& m = lm.mesh;
    if (m.triangles.empty()) broken("no triangles");
    if (m.triMaterial.size() != m.triangles.size()) broken("triMaterial size");
    if (textures.size() != lm.materials.size()) broken("texture paths size");
    if (const char* problem = strata::fuzz::meshAttributesProblem(m)) broken(problem);
    for (int32_t mat : m.triMaterial)
        if (mat < 0 || size_t(mat) >= lm.materials.size()) broken("material index");
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    strata::fuzz::quietWarnings();
    const auto& dir = strata::fuzz::fuzzDir();
    std::vector<uint8_t> rgb(4 * 4 * 3, 200);
    strata::writePngAtomic(dir.file("t.png"), 4, 4, rgb);
    // A character device as an MTL file ("mtllib null.mtl"): read as empty.
    std::filesystem::create_symlink("/dev/null", dir.file("null.mtl"));
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto& dir = strata::fuzz::fuzzDir();
    std::string in(reinterpret_cast<const char*>(data), size);
    size_t sep = in.find(kMtlSeparator);
    std::string mtl = dir.file("m.mtl");
    if (sep == std::string::npos) {
        std::remove(mtl.c_str());
    } else {
        dir.write("m.mtl", in.substr(sep + kMtlSeparator.size()));
        in.resize(sep);
    }
    std::string path = dir.write("in.obj", in);
    // Both ways the scene loader calls it: single meshes drop zero-area
    // triangles, frames of a sequence keep them.
    strata::ObjLoadOptions options;
    options.skipZeroArea = (size & 1) == 0;
    try {
        std::vector<std::string> textures;
        strata::LoadedMesh lm = strata::loadObj(path, &textures, options);
        checkMesh(lm, textures);
        strata::fuzz::accepted(std::to_string(lm.mesh.triangles.size()) + " triangles, " +
                               std::to_string(lm.materials.size()) + " materials");
    } catch (const strata::Error& e) {
        strata::fuzz::refused(e);
    }
    return 0;
}
