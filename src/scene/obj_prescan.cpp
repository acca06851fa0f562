// scene/obj_prescan.cpp — see obj_prescan.h. Reads the file once into memory
// (the loader then parses the same text) and walks it twice: numbers and totals first, then face indices (positive
// indices may refer to vertices defined later in the file, as tinyobjloader
// allows; negative ones are relative to the vertices defined so far).
#include "scene/obj_prescan.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "core/error.h"
#include "core/input_file.h"

namespace strata {
namespace {

constexpr float kMaxObjCoordinate = 1e18f;  // kMaxSceneCoordinate (scene_build.h)

// Calls fn(lineNumber, tokens) for every non-empty line, comments removed.
// A line ends at LF, CR LF or a bare CR, as tinyobjloader reads it (text
// after a bare CR is a line of its own, and is checked as one).
template <typename Fn>
void forEachLine(const std::string& text, Fn fn) {
    size_t pos = 0;
    int lineNo = 0;
    std::vector<std::string> tokens;
    while (pos < text.size()) {
        size_t end = text.find_first_of("\r\n", pos);
        if (end == std::string::npos) end = text.size();
        ++lineNo;
        std::string line = text.substr(pos, end - pos);
        pos = end + (text.compare(end, 2, "\r\n") == 0 ? 2 : 1);
        size_t hash = line.find('#');
        if (hash != std::string::npos) line.resize(hash);
        tokens.clear();
        size_t i = 0;
        while (i < line.size()) {
            while (i < line.size() && std::strchr(" \t", line[i])) ++i;
            size_t start = i;
            while (i < line.size() && !std::strchr(" \t", line[i])) ++i;
            if (i > start) tokens.push_back(line.substr(start, i - start));
        }
        if (!tokens.empty()) fn(lineNo, tokens);
    }
}

// A decimal number as tinyobjloader reads one: sign, digits with an
// optional point, an optional exponent (at most 308). strtof would also take
// hexadecimal ("0x1p3"), which tinyobjloader reads as 0.
enum class Decimal { Ok, NotDecimal, HugeExponent };
Decimal decimalForm(const std::string& t) {
    size_t i = 0, digits = 0;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    for (; i < t.size() && std::isdigit((unsigned char)t[i]); ++i) ++digits;
    if (i < t.size() && t[i] == '.')
        for (++i; i < t.size() && std::isdigit((unsigned char)t[i]); ++i) ++digits;
    if (digits == 0) return Decimal::NotDecimal;
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        const bool negative = i < t.size() && t[i] == '-';
        if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
        size_t expDigits = 0;
        long exponent = 0;
        for (; i < t.size() && std::isdigit((unsigned char)t[i]); ++i, ++expDigits)
            exponent = std::min(100000L, exponent * 10 + (t[i] - '0'));
        if (expDigits == 0) return Decimal::NotDecimal;
        // tinyobjloader scales by pow(10, exponent) in double: beyond 308 that
        // is infinite, and "0e500" becomes 0 * inf = NaN.
        if (!negative && exponent > 308) return Decimal::HugeExponent;
    }
    return i == t.size() ? Decimal::Ok : Decimal::NotDecimal;
}

class Scanner {
public:
    explicit Scanner(const std::string& path) : path_(path) {}

    // maxAbs bounds the first minCount numbers (positions: squares must fit a float).
    void numbers(int line, const std::vector<std::string>& t, size_t minCount, float maxAbs = INFINITY) {
        if (t.size() - 1 < minCount) {
            fail(line,
                 t[0] + ": expected " + std::to_string(minCount) + " numbers, got " + std::to_string(t.size() - 1));
        }
        for (size_t i = 1; i < t.size(); ++i) {
            number(line, t[0], t[i]);
            const float v = std::strtof(t[i].c_str(), nullptr);
            if (i <= minCount && !(std::fabs(v) <= maxAbs))
                fail(line, t[0] + ": '" + t[i] + "' is beyond +-1e18 (intersection tests square coordinates)");
        }
    }

    // A "vw VERTEX JOINT WEIGHT ..." line (vertex weights, unused by strata):
    // tinyobjloader converts the joint ids to int, so every number must be
    // decimal and the ids within an int (a fuzzer's 1e182 was undefined
    // behaviour there).
    void vertexWeights(int line, const std::vector<std::string>& t) const {
        for (size_t i = 1; i < t.size(); ++i) {
            number(line, t[0], t[i]);
            const bool id = i == 1 || i % 2 == 0;  // the vertex, then joint id / weight pairs
            if (id && !(std::fabs(std::strtof(t[i].c_str(), nullptr)) <= 1e9f))
                fail(line, t[0] + ": '" + t[i] + "' is beyond an index (1e9)");
        }
    }

