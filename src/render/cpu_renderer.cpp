// render/cpu_renderer.cpp — the CPU reference backend: the same stages as the
// CUDA backend (render/integrator.h) run by a thread pool, over a BVH from the
// CPU builder.
#include <algorithm>
#include <deque>
#include <vector>

#include "accel/host_accel.h"
#include "accel/lbvh/lbvh_variant.h"
#include "accel/kdtree/kd_cpu_builder.h"
#include "accel/kdtree/kd_config.h"
#include "render/flat_scene.h"
#include "render/denoise.h"
#include "render/display.h"
#include "render/heatmap.h"
#include "render/host_memory.h"
#include "render/integrator.h"
#include "render/rebuild_policy.h"
#include "render/path_storage.h"
#include "render/ray_order.h"
#include "render/renderer_base.h"
#include "core/parallel.h"
#include "render/instancing.h"
#include "render/host_stage_clock.h"
#include "render/stages.h"
#include "render/vd_host.h"
#include "render/wavefront.h"

namespace strata {
namespace {

// render/wavefront.h's executor on the host: each step over its queue's
// current length (known here) on the thread pool, timed by the wall clock.
struct CpuPassExec {
    HostStageClock& clock;
    ThreadPool& pool;
    VdHost& vdHost;
    SceneView& sv;  // its VD pair buffer grows in vdPairsFit
    const PathBuffers& b;
    PathStorage<HostArray>& paths;
    uint32_t n;  // pixels
    bool sortRays;  // render.sort_rays

    HostStageClock::Scope scope(const char* label) const { return HostStageClock::Scope(clock, label); }
    uint32_t queued(int counter, uint32_t) const { return paths.counters[counter]; }
    template <class Fn>
    void forEach(const char* label, uint32_t count, Fn fn) const {
        HostStageClock::Scope s(clock, label);
        pool.parallelFor(count, fn);
    }
    void generate(const PassParams& p) const {
        forEach("shade/primary", n, [&](uint32_t i) { stageGenerate(sv, b, p, i); });
    }
    void traceClosest(int bounce, const char* label) const {
        if (sortRays && bounce > 0) sortQueue(bounce & 1);
        forEach(label, queued(bounce & 1, n), [&](uint32_t i) { stageTraceClosest(sv, b, bounce, i); });
    }
    // render.sort_rays: the queue's rays and their paths in rayOrderKey's
    // order (ties in queue order, as the GPU's radix sort keeps them).
    void sortQueue(int q) const {
        HostStageClock::Scope s(clock, "trace/sort");
        const uint32_t count = queued(q, n);
        const Aabb box = rayOrderBox(sv);
        std::vector<uint64_t> order(count);  // key above slot: one sort, ties by slot
        pool.parallelFor(count, [&](uint32_t i) { order[i] = uint64_t(rayOrderKey(b.rays[q][i], box)) << 32 | i; });
        std::sort(order.begin(), order.end());
        std::vector<Ray> rays(b.rays[q], b.rays[q] + count);
        std::vector<uint32_t> paths(b.rayPath[q], b.rayPath[q] + count);
        for (uint32_t i = 0; i < count; ++i) {
            const uint32_t slot = uint32_t(order[i]);
            b.rays[q][i] = rays[slot];
            b.rayPath[q][i] = paths[slot];
        }
    }
    void vdPairs(const PassParams& p, int bounce) const {
        forEach("vd/pairs", queued(bounce & 1, n), [&](uint32_t i) { stageVdPairs(sv, b, p, bounce, i); });
    }
    void vdShadowPairs() const {
        forEach("vd/pairs", queued(kShadowQueue, n), [&](uint32_t i) { stageVdShadowPairs(sv, b, i); });
    }
    bool vdPairsFit() const { return vdHost.pairsFit(sv.vd); }
    void vdResolve(int bounce, bool closestRays, bool anyHit) const {
        if (!closestRays) return vdHost.resolve(sv.vd, b.shadowRays, nullptr, b.shadowBlocked, pool);
        if (anyHit) std::fill(b.shadowBlocked, b.shadowBlocked + queued(bounce & 1, n), 0u);
        vdHost.resolve(sv.vd, b.rays[bounce & 1], b.hits, anyHit ? b.shadowBlocked : nullptr, pool);
    }
    void shade(const PassParams& p, int bounce, const char* label) const {
        forEach(label, queued(bounce & 1, n), [&](uint32_t i) { stageShade(sv, b, p, bounce, i); });
    }
    void traceShadow() const {
        forEach("shadow", std::max(queued(kShadowQueue, n), 1u), [&](uint32_t i) { stageTraceShadow(sv, b, i); });
    }
    void shadowFinish() const {
        forEach("shadow", queued(kShadowQueue, n), [&](uint32_t i) { stageShadowFinish(b, i); });
    }
    void accumulate() const {
        forEach("accumulate", n, [&](uint32_t i) { stageAccumulate(b, i); });
    }
};

class CpuRenderer final : public RendererBase {
public:
    explicit CpuRenderer(const Scene& scene)
        : RendererBase(scene), pool_(unsigned(opt_.render.threads)), clock_(stageTable()) {
        checkCpuBackendFits(scene_);  // before anything large is allocated
        flat_ = flattenScene(scene_);
        allocate();
    }

