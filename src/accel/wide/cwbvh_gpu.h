// accel/wide/cwbvh_gpu.h — the binary BVH collapsed into the 8-wide
// compressed BVH on the GPU every frame (accel.width = 8), as stage
// "build/collapse": one cooperative kernel that makes the wide tree level
// by level, each thread running accel/wide/collapse.h's step for wide
// nodes of the level (its task, the binary node it is made from, written
// by the thread that made its parent), a grid-wide barrier between levels.
// With accel.wide_collapse = sah, two launches before it make the dynamic
// program's costs bottom up (accel/wide/collapse_sah.h).
#pragma once

#include <cstdint>

#include "accel/bvh.h"
#include "accel/wide/collapse_host.h"
#include "accel/wide/collapse_sah.h"
#include "gpu/device_buffer.h"
#include "gpu/launch_context.h"

namespace strata {

class CwbvhGpu {
public:
    // Collapses `binary` (device memory, its leaves of at most
    // kCwbvhMaxBinaryLeaf entries: the Morton-order builders' one) on ctx's
    // stream, as `how` says (sah: the bottom-up pass of collapse_sah.h, two
    // launches, before the collapse).
    void collapse(const BvhView& binary, WideCollapse how, const LaunchContext& ctx);
    // The last collapse (numNodes: an upper bound; the count stays on the device).
    CwbvhView view() const;
    // Synchronous copy of the last collapse (validation and tests).
    HostCwbvh download() const;
    size_t memoryBytes() const;
    // The device memory a collapse of a binary tree of up to `binaryNodes`
    // nodes over `prims` primitives takes (the sah pass's buffers included).
    static size_t estimateBytes(size_t binaryNodes, size_t prims, WideCollapse how);
    // Gives the device memory back (the next collapse allocates again).
    void release();

private:
    uint32_t capacity_ = 0, numPrims_ = 0;
    DeviceBuffer<CwbvhNode> nodes_;
    DeviceBuffer<uint32_t> primIndex_;
    DeviceBuffer<int32_t> tasks_;      // per wide node: the binary node it is made from
    DeviceBuffer<uint32_t> counters_;  // nodes made past the root, leaf entries placed
    DeviceBuffer<WideCost> costs_;     // sah: per binary node, C(n, 1..8) (collapse_sah.h)
    DeviceBuffer<int32_t> parents_;    // sah: per binary node, its parent (-1: the root)
    DeviceBuffer<uint32_t> arrivals_;  // sah: per binary node, its inner children done
    int workers_[2] = {0, 0};          // threads resident at once (the cooperative grid's most), greedy / sah
};

}  // namespace strata
