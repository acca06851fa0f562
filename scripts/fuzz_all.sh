#!/usr/bin/env bash
# The longer fuzz session: every libFuzzer target in turn, SECONDS each
# (default 600: ten minutes), through scripts/fuzz.sh. Prints one line per
# target and exits non-zero when any target found something (its input is in
# build-fuzz/artifacts/TARGET/).
#   scripts/fuzz_all.sh [SECONDS] [libFuzzer options...]
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SECONDS_EACH="${1:-600}"
shift $(($# > 0 ? 1 : 0))
BUILD="${STRATA_FUZZ_BUILD_DIR:-$ROOT/build-fuzz}"
mkdir -p "$BUILD"
status=0
summary=()
for target in scene obj ply gltf image vdmap; do
  log="$BUILD/fuzz_$target.log"
  if "$ROOT/scripts/fuzz.sh" "$target" "$SECONDS_EACH" "$@" >"$log" 2>&1; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    summary+=("ok    $target: ${SECONDS_EACH} s, $runs inputs, no findings")
  else
    summary+=("FOUND $target: see $log and $BUILD/artifacts/$target/")
    status=1
  fi
done
printf '%s\n' "${summary[@]}"
exit $status
