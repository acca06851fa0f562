// core/build_info.h — what a binary was built with, for --version: the CUDA
// Toolkit's version, or that it has the CPU backend only.
#pragma once

#include <string>

#if defined(STRATA_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace strata {

inline std::string builtWith() {
#if defined(STRATA_HAVE_CUDA)
    return "built with CUDA " + std::to_string(CUDART_VERSION / 1000) + "." + std::to_string(CUDART_VERSION % 1000 / 10);
#else
    return "built without CUDA (the CPU backend only)";
#endif
}

}  // namespace strata
