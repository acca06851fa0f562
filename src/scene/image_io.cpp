// scene/image_io.cpp — image files through Debian's stb_image / stb_image_write.
// This is the one translation unit that instantiates both stb implementations.
#include "scene/image_io.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include "core/error.h"
#include "core/input_file.h"
#include "core/output_file.h"
#include "scene/exr_read.h"
#include "scene/jpeg_decode.h"

// The formats the scene format documents, and no others: stb's decoders for
// the rest (GIF, PSD, PIC, PNM, BMP, TGA) are attack surface no scene needs.
// JPEG goes to libjpeg-turbo (jpeg_decode.h).
#define STBI_ONLY_PNG
#define STBI_ONLY_HDR
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>

namespace strata {
namespace {

float srgbToLinear(float c) { return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f); }

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

// stb reads from memory with an int length.
constexpr size_t kMaxImageFileBytes = size_t(INT_MAX);

// The whole file in memory: stb then parses one buffer (one open; the size
// checked is the size decoded).
std::string readImageFile(const std::string& path) {
    return readInputFile(path, "image", kMaxImageFileBytes, kMaxImageFileBytes);
}

const stbi_uc* bytesOf(const std::string& b) { return reinterpret_cast<const stbi_uc*>(b.data()); }

// Debian's stb_image (2.27) never stops decoding a run-length encoded HDR
// scanline whose data ends early: past the end of the file it reads zeros,
// and a zero run length makes no progress, so a truncated .hdr file hangs it
// (found by fuzz/image_fuzz.cpp). This walks the scanlines the way stb will
// and names the first one that runs past the end; flat (uncompressed) data,
// which stb would fill with stale bytes, must be complete as well. Other
// damage (a wrong scanline length, a run too long) is left to stb's messages.
void checkHdrData(const std::string& path, const std::string& b, int width, int height) {
    // The header, as stb reads it: a first line, lines up to an empty one,
    // then the resolution line; the pixels follow.
    size_t pos = 0;
    auto skipLine = [&]() {
        size_t nl = b.find('\n', pos);
        size_t start = pos;
        pos = nl == std::string::npos ? b.size() : nl + 1;
        return pos - start;
    };
    skipLine();
    while (pos < b.size() && skipLine() > 1) {}
    skipLine();
    const size_t end = b.size();
    const size_t pixels = size_t(width) * size_t(height);
    auto truncated = [&](size_t row) {
        throw Error(path + ": cannot read HDR image: truncated: the pixel data ends in scanline " +
                    std::to_string(row) + " of " + std::to_string(height));
    };
    auto flatFrom = [&](size_t row) {  // stb decodes every pixel as 4 plain bytes from here
        if (end - pos < 4 * pixels) truncated(row + (end - pos) / 4 / size_t(width));
    };
    if (width < 8 || width >= 32768) return flatFrom(0);
    for (int j = 0; j < height; ++j) {
        if (end - pos < 4) truncated(size_t(j));
        const auto at = [&](size_t i) { return unsigned(static_cast<unsigned char>(b[i])); };
        if (at(pos) != 2 || at(pos + 1) != 2 || (at(pos + 2) & 0x80)) return flatFrom(0);  // stb restarts flat
        if (int((at(pos + 2) << 8) | at(pos + 3)) != width) return;  // stb: "invalid decoded scanline length"
        pos += 4;
        for (int channel = 0; channel < 4; ++channel) {
            for (int i = 0; i < width;) {
                if (pos >= end) truncated(size_t(j));
                unsigned count = at(pos++);
                bool run = count > 128;
                if (run) count -= 128;
                if (int(count) > width - i) return;  // stb: "bad RLE data"
                size_t bytes = run ? 1 : count;
                if (end - pos < bytes) truncated(size_t(j));
                pos += bytes;
                i += int(count);
            }
        }
    }
}

void loadHdr(const std::string& path, const std::string& bytes, Image& img) {
    checkHdrData(path, bytes, img.width, img.height);
    int n = 0;
    StbPixels<float> px;
    px.data = stbi_loadf_from_memory(bytesOf(bytes), int(bytes.size()), &img.width, &img.height, &n, 3);
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

void toLinear(const uint8_t* rgb, Image& img) {
    float lut[256];
    for (int v = 0; v < 256; ++v) lut[v] = srgbToLinear(v / 255.0f);
    size_t count = size_t(img.width) * size_t(img.height);
    img.pixels.resize(count);
    for (size_t i = 0; i < count; ++i) img.pixels[i] = {lut[rgb[3 * i]], lut[rgb[3 * i + 1]], lut[rgb[3 * i + 2]]};
}

// raw: 16-bit channels as stored (v / 65535, no sRGB curve); 8-bit and JPEG
// images are refused (data maps need the precision).
void loadLdr(const std::string& path, const std::string& bytes, Image& img, bool raw) {
    const int size = int(bytes.size());
    if (raw && (looksLikeJpeg(bytes) || !stbi_is_16_bit_from_memory(bytesOf(bytes), size)))
        throw Error(path +
                    ": an 8-bit image has too little precision for displacement; use a 16-bit PNG, .pfm or "
                    ".hdr");
    if (looksLikeJpeg(bytes)) {
        JpegImage jpeg = decodeJpeg(path, bytes);
        img.width = jpeg.width;
        img.height = jpeg.height;
        return toLinear(jpeg.rgb.data(), img);
    }
    int n = 0;
    size_t count = 0;
    if (stbi_is_16_bit_from_memory(bytesOf(bytes), size)) {
        StbPixels<stbi_us> px;
        px.data = stbi_load_16_from_memory(bytesOf(bytes), size, &img.width, &img.height, &n, 3);
        if (!px.data) throw Error(path + ": cannot read image: " + reason());
        count = size_t(img.width) * size_t(img.height);
        img.pixels.resize(count);
        for (size_t i = 0; i < count; ++i)
            for (int c = 0; c < 3; ++c) {
                const float v = px.data[3 * i + c] / 65535.0f;
                img.pixels[i][c] = raw ? v : srgbToLinear(v);
            }
        return;
    }
    StbPixels<stbi_uc> px;
    px.data = stbi_load_from_memory(bytesOf(bytes), size, &img.width, &img.height, &n, 3);
    if (!px.data) throw Error(path + ": cannot read image: " + reason());
    toLinear(px.data, img);
}

bool isPng(const std::string& b) { return b.size() >= 8 && b.compare(0, 8, "\x89PNG\r\n\x1a\n", 8) == 0; }

uint32_t be32(const std::string& b, size_t i) {
    return uint32_t(uint8_t(b[i])) << 24 | uint32_t(uint8_t(b[i + 1])) << 16 | uint32_t(uint8_t(b[i + 2])) << 8 |
           uint32_t(uint8_t(b[i + 3]));
}

// A PNG's size from its IHDR chunk (always first), read here rather than by
// stb, which refuses large sizes as an "unknown image type" without saying so.
bool pngSize(const std::string& b, int& width, int& height) {
    if (!isPng(b) || b.size() < 24 || b.compare(12, 4, "IHDR") != 0) return false;
    width = int(std::min<uint32_t>(be32(b, 16), INT_MAX));
    height = int(std::min<uint32_t>(be32(b, 20), INT_MAX));
    return true;
}

// The PNG's chunks, checked and tidied before Debian's stb_image (2.27) reads
// them (both found by fuzz/image_fuzz.cpp): an IDAT chunk claiming more bytes
// than the file holds made stb allocate up to 2 GiB before finding the data
// missing, and an empty IDAT chunk before any data made it memcpy to a null
// pointer. So every chunk's data must lie within the file, and empty IDAT
// chunks (which hold nothing) are dropped. stb reads chunks in order, each as
// length, type, data and CRC, up to IEND, as this walk does.
std::string tidyPngChunks(const std::string& path, const std::string& b) {
    std::string out = b.substr(0, 8);
    size_t pos = 8;
    while (b.size() - pos >= 8) {
        const size_t length = be32(b, pos), left = b.size() - pos - 8;
        std::string type = b.substr(pos + 4, 4);
        for (char& c : type)
            if (!std::isalnum(static_cast<unsigned char>(c))) c = '?';
        if (length > left) {
            throw Error(path + ": cannot read image: corrupt PNG: chunk '" + type + "' at byte " + std::to_string(pos) +
                        " claims " + std::to_string(length) + " bytes, " + std::to_string(left) + " follow");
        }
        size_t end = std::min(b.size(), pos + 12 + length);  // with its CRC, where present
        if (!(type == "IDAT" && length == 0)) out.append(b, pos, end - pos);
        pos = end;
        if (type == "IEND") return out;
    }
    if (pos < b.size())  // a chunk cut inside its length and type
        throw Error(path + ": cannot read image: corrupt PNG: the file ends " + std::to_string(b.size() - pos) +
                    " bytes into a chunk header at byte " + std::to_string(pos));
    return out;
}

void checkLimits(const std::string& path, int w, int h) {
    if (w <= 0 || h <= 0 || w > kMaxImageSide || h > kMaxImageSide) {
        throw Error(path + ": image is " + std::to_string(w) + "x" + std::to_string(h) +
                    ", larger than the supported " + std::to_string(kMaxImageSide) + " pixels a side");
    }
    if (int64_t(w) * h > kMaxImagePixels) {
        throw Error(path + ": image is " + std::to_string(w) + "x" + std::to_string(h) + " = " +
                    std::to_string(int64_t(w) * h) + " pixels, more than the supported " +
                    std::to_string(kMaxImagePixels) + " (e.g. 16384x8192)");
    }
}

// The size and kind from the header, within the limits; every check that
// must come before stb parses more than the header.
ImageInfo checkedInfo(const std::string& path, const std::string& bytes) {
    ImageInfo info;
    int n = 0;
    if (pngSize(bytes, info.width, info.height) && info.width > 0 && info.height > 0)
        checkLimits(path, info.width, info.height);
    if (looksLikeExr(bytes)) {
        const ExrInfo header = exrInfo(path, bytes);
        info.width = header.width;
        info.height = header.height;
        info.hdr = info.exr = true;
    } else if (looksLikeJpeg(bytes)) {
        JpegImage header = jpegHeader(path, bytes);
        info.width = header.width;
        info.height = header.height;
    } else if (!stbi_info_from_memory(bytesOf(bytes), int(bytes.size()), &info.width, &info.height, &n)) {
        throw Error(path + ": cannot read image: " + reason() + " (PNG, JPEG, Radiance HDR and OpenEXR are supported)");
    } else {
        info.hdr = stbi_is_hdr_from_memory(bytesOf(bytes), int(bytes.size())) != 0;
    }
    checkLimits(path, info.width, info.height);
    return info;
}

// The file's bytes as stb may read them.
std::string readChecked(const std::string& path) {
    std::string bytes = readImageFile(path);
    return isPng(bytes) ? tidyPngChunks(path, bytes) : bytes;
}

}  // namespace

ImageInfo readImageInfo(const std::string& path) { return checkedInfo(path, readChecked(path)); }

namespace {

// EXR holds signed values; a colour (texture, environment) below zero is
// light taken away, which nothing here can sample, so those channels become
// zero with one warning (data maps keep their signs: loadImageRaw).
void clampNegativeColours(Image& img) {
    size_t clamped = 0;
    for (Vec3& p : img.pixels)
        if (p.x < 0 || p.y < 0 || p.z < 0) {
            ++clamped;
            p = Vec3{std::max(p.x, 0.0f), std::max(p.y, 0.0f), std::max(p.z, 0.0f)};
        }
    if (clamped)
        std::cerr << "warning: " << img.path << ": " << clamped << " of " << img.pixels.size()
                  << " pixels had negative values, set to 0 (a colour image)\n";
}

// `bytes` as read from `path` (a name for messages), PNG chunks tidied.
Image decodeChecked(const std::string& path, const std::string& bytes, bool raw) {
    ImageInfo info = checkedInfo(path, bytes);
    Image img;
    img.path = path;
    img.width = info.width;
    img.height = info.height;
    if (info.exr) {
        img = decodeExr(path, bytes);
        if (!raw) clampNegativeColours(img);
    } else if (info.hdr)
        loadHdr(path, bytes, img);
    else
        loadLdr(path, bytes, img, raw);
    return img;
}

}  // namespace

Image loadImage(const std::string& path) { return decodeChecked(path, readChecked(path), false); }

Image loadImageRaw(const std::string& path) { return decodeChecked(path, readChecked(path), true); }

Image decodeImage(const std::string& name, const std::string& bytes) {
    if (bytes.size() > kMaxImageFileBytes) throw Error(name + ": an image of more than 2 GiB");
    return decodeChecked(name, isPng(bytes) ? tidyPngChunks(name, bytes) : bytes, false);
}

namespace {

void appendBytes(void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), size_t(size));
}

}  // namespace

