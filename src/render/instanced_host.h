// render/instanced_host.h — instanced mode's structures built on the host
// (CPU backend): one BLAS per static mesh in object space (built when the
// builder changes), one per deforming instance over its posed world-space
// triangles, and the top level over the instances' world boxes (each frame).
#pragma once

#include <string>
#include <vector>

#include "accel/host_accel.h"
#include "accel/two_level.h"
#include "render/flat_scene.h"

namespace strata {

class InstancedHost {
public:
    // worldPos / worldBounds: this frame's flat posed vertices and triangle
    // boxes (poseFlatScene, triangleBounds).
    void build(const Scene& scene, const FlatScene& flat, const std::vector<Vec3>& worldPos,
               const std::vector<Aabb>& worldBounds, float t, const AccelOptions& o);
    TwoLevelView view() const;
    size_t memoryBytes() const;

private:
    std::vector<HostAccel> blasAccel_;
    std::vector<BlasView> blas_;
    std::vector<InstanceView> instances_;
    std::vector<int32_t> meshBlas_;  // per mesh: its shared BLAS (static meshes), -1 otherwise
    std::vector<Aabb> meshBox_;      // per static mesh: its object-space box
    std::string staticKey_;          // the options the static BLASes were built with
    HostBvh top_;
    AccelOptions options_;
};

}  // namespace strata
