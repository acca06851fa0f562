// render/renderer_base.h — what every backend keeps the same way: the live
// options, the viewer's camera override, and the samples accumulated in the
// current image.
#pragma once

#include <cmath>

#include "render/flat_scene.h"
#include "render/denoise.h"
#include "render/display.h"
#include "render/renderer.h"
#include "scene/vd_scene.h"

namespace strata {

class RendererBase : public Renderer {
public:
    // Options out of range (a resolution of 0 or 100000, spp 0) are a
    // strata::Error here, before the backend allocates anything for them. A
    // scene with quads is rendered through its quads-as-triangles copy
    // (vd.mode pretess / off; direct keeps the VD patches), made here once.
    explicit RendererBase(const Scene& scene)
        : quadsAsTriangles_(trianglesFromQuads((checked(scene.options), scene))),
          scene_(quadsAsTriangles_ ? *quadsAsTriangles_ : scene),
          opt_(checked(scene.options)),
          vdCounts_(countVdScene(scene)) {}

    void setOptions(const Options& o) override { opt_ = checked(o); }
    const Options& options() const override { return opt_; }
    void setCamera(const CameraPose* pose) override {
        hasCamera_ = pose != nullptr;
        if (pose) camera_ = *pose;
    }
    uint32_t samplesPerPixel() const override { return samples_; }
    size_t triangleCount() const override { return scene_.triangleCount(); }
    VdMemoryComparison vdMemory() const override {
        return vdCounts_.meshes.empty() ? VdMemoryComparison{} : compareVdMemory(vdCounts_, opt_, vdBottomBlocks());
    }

protected:
    static const Options& checked(const Options& o) {
        o.checkValues();
        return o;
    }
    // The camera of this frame: the override, else the scene's at time t.
    CameraView cameraView(float t, int w, int h) const {
        return hasCamera_ ? makeCameraView(camera_, w, h) : makeCameraView(scene_, t, w, h);
    }
    bool resolutionChanged() const { return opt_.render.width != allocW_ || opt_.render.height != allocH_; }
    void noteAllocated() {
        allocW_ = opt_.render.width;
        allocH_ = opt_.render.height;
        samples_ = 0;
    }
    float inverseSamples() const { return samples_ ? 1.0f / float(samples_) : 0.0f; }
    // How the last frame is shown (render/display.h): its film tone mapped,
    // the view.filter's output (noteFilter), or its heatmap (heat: the
    // backend's per-pixel counts, written by the last frame's heatmap pass
    // when view.heatmap was on).
    DisplayParams displayParams(const uint32_t* heat) const {
        DisplayParams d{inverseSamples(), std::exp2(opt_.render.exposure), opt_.render.tonemap};
        d.filtered = filtered_;
        if (heatShown_ != Heatmap::Off) {
            d.heat = heat;
            d.heatTop = heatmapScaleOf(heatShown_, opt_.view.heatmapMax);
        }
        return d;
    }
    // The heatmap pass ran (or not) this frame, showing `shown`.
    void noteHeatmap(Heatmap shown) { heatShown_ = shown; }
    // Whether view.filter runs on this frame: it started its image over.
    bool filtersThisFrame() const {
        return opt_.view.filter != ViewFilter::Off && samples_ == uint32_t(opt_.render.spp);
    }
    // The filter's output this frame (nullptr: the film is shown).
    void noteFilter(const Vec3* filtered) { filtered_ = filtered; }
    // The GPU's persistent bottom-level blocks (vdMemory's work buffers
    // above level 5); the CPU backend estimates for an H100's 132 SMs x 5.
    virtual uint32_t vdBottomBlocks() const { return 132 * 5; }

    std::unique_ptr<Scene> quadsAsTriangles_;  // before scene_, which may refer to it
    const Scene& scene_;
    Options opt_;
    uint32_t samples_ = 0;

private:
    Heatmap heatShown_ = Heatmap::Off;
    const Vec3* filtered_ = nullptr;
    VdSceneCounts vdCounts_;  // of the scene as loaded (its quads not yet triangles)
    int allocW_ = 0, allocH_ = 0;
    bool hasCamera_ = false;
    CameraPose camera_{};
};

}  // namespace strata
