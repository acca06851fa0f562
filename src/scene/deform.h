// scene/deform.h — per-vertex deformation math shared by the CPU reference
// (scene/skeleton_pose.cpp) and the CUDA animate stage: wind sway, two-bone
// linear blend skinning, and frame-sequence interpolation. Plain inline
// functions over PODs; no containers, so g++ and nvcc both compile it.
#pragma once

#include <cstdint>

#include "core/hd.h"
#include "core/transform.h"
#include "core/vec.h"
#include "scene/scene.h"  // Sway (a POD); the header itself is host-only data

namespace strata {

// Sway (scene.h): a vertex at height h = p.y - base above the base moves along
// `direction` by amplitude * (h / height)^2 * sin(2 pi frequency t + phase),
// phase = phaseScale * (p.x + p.z). At or below the base nothing moves.
STRATA_HD Vec3 swayVertex(const Sway& s, Vec3 p, float t) {
    float h = p.y - s.base;
    if (!(h > 0.0f) || !(s.height > 0.0f)) return p;
    float r = h / s.height;
    float phase = s.phaseScale * (p.x + p.z);
    return p + s.direction * (s.amplitude * r * r * sinf(2.0f * kPi * s.frequency * t + phase));
}

// Two-bone linear blend: bones = bone0 | bone1 << 16, bone0 weighs w0, bone1 1 - w0.
STRATA_HD Vec3 skinVertex(const Affine* skin, uint32_t bones, float w0, Vec3 p) {
    uint32_t b0 = bones & 0xffffu, b1 = bones >> 16;
    return skin[b0].point(p) * w0 + skin[b1].point(p) * (1.0f - w0);
}

// The normal under the same blend. Bone transforms are rigid (rotations and
// translations), so their linear parts map normals directly.
STRATA_HD Vec3 skinNormal(const Affine* skin, uint32_t bones, float w0, Vec3 n) {
    uint32_t b0 = bones & 0xffffu, b1 = bones >> 16;
    return normalize(skin[b0].vector(n) * w0 + skin[b1].vector(n) * (1.0f - w0));
}

// Frame sequences: frame k is shown at time k / fps. Picks the two frames
// around `time` and the blend t between them; looping wraps from the last
// frame back to the first, otherwise time is clamped to the sequence.
STRATA_HD void frameBlend(float time, float fps, int frameCount, bool loop, int& f0, int& f1, float& t) {
    if (frameCount <= 1 || !(fps > 0.0f)) {
        f0 = f1 = 0;
        t = 0.0f;
        return;
    }
    float x = time * fps;
    if (!(fabsf(x) <= 3.4e38f)) x = 0.0f;  // time * fps beyond a float (or NaN): the first frame
    if (loop) {
        x = fmodf(x, float(frameCount));
        if (x < 0.0f) x += float(frameCount);
        f0 = int(floorf(x));
        if (f0 >= frameCount) f0 = frameCount - 1;
        t = x - float(f0);
        f1 = f0 + 1 == frameCount ? 0 : f0 + 1;
    } else {
        x = clampf(x, 0.0f, float(frameCount - 1));
        f0 = int(floorf(x));
        if (f0 > frameCount - 2) f0 = frameCount - 2;
        t = x - float(f0);
        f1 = f0 + 1;
    }
}

// A vertex between two frames.
STRATA_HD Vec3 lerpFrames(Vec3 a, Vec3 b, float t) { return a + (b - a) * t; }

}  // namespace strata