    void allocate() {
        paths_.resize(size_t(opt_.render.width) * opt_.render.height);
        noteAllocated();
    }

    std::string name() const override { return "cpu (" + std::to_string(pool_.size()) + " threads)"; }

    std::vector<std::string> stageNames() const override { return stageTable(); }

    void renderFrame(float t, uint64_t frameIndex, bool accumulate) override {
        if (resolutionChanged()) allocate();
        FrameRecord header;
        header.frame = frameIndex;
        header.sceneTime = t;
        clock_.beginFrame(header);
        const uint64_t pairsBefore = vd_.pairsResolved();
        const uint32_t w = opt_.render.width, h = opt_.render.height, n = w * h;
        if (rebuild_.needed(opt_.accel, opt_.vd, t)) {
            {
                HostStageClock::Scope s(clock_, "animate");
                poseFlatScene(scene_, flat_, t, pos_, nrm_);
            }
            HostStageClock::Scope s(clock_, "build");
            triangleBounds(pos_, flat_.tris, bounds_);
            // The CPU backend runs every builder: the LBVH variants through the
            // same host-device code as the GPU, the binned SAH reference, or
            // the CPU reference kd-tree (which clips triangles: it takes them whole).
            built_ = opt_.accel;
            const bool unified = vdUnifiedMiddle(opt_, !flat_.patches.empty());
            auto prepareVd = [&] {  // patch transforms, and in flat mode the BVH over the patch boxes
                HostStageClock::Scope v(clock_, "build/vd_boxes");
                vd_.prepare(scene_, flat_, opt_.vd, t, opt_.accel, runsInstanced(opt_.accel), unified);
            };
            // vd.middle_level unified: the patch boxes join the triangles' tree
            // (instanced: each VD mesh's BLAS, in object space).
            const bool instanced = runsInstanced(opt_.accel);
            if (unified) prepareVd();
            if (unified && !instanced) bounds_.insert(bounds_.end(), vd_.middleBoxes().begin(), vd_.middleBoxes().end());
            const UnifiedPatches object = unified && instanced ? vd_.objectMiddleBoxes() : UnifiedPatches{};
            if (!instanced) instanced_.restartRefits();  // its BLASes miss this frame
            if (instanced)  // any builder (the kd-tree's BLASes are kd-trees)
                instanced_.build(scene_, flat_, pos_, bounds_, t, opt_.accel, &clock_, unified ? &object : nullptr);
            else if (opt_.accel.builder == Builder::KdTree)
                kd_ = buildKdTreeCpu(pos_, flat_.tris, kdConfigOf(opt_.accel));
            else
                buildHostAccel(bounds_, opt_.accel, accel_);
            if (!instanced && opt_.accel.builder != Builder::KdTree) {
                {
                    HostStageClock::Scope c(clock_, "build/collapse");
                    collapseHostAccel(opt_.accel, accel_);
                }
                HostStageClock::Scope c(clock_, "build/leaf_tris");
                copyHostLeafTris(opt_.accel, unified, pos_.data(), flat_.tris.data(), flat_.tris.size(), accel_);
            }
            if (!flat_.patches.empty() && !unified) prepareVd();
        }
        CameraView cam = cameraView(t, int(w), int(h));
        SceneView sv = hostSceneView(scene_, flat_, pos_, nrm_, accel_.view(opt_.accel), cam);
        if (opt_.accel.mode == AccelMode::Instanced)
            sv.tl = instanced_.view();
        else if (opt_.accel.builder == Builder::KdTree)
            sv.kd = kd_.view();
        else
            sv.wide = accel_.wideView(opt_.accel, vdUnifiedMiddle(opt_, !flat_.patches.empty()));
        if (!flat_.patches.empty()) {
            sv.vd = vd_.view(flat_, opt_.vd, pixelAngle(cam, int(h)), cam.position, n);
            // (A change of vd.middle_level rebuilds: the VD options are in the rebuild policy.)
            if (vdUnifiedMiddle(opt_, true)) vdUseUnifiedMiddle(sv);
        }
        const bool vd = sv.vd.numPatches > 0;
        PathBuffers b = paths_.view();
        if (!accumulate || samples_ == 0) {
            std::fill(paths_.film.begin(), paths_.film.end(), Vec3{});
            samples_ = 0;
        }
        paths_.counters[kRaysTraced] = paths_.counters[kShadowRaysTraced] = 0;
        CpuPassExec x{clock_, pool_, vd_, sv, b, paths_, n, opt_.render.sortRays};
        renderPasses(x, opt_.render, frameIndex, vd, vdAnyHitLast(flat_, opt_.vd), sv.vd.fused);
        samples_ += uint32_t(opt_.render.spp);
        filterPass(sv, cam);
        unsigned long long heat[kNumHeatTotals] = {};
        heatmapPass(sv, heat);
        FrameRecord rec = clock_.endFrame();
        rec.triangles = flat_.tris.size();
        rec.rays = paths_.counters[kRaysTraced];
        rec.shadowRays = paths_.counters[kShadowRaysTraced];
        rec.vdPairs = vd_.pairsResolved() - pairsBefore;
        rec.heatNodes = heat[kHeatNodes];
        rec.heatTriangles = heat[kHeatTriangles];
        rec.heatSteps = heat[kHeatSteps];
        rec.heatBlas = heat[kHeatBlas];
        const RefitStatus refit = refitStatus();
        rec.refitsSinceBuild = refit.refits;
        rec.sahGrowth = refit.sahGrowth;
        records_.push_back(rec);
    }

