// accel/kdtree/kd_gpu_internal.cuh — device records shared by the kd-tree
// builder's two stages (kd_gpu.cu: large nodes, kd_gpu_small.cu: small nodes).
#pragma once

#include <cuda_runtime.h>

#include "accel/kdtree/kd_gpu_primitives.cuh"
#include "accel/kdtree/kd_rules.h"

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
    kNodes = 0,      // allocated output nodes
    kNextActive,     // large nodes of the next level
    kNextRefs,       // extent of the next level's reference list
    kSmall,          // small roots
    kSmallRefs,      // references copied to the small-root store
    kPrimRefs,       // primIndex entries written
    kFlags,          // caps hit (bits below)
    kNumChunks,
    kActive,         // large nodes of the current level (set when the level begins)
    kFirstSmall,     // small roots before the current level
    kValidRefs,      // triangles with finite vertices (the root's count)
    kNumCounters
};
enum : uint32_t { kFlagDepth = 1, kFlagNodes = 2, kFlagRefs = 4, kFlagSmallStore = 8, kFlagPrim = 16, kFlagStack = 32,
               kFlagLocal = 64 };

struct SmallStageArgs {
    const SmallRoot* roots;
    uint32_t numRoots;
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

// Launches the small-node stage (2 kernels); returns the launch count.
uint32_t launchSmallStage(const SmallStageArgs& a, cudaStream_t stream);

}  // namespace strata::kdgpu