std::string encodePng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgb) {
    if (width <= 0 || height <= 0 || width > kMaxImageSide || height > kMaxImageSide)
        throw Error(path + ": cannot write a " + std::to_string(width) + "x" + std::to_string(height) + " image");
    if (rgb.size() != size_t(width) * size_t(height) * 3) {
        throw Error(path + ": pixel buffer holds " + std::to_string(rgb.size()) + " bytes, expected " +
                    std::to_string(size_t(width) * size_t(height) * 3) + " for RGB");
    }
    std::string png;
    if (!stbi_write_png_to_func(appendBytes, &png, width, height, 3, rgb.data(), width * 3) || png.empty())
        throw Error(path + ": cannot encode the PNG (out of memory?)");
    return png;
}

void writePngAtomic(const std::string& path, int width, int height, const std::vector<uint8_t>& rgb) {
    const std::string png = encodePng(path, width, height, rgb);
    writeFileAtomic(path, png);
}

std::string encodePfm(const std::string& path, int width, int height, const std::vector<float>& rgb) {
    if (width <= 0 || height <= 0 || rgb.size() != size_t(width) * size_t(height) * 3)
        throw Error(path + ": cannot write a " + std::to_string(width) + "x" + std::to_string(height) + " PFM");
    // Portable float map: little-endian (negative scale), rows bottom to top.
    std::string pfm = "PF\n" + std::to_string(width) + " " + std::to_string(height) + "\n-1.0\n";
    const size_t row = size_t(width) * 3 * sizeof(float);
    pfm.reserve(pfm.size() + row * size_t(height));
    for (int y = height - 1; y >= 0; --y)
        pfm.append(reinterpret_cast<const char*>(rgb.data() + size_t(y) * width * 3), row);
    return pfm;
}

void writePfmAtomic(const std::string& path, int width, int height, const std::vector<float>& rgb) {
    writeFileAtomic(path, encodePfm(path, width, height, rgb));
}

}  // namespace strata
