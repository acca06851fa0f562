// scene/image_io.cpp — image files through Debian's stb_image / stb_image_write.
// This is the one translation unit that instantiates both stb implementations.
#include "scene/image_io.h"

#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "core/error.h"

#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>

namespace strata {
namespace {

constexpr int kMaxImageSide = 32768;

float srgbToLinear(float c) {
    return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
}

const char* reason() {
    const char* r = stbi_failure_reason();
    return r ? r : "unknown reason";
}

// stb frees with free(); this keeps every exit path from leaking.
template <typename T>
struct StbPixels {
    T* data = nullptr;
    ~StbPixels() { stbi_image_free(data); }
};

void loadHdr(const std::string& path, Image& img) {
    int n = 0;
    StbPixels<float> px;
    px.data = stbi_loadf(path.c_str(), &img.width, &img.height, &n, 3);
    if (!px.data) throw Error(path + ": cannot read HDR image: " + reason());
    size_t count = size_t(img.width) * size_t(img.height);
    img.pixels.resize(count);
    for (size_t i = 0; i < count; ++i) {
        Vec3 p{px.data[3 * i], px.data[3 * i + 1], px.data[3 * i + 2]};
        if (!isFinite(p)) {
            throw Error(path + ": pixel (" + std::to_string(i % size_t(img.width)) + ", " +
                        std::to_string(i / size_t(img.width)) + ") is not finite (NaN or infinity)");
        }
        img.pixels[i] = p;
    }
}

void loadLdr(const std::string& path, Image& img) {
    int n = 0;
    size_t count = 0;
    if (stbi_is_16_bit(path.c_str())) {
        StbPixels<stbi_us> px;
        px.data = stbi_load_16(path.c_str(), &img.width, &img.height, &n, 3);
        if (!px.data) throw Error(path + ": cannot read image: " + reason());
        count = size_t(img.width) * size_t(img.height);
        img.pixels.resize(count);
        for (size_t i = 0; i < count; ++i)
            for (int c = 0; c < 3; ++c) img.pixels[i][c] = srgbToLinear(px.data[3 * i + c] / 65535.0f);
        return;
    }
    StbPixels<stbi_uc> px;
    px.data = stbi_load(path.c_str(), &img.width, &img.height, &n, 3);
    if (!px.data) throw Error(path + ": cannot read image: " + reason());
    float lut[256];
    for (int v = 0; v < 256; ++v) lut[v] = srgbToLinear(v / 255.0f);
    count = size_t(img.width) * size_t(img.height);
    img.pixels.resize(count);
    for (size_t i = 0; i < count; ++i)
        img.pixels[i] = {lut[px.data[3 * i]], lut[px.data[3 * i + 1]], lut[px.data[3 * i + 2]]};
}

}  // namespace

Image loadImage(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) throw Error(path + ": cannot open image: " + std::strerror(errno));
    int w = 0, h = 0, n = 0;
    bool known = stbi_info_from_file(f, &w, &h, &n) != 0;
    bool hdr = known && stbi_is_hdr_from_file(f) != 0;
    std::fclose(f);
    if (!known) throw Error(path + ": cannot read image: " + reason());
    if (w <= 0 || h <= 0 || w > kMaxImageSide || h > kMaxImageSide) {
        throw Error(path + ": image is " + std::to_string(w) + "x" + std::to_string(h) +
                    ", larger than the supported " + std::to_string(kMaxImageSide) + " pixels a side");
    }
    Image img;
    img.path = path;
    if (hdr) loadHdr(path, img);
    else loadLdr(path, img);
    return img;
}

void writePngAtomic(const std::string& path, int width, int height, const std::vector<uint8_t>& rgb) {
    if (width <= 0 || height <= 0 || width > kMaxImageSide || height > kMaxImageSide)
        throw Error(path + ": cannot write a " + std::to_string(width) + "x" + std::to_string(height) + " image");
    if (rgb.size() != size_t(width) * size_t(height) * 3) {
        throw Error(path + ": pixel buffer holds " + std::to_string(rgb.size()) + " bytes, expected " +
                    std::to_string(size_t(width) * size_t(height) * 3) + " for RGB");
    }
    // Same folder, so the rename below cannot cross file systems.
    std::string tmp = path + ".tmp-" + std::to_string(::getpid());
    errno = 0;
    if (!stbi_write_png(tmp.c_str(), width, height, 3, rgb.data(), width * 3)) {
        int err = errno;
        std::remove(tmp.c_str());
        throw Error(path + ": cannot write PNG" + (err ? std::string(": ") + std::strerror(err) : std::string()));
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        int err = errno;
        std::remove(tmp.c_str());
        throw Error(path + ": cannot rename the written PNG into place: " + std::strerror(err));
    }
}

void writePfmAtomic(const std::string& path, int width, int height, const std::vector<float>& rgb) {
    if (width <= 0 || height <= 0 || rgb.size() != size_t(width) * size_t(height) * 3)
        throw Error(path + ": cannot write a " + std::to_string(width) + "x" + std::to_string(height) + " PFM");
    std::string tmp = path + ".tmp-" + std::to_string(::getpid());
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) throw Error(path + ": cannot create " + tmp);
    // Portable float map: little-endian (negative scale), rows bottom to top.
    std::fprintf(f, "PF\n%d %d\n-1.0\n", width, height);
    bool ok = true;
    for (int y = height - 1; y >= 0 && ok; --y)
        ok = std::fwrite(rgb.data() + size_t(y) * width * 3, sizeof(float), size_t(width) * 3, f) == size_t(width) * 3;
    ok = (std::fclose(f) == 0) && ok;
    if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        throw Error(path + ": cannot write PFM");
    }
}

}  // namespace strata
