// render/cuda_renderer.h — the CUDA backend (built only with STRATA_HAVE_CUDA).
#pragma once

#include <memory>

#include "accel/bvh.h"
#include "core/ray.h"
#include "render/renderer.h"

namespace strata {

// Throws strata::Error when no CUDA device is usable or the scene does not
// fit in free GPU memory (the message gives needed and free bytes).
std::unique_ptr<Renderer> makeCudaRenderer(const Scene& scene);

// Builds the scene's flat structure on the GPU at time t with the scene's
// accel.builder and copies it back (for validation against the CPU reference).
struct GpuBuildResult {
    std::vector<BvhNode> nodes;
    std::vector<uint32_t> primIndex;
    uint32_t root = 0;                     // lbvh-apetrei: the root found by the pass
    std::vector<StacklessNode> skipNodes;  // lbvh-skip: the skip-link layout
    std::vector<Vec3> positions;  // posed world-space vertices
    double buildMs = 0;
};
GpuBuildResult buildOnGpuForValidation(const Scene& scene, float t);

// Closest hits of rays on the GPU over the structure built at time t, with
// the scene's accel.builder and accel.traversal.
std::vector<HitRecord> traceOnGpuForValidation(const Scene& scene, float t, const std::vector<Ray>& rays);

}  // namespace strata
