#!/usr/bin/env bash
# Installs the Debian packages strata builds against, only those missing.
# Idempotent: a second run installs nothing. The CUDA Toolkit is expected in
# /usr/local/cuda (nvcc, CUB, Thrust); without it the CPU backend still builds.
set -euo pipefail

PACKAGES=(
  cmake ninja-build g++ pkg-config
  nlohmann-json3-dev libcli11-dev libstb-dev libtinyobjloader-dev libtinygltf-dev libjpeg62-turbo-dev zlib1g-dev libgtest-dev
  libglfw3-dev libgl-dev libimgui-dev python3-glad xvfb xauth
  libgl1-mesa-dri  # Mesa's GL driver for the viewer test under Xvfb (named by the sanitized tree's viewer_smoke)
  clang libclang-rt-dev  # the sanitizer build and the libFuzzer targets (scripts/test.sh, scripts/fuzz.sh)
  assimp-testmodels  # real glTF 2.0 files (Khronos samples) the glTF loader's tests read
  python3-matplotlib  # scripts/plot.py (figures from the CSV files; tests/cli/cli_test.sh)
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "strata setup: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
