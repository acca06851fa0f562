#include "accel/vd/vd_cull.h"

#include <algorithm>

#include "core/parallel.h"

namespace strata {

VdCullTable vdCullTable(const std::vector<VdPatch>& patches, const std::vector<TextureView>& maps,
                        const std::vector<uint32_t>& origin, int maxLevel) {
    constexpr size_t n = kVdCullBoxes;
    VdCullTable t;
    t.quadrants.resize(4 * patches.size());
    t.sixteenths.resize(n * patches.size());
    // Each distinct patch once, on every core (a grid of up to 129 x 129 map
    // lookups per patch at level 7: 1.5 ms per patch on one core), then
    // copied to the patches that share it.
    std::vector<uint32_t> origins;
    for (uint32_t k = 0; k < patches.size(); ++k)
        if (origin[k] == k) origins.push_back(k);
    ThreadPool pool;
    pool.parallelFor(
        uint32_t(origins.size()),
        [&](uint32_t i) {
            const uint32_t k = origins[i];
            const VdPatch& p = patches[k];
            const int level = std::max(1, std::min({p.maxLevel, maxLevel, kVdMaxLevel}));
            vdCullBoxes(p, maps[size_t(p.map)], level, &t.quadrants[4 * size_t(k)], &t.sixteenths[n * k]);
        },
        1);
    for (size_t k = 0; k < patches.size(); ++k) {
        const uint32_t o = origin[k];
        if (o == k) continue;
        std::copy_n(&t.quadrants[4 * size_t(o)], 4, &t.quadrants[4 * k]);
        std::copy_n(&t.sixteenths[n * o], n, &t.sixteenths[n * k]);
    }
    return t;
}

}  // namespace strata
