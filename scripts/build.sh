#!/usr/bin/env bash
# Configures and builds strata into build/ (Release with debug info).
# STRATA_BUILD_DIR and CMAKE_CUDA_ARCHITECTURES may be set in the environment.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${STRATA_BUILD_DIR:-$ROOT/build}"
"$ROOT/scripts/setup.sh"
args=(-G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo)
if [ -n "${CMAKE_CUDA_ARCHITECTURES:-}" ]; then
  args+=("-DCMAKE_CUDA_ARCHITECTURES=$CMAKE_CUDA_ARCHITECTURES")
fi
if [ ! -f "$BUILD/build.ninja" ] || [ ! -f "$BUILD/CMakeCache.txt" ]; then
  cmake -S "$ROOT" -B "$BUILD" "${args[@]}"
fi
cmake --build "$BUILD" "$@"
