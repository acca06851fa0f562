// render/cuda_renderer.cu — the CUDA backend: animate, build (the LBVH variant of accel.builder),
// then the wavefront stages of render/integrator.h as kernels, every stage
// timed with events and its launches counted.
#include "render/cuda_renderer.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <iterator>
#include <sstream>

#include "accel/cpu/sah_builder.h"
#include "accel/kdtree/kd_cpu_builder.h"
#include "accel/lbvh/lbvh_gpu.h"
#include "gpu/device.h"
#include "gpu/launch.cuh"
#include "gpu/pinned_buffer.h"
#include "render/gpu_scene.h"
#include "render/gpu_structures.h"
#include "render/denoise.h"
#include "render/display.h"
#include "render/heatmap.h"
#include "render/instanced_gpu.h"
#include "render/integrator.h"
#include "render/path_storage.h"
#include "render/renderer_base.h"
#include "render/rebuild_policy.h"
#include "render/ray_sort_gpu.h"
#include "render/vd_gpu.h"
#include "render/vd_host.h"
#include "render/stages.h"
#include "render/wavefront.h"

namespace strata {
namespace {

constexpr int kBlock = 128;

__global__ void generateKernel(SceneView s, PathBuffers b, PassParams p) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < p.width * p.height) stageGenerate(s, b, p, i);
}
// The trace kernels, one per structure kind and traversal (scene_view.h: TraceKind).
// Fused (vd.middle_level unified, the BVH kinds): the VD pairs on the way.
template <TraceKind K, bool Fused = false>
__global__ void traceClosestKernel(SceneView s, PathBuffers b, int bounce, uint32_t maxCount) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < maxCount) stageTraceClosestAs<K, Fused>(s, b, bounce, i);
}
// The two-level kinds' are held to 56 registers (kTwoLevelBlocks blocks of
// kBlock threads per SM): their walk keeps the top level's state live beside
// the BLAS's, and unbounded nvcc gives them 72 registers (43.75% occupancy
// against the flat kernels' 62.5%). With the BLAS walk inlined once
// (TopLevelWalk), on the H200 they traced 3-5% faster at 56 than at 64,
// which was 3-8% faster than 72, and 5-10% slower at 48 (kitchen-3,
// atrium-3, SR3, the Conference room; perf.md, "Instanced mode"). The other
// kinds keep nvcc's own choice (any bounds, even 1,024 threads a block,
// change their registers).
constexpr int kTwoLevelBlocks = 9;
template <TraceKind K, bool Fused = false>
__global__ void __launch_bounds__(kBlock, kTwoLevelBlocks)
    traceClosestTwoLevelKernel(SceneView s, PathBuffers b, int bounce, uint32_t maxCount) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < maxCount) stageTraceClosestAs<K, Fused>(s, b, bounce, i);
}
template <TraceKind K, bool Fused>
constexpr auto closestKernelOf() {
    if constexpr (isTwoLevelKind(K))
        return traceClosestTwoLevelKernel<K, Fused>;
    else
        return traceClosestKernel<K, Fused>;
}
__global__ void shadeKernel(SceneView s, PathBuffers b, PassParams p, int bounce, uint32_t maxCount) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < maxCount) stageShade(s, b, p, bounce, i);
}
template <TraceKind K, bool Fused = false>
__global__ void traceShadowKernel(SceneView s, PathBuffers b, uint32_t maxCount) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < maxCount) stageTraceShadowAs<K, Fused>(s, b, i);
}
template <TraceKind K, bool Fused = false>
__global__ void __launch_bounds__(kBlock, kTwoLevelBlocks)
    traceShadowTwoLevelKernel(SceneView s, PathBuffers b, uint32_t maxCount) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < maxCount) stageTraceShadowAs<K, Fused>(s, b, i);
}
template <TraceKind K, bool Fused>
constexpr auto shadowKernelOf() {
    if constexpr (isTwoLevelKind(K))
        return traceShadowTwoLevelKernel<K, Fused>;
    else
        return traceShadowKernel<K, Fused>;
}
// VD pairs (stage 2b / 4a), compiled per kind as the traces are.
template <TraceKind K>
__global__ void vdPairsKernel(SceneView s, PathBuffers b, PassParams p, int bounce, uint32_t maxCount) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < maxCount) stageVdPairsAs<K>(s, b, p, bounce, i);
}
template <TraceKind K>
__global__ void vdShadowPairsKernel(SceneView s, PathBuffers b, uint32_t maxCount) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < maxCount) stageVdShadowPairsAs<K>(s, b, i);
}
__global__ void shadowFinishKernel(PathBuffers b, uint32_t maxCount) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < maxCount) stageShadowFinish(b, i);
}
__global__ void accumulateKernel(PathBuffers b, uint32_t n) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) stageAccumulate(b, i);
}
template <TraceKind K>
__global__ void heatmapKernel(SceneView s, uint32_t w, uint32_t h, Heatmap shown, uint32_t* heat,
                              unsigned long long* totals) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < w * h) stageHeatmapAs<K>(s, w, h, shown, heat, totals, i);
}
// view.filter's passes (render/denoise.h).
template <TraceKind K>
__global__ void filterGbufferKernel(SceneView s, uint32_t w, uint32_t h, FilterPixel* gbuf) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < w * h) gbuf[i] = filterGbufferPixelAs<K>(s, w, h, i);
}
__global__ void filterTemporalKernel(FilterBuffers f, CameraView previous, uint32_t w, uint32_t h) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < w * h) filterTemporalPixel(f, previous, w, h, i);
}
__global__ void filterAtrousKernel(FilterBuffers f, uint32_t w, uint32_t h, int in, int step) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < w * h) filterAtrousPixel(f, w, h, in, step, i);
}
__global__ void tonemapKernel(const Vec3* film, uint32_t n, DisplayParams d, uint32_t* out) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = stageDisplay(film, i, d);
}
__global__ void tonemapSurfaceKernel(const Vec3* film, uint32_t w, uint32_t h, DisplayParams d,
                                     cudaSurfaceObject_t surface) {
    uint32_t x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    // Row 0 is the top row on every display path; the display shader flips.
    uint32_t c = stageDisplay(film, y * w + x, d);
    surf2Dwrite(c, surface, int(x * 4), int(y));
}
void checkFits(const Scene& scene, const FlatScene& flat, const VdMemoryComparison& vdMemory) {
    GpuInfo gpu = queryGpu();
    if (!gpu.available) throw Error("the CUDA backend needs a GPU: " + gpu.reason + " (try --backend cpu)");
    size_t pixels = size_t(scene.options.render.width) * scene.options.render.height;
    size_t t = flat.tris.size();
    const bool flatMode = scene.options.accel.mode == AccelMode::Flat;
    size_t accel = LbvhBuilder::estimateBytes(t, scene.options.accel.mortonSort) +
                   (flatMode && copiesLeafTris(scene.options.accel, false) ? t * sizeof(LeafTri) : 0);
    if (scene.options.accel.mode == AccelMode::Instanced) accel += InstancedGpu::estimateBytes(scene, flat);
    if (flatMode && scene.options.accel.width == BvhWidth::Eight)  // the binary tree's nodes: fewer than t
        accel += CwbvhGpu::estimateBytes(t, t, scene.options.accel.wideCollapse);
    size_t vd = flat.patches.empty() ? 0 : vdMemory.direct.total() + VdGpu::estimatePairBytes(pixels);
    size_t need = GpuScene::estimateBytes(scene, flat) + accel + vd +
                  pixels * PathStorage<DeviceBuffer>::bytesPerPixel() + (64u << 20);
    size_t freeBytes = gpu.freeBytes;
    // STRATA_GPU_MEMORY_LIMIT_MB pretends the GPU has less free memory (tests
    // of the out-of-memory path, and rehearsing scenes for smaller GPUs).
    if (const char* lim = std::getenv("STRATA_GPU_MEMORY_LIMIT_MB"))
        freeBytes = std::min(freeBytes, size_t(std::strtoull(lim, nullptr, 10)) << 20);
    if (need > freeBytes) {
        std::ostringstream s;
        s << scene.path << ": the scene needs about " << need / (1 << 20) << " MiB of GPU memory (" << t
          << " triangles, " << pixels << " pixels) but " << gpu.name << " has " << freeBytes / (1 << 20) << " MiB free"
          << (freeBytes < gpu.freeBytes ? " (STRATA_GPU_MEMORY_LIMIT_MB)" : "");
        // Pre-tessellated VD meshes (their quads are triangles by now) are most of such a scene.
        bool vdMeshes = false;
        for (const Mesh& m : scene.meshes) vdMeshes = vdMeshes || m.vd.map >= 0;
        if (vdMeshes && scene.options.vd.mode == VdMode::Pretess)
            s << "; the VD patches are pre-tessellated at vd.max_level " << scene.options.vd.maxLevel << " (about "
              << vdMemory.pretess.total() / (1 << 20) << " MiB; traced directly they take about "
              << std::max<uint64_t>(1, vdMemory.direct.total() / (1 << 20))
              << " MiB): lower vd.max_level or use vd.mode direct";
        throw Error(s.str());
    }
}

