// strata-cli sweep: a matrix of scenes x option values (--vary KEY=V1,V2,...,
// each a dimension), every cell validated against brute force before it is
// timed (a cell whose structure disagrees is marked failed, not timed; one
// the options rule out is marked refused), min / median / p95 / max per
// stage, as CSV or JSON (by --out's extension) under a metadata header
// (commit, CUDA, GPU, driver, clocks, date, command line, the matrix).
// Shards: --shard I/N runs the cells k with k % N == I; without it a Slurm
// job array's SLURM_ARRAY_TASK_ID (less SLURM_ARRAY_TASK_MIN) and
// SLURM_ARRAY_TASK_COUNT choose the shard. --gpus N runs N shards at once on
// this machine, one GPU each, and merges them. --merge joins the shards' CSV
// files into one table (the same matrix, every cell once).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include "check/checker.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/frame_runs.h"
#include "core/build_info.h"
#include "core/error.h"
#include "core/kd_opts.h"
#include "render/stages.h"
#include "scene/data_folder.h"
#include "scene/scene_loader.h"
#include "strata_version.h"
#if defined(STRATA_HAVE_CUDA)
#include "check/gpu_probe.h"
#include "gpu/device.h"
#endif

extern char** environ;

namespace strata::cli {
namespace {

struct SweepArgs {
    std::vector<std::string> scenes, vary, sets, merge;
    std::string backend, res = "1280x720", out, shard, data, gpus = "1";
    int frames = 50, warmup = 10;
    uint32_t rays = 2000;
    std::string commandLine;
};

// One dimension of the matrix: an option and its values ("accel.kd_opts=all":
// the 32 sets of Table 13.1's switches, Original first).
struct Dimension {
    std::string key;
    std::vector<std::string> values;
};

std::vector<Dimension> parseDimensions(const std::vector<std::string>& vary) {
    std::vector<Dimension> dims;
    for (const std::string& v : vary) {
        const size_t eq = v.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == v.size())
            throw Error("--vary '" + v + "': expected KEY=V1,V2,... (e.g. accel.builder=lbvh-karras,kdtree)");
        Dimension d{v.substr(0, eq), {}};
        if (!Options::find(d.key)) {
            Options probe;
            probe.set(d.key, "");  // the registry's message, with a suggestion
        }
        for (const Dimension& e : dims)
            if (e.key == d.key) throw Error("--vary: " + d.key + " is varied twice");
        std::stringstream list(v.substr(eq + 1));
        for (std::string item; std::getline(list, item, ',');) {
            if (d.key == "accel.kd_opts" && item == "all") {
                for (unsigned m = 0; m < 32; ++m) d.values.push_back(KdOpts::fromMask(m).letters());
                continue;
            }
            if (item.empty()) throw Error("--vary '" + v + "': an empty value");
            Options probe;
            probe.set(d.key, item);  // every value checked before any cell runs
            d.values.push_back(item);
        }
        dims.push_back(d);
    }
    return dims;
}

// "I/N" from --shard, else the Slurm job array's, else 0/1.
std::pair<uint32_t, uint32_t> chooseShard(const std::string& flag) {
    auto number = [](const std::string& s, const std::string& what) {
        char* end = nullptr;
        const unsigned long v = std::strtoul(s.c_str(), &end, 10);
        if (s.empty() || *end || v > 1000000) throw Error(what + ": expected a whole number, got '" + s + "'");
        return uint32_t(v);
    };
    uint32_t index = 0, count = 1;
    if (!flag.empty()) {
        const size_t slash = flag.find('/');
        if (slash == std::string::npos) throw Error("--shard: expected I/N (e.g. 0/4), got '" + flag + "'");
        index = number(flag.substr(0, slash), "--shard");
        count = number(flag.substr(slash + 1), "--shard");
    } else if (const char* id = std::getenv("SLURM_ARRAY_TASK_ID")) {
        const char* n = std::getenv("SLURM_ARRAY_TASK_COUNT");
        if (!n) throw Error("SLURM_ARRAY_TASK_ID is set without SLURM_ARRAY_TASK_COUNT");
        const char* lo = std::getenv("SLURM_ARRAY_TASK_MIN");
        const uint32_t first = lo ? number(lo, "SLURM_ARRAY_TASK_MIN") : 0;
        const uint32_t task = number(id, "SLURM_ARRAY_TASK_ID");
        if (task < first) throw Error("SLURM_ARRAY_TASK_ID is below SLURM_ARRAY_TASK_MIN");
        index = task - first;
        count = number(n, "SLURM_ARRAY_TASK_COUNT");
    }
    if (count == 0 || index >= count)
        throw Error("shard " + std::to_string(index) + " of " + std::to_string(count) + ": expected 0 <= I < N");
    return {index, count};
}

// A table: named columns, rows of text cells; written as CSV (RFC 4180
// quoting) or JSON (numbers where a cell is one), read back from CSV.
struct Table {
    std::vector<std::string> meta;  // "key: value" lines
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;
};

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

std::string toCsv(const Table& t) {
    std::string out;
    for (std::string m : t.meta) {  // one line each: a newline (a scene path may hold one) written as \n
        for (size_t i = 0; (i = m.find('\n', i)) != std::string::npos; i += 2) m.replace(i, 1, "\\n");
        out += "# " + m + "\n";
    }
    auto line = [&](const std::vector<std::string>& cells) {
        for (size_t i = 0; i < cells.size(); ++i) out += (i ? "," : "") + csvField(cells[i]);
        out += "\n";
    };
    line(t.columns);
    for (const auto& r : t.rows) line(r);
    return out;
}

// A JSON string: quotes, backslashes and control characters escaped
// (\u00XX); other bytes as they are (the scenes' paths are the file system's).
std::string jsonString(const std::string& s) {
    std::string q = "\"";
    for (char c : s) {
        const unsigned char u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            q += std::string("\\") + c;
        } else if (u < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", u);
            q += buf;
        } else {
            q += c;
        }
    }
    return q + "\"";
}

