// render/renderer.h — the seam between a front end (CLI, viewer) and a
// backend (CUDA or the CPU reference). A backend renders animation frames of
// one scene and reports a FrameRecord per frame: every stage's milliseconds
// and kernel launches, the triangle count and the rays traced.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "accel/toplevel/blas_refit.h"
#include "accel/tree_quality.h"
#include "core/frame_record.h"
#include "render/vd_memory.h"
#include "scene/keyframes.h"
#include "scene/scene.h"

namespace strata {

// accel.rebuild = refit | auto: where the refitted tree stands.
struct RefitStatus {
    uint32_t refits = 0;  // frames refitted since the tree was built
    float sahGrowth = 0;  // auto: its SAH over the built tree's, minus 1 (a frame late on the GPU)
    // Instanced mode: each deforming instance's BLAS (accel/toplevel/blas_refit.h);
    // refits and sahGrowth above are then the summary (blasRefitSummary).
    std::vector<BlasRefit> blas;
};

class Renderer {
public:
    virtual ~Renderer() = default;
    virtual std::string name() const = 0;  // "cuda (NVIDIA H100 80GB HBM3)" / "cpu (16 threads)"
    virtual std::vector<std::string> stageNames() const = 0;
    // Animates to scene time t, rebuilds, renders options.render.spp samples
    // per pixel (sample pattern from frameIndex). Asynchronous on the GPU.
    // With accumulate, the samples add to the previous frames' (a still
    // camera on a paused scene converges); otherwise the image starts over.
    virtual void renderFrame(float sceneTime, uint64_t frameIndex, bool accumulate = false) = 0;
    // Live option changes, effective from the next frame (a new resolution
    // reallocates the image buffers; a new builder builds from then on).
    virtual void setOptions(const Options& options) = 0;
    virtual const Options& options() const = 0;
    // A camera that overrides the scene's (and its path); nullptr restores it.
    virtual void setCamera(const CameraPose* pose) = 0;
    virtual uint32_t samplesPerPixel() const = 0;  // accumulated in the current image
    virtual size_t triangleCount() const = 0;      // over instances, the quads as vd.mode makes them
    virtual size_t geometryBytes() const { return 0; }
    virtual size_t accelBytes() const { return 0; }
    virtual RefitStatus refitStatus() const { return {}; }
    // The last build's tree: SAH, depth, references per triangle
    // (accel/tree_quality.h), measured now (the GPU's is copied back once the
    // frames in flight are done). Not measured in instanced mode (two levels:
    // strata-cli validate reports each).
    virtual TreeQuality treeQuality() { return {}; }
    // vd.mode direct: the (patch, ray) pair buffers (transient, sized by the
    // image, not the scene) and the pairs resolved so far.
    virtual size_t vdPairBytes() const { return 0; }
    // vd.mode direct: the patches' own geometry and structure (their share
    // of geometryBytes + accelBytes); 0 in the other modes.
    virtual size_t vdBytes() const { return 0; }
    // The VD patches' memory on the GPU, direct against pre-tessellated at
    // the current options (render/vd_memory.h: an estimate from counts).
    virtual VdMemoryComparison vdMemory() const { return {}; }
    // The whole GPU's memory in use now, with the other vd.mode's estimated
    // (compareVdDeviceMemory); not measured on the CPU backend.
    virtual VdDeviceComparison vdDeviceMemory() const { return {}; }
    virtual uint64_t vdPairsResolved() const { return 0; }
    // Display paths of the CUDA backend: the tone-mapped image as RGBA8 into
    // device memory (a mapped pixel buffer) or a CUDA surface object (a mapped
    // texture). Return false where unsupported (the CPU backend).
    virtual bool deviceDisplay() const { return false; }
    virtual void* cudaStream() const { return nullptr; }  // cudaStream_t of the CUDA backend
    virtual bool tonemapToDevice(void* rgba8) {
        (void)rgba8;
        return false;
    }
    virtual bool tonemapToSurface(unsigned long long surface) {
        (void)surface;
        return false;
    }
    // Completed frames' records (the GPU's arrive a frame late); finish()
    // waits for all outstanding work so every record becomes available.
    virtual bool popRecord(FrameRecord& out) = 0;
    // The stage the frame being rendered is in now, callable from another
    // thread while renderFrame runs (the viewer's progress line for a CPU
    // frame); "" where unknown or between frames.
    virtual std::string activeStage() const { return {}; }
    virtual void finish() = 0;
    // The last frame, tone mapped to 8-bit RGB, top row first.
    virtual void readImage(std::vector<uint8_t>& rgb) = 0;
    // The last frame's linear radiance per pixel (mean over its samples).
    virtual void readRadiance(std::vector<float>& rgb) = 0;
};

// The renderer keeps a reference to `scene`: it must outlive the renderer.
std::unique_ptr<Renderer> makeCpuRenderer(const Scene& scene);

}  // namespace strata