// render/wavefront.h's executor on the GPU: one kernel per step over the
// whole image (the kernels find their queue's length on the device), the
// traces and the VD pairs one kernel per trace kind.
struct CudaPassExec {
    const LaunchContext& ctx;
    SceneView& sv;  // its VD pair buffers grow in vdPairsFit
    PathBuffers b;  // a bounce's queue may be the sorter's copy (traceClosest)
    uint32_t n;     // pixels: every queue's capacity
    VdGpu* vd;
    RaySortGpu* sorter;  // render.sort_rays, or null
    Ray* queueRays[2];   // the queues' own buffers
    uint32_t* queuePaths[2];

    CudaPassExec(const LaunchContext& c, SceneView& s, const PathBuffers& p, uint32_t pixels, VdGpu* v,
                 RaySortGpu* sort)
        : ctx(c),
          sv(s),
          b(p),
          n(pixels),
          vd(v),
          sorter(sort),
          queueRays{p.rays[0], p.rays[1]},
          queuePaths{p.rayPath[0], p.rayPath[1]} {}

    StageScope scope(const char* label) const { return StageScope(ctx.timer, label); }
    uint32_t queued(int, uint32_t all) const { return all; }  // on the device
    LaunchShape perPixel() const { return perItem(n, kBlock); }
    void generate(const PassParams& p) {
        useQueue(0);
        useQueue(1);
        launch(ctx, "shade/primary", perPixel(), generateKernel, sv, b, p);
    }
    // render.sort_rays: a bounce's queue (not the camera's) is traced, its
    // VD pairs found and shaded from the sorter's copy, in rayOrderKey's
    // order. The previous bounce's queue is read no more: back to its own
    // buffer, which this bounce's shading appends to.
    void traceClosest(int bounce, const char* label) {
        const int cur = bounce & 1;
        useQueue(cur ^ 1);
        if (sorter && bounce > 0) {
            const RaySortGpu::Sorted q = sorter->sort(sv, b.rays[cur], b.rayPath[cur], &b.counters[cur], n, ctx);
            b.rays[cur] = q.rays;
            b.rayPath[cur] = q.paths;
        }
        withTraceKind(traceKindOf(sv), [&](auto k) {
            constexpr TraceKind K = decltype(k)::value;
            if constexpr (isBvhKind(K))
                if (tracesFused<K>(sv))
                    return launch(ctx, label, perPixel(), closestKernelOf<K, true>(), sv, b, bounce, n);
            launch(ctx, label, perPixel(), closestKernelOf<K, false>(), sv, b, bounce, n);
        });
    }
    void vdPairs(const PassParams& p, int bounce) const {
        withTraceKind(vdPairKindOf(sv), [&](auto k) {
            launch(ctx, "vd/pairs", perPixel(), vdPairsKernel<decltype(k)::value>, sv, b, p, bounce, n);
        });
    }
    void vdShadowPairs() const {
        withTraceKind(vdPairKindOf(sv), [&](auto k) {
            launch(ctx, "vd/pairs", perPixel(), vdShadowPairsKernel<decltype(k)::value>, sv, b, n);
        });
    }
    bool vdPairsFit() const { return vd->pairsFit(sv.vd, ctx.stream); }
    void vdResolve(int bounce, bool closestRays, bool anyHit) const {
        if (!closestRays) return vd->resolve(sv.vd, b.shadowRays, nullptr, b.shadowBlocked, ctx);
        if (anyHit) STRATA_CUDA_CHECK(cudaMemsetAsync(b.shadowBlocked, 0, n * sizeof(uint32_t), ctx.stream));
        vd->resolve(sv.vd, b.rays[bounce & 1], b.hits, anyHit ? b.shadowBlocked : nullptr, ctx);
    }
    void shade(const PassParams& p, int bounce, const char* label) const {
        launch(ctx, label, perPixel(), shadeKernel, sv, b, p, bounce, n);
    }
    void traceShadow() const {
        withTraceKind(traceKindOf(sv), [&](auto k) {
            constexpr TraceKind K = decltype(k)::value;
            if constexpr (isBvhKind(K))
                if (tracesFused<K>(sv)) return launch(ctx, "shadow", perPixel(), shadowKernelOf<K, true>(), sv, b, n);
            launch(ctx, "shadow", perPixel(), shadowKernelOf<K, false>(), sv, b, n);
        });
    }
    void shadowFinish() const { launch(ctx, "shadow", perPixel(), shadowFinishKernel, b, n); }
    void accumulate() const { launch(ctx, "accumulate", perPixel(), accumulateKernel, b, n); }
    void useQueue(int q) {
        b.rays[q] = queueRays[q];
        b.rayPath[q] = queuePaths[q];
    }
};

