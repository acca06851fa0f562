// Image I/O: the real HDR test file, PNG round trips, atomic writes, bad files.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "loader_test_util.h"
#include "png_bytes.h"
#include "scene/image_io.h"

using namespace strata;
using namespace strata::test;

namespace {

// The sRGB decoding curve, written out independently of the loader.
double srgbToLinear(double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); }

std::vector<uint8_t> testPattern(int w, int h) {
    std::vector<uint8_t> rgb(size_t(w) * h * 3);
    for (size_t i = 0; i < rgb.size(); ++i) rgb[i] = uint8_t((i * 37 + 11) % 256);
    return rgb;
}

bool hasTempFiles(const fs::path& dir) {
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().filename().string().find(".tmp") != std::string::npos) return true;
    return false;
}

}  // namespace

TEST(ImageIo, LoadsTheTestdataHdr) {
    const RealHdr hdr = realStudioHdr();  // the whole file, or the crop shipped in tests/data
    const std::string& path = hdr.path;
    Image img = loadImage(path);
    EXPECT_EQ(img.width, hdr.width);
    EXPECT_EQ(img.height, hdr.height);
    EXPECT_EQ(img.path, path);
    ASSERT_EQ(img.pixels.size(), size_t(hdr.width) * size_t(hdr.height));
    float maxValue = 0;
    for (const Vec3& p : img.pixels) {
        ASSERT_TRUE(isFinite(p));
        ASSERT_GE(minComponent(p), 0.0f);
        maxValue = std::fmax(maxValue, maxComponent(p));
    }
    EXPECT_GT(maxValue, 1.0f);  // a studio HDR has lights brighter than white
}

namespace {

// FNV-1a over the decoded floats' bits: the crop's pixels as they were when
// checked against the real file (kCropPixelsHash below).
uint64_t pixelsHash(const Image& img) {
    uint64_t h = 1469598103934665603ull;
    for (const Vec3& p : img.pixels)
        for (int c = 0; c < 3; ++c) {
            const float f = p[c];
            uint32_t bits;
            std::memcpy(&bits, &f, 4);
            for (int k = 0; k < 4; ++k) h = (h ^ ((bits >> (8 * k)) & 0xffu)) * 1099511628211ull;
        }
    return h;
}

}  // namespace

// tests/data/studio_crop.hdr is the real file's region (oiiotool's --cut
// 64x32+204+118, around its brightest light), value for value where the real
// file is present; on a plain clone, the same pixels as when that was checked.
TEST(ImageIo, TheShippedCropIsTheTestdataHdrsRegion) {
    constexpr uint64_t kCropPixelsHash = 17636129483005672605ull;
    const Image crop = loadImage(sourceFile("tests/data/studio_crop.hdr"));
    ASSERT_EQ(crop.width, 64);
    ASSERT_EQ(crop.height, 32);
    EXPECT_EQ(pixelsHash(crop), kCropPixelsHash);
    const std::string path = testdataFile("studio_small_03_1k.hdr");
    if (path.empty()) return;  // the hash above stands for the region
    const Image full = loadImage(path);
    for (int y = 0; y < 32; ++y)
        for (int x = 0; x < 64; ++x)
            for (int c = 0; c < 3; ++c)
                ASSERT_EQ(crop.pixels[size_t(y) * 64 + size_t(x)][c],
                          full.pixels[size_t(y + 118) * 1024 + size_t(x + 204)][c])
                    << x << ", " << y;
}

TEST(ImageIo, PngRoundTripGivesBackLinearPixels) {
    TempDir dir;
    const int w = 7, h = 5;
    std::vector<uint8_t> rgb = testPattern(w, h);
    std::string path = dir.file("pattern.png");
    writePngAtomic(path, w, h, rgb);
    EXPECT_FALSE(hasTempFiles(dir.path()));
    Image img = loadImage(path);
    ASSERT_EQ(img.width, w);
    ASSERT_EQ(img.height, h);
    for (size_t i = 0; i < size_t(w) * h; ++i)
        for (int c = 0; c < 3; ++c)
            ASSERT_NEAR(img.pixels[i][c], srgbToLinear(rgb[3 * i + c] / 255.0), 1e-5) << "pixel " << i;
}

