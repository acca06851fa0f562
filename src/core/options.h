// core/options.h — the one options struct. Every option is one field, named
// "block.field" identically in the scene file ("render": {"spp": 4}), on the
// command line (--set render.spp=4), in the viewer's panel and in the CSV
// columns. Text is parsed once, here: the fields are typed (enums, a switch
// set), and the rules on combinations live in one function (unavailable()).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/kd_opts.h"

namespace strata {

// Each choice option's values, in the order of its choices in the registry
// (options.cpp); name() gives the text the scene file and the CSV use.
enum class Integrator : uint8_t { Path, Whitted };
enum class Tonemap : int32_t { Aces, Reinhard, Clamp };  // a kernel argument
enum class Backend : uint8_t { Cuda, Cpu };
enum class Builder : uint8_t { LbvhKarras, LbvhApetrei, LbvhSkip, Hploc, CpuSah, KdTree };
enum class Traversal : uint8_t { Stack, Stackless };
enum class BvhWidth : uint8_t { Two, Eight };
enum class WideCollapse : uint8_t { Sah, Greedy };
enum class MortonSort : uint8_t { Radix, Merge, Split };
enum class AccelMode : uint8_t { Flat, Instanced };
enum class Rebuild : uint8_t { EveryFrame, Animated, Refit, Auto };
enum class KdSmall : uint8_t { Zhou, Subtree };
enum class KdLargeSplit : uint8_t { Median, Sah };
enum class VdMode : uint8_t { Direct, Pretess, Off };
enum class VdLod : uint8_t { FirstRays, Camera };
enum class VdLeaf : uint8_t { Triangles, Box };
enum class VdMiddle : uint8_t { Separate, Unified };
enum class Heatmap : uint8_t { Off, Nodes, Triangles, Steps, Blas };
enum class ViewFilter : uint8_t { Off, Temporal, Svgf };

const char* name(Integrator v);
const char* name(Tonemap v);
const char* name(Backend v);
const char* name(Builder v);
const char* name(Traversal v);
const char* name(BvhWidth v);
const char* name(MortonSort v);
const char* name(WideCollapse v);
const char* name(AccelMode v);
const char* name(Rebuild v);
const char* name(KdSmall v);
const char* name(KdLargeSplit v);
const char* name(VdMode v);
const char* name(VdLod v);
const char* name(VdLeaf v);
const char* name(VdMiddle v);
const char* name(Heatmap v);
const char* name(ViewFilter v);

// The Morton-order builders: the LBVHs and H-PLOC (both backends, every mode).
inline bool isLbvh(Builder b) {
    return b == Builder::LbvhKarras || b == Builder::LbvhApetrei || b == Builder::LbvhSkip || b == Builder::Hploc;
}

struct RenderOptions {
    int width = 1280;
    int height = 720;
    int spp = 1;      // samples per pixel per frame
    int bounces = 3;  // path segments after the camera ray
    bool nee = true;  // next-event estimation with MIS
    // path: the path tracer; whitted: Whitted-style ray tracing as the kd-tree
    // chapter's R measures it (direct light through shadow rays at every hit,
    // textures, one mirror reflection per bounce; render.nee and Russian
    // roulette do not apply)
    Integrator integrator = Integrator::Path;
    int rrStart = 3;        // Russian roulette from this bounce on
    float exposure = 0.0f;  // stops
    Tonemap tonemap = Tonemap::Aces;
    uint32_t seed = 1;
    Backend backend = Backend::Cuda;
    int threads = 0;  // CPU backend worker threads (0: all cores)
    // strata's: each bounce's rays (after the camera's) traced in the order
    // of a key of their origin and direction (render/ray_order.h), so that a
    // warp's threads walk nearby parts of the tree; the same image (BVHs: bit
    // for bit; kd-trees: a tie between two triangles may fall the other way).
    bool sortRays = false;
};

struct AccelOptions {
    // lbvh-karras | lbvh-apetrei | lbvh-skip | hploc | kdtree (both backends) | cpu-sah (CPU backend)
    Builder builder = Builder::LbvhKarras;
    // stack | stackless; stackless needs lbvh-skip (unavailable() says so;
    // a renderer given another builder traces with the stack traversal).
    Traversal traversal = Traversal::Stack;
    // 2: the builder's binary tree, traced as it is; 8: collapsed into an
    // 8-wide compressed BVH every frame (Ylitie et al. 2017, accel/wide/)
    // and traced by its own kernels. A BVH builder in flat mode.
    BvhWidth width = BvhWidth::Two;
    // How width 8 collapses the binary tree: sah (the paper's, Ylitie et
    // al. §4.1: the SAH-optimal collapse by dynamic programming,
    // accel/wide/collapse_sah.h) | greedy (strata's: each wide node opens
    // its largest inner child while the children fit).
    WideCollapse wideCollapse = WideCollapse::Sah;
    int mortonBits = 63;  // 30 | 63
    // The GPU sort of the Morton codes: radix (the papers': CUB's onesweep
    // radix sort) | merge (strata's: CUB's stable merge sort, whose passes
    // do not grow with the codes' bits; faster up to about a million codes).
    // The same order.
    MortonSort mortonSort = MortonSort::Radix;
    // strata's, not the papers': the bottom-up pass of lbvh-karras,
    // lbvh-apetrei and lbvh-skip meets at nodes within a block of leaves in
    // shared memory (the same tree; accel/lbvh/lbvh_block.cuh).
    bool lbvhBlockHandOver = false;
    // strata's: the triangles are copied in the BVH's leaf order after each
    // build or refit (accel/leaf_tris.h), so a leaf test reads one record
    // instead of three dependent loads; the same hits. The stack traversals
    // of flat mode's BVH (binary or 8 wide) or of instanced mode's BLASes
    // (copiesLeafTris).
    bool copyLeafTris = true;
    // flat: instances baked into one structure (what the builder papers
    // measure); instanced: a top level over instances (rebuilt every frame),
    // a middle level per static mesh (built once) or per deforming instance.
    AccelMode mode = AccelMode::Flat;
    // Partial re-braiding (Benthin et al. 2017; accel/toplevel/rebraid.h):
    // in instanced mode the top level may open static instances' BLASes into
    // subtrees, a budget of this many more leaves per static instance shared
    // among them, the largest world-space boxes first (0: each instance one
    // leaf, the plain two levels).
    int rebraid = 0;
    // strata's: in instanced mode a static instance's top-level box is its
    // transformed object box clipped to its transformed bounding sphere
    // (accel/toplevel/instance_plan.h: memberWorldBox); false: the transformed
    // object box alone.
    bool tightInstanceBoxes = true;
    // strata's: in instanced mode the top level is built by agglomerative
    // clustering of its leaves' boxes (accel/toplevel/top_cluster.h; up to
    // kClusterMaxLeaves leaves); false: by accel.builder, as the BLASes.
    bool clusterTopLevel = true;
    // every-frame: animate and rebuild each frame (what the tool measures);
    // animated: only when scene time or a build option changed since the last
    // build (a paused scene keeps its structure); refit: animate each frame
    // and refit the last tree's boxes (a new tree only when the builder, the
    // Morton bits or the primitive count changed; Morton builders, flat mode).
    // auto: refit, and rebuild once the refitted tree's SAH has grown past
    // (1 + refitGrowth) times the SAH it had when it was built.
    Rebuild rebuild = Rebuild::EveryFrame;
    float refitGrowth = 0.02f;
    // Kd-tree build optimizations of Chang et al. (Table 13.1): accel.kd_a .. kd_e.
    KdOpts kdOpts;
    // strata's, not the chapter's: the GPU kd builder's host enqueues two
    // large-node levels ahead instead of a round trip per level (Zhou08).
    bool kdLookahead = false;
    // strata's, not the chapter's: the small-node stage evaluates only a
    // node's own candidates (compact list) and finds the SAH minimum by shuffles.
    bool kdSnsCompact = false;
    // The small-node stage's schedule: zhou (Zhou08: level by level over all
    // small nodes, a host round trip per level) | subtree (strata's: one
    // launch, a block builds each small root's subtree).
    KdSmall kdSmall = KdSmall::Zhou;
    // The large-node stage's split plane: median (Zhou08: the spatial median
    // of the longest axis) | sah (strata's: binned SAH over 32 bins per axis).
    KdLargeSplit kdLargeSplit = KdLargeSplit::Median;
    // strata's, not the chapter's: a leaf of the small-node stage keeps
    // only the triangles that cross its cell (Zhou08's masks, made once per
    // small root, keep every triangle whose bounds there reach the cell).
    bool kdClipLeaves = false;

