#!/usr/bin/env bash
# Set-up if needed, build, and show the default scene. Until the viewer
# exists (and on a machine without a display) this renders the scene headless
# to a PNG and prints its path. Extra arguments go to strata-cli render.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${STRATA_BUILD_DIR:-$ROOT/build}"
SCENE="${STRATA_SCENE:-$ROOT/assets/scenes/default.json}"
"$ROOT/scripts/build.sh" >&2
BACKEND=cpu
RES=640x360
SPP=8
if nvidia-smi -L >/dev/null 2>&1; then
  BACKEND=cuda
  RES=1280x720
  SPP=64
fi
mkdir -p "$ROOT/out"
exec "$BUILD/src/strata-cli" render "$SCENE" --backend "$BACKEND" --res "$RES" --spp "$SPP" \
  --out "$ROOT/out/default.png" "$@"
