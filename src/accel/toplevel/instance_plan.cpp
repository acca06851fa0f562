#include "accel/toplevel/instance_plan.h"

#include <algorithm>
#include <cmath>

namespace strata {

void SphereRadius::grow(Vec3 p) {
    const Vec3 d = p - center;
    squared = std::max(squared, d.x * d.x + d.y * d.y + d.z * d.z);
}

void SphereRadius::growBox(const Aabb& b) {
    // The farthest corner's offsets directly (centre + offset - centre would
    // round by half an ulp of the centre).
    auto far = [](float lo, float hi, float c) { return std::max(std::fabs(lo - c), std::fabs(hi - c)); };
    const float fx = far(b.lo.x, b.hi.x, center.x), fy = far(b.lo.y, b.hi.y, center.y),
                fz = far(b.lo.z, b.hi.z, center.z);
    squared = std::max(squared, fx * fx + fy * fy + fz * fz);
}

float SphereRadius::radius() const { return std::sqrt(squared) * (1.0f + 1e-5f); }

Aabb memberWorldBox(const Affine& w, const PlanMesh& mesh, bool tight) {
    Aabb box = transformBox(w, mesh.objectBox);
    if (!tight || mesh.objectBox.isEmpty() || !(mesh.radius < INFINITY)) return box;
    // The sphere's image is an ellipsoid; its half-width along world axis i
    // is radius × the length of row i of w's linear part. Padded by 1e-5 of
    // the terms the centre's image adds up (they may cancel: an object far
    // from its origin brought back near the world's) and of the half-width.
    const Vec3 o = mesh.objectBox.center();
    Aabb sphere;
    for (int i = 0; i < 3; ++i) {
        const float* r = w.m[i];
        const float c = r[0] * o.x + r[1] * o.y + r[2] * o.z + r[3];
        const float terms = std::fabs(r[0] * o.x) + std::fabs(r[1] * o.y) + std::fabs(r[2] * o.z) + std::fabs(r[3]);
        const float half = mesh.radius * std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
        const float pad = 1e-5f * (terms + half);
        sphere.lo[i] = c - half - pad;
        sphere.hi[i] = c + half + pad;
    }
    return intersection(box, sphere);
}

InstancePlan planInstances(PlanPrims kind, std::vector<PlanMesh> meshes, const std::vector<PlanInstance>& instances) {
    InstancePlan p;
    p.kind = kind;
    p.meshes = std::move(meshes);
    p.meshBlas.assign(p.meshes.size(), -1);
    std::vector<uint32_t> firstBase(p.meshes.size(), 0), firstPatch(p.meshes.size(), 0);  // its first instance's
    std::vector<bool> seen(p.meshes.size(), false);
    for (const PlanInstance& in : instances)
        if (in.mesh < p.meshes.size() && !seen[in.mesh]) {
            seen[in.mesh] = true;
            firstBase[in.mesh] = in.primBase;
            firstPatch[in.mesh] = in.patchBase;
        }
    for (size_t m = 0; m < p.meshes.size(); ++m) {
        if (p.meshes[m].deforms || p.meshes[m].prims == 0) continue;
        p.meshBlas[m] = int32_t(p.blas.size());
        p.blas.push_back({uint32_t(m), -1, firstBase[m], firstPatch[m]});
    }
    p.numStatic = uint32_t(p.blas.size());
    for (size_t i = 0; i < instances.size(); ++i) {
        const PlanInstance& in = instances[i];
        const PlanMesh& mesh = p.meshes.at(in.mesh);
        if (mesh.prims == 0) continue;
        InstancePlan::Member mb{uint32_t(i), 0, in.primBase, mesh.prims, in.patchBase};
        if (p.meshBlas[in.mesh] >= 0) {
            mb.blas = uint32_t(p.meshBlas[in.mesh]);
        } else {
            mb.blas = uint32_t(p.blas.size());
            p.blas.push_back({in.mesh, int32_t(i), in.primBase, in.patchBase});
        }
        p.members.push_back(mb);
    }
    return p;
}

std::string staticBlasKey(const AccelOptions& o, const std::string& boxes) {
    std::string key = std::string(name(o.builder)) + "/" + std::to_string(o.mortonBits);
    if (o.builder == Builder::KdTree)  // the switches that change a kd-tree
        key += "/kd " + o.kdOpts.letters() + (o.kdLookahead ? " lookahead" : "") + (o.kdSnsCompact ? " compact" : "") +
               (o.kdSmall == KdSmall::Subtree ? " subtree" : "") + (o.kdLargeSplit == KdLargeSplit::Sah ? " sah" : "") +
               (o.kdClipLeaves ? " clip" : "");
    return key + (boxes.empty() ? "" : "/" + boxes);
}

}  // namespace strata
