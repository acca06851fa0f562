#include "scene/exr_read.h"

#include <zlib.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/error.h"
#include "scene/image_io.h"

namespace strata {
namespace {

constexpr uint32_t kMagic = 20000630;
// Version field flags (the low byte is the version, 2).
constexpr uint32_t kTiled = 0x200, kLongNames = 0x400, kDeep = 0x800, kMultiPart = 0x1000;
enum PixelType : int32_t { Uint = 0, Half = 1, Float = 2 };
constexpr size_t kMostChannels = 64;
const char* const kCompressionNames[] = {"none", "RLE", "ZIPS", "ZIP", "PIZ", "PXR24", "B44", "B44A", "DWAA", "DWAB"};

struct Channel {
    std::string name;
    int32_t type = Half;
    int bytes() const { return type == Half ? 2 : 4; }
};

struct Header {
    std::vector<Channel> channels;  // in the file's (alphabetical) order
    int compression = -1;
    int32_t xMin = 0, yMin = 0, xMax = -1, yMax = -1;
    size_t end = 0;  // the offset table's first byte
    int width() const { return int(int64_t(xMax) - xMin + 1); }
    int height() const { return int(int64_t(yMax) - yMin + 1); }
    int linesPerBlock() const { return compression == 3 ? 16 : 1; }
};

// Bounds-checked little-endian reads from the file's bytes; every failure
// names the file and what was being read.
struct Reader {
    const std::string& path;
    const std::string& b;
    size_t pos = 0;

