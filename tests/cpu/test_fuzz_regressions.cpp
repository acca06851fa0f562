// Every input the fuzz targets (fuzz/) found a crash, hang or contract breach
// with, kept in tests/data/fuzz/TARGET/ (and in fuzz/corpus/TARGET/): each
// must now load cleanly or give a strata::Error with the expected message.
// Every file there needs an entry below, so a new finding cannot go untested.
#include <chrono>
#include <cmath>
#include <map>

#include "loader_test_util.h"
#include "scene/gltf_loader.h"
#include "scene/image_io.h"
#include "scene/obj_loader.h"
#include "scene/ply_loader.h"
#include "scene/scene_loader.h"
#include "scene/vd_map.h"

using namespace strata;
using namespace strata::test;

namespace {

const std::string kDir = std::string(STRATA_SOURCE_DIR) + "/tests/data/fuzz/";

// File (under tests/data/fuzz/) -> a part of the expected error message, or
// "" where the input must load.
const std::map<std::string, std::string> kExpected = {
    // stb_image 2.27 wrote past a Huffman table (UBSan: index 257 out of
    // bounds), then shifted by 32 bits; JPEG now goes through libjpeg-turbo.
    {"image/jpeg_dht_553_codes.jpg", "cannot read JPEG: Bogus Huffman table"},
    {"image/jpeg_huffman_shift_ub.jpg", "cannot read JPEG: Corrupt JPEG data"},
    // stb_image 2.27 looped forever on run-length data that ends early.
    {"image/hdr_truncated_rle.hdr", "cannot read HDR image: truncated: the pixel data ends in scanline 1 of 3"},
    {"image/hdr_zero_runs.hdr", "cannot read HDR image: truncated: the pixel data ends in scanline 0 of 2"},
    // stb_image 2.27 allocated 2 GiB for an IDAT chunk longer than the file,
    // and memcpy'd to a null pointer (UBSan) for an empty IDAT before any data.
    {"image/png_idat_claims_2gib.png",
     "cannot read image: corrupt PNG: chunk 'IDAT' at byte 33 claims 2147483647 bytes, 75 follow"},
    {"image/png_empty_idat_first.png", ""},
    // std::filesystem threw filesystem_error (name too long) out of the loader.
    {"obj/mtllib_name_too_long.obj", ""},
    // tinyobjloader converted a vertex weight's joint id 1e182 to int (UBSan:
    // inf outside the range of int); the pre-scan checks vw lines now.
    {"obj/vw_joint_id_beyond_int.obj", "vw_joint_id_beyond_int.obj:2: vw: '0m*1' is not a decimal number"},
    {"obj/vw_joint_id_1e182.obj", "vw_joint_id_1e182.obj:4: vw: '01e182' is not a finite number (beyond a float)"},
    {"obj/vw_joint_id_3e9.obj", "vw_joint_id_3e9.obj:4: vw: '3e9' is beyond an index (1e9)"},
    // ... and past a '#', where the pre-scan's checks stop (`vw #1 3e9`):
    // vw lines are blanked in the text tinyobjloader parses.
    {"obj/vw_after_comment_3e9.obj", ""},
    {"scene/obj_name_too_long.json", "File name too long"},
    // Coordinates whose squares overflow a float (NaN/inf vertices, found by
    // the scene target's posing check).
    {"obj/vertex_beyond_1e18.obj", ":2: v: '3e20' is beyond +-1e18"},
    {"scene/instance_translate_overflow.json", "instances[0]: places mesh 'c' at coordinates up to"},
    {"scene/animation_key_overflow.json", "instances[0].animation.keys[0]: places mesh 'c'"},
    {"scene/camera_far.json", "camera.position: coordinate 1e+30 is beyond"},
    // The VD map loader called stb directly and hung on a truncated HDR (its
    // first fuzz input: the testdata map cut at 64 KiB; kept here as the small
    // synthetic file of the same kind) like the image loader once did; it now
    // goes through the image loader's checks.
    // A texel of 1.6e29: its float length overflowed, so maxLength was
    // inf; computed in double (and rounded up) it now bounds every texel.
    {"vdmap/texel_length_beyond_float.pfm", ""},
    // A texel of length 4.2e38: beyond what maxLength (a float) can bound.
    {"vdmap/texel_longer_than_a_float.pfm", "displacement texel (0, 0) is longer than a float holds (4.16e+38)"},
    {"vdmap/truncated_hdr.hdr", "cannot read HDR image: truncated: the pixel data ends in scanline 1 of 3"},
    // tinygltf 2.7.0 hands an image's buffer view to the image callback
    // without checking it lies inside its buffer (ASan: a read past the
    // buffer); strata's callback checks it now.
    {"gltf/image_view_beyond_buffer.glb", "its buffer view lies beyond its buffer"},
    // ... and, before the callback, takes &buffer.data[byteOffset] unchecked
    // (libstdc++'s assertions abort on the out-of-range operator[]); the
    // views of images are checked against the declared buffers first.
    {"gltf/image_view_offset_past_buffer.gltf", "its buffer view lies beyond its buffer"},
    // The PLY loader looped over the 7.7e18 items of an element without
    // properties (they take no bytes, so the data never ran out): a header
    // line "element NAME COUNT" with words after it is refused, and an
    // element without properties is skipped.
    {"ply/element_count_without_properties.ply", ":3: expected 'element NAME COUNT'"},
    {"ply/element_without_properties_huge_count.ply", ""},
    // A face's vertex index of 4.4e49 was cast to long long for the error
    // message (undefined; UBSan in CI's fuzz smoke run): it is formatted as
    // the double it is.
    {"ply/vertex_index_past_long_long.ply",
     ":23: vertex index 4.4444444444444443e+49 of face 3 out of range (8 vertices)"},
};

// Loads `file` with its target's loader; "" on success, else the Error's text.
// Anything but strata::Error escapes and fails the test.
std::string load(const std::string& file) {
    const std::string target = file.substr(0, file.find('/'));
    try {
        if (target == "image") {
            loadImage(kDir + file);
        } else if (target == "vdmap") {
            const VdMap m = loadVdMap(kDir + file);
            for (const Vec3& t : m.texels)  // the contract fuzz_vdmap checks
                if (std::sqrt(double(t.x) * t.x + double(t.y) * t.y + double(t.z) * t.z) > double(m.maxLength))
                    return "a texel is longer than maxLength";
        } else if (target == "gltf") {
            loadGltf(kDir + file);
        } else if (target == "ply") {
            loadPly(kDir + file);
        } else if (target == "obj") {
            std::vector<std::string> textures;
            loadObj(kDir + file, &textures);
        } else {
            // Beside the files the fuzz target's scenes refer to.
            TempDir dir;
            fs::copy_file(std::string(STRATA_SOURCE_DIR) + "/tests/data/cube.obj", dir.file("cube.obj"));
            fs::copy_file(std::string(STRATA_SOURCE_DIR) + "/tests/data/cube.mtl", dir.file("cube.mtl"));
            fs::copy_file(kDir + file, dir.file("scene.json"));
            loadScene(dir.file("scene.json"));
        }
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(FuzzRegressions, EveryKeptInputLoadsOrGivesItsError) {
    for (const auto& [file, expected] : kExpected) {
        SCOPED_TRACE(file);
        auto start = std::chrono::steady_clock::now();
        std::string msg = load(file);
        double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        EXPECT_LT(seconds, 5.0) << "a hang, fixed or not";
        if (expected.empty()) {
            EXPECT_EQ(msg, "");
        } else {
            EXPECT_CONTAINS(msg, expected);
            EXPECT_CONTAINS(msg, file.substr(0, 5) == "scene" ? "scene.json" : kDir + file);  // names the file
        }
    }
}

TEST(FuzzRegressions, EveryFileInTheFolderHasAnExpectation) {
    size_t files = 0;
    for (const auto& e : fs::recursive_directory_iterator(kDir)) {
        if (!e.is_regular_file()) continue;
        ++files;
        std::string rel = fs::relative(e.path(), kDir).string();
        EXPECT_TRUE(kExpected.count(rel)) << rel << " has no entry in kExpected";
    }
    EXPECT_EQ(files, kExpected.size());
}
