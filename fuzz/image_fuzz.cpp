// fuzz/image_fuzz.cpp — libFuzzer target: strata::loadImage, the project's
// wrapper around stb_image (PNG, JPEG and Radiance HDR) and its own OpenEXR
// reader (scene/exr_read.h), on arbitrary bytes:
// readImageInfo first (the header checks), then loadImage. It must return a well-formed image or throw
// strata::Error; the pixel contract (finite, non-negative, one per width x
// height) is checked on success.
#include <climits>
#include <cmath>
#include <cstdlib>

#include "core/error.h"
#include "fuzz_common.h"
#include "scene/image_io.h"

namespace {

// Images the loader accepts (within kMaxImagePixels) but larger than this are
// legal and slow to decode under the sanitizers, so the fuzzer skips them
// after reading their header; the refusal of images beyond the limits is
// tested in tests/cpu/test_limits.cpp.
constexpr int64_t kFuzzMaxPixels = int64_t(1) << 22;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    strata::fuzz::quietWarnings();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string path = strata::fuzz::fuzzDir().write("input.img", data, size);
    try {
        strata::ImageInfo info = strata::readImageInfo(path);
        if (int64_t(info.width) * info.height > kFuzzMaxPixels) return -1;  // not added to the corpus
        strata::Image img = strata::loadImage(path);
        if (img.width != info.width || img.height != info.height ||
            img.pixels.size() != size_t(img.width) * size_t(img.height)) {
            std::fprintf(stderr, "loadImage returned %dx%d with %zu pixels, the header said %dx%d\n", img.width,
                         img.height, img.pixels.size(), info.width, info.height);
            std::abort();
        }
        for (const strata::Vec3& p : img.pixels)
            if (!strata::isFinite(p) || p.x < 0 || p.y < 0 || p.z < 0) {
                std::fprintf(stderr, "loadImage returned a pixel (%g, %g, %g)\n", p.x, p.y, p.z);
                std::abort();
            }
        strata::fuzz::accepted(std::to_string(img.width) + "x" + std::to_string(img.height));
    } catch (const strata::Error& e) {
        strata::fuzz::refused(e);
    }
    return 0;
}
