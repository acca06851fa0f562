// scene/obj_prescan.cpp — see obj_prescan.h. Reads the file once into memory
// and walks it twice: numbers and totals first, then face indices (positive
// indices may refer to vertices defined later in the file, as tinyobjloader
// allows; negative ones are relative to the vertices defined so far).
#include "scene/obj_prescan.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.h"

namespace strata {
namespace {

constexpr float kMaxObjCoordinate = 1e18f;  // kMaxSceneCoordinate (scene_build.h)

std::string readWholeFile(const std::string& path) {
    std::error_code ec;  // the overloads that throw would escape as std::filesystem_error
    if (std::filesystem::is_directory(path, ec)) throw Error(path + ": cannot open OBJ file: it is a directory");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(path + ": cannot open OBJ file: " + std::strerror(errno));
    std::ostringstream s;
    s << in.rdbuf();
    if (in.bad()) throw Error(path + ": cannot read OBJ file: " + std::strerror(errno));
    return s.str();
}

// Calls fn(lineNumber, tokens) for every non-empty line, comments removed.
template <typename Fn>
void forEachLine(const std::string& text, Fn fn) {
    size_t pos = 0;
    int lineNo = 0;
    std::vector<std::string> tokens;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string::npos) end = text.size();
        ++lineNo;
        std::string line = text.substr(pos, end - pos);
        pos = end + 1;
        size_t hash = line.find('#');
        if (hash != std::string::npos) line.resize(hash);
        tokens.clear();
        size_t i = 0;
        while (i < line.size()) {
            while (i < line.size() && std::strchr(" \t\r", line[i])) ++i;
            size_t start = i;
            while (i < line.size() && !std::strchr(" \t\r", line[i])) ++i;
            if (i > start) tokens.push_back(line.substr(start, i - start));
        }
        if (!tokens.empty()) fn(lineNo, tokens);
    }
}

class Scanner {
public:
    explicit Scanner(const std::string& path) : path_(path) {}

    // maxAbs bounds the first minCount numbers (positions: squares must fit a float).
    void numbers(int line, const std::vector<std::string>& t, size_t minCount, float maxAbs = INFINITY) {
        if (t.size() - 1 < minCount) {
            fail(line, t[0] + ": expected " + std::to_string(minCount) + " numbers, got " +
                           std::to_string(t.size() - 1));
        }
        for (size_t i = 1; i < t.size(); ++i) {
            char* end = nullptr;
            float v = std::strtof(t[i].c_str(), &end);  // overflow gives inf, caught below
            if (end == t[i].c_str() || *end != '\0') fail(line, t[0] + ": '" + t[i] + "' is not a number");
            if (!std::isfinite(v))
                fail(line, t[0] + ": '" + t[i] + "' is not a finite number");
            if (i <= minCount && !(std::fabs(v) <= maxAbs))
                fail(line, t[0] + ": '" + t[i] + "' is beyond +-1e18 (intersection tests square coordinates)");
        }
    }

    // One "v", "v/vt", "v//vn" or "v/vt/vn" reference of an f line.
    void faceVertex(int line, const std::string& tok, const size_t soFar[3], const size_t total[3]) {
        static const char* what[3] = {"vertex", "texture coordinate", "normal"};
        size_t part = 0, start = 0;
        while (true) {
            size_t slash = tok.find('/', start);
            std::string s = tok.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
            if (part > 2 || (s.empty() && part != 1) || (s.empty() && slash == std::string::npos))
                fail(line, "f: '" + tok + "' is not a vertex reference (expected v, v/vt, v//vn or v/vt/vn)");
            if (!s.empty()) index(line, tok, s, what[part], soFar[part], total[part]);
            if (slash == std::string::npos) break;
            start = slash + 1;
            ++part;
        }
    }

    [[noreturn]] void fail(int line, const std::string& msg) const {
        throw Error(path_ + ":" + std::to_string(line) + ": " + msg);
    }

private:
    void index(int line, const std::string& tok, const std::string& s, const char* what, size_t soFar, size_t total) {
        errno = 0;
        char* end = nullptr;
        long long v = std::strtoll(s.c_str(), &end, 10);
        if (*end != '\0' || errno == ERANGE)
            fail(line, "f: '" + tok + "' is not a vertex reference (expected v, v/vt, v//vn or v/vt/vn)");
        std::string in = tok == s ? "" : " in '" + tok + "'";
        if (v == 0) fail(line, "f: " + std::string(what) + " index 0" + in + " (OBJ indices start at 1)");
        if (v > 0 && size_t(v) > total) {
            fail(line, "f: " + std::string(what) + " index " + std::to_string(v) + in +
                           " is out of range (the file defines " + std::to_string(total) + ")");
        }
        if (v < 0 && size_t(-v) > soFar) {
            fail(line, "f: relative " + std::string(what) + " index " + std::to_string(v) + in +
                           " is out of range (" + std::to_string(soFar) + " defined before this line)");
        }
    }

    const std::string& path_;
};

}  // namespace

ObjPrescan prescanObj(const std::string& path) {
    std::string text = readWholeFile(path);
    Scanner scan(path);
    ObjPrescan out;
    forEachLine(text, [&](int line, const std::vector<std::string>& t) {
        if (t[0] == "v") scan.numbers(line, t, 3, kMaxObjCoordinate), ++out.positions;
        else if (t[0] == "vn") scan.numbers(line, t, 3), ++out.normals;
        else if (t[0] == "vt") scan.numbers(line, t, 1), ++out.texcoords;
        else if (t[0] == "mtllib")
            for (size_t i = 1; i < t.size(); ++i) out.materialLibraries.push_back({line, t[i]});
    });
    const size_t total[3] = {out.positions, out.texcoords, out.normals};
    size_t soFar[3] = {0, 0, 0};
    forEachLine(text, [&](int line, const std::vector<std::string>& t) {
        if (t[0] == "v") ++soFar[0];
        else if (t[0] == "vt") ++soFar[1];
        else if (t[0] == "vn") ++soFar[2];
        else if (t[0] == "f") {
            if (t.size() < 4)
                scan.fail(line, "f: a face needs at least 3 vertices, got " + std::to_string(t.size() - 1));
            for (size_t i = 1; i < t.size(); ++i) scan.faceVertex(line, t[i], soFar, total);
            ++out.faces;
        }
    });
    return out;
}

}  // namespace strata
