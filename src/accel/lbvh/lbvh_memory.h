// accel/lbvh/lbvh_memory.h — the device memory an LBVH build over n
// primitives holds (LbvhBuilder's buffers, build scratch included), from the
// count alone: what the memory checks and reports use for structures they
// have not built (or could not: pre-tessellation at a level that does not fit).
#pragma once

#include <cstddef>

#include "accel/bvh.h"
#include "accel/bvh_stackless.h"
#include "accel/lbvh/lbvh_variant.h"

namespace strata {

// wideKeys: 63-bit Morton codes (accel.morton_bits > 32), else 30-bit;
// sort: accel.morton_sort (merge counted as radix, an upper bound).
inline size_t lbvhBytes(size_t n, LbvhVariant variant, bool wideKeys, MortonSort sort = MortonSort::Radix) {
    if (n == 0) return 0;
    size_t b = (n > 1 ? n - 1 : 1) * sizeof(BvhNode) + n * 4;  // nodes, sorted primitive ids
    if (variant != LbvhVariant::Karras) b += n * 4;            // Apetrei's store
    if (variant == LbvhVariant::Hploc) b += n * 32;            // H-PLOC's cluster slots and boxes
    if (variant == LbvhVariant::Apetrei || variant == LbvhVariant::Hploc) b += 4;  // the root's index
    if (variant == LbvhVariant::ApetreiSkip) b += (2 * n - 1) * sizeof(StacklessNode);
    if (n == 1) return b;
    if (variant == LbvhVariant::Karras) b += (2 * n - 1) * 4 + (n - 1) * 4;  // parents, visit counters
    const size_t key = wideKeys ? 8 : 4;
    b += n * 4 + 2 * n * key;  // unsorted ids, keys and sorted keys
    if (sort == MortonSort::Split && wideKeys) {
        // The split sort (split_sort.h): the tops, unsorted and sorted; the
        // scratch, CUB's for sorting them or n codes and n primitives for the
        // runs' merges, whichever is larger; the lists of runs longer than 8
        // and 256.
        b += 2 * n * 4 + n * 12 + (2 + 2 * (n / 9 + 1 + n / 257 + 1)) * 4;
        return b;
    }
    // CUB's radix sort scratch: the alternate keys and values, and its
    // per-tile counters (about 1/64 of the keys' size).
    b += n * (key + 4) + n * key / 64 + (32u << 10);
    return b;
}

}  // namespace strata