    bool operator==(const AccelOptions& o) const;
    bool operator!=(const AccelOptions& o) const { return !(*this == o); }
};

// accel.copy_leaf_tris (accel/leaf_tris.h): whether a frame under o copies
// the triangles of a BVH in its leaf order (flat mode's tree, binary or
// collapsed 8 wide, or in instanced mode each BLAS over triangles): where a
// stack traversal reads that tree's leaves (stackless runs only with
// lbvh-skip) and all of them are triangles (mixedPrims: not a tree that
// holds VD patch boxes too, as vd.middle_level unified's do). The one rule of
// both backends, the memory estimates and Options::inert().
inline bool copiesLeafTris(const AccelOptions& o, bool mixedPrims) {
    const bool stackless = o.traversal == Traversal::Stackless && o.builder == Builder::LbvhSkip;
    return o.copyLeafTris && o.builder != Builder::KdTree && !stackless && !mixedPrims;
}

// accel.rebraid: whether instanced mode's top level opens static BLASes into
// subtrees (accel/toplevel/rebraid.h): binary BVH BLASes walked with the
// stack (a subtree is walked from any inner node; the skip links and kd-trees
// start at their root). The one rule of both backends, the memory estimates
// and Options::inert().
inline bool rebraids(const AccelOptions& o) {
    const bool stackless = o.traversal == Traversal::Stackless && o.builder == Builder::LbvhSkip;
    return o.rebraid > 0 && o.mode == AccelMode::Instanced && o.builder != Builder::KdTree && !stackless;
}

// Vector-displacement patches (Harada): how a mesh's VD quads are traced.
struct VdOptions {
    // direct: Harada's pipeline (patch boxes in the middle level: a BVH over
    // their world boxes in flat mode, each VD mesh's object-space BLAS under
    // the instances' top level in instanced mode; a quad BVH per patch built
    // on the fly per ray batch); pretess: each patch
    // tessellated to 2 * 4^level displaced triangles at load, built into the
    // middle level like any triangle; off: plain quads.
    VdMode mode = VdMode::Direct;
    int maxLevel = 5;        // subdivision level (1-7), capped per mesh by its own max_level
    float lodBias = 0;       // direct: levels added to the pixel-footprint level
    bool freezeLod = false;  // direct: keep each patch's level from when this was turned on
    bool pairCull = true;    // direct: a (patch, ray) pair only when the ray meets a quadrant box of the patch
    // direct: the last bounce's rays, which only gather emission, ask the
    // bottom level for any VD hit before their closest triangle, not the
    // closest VD hit (when no VD patch emits: the image is the same)
    bool lastBounceAnyHit = true;
    // direct, CUDA backend: the per-patch trees of level 5 and below are
    // built in the block's shared memory (strata's); false: in a global-memory
    // work buffer per block, as Harada kept them (his §1.4.2).
    bool sharedTrees = true;
    // direct: a patch's level. first-rays (strata's): from the footprint of
    // the frame's first rays that reach it, at their distance, kept for the
    // frame's later ray casts; camera: from the pixel footprint at the
    // patch's distance from the camera, for every ray of every ray cast
    // (Harada's §1.4.2).
    VdLod lod = VdLod::FirstRays;
    // direct: triangles (strata's): a leaf is the two triangles of its cell's
    // displaced vertices, read from a grid displaced once per tree (the
    // surface pre-tessellation makes); the nodes carry no normal or uv.
    // box: the leaf's box is the surface, its normal and uv the node's
    // (Harada's §1.4.1; each leaf's vertices displaced from the map).
    VdLeaf leaf = VdLeaf::Triangles;
    // direct, CUDA backend: a patch seen by many rays is split into jobs of
    // 256-2,048 rays spread over the GPU's blocks, each building the tree
    // (strata's); false: one job per patch, its tree built once per ray cast
    // (Harada's work groups).
    bool splitJobs = true;
    // direct: each patch's tree, once built, is kept (in object space, up to
    // kVdTreeCacheBytes of them) and read by later ray casts at the same
    // level instead of being built again (strata's switch: the future work
    // Harada names in §1.6); false: built for every ray cast. Off by default
    // and in both presets: it pays with box leaves, whose build displaces
    // every leaf's vertices; strata's grid build is cheaper than the copy.
    bool treeCache = false;
    // direct, flat mode with a BVH builder: where the patches' boxes are.
    // separate (strata's): a tree of their own, walked after the triangles'
    // trace up to its closest hit; unified (Harada's §1.3, §1.5.3): in the
    // triangles' tree, their pairs appended while the ray traverses it.
    VdMiddle middle = VdMiddle::Separate;

