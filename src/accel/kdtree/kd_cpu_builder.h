// accel/kdtree/kd_cpu_builder.h — the CPU reference kd-tree builder: Zhou et
// al. 2008's two stages in plain sequential code. It validates the GPU
// builder and is the kd-tree of the CPU backend.
//   large-node stage (> smallNodeMax triangles, processed level by level):
//     tight box of the (clipped) triangle bounds; empty-space cutting; split
//     at the spatial median of the box's longest axis; straddling triangles go
//     to both children with bounds clipped (polygon clipping) to each child;
//     kdLargeStep (kd_rules.h, strata's) decides whether the split is made.
//   small-node stage (per small root): exact SAH over the candidate planes
//     (triangle bound min/max on 3 axes, kdCandidatePlane) with 64-bit
//     triangle masks, until the SAH says leaf.
// The GPU builder takes the same decisions (kd_rules.h): the same tree, up
// to planes a float apart where its clipping rounds differently.
// Unlike the BVH builders it takes triangles, not boxes: clipping needs them.
#pragma once

#include <string>
#include <vector>

#include "accel/kdtree/kd_rules.h"
#include "core/geometry.h"

namespace strata {

struct KdBuildStats {
    uint32_t largeIterations = 0, smallRoots = 0;
    uint32_t innerNodes = 0, leaves = 0, emptyLeaves = 0, refs = 0, maxDepth = 0;
    uint32_t maxSmallNodes = 0,
             maxSmallRefs = 0;          // the largest small-root subtree (the GPU builds it in shared memory)
    std::vector<std::string> warnings;  // caps hit (depth, node count, references)
};

struct HostKdTree {
    std::vector<KdNode> nodes;
    std::vector<uint32_t> primIndex;
    Aabb bounds;
    KdBuildStats stats;
    KdView view() const {
        return KdView{nodes.data(), primIndex.data(), uint32_t(nodes.size()), uint32_t(primIndex.size()), bounds};
    }
};

HostKdTree buildKdTreeCpu(const std::vector<Vec3>& pos, const std::vector<Tri>& tris, const KdConfig& config = {});
// The same over numTris triangles at tris (vertex indices into pos): a
// mesh's, or a deforming instance's range of the flat ones.
HostKdTree buildKdTreeCpu(const Vec3* pos, const Tri* tris, uint32_t numTris, const KdConfig& config = {});

}  // namespace strata