// Whether s is a number as JSON writes one: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
bool isJsonNumber(const std::string& s) {
    size_t i = 0;
    auto digits = [&] {
        const size_t from = i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
        return i - from;
    };
    if (i < s.size() && s[i] == '-') ++i;
    if (i < s.size() && s[i] == '0')
        ++i;
    else if (digits() == 0)
        return false;
    if (i < s.size() && s[i] == '.') {
        ++i;
        if (digits() == 0) return false;
    }
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
        if (digits() == 0) return false;
    }
    return i == s.size();
}

std::string toJson(const Table& t) {
    std::string out = "{\n  \"meta\": {";
    for (size_t i = 0; i < t.meta.size(); ++i) {
        const size_t colon = t.meta[i].find(": ");
        out += std::string(i ? "," : "") + "\n    " + jsonString(t.meta[i].substr(0, colon)) + ": " +
               jsonString(colon == std::string::npos ? "" : t.meta[i].substr(colon + 2));
    }
    out += "\n  },\n  \"cells\": [";
    for (size_t r = 0; r < t.rows.size(); ++r) {
        out += std::string(r ? "," : "") + "\n    {";
        for (size_t c = 0; c < t.columns.size(); ++c) {
            const std::string& v = t.rows[r][c];
            out += std::string(c ? ", " : "") + jsonString(t.columns[c]) + ": " +
                   (isJsonNumber(v) ? v
                    : v.empty()     ? std::string("null")
                                    : jsonString(v));
        }
        out += "}";
    }
    return out + "\n  ]\n}\n";
}

// One CSV record from `in` (quoted fields may hold commas and quotes).
bool readCsvRecord(std::istream& in, std::vector<std::string>& cells, const std::string& path, int& lineNo) {
    cells.clear();
    std::string line;
    if (!std::getline(in, line)) return false;
    ++lineNo;
    std::string cell;
    bool quoted = false;
    for (size_t i = 0;; ++i) {
        if (i == line.size()) {
            if (!quoted) break;
            std::string more;  // a newline inside quotes
            if (!std::getline(in, more)) throw Error(path + ":" + std::to_string(lineNo) + ": an unclosed quote");
            ++lineNo;
            cell += '\n';
            line = more;
            i = size_t(-1);
            continue;
        }
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                cell += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                cell += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            cells.push_back(cell);
            cell.clear();
        } else {
            cell += c;
        }
    }
    cells.push_back(cell);
    return true;
}

