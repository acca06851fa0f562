#include "core/options.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <sstream>

#include "core/error.h"

// The table below leaves OptionInfo's trailing fields (detail, derived) to
// their defaults on most rows.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace strata {
namespace {

// A field is read and written through `ref` (plain ints, floats, bools),
// or through its own accessors: enums (by their names), a bit of the kd
// switch set, and the derived views (accel.kd_opts, accel.kd_preset).
struct Field {
    OptionInfo info;
    std::function<void*(Options&)> ref;  // nullptr: the accessors below
    std::function<void(Options&, const std::string&)> setText = {};
    std::function<std::string(const Options&)> getText = {};
};

// Each enum's names, in the order of its values.
const std::vector<std::string> kIntegratorNames = {"path", "whitted"};
const std::vector<std::string> kTonemapNames = {"aces", "reinhard", "clamp"};
const std::vector<std::string> kBackendNames = {"cuda", "cpu"};
const std::vector<std::string> kBuilderNames = {"lbvh-karras", "lbvh-apetrei", "lbvh-skip", "hploc", "cpu-sah", "kdtree"};
const std::vector<std::string> kTraversalNames = {"stack", "stackless"};
const std::vector<std::string> kWidthNames = {"2", "8"};
const std::vector<std::string> kMortonSortNames = {"radix", "merge", "split"};
const std::vector<std::string> kWideCollapseNames = {"sah", "greedy"};
const std::vector<std::string> kModeNames = {"flat", "instanced"};
const std::vector<std::string> kRebuildNames = {"every-frame", "animated", "refit", "auto"};
const std::vector<std::string> kKdSmallNames = {"zhou", "subtree"};
const std::vector<std::string> kKdLargeSplitNames = {"median", "sah"};
const std::vector<std::string> kVdModeNames = {"direct", "pretess", "off"};
const std::vector<std::string> kVdLodNames = {"first-rays", "camera"};
const std::vector<std::string> kVdLeafNames = {"triangles", "box"};
const std::vector<std::string> kVdMiddleNames = {"separate", "unified"};
const std::vector<std::string> kHeatmapNames = {"off", "nodes", "triangles", "steps", "blas"};
const std::vector<std::string> kViewFilterNames = {"off", "temporal", "svgf"};

template <class E>
const char* enumName(E v, const std::vector<std::string>& names) {
    const size_t i = size_t(v);
    return i < names.size() ? names[i].c_str() : "?";
}

bool parseBool(const std::string& key, const std::string& value) {
    if (value == "true" || value == "1" || value == "on") return true;
    if (value == "false" || value == "0" || value == "off") return false;
    throw Error("option '" + key + "': expected true or false, got '" + value + "'");
}

// A choice option held as an enum: its choices are the enum's names.
template <class E>
Field choiceField(OptionInfo info, const std::vector<std::string>& names, E& (*member)(Options&)) {
    info.kind = OptionKind::String;
    info.choices = names;
    const std::string key = info.key;
    return Field{
        info, nullptr,
        [key, names, member](Options& o, const std::string& value) {
            for (size_t i = 0; i < names.size(); ++i)
                if (names[i] == value) {
                    member(o) = E(i);
                    return;
                }
            std::string list;
            for (const std::string& c : names) list += (list.empty() ? "" : ", ") + c;
            throw Error("option '" + key + "': expected one of " + list + ", got '" + value + "'");
        },
        [names, member](const Options& o) { return std::string(enumName(member(const_cast<Options&>(o)), names)); }};
}

// accel.kd_a .. kd_e: one bit of accel.kd_opts each.
Field kdSwitchField(OptionInfo info, KdOpts::Bit bit) {
    const std::string key = info.key;
    return Field{info, nullptr,
                 [key, bit](Options& o, const std::string& value) { o.accel.kdOpts.set(bit, parseBool(key, value)); },
                 [bit](const Options& o) { return std::string(o.accel.kdOpts.has(bit) ? "true" : "false"); }};
}

void setKdOpts(Options& o, const std::string& value) {
    bool on[5] = {};
    if (value != "none" && value != "original") {
        const std::string v = value == "all" ? "ABCDE" : value;
        if (v.empty()) throw Error("option 'accel.kd_opts': expected a subset of ABCDE, 'all' or 'none', got ''");
        for (char c : v) {
            int k = (c >= 'a' && c <= 'e') ? c - 'a' : (c >= 'A' && c <= 'E') ? c - 'A' : -1;
            if (k < 0 || on[k])
                throw Error(
                    "option 'accel.kd_opts': expected a subset of ABCDE (each letter once), 'all' or "
                    "'none', got '" +
                    value + "'");
            on[k] = true;
        }
    }
    KdOpts opts;
    for (int k = 0; k < 5; ++k) opts.set(KdOpts::Bit(1u << k), on[k]);
    o.accel.kdOpts = opts;
}

std::string getKdOpts(const Options& o) { return o.accel.kdOpts.letters(); }

// accel.kd_preset: the chapter's Original and All, and All with every one of
// strata's kd switches on top; "custom" names any other combination (setting
// it changes nothing).
void setKdPreset(Options& o, const std::string& value) {
    const bool strata = value == "all+strata";
    if (value == "custom") return;
    if (value != "original" && value != "all" && !strata)
        throw Error("option 'accel.kd_preset': expected original, all or all+strata, got '" + value + "'");
    o.accel.kdOpts = value == "original" ? KdOpts{} : KdOpts::all();
    o.accel.kdLookahead = strata;
    o.accel.kdSnsCompact = strata;
    o.accel.kdSmall = strata ? KdSmall::Subtree : KdSmall::Zhou;
    o.accel.kdLargeSplit = strata ? KdLargeSplit::Sah : KdLargeSplit::Median;
}

std::string getKdPreset(const Options& o) {
    const AccelOptions& a = o.accel;
    const bool none =
        !a.kdLookahead && !a.kdSnsCompact && a.kdSmall == KdSmall::Zhou && a.kdLargeSplit == KdLargeSplit::Median &&
        !a.kdClipLeaves;
    const bool every = a.kdLookahead && a.kdSnsCompact && a.kdSmall == KdSmall::Subtree &&
                       a.kdLargeSplit == KdLargeSplit::Sah && !a.kdClipLeaves;
    if (a.kdOpts == KdOpts{} && none) return "original";
    if (a.kdOpts == KdOpts::all() && none) return "all";
    if (a.kdOpts == KdOpts::all() && every) return "all+strata";
    return "custom";
}

// vd.method: Harada's bottom level as his chapter describes it, or strata's
// defaults; "custom" names any other combination (setting it changes
// nothing). The same values whatever the backend (the CPU backend keeps its
// trees in host memory and its patches one job each, whatever
// vd.shared_trees and vd.split_jobs say).
void setVdMethod(Options& o, const std::string& value) {
    if (value == "custom") return;
    if (value != "harada" && value != "strata")
        throw Error("option 'vd.method': expected harada, strata or custom, got '" + value + "'");
    const bool strata = value == "strata";
    VdOptions& v = o.vd;
    v.lod = strata ? VdLod::FirstRays : VdLod::Camera;
    v.leaf = strata ? VdLeaf::Triangles : VdLeaf::Box;
    v.splitJobs = strata;
    v.treeCache = false;  // strata's, but it pays only with box leaves (VdOptions)
    v.pairCull = strata;
    v.lastBounceAnyHit = strata;
    v.sharedTrees = strata;
    v.middle = strata ? VdMiddle::Separate : VdMiddle::Unified;
}

std::string getVdMethod(const Options& o) {
    const VdOptions& v = o.vd;
    if (v.lod == VdLod::Camera && v.leaf == VdLeaf::Box && !v.splitJobs && !v.treeCache && !v.pairCull &&
        !v.lastBounceAnyHit && !v.sharedTrees && v.middle == VdMiddle::Unified)
        return "harada";
    if (v.lod == VdLod::FirstRays && v.leaf == VdLeaf::Triangles && v.splitJobs && !v.treeCache && v.pairCull &&
        v.lastBounceAnyHit && v.sharedTrees && v.middle == VdMiddle::Separate)
        return "strata";
    return "custom";
}

const std::vector<Field>& fields() {
    static const std::vector<Field> table = {
        {{"render.width", OptionKind::Int, "image width in pixels", {}},
         [](Options& o) -> void* { return &o.render.width; }},
        {{"render.height", OptionKind::Int, "image height in pixels", {}},
         [](Options& o) -> void* { return &o.render.height; }},
        {{"render.spp", OptionKind::Int, "samples per pixel per frame", {}},
         [](Options& o) -> void* { return &o.render.spp; }},
        {{"render.bounces", OptionKind::Int, "path segments after the camera ray", {}},
         [](Options& o) -> void* { return &o.render.bounces; }},
        {{"render.nee", OptionKind::Bool, "next-event estimation with MIS", {}},
         [](Options& o) -> void* { return &o.render.nee; }},
        choiceField(
            {"render.integrator", OptionKind::String,
             "path: path tracing; whitted: direct light, textures and one mirror reflection per bounce (the kd-tree "
             "chapter's R)"},
            kIntegratorNames, +[](Options & o) -> auto& { return o.render.integrator; }),
        {{"render.rr_start", OptionKind::Int, "Russian roulette from this bounce on", {}},
         [](Options& o) -> void* { return &o.render.rrStart; }},
        {{"render.exposure", OptionKind::Float, "exposure in stops", {}},
         [](Options& o) -> void* { return &o.render.exposure; }},
        choiceField(
            {"render.tonemap", OptionKind::String, "tone-mapping operator"}, kTonemapNames,
            +[](Options & o) -> auto& { return o.render.tonemap; }),
        {{"render.seed", OptionKind::Int, "random seed", {}}, [](Options& o) -> void* { return &o.render.seed; }},
        choiceField(
            {"render.backend", OptionKind::String, "renderer backend"}, kBackendNames,
            +[](Options & o) -> auto& { return o.render.backend; }),
        {{"render.threads", OptionKind::Int, "CPU backend threads (0: all cores)", {}},
         [](Options& o) -> void* { return &o.render.threads; }},
        {{"render.sort_rays",
          OptionKind::Bool,
          "strata: each bounce's rays traced in the order of their origin and direction",
          {},
          "strata's: before each bounce after the camera rays, the queue's rays are sorted by a key that "
          "interleaves the bits of their origin (in the scene's box) and their direction, 4 bits a coordinate "
          "(render/ray_order.h; on the GPU one 24-bit radix sort of the whole queue, timed as trace/sort). The "
          "threads of a warp then walk nearby parts of the tree, and the shadow rays shading spawns come in that "
          "order too. The same image (with BVHs bit for bit; a kd-tree's speculative walk may take the other of two "
          "triangles at the same distance). It pays where warps diverge most (instanced mode); in flat mode the sort "
          "can cost more than it saves (docs/perf.md)."},
         [](Options& o) -> void* { return &o.render.sortRays; }},
        choiceField(
            {"accel.builder", OptionKind::String, "acceleration structure builder"}, kBuilderNames,
            +[](Options & o) -> auto& { return o.accel.builder; }),
        choiceField(
            {"accel.traversal", OptionKind::String, "ray traversal (stackless needs accel.builder lbvh-skip)"},
            kTraversalNames, +[](Options & o) -> auto& { return o.accel.traversal; }),
        choiceField(
            {"accel.width",
             OptionKind::String,
             "BVH width: 2 (the builder's binary tree) or 8 (collapsed every frame into an 8-wide compressed BVH, "
             "Ylitie et al. 2017, and traced by its own kernels)",
             {},
             "8: a stage of its own, build/collapse, after the build: the binary tree's subtrees are chosen as "
             "each wide node's up to 8 children (accel.wide_collapse); child boxes quantized to 8 bits on "
             "the node's grid; slots ordered by direction, so each ray meets them about front to back. A BVH "
             "builder in flat mode, with the stack traversal."},
            kWidthNames, +[](Options & o) -> auto& { return o.accel.width; }),
        choiceField(
            {"accel.wide_collapse",
             OptionKind::String,
             "how accel.width = 8 collapses the binary tree: sah (the paper's) or greedy (strata's)",
             {},
             "sah: Ylitie et al.'s SAH-optimal collapse (HPG 2017, section 4.1): a dynamic program over the binary "
             "tree, bottom up, finds for every node the cheapest forest of 1 to 8 roots (node cost 1, primitive "
             "cost 0.3, leaves of up to 3 primitives), then each wide node takes the subtrees it chose. greedy: "
             "strata's, no bottom-up pass: each wide node starts with its binary node's two children and opens the "
             "inner child of largest area while the children fit the 8 slots (two leaves of up to 3 primitives "
             "in all make one leaf slot)."},
            kWideCollapseNames, +[](Options & o) -> auto& { return o.accel.wideCollapse; }),
        {{"accel.morton_bits", OptionKind::Int, "LBVH Morton code bits (30 or 63)", {}},
         [](Options& o) -> void* { return &o.accel.mortonBits; }},
        choiceField(
            {"accel.morton_sort",
             OptionKind::String,
             "the GPU sort of the Morton codes: radix (the papers'), merge or split (strata's; the same order)",
             {},
             "radix: CUB's onesweep radix sort, 8 bits a pass (8 passes over 63-bit codes), as the LBVH papers sort. "
             "merge: strata's, CUB's stable merge sort (tiles sorted in blocks, then merged), whose passes do not "
             "grow with the codes' bits: faster on the H100 up to about a million codes, slower above. "
             "split: strata's, 63-bit codes by their top 32 bits with CUB's radix sort (4 passes over 32-bit keys), "
             "then each run of equal tops by the whole code (a thread per short run, a block per long one): the "
             "fastest on the H100 at 1M-4M codes, slower where many primitives share their tops (the Conference "
             "room's small parts; a tiny model beside a huge one at worst); 30-bit codes sort by radix. "
             "All keep equal codes in primitive order: the same order, the same tree. Every Morton-order build on "
             "the GPU (the LBVHs, H-PLOC, the kd-tree's top and VD middle levels)."},
            kMortonSortNames, +[](Options & o) -> auto& { return o.accel.mortonSort; }),
        {{"accel.lbvh_block_hand_over",
          OptionKind::Bool,
          "strata: the LBVH bottom-up pass meets within a block in shared memory (the same tree)",
          {},
          "strata's, not the papers': in the bottom-up pass of lbvh-karras, lbvh-apetrei and lbvh-skip (a thread "
          "per leaf; at each node the first of its two children's threads stops, the second goes on), a node whose "
          "range of leaves lies within one block of 128 leaves has both threads in that block: they vote with a "
          "shared-memory atomic and hand the subtree over in shared memory. Every other node as published, in "
          "global memory. The tree is the same node for node. GPU only; H-PLOC has its own pass."},
         [](Options& o) -> void* { return &o.accel.lbvhBlockHandOver; }},
        {{"accel.copy_leaf_tris",
          OptionKind::Bool,
          "strata: the triangles copied in the tree's leaf order each frame (the same hits, fewer loads per test)",
          {},
          "strata's: after each build or refit (stage build/leaf_tris) every leaf entry's triangle is copied into "
          "one 48-byte record in the entries' order, so a leaf test reads its three vertices there instead of "
          "following the entry to the triangle and its vertex indices. The same vertices, the same test: the same "
          "hits. A BVH with a stack traversal: flat mode's tree (binary, or its 8-wide collapse in the wide "
          "tree's leaf order), or in instanced mode each BLAS over "
          "triangles (a static mesh's once per build, a deforming instance's every frame); not with "
          "vd.middle_level unified where a tree holds VD patch boxes (in instanced mode then no BLAS copies). "
          "Off: the leaf entries index the scene's triangles."},
         [](Options& o) -> void* { return &o.accel.copyLeafTris; }},
        choiceField(
            {"accel.mode", OptionKind::String,
             "flat: all instances baked into one structure; instanced: a top level over instances, a middle level per "
             "mesh (built by accel.builder: an LBVH variant, the binned SAH, or kd-trees under a Karras LBVH top "
             "level)"},
            kModeNames, +[](Options & o) -> auto& { return o.accel.mode; }),
        {{"accel.rebraid",
          OptionKind::Int,
          "instanced mode: open static instances into more top-level leaves, N per static instance shared among "
          "them (partial re-braiding, Benthin et al. 2017; 0: off)",
          {},
          "Each static instance is first one leaf of the top level. With N > 0 the largest leaves in world space "
          "(by surface area, whichever instance's) are opened into their two child subtrees, each a leaf of its "
          "own (the same instance, its BLAS walked from that node), until the top level has N more leaves per "
          "static instance or none opens further: a node opens only when both its children are inner nodes. Made every "
          "frame "
          "from the instances' transforms; deforming instances stay whole. The paper's merge step is not done. "
          "BVH BLASes with the stack traversal (not kdtree, not stackless). Measured slower on the H100 at every "
          "N (docs/perf.md)."},
         [](Options& o) -> void* { return &o.accel.rebraid; }},
        {{"accel.tight_instance_boxes",
          OptionKind::Bool,
          "strata: instanced mode: a static instance's top-level box clipped to its transformed bounding sphere",
          {},
          "strata's: in instanced mode each static instance's world box in the top level is its transformed "
          "object box clipped to the box of its transformed bounding sphere (about the object box's centre, "
          "holding every vertex or VD patch box; under scaling an ellipsoid, whose box is exact). A turned "
          "instance's box no longer grows with the turn (a sphere turned by 45 degrees keeps its width, where "
          "its turned box reaches 1.41 to 1.73 times as far), so fewer rays enter a BLAS they miss. The same "
          "hits. Also the VD patches' top level in instanced mode, and re-braided parts (accel.rebraid: their "
          "nodes' transformed boxes clipped to it). Off: the transformed object box. Deforming instances' boxes "
          "are their world-space primitives' union either way."},
         [](Options& o) -> void* { return &o.accel.tightInstanceBoxes; }},
        {{"accel.cluster_top_level",
          OptionKind::Bool,
          "strata: instanced mode: the top level built by agglomerative clustering of its leaves' boxes",
          {},
          "strata's: in instanced mode the top level is built bottom-up each frame by agglomerative clustering "
          "(Walter et al. 2008) in PLOC's parallel rounds with no window: each cluster finds the one whose merged "
          "box has the least surface area, and mutual nearest pairs merge (equal distances ordered as PLOC "
          "orders them); on the GPU in one block. An LBVH or a binned SAH splits the leaves by their centres, so "
          "a large instance (a hall around its props) sits among the small ones and every node above it spans "
          "the scene; clustered, it is merged last. Up to 256 top-level leaves (a round costs n^2 distances; "
          "more: accel.builder's tree). The same hits. Off: the top level is built by accel.builder, as the "
          "BLASes (Karras's LBVH under kd-tree BLASes)."},
         [](Options& o) -> void* { return &o.accel.clusterTopLevel; }},
        choiceField(
            {"accel.rebuild", OptionKind::String,
             "every-frame: animate and rebuild each frame; animated: only when scene time or a build option changed; "
             "refit: animate each frame and refit the last tree's boxes (a Morton-order builder; in instanced mode "
             "each deforming instance's BLAS); auto: refit, and rebuild once the SAH has grown by accel.refit_growth "
             "(instanced: per BLAS, one such rebuild a frame, the BLAS grown most)"},
            kRebuildNames, +[](Options & o) -> auto& { return o.accel.rebuild; }),
        {{"accel.refit_growth",
          OptionKind::Float,
          "accel.rebuild = auto: rebuild once the refitted tree's SAH exceeds the built tree's by this fraction "
          "(0.02: 2%)",
          {}},
         [](Options& o) -> void* { return &o.accel.refitGrowth; }},
        kdSwitchField({"accel.kd_a",
                       OptionKind::Bool,
                       "[A] LNS1 triangle sorting: per-block atomics",
                       {},
                       "Replaces Original's triangle sorting by two segmented scans over global arrays (Fig. "
                       "13.1: per-triangle flags, chunk and node offsets, several launches) with two atomicAdds "
                       "per block into a 2*n_i allocation per node (Fig. 13.2)."},
                      KdOpts::A),
        kdSwitchField({"accel.kd_b",
                       OptionKind::Bool,
                       "[B] LNS1 intra-block scans: ballot/popc + shfl",
                       {},
                       "Replaces the work-efficient shared-memory intra-block scans (Sengupta/Harris up-sweep "
                       "and down-sweep) with __ballot_sync/__popc within each warp and __shfl_up_sync across the "
                       "warps."},
                      KdOpts::B),
        kdSwitchField({"accel.kd_c",
                       OptionKind::Bool,
                       "[C] LNS2 node AABBs: per-block atomics",
                       {},
                       "Replaces the six segmented reductions over global arrays (min and max on x, y, z) that "
                       "give each node its AABB with six atomic min/max per block (order-preserving integer "
                       "encodings of the floats)."},
                      KdOpts::C),
        kdSwitchField({"accel.kd_d",
                       OptionKind::Bool,
                       "[D] LNS2 intra-block reductions: shfl",
                       {},
                       "Replaces the shared-memory tree reductions inside each block (the chunk AABBs of the "
                       "large-node stage) with __shfl_xor_sync butterflies within each warp, then across the "
                       "warp results."},
                      KdOpts::D),
        kdSwitchField({"accel.kd_e",
                       OptionKind::Bool,
                       "[E] SNS bit counting: popc",
                       {},
                       "Replaces the small-node stage's parallel bit count (SWAR shifts and masks, no __popc) and "
                       "its shared-memory Hillis-Steele flag scans with __popcll on the 64-bit triangle masks."},
                      KdOpts::E),
        {{"accel.kd_lookahead",
          OptionKind::Bool,
          "strata: kd large-node levels enqueued ahead (not in Table 13.1)",
          {},
          "strata's, not the chapter's: the host enqueues the next two large-node levels before it reads a level's "
          "sizes back (they stay on the device; the kernels loop over them). Off: one host round trip per level, as "
          "Zhou08 and the chapter's Original and All. The tree is the same."},
         [](Options& o) -> void* { return &o.accel.kdLookahead; }},
        {{"accel.kd_sns_compact",
          OptionKind::Bool,
          "strata: kd small-node candidates from a compact list, SAH minimum by shuffles (not in Table 13.1)",
          {},
          "strata's, not the chapter's: each small node lists its own triangles (popc of the mask below each bit) "
          "and evaluates only their 6n split candidates, then finds the SAH minimum with warp shuffles. Off: every "
          "candidate of the small root with a mask test, a shared-memory tree reduction (Zhou08; the chapter's [E] "
          "changes only the bit counting and scans). The tree is the same."},
         [](Options& o) -> void* { return &o.accel.kdSnsCompact; }},
        choiceField(
            {"accel.kd_small",
             OptionKind::String,
             "kd small-node stage: zhou (level by level, Zhou08) or subtree (strata: one launch)",
             {},
             "zhou: Zhou08's small-node stage, as the chapter's Original and All ran it: one launch per level over "
             "every "
             "small node of the level and a host round trip for the next level's size. subtree (strata's, not the "
             "chapter's): one launch in which a block builds each small root's whole subtree in shared memory. The "
             "tree "
             "is the same."},
            kKdSmallNames, +[](Options & o) -> auto& { return o.accel.kdSmall; }),
        choiceField(
            {"accel.kd_large_split",
             OptionKind::String,
             "kd large-node split: median (Zhou08) or sah (strata: binned SAH, 32 bins per axis)",
             {},
             "median: Zhou08's large-node stage splits at the spatial median of the longest axis of the node's "
             "triangle box, as the chapter's Original and All. sah (strata's, not the chapter's): each chunk bins its "
             "triangles over the node's box (32 bins per axis, one kernel per level more) and the node splits at the "
             "bin boundary of least SAH on any axis. A different tree; the CPU reference builds the same one."},
            kKdLargeSplitNames, +[](Options & o) -> auto& { return o.accel.kdLargeSplit; }),
        {{"accel.kd_clip_leaves",
          OptionKind::Bool,
          "strata: kd leaves keep only the triangles that cross their cells (not in Table 13.1)",
          {},
          "strata's, not the chapter's: each leaf the small-node stage's SAH makes clips its triangles to its cell "
          "and keeps those that cross it (the same splits, fewer entries). Off: Zhou08's masks, made once per "
          "small root from the bounds the triangles had there, keep a triangle in every leaf those bounds reach. "
          "The CPU reference builds the same tree."},
         [](Options& o) -> void* { return &o.accel.kdClipLeaves; }},
        {{"accel.kd_preset",
          OptionKind::String,
          "kd-tree switches at once: original, all (the chapter's Original and All), all+strata (All with strata's "
          "switches on top)",
          {"original", "all", "all+strata", "custom"},
          "Sets accel.kd_a .. kd_e and strata's accel.kd_lookahead, accel.kd_sns_compact, accel.kd_small, "
          "accel.kd_large_split (not accel.kd_clip_leaves: its build costs more than its trace saves). Reads "
          "'custom' for any other combination (setting custom changes nothing).",
          true},
         nullptr,
         setKdPreset,
         getKdPreset},
        {{"accel.kd_opts",
          OptionKind::String,
          "kd-tree [A]-[E] as one value: a subset of ABCDE, 'all', or 'none' (Original)",
          {},
          "Shorthand for accel.kd_a .. accel.kd_e.",
          true},
         nullptr,
         setKdOpts,
         getKdOpts},
        choiceField(
            {"vd.mode", OptionKind::String,
             "VD patches: direct (quad BVH per patch built on the fly), pretess (tessellated to displaced triangles at "
             "vd.max_level), off (plain quads)"},
            kVdModeNames, +[](Options & o) -> auto& { return o.vd.mode; }),
        {{"vd.max_level", OptionKind::Int, "VD patch subdivision level (1-7; 2^level cells per side)", {}},
         [](Options& o) -> void* { return &o.vd.maxLevel; }},
        {{"vd.lod_bias", OptionKind::Float, "direct: levels added to the level from the pixel footprint", {}},
         [](Options& o) -> void* { return &o.vd.lodBias; }},
        {{"vd.freeze_lod", OptionKind::Bool, "direct: keep each patch's level from when this was turned on", {}},
         [](Options& o) -> void* { return &o.vd.freezeLod; }},
        {{"vd.pair_cull",
          OptionKind::Bool,
          "direct: bound each patch in the middle level by its four quadrants' boxes and make a (patch, ray) pair "
          "only when the ray also meets a box of one of their sixteenths, not whenever it enters the patch box",
          {}},
         [](Options& o) -> void* { return &o.vd.pairCull; }},
        {{"vd.last_bounce_any_hit",
          OptionKind::Bool,
          "direct: rays of the last bounce, which only gather emission, stop at any VD hit before their closest "
          "triangle instead of finding the closest VD hit (same image; off when a VD patch emits)",
          {}},
         [](Options& o) -> void* { return &o.vd.lastBounceAnyHit; }},
        {{"vd.shared_trees",
          OptionKind::Bool,
          "direct, CUDA backend: build each patch's tree (level 5 and below) in the block's shared memory (strata's); "
          "false: in a global-memory buffer per block, as Harada did (the CPU backend keeps its trees in host memory "
          "either way)",
          {}},
         [](Options& o) -> void* { return &o.vd.sharedTrees; }},
        choiceField(
            {"vd.lod", OptionKind::String,
             "direct: a patch's level from the footprint of the frame's first rays to reach it, kept for the frame "
             "(first-rays, strata's), or from the pixel footprint at its distance from the camera for every ray "
             "(camera, Harada's)"},
            kVdLodNames, +[](Options & o) -> auto& { return o.vd.lod; }),
        choiceField(
            {"vd.leaf", OptionKind::String,
             "direct: a leaf is the two triangles of its cell's displaced vertices (triangles, strata's: the surface "
             "pre-tessellation makes) or its box with the node's normal and uv (box, Harada's)"},
            kVdLeafNames, +[](Options & o) -> auto& { return o.vd.leaf; }),
        {{"vd.split_jobs",
          OptionKind::Bool,
          "direct, CUDA backend: split a patch's rays into jobs of 256-2,048 spread over the GPU, each building the "
          "tree (strata's); false: one job per patch, its tree built once per ray cast (Harada's)",
          {}},
         [](Options& o) -> void* { return &o.vd.splitJobs; }},
        {{"vd.tree_cache",
          OptionKind::Bool,
          "direct: keep each patch's tree once built (object space, up to 256 MiB of them) for later ray casts at "
          "the same level, in this frame and the next (strata's; Harada's future work; pays with vd.leaf box); "
          "false: build it for every ray cast",
          {}},
         [](Options& o) -> void* { return &o.vd.treeCache; }},
        choiceField(
            {"vd.middle_level", OptionKind::String,
             "direct: the patches' boxes in a hierarchy of their own walked after the triangles' trace "
             "(separate, strata's) or in the triangles' BVH, their pairs appended during its traversal (unified, "
             "Harada's one middle level; instanced mode: each VD mesh's BLAS holds its patches' boxes after its "
             "triangles, under one top level over every instance)"},
            kVdMiddleNames, +[](Options & o) -> auto& { return o.vd.middle; }),
        {{"vd.method",
          OptionKind::String,
          "VD switches at once: harada (the bottom level as his chapter describes it) or strata (strata's "
          "defaults)",
          {"harada", "strata", "custom"},
          "harada: vd.lod camera, vd.leaf box, vd.split_jobs false, vd.tree_cache false, vd.pair_cull false (the "
          "patches' loose boxes), vd.middle_level unified, vd.last_bounce_any_hit false, vd.shared_trees "
          "false. strata: the other value of each but vd.tree_cache, off in both (it pays with box leaves only). "
          "Reads 'custom' for any other combination (setting custom changes nothing). Flat and instanced mode; "
          "the kd-tree cannot hold the patch boxes, so it rules out the preset.",
          true},
         nullptr,
         setVdMethod,
         getVdMethod},
        choiceField(
            {"view.heatmap",
             OptionKind::String,
             "show per pixel what the camera ray's traversal did: nodes (node records read), triangles (triangles "
             "tested), steps (backtracking: stack pops, skip-link jumps), blas (instanced mode: BLASes entered); "
             "off: the rendered image",
             {},
             "A heatmap pass after the frame traces one camera ray per pixel centre through the current structure "
             "with counters on (its own stage, 'heatmap'; the frame's other stages run as without it). Every "
             "builder and traversal counts the same way; both levels in instanced mode; VD patches are not "
             "counted. The frame's totals are the CSV's heat_* columns."},
            kHeatmapNames, +[](Options & o) -> auto& { return o.view.heatmap; }),
        {{"view.heatmap_max",
          OptionKind::Float,
          "view.heatmap: the count at the top of the colour scale, shared by every builder (0: nodes 100, "
          "triangles 20, steps 30, blas 4)",
          {}},
         [](Options& o) -> void* { return &o.view.heatmapMax; }},
        choiceField(
            {"view.filter",
             OptionKind::String,
             "a picture while it moves: temporal (each frame blended into its reprojected history), svgf (that, then "
             "an edge-stopping a-trous filter, after Schied et al. 2017); off: the frame as rendered",
             {},
             "Runs on frames that start their image over (a moving camera or scene), as its own stage ('filter'): a "
             "camera ray per pixel centre for depth and normal, the temporal blend where the previous frame saw the "
             "same surface, and with svgf five a-trous passes weighted by depth, normal and luminance against its "
             "variance. A still image that accumulates shows the film as it converges. Off in benchmarks and "
             "recordings unless set."},
            kViewFilterNames, +[](Options & o) -> auto& { return o.view.filter; }),
        {{"animation.fps", OptionKind::Float, "scene time per frame is 1/fps seconds", {}},
         [](Options& o) -> void* { return &o.animation.fps; }},
        {{"animation.start_time", OptionKind::Float, "scene time of the first frame (s)", {}},
         [](Options& o) -> void* { return &o.animation.startTime; }},
        {{"animation.play", OptionKind::Bool, "advance scene time every frame", {}},
         [](Options& o) -> void* { return &o.animation.play; }},
    };
    return table;
}

const Field& field(const std::string& key) {
    for (const Field& f : fields())
        if (f.info.key == key) return f;
    std::string known;
    for (const Field& f : fields()) known += (known.empty() ? "" : ", ") + f.info.key;
    throw Error("unknown option '" + key + "' (known options: " + known + ")");
}

const char* kindName(OptionKind k) {
    switch (k) {
        case OptionKind::Int: return "an integer";
        case OptionKind::Float: return "a number";
        case OptionKind::Bool: return "true or false";
        case OptionKind::String: return "a string";
    }
    return "?";
}

void checkRange(const std::string& key, double v, double lo, double hi) {
    if (v < lo || v > hi) {
        std::ostringstream s;
        s << "option '" << key << "' = " << v << " is out of range [" << lo << ", " << hi << "]";
        throw Error(s.str());
    }
}

}  // namespace