    bool operator==(const VdOptions& o) const;
    bool operator!=(const VdOptions& o) const { return !(*this == o); }
};

// What the picture shows (not what is rendered: the frame's stages run as
// they would without it).
struct ViewOptions {
    // off: the rendered image; nodes | triangles | steps: per pixel, what the
    // camera ray's traversal of the current structure did (render/heatmap.h:
    // node records read, triangles tested, backtracking steps), in colour.
    Heatmap heatmap = Heatmap::Off;
    // The count drawn at the top of the colour scale, the same for every
    // builder (0: the quantity's default, heatmapScaleOf()).
    float heatmapMax = 0;
    // off: the frame's film; temporal: each frame's radiance blended into a
    // reprojected history; svgf: that, then an edge-stopping a-trous filter
    // (render/denoise.h). On frames that start their image over; a frame
    // that accumulates onto a still image shows the film as it converges.
    ViewFilter filter = ViewFilter::Off;
};

struct AnimationOptions {
    float fps = 30.0f;       // scene time advances exactly 1/fps per frame
    float startTime = 0.0f;  // seconds
    bool play = true;
};

// The largest render.width / render.height (and the ranges in options.cpp):
// width * height pixels must index with 32 bits and fit in memory.
constexpr int kMaxRenderResolution = 16384;

enum class OptionKind { Int, Float, Bool, String };

struct OptionInfo {
    std::string key;  // "render.spp"
    OptionKind kind;
    std::string help;
    std::vector<std::string> choices;  // String options with a fixed set of values (an enum's names, in order)
    std::string detail;                // longer text (the viewer's tooltip); may be empty
    // A view of other options (accel.kd_opts of accel.kd_a..kd_e): set and get
    // go through them; the viewer shows the underlying options instead.
    bool derived = false;
};

// A value of one option that the other options rule out now, and why.
struct Unavailable {
    std::string key, value, reason;
    std::string assignment() const { return key + "=" + value; }  // "accel.builder=cpu-sah"
};

struct Options {
    RenderOptions render;
    AccelOptions accel;
    AnimationOptions animation;
    VdOptions vd;
    ViewOptions view;

