// fuzz/fuzz_common.h — shared by the libFuzzer targets: a private temporary
// folder per fuzzing process (the loaders read files, so each input is written
// to a file there first) and the one rule every target checks: a loader either
// succeeds or throws strata::Error. Anything else (another exception, a crash,
// a sanitizer report, a leak, a hang) is a finding.
#pragma once

#include <stdlib.h>
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "core/error.h"
#include "scene/scene.h"

namespace strata::fuzz {

// What the mesh loaders promise of a mesh's attributes: normal and uv
// arrays empty or one per vertex, every position, normal and uv finite,
// every triangle and quad corner a vertex. Null when it holds, else what
// does not.
inline const char* meshAttributesProblem(const Mesh& m) {
    const size_t nv = m.positions.size();
    if (!m.normals.empty() && m.normals.size() != nv) return "normals size";
    if (!m.uvs.empty() && m.uvs.size() != nv) return "uvs size";
    for (const Vec3& p : m.positions)
        if (!isFinite(p)) return "a position is not finite";
    for (const Vec3& n : m.normals)
        if (!isFinite(n)) return "a normal is not finite";
    for (const Vec2& uv : m.uvs)
        if (!std::isfinite(uv.x) || !std::isfinite(uv.y)) return "a uv is not finite";
    for (const Tri& t : m.triangles)
        for (uint32_t v : t.v)
            if (v >= nv) return "vertex index out of range";
    for (const Quad& q : m.quads)
        for (uint32_t v : q.v)
            if (v >= nv) return "quad vertex index out of range";
    return nullptr;
}

class FuzzDir {
public:
    FuzzDir() {
        std::string tmpl = (std::filesystem::temp_directory_path() / "strata-fuzz-XXXXXX").string();
        if (!mkdtemp(tmpl.data())) {
            std::perror("mkdtemp");
            std::abort();
        }
        path_ = tmpl;
    }
    ~FuzzDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    std::string file(const std::string& name) const { return (path_ / name).string(); }
    std::string write(const std::string& name, const void* data, size_t size) const {
        std::string p = file(name);
        std::ofstream out(p, std::ios::binary | std::ios::trunc);
        out.write(static_cast<const char*>(data), std::streamsize(size));
        if (!out) {
            std::fprintf(stderr, "fuzz: cannot write %s\n", p.c_str());
            std::abort();
        }
        return p;
    }
    std::string write(const std::string& name, const std::string& text) const {
        return write(name, text.data(), text.size());
    }

private:
    std::filesystem::path path_;
};

// One folder for the whole process; removed at exit.
inline const FuzzDir& fuzzDir() {
    static FuzzDir dir;
    return dir;
}

// Loaders print warnings (a missing MTL file, tinyobjloader's notes) through
// std::cerr; fuzzing runs millions of inputs, so they are dropped unless
// STRATA_FUZZ_VERBOSE is set (which also prints each input's outcome). libFuzzer's and the sanitizers' own reports
// write to file descriptor 2 directly and are not affected.
inline bool verbose() {
    static const bool v = std::getenv("STRATA_FUZZ_VERBOSE") != nullptr;
    return v;
}
inline void quietWarnings() {
    if (!verbose()) std::cerr.rdbuf(nullptr);
}

// A loader's clear refusal is a correct answer; shown with STRATA_FUZZ_VERBOSE=1.
inline void refused(const strata::Error& e) {
    if (verbose()) std::fprintf(stderr, "refused: %s\n", e.what());
}
inline void accepted(const std::string& what) {
    if (verbose()) std::fprintf(stderr, "accepted: %s\n", what.c_str());
}

}  // namespace strata::fuzz
