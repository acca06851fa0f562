// accel/vd/vd_bvh.h — the bottom level of Harada's three-level hierarchy: a
// complete quad BVH over one VD patch, built on the fly at the level the rays
// need, traversed stacklessly with one shared link table.
//
// * Layout: breadth first; level l holds 4^l nodes from vdLevelOffset(l) =
//   (4^l - 1) / 3 on, ordered by the Morton code of their cell (x, y) in the
//   2^l x 2^l grid, so node k's children at the next level are 4k .. 4k+3.
//   With leaves at level L, node i is a leaf when i >= vdLevelOffset(L).
// * Links (one table for every patch and every level up to kVdMaxLevel):
//   child in the low 16 bits, skip (the next node when this one is done) in
//   the high 16; kVdNoNode ends the traversal.
// * Nodes are 20 bytes: the box quantized to 16 bits per component relative to
//   the patch's (loose) box, rounded outward so no hit is lost; the normal
//   (octahedral, 2 x 16 bits) and the cell's centre in patch coordinates (2 x 16).
// * Leaves: the box of the cell's four displaced vertices. Two surfaces
//   (vd.leaf): Harada's takes the leaf box itself as the surface, met where
//   the ray enters it, with the node's normal and uv (the cell's vertices
//   displaced from the map per leaf); strata's intersects the leaf as the two
//   triangles of those four vertices, read from a grid displaced once per
//   tree — exactly the triangles pre-tessellation makes at the same level, so
//   the two modes see one surface (and secondary rays leaving it do not hit
//   its box again at t = 0). Its nodes' normal and uv are left 0: nothing
//   reads them.
#pragma once

#include "accel/bvh_traverse.h"
#include "accel/triangle.h"
#include "core/vd_patch.h"

