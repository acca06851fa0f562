// scene/jpeg_decode.h — JPEG decoding through Debian's libjpeg-turbo (linked
// statically), internal to image_io.cpp. stb_image's JPEG decoder (Debian's
// 2.27) writes out of bounds and shifts out of range on corrupt files (found
// by fuzz/image_fuzz.cpp); libjpeg-turbo is fuzzed continuously upstream.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace strata {

// A JPEG starts with SOI (FF D8) and another marker.
bool looksLikeJpeg(const std::string& bytes);

struct JpegImage {
    int width = 0, height = 0;
    std::vector<uint8_t> rgb;  // 8-bit sRGB, row-major, top row first (empty from jpegHeader)
};

// Reads the header only: the size; no pixel memory is allocated.
// Throws strata::Error "PATH: cannot read JPEG: REASON".
JpegImage jpegHeader(const std::string& path, const std::string& bytes);

// Decodes to RGB (greyscale expanded). Corrupt data (a bad code, a truncated
// file) is an error rather than a grey remainder; harmless oddities (bytes
// between segments, unknown metadata) are not. Call after checking the size
// from jpegHeader. Throws strata::Error "PATH: cannot read JPEG: REASON".
JpegImage decodeJpeg(const std::string& path, const std::string& bytes);

}  // namespace strata
