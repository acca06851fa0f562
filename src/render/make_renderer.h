// render/make_renderer.h — the one backend policy of the viewer and the CLI:
// the backend render.backend names, where it can run, and the combination
// rules of the options (Options::unavailable) checked before a renderer is
// made. Header-only: the front ends that include it see STRATA_HAVE_CUDA as
// the library they link was built.
#pragma once

#include <memory>
#include <string>

#include "core/error.h"
#include "render/renderer.h"
#include "scene/scene.h"

#if defined(STRATA_HAVE_CUDA)
#include "gpu/device.h"
#include "render/cuda_renderer.h"
#endif

namespace strata {

// What to do when render.backend is cuda and no GPU can run it.
enum class WithoutGpu {
    Refuse,    // the CLI: an error that says what to do (--backend cpu)
    RunOnCpu,  // the viewer: the CPU backend, with a note it shows
};

// Why the CUDA backend cannot run here, or empty when it can.
inline std::string cudaBackendUnavailable() {
#if defined(STRATA_HAVE_CUDA)
    const GpuInfo gpu = queryGpu();
    return gpu.available ? std::string() : "no usable CUDA GPU (" + gpu.reason + ")";
#else
    return "built without CUDA";
#endif
}

// The backend the options can run on: render.backend; where that is cuda and
// no GPU can run it, the CPU backend with RunOnCpu (*note says why), an
// error that says what to do with Refuse.
inline Backend chooseBackend(const Options& o, WithoutGpu policy, std::string* note = nullptr) {
    if (note) note->clear();
    if (o.render.backend != Backend::Cuda) return o.render.backend;
    const std::string why = cudaBackendUnavailable();
    if (why.empty()) return Backend::Cuda;
    if (policy == WithoutGpu::Refuse) throw Error(why + "; render on the CPU with --backend cpu");
    if (note) *note = why + ": running the CPU backend";
    return Backend::Cpu;
}

// The renderer for the scene's options as they are (the viewer chooses the
// backend first: chooseBackend). The options' combination rules are checked
// (Options::check: cpu-sah, for one, runs on the CPU backend only).
inline std::unique_ptr<Renderer> makeRenderer(const Scene& scene) {
    const Options& o = scene.options;
    o.check();
#if defined(STRATA_HAVE_CUDA)
    if (chooseBackend(o, WithoutGpu::Refuse) == Backend::Cuda) return makeCudaRenderer(scene);
#else
    chooseBackend(o, WithoutGpu::Refuse);
#endif
    return makeCpuRenderer(scene);
}

}  // namespace strata
