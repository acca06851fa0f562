#include "scene/skeleton_pose.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.h"
#include "scene/deform.h"

namespace strata {

float clipDuration(const Skeleton& s) { return s.times.size() < 2 ? 0.0f : s.times.back() - s.times.front(); }

void poseSkeleton(const Skeleton& s, float time, std::vector<Affine>& skin) {
    const int nb = s.numBones();
    if (s.joint.size() != size_t(nb))
        throw Error("skeleton: " + std::to_string(nb) + " bones but " + std::to_string(s.joint.size()) + " joints");
    const size_t nk = s.times.size();
    if (s.rotation.size() != nk * size_t(nb))
        throw Error("skeleton: expected " + std::to_string(nk * nb) + " key rotations (keys x bones), got " +
                    std::to_string(s.rotation.size()));
    if (!s.rootTranslation.empty() && s.rootTranslation.size() != nk)
        throw Error("skeleton: expected " + std::to_string(nk) + " root translations, got " +
                    std::to_string(s.rootTranslation.size()));

    // Which two keys and how far between them.
    size_t k0 = 0, k1 = 0;
    float a = 0;
    if (nk >= 2) {
        float t0 = s.times.front(), len = s.times.back() - t0;
        float u = t0;
        if (len > 0) {
            u = fmodf(time - t0, len);
            if (u < 0) u += len;
            u += t0;
        }
        // Last key with times[k] <= u, kept below the final key.
        k0 = size_t(std::upper_bound(s.times.begin(), s.times.end(), u) - s.times.begin());
        k0 = k0 == 0 ? 0 : std::min(k0 - 1, nk - 2);
        k1 = k0 + 1;
        float span = s.times[k1] - s.times[k0];
        a = span > 0 ? clampf((u - s.times[k0]) / span, 0.0f, 1.0f) : 0.0f;
    }

    skin.resize(size_t(nb));
    for (int b = 0; b < nb; ++b) {
        int p = s.parent[size_t(b)];
        if (p >= b || (p < 0 && b != 0))
            throw Error("skeleton: bone " + std::to_string(b) + " ('" + (size_t(b) < s.name.size() ? s.name[b] : "") +
                        "') must have an earlier parent (only bone 0 is the root)");
        Quat r;
        if (nk >= 1) r = nk == 1 ? s.rotation[size_t(b)] : nlerp(s.rotation[k0 * nb + b], s.rotation[k1 * nb + b], a);
        Vec3 j = s.joint[size_t(b)];
        Affine local = compose(translation(j), compose(rotation(r), translation(-j)));
        if (p < 0) {
            Vec3 root{};
            if (!s.rootTranslation.empty())
                root = nk == 1 ? s.rootTranslation[0] : lerp(s.rootTranslation[k0], s.rootTranslation[k1], a);
            skin[size_t(b)] = compose(translation(root), local);
        } else {
            skin[size_t(b)] = compose(skin[size_t(p)], local);
        }
    }
}

Vec3 skinVertex(const std::vector<Affine>& skin, uint32_t bones, float weight0, Vec3 p) {
    uint32_t b0 = bones & 0xffffu, b1 = bones >> 16;
    if (b0 >= skin.size() || b1 >= skin.size())
        throw Error("skinVertex: bone index " + std::to_string(std::max(b0, b1)) + " out of range (" +
                    std::to_string(skin.size()) + " bones)");
    return skinVertex(skin.data(), bones, weight0, p);
}

void poseMeshPositions(const Mesh& m, float time, std::vector<Vec3>& out) {
    const size_t n = m.positions.size();
    out.resize(n);
    switch (m.animation) {
        case MeshAnimationKind::Static: out = m.positions; return;
        case MeshAnimationKind::Frames: {
            const FrameSequence& f = m.frames;
            if (f.positions.empty()) {
                out = m.positions;
                return;
            }
            int f0, f1;
            float t;
            frameBlend(time, f.fps, int(f.positions.size()), f.loop, f0, f1, t);
            const std::vector<Vec3>& a = f.positions[size_t(f0)];
            const std::vector<Vec3>& b = f.positions[size_t(f1)];
            if (a.size() != n || b.size() != n)
                throw Error("mesh '" + m.name + "': frame " + std::to_string(a.size() != n ? f0 : f1) +
                            " has a different vertex count than the mesh");
            for (size_t i = 0; i < n; ++i) out[i] = lerpFrames(a[i], b[i], t);
            return;
        }
        case MeshAnimationKind::Skinned: {
            if (m.skin.bones.size() != n || m.skin.weight0.size() != n)
                throw Error("mesh '" + m.name + "': skin binding needs one entry per vertex");
            std::vector<Affine> skin;
            poseSkeleton(m.skeleton, time, skin);
            for (size_t i = 0; i < n; ++i)
                out[i] = skinVertex(skin, m.skin.bones[i], m.skin.weight0[i], m.positions[i]);
            return;
        }
        case MeshAnimationKind::Sway:
            for (size_t i = 0; i < n; ++i) out[i] = swayVertex(m.sway, m.positions[i], time);
            return;
    }
    throw Error("mesh '" + m.name + "': unknown animation kind " + std::to_string(int(m.animation)));
}

}  // namespace strata