class CudaRenderer final : public RendererBase {
public:
    explicit CudaRenderer(const Scene& scene) : RendererBase(scene), timer_(stageTable()) {
        flat_ = flattenScene(scene_);
        checkFits(scene_, flat_, vdMemory());
        gpuName_ = queryGpu().name;
        STRATA_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
        gpu_ = std::make_unique<GpuScene>(scene_, flat_);
        if (!flat_.patches.empty()) vd_ = std::make_unique<VdGpu>(scene_, flat_);
        allocate();
        hostCounters_.resize(size_t(kNumCounters) * kRing);
        hostHeat_.resize(size_t(kNumHeatTotals) * kRing);
        heatTotals_.resize(kNumHeatTotals);
    }

    // Image-sized buffers (again whenever the resolution changes).
    void allocate() {
        STRATA_CUDA_CHECK(cudaStreamSynchronize(stream_));
        const size_t n = size_t(opt_.render.width) * opt_.render.height;
        paths_.resize(n);
        image_.resize(n);
        noteAllocated();
    }
    ~CudaRenderer() override {
        if (stream_) cudaStreamSynchronize(stream_);
        if (stream_) cudaStreamDestroy(stream_);
    }

    std::string name() const override { return "cuda (" + gpuName_ + ")"; }
    std::vector<std::string> stageNames() const override { return stageTable(); }

