// accel/host_accel.h — the CPU backend's per-frame structure: whichever
// builder accel.builder names (the LBVH variants through the same code as
// the GPU, or the binned SAH reference), viewed for the traversal
// accel.traversal names.
#pragma once

#include <vector>

#include "accel/cpu/sah_builder.h"
#include "core/options.h"

namespace strata {

struct HostAccel {
    HostBvh bvh;
    std::vector<StacklessNode> skipNodes;  // lbvh-skip only
    // The BvhView to trace with: stackless only where skip links exist
    // (accel/lbvh/lbvh_variant.h: traversalOf).
    BvhView view(const AccelOptions& o) const;
    size_t bytes() const { return bvh.bytes() + skipNodes.size() * sizeof(StacklessNode); }
};

void buildHostAccel(const std::vector<Aabb>& primBounds, const AccelOptions& o, HostAccel& out);

}  // namespace strata
