// strata-cli validate: build every available structure for the scene's frame
// (every builder, on the CPU and on the GPU) and check it against the CPU
// reference: the structure's invariants; the LBVH variants against each
// other (Karras = modified Apetrei node for node, Apetrei up to its ordering,
// skip links = Algorithm 2 = a walk of the tree; GPU = CPU run bit for bit);
// and for random rays, with every traversal, the same closest hit as brute
// force. Exit 0 only if all agree.
#include <chrono>
#include <cstdio>
#include <cmath>
#include <cstring>
#include <random>

#include "accel/bvh_validate.h"
#include "accel/cpu/sah_builder.h"
#include "accel/lbvh/lbvh_compare.h"
#include "accel/kdtree/kd_cpu_builder.h"
#include "core/error.h"
#include "accel/kdtree/kd_config.h"
#include "accel/kdtree/kd_full_sah.h"
#include "render/instancing.h"
#include "accel/kdtree/kd_validate.h"
#include "accel/lbvh/lbvh_host.h"
#include "accel/lbvh/skip_reference.h"
#include "accel/wide/collapse_host.h"
#include "check/checker.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "gpu/device.h"
#include "render/flat_scene.h"
#include "core/parallel.h"
#if defined(STRATA_HAVE_CUDA)
#include "check/gpu_probe.h"
#endif