Table readCsv(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(path + ": cannot open the shard");
    Table t;
    int lineNo = 0;
    std::vector<std::string> cells;
    while (in.peek() == '#') {
        std::string line;
        std::getline(in, line);
        ++lineNo;
        t.meta.push_back(line.size() > 2 ? line.substr(2) : "");
    }
    if (!readCsvRecord(in, t.columns, path, lineNo)) throw Error(path + ": no header row (not a sweep CSV)");
    while (readCsvRecord(in, cells, path, lineNo)) {
        if (cells.size() == 1 && cells[0].empty()) continue;
        if (cells.size() != t.columns.size())
            throw Error(path + ":" + std::to_string(lineNo) + ": " + std::to_string(cells.size()) +
                        " fields, the header has " + std::to_string(t.columns.size()));
        t.rows.push_back(cells);
    }
    return t;
}

std::string metaValue(const Table& t, const std::string& key) {
    for (const std::string& m : t.meta)
        if (m.rfind(key + ": ", 0) == 0) return m.substr(key.size() + 2);
    return {};
}

void writeTable(const std::string& path, const Table& t) {
    const size_t dot = path.rfind('.');
    const std::string ext = dot == std::string::npos ? "" : path.substr(dot);
    if (ext == ".csv")
        writeFileAtomic(path, toCsv(t));
    else if (ext == ".json")
        writeFileAtomic(path, toJson(t));
    else
        throw Error("--out " + path + ": expected a .csv or .json file");
}

// The shards' tables as one: the same matrix and columns, each cell once, in cell order.
int mergeShards(const std::vector<std::string>& paths, const std::string& out) {
    if (paths.empty()) throw Error("--merge: name the shards' CSV files");
    Table all;
    std::map<long, std::vector<std::string>> cells;
    long total = -1;
    // What the shards must share: the matrix and what ran it (binary, GPU,
    // driver, clocks); the date, command and shard are each task's own.
    auto shared = [](const Table& t) {
        std::vector<std::string> m;
        for (const std::string& line : t.meta)
            if (line.rfind("shard: ", 0) != 0 && line.rfind("date: ", 0) != 0 && line.rfind("command: ", 0) != 0)
                m.push_back(line);
        return m;
    };
    for (const std::string& path : paths) {
        const Table t = readCsv(path);
        if (all.columns.empty()) {
            all.columns = t.columns;
            for (const std::string& m : t.meta)
                if (m.rfind("shard: ", 0) != 0) all.meta.push_back(m);
            const std::string n = metaValue(t, "cells");
            char* end = nullptr;
            total = std::strtol(n.c_str(), &end, 10);
            if (n.empty() || *end || total < 0) throw Error(path + ": no '# cells:' line (not a sweep shard)");
            if (all.columns.empty() || all.columns.front() != "cell") throw Error(path + ": not a sweep table");
        } else if (t.columns != all.columns || shared(t) != shared(all)) {
            throw Error(path + ": not a shard of the same sweep as " + paths.front() +
                        " (its matrix, columns, binary or GPU differ)");
        }
        for (const auto& row : t.rows) {
            char* end = nullptr;
            const long k = std::strtol(row[0].c_str(), &end, 10);
            if (row[0].empty() || *end || k < 0 || k >= total)
                throw Error(path + ": cell '" + row[0] + "' is not one of the " + std::to_string(total));
            if (!cells.emplace(k, row).second) throw Error(path + ": cell " + std::to_string(k) + " is in two shards");
        }
    }
    std::string missing;
    for (long k = 0; k < total; ++k)
        if (!cells.count(k)) missing += (missing.empty() ? "" : ", ") + std::to_string(k);
    if (!missing.empty())
        throw Error("--merge: cells " + missing + " of " + std::to_string(total) + " are in no shard");
    for (auto& [k, row] : cells) all.rows.push_back(row);
    all.meta.push_back("merged: " + std::to_string(paths.size()) + " shards");
    writeTable(out, all);
    std::printf("merged %zu shards: %zu cells into %s\n", paths.size(), all.rows.size(), out.c_str());
    return 0;
}