const std::vector<OptionInfo>& Options::all() {
    static const std::vector<OptionInfo> infos = [] {
        std::vector<OptionInfo> v;
        for (const Field& f : fields()) v.push_back(f.info);
        return v;
    }();
    return infos;
}

const OptionInfo* Options::find(const std::string& key) {
    for (const Field& f : fields())
        if (f.info.key == key) return &f.info;
    return nullptr;
}

void Options::set(const std::string& key, const std::string& value) {
    const Field& f = field(key);
    if (f.setText) return f.setText(*this, value);
    void* p = f.ref(*this);
    auto bad = [&]() {
        return Error("option '" + key + "': expected " + kindName(f.info.kind) + ", got '" + value + "'");
    };
    switch (f.info.kind) {
        case OptionKind::Int: {
            errno = 0;
            char* end = nullptr;
            long long v = std::strtoll(value.c_str(), &end, 10);
            if (value.empty() || *end != '\0' || errno != 0) throw bad();
            if (key == "render.seed") {
                checkRange(key, double(v), 0, 4294967295.0);
                *static_cast<uint32_t*>(p) = static_cast<uint32_t>(v);
                return;
            }
            if (key == "render.width" || key == "render.height")
                checkRange(key, double(v), 1, kMaxRenderResolution);
            else if (key == "render.spp")
                checkRange(key, double(v), 1, 65536);
            else if (key == "render.bounces")
                checkRange(key, double(v), 0, 64);
            else if (key == "render.threads")
                checkRange(key, double(v), 0, 1024);
            else if (key == "render.rr_start")
                checkRange(key, double(v), 0, 1024);
            else if (key == "accel.rebraid")
                checkRange(key, double(v), 0, 65536);
            else if (key == "vd.max_level")
                checkRange(key, double(v), 1, 7);
            else if (key == "accel.morton_bits") {
                if (v != 30 && v != 63)
                    throw Error("option 'accel.morton_bits': expected 30 or 63, got '" + value + "'");
            }
            *static_cast<int*>(p) = static_cast<int>(v);
            return;
        }
        case OptionKind::Float: {
            errno = 0;
            char* end = nullptr;
            double v = std::strtod(value.c_str(), &end);
            if (value.empty() || *end != '\0' || errno != 0 || !std::isfinite(v)) throw bad();
            // A float holds the value (1e39 would become inf), and scene time
            // stays within a billion seconds (frame indices and blends stay exact enough).
            checkRange(key, v, -3.0e38, 3.0e38);
            if (key == "animation.fps") checkRange(key, v, 0.001, 10000);
            if (key == "animation.start_time") checkRange(key, v, -1e9, 1e9);
            if (key == "render.exposure") checkRange(key, v, -64, 64);
            if (key == "vd.lod_bias") checkRange(key, v, -8, 8);
            if (key == "accel.refit_growth") checkRange(key, v, 0, 100);
            if (key == "view.heatmap_max") checkRange(key, v, 0, 1e9);
            *static_cast<float*>(p) = static_cast<float>(v);
            return;
        }
        case OptionKind::Bool: *static_cast<bool*>(p) = parseBool(key, value); return;
        case OptionKind::String: throw Error("option '" + key + "': no text field");  // enums have accessors
    }
}