namespace strata::cli {
namespace {

std::vector<Traversal> traversalsOf(LbvhVariant v) {
    if (v == LbvhVariant::ApetreiSkip) return {Traversal::Stack, Traversal::Stackless};
    return {Traversal::Stack};
}

BvhView viewFor(const HostBvh& bvh, const std::vector<StacklessNode>& skip, Traversal traversal) {
    BvhView v = bvh.view();
    if (!skip.empty()) {
        v.skipNodes = skip.data();
        v.numSkipNodes = uint32_t(skip.size());
        v.traversal = traversal == Traversal::Stackless ? BvhTraversal::Stackless : BvhTraversal::Stack;
    }
    return v;
}

// The binary tree `binary` collapsed 8 wide on the CPU (accel.width = 8),
// both ways (accel.wide_collapse): invariants, closest hits and traversal cost.
void checkCpuWide(Checker& c, const std::string& name, const BvhView& binary, const std::vector<Aabb>& bounds,
                  const SceneView& base, const std::vector<Ray>& rs, const std::vector<HitRecord>& ref) {
    for (WideCollapse how : {WideCollapse::Sah, WideCollapse::Greedy}) {
        const std::string label = name + " 8 wide " + strata::name(how);
        const HostCwbvh wide = collapseToCwbvh(binary, how);
        const CwbvhReport rep = validateCwbvh(wide.view(), bounds);
        char what[160];
        std::snprintf(what, sizeof what, "%u nodes, %.2f children per node, depth %u, SAH %.1f", rep.nodes,
                      rep.childrenPerNode, rep.maxDepth, rep.sahCost);
        c.report(label, rep.ok, rep.ok || rep.errors.empty() ? what : rep.errors[0]);
        SceneView s = base;
        s.wide = wide.view();
        c.hits(label, c.traceAll(s, rs, false), ref);
        c.traversalCost(label, s, rs);
    }
}

// Every LBVH variant run on the CPU: invariants, agreement with Karras,
// skip links, closest hits of every traversal, and the tree collapsed 8 wide.
void checkCpuRuns(Checker& c, const std::vector<Aabb>& bounds, int bits, const SceneView& base,
                  const std::vector<Ray>& rs, const std::vector<HitRecord>& ref) {
    LbvhHostResult karras = buildLbvhHost(bounds, bits, LbvhVariant::Karras);
    for (LbvhVariant v : kLbvhVariants) {
        const std::string name = std::string(lbvhVariantName(v)) + " (cpu run)";
        LbvhHostResult r = v == LbvhVariant::Karras ? karras : buildLbvhHost(bounds, bits, v);
        c.structure(name, r.bvh.view(), bounds);
        if (v == LbvhVariant::Apetrei) {
            std::string why = compareUpToApetreiOrder(karras.bvh, r.bvh);
            c.report(name + " == karras up to order", why.empty(),
                     why.empty() ? "same tree, root " + std::to_string(r.bvh.root) : why);
        }
        if (v == LbvhVariant::ApetreiSkip) {
            size_t d = countDifferentNodes(karras.bvh.nodes, r.bvh.nodes);
            c.report(name + " == karras node for node", d == 0, std::to_string(d) + " nodes differ");
            c.skipLinks(name, r.skipNodes, karras);
        }
        for (Traversal t : traversalsOf(v)) {
            SceneView s = base;
            s.bvh = viewFor(r.bvh, r.skipNodes, t);
            c.hits(name + " " + strata::name(t), c.traceAll(s, rs, false), ref);
            if (v == LbvhVariant::ApetreiSkip || v == LbvhVariant::Hploc) c.traversalCost(name + " " + strata::name(t), s, rs);
        }
        checkCpuWide(c, name, r.bvh.view(), bounds, base, rs, ref);
    }
}

}  // namespace

std::function<int()> addValidateCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("validate", "check every available structure against the CPU reference");
    auto a = std::make_shared<CommonArgs>();
    auto rays = std::make_shared<uint32_t>(2000);
    auto time = std::make_shared<float>(0.0f);
    auto fullSahKd = std::make_shared<bool>(false);
    addCommonOptions(*cmd, *a, 1);
    cmd->add_option("--rays", *rays, "random rays compared with brute force")->capture_default_str();
    cmd->add_option("--time", *time, "scene time of the frame to validate (s)")->capture_default_str();
    cmd->add_flag("--kd-full-sah", *fullSahKd,
                  "also build the kd-tree by Wald & Havran's full SAH with perfect splits (seconds; CPU) and "
                  "report its quality and work per ray beside strata's kd-tree");
    return [a, rays, time, fullSahKd]() {
        if (!std::isfinite(*time) || std::fabs(*time) > 1e9)
            throw strata::Error("--time: expected a scene time within +-1e9 s, got " + std::to_string(*time));
        Scene scene = loadWithOverrides(*a);
        FlatScene flat = flattenScene(scene);
        float t = *time;
        const int bits = scene.options.accel.mortonBits;
        std::vector<Vec3> pos, nrm;
        poseFlatScene(scene, flat, t, pos, nrm);
        std::vector<Aabb> bounds;
        triangleBounds(pos, flat.tris, bounds);
        std::printf("validating %s at t=%.3f s: %zu triangles, %u rays, %d-bit Morton codes\n", scene.path.c_str(), t,
                    flat.tris.size(), *rays, bits);

        Checker c;
        SceneView base = hostSceneView(scene, flat, pos, nrm, BvhView{}, CameraView{});
        std::vector<Ray> rs = makeRays(scene, pos, t, *rays, scene.options.render.seed);
        std::vector<HitRecord> ref = c.traceAll(base, rs, true);

        HostBvh sah = buildSahBvh(bounds);
        c.structure("cpu-sah", sah.view(), bounds);
        SceneView s = base;
        s.bvh = sah.view();
        c.hits("cpu-sah stack", c.traceAll(s, rs, false), ref);
        c.traversalCost("cpu-sah stack", s, rs);
        checkCpuWide(c, "cpu-sah", sah.view(), bounds, base, rs, ref);

        checkCpuRuns(c, bounds, bits, base, rs, ref);

        const HostKdTree cpuKd = buildKdTreeCpu(pos, flat.tris, kdConfigOf(scene.options.accel));
        c.kdStructure("kdtree (cpu)", cpuKd, pos, flat.tris);
        s = base;
        s.kd = cpuKd.view();
        c.hits("kdtree (cpu)", c.traceAll(s, rs, false), ref);
        c.traversalCost("kdtree (cpu)", s, rs);
        if (*fullSahKd) {
            // The kd-tree as Wald & Havran build it (greedy full SAH, perfect
            // splits): a gap to the BVHs that this tree shares is the data
            // structure's, not the builder's.
            const auto t0 = std::chrono::steady_clock::now();
            const HostKdTree full = buildKdTreeFullSah(pos, flat.tris);
            const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            const std::string name = "kdtree full SAH (cpu, Wald-Havran)";
            std::printf("%-46s       built in %.2f s\n", name.c_str(), secs);
            c.kdStructure(name, full, pos, flat.tris);
            s = base;
            s.kd = full.view();
            c.hits(name, c.traceAll(s, rs, false), ref);
            c.traversalCost(name, s, rs);
        }

        // Instanced mode: static instances are traced in object space, so a
        // ray grazing an edge may take the neighbouring triangle (0.5% allowed).
        const size_t instancedSlack = rs.size() / 200;
        InstancedHost instanced;
        AccelOptions io = scene.options.accel;
        io.mode = AccelMode::Instanced;
        io.traversal = Traversal::Stack;
        for (Builder b : {Builder::LbvhKarras, Builder::Hploc}) {  // an LBVH's BLASes, and H-PLOC's
            io.builder = b;
            instanced.build(scene, flat, pos, bounds, t, io);
            s = base;
            s.tl = instanced.view();
            const std::string label = std::string("instanced ") + name(b) + " (cpu)";
            c.hits(label, c.traceAll(s, rs, false), ref, instancedSlack);
            c.traversalCost(label, s, rs);
        }
        io.builder = Builder::KdTree;  // kd-tree BLASes under a Karras top level
        instanced.build(scene, flat, pos, bounds, t, io);
        s = base;
        s.tl = instanced.view();
        c.hits("instanced kdtree (cpu)", c.traceAll(s, rs, false), ref, instancedSlack);

#if defined(STRATA_HAVE_CUDA)
        GpuInfo gpu = queryGpu();
        if (!gpu.available) {
            std::printf("%-46s skip  no GPU (%s)\n", "lbvh-* (cuda)", gpu.reason.c_str());
        } else {
            bool animateChecked = false;
            for (LbvhVariant v : kLbvhVariants) {
                const std::string name = std::string(lbvhVariantName(v)) + " (cuda)";
                Scene sv = scene;
                sv.options.accel.builder = builderOf(v);
                sv.options.accel.traversal = Traversal::Stack;
                sv.options.accel.mode = AccelMode::Flat;  // the flat tree first (--set accel.mode=instanced left none)
                sv.options.accel.width = BvhWidth::Eight;  // and collapsed 8 wide (the binary tree stays)
                GpuBuildResult g = buildOnGpuForValidation(sv, t);
                sv.options.accel.width = BvhWidth::Two;
                if (!animateChecked) {
                    float maxDiff = 0;
                    for (size_t i = 0; i < pos.size(); ++i)
                        maxDiff = std::max(maxDiff, length(g.positions[i] - pos[i]));
                    Aabb box;
                    for (const Vec3& p : pos) box.grow(p);
                    float tol = 1e-4f * (1.0f + maxComponent(box.extent()));
                    c.report("animate (cuda) vs cpu", maxDiff <= tol,
                             "max vertex difference " + std::to_string(maxDiff));
                    animateChecked = true;
                }
                // The GPU build over the GPU-posed triangles equals the CPU run
                // of the same code over the same boxes, bit for bit.
                std::vector<Aabb> gb;
                triangleBounds(g.positions, flat.tris, gb);
                HostBvh gpuBvh{g.nodes, g.primIndex, g.root};
                c.structure(name, gpuBvh.view(), gb);
                LbvhHostResult cpu = buildLbvhHost(gb, bits, v);
                const size_t diff =
                    countDifferentNodes(cpu.bvh.nodes, g.nodes) + countDifferentNodes(cpu.skipNodes, g.skipNodes);
                const bool sameOrder = cpu.bvh.primIndex == g.primIndex, sameRoot = cpu.bvh.root == g.root;
                c.report(name + " == cpu run", diff == 0 && sameOrder && sameRoot,
                         std::to_string(diff) + " nodes differ, primitive order " + (sameOrder ? "equal" : "differs") +
                             ", root " + (sameRoot ? "equal" : "differs"));
                // The GPU's collapse equals the CPU's of the same binary tree.
                const std::string wideWhy =
                    compareCwbvhFromRoots(collapseToCwbvh(gpuBvh.view(), sv.options.accel.wideCollapse), g.wide);
                c.report(name + " 8 wide " + strata::name(sv.options.accel.wideCollapse) + " == cpu collapse",
                         wideWhy.empty(), wideWhy.empty() ? "same tree from the root" : wideWhy);
                const CwbvhReport wideRep = validateCwbvh(g.wide.view(), gb);
                c.report(name + " 8 wide", wideRep.ok, wideRep.ok || wideRep.errors.empty()
                                                           ? std::to_string(wideRep.nodes) + " nodes"
                                                           : wideRep.errors[0]);
                SceneView gs = base;
                gs.geo.pos = g.positions.data();
                std::vector<HitRecord> gref = c.traceAll(gs, rs, true);
                for (Traversal tr : traversalsOf(v)) {
                    sv.options.accel.traversal = tr;
                    c.hits(name + " " + strata::name(tr), traceOnGpuForValidation(sv, t, rs), gref);
                }
                sv.options.accel.traversal = Traversal::Stack;
                sv.options.accel.width = BvhWidth::Eight;
                c.hits(name + " 8 wide", traceOnGpuForValidation(sv, t, rs), gref);
                sv.options.accel.width = BvhWidth::Two;
                sv.options.accel.mode = AccelMode::Instanced;
                for (Traversal tr : traversalsOf(v)) {
                    sv.options.accel.traversal = tr;
                    c.hits(name + " " + strata::name(tr) + " instanced", traceOnGpuForValidation(sv, t, rs), ref,
                           instancedSlack);
                }
            }
        }
        if (gpu.available) {
            // The GPU kd-tree with the [A]-[E] of the options (accel.kd_a..kd_e).
            GpuKdResult kd = buildKdOnGpuForValidation(scene, t);
            char what[96];
            const AccelOptions& ao = scene.options.accel;
            std::snprintf(what, sizeof what, "kdtree (cuda) [%s%s%s%s%s%s]", scene.options.get("accel.kd_opts").c_str(),
                          ao.kdLookahead ? " lookahead" : "", ao.kdSmall == KdSmall::Subtree ? " subtree" : "",
                          ao.kdSnsCompact ? " compact" : "", ao.kdLargeSplit == KdLargeSplit::Sah ? " sah" : "",
                          ao.kdClipLeaves ? " clipped leaves" : "");
            c.kdStructure(what, kd.tree, kd.positions, flat.tris);
            // The GPU posed the scene itself: the CPU tree and brute force
            // above serve where its positions are the CPU's, bit for bit.
            const bool samePositions = kd.positions.size() == pos.size() &&
                                       std::memcmp(kd.positions.data(), pos.data(), pos.size() * sizeof(Vec3)) == 0;
            c.kdSameAsReference(
                what, kd.tree,
                samePositions ? cpuKd : buildKdTreeCpu(kd.positions, flat.tris, kdConfigOf(scene.options.accel)));
            std::printf(
                "%-46s      build %.3f ms (large %.3f, small %.3f), %u kernel calls (%u of them CUB's), "
                "%u large-node levels (+%u idle), %u small roots, %u small-node levels%s\n",
                what, kd.buildMs, kd.largeMs, kd.smallMs, kd.launches, kd.libraryCalls, kd.tree.stats.largeIterations,
                kd.idleLevels, kd.tree.stats.smallRoots, kd.smallLevels,
                kd.passes > 1 ? (", " + std::to_string(kd.passes) + " builds (output arrays grew)").c_str() : "");
            SceneView ks = base;
            ks.geo.pos = kd.positions.data();
            ks.kd = kd.tree.view();
            c.hits(what, c.traceAll(ks, rs, false), samePositions ? ref : c.traceAll(ks, rs, true));
            Scene ki = scene;  // kd-tree BLASes in instanced mode
            ki.options.accel.mode = AccelMode::Instanced;
            ki.options.accel.builder = Builder::KdTree;
            ki.options.accel.traversal = Traversal::Stack;
            c.hits(std::string(what) + " instanced", traceOnGpuForValidation(ki, t, rs), ref, instancedSlack);
        }
#else
        std::printf("%-46s skip  built without CUDA\n", "lbvh-* (cuda)");
#endif
        std::printf("%s\n", c.failures ? "validation FAILED" : "all structures agree with the reference");
        return c.failures ? 1 : 0;
    };
}

}  // namespace strata::cli
