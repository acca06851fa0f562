// accel/host_accel.h — the CPU backend's per-frame structure: whichever
// builder accel.builder names (the LBVH variants through the same code as
// the GPU, or the binned SAH reference), built or refitted (accel.rebuild),
// viewed for the traversal accel.traversal names.
#pragma once

#include <vector>

#include "accel/cpu/sah_builder.h"
#include "accel/leaf_tris.h"
#include "accel/wide/collapse_host.h"
#include "core/options.h"

namespace strata {

struct HostAccel {
    HostBvh bvh;
    std::vector<StacklessNode> skipNodes;  // lbvh-skip only
    HostCwbvh wide;                        // accel.width = 8: the tree collapsed (collapseHostAccel)
    std::vector<LeafTri> leafTris;         // accel.copy_leaf_tris (copyHostLeafTris)
    bool leafTrisWide = false;             // leafTris follow wide.primIndex (else bvh.primIndex)
    // accel.rebuild = refit: what the tree was built with (it is refitted
    // while these hold), and its parent entries (accel/lbvh/refit.h).
    Builder builtWith = Builder::CpuSah;
    int builtBits = 0;
    bool refittable = false;
    std::vector<int32_t> parent;
    // accel.rebuild = auto: the SAH (refit.h's) when built and now, and the
    // refits since the build.
    float builtSah = 0, sah = 0;
    uint32_t refits = 0;
    float sahGrowth() const { return builtSah > 0 ? sah / builtSah - 1.0f : 0.0f; }
    // Whether the tree can be refitted to n boxes under `o` (built by the
    // same Morton-order builder and bits over n primitives).
    bool canRefit(const AccelOptions& o, size_t n) const {
        return refittable && builtWith == o.builder && builtBits == o.mortonBits && bvh.primIndex.size() == n;
    }
    // The BvhView to trace with: stackless only where skip links exist
    // (accel/lbvh/lbvh_variant.h: traversalOf).
    BvhView view(const AccelOptions& o) const;
    // The wide tree where accel.width = 8 and the frame traces it (not with
    // vd.middle_level unified, whose tree holds the patch boxes: unavailable()
    // refuses the pair, and a renderer given it traces the binary tree); else
    // no nodes, and the binary tree is traced.
    // Its leaf tests read the copied triangles where they follow its order.
    CwbvhView wideView(const AccelOptions& o, bool unifiedMiddle = false) const {
        if (o.width != BvhWidth::Eight || unifiedMiddle) return CwbvhView{};
        CwbvhView v = wide.view();
        if (leafTrisWide && !leafTris.empty()) v.leafTris = leafTris.data();
        return v;
    }
    size_t bytes() const {
        return bvh.bytes() + skipNodes.size() * sizeof(StacklessNode) + wide.bytes() + leafTris.size() * sizeof(LeafTri);
    }
};

// Builds the structure accel.builder names; with accel.rebuild = refit,
// refits the last one instead where it was built by the same Morton-order
// builder and Morton bits over as many primitives; with auto, too, unless
// its SAH has grown past accel.refit_growth (then it builds anew).
void buildHostAccel(const std::vector<Aabb>& primBounds, const AccelOptions& o, HostAccel& out);

// A build (refit = false) or a refit (true, where canRefit holds) as an
// instanced mode's plan decided it (accel/toplevel/blas_refit.h); auto's SAH
// measured as buildHostAccel measures it.
void buildOrRefitHostAccel(const std::vector<Aabb>& primBounds, const AccelOptions& o, bool refit, HostAccel& out);

// accel.width = 8: the tree just built or refitted collapsed into a.wide
// (the CPU backend's stage build/collapse); otherwise a.wide is emptied.
void collapseHostAccel(const AccelOptions& o, HostAccel& a);

// accel.copy_leaf_tris: the triangles of the tree just built or refitted
// over the numTris triangles `tris` at `pos`, copied in its leaf order (the
// CPU backend's stage build/leaf_tris; after collapseHostAccel, in the wide
// tree's where accel.width = 8), where the stack traversal of the binary
// tree or the wide tree's reads them and every primitive is a triangle
// (mixedPrims: not a tree holding patch boxes too, as vd.middle_level
// unified's do; see copiesLeafTris); otherwise a.leafTris is emptied.
void copyHostLeafTris(const AccelOptions& o, bool mixedPrims, const Vec3* pos, const Tri* tris, size_t numTris,
                      HostAccel& a);

// Refits `a`'s tree to `primBounds` (same count as it was built over).
void refitHostAccel(const std::vector<Aabb>& primBounds, HostAccel& a);

}  // namespace strata
