// OpenEXR input (scene/exr_read.h, through loadImage): files written here
// byte by byte from the layout (an encoder of the test's own: header,
// offset table, blocks; ZIP and RLE with OpenEXR's byte split and delta
// predictor, deflated by zlib), and strata's own EXR writer, read back; the
// refusals name the file and the reason; an environment map from an EXR.
#include <zlib.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "loader_test_util.h"
#include "scene/exr_write.h"
#include "scene/image_io.h"
#include "scene/scene_loader.h"

using namespace strata;
using namespace strata::test;

namespace {

void put32(std::string& s, uint32_t v) {
    for (int i = 0; i < 4; ++i) s.push_back(char((v >> (8 * i)) & 255));
}
void put64(std::string& s, uint64_t v) {
    put32(s, uint32_t(v));
    put32(s, uint32_t(v >> 32));
}
void attribute(std::string& s, const std::string& name, const std::string& type, const std::string& value) {
    s += name + '\0' + type + '\0';
    put32(s, uint32_t(value.size()));
    s += value;
}

// A float as IEEE half (the values below are exact in half).
uint16_t toHalf(float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    const uint32_t sign = (b >> 16) & 0x8000u;
    const int e = int((b >> 23) & 255) - 127 + 15;
    if ((b & 0x7fffffffu) == 0) return uint16_t(sign);
    return uint16_t(sign | uint32_t(e) << 10 | ((b >> 13) & 1023u));
}

struct ExrSpec {
    int width = 5, height = 37, x0 = 0, y0 = 0;
    int compression = 0;                               // 0 none, 1 RLE, 2 ZIPS, 3 ZIP, ...
    std::vector<std::string> channels{"B", "G", "R"};  // alphabetical, as EXR stores them
    int type = 1;                                      // 1 HALF, 2 FLOAT (all channels)
    uint32_t versionFlags = 0;
    bool decreasingY = false;  // blocks stored bottom first
    int cutBlocksTo = -1;      // >= 0: every block's data cut to this many bytes (a damaged file)
};

// The value of channel c at pixel (x, y) of the data window.
float valueAt(int c, int x, int y) { return float((x * 7 + y * 3 + c * 5) % 17) * 0.25f; }

// OpenEXR's ZIP/RLE preprocessing, forward: split into even and odd bytes, then deltas + 128.
std::vector<uint8_t> predictForward(const std::string& raw) {
    std::vector<uint8_t> t(raw.size());
    const size_t half = (raw.size() + 1) / 2;
    for (size_t i = 0; i < raw.size(); ++i) t[i % 2 == 0 ? i / 2 : half + i / 2] = uint8_t(raw[i]);
    for (size_t i = t.size(); i-- > 1;) t[i] = uint8_t(int(t[i]) - int(t[i - 1]) + 128);
    return t;
}
// RLE of OpenEXR: runs of 3 or more as (count - 1, byte), else literals as (-count, bytes).
std::string rle(const std::vector<uint8_t>& t) {
    std::string out;
    size_t i = 0;
    while (i < t.size()) {
        size_t run = 1;
        while (i + run < t.size() && t[i + run] == t[i] && run < 128) ++run;
        if (run >= 3) {
            out.push_back(char(int8_t(run - 1)));
            out.push_back(char(t[i]));
            i += run;
            continue;
        }
        size_t lit = 0;
        while (i + lit < t.size() && lit < 127) {
            if (i + lit + 2 < t.size() && t[i + lit] == t[i + lit + 1] && t[i + lit] == t[i + lit + 2]) break;
            ++lit;
        }
        out.push_back(char(int8_t(-int(lit))));
        out.append(reinterpret_cast<const char*>(t.data() + i), lit);
        i += lit;
    }
    return out;
}

std::string exrBytes(const ExrSpec& s) {
    std::string f;
    put32(f, 20000630);
    put32(f, 2 | s.versionFlags);
    std::string ch;
    for (const std::string& c : s.channels) {
        ch += c + '\0';
        put32(ch, uint32_t(s.type));
        ch.append(4, '\0');
        put32(ch, 1);
        put32(ch, 1);
    }
    ch.push_back('\0');
    attribute(f, "channels", "chlist", ch);
    attribute(f, "compression", "compression", std::string(1, char(s.compression)));
    std::string box;
    for (int v : {s.x0, s.y0, s.x0 + s.width - 1, s.y0 + s.height - 1}) put32(box, uint32_t(v));
    attribute(f, "dataWindow", "box2i", box);
    attribute(f, "displayWindow", "box2i", box);
    attribute(f, "lineOrder", "lineOrder", std::string(1, char(s.decreasingY ? 1 : 0)));
    f.push_back('\0');
    const int lines = s.compression == 3 ? 16 : 1;
    const int blocks = (s.height + lines - 1) / lines;
    std::vector<std::string> chunk(static_cast<size_t>(blocks));
    for (int k = 0; k < blocks; ++k) {
        std::string raw;
        for (int y = k * lines; y < std::min(s.height, (k + 1) * lines); ++y)
            for (size_t c = 0; c < s.channels.size(); ++c)
                for (int x = 0; x < s.width; ++x) {
                    const float v = valueAt(int(c), x, y);
                    if (s.type == 1) {
                        const uint16_t hv = toHalf(v);
                        raw.push_back(char(hv & 255));
                        raw.push_back(char(hv >> 8));
                    } else {
                        uint32_t u;
                        std::memcpy(&u, &v, 4);
                        put32(raw, u);
                    }
                }
        std::string data = raw;
        if (s.compression == 2 || s.compression == 3) {
            const std::vector<uint8_t> t = predictForward(raw);
            uLongf n = compressBound(uLong(t.size()));
            std::string z(n, '\0');
            compress(reinterpret_cast<Bytef*>(z.data()), &n, t.data(), uLong(t.size()));
            z.resize(n);
            if (z.size() < raw.size()) data = z;
        } else if (s.compression == 1) {
            std::string r = rle(predictForward(raw));
            if (r.size() < raw.size()) data = r;
        }
        if (s.cutBlocksTo >= 0) data.resize(std::min(data.size(), size_t(s.cutBlocksTo)));
        std::string& b = chunk[size_t(k)];
        put32(b, uint32_t(s.y0 + k * lines));
        put32(b, uint32_t(data.size()));
        b += data;
    }
    uint64_t at = f.size() + 8 * uint64_t(blocks);
    std::vector<uint64_t> offsets(static_cast<size_t>(blocks));
    std::string body;
    for (int i = 0; i < blocks; ++i) {  // stored in line order; the table indexes by block
        const int k = s.decreasingY ? blocks - 1 - i : i;
        offsets[size_t(k)] = at + body.size();
        body += chunk[size_t(k)];
    }
    for (uint64_t o : offsets) put64(f, o);
    return f + body;
}

void expectPixels(const Image& img, const ExrSpec& s) {
    ASSERT_EQ(img.width, s.width);
    ASSERT_EQ(img.height, s.height);
    auto channel = [&](const char* name) {
        for (size_t c = 0; c < s.channels.size(); ++c)
            if (s.channels[c] == name) return int(c);
        return -1;
    };
    const int r = channel("R"), g = channel("G"), b = channel("B"), y = channel("Y");
    for (int py = 0; py < s.height; ++py)
        for (int px = 0; px < s.width; ++px) {
            const Vec3 v = img.pixels[size_t(py) * size_t(s.width) + size_t(px)];
            const Vec3 want =
                r >= 0 ? Vec3{valueAt(r, px, py), valueAt(g, px, py), valueAt(b, px, py)} : make3(valueAt(y, px, py));
            ASSERT_EQ(v.x, want.x) << "pixel " << px << ", " << py;
            ASSERT_EQ(v.y, want.y) << "pixel " << px << ", " << py;
            ASSERT_EQ(v.z, want.z) << "pixel " << px << ", " << py;
        }
}

}  // namespace

