// render/path_storage.h — the wavefront's per-pixel path state and queues
// (render/integrator.h's PathBuffers), owned by either backend: Buf is
// std::vector on the CPU, DeviceBuffer on the GPU. One allocation routine
// and one view for both.
#pragma once

#include <cstddef>
#include <vector>

#include "render/integrator.h"

namespace strata {

template <class T>
using HostArray = std::vector<T>;

template <template <class> class Buf>
struct PathStorage {
    Buf<Ray> rays[2];
    Buf<uint32_t> rayPath[2];
    Buf<HitRecord> hits;
    Buf<Vec3> throughput, radiance;
    Buf<float> lastPdf;
    Buf<Ray> shadowRays;
    Buf<Vec3> shadowContrib;
    Buf<uint32_t> shadowPath;
    Buf<uint32_t> shadowBlocked;
    Buf<uint32_t> counters;
    Buf<Vec3> film;

    // Bytes resize(n) takes per pixel (the backends' memory estimates).
    static constexpr size_t bytesPerPixel() {
        return 2 * (sizeof(Ray) + sizeof(uint32_t)) + sizeof(HitRecord) + 2 * sizeof(Vec3) + sizeof(float) +
               sizeof(Ray) + sizeof(Vec3) + 2 * sizeof(uint32_t) + sizeof(Vec3);
    }

    // For n pixels (one path each). Contents are set by the stages:
    // stageGenerate writes every path's state and the queue counters.
    void resize(size_t n) {
        for (int q = 0; q < 2; ++q) {
            rays[q].resize(n);
            rayPath[q].resize(n);
        }
        hits.resize(n);
        throughput.resize(n);
        radiance.resize(n);
        lastPdf.resize(n);
        shadowRays.resize(n);
        shadowContrib.resize(n);
        shadowPath.resize(n);
        shadowBlocked.resize(n);
        counters.resize(kNumCounters);
        film.resize(n);
    }

    PathBuffers view() {
        return PathBuffers{{rays[0].data(), rays[1].data()},
                           {rayPath[0].data(), rayPath[1].data()},
                           hits.data(),
                           throughput.data(),
                           radiance.data(),
                           lastPdf.data(),
                           shadowRays.data(),
                           shadowContrib.data(),
                           shadowPath.data(),
                           shadowBlocked.data(),
                           counters.data(),
                           film.data()};
    }
};

}  // namespace strata
