// scene/exr_read.h — OpenEXR images in (environment maps, displacement
// maps), read here from the file layout in OpenEXR's documentation ("OpenEXR
// File Layout", "Technical Introduction"): single-part scanline files with
// no compression, RLE, ZIPS or ZIP (zlib, Debian's), HALF, FLOAT or UINT
// channels R, G, B (or Y alone, grey), sampled 1x1; other channels (A, Z,
// layers) are skipped. Tiled, multi-part and deep files and the other
// compressions (PIZ, PXR24, B44, DWA) are refused by name.
#pragma once

#include <string>

#include "scene/scene.h"

namespace strata {

// True when the bytes start with the EXR magic number.
bool looksLikeExr(const std::string& bytes);

struct ExrInfo {
    int width = 0, height = 0;  // the data window's
};

// The data window's size, after the header's checks (version, kind,
// channels, compression); throws strata::Error naming `path` and the field.
ExrInfo exrInfo(const std::string& path, const std::string& bytes);

// The pixels as linear RGB floats, top row first (EXR's y grows downwards).
// Throws strata::Error naming `path` and the field, chunk or scanline at
// fault (truncated, corrupt, unsupported, a non-finite pixel).
Image decodeExr(const std::string& path, const std::string& bytes);

}  // namespace strata