void Options::setAssignment(const std::string& assignment) {
    size_t eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0) throw Error("--set expects key=value, got '" + assignment + "'");
    set(assignment.substr(0, eq), assignment.substr(eq + 1));
}

std::string Options::get(const std::string& key) const {
    const Field& f = field(key);
    if (f.getText) return f.getText(*this);
    void* p = f.ref(const_cast<Options&>(*this));
    switch (f.info.kind) {
        case OptionKind::Int:
            if (key == "render.seed") return std::to_string(*static_cast<uint32_t*>(p));
            return std::to_string(*static_cast<int*>(p));
        case OptionKind::Float: {
            std::ostringstream s;
            s << *static_cast<float*>(p);
            return s.str();
        }
        case OptionKind::Bool: return *static_cast<bool*>(p) ? "true" : "false";
        case OptionKind::String: return {};
    }
    return {};
}

void Options::checkValues() const {
    // The same checks as set(), on each field's text: one table of ranges.
    Options scratch;
    for (const Field& f : fields()) scratch.set(f.info.key, get(f.info.key));
}

std::vector<Unavailable> Options::unavailable() const {
    std::vector<Unavailable> out;
    if (render.backend == Backend::Cuda)
        out.push_back({"accel.builder", "cpu-sah",
                       "the binned-SAH builder runs on the CPU backend only (render.backend = 'cpu')"});
    // Refitting moves a tree's boxes and keeps its shape: the BVHs of the
    // Morton-order builders (one primitive per leaf), the flat one or, in
    // instanced mode, each deforming instance's BLAS.
    const char* refitNeeds =
        "accel.rebuild = 'refit' or 'auto' keeps a BVH's tree and refits its boxes: it needs a Morton-order builder "
        "(lbvh-karras, lbvh-apetrei, lbvh-skip, hploc)";
    if (!isLbvh(accel.builder))
        for (const char* r : {"refit", "auto"})
            out.push_back({"accel.rebuild", r,
                           std::string(refitNeeds) + ", got accel.builder = '" + name(accel.builder) + "'"});
    if (accel.rebuild == Rebuild::Refit || accel.rebuild == Rebuild::Auto)
        for (const char* b : {"cpu-sah", "kdtree"}) out.push_back({"accel.builder", b, refitNeeds});
    // The unified middle level is a BVH over triangles and patch boxes (flat
    // mode's, or each VD mesh's BLAS in instanced mode).
    const char* unifiedNeeds =
        "vd.middle_level = 'unified' puts the patch boxes in the triangles' BVH: it needs a BVH builder (not "
        "kdtree)";
    if (accel.builder == Builder::KdTree) {
        out.push_back({"vd.middle_level", "unified", unifiedNeeds});
        out.push_back({"vd.method", "harada", std::string(unifiedNeeds) + " (vd.method = 'harada' sets it)"});
    }
    if (vd.middle == VdMiddle::Unified) out.push_back({"accel.builder", "kdtree", unifiedNeeds});
    // The wide BVH is collapsed from the flat binary BVH and replaces its
    // traversal: not the kd-tree, instanced mode, skip links or the unified
    // middle level (whose walk is the binary tree's).
    const char* wideNeeds =
        "accel.width = '8' collapses the flat binary BVH into a wide one: it needs a BVH builder (not kdtree), "
        "accel.mode = 'flat', accel.traversal = 'stack' and vd.middle_level = 'separate'";
    if (accel.builder == Builder::KdTree || accel.mode == AccelMode::Instanced ||
        accel.traversal == Traversal::Stackless || vd.middle == VdMiddle::Unified)
        out.push_back({"accel.width", "8", wideNeeds});
    if (accel.width == BvhWidth::Eight) {
        out.push_back({"accel.builder", "kdtree", wideNeeds});
        out.push_back({"accel.mode", "instanced", wideNeeds});
        out.push_back({"accel.traversal", "stackless", wideNeeds});
        out.push_back({"vd.middle_level", "unified", wideNeeds});
        out.push_back({"vd.method", "harada", std::string(wideNeeds) + " (vd.method = 'harada' sets it)"});
    }
    if (accel.builder != Builder::LbvhSkip)
        out.push_back({"accel.traversal", "stackless",
                       std::string("accel.traversal = 'stackless' needs accel.builder = 'lbvh-skip' (the builder "
                                   "that installs skip links), got accel.builder = '") +
                           name(accel.builder) + "'"});
    return out;
}

