// check/checker.h — what validate, soak and kdtable check a structure with:
// closest hits against brute force (check/hit_compare.h's rule), the
// structure checkers, one report line per check.
#pragma once

#include <string>
#include <vector>

#include "accel/bvh.h"
#include "accel/kdtree/kd_cpu_builder.h"
#include "accel/kdtree/kd_quality.h"
#include "accel/lbvh/lbvh_host.h"
#include "check/hit_compare.h"
#include "check/rays.h"
#include "render/flat_scene.h"
#include "render/instancing.h"
#include "core/parallel.h"

namespace strata {

struct Checker {
    ThreadPool pool;
    int failures = 0;
    bool quiet = false;  // print failures only

    void report(const std::string& what, bool ok, const std::string& detail);
    void structure(const std::string& name, const BvhView& bvh, const std::vector<Aabb>& bounds);
    // Passes when at most maxDisagree of the hits differ from the reference
    // (0 unless the two trace in different spaces, as instanced mode does).
    void hits(const std::string& name, const std::vector<HitRecord>& got, const std::vector<HitRecord>& ref,
              size_t maxDisagree = 0);
    // The skip links of an lbvh-skip build against Algorithm 2 and a walk of
    // the Karras tree of the same input.
    void skipLinks(const std::string& name, const std::vector<StacklessNode>& skip, const LbvhHostResult& karras);
    // Invariants and quality (SAH against the binned-SAH BVH's, references
    // per triangle; a warning in words past kKdSahWarnRatio).
    void kdStructure(const std::string& name, const HostKdTree& kd, const std::vector<Vec3>& pos,
                     const std::vector<Tri>& tris);
    // The GPU build against the CPU reference over the same positions: the
    // same decisions give the same tree; rounding in the clipping may move a
    // plane, so up to 1% of SAH apart passes.
    void kdSameAsReference(const std::string& name, const HostKdTree& gpu, const HostKdTree& cpu);
    std::vector<HitRecord> traceAll(const SceneView& s, const std::vector<Ray>& rays, bool brute);
    // What the structure costs a ray on the host (no GPU timing involved):
    // nodes visited and triangles tested per ray, camera rays (makeRays' even
    // ones) and rays from points in the scene (odd ones) apart.
    void traversalCost(const std::string& name, const SceneView& s, const std::vector<Ray>& rays);
};

// Closest hits of rays over the structure the scene's options build on the
// host (the CPU backend's: a flat BVH of accel.builder, the reference
// kd-tree, or instanced mode's two levels) over the flat posed vertices pos
// at scene time t: traceOnGpuForValidation's counterpart.
std::vector<HitRecord> traceOnHostForValidation(Checker& c, const Scene& scene, const FlatScene& flat,
                                                const std::vector<Vec3>& pos, const std::vector<Vec3>& nrm, float t,
                                                const std::vector<Ray>& rays);

// The quality of the kd-tree the scene's options build at scene time t: the
// GPU builder's with the cuda backend (where built), else the CPU reference's.
KdQuality sceneKdQuality(const Scene& scene, float t);

}  // namespace strata
