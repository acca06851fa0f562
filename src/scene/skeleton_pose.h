// scene/skeleton_pose.h — evaluating a mesh's animation on the CPU: the
// skeleton's looping clip (one skin matrix per bone) and, as the reference for
// the GPU animate stage, the posed positions of every MeshAnimationKind.
#pragma once

#include <cstdint>
#include <vector>

#include "core/transform.h"
#include "core/vec.h"
#include "scene/scene.h"

namespace strata {

// Clip length in seconds (times.back() - times.front(); 0 for fewer than two keys).
float clipDuration(const Skeleton& s);

// Evaluates the clip at `time` (looping over [times.front(), times.back()],
// nlerp between keys) and writes one skin transform per bone:
//   skin[b] = skin[parent] * T(joint_b) * R_b(t) * T(-joint_b),
// the root additionally left-multiplied by T(rootTranslation(t)).
// A skeleton without keys gives the rest pose. Throws strata::Error on
// inconsistent array sizes or a parent that does not precede its child.
void poseSkeleton(const Skeleton& s, float time, std::vector<Affine>& skin);

// Host reference of the two-bone blend (bones = bone0 | bone1 << 16).
Vec3 skinVertex(const std::vector<Affine>& skin, uint32_t bones, float weight0, Vec3 p);

// Posed positions of every vertex of `m` at `time`: Static copies, Frames
// interpolates, Skinned poses the skeleton and blends, Sway sways.
void poseMeshPositions(const Mesh& m, float time, std::vector<Vec3>& out);

}  // namespace strata
