// scene/gltf_rig.cpp — see gltf_rig.h.
#include "scene/gltf_rig.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace strata {

GltfMat GltfMat::operator*(const GltfMat& b) const {
    GltfMat r;
    for (int c = 0; c < 4; ++c)
        for (int row = 0; row < 4; ++row) {
            double s = 0;
            for (int k = 0; k < 4; ++k) s += m[k * 4 + row] * b.m[c * 4 + k];
            r.m[c * 4 + row] = s;
        }
    return r;
}

void GltfMat::point(const double p[3], double out[3]) const {
    for (int row = 0; row < 3; ++row) out[row] = m[row] * p[0] + m[4 + row] * p[1] + m[8 + row] * p[2] + m[12 + row];
}

void GltfMat::normal(const double v[3], double out[3]) const {
    auto a = [&](int row, int col) { return m[col * 4 + row]; };
    // cof[i][j] = (-1)^(i+j) minor(i, j); out = cof * v.
    double cof[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            const int r0 = (i + 1) % 3, r1 = (i + 2) % 3, c0 = (j + 1) % 3, c1 = (j + 2) % 3;
            cof[i][j] = a(r0, c0) * a(r1, c1) - a(r0, c1) * a(r1, c0);
        }
    const double det = a(0, 0) * cof[0][0] + a(0, 1) * cof[0][1] + a(0, 2) * cof[0][2];
    const double sign = det < 0 ? -1.0 : 1.0;
    for (int i = 0; i < 3; ++i) out[i] = sign * (cof[i][0] * v[0] + cof[i][1] * v[1] + cof[i][2] * v[2]);
}