    // Sets one option from text ("4", "true", "lbvh-karras"). Throws
    // strata::Error naming the key and what was expected.
    void set(const std::string& key, const std::string& value);
    // "key=value" form used by --set.
    void setAssignment(const std::string& assignment);
    std::string get(const std::string& key) const;
    // Checks every field against the range and choices set() enforces, for
    // options assigned field by field (renderers call it before allocating).
    // Throws strata::Error naming the first bad option.
    void checkValues() const;
    // checkValues(), and combinations of options that are each valid alone
    // (stackless traversal needs the lbvh-skip builder): the first current
    // value unavailable() lists. Throws strata::Error.
    void check() const;
    // The combination rules, once: every value of a choice option that the
    // other options rule out now. The panel leaves them out of its lists,
    // check() refuses them, the renderers never see them.
    std::vector<Unavailable> unavailable() const;
    // Options set away from their defaults that the other choices make do
    // nothing (the GPU kd-tree's switches with another builder or on the CPU
    // backend), each as "key = value does nothing here: why". The CLI
    // refuses them; the panel shows those switches only where they act.
    std::vector<std::string> inert() const;
    // The options whose values differ from `before`, as "key=value" of these
    // (the derived views left out: their options are listed), in the
    // registry's order: what changed between two frames (the Timings
    // window's markers).
    std::vector<std::string> changedFrom(const Options& before) const;

    static const std::vector<OptionInfo>& all();
    static const OptionInfo* find(const std::string& key);  // nullptr if unknown
};

}  // namespace strata