TEST(ExrRead, EveryCompressionAndPixelTypeReadsBackExactly) {
    TempDir dir;
    for (int compression : {0, 1, 2, 3})
        for (int type : {1, 2})
            for (bool decreasing : {false, true}) {
                ExrSpec s;
                s.compression = compression;
                s.type = type;
                s.decreasingY = decreasing;
                s.x0 = -3;  // a data window off the origin
                s.y0 = 11;
                SCOPED_TRACE("compression " + std::to_string(compression) + ", type " + std::to_string(type));
                const std::string path = dir.write("c.exr", exrBytes(s));
                const ImageInfo info = readImageInfo(path);
                EXPECT_TRUE(info.exr && info.hdr);
                EXPECT_EQ(info.width, s.width);
                expectPixels(loadImage(path), s);
                expectPixels(loadImageRaw(path), s);  // data maps: the same values
            }
}

TEST(ExrRead, GreyAndExtraChannelsAndStrataOwnFiles) {
    TempDir dir;
    ExrSpec grey;
    grey.channels = {"Y"};
    grey.compression = 3;
    expectPixels(loadImage(dir.write("y.exr", exrBytes(grey))), grey);
    ExrSpec alpha;  // A and Z are skipped
    alpha.channels = {"A", "B", "G", "R", "Z"};
    alpha.compression = 2;
    expectPixels(loadImage(dir.write("a.exr", exrBytes(alpha))), alpha);
    // strata's own writer (FLOAT, no compression), read back bit for bit;
    // negative values are kept as data (loadImageRaw) and become 0 as colour.
    std::vector<float> rgb(6 * 4 * 3);
    for (size_t i = 0; i < rgb.size(); ++i) rgb[i] = float(i) * 0.37f - 3.0f;
    const std::string own = dir.write("own.exr", encodeExr("own.exr", 6, 4, rgb));
    const Image data = loadImageRaw(own), colour = loadImage(own);
    ASSERT_EQ(data.pixels.size(), 24u);
    for (size_t i = 0; i < 24; ++i)
        for (int c = 0; c < 3; ++c) {
            ASSERT_EQ(data.pixels[i][c], rgb[3 * i + size_t(c)]) << i;
            ASSERT_EQ(colour.pixels[i][c], std::max(0.0f, rgb[3 * i + size_t(c)])) << i;
        }
}