    [[noreturn]] void fail(const std::string& what) const { throw Error(path + ": cannot read EXR image: " + what); }
    void need(size_t n, const char* what) const {
        if (pos > b.size() || b.size() - pos < n)
            fail(std::string("truncated: the file ends in ") + what + " at byte " + std::to_string(pos));
    }
    uint32_t u32(const char* what) {
        need(4, what);
        uint32_t v = 0;
        for (int i = 3; i >= 0; --i) v = v << 8 | uint8_t(b[pos + size_t(i)]);
        pos += 4;
        return v;
    }
    uint64_t u64(const char* what) {
        const uint64_t lo = u32(what);
        return lo | uint64_t(u32(what)) << 32;
    }
    std::string name(size_t most, const char* what) {
        const size_t nul = b.find('\0', pos);
        if (nul == std::string::npos) fail(std::string("truncated: the file ends in ") + what);
        if (nul - pos > most)
            fail(std::string(what) + " at byte " + std::to_string(pos) + " is longer than " + std::to_string(most) +
                 " bytes");
        std::string s = b.substr(pos, nul - pos);
        pos = nul + 1;
        return s;
    }
};

int32_t signed32(uint32_t v) {
    int32_t s;
    std::memcpy(&s, &v, 4);
    return s;
}

Header readHeader(const std::string& path, const std::string& bytes) {
    Reader r{path, bytes};
    if (r.u32("the magic number") != kMagic) r.fail("not an OpenEXR file (no magic number)");
    const uint32_t version = r.u32("the version");
    if ((version & 0xff) != 2) r.fail("version " + std::to_string(version & 0xff) + " (2 is supported)");
    if (version & kMultiPart) r.fail("a multi-part file (single-part scanline files are supported)");
    if (version & kDeep) r.fail("a deep-data file (single-part scanline files are supported)");
    if (version & kTiled) r.fail("a tiled file (single-part scanline files are supported; re-save as scanline)");
    const size_t nameMost = version & kLongNames ? 255 : 31;
    Header h;
    bool channels = false, window = false;
    for (;;) {
        const std::string attr = r.name(nameMost, "an attribute name");
        if (attr.empty()) break;
        const std::string type = r.name(nameMost, "an attribute type");
        const uint32_t size = r.u32("an attribute size");
        r.need(size, ("attribute '" + attr + "'").c_str());
        const size_t valueEnd = r.pos + size;
        if (attr == "channels") {
            if (type != "chlist") r.fail("attribute 'channels' has type '" + type + "', expected chlist");
            Reader c{path, bytes, r.pos};
            for (;;) {
                if (c.pos >= valueEnd) r.fail("attribute 'channels': the list has no end");
                Channel ch;
                ch.name = c.name(nameMost, "a channel name");
                if (ch.name.empty()) break;
                ch.type = signed32(c.u32("a channel's pixel type"));
                c.pos += 4;  // pLinear and three reserved bytes
                const uint32_t xs = c.u32("a channel's x sampling"), ys = c.u32("a channel's y sampling");
                if (ch.type < Uint || ch.type > Float)
                    r.fail("channel '" + ch.name + "' has pixel type " + std::to_string(ch.type) +
                           " (0 UINT, 1 HALF, 2 FLOAT)");
                if (xs != 1 || ys != 1)
                    r.fail("channel '" + ch.name + "' is subsampled " + std::to_string(xs) + "x" + std::to_string(ys) +
                           " (channels sampled 1x1 are supported)");
                if (c.pos > valueEnd) r.fail("attribute 'channels' runs past its size");
                if (h.channels.size() == kMostChannels)
                    r.fail("more than " + std::to_string(kMostChannels) + " channels");
                h.channels.push_back(ch);
            }
            channels = true;
        } else if (attr == "compression") {
            if (size != 1) r.fail("attribute 'compression' has size " + std::to_string(size) + ", expected 1");
            h.compression = uint8_t(bytes[r.pos]);
        } else if (attr == "dataWindow") {
            if (size != 16) r.fail("attribute 'dataWindow' has size " + std::to_string(size) + ", expected 16");
            Reader w{path, bytes, r.pos};
            h.xMin = signed32(w.u32("dataWindow"));
            h.yMin = signed32(w.u32("dataWindow"));
            h.xMax = signed32(w.u32("dataWindow"));
            h.yMax = signed32(w.u32("dataWindow"));
            window = true;
        } else if (attr == "type" && type == "string") {
            const std::string kind = bytes.substr(r.pos, size);
            if (kind != "scanlineimage") r.fail("a " + kind + " part (scanline images are supported)");
        }
        r.pos = valueEnd;
    }
    if (!channels) r.fail("the header has no 'channels' attribute");
    auto has = [&](const char* n) {
        for (const Channel& c : h.channels)
            if (c.name == n) return true;
        return false;
    };
    if (!(has("R") && has("G") && has("B")) && !has("Y")) {
        std::string names;
        for (const Channel& c : h.channels) names += (names.empty() ? "" : ", ") + c.name;
        r.fail("no R, G and B channels and no Y channel (it has " + (names.empty() ? std::string("none") : names) +
               ")");
    }
    if (h.compression < 0) r.fail("the header has no 'compression' attribute");
    if (!window) r.fail("the header has no 'dataWindow' attribute");
    if (h.compression > 3) {
        const std::string name = h.compression < 10 ? kCompressionNames[h.compression] : std::to_string(h.compression);
        r.fail("compression " + name + " is not supported (none, RLE, ZIPS and ZIP are; re-save with one of them)");
    }
    const int64_t w = int64_t(h.xMax) - h.xMin + 1, ht = int64_t(h.yMax) - h.yMin + 1;
    if (w <= 0 || ht <= 0)
        r.fail("the data window (" + std::to_string(h.xMin) + ", " + std::to_string(h.yMin) + ") - (" +
               std::to_string(h.xMax) + ", " + std::to_string(h.yMax) + ") is empty");
    if (w > kMaxImageSide || ht > kMaxImageSide || w * ht > kMaxImagePixels)
        r.fail("image is " + std::to_string(w) + "x" + std::to_string(ht) + ", beyond the supported " +
               std::to_string(kMaxImageSide) + " pixels a side and " + std::to_string(kMaxImagePixels) + " in all");
    h.end = r.pos;
    return h;
}

float halfToFloat(uint16_t h) {
    const uint32_t sign = uint32_t(h >> 15) << 31, exponent = (h >> 10) & 31u, mantissa = h & 1023u;
    uint32_t bits;
    if (exponent == 0) {
        if (mantissa == 0) {
            bits = sign;
        } else {  // subnormal: normalise
            const float f = std::ldexp(float(mantissa), -24);
            std::memcpy(&bits, &f, 4);
            bits |= sign;
        }
    } else if (exponent == 31) {
        bits = sign | 0x7f800000u | mantissa << 13;  // infinity or NaN
    } else {
        bits = sign | (exponent + 112u) << 23 | mantissa << 13;
    }
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

// OpenEXR's ZIP and RLE store the bytes with a delta predictor, the even
// bytes' half first; this undoes both, in place into `out`.
void unpredict(std::vector<uint8_t>& t, std::string& out) {
    for (size_t i = 1; i < t.size(); ++i) t[i] = uint8_t(int(t[i - 1]) + int(t[i]) - 128);
    out.resize(t.size());
    const size_t half = (t.size() + 1) / 2;
    for (size_t i = 0; i < t.size(); ++i) out[i] = char(i % 2 == 0 ? t[i / 2] : t[half + i / 2]);
}

// One block's bytes as stored uncompressed (`expect` of them).
std::string blockBytes(const Reader& r, const Header& h, const char* data, size_t size, size_t expect, int y) {
    if (size == expect) return std::string(data, size);  // stored as is (compression did not pay)
    const std::string at = "the block of scanline " + std::to_string(y);
    // Nothing is allocated for more than the data could expand to: deflate
    // at most 1032:1, OpenEXR's RLE 64:1 (2 bytes for a run of 128).
    const size_t most = h.compression == 1 ? size * 64 : size * 1032 + 64;
    if (h.compression >= 1 && h.compression <= 3 && expect > most)
        r.fail(at + ": " + std::to_string(size) + " compressed bytes cannot hold the " + std::to_string(expect) +
               " the block needs");
    std::vector<uint8_t> t(expect);
    if (h.compression == 2 || h.compression == 3) {
        uLongf got = uLongf(expect);
        const int z = uncompress(t.data(), &got, reinterpret_cast<const Bytef*>(data), uLong(size));
        if (z != Z_OK || got != expect)
            r.fail(at + ": corrupt ZIP data (zlib: " + (z == Z_OK ? "short" : std::string(zError(z))) + ")");
    } else if (h.compression == 1) {
        size_t o = 0, i = 0;
        while (i < size) {
            const int8_t n = int8_t(data[i++]);
            if (n < 0) {  // -n literal bytes
                const size_t count = size_t(-int(n));
                if (i + count > size || o + count > expect) r.fail(at + ": corrupt RLE data");
                std::memcpy(t.data() + o, data + i, count);
                i += count;
                o += count;
            } else {  // n + 1 copies of the next byte
                const size_t count = size_t(n) + 1;
                if (i >= size || o + count > expect) r.fail(at + ": corrupt RLE data");
                std::memset(t.data() + o, uint8_t(data[i++]), count);
                o += count;
            }
        }
        if (o != expect) r.fail(at + ": corrupt RLE data (short)");
    } else {
        r.fail(at + " holds " + std::to_string(size) + " bytes, expected " + std::to_string(expect) +
               " without compression");
    }
    std::string out;
    unpredict(t, out);
    return out;
}

}  // namespace

bool looksLikeExr(const std::string& b) { return b.size() >= 4 && b.compare(0, 4, "\x76\x2f\x31\x01", 4) == 0; }

ExrInfo exrInfo(const std::string& path, const std::string& bytes) {
    const Header h = readHeader(path, bytes);
    return ExrInfo{h.width(), h.height()};
}

Image decodeExr(const std::string& path, const std::string& bytes) {
    const Header h = readHeader(path, bytes);
    Reader r{path, bytes, h.end};
    // Where each channel's values sit in a scanline, and which colour it is.
    const int width = h.width(), height = h.height();
    int colour[3] = {-1, -1, -1}, grey = -1;
    std::vector<size_t> offset(h.channels.size());
    size_t lineBytes = 0;
    for (size_t c = 0; c < h.channels.size(); ++c) {
        offset[c] = lineBytes;
        lineBytes += size_t(width) * size_t(h.channels[c].bytes());
        const std::string& n = h.channels[c].name;
        if (n == "R") colour[0] = int(c);
        if (n == "G") colour[1] = int(c);
        if (n == "B") colour[2] = int(c);
        if (n == "Y") grey = int(c);
    }
    const bool rgb = colour[0] >= 0 && colour[1] >= 0 && colour[2] >= 0;  // else Y (readHeader checked)
    const int lines = h.linesPerBlock();
    const size_t blocks = (size_t(height) + size_t(lines) - 1) / size_t(lines);
    std::vector<uint64_t> offsets(blocks);
    for (uint64_t& o : offsets) o = r.u64("the offset table");
    Image img;
    img.path = path;
    img.width = width;
    img.height = height;
    img.pixels.assign(size_t(width) * size_t(height), Vec3{0, 0, 0});
    std::vector<char> seen(blocks, 0);
    for (size_t k = 0; k < blocks; ++k) {
        if (offsets[k] >= bytes.size())
            r.fail("block " + std::to_string(k) + "'s offset lies past the end of the file");
        Reader c{path, bytes, size_t(offsets[k])};
        const int32_t y = signed32(c.u32("a block's scanline"));
        const uint32_t size = c.u32("a block's size");
        const int64_t row = int64_t(y) - h.yMin;
        if (row < 0 || row >= height || row % lines != 0)
            r.fail("block " + std::to_string(k) + " starts at scanline " + std::to_string(y) +
                   ", outside the data window");
        const size_t index = size_t(row / lines);
        if (seen[index]) r.fail("scanline " + std::to_string(y) + " is stored twice");
        seen[index] = 1;
        c.need(size, "a block's data");
        const int n = int(std::min<int64_t>(lines, height - row));
        const std::string data = blockBytes(c, h, bytes.data() + c.pos, size, lineBytes * size_t(n), y);
        for (int j = 0; j < n; ++j) {
            const char* line = data.data() + size_t(j) * lineBytes;
            auto value = [&](int ch, int x) {
                const char* p = line + offset[size_t(ch)] + size_t(x) * size_t(h.channels[size_t(ch)].bytes());
                if (h.channels[size_t(ch)].type == Half) {
                    const uint16_t v = uint16_t(uint8_t(p[0]) | uint16_t(uint8_t(p[1])) << 8);
                    return halfToFloat(v);
                }
                uint32_t v = 0;
                for (int i = 3; i >= 0; --i) v = v << 8 | uint8_t(p[i]);
                if (h.channels[size_t(ch)].type == Uint) return float(v);
                float f;
                std::memcpy(&f, &v, 4);
                return f;
            };
            const size_t py = size_t(row) + size_t(j);
            for (int x = 0; x < width; ++x) {
                Vec3 px;
                if (rgb)
                    px = Vec3{value(colour[0], x), value(colour[1], x), value(colour[2], x)};
                else
                    px = make3(value(grey, x));
                if (!isFinite(px))
                    throw Error(path + ": pixel (" + std::to_string(x) + ", " + std::to_string(py) +
                                ") is not finite (NaN or infinity)");
                img.pixels[py * size_t(width) + size_t(x)] = px;
            }
        }
    }
    return img;
}

}  // namespace strata
