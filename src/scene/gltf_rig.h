// scene/gltf_rig.h — a glTF scene's node hierarchy and one of its animations
// (a clip), evaluated at any time: every node's global transform and every
// node's morph weights, as the glTF 2.0 specification defines them
// (translation, rotation, scale and weights channels; STEP, LINEAR with
// spherical interpolation of rotations, CUBICSPLINE). Doubles throughout:
// the loader bakes poses from these.
#pragma once

#include <string>
#include <vector>

#include "scene/gltf_accessor.h"
#include "scene/gltf_parse.h"

namespace strata {

// Column-major 4x4 (glTF's layout): m[column * 4 + row].
struct GltfMat {
    double m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    GltfMat operator*(const GltfMat& b) const;
    void point(const double p[3], double out[3]) const;
    // The cofactor matrix of the upper 3x3 (det * inverse-transpose) times
    // v, flipped when the determinant is negative: maps normals, also
    // through singular and mirrored transforms.
    void normal(const double v[3], double out[3]) const;
};

struct GltfPose {
    std::vector<GltfMat> global;               // per node (identity for nodes outside the scene)
    std::vector<std::vector<double>> weights;  // per node: morph weights (empty: none)
};

class GltfRig {
public:
    // The hierarchy under the scene's root nodes and clip `clip` (an index
    // into model.animations, or -1 for the rest pose); the clip's keys are
    // taken from `budget`. Throws strata::Error naming the file and the node,
    // channel or sampler at fault.
    GltfRig(const std::string& file, const tinygltf::Model& model, const std::vector<int>& roots, int clip,
            GltfBudget& budget);

    // Nodes reachable from the roots, parents before children.
    const std::vector<int>& order() const { return order_; }
    bool animated() const { return !channels_.empty(); }
    double start() const { return start_; }
    double end() const { return end_; }

    // The pose at clip time t (clamped to [start, end]).
    void poseAt(double t, GltfPose& out) const;

private:
    enum class Path { Translation, Rotation, Scale, Weights };
    enum class Interp { Step, Linear, CubicSpline };
    struct Sampler {
        std::vector<float> input, output;
        int width = 0;  // values per key (3, 4, or the morph target count)
        Interp interp = Interp::Linear;
    };
    struct Channel {
        int node = 0;
        Path path = Path::Translation;
        int sampler = 0;
    };
    struct Local {
        bool hasMatrix = false;
        GltfMat matrix;
        double t[3] = {0, 0, 0}, r[4] = {0, 0, 0, 1}, s[3] = {1, 1, 1};
        std::vector<double> weights;
    };

    void sample(const Sampler& s, double t, double* out, bool rotation) const;

    std::vector<int> order_, parent_;
    std::vector<Local> rest_;
    std::vector<Sampler> samplers_;
    std::vector<Channel> channels_;
    double start_ = 0, end_ = 0;
};

}  // namespace strata
