#include "accel/host_accel.h"

#include "accel/lbvh/apetrei.h"
#include "accel/lbvh/lbvh_host.h"
#include "accel/lbvh/refit.h"

namespace strata {

namespace {

// refit.h's SAH of a Morton-order tree (one primitive per leaf).
float treeSah(const HostBvh& t) {
    if (t.nodes.empty()) return 0;
    double sum = 0;
    for (const BvhNode& n : t.nodes) sum += sahTerms(n);
    const float root = rootArea(t.nodes[t.root]);
    return root > 0 ? float(sum / root) : 0.0f;
}

}  // namespace

void buildHostAccel(const std::vector<Aabb>& primBounds, const AccelOptions& o, HostAccel& out) {
    const bool refits = o.rebuild == Rebuild::Refit || o.rebuild == Rebuild::Auto;
    const bool grown = o.rebuild == Rebuild::Auto && out.sahGrowth() > o.refitGrowth;
    buildOrRefitHostAccel(primBounds, o, refits && out.canRefit(o, primBounds.size()) && !grown, out);
}

void buildOrRefitHostAccel(const std::vector<Aabb>& primBounds, const AccelOptions& o, bool refit, HostAccel& out) {
    out.leafTris.clear();  // of the vertices before; copyHostLeafTris makes them anew
    if (refit && out.canRefit(o, primBounds.size())) {
        refitHostAccel(primBounds, out);
        ++out.refits;
        if (o.rebuild == Rebuild::Auto) {  // only auto reads the SAH (a tree refitted before: its baseline now)
            out.sah = treeSah(out.bvh);
            if (out.builtSah <= 0) out.builtSah = out.sah;
        }
        return;
    }
    out.refits = 0;
    out.builtWith = o.builder;
    out.builtBits = o.mortonBits;
    out.refittable = isLbvh(o.builder) && !primBounds.empty();
    if (!isLbvh(o.builder)) {
        out.bvh = buildSahBvh(primBounds);
        out.skipNodes.clear();
        out.parent.clear();
        return;
    }
    LbvhHostResult r = buildLbvhHost(primBounds, o.mortonBits, lbvhVariantOf(o));
    out.bvh = std::move(r.bvh);
    out.skipNodes = std::move(r.skipNodes);
    out.parent = std::move(r.parent);  // Karras's; the others' are found at the first refit
    out.builtSah = out.sah = o.rebuild == Rebuild::Auto ? treeSah(out.bvh) : 0.0f;
}

void collapseHostAccel(const AccelOptions& o, HostAccel& a) {
    a.wide = o.width == BvhWidth::Eight ? collapseToCwbvh(a.bvh.view(), o.wideCollapse) : HostCwbvh{};
}

void copyHostLeafTris(const AccelOptions& o, bool mixedPrims, const Vec3* pos, const Tri* tris, size_t numTris,
                      HostAccel& a) {
    // In the order of the tree traced: the wide one where collapseHostAccel made it.
    a.leafTrisWide = o.width == BvhWidth::Eight && !a.wide.nodes.empty();
    const std::vector<uint32_t>& order = a.leafTrisWide ? a.wide.primIndex : a.bvh.primIndex;
    const bool copy =
        copiesLeafTris(o, mixedPrims) && a.view(o).traversal == BvhTraversal::Stack && order.size() == numTris;
    if (copy)
        copyLeafTris(order, pos, tris, a.leafTris);
    else
        a.leafTris = {};
}

void refitHostAccel(const std::vector<Aabb>& primBounds, HostAccel& a) {
    const int n = int(primBounds.size());
    if (n == 0) return;
    std::vector<BvhNode>& nodes = a.bvh.nodes;
    if (n == 1) {
        setSingleLeafRoot(nodes[0], primBounds[0]);
    } else {
        if (a.parent.size() != size_t(2 * n - 1)) {
            a.parent.assign(2 * n - 1, -1);
            for (int i = 0; i < n - 1; ++i) setParentEntries(nodes[i], i, n, a.parent.data());
        }
        std::vector<uint32_t> visits(n - 1, 0);
        for (int leaf = 0; leaf < n; ++leaf)
            karrasBottomUp(leaf, n, primBounds.data(), a.bvh.primIndex.data(), nodes.data(), a.parent.data(),
                           visits.data());
    }
    for (int k = 0; k < int(a.skipNodes.size()); ++k)
        refitSkipNode(k, nodes.data(), primBounds.data(), a.skipNodes.data());
}

BvhView HostAccel::view(const AccelOptions& o) const {
    BvhView v = bvh.view();
    v.skipNodes = skipNodes.empty() ? nullptr : skipNodes.data();
    v.numSkipNodes = uint32_t(skipNodes.size());
    v.traversal = v.skipNodes ? traversalOf(o) : BvhTraversal::Stack;
    if (!leafTris.empty() && !leafTrisWide && v.traversal == BvhTraversal::Stack) v.leafTris = leafTris.data();
    return v;
}

}  // namespace strata
