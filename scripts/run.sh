#!/usr/bin/env bash
# Set-up if needed, build, and open the viewer on the default scene. On a
# machine without a display (or without the viewer's libraries) it renders the
# scene headless to a PNG and prints its path. Extra arguments go to the
# viewer (or to strata-cli render).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${STRATA_BUILD_DIR:-$ROOT/build}"
SCENE="${STRATA_SCENE:-$ROOT/assets/scenes/default.json}"
"$ROOT/scripts/build.sh" >&2
BACKEND=cpu
if nvidia-smi -L >/dev/null 2>&1; then BACKEND=cuda; fi
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -x "$BUILD/src/strata" ]; then
  exec "$BUILD/src/strata" "$SCENE" --backend "$BACKEND" "$@"
fi
echo "run.sh: no display: rendering headless with strata-cli" >&2
RES=640x360
SPP=4
if [ "$BACKEND" = cuda ]; then RES=1280x720; SPP=64; fi
mkdir -p "$ROOT/out"
exec "$BUILD/src/strata-cli" render "$SCENE" --backend "$BACKEND" --res "$RES" --spp "$SPP" \
  --out "$ROOT/out/default.png" "$@"