    size_t geometryBytes() const override { return gpu_->geometryBytes() + (vd_ ? vd_->geometryBytes() : 0); }
    size_t accelBytes() const override { return structures_.memoryBytes() + (vd_ ? vd_->memoryBytes() : 0); }
    RefitStatus refitStatus() const override { return structures_.refitStatus(); }
    TreeQuality treeQuality() override {
        STRATA_CUDA_CHECK(cudaStreamSynchronize(stream_));
        if (built_.mode == AccelMode::Instanced) return {};  // one tree per BLAS
        if (built_.builder == Builder::KdTree) {
            HostKdTree kd;
            structures_.kd().download(kd.nodes, kd.primIndex);
            kd.bounds = structures_.kd().view().bounds;
            return kdTreeQuality(kd.view(), gpu_->numTris());
        }
        if (structures_.lbvh().numPrims() == 0) return {};
        const LbvhCopy c = structures_.lbvh().download();
        std::vector<Aabb> bounds(structures_.lbvh().numPrims());  // the triangles' (and any VD boxes')
        STRATA_CUDA_CHECK(cudaMemcpy(bounds.data(), structures_.flatBounds().boxes, bounds.size() * sizeof(Aabb),
                                     cudaMemcpyDeviceToHost));
        if (built_.width == BvhWidth::Eight) return wideTreeQuality(structures_.wide().download().view(), bounds);
        HostBvh tree{c.nodes, c.primIndex, c.root};
        return bvhTreeQuality(tree.view(), bounds);
    }
    size_t vdPairBytes() const override { return vd_ ? vd_->pairBytes() : 0; }
    VdDeviceComparison vdDeviceMemory() const override {
        const VdMemoryComparison c = vdMemory();
        if (c.patches == 0 || opt_.vd.mode == VdMode::Off) return {};
        size_t free = 0, total = 0;  // the whole device's (other processes' too)
        STRATA_CUDA_CHECK(cudaMemGetInfo(&free, &total));
        const size_t pairs = vd_ ? vd_->pairBytes()
                                 : VdGpu::estimatePairBytes(size_t(opt_.render.width) * size_t(opt_.render.height));
        return compareVdDeviceMemory(c, opt_.vd.mode, total - free, pairs);
    }
    size_t vdBytes() const override { return vd_ ? vd_->geometryBytes() + vd_->memoryBytes() : 0; }
    uint32_t vdBottomBlocks() const override { return vd_ ? vd_->workBlocks() : RendererBase::vdBottomBlocks(); }
    uint64_t vdPairsResolved() const override { return vd_ ? vd_->pairsResolved() : 0; }