TEST(ImageIo, PngWriteReplacesAnExistingFile) {
    TempDir dir;
    std::string path = dir.write("out.png", "old contents");
    writePngAtomic(path, 2, 2, testPattern(2, 2));
    EXPECT_EQ(loadImage(path).width, 2);
    EXPECT_FALSE(hasTempFiles(dir.path()));
}

TEST(ImageIo, FailedPngWriteLeavesNoFile) {
    TempDir dir;
    std::string missingFolder = dir.file("no/such/folder/out.png");
    std::string msg = errorOf([&] { writePngAtomic(missingFolder, 2, 2, testPattern(2, 2)); });
    EXPECT_CONTAINS(msg, missingFolder);
    EXPECT_FALSE(fs::exists(missingFolder));
    EXPECT_FALSE(fs::exists(dir.file("no")));

    // The write succeeds but the rename fails (the target is a folder): the
    // temporary file must be gone.
    fs::create_directory(dir.file("taken.png"));
    msg = errorOf([&] { writePngAtomic(dir.file("taken.png"), 2, 2, testPattern(2, 2)); });
    EXPECT_CONTAINS(msg, dir.file("taken.png"));
    EXPECT_FALSE(hasTempFiles(dir.path()));
}

TEST(ImageIo, PngWriteRejectsAWrongBufferSize) {
    TempDir dir;
    std::string msg = errorOf([&] { writePngAtomic(dir.file("a.png"), 3, 3, testPattern(2, 2)); });
    EXPECT_CONTAINS(msg, dir.file("a.png"));
    EXPECT_FALSE(fs::exists(dir.file("a.png")));
}

TEST(ImageIo, MissingTruncatedAndGarbageFilesNameTheFile) {
    TempDir dir;
    std::string missing = dir.file("missing.png");
    std::string msg = errorOf([&] { loadImage(missing); });
    EXPECT_CONTAINS(msg, missing);
    EXPECT_CONTAINS(msg, "No such file");

    std::string garbage = dir.write("garbage.png", "this is not an image at all, just text");
    msg = errorOf([&] { loadImage(garbage); });
    EXPECT_CONTAINS(msg, garbage);
    EXPECT_CONTAINS(msg, "cannot read image");

    std::string good = dir.file("good.png");
    writePngAtomic(good, 16, 16, testPattern(16, 16));
    std::string bytes;
    {
        std::ifstream in(good, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    ASSERT_GT(bytes.size(), 60u);
    std::string truncated = dir.write("truncated.png", bytes.substr(0, bytes.size() / 2));
    msg = errorOf([&] { loadImage(truncated); });
    EXPECT_CONTAINS(msg, truncated);
    // Cut 3 bytes into the chunk after IHDR (signature 8 + IHDR chunk 25): its header is incomplete.
    std::string cut = dir.write("cut.png", bytes.substr(0, 8 + 25 + 3));
    EXPECT_CONTAINS(errorOf([&] { loadImage(cut); }), "the file ends 3 bytes into a chunk header at byte 33");

    std::string empty = dir.write("empty.hdr", "");
    msg = errorOf([&] { loadImage(empty); });
    EXPECT_CONTAINS(msg, empty);
}

TEST(ImageIo, RejectsImagesWiderThan32768) {
    // A PNG signature and a well-formed IHDR chunk claiming 40000 x 1 pixels:
    // enough for the size check, which must come before any decoding.
    std::string png = pngHeader(40000, 1);
    TempDir dir;
    std::string path = dir.write("wide.png", png);
    std::string msg = errorOf([&] { loadImage(path); });
    EXPECT_CONTAINS(msg, path);
    EXPECT_CONTAINS(msg, "40000x1");
    EXPECT_CONTAINS(msg, "32768");
}