// Every scene with the sweep's options on top, and the output checked (its
// extension, a file that can be written), before any cell runs: a bad
// scene, value or path fails at once.
std::vector<Scene> loadSweepScenes(const SweepArgs& a, bool checkBackend = true) {
    if (a.scenes.empty()) throw Error("sweep: name the scene files (or --merge the shards)");
    if (a.out.empty()) throw Error("sweep: --out FILE.csv or FILE.json is required");
    if (a.frames < 1 || a.frames > kMaxFrames) throw Error("--frames: expected 1 to " + std::to_string(kMaxFrames));
    if (a.warmup < 0 || a.warmup > kMaxFrames) throw Error("--warmup: expected 0 to " + std::to_string(kMaxFrames));
    if (a.rays < 1 || a.rays > 10000000) throw Error("--rays: expected 1 to 10000000, got " + std::to_string(a.rays));
    parseDimensions(a.vary);
    setDataFolder(a.data);
    std::vector<Scene> scenes;
    for (const std::string& path : a.scenes) {
        Scene s = loadScene(path);
        if (!a.backend.empty()) s.options.set("render.backend", a.backend);
        setResolution(s.options, "--res", a.res);
        for (const std::string& kv : a.sets) s.options.setAssignment(kv);
        if (checkBackend) chooseBackend(s.options, WithoutGpu::Refuse);  // (--gpus: each shard checks its own)
        scenes.push_back(std::move(s));
    }
    const size_t dot = a.out.rfind('.');
    const std::string ext = dot == std::string::npos ? "" : a.out.substr(dot);
    if (ext != ".csv" && ext != ".json") throw Error("--out " + a.out + ": expected a .csv or .json file");
    OutputFile probe(a.out);  // removed again when it goes out of scope uncommitted
    return scenes;
}

