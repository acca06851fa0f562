// render/cuda_renderer.h — the CUDA backend (built only with STRATA_HAVE_CUDA).
#pragma once

#include <memory>
#include <string>

#include "render/renderer.h"

namespace strata {

// Throws strata::Error when no CUDA device is usable or the scene does not
// fit in free GPU memory (the message gives needed and free bytes).
std::unique_ptr<Renderer> makeCudaRenderer(const Scene& scene);

}  // namespace strata