std::vector<std::string> Options::inert() const {
    std::vector<std::string> out;
    const AccelOptions d;
    const bool kd = accel.builder == Builder::KdTree;
    auto note = [&](bool changed, const char* key, const char* why) {
        if (changed) out.push_back(std::string(key) + " = " + get(key) + " does nothing here: " + why);
    };
    const char* why = !kd ? "it changes the kd-tree only, and accel.builder is not kdtree"
                          : "the GPU kd-tree builder's switch; the CPU backend builds the reference kd-tree";
    const bool gpuKd = kd && render.backend == Backend::Cuda;
    note(!gpuKd && accel.kdOpts != d.kdOpts, "accel.kd_opts", why);
    note(!gpuKd && accel.kdLookahead != d.kdLookahead, "accel.kd_lookahead", why);
    note(!gpuKd && accel.kdSnsCompact != d.kdSnsCompact, "accel.kd_sns_compact", why);
    note(!gpuKd && accel.kdSmall != d.kdSmall, "accel.kd_small", why);
    note(!kd && accel.kdLargeSplit != d.kdLargeSplit, "accel.kd_large_split", why);
    note(accel.rebuild != Rebuild::Auto && accel.refitGrowth != d.refitGrowth, "accel.refit_growth",
         "it sets when accel.rebuild = 'auto' rebuilds");
    note(!kd && accel.kdClipLeaves != d.kdClipLeaves, "accel.kd_clip_leaves", why);  // both kd builders clip
    // The kd-tree's top level (instanced) and VD middle level are Karras LBVHs, which take it.
    const bool noLbvhPass = accel.builder == Builder::Hploc || accel.builder == Builder::CpuSah;
    note((noLbvhPass || render.backend != Backend::Cuda) && accel.lbvhBlockHandOver != d.lbvhBlockHandOver,
         "accel.lbvh_block_hand_over",
         "it changes the GPU bottom-up pass of lbvh-karras, lbvh-apetrei and lbvh-skip only");
    // The options alone: whether a scene has VD patches for the unified
    // middle level's tree is the scene's (then the copy is not made either).
    AccelOptions copying = accel;
    copying.copyLeafTris = true;
    note(!copiesLeafTris(copying, false) && accel.copyLeafTris != d.copyLeafTris, "accel.copy_leaf_tris",
         "it changes the leaf tests of a BVH's stack traversals only");
    AccelOptions braiding = accel;
    braiding.rebraid = 1;
    note(!rebraids(braiding) && accel.rebraid != d.rebraid, "accel.rebraid",
         "it opens static instances in instanced mode's top level, with BVH BLASes walked with the stack");
    note(accel.mode != AccelMode::Instanced && accel.tightInstanceBoxes != d.tightInstanceBoxes,
         "accel.tight_instance_boxes", "it sets instanced mode's top-level boxes");
    note(accel.mode != AccelMode::Instanced && accel.clusterTopLevel != d.clusterTopLevel, "accel.cluster_top_level",
         "it builds instanced mode's top level");
    note(accel.width != BvhWidth::Eight && accel.wideCollapse != d.wideCollapse, "accel.wide_collapse",
         "it changes how accel.width = 8 collapses the binary tree");
    const bool gpuSort = accel.builder != Builder::CpuSah && render.backend == Backend::Cuda;
    note(!gpuSort && accel.mortonSort != d.mortonSort, "accel.morton_sort",
         "it changes the GPU's sort of Morton codes only");
    note(gpuSort && accel.mortonSort == MortonSort::Split && accel.mortonBits <= 32, "accel.morton_sort",
         "it splits 63-bit codes; 30-bit ones sort by radix (accel.morton_bits = 30)");
    note(view.heatmap == Heatmap::Off && view.heatmapMax != ViewOptions{}.heatmapMax, "view.heatmap_max",
         "it scales view.heatmap, which is off");
    return out;
}

