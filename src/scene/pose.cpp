#include "scene/pose.h"

#include "scene/deform.h"
#include "scene/skeleton_pose.h"

namespace strata {

// The same per-vertex functions (scene/deform.h) as the GPU animate stage.
void poseMesh(const Mesh& m, float t, std::vector<Vec3>& pos, std::vector<Vec3>& nrm) {
    const size_t n = m.positions.size();
    pos = m.positions;
    nrm = m.normals;
    switch (m.animation) {
        case MeshAnimationKind::Static: break;
        case MeshAnimationKind::Frames: {
            int f0, f1;
            float blend;
            frameBlend(t, m.frames.fps, int(m.frames.positions.size()), m.frames.loop, f0, f1, blend);
            if (m.frames.positions.empty()) break;
            const auto &a = m.frames.positions[f0], &b = m.frames.positions[f1];
            for (size_t v = 0; v < n; ++v) pos[v] = lerpFrames(a[v], b[v], blend);
            if (m.frames.normals.size() == m.frames.positions.size() && nrm.size() == n) {
                const auto &na = m.frames.normals[f0], &nb = m.frames.normals[f1];
                for (size_t v = 0; v < n; ++v) nrm[v] = normalize(lerpFrames(na[v], nb[v], blend));
            }
            break;
        }
        case MeshAnimationKind::Skinned: {
            if (m.skin.bones.size() != n) break;
            std::vector<Affine> skin;
            poseSkeleton(m.skeleton, t, skin);
            for (size_t v = 0; v < n; ++v)
                pos[v] = strata::skinVertex(skin.data(), m.skin.bones[v], m.skin.weight0[v], m.positions[v]);
            if (nrm.size() == n)
                for (size_t v = 0; v < n; ++v)
                    nrm[v] = skinNormal(skin.data(), m.skin.bones[v], m.skin.weight0[v], m.normals[v]);
            break;
        }
        case MeshAnimationKind::Sway:
            for (size_t v = 0; v < n; ++v) pos[v] = swayVertex(m.sway, m.positions[v], t);
            break;
    }
}

}  // namespace strata