// --gpus N: the matrix as N shards, one process each with one device
// (CUDA_VISIBLE_DEVICES: the i-th of those visible, else i), run at once and
// merged into --out; their files are removed. The parent opens no CUDA
// context (it counts the devices only), and everything a child needs is made
// before the fork: the child only execs. Returns 1 when a shard's cells
// failed validation, as one run would.
int runOnLocalGpus(const SweepArgs& a, uint32_t n) {
    if (!a.shard.empty() || std::getenv("SLURM_ARRAY_TASK_ID"))
        throw Error(
            "--gpus: shards the matrix itself; not with --shard or inside a Slurm job array (give each task "
            "one GPU instead)");
    const std::vector<Scene> scenes = loadSweepScenes(a, false);  // a bad scene, value or --out fails here
#if defined(STRATA_HAVE_CUDA)
    const bool cuda = std::any_of(scenes.begin(), scenes.end(),
                                  [](const Scene& s) { return s.options.render.backend == Backend::Cuda; });
    if (const int devices = cudaDeviceCount(); cuda && int(n) > devices)
        throw Error("--gpus " + std::to_string(n) + ": this machine shows " + std::to_string(devices) + " CUDA device" +
                    (devices == 1 ? "" : "s"));
#endif
    std::vector<std::string> visible;
    if (const char* v = std::getenv("CUDA_VISIBLE_DEVICES")) {
        std::stringstream list(v);
        for (std::string d; std::getline(list, d, ',');)
            if (!d.empty()) visible.push_back(d);
    }
    // Each child's arguments and environment, made here.
    struct Child {
        std::string file;
        std::vector<std::string> args, env;
        std::vector<char*> argv, envp;
        pid_t pid = -1;
    };
    std::vector<Child> children(n);
    for (uint32_t i = 0; i < n; ++i) {
        Child& c = children[i];
        c.file = a.out + ".shard" + std::to_string(i) + "-" + std::to_string(getpid()) + ".csv";
        c.args = {"strata-cli", "sweep"};
        c.args.insert(c.args.end(), a.scenes.begin(), a.scenes.end());
        for (const std::string& v : a.vary) c.args.insert(c.args.end(), {"--vary", v});
        for (const std::string& v : a.sets) c.args.insert(c.args.end(), {"--set", v});
        c.args.insert(c.args.end(), {"--res", a.res, "--frames", std::to_string(a.frames), "--warmup",
                                     std::to_string(a.warmup), "--rays", std::to_string(a.rays), "--shard",
                                     std::to_string(i) + "/" + std::to_string(n), "--out", c.file});
        if (!a.backend.empty()) c.args.insert(c.args.end(), {"--backend", a.backend});
        if (!a.data.empty()) c.args.insert(c.args.end(), {"--data", a.data});
        for (char** e = environ; *e; ++e)
            if (std::strncmp(*e, "CUDA_VISIBLE_DEVICES=", 21) != 0 &&
                std::strncmp(*e, "STRATA_SWEEP_COMMAND=", 21) != 0)
                c.env.push_back(*e);
        c.env.push_back("CUDA_VISIBLE_DEVICES=" + (i < visible.size() ? visible[i] : std::to_string(i)));
        c.env.push_back("STRATA_SWEEP_COMMAND=" + a.commandLine);  // the table records the command given
        for (std::string& x : c.args) c.argv.push_back(x.data());
        c.argv.push_back(nullptr);
        for (std::string& x : c.env) c.envp.push_back(x.data());
        c.envp.push_back(nullptr);
    }
    auto removeFiles = [&] {
        for (const Child& c : children) std::remove(c.file.c_str());
    };
    auto stopStarted = [&] {
        for (Child& c : children)
            if (c.pid > 0) {
                kill(c.pid, SIGTERM);
                while (waitpid(c.pid, nullptr, 0) < 0 && errno == EINTR) {}
                c.pid = -1;
            }
        removeFiles();
    };
    std::fflush(nullptr);
    for (uint32_t i = 0; i < n; ++i) {
        const pid_t pid = fork();
        if (pid == 0) {
            execve("/proc/self/exe", children[i].argv.data(), children[i].envp.data());
            _exit(127);  // nothing else is safe here
        }
        if (pid < 0) {
            const std::string why = std::strerror(errno);
            stopStarted();
            throw Error("--gpus: cannot start shard " + std::to_string(i) + ": " + why);
        }
        children[i].pid = pid;
    }
    int worst = 0;
    std::string why;
    for (uint32_t i = 0; i < n; ++i) {
        int status = 0;
        pid_t got;
        while ((got = waitpid(children[i].pid, &status, 0)) < 0 && errno == EINTR) {}
        children[i].pid = -1;
        const int code = got < 0 ? 255 : WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        // 1 with its table written: cells failed validation; else an error (its message is above).
        const bool wrote = std::ifstream(children[i].file).good();
        if ((code > 1 || (code == 1 && !wrote)) && why.empty())
            why = "shard " + std::to_string(i) + (code == 127 ? " could not start" : " exited " + std::to_string(code));
        worst = std::max(worst, code);
    }
    if (!why.empty()) {
        removeFiles();
        throw Error("--gpus: " + why + " (its messages are above); no table written");
    }
    std::vector<std::string> files;
    for (const Child& c : children) files.push_back(c.file);
    try {
        mergeShards(files, a.out);
    } catch (...) {
        removeFiles();
        throw;
    }
    removeFiles();
    return worst;
}

// The nearest-rank percentile p (0 < p <= 1) of a non-empty list.
double percentile(std::vector<double> v, double p) {
    std::sort(v.begin(), v.end());
    const size_t rank = std::max<size_t>(1, size_t(std::ceil(p * double(v.size()))));
    return v[std::min(rank, v.size()) - 1];
}