namespace {

GltfMat fromTrs(const double t[3], const double q[4], const double s[3]) {
    const double x = q[0], y = q[1], z = q[2], w = q[3];
    const double r[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
                            {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
                            {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};
    GltfMat m;
    for (int c = 0; c < 3; ++c)
        for (int row = 0; row < 3; ++row) m.m[c * 4 + row] = r[row][c] * s[c];
    for (int row = 0; row < 3; ++row) m.m[12 + row] = t[row];
    return m;
}

void normalizeQuat(double q[4]) {
    const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (n > 0)
        for (int i = 0; i < 4; ++i) q[i] /= n;
}

// Spherical interpolation along the shorter arc.
void slerp(const float* a, const float* b, double u, double* out) {
    double qa[4] = {a[0], a[1], a[2], a[3]}, qb[4] = {b[0], b[1], b[2], b[3]};
    normalizeQuat(qa);
    normalizeQuat(qb);
    double d = qa[0] * qb[0] + qa[1] * qb[1] + qa[2] * qb[2] + qa[3] * qb[3];
    if (d < 0) {
        d = -d;
        for (double& c : qb) c = -c;
    }
    double wa = 1 - u, wb = u;
    if (d < 0.9995) {
        const double theta = std::acos(std::min(d, 1.0)), st = std::sin(theta);
        wa = std::sin((1 - u) * theta) / st;
        wb = std::sin(u * theta) / st;
    }
    for (int i = 0; i < 4; ++i) out[i] = wa * qa[i] + wb * qb[i];
    normalizeQuat(out);
}

template <size_t N>
bool sizeIs(const std::vector<double>& v) {
    return v.empty() || v.size() == N;
}

}  // namespace

GltfRig::GltfRig(const std::string& file, const tinygltf::Model& model, const std::vector<int>& roots, int clip,
                 GltfBudget& budget) {
    const size_t n = model.nodes.size();
    auto fail = [&](const std::string& where, const std::string& msg) {
        throw Error(file + ": " + where + ": " + msg);
    };
    rest_.resize(n);
    parent_.assign(n, -1);
    std::vector<char> seen(n, 0);
    // Depth first from the roots; a node met twice has two parents or closes a cycle.
    std::vector<int> stack(roots.rbegin(), roots.rend());
    for (int r : roots)
        if (r < 0 || size_t(r) >= n) fail("scene", "root node " + std::to_string(r) + " does not exist");
    while (!stack.empty()) {
        const int node = stack.back();
        stack.pop_back();
        const std::string where = "nodes[" + std::to_string(node) + "]";
        if (seen[size_t(node)])
            fail(where, "reached twice (a node has at most one parent, and the hierarchy no cycle)");
        seen[size_t(node)] = 1;
        order_.push_back(node);
        const tinygltf::Node& nd = model.nodes[size_t(node)];
        for (auto it = nd.children.rbegin(); it != nd.children.rend(); ++it) {
            if (*it < 0 || size_t(*it) >= n) fail(where, "child " + std::to_string(*it) + " does not exist");
            parent_[size_t(*it)] = node;
            stack.push_back(*it);
        }
        Local& l = rest_[size_t(node)];
        if (!sizeIs<16>(nd.matrix) || !sizeIs<3>(nd.translation) || !sizeIs<4>(nd.rotation) || !sizeIs<3>(nd.scale))
            fail(where, "matrix, translation, rotation or scale has the wrong number of values");
        if (!nd.matrix.empty()) {
            if (!nd.translation.empty() || !nd.rotation.empty() || !nd.scale.empty())
                fail(where, "has both a matrix and translation, rotation or scale");
            l.hasMatrix = true;
            std::copy(nd.matrix.begin(), nd.matrix.end(), l.matrix.m);
        }
        std::copy(nd.translation.begin(), nd.translation.end(), l.t);
        std::copy(nd.rotation.begin(), nd.rotation.end(), l.r);
        std::copy(nd.scale.begin(), nd.scale.end(), l.s);
        if (nd.mesh >= 0 && size_t(nd.mesh) < model.meshes.size()) {
            const tinygltf::Mesh& mesh = model.meshes[size_t(nd.mesh)];
            const size_t targets = mesh.primitives.empty() ? 0 : mesh.primitives[0].targets.size();
            l.weights = !nd.weights.empty() ? nd.weights : mesh.weights;
            if (l.weights.empty()) l.weights.assign(targets, 0.0);
            if (l.weights.size() != targets)
                fail(where, std::to_string(l.weights.size()) + " morph weights for " + std::to_string(targets) +
                                " morph targets");
        }
        for (double v : l.matrix.m)
            if (!std::isfinite(v)) fail(where, "a transform value is not finite");
        for (double v : {l.t[0], l.t[1], l.t[2], l.r[0], l.r[1], l.r[2], l.r[3], l.s[0], l.s[1], l.s[2]})
            if (!std::isfinite(v)) fail(where, "a transform value is not finite");
        normalizeQuat(l.r);
    }
    if (clip < 0) return;

    const tinygltf::Animation& anim = model.animations[size_t(clip)];
    const std::string aw = "animations[" + std::to_string(clip) + "]";
    for (size_t s = 0; s < anim.samplers.size(); ++s) {
        const tinygltf::AnimationSampler& as = anim.samplers[s];
        const std::string sw = aw + ".samplers[" + std::to_string(s) + "]";
        Sampler smp;
        if (as.interpolation == "STEP")
            smp.interp = Interp::Step;
        else if (as.interpolation == "CUBICSPLINE")
            smp.interp = Interp::CubicSpline;
        else if (as.interpolation.empty() || as.interpolation == "LINEAR")
            smp.interp = Interp::Linear;
        else
            fail(sw, "unknown interpolation '" + as.interpolation + "' (STEP, LINEAR or CUBICSPLINE)");
        smp.input = readGltfFloats(file, model, as.input, TINYGLTF_TYPE_SCALAR, sw + " input", budget);
        if (smp.input.empty()) fail(sw, "no key times");
        for (size_t k = 0; k < smp.input.size(); ++k) {
            if (!std::isfinite(smp.input[k])) fail(sw, "key time " + std::to_string(k) + " is not finite");
            if (k > 0 && !(smp.input[k] > smp.input[k - 1]))
                fail(sw, "key times must increase (key " + std::to_string(k) + ")");
        }
        samplers_.push_back(std::move(smp));
    }
    // Outputs are read once their channel says how wide a key is: VEC3 or
    // VEC4 values, or for weights one SCALAR per morph target.
    std::vector<int> widthOf(samplers_.size(), 0);
    std::vector<char> scalarOf(samplers_.size(), 0);
    for (size_t c = 0; c < anim.channels.size(); ++c) {
        const tinygltf::AnimationChannel& ac = anim.channels[c];
        const std::string cw = aw + ".channels[" + std::to_string(c) + "]";
        if (ac.sampler < 0 || size_t(ac.sampler) >= samplers_.size())
            fail(cw, "sampler " + std::to_string(ac.sampler) + " does not exist");
        if (ac.target_node < 0) continue;  // a channel for an extension's target: nothing here moves
        if (size_t(ac.target_node) >= n) fail(cw, "target node " + std::to_string(ac.target_node) + " does not exist");
        if (!seen[size_t(ac.target_node)]) continue;  // a node outside this scene
        Channel ch;
        ch.node = ac.target_node;
        ch.sampler = ac.sampler;
        int width = 0;
        if (ac.target_path == "translation")
            ch.path = Path::Translation, width = 3;
        else if (ac.target_path == "rotation")
            ch.path = Path::Rotation, width = 4;
        else if (ac.target_path == "scale")
            ch.path = Path::Scale, width = 3;
        else if (ac.target_path == "weights")
            ch.path = Path::Weights, width = int(rest_[size_t(ch.node)].weights.size());
        else
            fail(cw, "unknown target path '" + ac.target_path + "'");
        if (width == 0) fail(cw, "animates the weights of a node without morph targets");
        if (rest_[size_t(ch.node)].hasMatrix)
            fail(cw, "animates nodes[" + std::to_string(ch.node) + "], which has a matrix (animated nodes use TRS)");
        const char scalar = ch.path == Path::Weights;
        if (widthOf[size_t(ch.sampler)] != 0 &&
            (widthOf[size_t(ch.sampler)] != width || scalarOf[size_t(ch.sampler)] != scalar))
            fail(cw, "shares its sampler with a channel of another kind");
        widthOf[size_t(ch.sampler)] = width;
        scalarOf[size_t(ch.sampler)] = scalar;
        channels_.push_back(ch);
    }
    for (size_t s = 0; s < samplers_.size(); ++s) {
        if (widthOf[s] == 0) continue;  // unused here
        Sampler& smp = samplers_[s];
        const std::string sw = aw + ".samplers[" + std::to_string(s) + "]";
        const int w = widthOf[s];
        const size_t perKey = size_t(w) * (smp.interp == Interp::CubicSpline ? 3 : 1);
        const int type = scalarOf[s] ? TINYGLTF_TYPE_SCALAR : w == 3 ? TINYGLTF_TYPE_VEC3 : TINYGLTF_TYPE_VEC4;
        smp.output = readGltfFloats(file, model, anim.samplers[s].output, type, sw + " output", budget);
        if (smp.output.size() != smp.input.size() * perKey)
            fail(sw, std::to_string(smp.output.size()) + " output values for " + std::to_string(smp.input.size()) +
                         " keys of " + std::to_string(perKey) + " values");
        for (float v : smp.output)
            if (!std::isfinite(v)) fail(sw, "an output value is not finite");
        smp.width = w;
    }
    bool first = true;
    for (const Channel& ch : channels_) {
        const Sampler& s = samplers_[size_t(ch.sampler)];
        start_ = first ? s.input.front() : std::min(start_, double(s.input.front()));
        end_ = first ? s.input.back() : std::max(end_, double(s.input.back()));
        first = false;
    }
}

void GltfRig::sample(const Sampler& s, double t, double* out, bool rotation) const {
    const size_t keys = s.input.size(), w = size_t(s.width);
    const bool cubic = s.interp == Interp::CubicSpline;
    auto value = [&](size_t k) { return s.output.data() + (cubic ? (3 * k + 1) * w : k * w); };
    size_t k = 0;
    double u = 0;
    if (keys == 1 || t <= s.input.front()) {
        k = 0;
    } else if (t >= s.input.back()) {
        k = keys - 1;
    } else {
        k = size_t(std::upper_bound(s.input.begin(), s.input.end(), float(t)) - s.input.begin()) - 1;
        k = std::min(k, keys - 2);
        const double t0 = s.input[k], t1 = s.input[k + 1];
        u = std::clamp((t - t0) / (t1 - t0), 0.0, 1.0);
    }
    const float* a = value(k);
    if (u == 0 || s.interp == Interp::Step) {
        for (size_t i = 0; i < w; ++i) out[i] = a[i];
        if (rotation) normalizeQuat(out);
        return;
    }
    const float* b = value(k + 1);
    if (s.interp == Interp::Linear) {
        if (rotation) return slerp(a, b, u, out);
        for (size_t i = 0; i < w; ++i) out[i] = a[i] + (double(b[i]) - a[i]) * u;
        return;
    }
    // Cubic Hermite: the key's out-tangent and the next key's in-tangent, scaled by the interval.
    const double dt = double(s.input[k + 1]) - s.input[k];
    const float* outTangent = s.output.data() + (3 * k + 2) * w;
    const float* inTangent = s.output.data() + (3 * (k + 1)) * w;
    const double u2 = u * u, u3 = u2 * u;
    const double h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2;
    for (size_t i = 0; i < w; ++i)
        out[i] = h00 * a[i] + h10 * dt * outTangent[i] + h01 * b[i] + h11 * dt * inTangent[i];
    if (rotation) normalizeQuat(out);
}

void GltfRig::poseAt(double t, GltfPose& out) const {
    std::vector<Local> local = rest_;
    t = std::clamp(t, start_, end_);
    for (const Channel& ch : channels_) {
        Local& l = local[size_t(ch.node)];
        const Sampler& s = samplers_[size_t(ch.sampler)];
        switch (ch.path) {
            case Path::Translation: sample(s, t, l.t, false); break;
            case Path::Rotation: sample(s, t, l.r, true); break;
            case Path::Scale: sample(s, t, l.s, false); break;
            case Path::Weights: sample(s, t, l.weights.data(), false); break;
        }
    }
    out.global.assign(rest_.size(), GltfMat{});
    out.weights.assign(rest_.size(), {});
    for (int node : order_) {
        const Local& l = local[size_t(node)];
        const GltfMat m = l.hasMatrix ? l.matrix : fromTrs(l.t, l.r, l.s);
        const int p = parent_[size_t(node)];
        out.global[size_t(node)] = p < 0 ? m : out.global[size_t(p)] * m;
        out.weights[size_t(node)] = l.weights;
    }
}

}  // namespace strata
