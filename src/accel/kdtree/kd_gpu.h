// accel/kdtree/kd_gpu.h — the GPU kd-tree of Zhou et al. 2008 with the five
// optimizations of Chang, Seo & Ihm (Table 13.1) as runtime switches on one
// code path. Input: triangles (device positions + index triples); output: the
// compact KdNode layout of kd_layout.h in device memory. Labelled phases:
//   kd/large   large-node stage, per level: chunks, node AABBs (LNS2: six
//              segmented reductions, or [C] per-block atomics), split
//              decision, triangle sorting (LNS1: classification, two
//              segmented scans, node offsets, scatter, or [A] one kernel with
//              two per-block atomics), next level
//   kd/small   small-node stage: candidate masks, then SAH splitting to the
//              leaves, level by level (Zhou08) or a subtree per small root
// As the chapter's Original and All (Zhou08's schedule), the host reads each
// large-node level's sizes back before it enqueues the level, and the
// Original's segmented scans and reductions are library calls (CUB); the
// small-node stage runs a launch and a host round trip per level. strata's
// switches, in KdConfig (the tree stays the same): lookahead (levels
// enqueued ahead, sizes on the device, strata's own segmented kernels),
// snsSubtree (one launch for the whole small-node stage), snsCompact.
#pragma once

#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "accel/kdtree/kd_rules.h"
#include "gpu/cuda_event.h"
#include "gpu/device_buffer.h"
#include "gpu/launch_context.h"
#include "gpu/pinned_buffer.h"
#include "core/geometry.h"

namespace strata {

struct KdGpuStats {
    // launches: kernel calls as the chapter counts them (a library call is
    // one; the kernels CUB launches inside libraryCalls are not counted)
    uint32_t launches = 0, largeIterations = 0, smallRoots = 0, nodes = 0, refs = 0;
    uint32_t libraryCalls = 0;  // CUB calls (the Original's segmented scans and reductions)
    uint32_t smallLevels = 0;   // Zhou08's small-node stage: levels (0: accel.kd_small = subtree)
    uint32_t passes = 1;        // builds run: more than 1 when the output arrays had to grow
    uint32_t idleLevels = 0;    // large-node levels enqueued past the last (no active node; counted in launches)
    std::vector<std::string> warnings;  // caps hit
};

class KdGpuBuilder {
public:
    // Builds over numTris triangles; throws strata::Error on CUDA errors or
    // when the output arrays overflow even at 8x their usual size.
    // Its two stages are build/kd_large and build/kd_small, their kernels
    // labelled under them.
    void build(const Vec3* pos, const Tri* tris, uint32_t numTris, const KdConfig& config, const LaunchContext& ctx);
    KdView view() const;  // device pointers
    const KdGpuStats& stats() const { return stats_; }
    void download(std::vector<KdNode>& nodes, std::vector<uint32_t>& primIndex) const;
    size_t memoryBytes() const;

private:
    static constexpr uint32_t kMaxGrowth = 3;  // rebuilds with larger output arrays, each 2x
    // One build with the output arrays at 2^growth times their usual size;
    // returns the overflow flags (0: complete).
    uint32_t buildPass(const Vec3* pos, const Tri* tris, uint32_t numTris, const KdConfig& config,
                       const LaunchContext& ctx, uint32_t growth);
    // buildPass's three jobs (kd_gpu.cu): the pass's arrays and level
    // arguments, the large-node stage, the small-node stage.
    struct KdPassScratch;
    KdPassScratch allocatePass(const Vec3* pos, const Tri* tris, uint32_t numTris, const KdConfig& cfg,
                               uint32_t growth);
    uint32_t largeNodeStage(KdPassScratch& z, const KdConfig& cfg, const LaunchContext& ctx, uint32_t numTris);
    void smallNodeStage(KdPassScratch& z, const KdConfig& cfg, const LaunchContext& ctx, uint32_t numSmall);
    void readCounters(cudaStream_t stream);
    KdGpuStats stats_;
    Aabb bounds_;
    DeviceBuffer<KdNode> nodes_;
    DeviceBuffer<uint32_t> primIndex_;
    // Large-node stage: ping-pong reference lists and per-level scratch.
    DeviceBuffer<uint32_t> refTri_[2];
    DeviceBuffer<Aabb> refBox_[2];
    DeviceBuffer<uint8_t> active_[2], small_;
    DeviceBuffer<uint32_t> nodeU32_, chunkU32_, counters_;
    PinnedBuffer<uint32_t> hostCounters_;   // read back after the small-node stage
    PinnedBuffer<uint32_t> levelCounters_;  // a snapshot after each large-node level
    PinnedBuffer<Aabb> hostBounds_;
    CudaEvent levelDone_[kKdMaxLookahead + 1];  // the last lookahead + 1 levels
    DeviceBuffer<float> nodeF32_, chunkF32_;
    DeviceBuffer<Aabb> cutCell_, bounds_d_, rightBox_;
    DeviceBuffer<uint32_t> refFlags_, bins_;
    DeviceBuffer<unsigned char> libraryTemp_;  // CUB's scratch
    DeviceBuffer<uint32_t> smallTri_;
    DeviceBuffer<Aabb> smallBox_;
    // Small-node stage: per small root 384 candidates (4-byte plane, 16-byte masks).
    DeviceBuffer<float> candPlane_;
    DeviceBuffer<ulonglong2> candMask_;
    DeviceBuffer<unsigned char> smallList_[2];  // Zhou08's small-node stage: the level's nodes, the next's
    PinnedBuffer<uint32_t> smallCount_;
};

}  // namespace strata