    bool deviceDisplay() const override { return true; }
    void* cudaStream() const override { return stream_; }
    bool tonemapToDevice(void* rgba8) override {
        launchTonemap(static_cast<uint32_t*>(rgba8));
        return true;
    }
    bool tonemapToSurface(unsigned long long surface) override {
        const uint32_t w = opt_.render.width, h = opt_.render.height;
        dim3 block(16, 16), grid((w + 15) / 16, (h + 15) / 16);
        launch(LaunchContext{stream_}, "display/tonemap_surface", {grid, block}, tonemapSurfaceKernel,
               paths_.film.data(), w, h, displayParams(heat_.data()), surface);
        return true;
    }

    void renderFrame(float t, uint64_t frameIndex, bool accumulate) override {
        if (resolutionChanged()) allocate();
        const uint32_t w = opt_.render.width, h = opt_.render.height, n = w * h;
        FrameRecord header;
        header.frame = frameIndex;
        header.sceneTime = t;
        header.triangles = gpu_->numTris();
        timer_.beginFrame(stream_, header);
        const uint64_t pairsBefore = vd_ ? vd_->pairsResolved() : 0;

        const LaunchContext ctx{stream_, &timer_};
        if (rebuild_.needed(opt_.accel, opt_.vd, t)) {
            {
                StageScope s(&timer_, "animate");
                gpu_->prepareFrame(t, stream_);
                gpu_->animate(ctx);
            }
            StageScope s(&timer_, "build");
            built_ = opt_.accel;
            const bool unified = vdUnifiedMiddle(opt_, vd_ != nullptr);
            auto prepareVd = [&] {  // this frame's patch transforms, and in flat mode the BVH over the patch boxes
                StageScope v(&timer_, "build/vd_boxes");
                vd_->prepare(scene_, flat_, opt_.vd, t, ctx, opt_.accel, runsInstanced(opt_.accel), unified);
            };
            // vd.middle_level unified: the patch boxes join the triangles' tree
            // (instanced: each VD mesh's BLAS, in object space).
            const bool instanced = runsInstanced(opt_.accel);
            if (unified) prepareVd();
            const UnifiedPatches object = unified && instanced ? vd_->objectMiddleBoxes() : UnifiedPatches{};
            structures_.build(scene_, flat_, *gpu_, opt_.accel, t, ctx,
                              unified && !instanced ? vd_->middleBoxes() : DeviceBoxes{},
                              unified && instanced ? &object : nullptr);
            if (vd_ && !unified) prepareVd();
        }

        CameraView cam = cameraView(t, int(w), int(h));
        SceneView sv = structures_.view(*gpu_, opt_.accel, cam);
        if (vd_) {
            sv.vd = vd_->view(opt_.vd, pixelAngle(cam, int(h)), cam.position, n, stream_);
            // (A change of vd.middle_level rebuilds: the VD options are in the rebuild policy.)
            if (vdUnifiedMiddle(opt_, true)) vdUseUnifiedMiddle(sv);
        }
        PathBuffers b = paths_.view();
        if (!accumulate || samples_ == 0) {
            STRATA_CUDA_CHECK(cudaMemsetAsync(paths_.film.data(), 0, n * sizeof(Vec3), stream_));
            samples_ = 0;
        }
        STRATA_CUDA_CHECK(cudaMemsetAsync(paths_.counters.data(), 0, kNumCounters * sizeof(uint32_t), stream_));
        if (!opt_.render.sortRays) raySort_.release();  // turned off in the viewer: its buffers back
        CudaPassExec x(ctx, sv, b, n, vd_.get(), opt_.render.sortRays ? &raySort_ : nullptr);
        renderPasses(x, opt_.render, frameIndex, vd_ != nullptr, vd_ && vdAnyHitLast(flat_, opt_.vd), sv.vd.fused);
        samples_ += uint32_t(opt_.render.spp);
        STRATA_CUDA_CHECK(cudaMemcpyAsync(hostCounters_.data() + (frameIndex % kRing) * kNumCounters,
                                          paths_.counters.data(), kNumCounters * sizeof(uint32_t),
                                          cudaMemcpyDeviceToHost, stream_));
        filterPass(sv, cam, ctx);
        heatmapPass(sv, ctx, frameIndex);
        // Each resolve read its pair count back: the frame's is known now.
        framePairs_[frameIndex % kRing] = vd_ ? vd_->pairsResolved() - pairsBefore : 0;
        const RefitStatus refit = structures_.refitStatus();
        frameRefit_[frameIndex % kRing] = RefitStatus{refit.refits, refit.sahGrowth, {}};  // the CSV's summary only
        timer_.endFrame();
    }

