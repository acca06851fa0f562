#include "accel/host_accel.h"

#include "accel/lbvh/lbvh_host.h"

namespace strata {

void buildHostAccel(const std::vector<Aabb>& primBounds, const AccelOptions& o, HostAccel& out) {
    if (!isLbvh(o.builder)) {
        out.bvh = buildSahBvh(primBounds);
        out.skipNodes.clear();
        return;
    }
    LbvhHostResult r = buildLbvhHost(primBounds, o.mortonBits, lbvhVariantOf(o));
    out.bvh = std::move(r.bvh);
    out.skipNodes = std::move(r.skipNodes);
}

BvhView HostAccel::view(const AccelOptions& o) const {
    BvhView v = bvh.view();
    v.skipNodes = skipNodes.empty() ? nullptr : skipNodes.data();
    v.numSkipNodes = uint32_t(skipNodes.size());
    v.traversal = v.skipNodes ? traversalOf(o) : BvhTraversal::Stack;
    return v;
}

}  // namespace strata