    // One number of a `key` line: decimal and finite as a float.
    void number(int line, const std::string& key, const std::string& tok) const {
        const Decimal form = decimalForm(tok);
        if (form == Decimal::HugeExponent) fail(line, key + ": '" + tok + "' has an exponent beyond 308");
        if (form == Decimal::NotDecimal) {
            std::string bare = tok.substr(tok[0] == '-' || tok[0] == '+' ? 1 : 0);
            for (char& c : bare) c = char(std::tolower((unsigned char)c));
            const bool word = bare == "nan" || bare == "inf" || bare == "infinity";
            fail(line, key + ": '" + tok + "' is not " + (word ? "a finite number" : "a decimal number"));
        }
        if (!std::isfinite(std::strtof(tok.c_str(), nullptr)))  // overflow gives inf
            fail(line, key + ": '" + tok + "' is not a finite number (beyond a float)");
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
            fail(line, "f: relative " + std::string(what) + " index " + std::to_string(v) + in + " is out of range (" +
                           std::to_string(soFar) + " defined before this line)");
        }
    }

    const std::string& path_;
};

}  // namespace

// Another format given as OBJ (tinyobjloader would read it as an OBJ
// without faces): its name, or null.
static const char* otherMeshFormat(const std::string& text) {
    if (text.compare(0, 4, "glTF") == 0) return "a binary glTF (.glb) file";
    const size_t first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && text[first] == '{') {
        const bool gltf = text.find("\"asset\"", first) != std::string::npos;
        return gltf ? "a glTF (.gltf) file" : "a JSON file";
    }
    if (text.compare(0, 3, "ply") == 0) return "a PLY file";
    return nullptr;
}

// Blanks every `vw` line (vertex weights, which strata does not read) in
// the text tinyobjloader parses, keeping the line breaks: tinyobjloader
// reads a vw line's numbers past a '#' (`vw #1 3e9` converted 3e9 to int:
// UBSan in CI's fuzz run), where the pre-scan's checks stop at the comment.
static void blankVertexWeights(std::string& text) {
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find_first_of("\r\n", pos);
        if (end == std::string::npos) end = text.size();
        const size_t key = text.find_first_not_of(" \t", pos);
        if (key < end && text.compare(key, 2, "vw") == 0 &&
            (key + 2 == end || text[key + 2] == ' ' || text[key + 2] == '\t'))
            std::fill(text.begin() + std::ptrdiff_t(key), text.begin() + std::ptrdiff_t(end), ' ');
        pos = end + 1;
    }
}

ObjPrescan prescanObj(const std::string& path) {
    ObjPrescan out;
    out.text = readInputFile(path, "OBJ file", kMaxDataStreamBytes);
    const std::string& text = out.text;
    if (const char* other = otherMeshFormat(text))
        throw Error(path + ": this is " + other + ", not a Wavefront OBJ (strata reads meshes from OBJ files)");
    Scanner scan(path);
    forEachLine(text, [&](int line, const std::vector<std::string>& t) {
        if (t[0] == "v")
            scan.numbers(line, t, 3, kMaxObjCoordinate), ++out.positions;
        else if (t[0] == "vn")
            scan.numbers(line, t, 3), ++out.normals;
        else if (t[0] == "vt")
            scan.numbers(line, t, 1), ++out.texcoords;
        else if (t[0] == "mtllib")
            for (size_t i = 1; i < t.size(); ++i) out.materialLibraries.push_back({line, t[i]});
        else if (t[0] == "vw")
            scan.vertexWeights(line, t);
    });
    const size_t total[3] = {out.positions, out.texcoords, out.normals};
    size_t soFar[3] = {0, 0, 0};
    forEachLine(text, [&](int line, const std::vector<std::string>& t) {
        if (t[0] == "v")
            ++soFar[0];
        else if (t[0] == "vt")
            ++soFar[1];
        else if (t[0] == "vn")
            ++soFar[2];
        else if (t[0] == "f") {
            if (t.size() < 4)
                scan.fail(line, "f: a face needs at least 3 vertices, got " + std::to_string(t.size() - 1));
            for (size_t i = 1; i < t.size(); ++i) scan.faceVertex(line, t[i], soFar, total);
            ++out.faces;
        }
    });
    blankVertexWeights(out.text);
    return out;
}

std::string prescanMtl(const std::string& path) {
    std::string text = readInputFile(path, "MTL file", kMaxTextStreamBytes);
    Scanner scan(path);
    static const char* numeric[] = {"Ka", "Kd", "Ks", "Ke", "Kt",  "Tf",    "Ns",     "Ni",    "d",        "Tr",
                                    "Pr", "Pm", "Ps", "Pc", "Pcr", "aniso", "anisor", "illum", "sharpness"};
    forEachLine(text, [&](int line, const std::vector<std::string>& t) {
        if (std::find(std::begin(numeric), std::end(numeric), t[0]) == std::end(numeric)) return;
        for (size_t i = 1; i < t.size(); ++i) {
            // Options ("-halo") and keywords ("Tf xyz", "Tf spectral FILE") are words.
            // tinyobjloader reads every token here as a number: options
            // ("d -halo 0.5") and keywords ("Tf xyz ...") become 0 as well.
            scan.number(line, t[0], t[i]);
        }
    });
    return text;
}

}  // namespace strata