std::string fixed(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f", v);
    return buf;
}

std::string nowUtc() {
    const std::time_t now = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    return buf;
}

// Whether the cell's structure finds brute force's closest hits for rays of
// the scene at its start time, over the vertices as the backend posed them:
// all of them, but in instanced mode (static meshes traced in object space:
// a ray grazing an edge may take the neighbour) 0.5%, as validate allows.
// Empty when it does, else why not.
std::string validateCell(const Scene& cell, uint32_t nRays, std::string& agreed) {
    const float t = cell.options.animation.startTime;
    FlatScene flat = flattenScene(cell);
    std::vector<Vec3> pos, nrm;
    poseFlatScene(cell, flat, t, pos, nrm);
    Checker c;
    const std::vector<Ray> rays = makeRays(cell, pos, t, nRays, cell.options.render.seed);
    SceneView base = hostSceneView(cell, flat, pos, nrm, BvhView{}, CameraView{});
    std::vector<HitRecord> got;
    std::vector<Vec3> gpuPos;
#if defined(STRATA_HAVE_CUDA)
    if (cell.options.render.backend == Backend::Cuda) {
        got = traceOnGpuForValidation(cell, t, rays, &gpuPos);
        if (gpuPos.size() == pos.size()) base.geo.pos = gpuPos.data();  // brute force over the GPU's vertices
    }
#endif
    if (got.empty()) got = traceOnHostForValidation(c, cell, flat, pos, nrm, t, rays);
    const std::vector<HitRecord> ref = c.traceAll(base, rays, true);
    size_t differ = 0;
    for (size_t i = 0; i < rays.size(); ++i) differ += !sameHit(got[i], ref[i]);
    agreed = std::to_string(rays.size() - differ) + "/" + std::to_string(rays.size());
    const size_t allowed = cell.options.accel.mode == AccelMode::Instanced ? rays.size() / 200 : 0;
    if (differ > allowed)
        return std::to_string(differ) + " of " + std::to_string(rays.size()) + " rays differ from brute force";
    return {};
}

