// scene/exr_write.h: the bytes follow OpenEXR's file layout (checked here
// field by field from the documentation, and, where Debian's openexr tools
// are installed, by exrheader in tests/cli/cli_test.sh): magic and version,
// the required header attributes, an offset table that points at each
// scanline block, and each block's B, G, R rows of 32-bit floats.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/error.h"
#include "scene/exr_write.h"

using namespace strata;

namespace {

struct Reader {
    const std::string& s;
    size_t at = 0;
    uint32_t u32() {
        uint32_t v = 0;
        for (int i = 0; i < 4; ++i) v |= uint32_t(uint8_t(s.at(at + size_t(i)))) << (8 * i);
        at += 4;
        return v;
    }
    uint64_t u64() {
        uint64_t lo = u32();
        return lo | (uint64_t(u32()) << 32);
    }
    float f32() {
        const uint32_t u = u32();
        float f;
        std::memcpy(&f, &u, 4);
        return f;
    }
    std::string cstr() {
        const size_t end = s.find('\0', at);
        std::string out = s.substr(at, end - at);
        at = end + 1;
        return out;
    }
};

}  // namespace

TEST(ExrWrite, BytesFollowTheFileLayout) {
    const int w = 3, h = 2;
    std::vector<float> rgb(size_t(w) * h * 3);
    for (size_t i = 0; i < rgb.size(); ++i) rgb[i] = 0.25f * float(i) - 1.0f;  // negative and large values kept
    const std::string f = encodeExr("x.exr", w, h, rgb);
    Reader r{f};
    EXPECT_EQ(r.u32(), 20000630u);  // magic
    EXPECT_EQ(r.u32(), 2u);         // version 2, no flags: single-part scanline
    std::vector<std::string> names;
    for (std::string name = r.cstr(); !name.empty(); name = r.cstr()) {
        names.push_back(name);
        const std::string type = r.cstr();
        const uint32_t size = r.u32();
        const size_t valueEnd = r.at + size;
        if (name == "channels") {
            EXPECT_EQ(type, "chlist");
            for (const char* c : {"B", "G", "R"}) {
                EXPECT_EQ(r.cstr(), c);
                EXPECT_EQ(r.u32(), 2u);  // FLOAT
                r.at += 4;               // pLinear, reserved
                EXPECT_EQ(r.u32(), 1u);
                EXPECT_EQ(r.u32(), 1u);
            }
            EXPECT_EQ(r.cstr(), "");  // the list's end
        } else if (name == "dataWindow" || name == "displayWindow") {
            EXPECT_EQ(type, "box2i");
            EXPECT_EQ(r.u32(), 0u);
            EXPECT_EQ(r.u32(), 0u);
            EXPECT_EQ(r.u32(), uint32_t(w - 1));
            EXPECT_EQ(r.u32(), uint32_t(h - 1));
        } else if (name == "compression" || name == "lineOrder") {
            EXPECT_EQ(size, 1u);
            EXPECT_EQ(f.at(r.at), '\0');  // NO_COMPRESSION, INCREASING_Y
        }
        EXPECT_EQ(r.at <= valueEnd, true) << name;
        r.at = valueEnd;
    }
    EXPECT_EQ(names, (std::vector<std::string>{"channels", "compression", "dataWindow", "displayWindow", "lineOrder",
                                               "pixelAspectRatio", "screenWindowCenter", "screenWindowWidth"}));
    std::vector<uint64_t> offsets;
    for (int y = 0; y < h; ++y) offsets.push_back(r.u64());
    for (int y = 0; y < h; ++y) {
        r.at = size_t(offsets[size_t(y)]);
        EXPECT_EQ(r.u32(), uint32_t(y));
        EXPECT_EQ(r.u32(), uint32_t(w * 3 * 4));
        for (int c : {2, 1, 0})
            for (int x = 0; x < w; ++x) EXPECT_EQ(r.f32(), rgb[(size_t(y) * w + x) * 3 + size_t(c)]) << x << "," << y;
    }
    EXPECT_EQ(r.at, f.size());  // nothing after the last block
}

TEST(ExrWrite, WrongSizesAreRefused) {
    EXPECT_THROW(encodeExr("x.exr", 2, 2, std::vector<float>(11)), Error);
    EXPECT_THROW(encodeExr("x.exr", 0, 2, {}), Error);
}