TEST(ExrRead, UnsupportedAndDamagedFilesNameTheFileAndTheReason) {
    TempDir dir;
    auto err = [&](const std::string& bytes) {
        const std::string path = dir.write("bad.exr", bytes);
        const std::string e = errorOf([&] { loadImage(path); });
        EXPECT_CONTAINS(e, path);
        return e;
    };
    ExrSpec s;
    ExrSpec tiled = s;
    tiled.versionFlags = 0x200;
    EXPECT_CONTAINS(err(exrBytes(tiled)), "tiled");
    ExrSpec multi = s;
    multi.versionFlags = 0x1000;
    EXPECT_CONTAINS(err(exrBytes(multi)), "multi-part");
    ExrSpec piz = s;
    piz.compression = 4;
    EXPECT_CONTAINS(err(exrBytes(piz)), "compression PIZ is not supported");
    ExrSpec depth = s;
    depth.channels = {"Z"};
    EXPECT_CONTAINS(err(exrBytes(depth)), "no R, G and B channels and no Y channel (it has Z)");
    const std::string good = exrBytes(s);
    for (size_t cut : {size_t(10), size_t(60), good.size() - 7}) EXPECT_CONTAINS(err(good.substr(0, cut)), "truncated");
    std::string zip = exrBytes([] {
        ExrSpec z;
        z.compression = 3;
        return z;
    }());
    zip[zip.size() - 20] ^= 0x5a;  // inside the last block's deflated data
    EXPECT_CONTAINS(err(zip), "corrupt ZIP data");
    ExrSpec wide = s;  // a block claiming far more than its bytes can inflate to: refused before allocating
    wide.width = 3000;
    wide.height = 2;
    wide.compression = 2;
    wide.cutBlocksTo = 4;
    EXPECT_CONTAINS(err(exrBytes(wide)), "4 compressed bytes cannot hold the 18000 the block needs");
    ExrSpec many = s;
    many.channels.clear();
    for (int c = 0; c < 70; ++c) many.channels.push_back("C" + std::to_string(100 + c));
    EXPECT_CONTAINS(err(exrBytes(many)), "more than 64 channels");
    std::string inf = good;  // a HALF infinity in the last pixel of the last line (R)
    inf[inf.size() - 1] = char(0x7c);
    inf[inf.size() - 2] = 0;
    EXPECT_CONTAINS(err(inf), "is not finite");
}

TEST(ExrRead, AnEnvironmentMapFromAnExrFile) {
    TempDir dir;
    ExrSpec s;
    s.width = 16;
    s.height = 8;
    s.compression = 3;
    dir.write("env.exr", exrBytes(s));
    const Scene scene = loadScene(dir.write("s.json", R"({"meshes": [{"name": "g", "generator": "sphere"}],
        "lights": {"environment": {"hdr": "env.exr", "scale": 2}}})"));
    ASSERT_GE(scene.environment.image, 0);
    const Image& env = scene.images[size_t(scene.environment.image)];
    ASSERT_EQ(env.width, 16);
    EXPECT_EQ(env.pixels[17].x, valueAt(2, 1, 1));  // R (the third channel, B G R) of pixel (1, 1)
}

// Files written by another implementation: OpenImageIO 2.4's oiiotool
// (Debian's openimageio-tools) cut a 64 x 32 crop of the testdata studio
// HDR and saved it as EXR (tests/data):
//   oiiotool studio_small_03_1k.hdr --cut 64x32+204+118 -o studio_crop.hdr
//   oiiotool studio_crop.hdr -d half --compression zip -o studio_crop_zip.exr    (and rle; piz)
//   oiiotool studio_crop.hdr -d float --compression zips -o studio_crop_zips.exr
// Each reads back as the HDR crop, value for value (RGBE's 8-bit mantissas
// fit in half); PIZ is refused by name.
TEST(ExrRead, FilesWrittenByOpenImageIoEqualTheirHdrSource) {
    const Image hdr = loadImage(sourceFile("tests/data/studio_crop.hdr"));
    ASSERT_EQ(hdr.width, 64);
    ASSERT_EQ(hdr.height, 32);
    for (const char* name : {"studio_crop_zip.exr", "studio_crop_rle.exr", "studio_crop_zips.exr"}) {
        const Image exr = loadImage(sourceFile(std::string("tests/data/") + name));
        ASSERT_EQ(exr.width, 64) << name;
        ASSERT_EQ(exr.height, 32) << name;
        for (size_t i = 0; i < hdr.pixels.size(); ++i)
            for (int c = 0; c < 3; ++c) ASSERT_EQ(exr.pixels[i][c], hdr.pixels[i][c]) << name << ", pixel " << i;
    }
    const std::string piz = sourceFile("tests/data/studio_crop_piz.exr");
    EXPECT_CONTAINS(errorOf([&] { loadImage(piz); }), "compression PIZ is not supported");
}