    bool popRecord(FrameRecord& out) override { return take(out, false); }
    void finish() override { STRATA_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

    void launchTonemap(uint32_t* dst) {
        const uint32_t n = uint32_t(paths_.film.size());
        launch(LaunchContext{stream_}, "tonemap", perItem(n, kBlock), tonemapKernel, paths_.film.data(), n,
               displayParams(heat_.data()), dst);
    }

    void readImage(std::vector<uint8_t>& rgb) override {
        const uint32_t n = uint32_t(paths_.film.size());
        launchTonemap(image_.data());
        STRATA_CUDA_CHECK(cudaStreamSynchronize(stream_));
        std::vector<uint32_t> px;
        image_.download(px);
        rgb.resize(size_t(n) * 3);
        for (uint32_t i = 0; i < n; ++i) {
            rgb[3 * i] = uint8_t(px[i] & 255);
            rgb[3 * i + 1] = uint8_t((px[i] >> 8) & 255);
            rgb[3 * i + 2] = uint8_t((px[i] >> 16) & 255);
        }
    }

    void readRadiance(std::vector<float>& rgb) override {
        STRATA_CUDA_CHECK(cudaStreamSynchronize(stream_));
        std::vector<Vec3> f;
        paths_.film.download(f);
        float inv = inverseSamples();
        rgb.resize(f.size() * 3);
        for (size_t i = 0; i < f.size(); ++i) {
            rgb[3 * i] = f[i].x * inv;
            rgb[3 * i + 1] = f[i].y * inv;
            rgb[3 * i + 2] = f[i].z * inv;
        }
    }

private:
    RaySortGpu raySort_;  // render.sort_rays
    static constexpr int kRing = 8;

    // view.filter (render/denoise.h) on a frame that started its image over.
    void filterPass(const SceneView& sv, const CameraView& cam, const LaunchContext& ctx) {
        if (!filtersThisFrame()) {
            filter_.havePrevious = false;
            return noteFilter(nullptr);
        }
        const uint32_t w = opt_.render.width, h = opt_.render.height;
        const LaunchShape shape = perItem(w * h, kBlock);
        filter_.resize(size_t(w) * h);
        const FilterBuffers f = filter_.view(paths_.film.data(), inverseSamples());
        withTraceKind(traceKindOf(sv), [&](auto k) {
            launch(ctx, "filter", shape, filterGbufferKernel<decltype(k)::value>, sv, w, h, f.gbuf);
        });
        launch(ctx, "filter", shape, filterTemporalKernel, f, filter_.previousCamera, w, h);
        if (opt_.view.filter == ViewFilter::Svgf)
            for (int pass = 0; pass < kAtrousPasses; ++pass)
                launch(ctx, "filter", shape, filterAtrousKernel, f, w, h, pass & 1, 1 << pass);
        noteFilter(filter_.output(opt_.view.filter));
        filter_.advance(cam);
    }

    // view.heatmap: the camera rays again with counters on (stage heatmap),
    // their totals read back a frame late with the frame's counters.
    void heatmapPass(const SceneView& sv, const LaunchContext& ctx, uint64_t frameIndex) {
        unsigned long long* ring = hostHeat_.data() + (frameIndex % kRing) * kNumHeatTotals;
        std::fill(ring, ring + kNumHeatTotals, 0ull);
        noteHeatmap(opt_.view.heatmap);
        if (opt_.view.heatmap == Heatmap::Off) return;
        const uint32_t w = opt_.render.width, h = opt_.render.height;
        heat_.resize(size_t(w) * h);
        STRATA_CUDA_CHECK(cudaMemsetAsync(heatTotals_.data(), 0, kNumHeatTotals * sizeof(unsigned long long), stream_));
        withTraceKind(traceKindOf(sv), [&](auto k) {
            launch(ctx, "heatmap", perItem(w * h, kBlock), heatmapKernel<decltype(k)::value>, sv, w, h,
                   opt_.view.heatmap, heat_.data(), heatTotals_.data());
        });
        STRATA_CUDA_CHECK(cudaMemcpyAsync(ring, heatTotals_.data(), kNumHeatTotals * sizeof(unsigned long long),
                                          cudaMemcpyDeviceToHost, stream_));
    }

    bool take(FrameRecord& out, bool wait) {
        if (!timer_.pop(out, wait)) return false;
        const uint32_t* c = hostCounters_.data() + (out.frame % kRing) * kNumCounters;
        out.rays = c[kRaysTraced];
        out.shadowRays = c[kShadowRaysTraced];
        out.vdPairs = framePairs_[out.frame % kRing];
        const unsigned long long* heat = hostHeat_.data() + (out.frame % kRing) * kNumHeatTotals;
        out.heatNodes = heat[kHeatNodes];
        out.heatTriangles = heat[kHeatTriangles];
        out.heatSteps = heat[kHeatSteps];
        out.heatBlas = heat[kHeatBlas];
        out.refitsSinceBuild = frameRefit_[out.frame % kRing].refits;
        out.sahGrowth = frameRefit_[out.frame % kRing].sahGrowth;
        return true;
    }

    StageTimer timer_;
    FlatScene flat_;
    std::string gpuName_;
    cudaStream_t stream_ = nullptr;
    std::unique_ptr<GpuScene> gpu_;
    GpuStructures structures_;
    std::unique_ptr<VdGpu> vd_;  // vd.mode direct with patches
    RebuildPolicy rebuild_;
    AccelOptions built_;  // what the last build built
    PathStorage<DeviceBuffer> paths_;
    DeviceBuffer<uint32_t> image_;
    PinnedBuffer<uint32_t> hostCounters_;  // kRing frames' counters, read a frame late
    DeviceBuffer<uint32_t> heat_;          // view.heatmap: the shown count per pixel
    FilterStorage<DeviceBuffer> filter_;
    DeviceBuffer<unsigned long long> heatTotals_;
    PinnedBuffer<unsigned long long> hostHeat_;  // kRing frames' heatmap totals
    uint64_t framePairs_[kRing] = {};      // the same frames' VD pairs
    RefitStatus frameRefit_[kRing] = {};   // and their trees' refits and SAH growth
};

}  // namespace

std::unique_ptr<Renderer> makeCudaRenderer(const Scene& scene) { return std::make_unique<CudaRenderer>(scene); }

}  // namespace strata