int runSweep(const SweepArgs& a) {
    uint32_t gpus = 1;
    if (a.gpus == "all") {
#if defined(STRATA_HAVE_CUDA)
        gpus = uint32_t(std::max(1, cudaDeviceCount()));
#endif
    } else {
        char* end = nullptr;
        const unsigned long g = std::strtoul(a.gpus.c_str(), &end, 10);
        if (a.gpus.empty() || *end || g < 1 || g > 64)
            throw Error("--gpus: expected 1 to 64 or all, got '" + a.gpus + "'");
        gpus = uint32_t(g);
    }
    if (gpus > 1) return runOnLocalGpus(a, gpus);
    const std::vector<Dimension> dims = parseDimensions(a.vary);
    const auto [shard, shards] = chooseShard(a.shard);
    const std::vector<Scene> scenes = loadSweepScenes(a);
    const char* parent = std::getenv("STRATA_SWEEP_COMMAND");  // a shard of --gpus: the command given
    size_t combos = 1;
    for (const Dimension& d : dims) combos *= d.values.size();
    const size_t total = scenes.size() * combos;

    Table t;
    std::string matrix = "scenes " + std::to_string(scenes.size());
    for (const std::string& s : a.scenes) matrix += " " + s;
    for (const Dimension& d : dims) {
        matrix += "; " + d.key + " =";
        for (const std::string& v : d.values) matrix += " " + v;
    }
    for (const std::string& kv : a.sets) matrix += "; set " + kv;
    matrix += "; backend " + std::string(a.backend.empty() ? "the scenes'" : a.backend.c_str()) +
              (a.data.empty() ? "" : "; data " + a.data);
    matrix += "; " + a.res + ", " + std::to_string(a.warmup) + " + " + std::to_string(a.frames) + " frames, " +
              std::to_string(a.rays) + " rays";
    t.meta = {"strata-cli: " STRATA_VERSION ", " + builtWith(),
              "date: " + nowUtc(),
              "command: " + (parent ? std::string(parent) : a.commandLine),
              "matrix: " + matrix,
              "cells: " + std::to_string(total),
              "shard: " + std::to_string(shard) + "/" + std::to_string(shards)};
#if defined(STRATA_HAVE_CUDA)
    if (scenes.front().options.render.backend == Backend::Cuda) {
        const GpuInfo g = queryGpu();
        t.meta.push_back("gpu: " + g.name + ", " + std::to_string(g.smCount) + " SMs, " +
                         std::to_string(g.totalBytes >> 20) + " MiB");
        t.meta.push_back("driver: supports CUDA " + std::to_string(g.driverCuda / 1000) + "." +
                         std::to_string(g.driverCuda % 1000 / 10));
        t.meta.push_back("clocks: SM " + std::to_string(g.clockMhz) + " MHz, memory " +
                         std::to_string(g.memoryClockMhz) + " MHz (peak)");
    }
#endif
    t.columns = {"cell", "scene"};
    for (const Dimension& d : dims) t.columns.push_back(d.key);
    for (const char* c : {"backend", "status", "validated", "frames", "triangles", "mrays_per_s"})
        t.columns.push_back(c);
    std::vector<std::string> stages = stageTable();
    stages.push_back("total");
    for (const std::string& s : stages)
        for (const char* q : {"min", "median", "p95", "max"}) t.columns.push_back(s + "_" + q + "_ms");

    std::vector<size_t> mine;
    for (size_t k = 0; k < total; ++k)
        if (k % shards == shard) mine.push_back(k);
    std::printf("sweep: %zu cells (%zu scenes x %zu option sets), shard %u/%u runs %zu\n", total, scenes.size(), combos,
                shard, shards, mine.size());
    Progress progress("sweep cell");
    int failed = 0;
    for (size_t n = 0; n < mine.size(); ++n) {
        const size_t k = mine[n];
        Scene cell = scenes[k / combos];
        std::vector<std::string> row = {std::to_string(k), a.scenes[k / combos]};
        size_t rest = k % combos;
        std::vector<std::string> chosen(dims.size());
        for (size_t d = dims.size(); d-- > 0;) {  // the last dimension varies fastest
            chosen[d] = dims[d].values[rest % dims[d].values.size()];
            rest /= dims[d].values.size();
        }
        for (size_t d = 0; d < dims.size(); ++d) row.push_back(chosen[d]);
        std::string status = "ok", agreed;
        FrameRun run;
        try {
            for (size_t d = 0; d < dims.size(); ++d) cell.options.set(dims[d].key, chosen[d]);
            cell.options.check();
            if (const std::vector<std::string> inert = cell.options.inert(); !inert.empty()) throw Error(inert.front());
        } catch (const Error& e) {
            status = std::string("refused: ") + e.what();
        }
        try {  // an error in one cell (a limit, memory) is that cell's, not the sweep's
            if (status == "ok") {
                const std::string why = validateCell(cell, a.rays, agreed);
                if (!why.empty()) {
                    status = "failed: " + why;
                    ++failed;
                }
            }
            if (status == "ok") {
                std::unique_ptr<Renderer> r = makeRenderer(cell);
                run = runFrames(*r, cell.options, a.warmup, a.frames,
                                "sweep cell " + std::to_string(n + 1) + "/" + std::to_string(mine.size()));
            }
        } catch (const Error& e) {
            status = std::string("failed: ") + e.what();
            run = FrameRun{};
            ++failed;
        }
        row.push_back(name(cell.options.render.backend));
        row.push_back(status);
        row.push_back(agreed);
        row.push_back(std::to_string(run.records.size()));
        std::vector<double> mrays;
        for (const FrameRecord& rec : run.records)
            if (rec.totalMs > 0) mrays.push_back(double(rec.rays + rec.shadowRays) / (rec.totalMs * 1e3));
        row.push_back(run.records.empty() ? "" : std::to_string(run.records.front().triangles));
        row.push_back(mrays.empty() ? "" : fixed(median(mrays)));
        for (const std::string& s : stages) {
            std::vector<double> ms;
            for (const FrameRecord& rec : run.records) ms.push_back(s == "total" ? rec.totalMs : rec.stageMs(s));
            if (ms.empty()) {
                row.insert(row.end(), 4, "");
                continue;
            }
            for (double v : {*std::min_element(ms.begin(), ms.end()), median(ms), percentile(ms, 0.95),
                             *std::max_element(ms.begin(), ms.end())})
                row.push_back(fixed(v));
        }
        t.rows.push_back(row);
        progress.update(n + 1, mine.size());
    }
    progress.finish();
    writeTable(a.out, t);
    std::printf("%zu cells written to %s%s\n", t.rows.size(), a.out.c_str(),
                failed ? (": " + std::to_string(failed) + " FAILED validation and were not timed").c_str() : "");
    return failed ? 1 : 0;
}

}  // namespace