std::vector<std::string> Options::changedFrom(const Options& before) const {
    std::vector<std::string> out;
    for (const Field& f : fields()) {
        if (f.info.derived) continue;
        const std::string v = get(f.info.key);
        if (v != before.get(f.info.key)) out.push_back(f.info.key + "=" + v);
    }
    return out;
}

void Options::check() const {
    checkValues();
    for (const Unavailable& u : unavailable())
        if (get(u.key) == u.value) throw Error("option '" + u.key + "' = '" + u.value + "': " + u.reason);
}

bool AccelOptions::operator==(const AccelOptions& o) const {
    return builder == o.builder && traversal == o.traversal && width == o.width && wideCollapse == o.wideCollapse &&
           mortonBits == o.mortonBits && mortonSort == o.mortonSort && lbvhBlockHandOver == o.lbvhBlockHandOver &&
           copyLeafTris == o.copyLeafTris && mode == o.mode && rebraid == o.rebraid &&
           tightInstanceBoxes == o.tightInstanceBoxes && clusterTopLevel == o.clusterTopLevel && rebuild == o.rebuild &&
           refitGrowth == o.refitGrowth && kdOpts == o.kdOpts && kdLookahead == o.kdLookahead &&
           kdSnsCompact == o.kdSnsCompact && kdSmall == o.kdSmall && kdLargeSplit == o.kdLargeSplit &&
           kdClipLeaves == o.kdClipLeaves;
}

