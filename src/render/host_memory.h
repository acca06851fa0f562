// render/host_memory.h — the CPU backend's memory check: an estimate of what
// a scene at a resolution takes, against what the host can give, before
// anything is allocated (the CUDA backend's checkFits does the same for the
// GPU). A render that cannot fit is refused with the sizes and the options
// to change, instead of being killed or failing in an allocation.
#pragma once

#include <cstddef>
#include <string>

#include "scene/scene.h"

namespace strata {

// Bytes of memory this process may still take: MemAvailable from
// /proc/meminfo, lowered by an address-space limit (ulimit -v), a cgroup's
// memory.max and STRATA_HOST_MEMORY_LIMIT_MB (tests, rehearsal; 0 is a
// limit of 0). `source` says which bound it was; empty (and SIZE_MAX
// returned) when nothing could be read, and then no check is made.
size_t availableHostBytes(std::string* source = nullptr);

// About what the CPU backend allocates for the scene's options: the path
// buffers and images per pixel, the flattened triangles and the largest
// acceleration structure per triangle (builder temporaries included).
size_t estimateCpuBackendBytes(const Scene& scene);

// Throws strata::Error "SCENE: the CPU backend needs about N MiB ... but M
// MiB are available; ..." when the estimate does not fit.
void checkCpuBackendFits(const Scene& scene);

}  // namespace strata
