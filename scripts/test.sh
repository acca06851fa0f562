#!/usr/bin/env bash
# Set-up if needed, build, run every test. GPU tests report "skipped" where
# there is no CUDA device.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${STRATA_BUILD_DIR:-$ROOT/build}"
"$ROOT/scripts/build.sh"
cd "$BUILD"
ctest --output-on-failure "$@"
