// gpu/ordered_float.cuh — floats as unsigned ints that order like the floats,
// so atomicMin/atomicMax on the ints take the min/max of the floats (every
// GPU builder's atomic boxes: the LBVH's centroid box, the kd-tree's scene
// and node boxes). cuBQL's builder_common.h keeps its one encoding likewise.
#pragma once

#include <cstdint>

namespace strata {

__device__ __forceinline__ uint32_t encodeOrderedFloat(float f) {
    const uint32_t u = __float_as_uint(f);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}
__device__ __forceinline__ float decodeOrderedFloat(uint32_t u) {
    return __uint_as_float((u & 0x80000000u) ? (u & 0x7fffffffu) : ~u);
}

// Start values of an atomic box's slots: min slots at the largest encoding
// (0xffffffff), max slots at the smallest (0).
constexpr uint32_t kOrderedMinStart = 0xffffffffu, kOrderedMaxStart = 0u;

}  // namespace strata