bool VdOptions::operator==(const VdOptions& o) const {
    return mode == o.mode && maxLevel == o.maxLevel && lodBias == o.lodBias && freezeLod == o.freezeLod &&
           pairCull == o.pairCull && lastBounceAnyHit == o.lastBounceAnyHit && sharedTrees == o.sharedTrees &&
           lod == o.lod && leaf == o.leaf && splitJobs == o.splitJobs && treeCache == o.treeCache &&
           middle == o.middle;
}

const char* name(Integrator v) { return enumName(v, kIntegratorNames); }
const char* name(Tonemap v) { return enumName(v, kTonemapNames); }
const char* name(Backend v) { return enumName(v, kBackendNames); }
const char* name(Builder v) { return enumName(v, kBuilderNames); }
const char* name(Traversal v) { return enumName(v, kTraversalNames); }
const char* name(BvhWidth v) { return enumName(v, kWidthNames); }
const char* name(MortonSort v) { return enumName(v, kMortonSortNames); }
const char* name(WideCollapse v) { return enumName(v, kWideCollapseNames); }
const char* name(AccelMode v) { return enumName(v, kModeNames); }
const char* name(Rebuild v) { return enumName(v, kRebuildNames); }
const char* name(KdSmall v) { return enumName(v, kKdSmallNames); }
const char* name(KdLargeSplit v) { return enumName(v, kKdLargeSplitNames); }
const char* name(VdMode v) { return enumName(v, kVdModeNames); }
const char* name(VdLod v) { return enumName(v, kVdLodNames); }
const char* name(VdLeaf v) { return enumName(v, kVdLeafNames); }
const char* name(VdMiddle v) { return enumName(v, kVdMiddleNames); }
const char* name(Heatmap v) { return enumName(v, kHeatmapNames); }
const char* name(ViewFilter v) { return enumName(v, kViewFilterNames); }

std::string KdOpts::letters() const {
    std::string s;
    for (int k = 0; k < 5; ++k)
        if (bits & (1u << k)) s += char('A' + k);
    return s.empty() ? "none" : s;
}

std::string KdOpts::name() const {
    const std::string l = letters();
    return l == "none" ? "Original" : l;
}

}  // namespace strata