    bool popRecord(FrameRecord& out) override {
        if (records_.empty()) return false;
        out = records_.front();
        records_.pop_front();
        return true;
    }
    void finish() override {}
    std::string activeStage() const override { return clock_.active(); }
    uint64_t vdPairsResolved() const override { return vd_.pairsResolved(); }
    // Host memory, counted as the CUDA backend counts its device memory.
    size_t geometryBytes() const override {
        return flat_.tris.size() * (sizeof(Tri) + 4 + 4) + flat_.uv.size() * sizeof(Vec2) +
               (pos_.size() + nrm_.size()) * sizeof(Vec3) + bounds_.size() * sizeof(Aabb) + vdGeometryBytes();
    }
    RefitStatus refitStatus() const override {
        if (built_.mode != AccelMode::Instanced)
            return RefitStatus{accel_.refits, built_.rebuild == Rebuild::Auto ? accel_.sahGrowth() : 0.0f, {}};
        RefitStatus r;
        if (built_.rebuild != Rebuild::Refit && built_.rebuild != Rebuild::Auto) return r;
        r.blas = instanced_.blasRefits(scene_, built_);
        const BlasRefit s = blasRefitSummary(r.blas);
        r.refits = s.refits;
        r.sahGrowth = s.sahGrowth;
        return r;
    }
    TreeQuality treeQuality() override {
        if (built_.mode == AccelMode::Instanced) return {};  // one tree per BLAS
        if (built_.builder == Builder::KdTree) return kdTreeQuality(kd_.view(), flat_.tris.size());
        if (accel_.bvh.nodes.empty()) return {};
        if (built_.width == BvhWidth::Eight) return wideTreeQuality(accel_.wide.view(), bounds_);
        return bvhTreeQuality(accel_.bvh.view(), bounds_);
    }
    size_t accelBytes() const override {
        return accel_.bytes() + kd_.nodes.size() * sizeof(KdNode) + kd_.primIndex.size() * 4 +
               instanced_.memoryBytes() + vd_.memoryBytes();
    }
    size_t vdBytes() const override { return flat_.patches.empty() ? 0 : vdGeometryBytes() + vd_.memoryBytes(); }
    size_t vdPairBytes() const override { return vd_.pairBytes(); }

