#include "accel/toplevel/top_cluster.h"

namespace strata {

HostBvh clusterTopLevel(const std::vector<Aabb>& boxes) {
    const uint32_t n = uint32_t(boxes.size());
    HostBvh out;
    out.primIndex.resize(n);
    for (uint32_t i = 0; i < n; ++i) out.primIndex[i] = i;
    out.nodes.resize(n > 1 ? n - 1 : 1);
    out.root = clusterRootOf(n);
    if (n == 0) return out;
    std::vector<Aabb> box = boxes;
    std::vector<ClusterRef> ref(n);
    for (uint32_t i = 0; i < n; ++i) ref[i] = {int32_t(i), true};
    if (n == 1) {
        setClusterChild(out.nodes[0], true, box[0], ref[0]);
        out.nodes[0].setRight(Aabb(), -1, 0);
        return out;
    }
    std::vector<uint32_t> nearest(n);
    uint32_t count = n, node = 0;
    while (count > 1) {
        for (uint32_t i = 0; i < count; ++i) nearest[i] = nearestCluster(box.data(), count, i);
        // A mutual pair merges into a node at its lower position; the higher
        // one leaves; the rest keep their order.
        uint32_t kept = 0;
        for (uint32_t i = 0; i < count; ++i) {
            const uint32_t j = nearest[i];
            const bool mutual = nearest[j] == i;
            if (mutual && j < i) continue;  // merged into j
            if (mutual) {
                BvhNode& parent = out.nodes[node];
                setClusterChild(parent, true, box[i], ref[i]);
                setClusterChild(parent, false, box[j], ref[j]);
                box[kept] = merge(box[i], box[j]);
                ref[kept] = {int32_t(node++), false};
            } else {
                box[kept] = box[i];
                ref[kept] = ref[i];
            }
            ++kept;
        }
        count = kept;
    }
    return out;
}

}  // namespace strata
