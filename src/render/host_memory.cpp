// render/host_memory.cpp — see host_memory.h.
#include "render/host_memory.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "accel/leaf_tris.h"
#include "core/error.h"
#include "render/path_storage.h"
#include "render/vd_memory.h"

namespace strata {
namespace {

constexpr size_t kMiB = size_t(1) << 20;

// Per flattened triangle: Tri, material, world bounds, and posed vertex data
// (position, normal, uv; about two vertices per triangle).
constexpr size_t kFlatBytesPerTriangle = 12 + 4 + 24 + 2 * 32;
// Per triangle for the structure and its builder's temporaries: a binary
// BVH's 2n nodes, primitive order, Morton codes and sort buffers; a
// kd-tree's node and reference budgets (kd_rules.h: 8 per triangle) and its
// large-node stage's clipped references.
constexpr size_t kBvhBytesPerTriangle = 128, kKdBytesPerTriangle = 320;
// Per pixel beside the path buffers: the film read back as 8-bit and as
// float radiance.
constexpr size_t kImageBytesPerPixel = 3 + 12;

// The process's mapped bytes (VmSize), for the address-space limit.
size_t mappedBytes() {
    std::ifstream f("/proc/self/statm");
    size_t pages = 0;
    f >> pages;
    return pages * size_t(sysconf(_SC_PAGESIZE));
}

}  // namespace

size_t availableHostBytes(std::string* source) {
    size_t avail = 0;
    std::string from;
    std::ifstream mi("/proc/meminfo");
    std::string line;
    while (std::getline(mi, line))
        if (line.rfind("MemAvailable:", 0) == 0) {
            std::istringstream s(line.substr(13));
            size_t kb = 0;
            if (s >> kb) avail = kb * 1024, from = "MemAvailable";
        }
    rlimit as{};
    if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) {
        const size_t used = mappedBytes(), cap = size_t(as.rlim_cur);
        const size_t left = cap > used ? cap - used : 0;
        if (from.empty() || left < avail) avail = left, from = "the address-space limit (ulimit -v)";
    }
    // A container's memory limit (cgroup v2): what is left under memory.max,
    // its page cache counted as free (the kernel reclaims it first).
    std::ifstream maxFile("/sys/fs/cgroup/memory.max"), currentFile("/sys/fs/cgroup/memory.current");
    std::string maxText;
    size_t current = 0;
    if (maxFile >> maxText && maxText != "max" && currentFile >> current) {
        std::ifstream stat("/sys/fs/cgroup/memory.stat");
        std::string key;
        size_t value = 0, cache = 0;
        while (stat >> key >> value)
            if (key == "file") cache = value;
        const size_t used = current > cache ? current - cache : 0;
        const size_t cap = size_t(std::strtoull(maxText.c_str(), nullptr, 10));
        const size_t left = cap > used ? cap - used : 0;
        if (from.empty() || left < avail) avail = left, from = "the cgroup's memory.max";
    }
    if (const char* lim = std::getenv("STRATA_HOST_MEMORY_LIMIT_MB")) {
        char* end = nullptr;
        const unsigned long long mb = std::strtoull(lim, &end, 10);
        if (end == lim || *end != '\0')
            throw Error(std::string("STRATA_HOST_MEMORY_LIMIT_MB: '") + lim + "' is not a whole number of MiB");
        const size_t cap = size_t(mb) * kMiB;
        if (from.empty() || cap < avail) avail = cap, from = "STRATA_HOST_MEMORY_LIMIT_MB";
    }
    if (source) *source = from;
    return from.empty() ? SIZE_MAX : avail;
}

size_t estimateCpuBackendBytes(const Scene& scene) {
    const Options& o = scene.options;
    const double pixels = double(o.render.width) * double(o.render.height);
    double triangles = double(scene.triangleCount());
    double vdBytes = 0;
    if (scene.patchCount() > 0) {
        const VdMemoryComparison c = compareVdMemory(countVdScene(scene), o, 0);
        if (o.vd.mode == VdMode::Pretess)
            triangles += double(c.pretessTriangles);
        else if (o.vd.mode == VdMode::Direct)
            vdBytes = double(c.direct.total());
    }
    const size_t perTriangle =
        kFlatBytesPerTriangle + (o.accel.builder == Builder::KdTree ? kKdBytesPerTriangle : kBvhBytesPerTriangle) +
        (copiesLeafTris(o.accel, false) ? sizeof(LeafTri) : 0);  // accel.copy_leaf_tris
    const double bytes = pixels * double(PathStorage<HostArray>::bytesPerPixel() + kImageBytesPerPixel) +
                         triangles * double(perTriangle) + vdBytes;
    return bytes >= 1.8e19 ? SIZE_MAX : size_t(bytes);
}

void checkCpuBackendFits(const Scene& scene) {
    std::string source;
    const size_t avail = availableHostBytes(&source);
    if (source.empty()) return;  // nothing known: no check
    const size_t need = estimateCpuBackendBytes(scene);
    if (need <= avail) return;
    const Options& o = scene.options;
    std::ostringstream s;
    s << scene.path << ": the CPU backend needs about " << need / kMiB << " MiB of host memory (" << o.render.width
      << "x" << o.render.height << " pixels";
    s << ", " << scene.triangleCount() << " triangles in instances";
    const bool pretess = o.vd.mode == VdMode::Pretess && scene.patchCount() > 0;
    if (pretess) s << " and the VD patches pre-tessellated at vd.max_level " << o.vd.maxLevel;
    s << ") but " << avail / kMiB << " MiB are available (" << source
      << "); lower the resolution (--res, render.width/height)";
    if (pretess) s << " or vd.max_level";
    s << ", or use a smaller scene";
    throw Error(s.str());
}

}  // namespace strata