    void readImage(std::vector<uint8_t>& rgb) override {
        const uint32_t n = uint32_t(paths_.film.size());
        rgb.resize(size_t(n) * 3);
        const DisplayParams d = displayParams(heat_.data());
        pool_.parallelFor(n, [&](uint32_t i) {
            uint32_t c = stageDisplay(paths_.film.data(), i, d);
            rgb[3 * i] = uint8_t(c & 255);
            rgb[3 * i + 1] = uint8_t((c >> 8) & 255);
            rgb[3 * i + 2] = uint8_t((c >> 16) & 255);
        });
    }

    void readRadiance(std::vector<float>& rgb) override {
        rgb.resize(paths_.film.size() * 3);
        float inv = inverseSamples();
        for (size_t i = 0; i < paths_.film.size(); ++i) {
            rgb[3 * i] = paths_.film[i].x * inv;
            rgb[3 * i + 1] = paths_.film[i].y * inv;
            rgb[3 * i + 2] = paths_.film[i].z * inv;
        }
    }

private:
    // view.filter (render/denoise.h) on a frame that started its image over.
    void filterPass(const SceneView& sv, const CameraView& cam) {
        if (!filtersThisFrame()) {
            filter_.havePrevious = false;
            return noteFilter(nullptr);
        }
        HostStageClock::Scope s(clock_, "filter");
        const uint32_t w = opt_.render.width, h = opt_.render.height, n = w * h;
        filter_.resize(n);
        const FilterBuffers f = filter_.view(paths_.film.data(), inverseSamples());
        withTraceKind(traceKindOf(sv), [&](auto k) {
            pool_.parallelFor(n, [&](uint32_t i) { f.gbuf[i] = filterGbufferPixelAs<decltype(k)::value>(sv, w, h, i); });
        });
        pool_.parallelFor(n, [&](uint32_t i) { filterTemporalPixel(f, filter_.previousCamera, w, h, i); });
        if (opt_.view.filter == ViewFilter::Svgf)
            for (int pass = 0; pass < kAtrousPasses; ++pass)
                pool_.parallelFor(n, [&](uint32_t i) { filterAtrousPixel(f, w, h, pass & 1, 1 << pass, i); });
        noteFilter(filter_.output(opt_.view.filter));
        filter_.advance(cam);
    }

    // view.heatmap: the camera rays again with counters on (stage heatmap),
    // their totals into heat[kNumHeatTotals].
    void heatmapPass(const SceneView& sv, unsigned long long* heat) {
        noteHeatmap(opt_.view.heatmap);
        if (opt_.view.heatmap == Heatmap::Off) return;
        HostStageClock::Scope s(clock_, "heatmap");
        const uint32_t w = opt_.render.width, h = opt_.render.height, n = w * h;
        heat_.resize(n);
        withTraceKind(traceKindOf(sv), [&](auto k) {
            pool_.parallelFor(n, [&](uint32_t i) {
                stageHeatmapAs<decltype(k)::value>(sv, w, h, opt_.view.heatmap, heat_.data(), heat, i);
            });
        });
    }

    size_t vdGeometryBytes() const {  // patches with their instance and origin, the link table, the maps
        if (flat_.patches.empty()) return 0;
        size_t b = flat_.patches.size() * (sizeof(VdPatch) + 8) + flat_.vdLinks.size() * 4;
        for (const TextureView& m : flat_.vdMaps) b += size_t(m.width) * size_t(m.height) * sizeof(Vec3);
        return b;
    }

    ThreadPool pool_;
    HostStageClock clock_;
    FlatScene flat_;
    std::vector<Vec3> pos_, nrm_;
    std::vector<Aabb> bounds_;
    HostAccel accel_;
    HostKdTree kd_;
    VdHost vd_;
    InstancedHost instanced_;
    PathStorage<HostArray> paths_;
    std::vector<uint32_t> heat_;  // view.heatmap: the shown count per pixel
    FilterStorage<HostArray> filter_;
    std::deque<FrameRecord> records_;
    RebuildPolicy rebuild_;
    AccelOptions built_;  // what the last build built
};

}  // namespace

std::unique_ptr<Renderer> makeCpuRenderer(const Scene& scene) { return std::make_unique<CpuRenderer>(scene); }

}  // namespace strata
