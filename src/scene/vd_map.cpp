#include "scene/vd_map.h"

#include <cctype>
#include <cfloat>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "core/input_file.h"
#include "scene/image_io.h"

namespace strata {
namespace {

constexpr int kMaxVdSide = 16384;

std::string lowerExtension(const std::string& path) {
    size_t dot = path.find_last_of('.');
    std::string e = dot == std::string::npos ? "" : path.substr(dot + 1);
    for (char& c : e) c = char(std::tolower(static_cast<unsigned char>(c)));
    return e;
}

void checkSize(const std::string& path, long long w, long long h) {
    if (w <= 0 || h <= 0 || w > kMaxVdSide || h > kMaxVdSide)
        throw Error(path + ": displacement map of " + std::to_string(w) + "x" + std::to_string(h) +
                    " texels; each side must be 1-" + std::to_string(kMaxVdSide));
}

// PFM: "PF" (RGB) or "Pf" (grey), width height, scale (negative: little
// endian), then rows bottom to top.
VdMap readPfm(const std::string& path) {
    const std::string file = readInputFile(path, "displacement map", kMaxDataStreamBytes);
    TextStreamBuf buf(file);
    std::istream f(&buf);
    std::string magic;
    long long w = 0, h = 0;
    double scale = 0;
    if (!(f >> magic >> w >> h >> scale) || (magic != "PF" && magic != "Pf") || scale == 0 || !std::isfinite(scale))
        throw Error(path + ": not a PFM file (expected the header \"PF\" or \"Pf\", width, height, scale)");
    checkSize(path, w, h);
    f.get();  // the single whitespace after the scale
    const int channels = magic == "PF" ? 3 : 1;
    const bool little = scale < 0;
    uint16_t probe = 1;
    const bool hostLittle = *reinterpret_cast<uint8_t*>(&probe) == 1;
    // The bytes the header promises must be in the file before they are
    // allocated (a 15-byte file may claim 16384 x 16384 RGB texels: 3 GiB).
    const size_t bytes = size_t(w) * size_t(h) * size_t(channels) * sizeof(float);
    const std::streampos at = f.tellg();
    const size_t dataStart = at < 0 ? file.size() : size_t(at);
    const size_t have = file.size() - dataStart;
    if (have < bytes)
        throw Error(path + ": truncated PFM (" + std::to_string(have) + " of " + std::to_string(bytes) +
                    " data bytes)");
    std::vector<float> data(size_t(w) * size_t(h) * channels);
    std::memcpy(data.data(), file.data() + dataStart, bytes);
    if (little != hostLittle)
        for (float& v : data) {
            uint32_t u;
            std::memcpy(&u, &v, 4);
            u = (u >> 24) | ((u >> 8) & 0xff00u) | ((u << 8) & 0xff0000u) | (u << 24);
            std::memcpy(&v, &u, 4);
        }
    VdMap m;
    m.path = path;
    m.width = int(w);
    m.height = int(h);
    m.texels.resize(size_t(w) * size_t(h));
    for (long long y = 0; y < h; ++y)
        for (long long x = 0; x < w; ++x) {
            const float* p = &data[(size_t(h - 1 - y) * size_t(w) + size_t(x)) * channels];
            m.texels[size_t(y) * size_t(w) + size_t(x)] = channels == 3 ? Vec3{p[0], p[1], p[2]} : make3(p[0]);
        }
    return m;
}

// HDR and 16-bit PNG through the project's image loader (its header checks,
// limits and the truncated-HDR guard), without the colour conversions.
VdMap readImageMap(const std::string& path) {
    const ImageInfo info = readImageInfo(path);
    checkSize(path, info.width, info.height);  // before any pixel is decoded
    Image img = loadImageRaw(path);
    VdMap m;
    m.path = path;
    m.width = img.width;
    m.height = img.height;
    m.texels = std::move(img.pixels);
    if (!info.hdr)  // 16-bit PNG: [0, 1] -> [-1, 1]
        for (Vec3& t : m.texels) t = t * 2.0f - make3(1.0f);
    return m;
}

}  // namespace

void finishVdMap(VdMap& m) {
    if (m.width <= 0 || m.height <= 0 || m.texels.size() != size_t(m.width) * size_t(m.height))
        throw Error(m.path + ": empty displacement map");
    auto texel = [&](size_t i) {
        return m.path + ": displacement texel (" + std::to_string(i % size_t(m.width)) + ", " +
               std::to_string(i / size_t(m.width)) + ")";
    };
    double maxLen = 0;  // in double: the length of a texel near 1e20 squares past a float
    for (size_t i = 0; i < m.texels.size(); ++i) {
        const Vec3 t = m.texels[i];
        if (!isFinite(t)) throw Error(texel(i) + " is not finite (NaN or infinity)");
        const double len = std::sqrt(double(t.x) * t.x + double(t.y) * t.y + double(t.z) * t.z);
        if (len > double(FLT_MAX)) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.3g", len);
            throw Error(texel(i) + " is longer than a float holds (" + buf + ")");
        }
        maxLen = std::fmax(maxLen, len);
    }
    // Rounded up: no texel is longer than maxLength (patch boxes grow by it).
    float f = float(maxLen);
    if (double(f) < maxLen) f = std::nextafter(f, INFINITY);
    m.maxLength = f;
}

VdMap loadVdMap(const std::string& path) {
    const std::string ext = lowerExtension(path);
    VdMap m;
    if (ext == "pfm")
        m = readPfm(path);
    else if (ext == "hdr" || ext == "png")
        m = readImageMap(path);
    else
        throw Error(path + ": unsupported displacement map format '." + ext +
                    "' (expected .pfm, .hdr or a 16-bit .png)");
    finishVdMap(m);
    return m;
}

}  // namespace strata
