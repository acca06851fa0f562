// accel/kdtree/kd_gpu_internal.cuh — device records shared by the kd-tree
// builder's two stages (kd_gpu.cu: large nodes, kd_gpu_small.cu: small nodes).
#pragma once

#include <cuda_runtime.h>

#include "accel/kdtree/kd_gpu_primitives.cuh"
#include "accel/kdtree/kd_rules.h"
#include "core/geometry.h"
#include "gpu/device_buffer.h"
#include "gpu/launch.cuh"
#include "gpu/pinned_buffer.h"

namespace strata::kdgpu {

struct ActiveNode {  // a large node of the current level
    uint32_t node, offset, count, depth;
    Aabb cell;
    uint32_t stalls;  // splits in a row above this node that did not pay (kdLargeStep)
};

struct SmallRoot {  // a node handed to the small-node stage
    uint32_t node, offset, count, depth;
    Aabb cell;
    uint32_t forceLeaf;  // > 64 triangles left unsplittable (caps, no progress): one leaf
    uint32_t fromCur;    // while collecting: refs are in the current (1) or next (0) list
};

enum CounterIndex : uint32_t {
    kNodes = 0,   // allocated output nodes
    kNextActive,  // large nodes of the next level
    kNextRefs,    // extent of the next level's reference list
    kSmall,       // small roots
    kSmallRefs,   // references copied to the small-root store
    kPrimRefs,    // primIndex entries written
    kFlags,       // caps hit (bits below)
    kNumChunks,
    kActive,      // large nodes of the current level (set when the level begins)
    kFirstSmall,  // small roots before the current level
    kValidRefs,   // triangles with finite vertices (the root's count)
    kNextChunks,  // chunks of the next level's large nodes (the host sizes CUB's calls with it)
    kSmallList0,  // Zhou08 small-node stage: nodes in the even levels' lists
    kSmallList1,  //   and in the odd levels' lists
    kNumCounters
};
enum : uint32_t {
    kFlagDepth = 1,
    kFlagNodes = 2,
    kFlagRefs = 4,
    kFlagSmallStore = 8,
    kFlagPrim = 16,
    kFlagStack = 32,
    kFlagLocal = 64
};

struct SmallStageArgs {
    const SmallRoot* roots;
    uint32_t numRoots;
    const Vec3* pos;    // the mesh, for strata's clipped leaves (cfg.clipLeaves)
    const Tri* tris;
    const uint32_t* tri;
    const Aabb* box;
    float* candPlane;
    ulonglong2* candMask;
    KdNode* nodes;
    uint32_t nodeBudget;
    uint32_t* primIndex;
    uint32_t primCapacity;
    uint32_t* counters;
    KdConfig cfg;
    bool popc;  // [E]
};

struct SmallStageResult {
    uint32_t levels = 0;  // Zhou08's levels (0: strata's subtree kernel)
};

// Runs the small-node stage: strata's (cfg.snsSubtree: candidates, then one
// launch building every small root's subtree) or Zhou08's (candidates, then
// per level one launch over all small nodes and a host round trip). `lists`
// (Zhou08's node lists, ping-pong) and `hostCount` (each level's size read
// back) are the builder's, reused from build to build.
SmallStageResult runSmallStage(const SmallStageArgs& a, DeviceBuffer<unsigned char> (&lists)[2],
                               PinnedBuffer<uint32_t>& hostCount, const LaunchContext& ctx);

// The chapter's Original with library primitives (kd_gpu_library.cu, CUB);
// sized by the host, `temp` is their scratch (grown as needed).
//   librarySegmentedReduce: out[s] = min (max) of in[offsets[s] .. offsets[s + 1])
//   librarySegmentedInclusiveSum: inclusive sums of in over runs of equal keys
void librarySegmentedReduce(DeviceBuffer<unsigned char>& temp, const float* in, float* out, uint32_t numSegments,
                            const uint32_t* offsets, bool isMax, cudaStream_t stream);
void librarySegmentedInclusiveSum(DeviceBuffer<unsigned char>& temp, const uint32_t* keys, const uint32_t* in,
                                  uint32_t* out, uint32_t n, cudaStream_t stream);

}  // namespace strata::kdgpu
