#include "check/gpu_probe.h"

#include <memory>

#include "accel/kdtree/kd_gpu.h"
#include "gpu/kernel_activity.h"
#include "gpu/launch.cuh"
#include "gpu/stage_timer.h"
#include "render/flat_scene.h"
#include "render/gpu_scene.h"
#include "render/gpu_structures.h"
#include "accel/kdtree/kd_config.h"
#include "render/stages.h"

namespace strata {
namespace {

__global__ void closestHitsKernel(SceneView s, const Ray* rays, uint32_t n, HitRecord* out) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = traceClosest(s, rays[i]);
}

// The scene on the device, posed at time t on its own stream, its stages
// timed as a frame's (the stage table).
class Probe {
public:
    Probe(const Scene& scene, float t) : scene_(scene), flat_(flattenScene(scene_)), timer_(stageTable()) {
        STRATA_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
        gpu_ = std::make_unique<GpuScene>(scene_, flat_);
        timer_.beginFrame(stream_, FrameRecord{});
        StageScope s(&timer_, "animate");
        gpu_->prepareFrame(t, stream_);
        gpu_->animate(ctx());
    }
    ~Probe() {
        if (stream_) {
            cudaStreamSynchronize(stream_);
            cudaStreamDestroy(stream_);
        }
    }
    Probe(const Probe&) = delete;
    Probe& operator=(const Probe&) = delete;

    LaunchContext ctx() { return LaunchContext{stream_, &timer_}; }
    cudaStream_t stream() const { return stream_; }
    const Scene& scene() const { return scene_; }
    const FlatScene& flat() const { return flat_; }
    GpuScene& gpu() { return *gpu_; }
    // The frame's stage times (waits for the device).
    FrameRecord record() {
        timer_.endFrame();
        FrameRecord r;
        timer_.pop(r, true);
        return r;
    }

private:
    Scene scene_;  // a copy: GpuScene keeps a reference
    FlatScene flat_;
    StageTimer timer_;
    cudaStream_t stream_ = nullptr;
    std::unique_ptr<GpuScene> gpu_;
};

void buildKd(Probe& p, KdGpuBuilder& kd, const LaunchContext& ctx) {
    kd.build(p.gpu().positions(), p.gpu().triangles(), p.gpu().numTris(), kdConfigOf(p.scene().options.accel), ctx);
}

// The options' structure over the probe's posed scene, in the "build" stage.
void buildStructure(Probe& p, GpuStructures& g, const AccelOptions& o, float t) {
    StageScope s(p.ctx().timer, "build");
    g.build(p.scene(), p.flat(), p.gpu(), o, t, p.ctx());
}

}  // namespace

GpuBuildResult buildOnGpuForValidation(const Scene& scene, float t) {
    Probe p(scene, t);
    GpuStructures g;
    AccelOptions o = scene.options.accel;
    o.mode = AccelMode::Flat;  // the flat LBVH of the options' variant
    buildStructure(p, g, o, t);
    GpuBuildResult r;
    r.buildMs = p.record().stageMs("build");
    LbvhCopy c = g.lbvh().download();
    r.nodes = std::move(c.nodes);
    r.primIndex = std::move(c.primIndex);
    r.root = c.root;
    r.skipNodes = std::move(c.skipNodes);
    if (o.width == BvhWidth::Eight) r.wide = g.wide().download();
    r.positions = p.gpu().downloadPositions();
    return r;
}

GpuKdResult buildKdOnGpuForValidation(const Scene& scene, float t) {
    Probe p(scene, t);
    GpuStructures g;
    AccelOptions o = scene.options.accel;
    o.builder = Builder::KdTree;
    o.mode = AccelMode::Flat;  // the one kd-tree over the scene (instanced mode builds one per BLAS)
    buildStructure(p, g, o, t);
    const KdGpuBuilder& kd = g.kd();
    const FrameRecord rec = p.record();
    GpuKdResult r;
    r.buildMs = rec.stageMs("build");
    r.largeMs = rec.stageMs("build/kd_large");
    r.smallMs = rec.stageMs("build/kd_small");
    kd.download(r.tree.nodes, r.tree.primIndex);
    r.tree.bounds = kd.view().bounds;
    r.positions = p.gpu().downloadPositions();
    const KdGpuStats& st = kd.stats();
    r.launches = st.launches;
    r.libraryCalls = st.libraryCalls;
    r.smallLevels = st.smallLevels;
    r.tree.stats.warnings = st.warnings;  // caps hit: the checker prints them
    r.tree.stats.largeIterations = st.largeIterations;
    r.tree.stats.smallRoots = st.smallRoots;
    r.idleLevels = st.idleLevels;
    r.passes = st.passes;
    return r;
}

// Per build, the sum of its kernel times and the kernels CUPTI recorded (the
// builder's own launches, and those CUB makes inside its library calls).
std::vector<KdKernelTimes> kdKernelTimesOnGpu(const Scene& scene, float t, int builds) {
    Probe p(scene, t);
    KdGpuBuilder kd;
    buildKd(p, kd, LaunchContext{p.stream()});  // the arrays allocated before the recorded builds
    std::vector<KdKernelTimes> out;
    KernelActivity activity;
    for (int i = 0; i < builds; ++i) {
        activity.start();
        buildKd(p, kd, LaunchContext{p.stream()});
        const KernelTotals k = activity.stop();
        const KdGpuStats& st = kd.stats();
        const uint32_t own = st.launches - st.libraryCalls;  // a library call launches at least one kernel
        if (st.passes == 1 && (st.libraryCalls ? k.kernels < st.launches : k.kernels != own))
            throw Error("kernel times: CUPTI recorded " + std::to_string(k.kernels) + " kernels of a build that " +
                        "launched " + std::to_string(own) + " and made " + std::to_string(st.libraryCalls) +
                        " library calls");
        out.push_back({k.ms, k.kernels, st.launches, k.msByKernel});
    }
    return out;
}

std::vector<HitRecord> traceOnGpuForValidation(const Scene& scene, float t, const std::vector<Ray>& rays,
                                               std::vector<Vec3>* positions) {
    Probe p(scene, t);
    GpuStructures g;
    const AccelOptions& a = scene.options.accel;
    buildStructure(p, g, a, t);
    const SceneView sv = g.view(p.gpu(), a, makeCameraView(p.scene(), t, 1, 1));
    DeviceBuffer<Ray> d;
    d.upload(rays, p.stream());
    DeviceBuffer<HitRecord> out(rays.size());
    const uint32_t n = uint32_t(rays.size());
    launch(LaunchContext{p.stream()}, "validate/closest_hits", perItem(n, 128), closestHitsKernel, sv, d.data(), n,
           out.data());
    STRATA_CUDA_CHECK(cudaStreamSynchronize(p.stream()));
    std::vector<HitRecord> h;
    out.download(h);
    if (positions) *positions = p.gpu().downloadPositions();
    return h;
}

}  // namespace strata
