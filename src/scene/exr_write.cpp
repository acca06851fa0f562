#include "scene/exr_write.h"

#include <cstdint>
#include <cstring>

#include "core/error.h"

namespace strata {
namespace {

// Little-endian fields, as EXR stores every number.
void put32(std::string& s, uint32_t v) {
    for (int i = 0; i < 4; ++i) s.push_back(char((v >> (8 * i)) & 255));
}
void put64(std::string& s, uint64_t v) {
    for (int i = 0; i < 8; ++i) s.push_back(char((v >> (8 * i)) & 255));
}
void putFloat(std::string& s, float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    put32(s, u);
}
// One header attribute: name, type, size, value.
void attribute(std::string& s, const char* name, const char* type, const std::string& value) {
    s.append(name).push_back('\0');
    s.append(type).push_back('\0');
    put32(s, uint32_t(value.size()));
    s += value;
}
std::string box2i(int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
    std::string v;
    for (int32_t c : {x0, y0, x1, y1}) put32(v, uint32_t(c));
    return v;
}

}  // namespace

std::string encodeExr(const std::string& path, int width, int height, const std::vector<float>& rgb) {
    if (width <= 0 || height <= 0 || rgb.size() != size_t(width) * size_t(height) * 3)
        throw Error(path + ": cannot write a " + std::to_string(width) + "x" + std::to_string(height) + " EXR");
    std::string f;
    put32(f, 20000630);  // magic number
    put32(f, 2);         // version 2; single-part scanline, short names
    // Channels in alphabetical order, each FLOAT (2), linear, sampled 1x1.
    std::string channels;
    for (const char* c : {"B", "G", "R"}) {
        channels.append(c).push_back('\0');
        put32(channels, 2);                 // pixel type FLOAT
        channels.append(4, '\0');           // pLinear 0 and three reserved bytes
        put32(channels, 1);                 // x sampling
        put32(channels, 1);                 // y sampling
    }
    channels.push_back('\0');
    attribute(f, "channels", "chlist", channels);
    attribute(f, "compression", "compression", std::string(1, '\0'));  // NO_COMPRESSION
    attribute(f, "dataWindow", "box2i", box2i(0, 0, width - 1, height - 1));
    attribute(f, "displayWindow", "box2i", box2i(0, 0, width - 1, height - 1));
    attribute(f, "lineOrder", "lineOrder", std::string(1, '\0'));  // INCREASING_Y
    std::string one;
    putFloat(one, 1.0f);
    attribute(f, "pixelAspectRatio", "float", one);
    std::string centre;
    putFloat(centre, 0.0f);
    putFloat(centre, 0.0f);
    attribute(f, "screenWindowCenter", "v2f", centre);
    attribute(f, "screenWindowWidth", "float", one);
    f.push_back('\0');  // end of the header
    // The offset table (one block per scanline without compression), then
    // the blocks: y, the data's size, each channel's row in channel order.
    const uint64_t lineBytes = uint64_t(width) * 3 * 4;
    const uint64_t first = f.size() + uint64_t(height) * 8;
    for (int y = 0; y < height; ++y) put64(f, first + uint64_t(y) * (8 + lineBytes));
    f.reserve(f.size() + size_t(height) * size_t(8 + lineBytes));
    for (int y = 0; y < height; ++y) {
        put32(f, uint32_t(y));
        put32(f, uint32_t(lineBytes));
        for (int c : {2, 1, 0})  // B, G, R
            for (int x = 0; x < width; ++x) putFloat(f, rgb[(size_t(y) * width + x) * 3 + size_t(c)]);
    }
    return f;
}

}  // namespace strata
