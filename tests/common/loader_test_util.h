// tests/common/loader_test_util.h — shared by the loader tests: a temporary
// folder that cleans up after itself, and checks on strata::Error messages.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>
#include <cstdlib>

#include "core/error.h"

namespace strata::test {

namespace fs = std::filesystem;

// The real files of ../shared/testdata (made elsewhere). Looked up beside the
// checkout, then in $STRATA_TESTDATA_DIR; empty when absent (tests skip).
inline std::string testdataFile(const std::string& name) {
    std::vector<std::string> dirs = {STRATA_TESTDATA_DIR};
    if (const char* env = std::getenv("STRATA_TESTDATA_DIR")) dirs.insert(dirs.begin(), env);
    for (const std::string& d : dirs) {
        std::string p = d + "/" + name;
        if (fs::exists(p)) return p;
    }
    return {};
}

// A file of the repository (relative to its root): under $STRATA_SOURCE_DIR
// when set, else in the checkout the test binary was built from, else under
// the working directory (a binary carried to another machine, run from its
// copy of the repository).
inline std::string sourceFile(const std::string& relative) {
    if (const char* env = std::getenv("STRATA_SOURCE_DIR")) return std::string(env) + "/" + relative;
    const std::string built = std::string(STRATA_SOURCE_DIR) + "/" + relative;
    return fs::exists(built) ? built : relative;
}

// The studio HDR of ../shared/testdata or, where it is absent, the 64 x 32
// cut of it around its brightest light shipped in tests/data
// (studio_crop.hdr; test_loaders_image.cpp checks it is that region): the
// tests that need a real HDR run on a plain clone too.
struct RealHdr {
    std::string path;
    int width = 0, height = 0;
};
inline RealHdr realStudioHdr() {
    const std::string full = testdataFile("studio_small_03_1k.hdr");
    if (!full.empty()) return {full, 1024, 512};
    return {sourceFile("tests/data/studio_crop.hdr"), 64, 32};
}

class TempDir {
public:
    TempDir() {
        std::string tmpl = (fs::temp_directory_path() / "strata-loaders-XXXXXX").string();
        if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
        path_ = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    std::string file(const std::string& name) const { return (path_ / name).string(); }
    // Writes `text` to `name` (folders created as needed) and returns its path.
    std::string write(const std::string& name, const std::string& text) const {
        fs::path p = path_ / name;
        fs::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary) << text;
        return p.string();
    }
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

// The message of the strata::Error that fn throws; a test failure (and "")
// if it throws nothing or something else.
template <typename Fn>
std::string errorOf(Fn fn) {
    try {
        fn();
    } catch (const Error& e) {
        return e.what();
    } catch (const std::exception& e) {
        ADD_FAILURE() << "expected strata::Error, got another exception: " << e.what();
        return "";
    }
    ADD_FAILURE() << "expected strata::Error, nothing was thrown";
    return "";
}

}  // namespace strata::test

// EXPECT_CONTAINS(message, part): part occurs in message.
#define EXPECT_CONTAINS(message, part)                            \
    EXPECT_NE(std::string(message).find(part), std::string::npos) \
        << "message: " << (message) << "\n   lacks: " << (part)
