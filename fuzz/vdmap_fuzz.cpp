// fuzz/vdmap_fuzz.cpp — libFuzzer target: strata::loadVdMap (vector
// displacement maps: PFM, Radiance HDR, 16-bit PNG) on arbitrary bytes. The
// file gets the extension its magic suggests (PF/Pf: .pfm, PNG signature:
// .png, "#?": .hdr; anything else by its size), so every reader is reached.
// It must return a well-formed map or throw strata::Error; on success every
// texel is finite and maxLength bounds them.
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "core/error.h"
#include "fuzz_common.h"
#include "scene/vd_map.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    strata::fuzz::quietWarnings();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const char* ext = size % 3 == 0 ? "pfm" : size % 3 == 1 ? "png" : "hdr";
    if (size >= 2 && data[0] == 'P' && (data[1] == 'F' || data[1] == 'f')) ext = "pfm";
    if (size >= 4 && std::memcmp(data, "\x89PNG", 4) == 0) ext = "png";
    if (size >= 2 && data[0] == '#' && data[1] == '?') ext = "hdr";
    std::string path = strata::fuzz::fuzzDir().write(std::string("input.") + ext, data, size);
    try {
        strata::VdMap m = strata::loadVdMap(path);
        if (m.width <= 0 || m.height <= 0 || m.texels.size() != size_t(m.width) * size_t(m.height)) {
            std::fprintf(stderr, "loadVdMap returned %dx%d with %zu texels\n", m.width, m.height, m.texels.size());
            std::abort();
        }
        // Lengths in double: a texel near 1e20 or above squares past a float.
        for (const strata::Vec3& t : m.texels)
            if (!strata::isFinite(t) ||
                std::sqrt(double(t.x) * t.x + double(t.y) * t.y + double(t.z) * t.z) > double(m.maxLength)) {
                std::fprintf(stderr, "loadVdMap returned a texel (%g, %g, %g) beyond maxLength %g\n", t.x, t.y, t.z,
                             m.maxLength);
                std::abort();
            }
        strata::fuzz::accepted(std::to_string(m.width) + "x" + std::to_string(m.height));
    } catch (const strata::Error& e) {
        strata::fuzz::refused(e);
    }
    return 0;
}
