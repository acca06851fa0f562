// scene/image_io.h — image files through stb_image / stb_image_write (OpenEXR: scene/exr_read.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scene/scene.h"

namespace strata {

// The largest image loadImage accepts, checked against the file's header
// before any pixel is decoded or allocated: 32768 pixels a side and 2^27
// pixels in all (16384 x 8192, the largest common environment map: 1.5 GiB as
// float RGB). Texture lookups index pixels with 32-bit ints, far below this.
constexpr int kMaxImageSide = 32768;
constexpr int64_t kMaxImagePixels = int64_t(1) << 27;

struct ImageInfo {
    int width = 0, height = 0;
    bool hdr = false;  // Radiance HDR or OpenEXR (linear); otherwise 8 or 16 bits, sRGB
    bool exr = false;  // OpenEXR (scene/exr_read.h)
};

// The size and kind of an image file without decoding its pixels, after the
// same checks as loadImage makes before decoding (format, limits).
ImageInfo readImageInfo(const std::string& path);

// Loads PNG, JPG (sRGB, converted to linear), Radiance HDR or OpenEXR
// (linear: scene/exr_read.h) into linear RGB floats; other formats are refused. Throws strata::Error naming
// the file and the reason (unreadable, corrupt, truncated, beyond the limits).
Image loadImage(const std::string& path);

// As loadImage, for an image held in memory (a glTF file's embedded image):
// `name` stands for the file in messages and becomes Image::path.
Image decodeImage(const std::string& name, const std::string& bytes);

// As loadImage, for data rather than colour (displacement maps): Radiance HDR
// and OpenEXR as stored, 16-bit PNG channels as v / 65535 without the sRGB curve; 8-bit
// PNG and JPEG are refused (too little precision).
Image loadImageRaw(const std::string& path);

// 8-bit RGB (row-major, top row first) as PNG bytes; `path` names the
// output in errors. Throws strata::Error on failure.
std::string encodePng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgb);

// Writes 8-bit RGB as PNG through OutputFile (core/output_file.h): the whole
// file or none, never a replaced device. Throws strata::Error on failure.
void writePngAtomic(const std::string& path, int width, int height, const std::vector<uint8_t>& rgb);

// Linear RGB floats (top row first) as little-endian PFM bytes; `path` names
// the output in errors.
std::string encodePfm(const std::string& path, int width, int height, const std::vector<float>& rgb);
// Writes them through OutputFile, atomically.
void writePfmAtomic(const std::string& path, int width, int height, const std::vector<float>& rgb);

}  // namespace strata
