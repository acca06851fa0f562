// scene/image_io.h — image files through stb_image / stb_image_write.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scene/scene.h"

namespace strata {

// Loads PNG, JPG (sRGB, converted to linear) or Radiance HDR (linear) into
// linear RGB floats. Throws strata::Error naming the file and the reason.
Image loadImage(const std::string& path);

// Writes 8-bit RGB (row-major, top row first) as PNG. Writes to a temporary
// name in the same folder and renames it, so a failure never leaves a
// half-written file. Throws strata::Error on failure.
void writePngAtomic(const std::string& path, int width, int height, const std::vector<uint8_t>& rgb);

// Writes linear RGB floats (top row first) as a little-endian PFM, atomically.
void writePfmAtomic(const std::string& path, int width, int height, const std::vector<float>& rgb);

}  // namespace strata
