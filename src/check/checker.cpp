#include "check/checker.h"

#include <cmath>
#include <cstdio>

#include "accel/bvh_validate.h"
#include "accel/kdtree/kd_quality.h"
#include "accel/kdtree/kd_validate.h"
#include "accel/lbvh/lbvh_compare.h"
#include "accel/lbvh/skip_reference.h"
#include "accel/kdtree/kd_config.h"
#if defined(STRATA_HAVE_CUDA)
#include "check/gpu_probe.h"
#endif

namespace strata {

void Checker::report(const std::string& what, bool ok, const std::string& detail) {
    if (!ok || !quiet) std::printf("%-46s %s  %s\n", what.c_str(), ok ? "ok  " : "FAIL", detail.c_str());
    if (!ok) ++failures;
}

void Checker::structure(const std::string& name, const BvhView& bvh, const std::vector<Aabb>& bounds) {
    BvhReport r = validateBvh(bvh, bounds);
    char buf[160];
    std::snprintf(buf, sizeof buf, "%u inner, %u leaves, depth %u, SAH %.1f (SAH(1.2,1) %.1f)", r.innerNodes, r.leaves,
                  r.maxDepth, r.sahCost, r.peerSah());
    report(name + " invariants", r.ok, r.ok ? buf : r.errors[0]);
}

void Checker::hits(const std::string& name, const std::vector<HitRecord>& got, const std::vector<HitRecord>& ref,
                   size_t maxDisagree) {
    size_t bad = 0, hitOrMiss = 0, hitCount = 0;
    for (size_t i = 0; i < ref.size(); ++i) {
        bad += !sameHit(got[i], ref[i]);
        hitOrMiss += isHit(got[i]) != isHit(ref[i]);  // never tolerated
        hitCount += isHit(ref[i]);
    }
    report(name + " closest hits", hitOrMiss == 0 && bad <= maxDisagree,
           std::to_string(ref.size() - bad) + "/" + std::to_string(ref.size()) + " agree with brute force (" +
               std::to_string(hitCount) + " hits" +
               (maxDisagree ? ", up to " + std::to_string(maxDisagree) + " other distances allowed" : "") + ")");
}

void Checker::skipLinks(const std::string& name, const std::vector<StacklessNode>& skip, const LbvhHostResult& karras) {
    std::vector<StacklessNode> walk = stacklessByWalk(karras.bvh.view());
    size_t d = countDifferentNodes(walk, skip);
    report(name + " skip links == tree walk", d == 0,
           std::to_string(d) + " of " + std::to_string(skip.size()) + " nodes differ");
    std::vector<int32_t> alg2 = skipsByAlgorithm2(karras.bvh.view(), karras.sortedKeys);
    size_t bad = alg2.size() != skip.size() ? skip.size() : 0;
    for (size_t i = 0; i < std::min(alg2.size(), skip.size()); ++i) bad += alg2[i] != skip[i].skip;
    report(name + " skip links == Algorithm 2", bad == 0, std::to_string(bad) + " skips differ");
}

void Checker::kdStructure(const std::string& name, const HostKdTree& kd, const std::vector<Vec3>& pos,
                          const std::vector<Tri>& tris) {
    KdReport r = validateKdTree(kd.view(), pos, tris);
    char buf[200];
    std::snprintf(buf, sizeof buf, "%u inner, %u leaves (%u empty), depth %u, %u refs, SAH %.1f", r.innerNodes,
                  r.leaves, r.emptyLeaves, r.maxDepth, r.refs, r.sahCost);
    report(name + " invariants", r.ok, r.ok ? buf : r.errors[0]);
    for (const std::string& w : kd.stats.warnings) std::printf("%-46s note  %s\n", name.c_str(), w.c_str());
    if (!r.ok) return;
    std::vector<Aabb> bounds;
    triangleBounds(pos, tris, bounds);
    const KdQuality q = measureKdQuality(kd.view(), bounds);
    std::printf("%-46s       %s\n", (name + " quality").c_str(), q.summary().c_str());
    if (q.degraded()) std::printf("%-46s WARN  %s\n", (name + " quality").c_str(), q.warning().c_str());
}

void Checker::kdSameAsReference(const std::string& name, const HostKdTree& gpu, const HostKdTree& cpu) {
    const KdComparison cmp = compareKdTrees(gpu.view(), cpu.view());
    const double sg = kdSahCost(gpu.view(), 1.0, 1.0), sc = kdSahCost(cpu.view(), 1.0, 1.0);
    const double rel = sc > 0.0 ? std::fabs(sg - sc) / sc : std::fabs(sg);
    char buf[240];
    if (cmp.same())
        std::snprintf(buf, sizeof buf, "same tree, %u nodes", cmp.nodes);
    else
        std::snprintf(buf, sizeof buf, "%u of %u nodes differ (first: %s); SAH %.2f against %.2f (%.2f%%)",
                      cmp.differing, cmp.nodes, cmp.first.c_str(), sg, sc, 100.0 * rel);
    report(name + " == cpu reference", cmp.same() || rel <= 0.01, buf);
}

std::vector<HitRecord> Checker::traceAll(const SceneView& s, const std::vector<Ray>& rays, bool brute) {
    std::vector<HitRecord> out(rays.size());
    pool.parallelFor(uint32_t(rays.size()),
                     [&](uint32_t i) { out[i] = brute ? traceBruteForce(s.geo, rays[i]) : traceClosest(s, rays[i]); });
    return out;
}

void Checker::traversalCost(const std::string& name, const SceneView& s, const std::vector<Ray>& rays) {
    std::vector<TraversalStats> stats(rays.size());
    pool.parallelFor(uint32_t(rays.size()), [&](uint32_t i) { traceClosest(s, rays[i], &stats[i]); });
    double nodes[2] = {}, prims[2] = {}, entries[2] = {}, top[2] = {}, count[2] = {};
    for (size_t i = 0; i < rays.size(); ++i) {
        nodes[i % 2] += stats[i].nodesVisited;
        prims[i % 2] += stats[i].primsTested;
        entries[i % 2] += stats[i].blasEntries;
        top[i % 2] += stats[i].topNodes;
        count[i % 2] += 1.0;
    }
    auto per = [](double v, double n) { return n > 0.0 ? v / n : 0.0; };
    // Instanced mode: the BLASes each ray entered (the nodes are both levels').
    auto blas = [&](int k) {
        char e[80] = "";
        if (s.tl.numInstances)
            std::snprintf(e, sizeof e, ", %.2f BLAS entries, %.1f top-level nodes", per(entries[k], count[k]),
                          per(top[k], count[k]));
        return std::string(e);
    };
    char buf[240];
    std::snprintf(buf, sizeof buf,
                  "per camera ray %.1f nodes, %.2f triangles%s; per scene ray %.1f nodes, %.2f triangles%s",
                  per(nodes[0], count[0]), per(prims[0], count[0]), blas(0).c_str(), per(nodes[1], count[1]),
                  per(prims[1], count[1]), blas(1).c_str());
    if (!quiet) std::printf("%-46s       %s\n", (name + " traversal").c_str(), buf);
}

std::vector<HitRecord> traceOnHostForValidation(Checker& c, const Scene& scene, const FlatScene& flat,
                                                const std::vector<Vec3>& pos, const std::vector<Vec3>& nrm, float t,
                                                const std::vector<Ray>& rays) {
    const AccelOptions& o = scene.options.accel;
    std::vector<Aabb> bounds;
    triangleBounds(pos, flat.tris, bounds);
    SceneView s = hostSceneView(scene, flat, pos, nrm, BvhView{}, CameraView{});
    HostAccel accel;
    HostKdTree kd;
    InstancedHost instanced;
    if (o.mode == AccelMode::Instanced) {
        instanced.build(scene, flat, pos, bounds, t, o);
        s.tl = instanced.view();
    } else if (o.builder == Builder::KdTree) {
        kd = buildKdTreeCpu(pos, flat.tris, kdConfigOf(o));
        s.kd = kd.view();
    } else {
        buildHostAccel(bounds, o, accel);
        collapseHostAccel(o, accel);
        s.bvh = accel.view(o);
        s.wide = accel.wideView(o);
    }
    return c.traceAll(s, rays, false);
}

KdQuality sceneKdQuality(const Scene& scene, float t) {
    FlatScene flat = flattenScene(scene);
    std::vector<Vec3> pos, nrm;
    HostKdTree tree;
#if defined(STRATA_HAVE_CUDA)
    if (scene.options.render.backend == Backend::Cuda) {
        GpuKdResult kd = buildKdOnGpuForValidation(scene, t);
        tree = std::move(kd.tree);
        pos = std::move(kd.positions);
    }
#endif
    if (pos.empty()) {
        poseFlatScene(scene, flat, t, pos, nrm);
        tree = buildKdTreeCpu(pos, flat.tris, kdConfigOf(scene.options.accel));
    }
    std::vector<Aabb> bounds;
    triangleBounds(pos, flat.tris, bounds);
    return measureKdQuality(tree.view(), bounds);
}

}  // namespace strata
