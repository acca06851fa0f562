// tests/cpu/png_bytes.h — PNG files written byte by byte for loader tests:
// big-endian words, the chunk CRC, whole chunks, and a signature + IHDR
// header that claims any size (to test limits without the pixels).
#pragma once

#include <cstdint>
#include <string>

namespace strata::test {

inline std::string bigEndian(uint32_t v) {
    return {char(v >> 24), char((v >> 16) & 255), char((v >> 8) & 255), char(v & 255)};
}

inline uint32_t crc32(const std::string& bytes) {
    uint32_t c = 0xFFFFFFFFu;
    for (unsigned char b : bytes) {
        c ^= b;
        for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return ~c;
}

// Length, type, data, CRC of type + data.
inline std::string pngChunk(const std::string& type, const std::string& data) {
    return bigEndian(uint32_t(data.size())) + type + data + bigEndian(crc32(type + data));
}

inline const std::string kPngSignature("\x89PNG\r\n\x1a\n", 8);

// Signature and an IHDR for w x h RGB pixels of `bitDepth` bits, nothing after.
inline std::string pngHeader(uint32_t w, uint32_t h, uint8_t bitDepth = 8) {
    std::string ihdr =
        bigEndian(w) + bigEndian(h) + std::string(1, char(bitDepth)) + std::string("\x02\x00\x00\x00", 4);
    return kPngSignature + pngChunk("IHDR", ihdr);
}

}  // namespace strata::test
