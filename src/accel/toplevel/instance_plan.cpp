#include "accel/toplevel/instance_plan.h"

#include <algorithm>
#include <cmath>

namespace strata {

void SphereRadius::grow(Vec3 p) {
    const Vec3 d = p - center;
    squared = std::max(squared, d.x * d.x + d.y * d.y + d.z * d.z);
}

void SphereRadius::growBox(const Aabb& b) {
    auto far = [](float lo, float hi, float c) { return std::max(std::fabs(lo - c), std::fabs(hi - c)); };
    grow(center + Vec3{far(b.lo.x, b.hi.x, center.x), far(b.lo.y, b.hi.y, center.y), far(b.lo.z, b.hi.z, center.z)});
}

float SphereRadius::radius() const { return std::sqrt(squared) * (1.0f + 1e-5f); }

Aabb memberWorldBox(const Affine& w, const PlanMesh& mesh, bool tight) {
    Aabb box = transformBox(w, mesh.objectBox);
    if (!tight || mesh.objectBox.isEmpty()) return box;
    // The sphere's image is an ellipsoid; its half-width along world axis i
    // is radius × the length of row i of w's linear part. Padded by a
    // relative 1e-5 of the coordinates (the box transform's rounding).
    const Vec3 c = w.point(mesh.objectBox.center());
    for (int i = 0; i < 3; ++i) {
        const float half =
            mesh.radius * std::sqrt(w.m[i][0] * w.m[i][0] + w.m[i][1] * w.m[i][1] + w.m[i][2] * w.m[i][2]);
        const float pad = 1e-5f * (std::fabs(c[i]) + half);
        box.lo[i] = std::max(box.lo[i], c[i] - half - pad);
        box.hi[i] = std::min(box.hi[i], c[i] + half + pad);
    }
    return box;
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
