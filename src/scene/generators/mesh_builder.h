// scene/generators/mesh_builder.h — the shared toolkit of the procedural
// generators: a mesh under construction with a current material and a current
// transform, and the primitives the generators are made of (flat patches,
// boxes, swept tubes, lathe surfaces, ellipsoids, general grids).
//
// Conventions: metres, +Y up. Every vertex gets a unit normal and a uv.
// tri() orders each triangle so that its geometric normal agrees with its
// vertex normals (so winding is consistent with the normals the primitive
// computes: outward for solids) and drops zero-area triangles.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/transform.h"
#include "core/vec.h"
#include "scene/scene.h"

namespace strata {

// Deterministic random numbers (same seed, same sequence on every platform:
// the mapping from mt19937 output to floats is ours, not the library's).
class Rng {
public:
    explicit Rng(uint32_t seed) : g_(seed) {}
    float uniform() { return float(g_() >> 8) * (1.0f / 16777216.0f); }  // [0, 1)
    float uniform(float lo, float hi) { return lo + (hi - lo) * uniform(); }
    int below(int n) { return int(uniform() * float(n)) % n; }

private:
    std::mt19937 g_;
};

Material diffuse(Vec3 albedo);
Material conductor(Vec3 f0, float roughness);
Material emissive(Vec3 emission);

// A smooth curve through control points (Catmull-Rom), `steps` samples per
// span; the first and last control points are kept. For lathe profiles.
std::vector<Vec2> catmullRom(const std::vector<Vec2>& ctrl, int steps);

// A rotation-and-translation frame: rotate about Y by `yawRadians`, then move to `at`.
Affine placeYaw(Vec3 at, float yawRadians);

class MeshBuilder {
public:
    // Adds (or finds by name) a material and returns its index.
    int32_t material(const std::string& name, const Material& m);
    void use(int32_t materialIndex) { current_ = materialIndex; }
    int32_t current() const { return current_; }

    // Transform applied to every primitive added from now on (object to mesh).
    const Affine& transform() const { return xf_; }
    void setTransform(const Affine& xf);

    uint32_t vertex(Vec3 p, Vec3 n, Vec2 uv);  // p, n in object space (transformed here)
    void tri(uint32_t a, uint32_t b, uint32_t c);
    void quad(uint32_t a, uint32_t b, uint32_t c, uint32_t d);  // a-b-c-d around the edge

    // A grid surface: rows x cols positions (row-major, object space). With
    // `wrapCols` the columns close into a ring (a seam column is duplicated for
    // the uvs). Normals are numerical (central differences) and oriented to
    // agree with `hint` (same size as pos); where the differences vanish (a pole)
    // the hint itself is the normal. uv = (col / cols, row / (rows - 1)) * uvScale.
    void surface(const std::vector<Vec3>& pos, const std::vector<Vec3>& hint, int rows, int cols, bool wrapCols,
                 Vec2 uvScale = {1, 1});

    // A flat rectangle o + s*u + t*v, s,t in [0,1], nu x nv cells; its normal
    // is cross(u, v) (flip: the other side). uv in metres * uvScale.
    void patch(Vec3 o, Vec3 u, Vec3 v, int nu = 1, int nv = 1, bool flip = false, float uvScale = 1);
    // Axis-aligned box (in object space) with flat faces, outward normals.
    // `skipBottom` leaves out the -Y face (boxes standing on something).
    void box(Vec3 lo, Vec3 hi, bool skipBottom = false, float uvScale = 1);

    // A tube swept along `path` (at least 2 points), radius per path point,
    // `sides` around; frames by parallel transport. `ridges` > 0 modulates the
    // radius by (1 + ridgeDepth * cos(ridges * angle)) (bark). Caps are flat fans.
    // `ellipse` scales the cross-section's second axis (1: round).
    void tube(const std::vector<Vec3>& path, const std::vector<float>& radius, int sides, bool capStart, bool capEnd,
              int ridges = 0, float ridgeDepth = 0, float ellipse = 1, Vec3 firstAxis = {});

    // A lathe surface: the profile (r, y) points revolved about the object's Y
    // axis, `segments` around. Normals are smooth along the profile; the
    // profile must be ordered so that the surface's outside is on the right
    // of the walking direction in the (r, y) plane (outside of a pot: bottom to top).
    void lathe(const std::vector<Vec2>& profile, int segments, float uvScaleV = 1);

    // An ellipsoid around `center` with semi-axes `radii`, `segments` around
    // the Y axis and `rings` from pole to pole; thetaMax < pi leaves an open
    // cap from the north (+Y) pole down to polar angle thetaMax.
    void ellipsoid(Vec3 center, Vec3 radii, int segments, int rings, float thetaMax = kPi);

    size_t triangleCount() const { return tris_.size(); }
    size_t vertexCount() const { return pos_.size(); }
    size_t droppedDegenerate() const { return dropped_; }

    LoadedMesh finish(const std::string& name, const std::string& source);

private:
    std::vector<Vec3> pos_, nrm_;
    std::vector<Vec2> uv_;
    std::vector<Tri> tris_;
    std::vector<int32_t> triMat_;
    std::vector<NamedMaterial> materials_;
    int32_t current_ = 0;
    size_t dropped_ = 0;
    Affine xf_;
    Affine normalXf_;  // inverse transpose of xf_'s linear part
};

// Sets a builder's transform for one scope and restores the previous one.
class ScopedTransform {
public:
    ScopedTransform(MeshBuilder& b, const Affine& local) : b_(b), saved_(b.transform()) {
        b_.setTransform(compose(saved_, local));
    }
    ~ScopedTransform() { b_.setTransform(saved_); }
    ScopedTransform(const ScopedTransform&) = delete;
    ScopedTransform& operator=(const ScopedTransform&) = delete;

private:
    MeshBuilder& b_;
    Affine saved_;
};

}  // namespace strata
