// accel/wide/cwbvh.h — the 8-wide compressed BVH of Ylitie, Karras and Laine
// ("Efficient Incoherent Ray Traversal on GPUs Through Compressed Wide
// BVHs", HPG 2017), made from any binary BvhNode tree by accel/wide/collapse.h.
//
// One node is 80 bytes (five 16-byte loads) and holds its up to 8 children:
// their boxes quantized to 8 bits per plane on a grid of the node's own
// (origin p, a power-of-two step per axis 2^e), where the children are
// (inner children: consecutive nodes from childBase, in slot order; leaf
// children: consecutive entries of primIndex from primBase), and what each
// slot holds (meta, as the paper's Fig. 4):
//   0                     the slot is empty
//   001 | 24 + slot       an inner child (the low 5 bits name the slot)
//   unary count | offset  a leaf of 1, 2 or 3 primitives (001, 011, 111 in
//                         the high 3 bits) at primIndex[primBase + offset]
//
// Slots are ordered for traversal (§3.2): the collapse puts the child whose
// centroid lies towards the (-x, -y, -z) corner in slot 0 and the (+, +, +)
// corner in slot 7 (bit a of a slot: + on axis a), so a ray whose direction
// has the sign bits `octant` (bit a set: negative on axis a) meets the
// children roughly front to back in the order slot ^ octant.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/aabb.h"
#include "core/ray.h"
#include "core/hd.h"

// A loop the GPU compiler unrolls (so that arrays indexed by its counter
// stay in registers); a plain loop on the host.
#if defined(__CUDA_ARCH__)
#define STRATA_UNROLL _Pragma("unroll")
#else
#define STRATA_UNROLL
#endif

namespace strata {

struct alignas(16) CwbvhNode {
    float px, py, pz;                   // the quantization grid's origin: the node box's lower corner
    uint8_t ex, ey, ez;                 // the grid step per axis, 2^(e - 127) (a float's biased exponent)
    uint8_t imask;                      // bit i: slot i holds an inner child
    uint32_t childBase;                 // first inner child's node index
    uint32_t primBase;                  // first leaf entry of this node's leaves in primIndex
    uint8_t meta[8];                    // per slot, see above
    uint8_t qlox[8], qloy[8], qloz[8];  // children's lower planes in grid steps from p (rounded down)
    uint8_t qhix[8], qhiy[8], qhiz[8];  // upper planes (rounded up)
};
static_assert(sizeof(CwbvhNode) == 80, "a CWBVH node is five 16-byte loads");

constexpr int kCwbvhWidth = 8;
constexpr int kCwbvhMaxLeafPrims = 3;  // a leaf slot's unary count has 3 bits
// The largest binary leaf the collapse takes: two of them fill the 8 slots.
constexpr int kCwbvhMaxBinaryLeaf = kCwbvhWidth / 2 * kCwbvhMaxLeafPrims;
constexpr uint8_t kCwbvhInnerMeta = 0x20;  // 001 in the high bits

STRATA_HD constexpr bool cwbvhIsInnerMeta(uint8_t meta) { return (meta & 0x1f) >= 24; }

struct LeafTri;  // accel/leaf_tris.h

// The tree as the traversal reads it (host or device memory).
struct CwbvhView {
    const CwbvhNode* nodes = nullptr;     // root: node 0
    const uint32_t* primIndex = nullptr;  // leaf entries -> primitive ids
    uint32_t numNodes = 0;                // 0: no tree; on the GPU an upper bound (the count stays on the device)
    uint32_t numPrims = 0;
    // accel.copy_leaf_tris: primIndex's triangles in its order (leafTris[k]
    // is entry k's), which the leaf tests read instead; null: indexed.
    const LeafTri* leafTris = nullptr;
};

// The grid step's biased exponent for a node box extent (per axis): the
// smallest power of two 2^e with extent <= 255 * 2^e, so every child's
// planes fit in 8 bits; a flat axis gets the smallest normal step. Double
// precision, so that the host and the device quantize identically.
STRATA_HD uint8_t cwbvhExponent(double extent) {
    const double x = extent / 255.0;
    if (!(x > 0)) return 1;
    int e = 0;
    const double m = frexp(x, &e);  // x = m * 2^e, m in [0.5, 1)
    if (m == 0.5) --e;              // x is a power of two itself
    const int biased = e + 127;
    return uint8_t(biased < 1 ? 1 : (biased > 254 ? 254 : biased));
}

// The step 2^(biased - 127) as a float (biased in 1..254: a normal float).
STRATA_HD float cwbvhStep(uint8_t biased) { return bitsFloat(uint32_t(biased) << 23); }

// 1 / 2^(biased - 127) as a double (exact: a power of two).
STRATA_HD double cwbvhInverseStep(uint8_t biased) {
    const uint64_t bits = uint64_t(1023 + 127 - int(biased)) << 52;
#if defined(__CUDA_ARCH__)
    return __longlong_as_double(static_cast<long long>(bits));
#else
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
#endif
}

// A child's planes on the node's grid, conservatively: the quantized box
// holds the exact one (lower planes rounded down, upper ones up). inv:
// cwbvhInverseStep of the axis (the product is exact).
STRATA_HD uint32_t cwbvhQuantizeLo(float lo, float p, double inv) {
    const double q = floor((double(lo) - double(p)) * inv);
    return uint32_t(q < 0 ? 0 : (q > 255 ? 255 : q));
}
STRATA_HD uint32_t cwbvhQuantizeHi(float hi, float p, double inv) {
    const double q = ceil((double(hi) - double(p)) * inv);
    return uint32_t(q < 0 ? 0 : (q > 255 ? 255 : q));
}

// Slot i's box as stored (the quantized box, in world units).
STRATA_HD Aabb cwbvhChildBox(const CwbvhNode& n, int i) {
    const float sx = cwbvhStep(n.ex), sy = cwbvhStep(n.ey), sz = cwbvhStep(n.ez);
    return Aabb{{n.px + float(n.qlox[i]) * sx, n.py + float(n.qloy[i]) * sy, n.pz + float(n.qloz[i]) * sz},
                {n.px + float(n.qhix[i]) * sx, n.py + float(n.qhiy[i]) * sy, n.pz + float(n.qhiz[i]) * sz}};
}

}  // namespace strata
