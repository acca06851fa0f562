// check/gpu_probe.h — one structure built (and traced) on the GPU without a
// renderer: the scene posed on the device at time t as a frame poses it
// (GpuScene's animate), then the structure the options name, copied back for
// validate, soak, kdtable and the GPU tests to compare with the CPU. Built
// only with CUDA.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "accel/bvh.h"
#include "accel/kdtree/kd_cpu_builder.h"
#include "accel/wide/collapse_host.h"
#include "core/ray.h"
#include "scene/scene.h"

namespace strata {

// The scene's flat LBVH (accel.builder's variant) built on the GPU at time t
// (and collapsed 8 wide where accel.width = 8) and copied back (for
// validation against the CPU run of the same code).
struct GpuBuildResult {
    std::vector<BvhNode> nodes;
    std::vector<uint32_t> primIndex;
    uint32_t root = 0;                     // lbvh-apetrei: the root found by the pass
    std::vector<StacklessNode> skipNodes;  // lbvh-skip: the skip-link layout
    std::vector<Vec3> positions;           // posed world-space vertices
    HostCwbvh wide;                        // accel.width = 8: the tree collapsed on the GPU
    double buildMs = 0;
};
GpuBuildResult buildOnGpuForValidation(const Scene& scene, float t);

// The GPU kd-tree ([A]-[E] from the scene's options) built at time t, copied
// back as a host tree over the GPU-posed positions.
struct GpuKdResult {
    HostKdTree tree;
    std::vector<Vec3> positions;
    uint32_t launches = 0, libraryCalls = 0;
    uint32_t idleLevels = 0, passes = 1, smallLevels = 0;  // see KdGpuStats
    double buildMs = 0, largeMs = 0, smallMs = 0;
};
GpuKdResult buildKdOnGpuForValidation(const Scene& scene, float t);

// The kd-tree chapter's "sum of kernels": the scene's kd-tree (its options'
// [A]-[E] and strata's switches) over its triangles at time t, built
// `builds` times under CUPTI's kernel activity records
// (gpu/kernel_activity.h). Throws where CUPTI cannot be loaded.
struct KdKernelTimes {
    double ms = 0;                             // the sum of the build's kernel durations
    uint32_t kernels = 0;                      // kernels CUPTI recorded, CUB's inside library calls included
    uint32_t calls = 0;                        // kernel calls as the chapter counts them (a library call is one)
    std::map<std::string, double> msByKernel;  // the sum per kernel name (gpu/kernel_activity.h)
};
std::vector<KdKernelTimes> kdKernelTimesOnGpu(const Scene& scene, float t, int builds);

// Closest hits of rays on the GPU over the structure built at time t, with
// the scene's accel.builder and accel.traversal; positions (when given):
// the flat vertices as the GPU posed them.
std::vector<HitRecord> traceOnGpuForValidation(const Scene& scene, float t, const std::vector<Ray>& rays,
                                               std::vector<Vec3>* positions = nullptr);

}  // namespace strata
