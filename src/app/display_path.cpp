#include "app/display_path.h"

#include <chrono>

#if defined(STRATA_HAVE_CUDA)
#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

#include "gpu/cuda_check.h"
#endif

namespace strata {

const char* displayModeName(DisplayMode m) {
    switch (m) {
        case DisplayMode::Texture: return "texture interop";
        case DisplayMode::Pbo: return "pixel-buffer interop";
        case DisplayMode::Copy: return "host copy";
    }
    return "?";
}

namespace {

class CopyPath final : public DisplayPath {
public:
    DisplayMode mode() const override { return DisplayMode::Copy; }
    void attach(GlDisplay&) override {}
    void present(Renderer& r, GlDisplay& gl) override {
        auto t0 = std::chrono::steady_clock::now();
        r.readImage(rgb_);
        gl.uploadFromHost(rgb_);
        ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    }
    double lastMs() override { return ms_; }

private:
    std::vector<uint8_t> rgb_;
    double ms_ = 0;
};

#if defined(STRATA_HAVE_CUDA)
class InteropPath final : public DisplayPath {
public:
    explicit InteropPath(DisplayMode m) : mode_(m) {
        STRATA_CUDA_CHECK(cudaEventCreate(&start_));
        STRATA_CUDA_CHECK(cudaEventCreate(&stop_));
    }
    ~InteropPath() override {
        release();
        cudaEventDestroy(start_);
        cudaEventDestroy(stop_);
    }
    double lastMs() override {
        if (pending_ && cudaEventQuery(stop_) == cudaSuccess) {
            float ms = 0;
            if (cudaEventElapsedTime(&ms, start_, stop_) == cudaSuccess) ms_ = ms;
            pending_ = false;
        }
        return ms_;
    }
    DisplayMode mode() const override { return mode_; }

    void attach(GlDisplay& gl) override {
        release();
        if (mode_ == DisplayMode::Texture)
            STRATA_CUDA_CHECK(cudaGraphicsGLRegisterImage(&resource_, gl.texture(), GL_TEXTURE_2D,
                                                          cudaGraphicsRegisterFlagsWriteDiscard));
        else
            STRATA_CUDA_CHECK(
                cudaGraphicsGLRegisterBuffer(&resource_, gl.pixelBuffer(), cudaGraphicsRegisterFlagsWriteDiscard));
    }

    void present(Renderer& r, GlDisplay& gl) override {
        // Map, write and unmap on the renderer's stream, so the write follows
        // the frame and GL's use of the texture follows the write.
        cudaStream_t stream = static_cast<cudaStream_t>(r.cudaStream());
        bool timing = !pending_;
        if (timing) STRATA_CUDA_CHECK(cudaEventRecord(start_, stream));
        STRATA_CUDA_CHECK(cudaGraphicsMapResources(1, &resource_, stream));
        if (mode_ == DisplayMode::Texture) {
            // The array behind a mapped texture may change between maps: query it each time.
            cudaArray_t array = nullptr;
            STRATA_CUDA_CHECK(cudaGraphicsSubResourceGetMappedArray(&array, resource_, 0, 0));
            cudaResourceDesc desc{};
            desc.resType = cudaResourceTypeArray;
            desc.res.array.array = array;
            cudaSurfaceObject_t surface = 0;
            STRATA_CUDA_CHECK(cudaCreateSurfaceObject(&surface, &desc));
            r.tonemapToSurface(surface);
            STRATA_CUDA_CHECK(cudaDestroySurfaceObject(surface));
        } else {
            void* ptr = nullptr;
            size_t bytes = 0;
            STRATA_CUDA_CHECK(cudaGraphicsResourceGetMappedPointer(&ptr, &bytes, resource_));
            r.tonemapToDevice(ptr);
        }
        STRATA_CUDA_CHECK(cudaGraphicsUnmapResources(1, &resource_, stream));
        if (timing) {
            STRATA_CUDA_CHECK(cudaEventRecord(stop_, stream));
            pending_ = true;
        }
        if (mode_ == DisplayMode::Pbo) gl.uploadFromPixelBuffer();
    }

private:
    void release() {
        if (resource_) cudaGraphicsUnregisterResource(resource_);
        resource_ = nullptr;
    }
    DisplayMode mode_;
    cudaGraphicsResource_t resource_ = nullptr;
    cudaEvent_t start_ = nullptr, stop_ = nullptr;
    bool pending_ = false;
    double ms_ = 0;
};
#endif

}  // namespace

std::unique_ptr<DisplayPath> makeDisplayPath(DisplayMode wanted, Renderer& r, std::string& why) {
    why.clear();
    if (wanted == DisplayMode::Copy) return std::make_unique<CopyPath>();
#if defined(STRATA_HAVE_CUDA)
    if (!r.deviceDisplay()) {
        why = "the CPU backend displays through host memory";
        return std::make_unique<CopyPath>();
    }
    unsigned int count = 0;
    int devices[4];
    if (cudaGLGetDevices(&count, devices, 4, cudaGLDeviceListAll) != cudaSuccess || count == 0) {
        cudaGetLastError();
        why = "the OpenGL context is not on a CUDA device: using the host copy";
        return std::make_unique<CopyPath>();
    }
    return std::make_unique<InteropPath>(wanted);
#else
    (void)r;
    why = "built without CUDA";
    return std::make_unique<CopyPath>();
#endif
}

}  // namespace strata