namespace strata {

constexpr int kVdMaxLevel = 7;
constexpr uint32_t kVdNoNode = 0xffffu;

STRATA_HD uint32_t vdLevelOffset(int level) { return ((1u << (2 * level)) - 1u) / 3u; }
// Nodes of a tree whose leaves are at `level`.
STRATA_HD uint32_t vdNodeCount(int level) { return vdLevelOffset(level + 1); }
STRATA_HD int vdLevelOf(uint32_t node) {
    int l = 0;
    while (vdLevelOffset(l + 1) <= node) ++l;
    return l;
}

STRATA_HD uint32_t vdMorton(uint32_t x, uint32_t y) {
    uint32_t k = 0;
    for (int b = 0; b < kVdMaxLevel; ++b) k |= ((x >> b) & 1u) << (2 * b) | ((y >> b) & 1u) << (2 * b + 1);
    return k;
}
// The even bits of v, packed (the inverse of interleaving).
STRATA_HD uint32_t vdCompactBits(uint32_t v) {
    v &= 0x55555555u;
    v = (v | v >> 1) & 0x33333333u;
    v = (v | v >> 2) & 0x0f0f0f0fu;
    v = (v | v >> 4) & 0x00ff00ffu;
    return (v | v >> 8) & 0x0000ffffu;
}
STRATA_HD void vdUnmorton(uint32_t k, uint32_t& x, uint32_t& y) {
    x = vdCompactBits(k);
    y = vdCompactBits(k >> 1);
}

STRATA_HD uint32_t vdLinkChild(uint32_t link) { return link & 0xffffu; }
STRATA_HD uint32_t vdLinkSkip(uint32_t link) { return link >> 16; }

// The link of node i (of the table for kVdMaxLevel): computed, not looked up,
// so the host can fill the table and tests can check it.
STRATA_HD uint32_t vdMakeLink(uint32_t node) {
    int l = vdLevelOf(node);
    uint32_t k = node - vdLevelOffset(l);
    uint32_t child = l < kVdMaxLevel ? vdLevelOffset(l + 1) + 4 * k : 0u;
    uint32_t skip = kVdNoNode;
    // Up the ancestors until one has a next sibling.
    for (int lv = l; lv > 0; --lv) {
        if (k % 4 != 3) {
            skip = vdLevelOffset(lv) + k + 1;
            break;
        }
        k /= 4;
    }
    return child | skip << 16;
}

struct VdNode {
    uint16_t lo[3], hi[3];  // quantized box
    uint32_t normal;        // octahedral, 2 x 16-bit snorm
    uint32_t st;            // cell centre in patch coordinates, 2 x 16-bit unorm
};
static_assert(sizeof(VdNode) == 20, "Harada's 20-byte node");

// Quantization frame of one patch: value = lo + q * step, q in [0, 65535].
struct VdFrame {
    Vec3 lo, step;
};
STRATA_HD VdFrame vdFrame(const Aabb& box) {
    Vec3 e = box.extent();
    return {box.lo, Vec3{fmaxf(e.x, 1e-30f), fmaxf(e.y, 1e-30f), fmaxf(e.z, 1e-30f)} * (1.0f / 65535.0f)};
}
STRATA_HD float vdDequant(uint32_t q, float lo, float step) { return fmaf(float(q), step, lo); }
// Rounded outward: the dequantized bound never lies inside [v, ...] / [..., v].
STRATA_HD uint16_t vdQuantLo(float v, float lo, float step) {
    float f = floorf((v - lo) / step);
    int q = f <= 0.0f ? 0 : f >= 65535.0f ? 65535 : int(f);
    while (q > 0 && vdDequant(uint32_t(q), lo, step) > v) --q;
    return uint16_t(q);
}
STRATA_HD uint16_t vdQuantHi(float v, float lo, float step) {
    float f = ceilf((v - lo) / step);
    int q = f <= 0.0f ? 0 : f >= 65535.0f ? 65535 : int(f);
    while (q < 65535 && vdDequant(uint32_t(q), lo, step) < v) ++q;
    return uint16_t(q);
}
// A ray in a patch's quantization frame: the plane of a node bound q (16-bit)
// is met at t = q * scale + offset on its axis, that is (lo + q * step - org)
// / dir in one FMA instead of a dequantization and a slab subtraction.
struct VdRayFrame {
    Vec3 scale, offset;
};
STRATA_HD VdRayFrame vdRayFrame(const VdFrame& f, const Ray& ray, Vec3 invDir) {
    return {Vec3{f.step.x * invDir.x, f.step.y * invDir.y, f.step.z * invDir.z},
            Vec3{(f.lo.x - ray.org.x) * invDir.x, (f.lo.y - ray.org.y) * invDir.y, (f.lo.z - ray.org.z) * invDir.z}};
}
// Where the ray's line enters (tn) and leaves (tf) the node's box.
STRATA_HD void vdNodeSlabs(const VdNode& n, const VdRayFrame& r, float& tn, float& tf) {
    const float tx0 = fmaf(float(n.lo[0]), r.scale.x, r.offset.x), tx1 = fmaf(float(n.hi[0]), r.scale.x, r.offset.x);
    const float ty0 = fmaf(float(n.lo[1]), r.scale.y, r.offset.y), ty1 = fmaf(float(n.hi[1]), r.scale.y, r.offset.y);
    const float tz0 = fmaf(float(n.lo[2]), r.scale.z, r.offset.z), tz1 = fmaf(float(n.hi[2]), r.scale.z, r.offset.z);
    tn = fmaxf(fmaxf(fminf(tx0, tx1), fminf(ty0, ty1)), fminf(tz0, tz1));
    tf = fminf(fminf(fmaxf(tx0, tx1), fmaxf(ty0, ty1)), fmaxf(tz0, tz1));
}
// The folded expression rounds differently from the two-step one, by a few
// ulps of t, so the far end is widened by 2^-18 of itself: a node is
// sometimes visited needlessly, never skipped when its box is hit
// (quantization's promise).
STRATA_HD bool vdSlabsMeet(float tn, float tf) { return tn <= tf + fabsf(tf) * (1.0f / 262144.0f); }
// Whether the ray meets the node's box within [tmin, tmax].
STRATA_HD bool vdNodeHit(const VdNode& n, const VdRayFrame& r, float tmin, float tmax) {
    float tn, tf;
    vdNodeSlabs(n, r, tn, tf);
    return vdSlabsMeet(fmaxf(tn, tmin), fminf(tf, tmax));
}
// vd.leaf box: where the ray enters the leaf's box, the surface, within
// [tmin, tmax), else -1. A ray that starts inside the box does not enter it
// (a ray leaving the surface passes the boxes it starts in).
STRATA_HD float vdLeafBoxEntry(const VdNode& n, const VdRayFrame& r, float tmin, float tmax) {
    float tn, tf;
    vdNodeSlabs(n, r, tn, tf);
    return tn >= tmin && tn < tmax && vdSlabsMeet(tn, tf) ? tn : -1.0f;
}

STRATA_HD Aabb vdNodeBox(const VdNode& n, const VdFrame& f) {
    return Aabb{{vdDequant(n.lo[0], f.lo.x, f.step.x), vdDequant(n.lo[1], f.lo.y, f.step.y),
                 vdDequant(n.lo[2], f.lo.z, f.step.z)},
                {vdDequant(n.hi[0], f.lo.x, f.step.x), vdDequant(n.hi[1], f.lo.y, f.step.y),
                 vdDequant(n.hi[2], f.lo.z, f.step.z)}};
}

STRATA_HD uint32_t vdPackSnorm2(float a, float b) {
    auto q = [](float x) { return uint32_t(int32_t(rintf(fminf(fmaxf(x, -1.0f), 1.0f) * 32767.0f)) & 0xffff); };
    return q(a) | q(b) << 16;
}
STRATA_HD float vdUnpackSnorm(uint32_t v) { return fmaxf(float(int16_t(uint16_t(v))) / 32767.0f, -1.0f); }
STRATA_HD uint32_t vdEncodeNormal(Vec3 n) {  // octahedral
    float s = fabsf(n.x) + fabsf(n.y) + fabsf(n.z);
    if (!(s > 0)) return vdPackSnorm2(0, 1);
    float x = n.x / s, y = n.y / s;
    if (n.z < 0) {
        float ox = (1 - fabsf(y)) * (x >= 0 ? 1.0f : -1.0f), oy = (1 - fabsf(x)) * (y >= 0 ? 1.0f : -1.0f);
        x = ox;
        y = oy;
    }
    return vdPackSnorm2(x, y);
}
STRATA_HD Vec3 vdDecodeNormal(uint32_t e) {
    float x = vdUnpackSnorm(e), y = vdUnpackSnorm(e >> 16), z = 1 - fabsf(x) - fabsf(y);
    if (z < 0) {
        float ox = (1 - fabsf(y)) * (x >= 0 ? 1.0f : -1.0f), oy = (1 - fabsf(x)) * (y >= 0 ? 1.0f : -1.0f);
        x = ox;
        y = oy;
    }
    return normalize(Vec3{x, y, z});
}
STRATA_HD uint32_t vdEncodeSt(float s, float t) {
    auto q = [](float x) { return uint32_t(rintf(fminf(fmaxf(x, 0.0f), 1.0f) * 65535.0f)); };
    return q(s) | q(t) << 16;
}
STRATA_HD Vec2 vdDecodeSt(uint32_t e) { return {float(e & 0xffffu) / 65535.0f, float(e >> 16) / 65535.0f}; }

// The cell (x, y) of the 2^level grid: its four displaced vertices v00, v10,
// v11, v01 (the same expressions as pre-tessellation, so the same floats).
STRATA_HD void vdCellCorners(const VdPatch& p, const TextureView& map, int level, uint32_t x, uint32_t y, Vec3 c[4]) {
    const uint32_t n = 1u << level;
    c[0] = vdPosition(p, map, float(x) / n, float(y) / n);
    c[1] = vdPosition(p, map, float(x + 1) / n, float(y) / n);
    c[2] = vdPosition(p, map, float(x + 1) / n, float(y + 1) / n);
    c[3] = vdPosition(p, map, float(x) / n, float(y + 1) / n);
}

// The displaced grid of a tree at `level`: (2^level + 1)^2 vertices, rows of
// constant t. Built once per patch, it spares the leaf tests the map lookups.
STRATA_HD uint32_t vdGridSide(int level) { return (1u << level) + 1u; }
STRATA_HD uint32_t vdGridCount(int level) { return vdGridSide(level) * vdGridSide(level); }
// A tree and its grid: the GPU builds trees up to kVdSharedLevel in the
// block's shared memory (1,365 nodes and 33 x 33 vertices at level 5, 40
// KiB), finer ones in a global-memory work buffer per block, as in the paper.
constexpr int kVdSharedLevel = 5;
// grid: with the displaced grid strata's leaves read (vd.leaf box needs none).
inline size_t vdTreeBytes(int level, bool grid = true) {
    return vdNodeCount(level) * sizeof(VdNode) + (grid ? vdGridCount(level) * sizeof(Vec3) : 0);
}
// vd.tree_cache: the trees kept across ray casts, at most this many bytes
// of them (a slot per patch, first come first served, each the size of a
// tree at the frame's finest level).
constexpr size_t kVdTreeCacheBytes = size_t(256) << 20;
inline uint32_t vdTreeCacheSlots(uint32_t patches, int maxLevel, bool grid) {
    const size_t fit = kVdTreeCacheBytes / vdTreeBytes(maxLevel, grid);
    return uint32_t(fit < patches ? fit : patches);
}
STRATA_HD Vec3 vdGridVertex(const VdPatch& p, const TextureView& map, int level, uint32_t i) {
    const uint32_t n = 1u << level, side = n + 1;
    return vdPosition(p, map, float(i % side) / n, float(i / side) / n);
}
STRATA_HD void vdGridCorners(const Vec3* grid, int level, uint32_t x, uint32_t y, Vec3 c[4]) {
    const uint32_t side = vdGridSide(level), i = y * side + x;
    c[0] = grid[i];
    c[1] = grid[i + 1];
    c[2] = grid[i + side + 1];
    c[3] = grid[i + side];
}

// The node's normal of a cell: its diagonals' cross product (Harada's
// computeNormal), as the node stores it (octahedral, 2 x 16 bits).
STRATA_HD uint32_t vdCellNormal(const Vec3 c[4]) { return vdEncodeNormal(cross(c[2] - c[0], c[3] - c[1])); }
STRATA_HD uint32_t vdCellSt(int level, uint32_t x, uint32_t y) {
    const float inv = 1.0f / float(1u << level);
    return vdEncodeSt((float(x) + 0.5f) * inv, (float(y) + 0.5f) * inv);
}

// shading: the node's normal and uv too (vd.leaf box reads them).
STRATA_HD VdNode vdLeafFromCorners(const Vec3 c[4], int level, uint32_t x, uint32_t y, const VdFrame& f, bool shading) {
    Aabb b;
    for (int i = 0; i < 4; ++i) b.grow(c[i]);
    VdNode n;
    n.lo[0] = vdQuantLo(b.lo.x, f.lo.x, f.step.x);
    n.lo[1] = vdQuantLo(b.lo.y, f.lo.y, f.step.y);
    n.lo[2] = vdQuantLo(b.lo.z, f.lo.z, f.step.z);
    n.hi[0] = vdQuantHi(b.hi.x, f.lo.x, f.step.x);
    n.hi[1] = vdQuantHi(b.hi.y, f.lo.y, f.step.y);
    n.hi[2] = vdQuantHi(b.hi.z, f.lo.z, f.step.z);
    n.normal = shading ? vdCellNormal(c) : 0u;
    n.st = shading ? vdCellSt(level, x, y) : 0u;
    return n;
}

// Leaf k of the level: from the grid when there is one, else from the map.
STRATA_HD VdNode vdMakeLeaf(const VdPatch& p, const TextureView& map, int level, uint32_t k, const VdFrame& f,
                            const Vec3* grid, bool shading) {
    uint32_t x, y;
    vdUnmorton(k, x, y);
    Vec3 c[4];
    if (grid)
        vdGridCorners(grid, level, x, y, c);
    else
        vdCellCorners(p, map, level, x, y, c);
    return vdLeafFromCorners(c, level, x, y, f, shading);
}

// An inner node from its four children: the union of their (quantized)
// boxes and, with shading, the mean of their normals and of their cell
// centres.
STRATA_HD VdNode vdMergeNodes(const VdNode* c, bool shading) {
    VdNode n = c[0];
    if (!shading) {
        for (int i = 1; i < 4; ++i)
            for (int a = 0; a < 3; ++a) {
                n.lo[a] = c[i].lo[a] < n.lo[a] ? c[i].lo[a] : n.lo[a];
                n.hi[a] = c[i].hi[a] > n.hi[a] ? c[i].hi[a] : n.hi[a];
            }
        return n;
    }
    Vec3 nsum = vdDecodeNormal(c[0].normal);
    Vec2 st = vdDecodeSt(c[0].st);
    for (int i = 1; i < 4; ++i) {
        for (int a = 0; a < 3; ++a) {
            n.lo[a] = c[i].lo[a] < n.lo[a] ? c[i].lo[a] : n.lo[a];
            n.hi[a] = c[i].hi[a] > n.hi[a] ? c[i].hi[a] : n.hi[a];
        }
        nsum = nsum + vdDecodeNormal(c[i].normal);
        Vec2 s = vdDecodeSt(c[i].st);
        st = {st.x + s.x, st.y + s.y};
    }
    n.normal = vdEncodeNormal(nsum);
    n.st = vdEncodeSt(0.25f * st.x, 0.25f * st.y);
    return n;
}

// The whole tree with leaves at `level`, level by level from the leaves up
// (the GPU bottom kernel does each level's loop with one thread per node).
// Strata's (grid given: vdGridCount(level) vertices): the grid first, the
// leaves from it, no normals or uvs. Harada's (grid null): each leaf's
// vertices from the map, the normals and uvs averaged up the tree.
STRATA_HD void vdBuildTree(const VdPatch& p, const TextureView& map, int level, VdNode* nodes, Vec3* grid = nullptr) {
    const VdFrame f = vdFrame(p.box);
    const bool shading = grid == nullptr;
    if (grid)
        for (uint32_t i = 0; i < vdGridCount(level); ++i) grid[i] = vdGridVertex(p, map, level, i);
    const uint32_t leaves = 1u << (2 * level), o = vdLevelOffset(level);
    for (uint32_t k = 0; k < leaves; ++k) nodes[o + k] = vdMakeLeaf(p, map, level, k, f, grid, shading);
    for (int l = level - 1; l >= 0; --l) {
        const uint32_t ol = vdLevelOffset(l), oc = vdLevelOffset(l + 1), count = 1u << (2 * l);
        for (uint32_t k = 0; k < count; ++k) nodes[ol + k] = vdMergeNodes(&nodes[oc + 4 * k], shading);
    }
}

// Pair culling (step 1, vd.pair_cull): the middle level bounds a patch by
// its four quadrants' boxes (s and t halved: quadrant q = 2 * (t >= 1/2) +
// (s >= 1/2)) instead of one box, and a ray that meets a quadrant's box is
// tested against the boxes of that quadrant's four sixteenths (halved again,
// numbered alike) before it makes a pair. The boxes hold the patch's displaced
// grid at `level`: a cell of a level l in 2 .. level lies in one sixteenth and
// its corners are vertices of the grid (the grids nest), so its triangles lie
// in that box, and a ray that meets none of the boxes cannot hit the patch at
// those levels. Below level 2 the sixteenths are their quadrant's box (a
// level-1 cell is a quadrant). Padded by 2^-16 of the patch box against
// rounding (the tree's quantized boxes are at least that much larger too).
constexpr int kVdQuadrantShift = 2;  // log2 of the quadrants per patch
constexpr int kVdCullBoxes = 16;     // sixteenths per patch, quadrant by quadrant: box 4q + k
constexpr int kVdMinCullLevel = 2;   // the sixteenths hold every cell from this level on
STRATA_HD void vdCullBoxes(const VdPatch& p, const TextureView& map, int level, Aabb quadrant[4],
                           Aabb sixteenth[kVdCullBoxes]) {
    for (int b = 0; b < kVdCullBoxes; ++b) sixteenth[b] = Aabb{};
    const uint32_t n = 1u << level, d = level < kVdMinCullLevel ? 2u : 4u;  // d x d regions
    const uint32_t w = n / d;                                               // grid cells per region side
    // The regions a vertex at i touches: two where it lies on a border.
    auto regions = [&](uint32_t i, uint32_t& r0, uint32_t& r1) {
        r1 = i / w < d ? i / w : d - 1;
        r0 = i % w == 0 && i > 0 ? i / w - 1 : r1;
    };
    const uint32_t up = 4 / d;  // sixteenths per region side
    for (uint32_t j = 0; j <= n; ++j)
        for (uint32_t i = 0; i <= n; ++i) {
            const Vec3 v = vdPosition(p, map, float(i) / n, float(j) / n);
            uint32_t x0, x1, y0, y1;
            regions(i, x0, x1);
            regions(j, y0, y1);
            for (uint32_t y = y0; y <= y1; ++y)
                for (uint32_t x = x0; x <= x1; ++x)
                    for (uint32_t b = 0; b < up; ++b)
                        for (uint32_t a = 0; a < up; ++a) {
                            const uint32_t X = x * up + a, Y = y * up + b;  // the sixteenth, 0..3 each
                            sixteenth[4 * (2 * (Y / 2) + X / 2) + 2 * (Y % 2) + X % 2].grow(v);
                        }
        }
    const Vec3 e = p.box.extent();
    const float pad = fmaxf(fmaxf(e.x, e.y), e.z) * (1.0f / 65536.0f);
    for (int q = 0; q < 4; ++q) {
        quadrant[q] = Aabb{};
        for (int k = 0; k < 4; ++k) {
            Aabb& b = sixteenth[4 * q + k];
            b = Aabb{b.lo - make3(pad), b.hi + make3(pad)};
            quadrant[q].grow(b);
        }
    }
}
// Whether the ray meets one of a quadrant's four sixteenths in [ray.tmin,
// tmax] (boxes and ray in the same space).
STRATA_HD bool vdSixteenthsHit(const Aabb* box, const Ray& ray, float tmax) {
    const Vec3 inv = safeInverse(ray.dir);
    bool hit = false;
    for (int k = 0; k < 4; ++k) hit |= slabEntry(box[k].lo, box[k].hi, ray.org, inv, ray.tmin, tmax) <= tmax;
    return hit;
}
// The level range of a patch whose finest level is `top`: pair culling's
// sixteenths need trees of at least kVdMinCullLevel where the cap allows.
STRATA_HD int vdClampLevel(int level, int top) {
    const int lo = top < kVdMinCullLevel ? (top < 1 ? 1 : top) : kVdMinCullLevel;
    return level < lo ? lo : level > top ? top : level;
}

// The two triangles of a leaf cell against the ray (object space); on a hit
// closer than tmax, tmax becomes its distance. tri: 0 (v00 v10 v11) or 1 (v00 v11 v01).
STRATA_HD bool vdIntersectCell(const Vec3 c[4], const Ray& ray, float& tmax, TriHit* hitOut = nullptr,
                               int* triOut = nullptr) {
    TriHit h;
    bool hit = false;
    if (intersectTriangle(ray, c[0], c[1], c[2], tmax, h)) {
        tmax = h.t;
        hit = true;
        if (hitOut) *hitOut = h;
        if (triOut) *triOut = 0;
    }
    if (intersectTriangle(ray, c[0], c[2], c[3], tmax, h)) {
        tmax = h.t;
        hit = true;
        if (hitOut) *hitOut = h;
        if (triOut) *triOut = 1;
    }
    return hit;
}

// Listing 1.1 of the paper, for closest hit (AnyHit: the first hit ends it).
// Returns the hit leaf's node index or kVdNoNode; tmax shrinks to the hit.
// BoxLeaves (Harada's): a leaf's box is the surface, met where the ray
// enters it. Else its two triangles, their corners read from the tree's grid
// (vdBuildTree's) when given.
template <bool AnyHit, bool BoxLeaves = false>
STRATA_HD uint32_t vdTraverse(const VdNode* nodes, const uint32_t* links, int level, const VdPatch& p,
                              const TextureView& map, const Ray& ray, float& tmax, uint32_t* leavesTested = nullptr,
                              const Vec3* grid = nullptr) {
    const VdRayFrame rf = vdRayFrame(vdFrame(p.box), ray, safeInverse(ray.dir));
    const uint32_t leafStart = vdLevelOffset(level);
    uint32_t node = 0, best = kVdNoNode;
    while (node != kVdNoNode) {
        const uint32_t link = links[node];
        if (BoxLeaves && node >= leafStart) {
            if (leavesTested) ++*leavesTested;
            const float t = vdLeafBoxEntry(nodes[node], rf, ray.tmin, tmax);
            if (t >= 0.0f) {
                tmax = t;
                best = node;
                if (AnyHit) return best;
            }
            node = vdLinkSkip(link);
        } else if (vdNodeHit(nodes[node], rf, ray.tmin, tmax)) {
            if (node >= leafStart) {
                uint32_t x, y;
                vdUnmorton(node - leafStart, x, y);
                Vec3 c[4];
                if (grid)
                    vdGridCorners(grid, level, x, y, c);
                else
                    vdCellCorners(p, map, level, x, y, c);
                if (leavesTested) ++*leavesTested;
                if (vdIntersectCell(c, ray, tmax)) {
                    best = node;
                    if (AnyHit) return best;
                }
                node = vdLinkSkip(link);
            } else {
                node = vdLinkChild(link);
            }
        } else {
            node = vdLinkSkip(link);
        }
    }
    return best;
}

}  // namespace strata