std::function<int()> addSweepCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "sweep",
        "a matrix of scenes x option values, every cell validated against brute force before it is timed; min, "
        "median, p95 and max per stage as CSV or JSON; sharded over a Slurm job array, shards joined by --merge");
    auto a = std::make_shared<SweepArgs>();
    cmd->add_option("scenes", a->scenes, "scene files (JSON)");
    cmd->add_option("--vary", a->vary,
                    "KEY=V1,V2,...: one dimension of the matrix (repeatable; accel.kd_opts=all: the 32 sets of "
                    "[A]-[E])");
    cmd->add_option("--set", a->sets, "key=value: set any option in every cell (repeatable)");
    cmd->add_option("--out", a->out, "the table: FILE.csv or FILE.json (by the extension)");
    cmd->add_option("--res", a->res, "resolution WxH of the timed frames")->capture_default_str();
    cmd->add_option("--frames", a->frames, "timed frames per cell")->capture_default_str();
    cmd->add_option("--warmup", a->warmup, "frames rendered before timing")->capture_default_str();
    cmd->add_option("--rays", a->rays, "rays per cell compared with brute force before timing")->capture_default_str();
    cmd->add_option("--backend", a->backend, "cuda | cpu (default: the scenes')");
    cmd->add_option("--shard", a->shard,
                    "I/N: run the cells k with k % N == I (default: SLURM_ARRAY_TASK_ID less SLURM_ARRAY_TASK_MIN "
                    "of SLURM_ARRAY_TASK_COUNT, else all)");
    cmd->add_option("--merge", a->merge, "join these shards' CSV files into --out instead of running");
    cmd->add_option("--gpus", a->gpus,
                    "N or all: the matrix as N shards run at once, one GPU each (CUDA_VISIBLE_DEVICES), merged into "
                    "--out")
        ->capture_default_str();
    cmd->add_option("--data", a->data, "folder of the models scene files name as \"data:FILE\"");
    cmd->footer(
        "Status per cell: ok (validated, then timed), failed: ... (its structure disagreed with brute force: not "
        "timed; the exit status is 1), refused: ... (options that cannot run together or would do nothing).");
    return [a]() {
        a->commandLine = "strata-cli sweep";
        for (const std::string& s : a->scenes) a->commandLine += " " + s;
        for (const std::string& v : a->vary) a->commandLine += " --vary " + v;
        for (const std::string& v : a->sets) a->commandLine += " --set " + v;
        a->commandLine += " --res " + a->res + " --frames " + std::to_string(a->frames) + " --warmup " +
                          std::to_string(a->warmup) + " --rays " + std::to_string(a->rays) + " --out " + a->out;
        if (!a->backend.empty()) a->commandLine += " --backend " + a->backend;
        if (!a->data.empty()) a->commandLine += " --data " + a->data;
        if (!a->shard.empty()) a->commandLine += " --shard " + a->shard;
        if (a->gpus != "1") a->commandLine += " --gpus " + a->gpus;
        if (!a->merge.empty() && a->out.empty()) throw Error("--merge: --out FILE.csv or FILE.json is required");
        return a->merge.empty() ? runSweep(*a) : mergeShards(a->merge, a->out);
    };
}

}  // namespace strata::cli
