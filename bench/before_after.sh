#!/usr/bin/env bash
# Two builds of strata on one GPU in one run: per-stage medians of the frame
# benchmarks side by side, and every kernel's registers (a refactoring step
# must leave both alone: issue 19). Runs alternate between the builds (A B,
# then B A on the next configuration) so drift falls on both.
# Usage (repository root): bench/before_after.sh BEFORE_DIR AFTER_DIR [OUT_DIR]
# Each DIR holds strata-cli and strata-bench-lbvh. Real scenes need
# STRATA_DATA (the data folder with sponza.obj and conference.obj).
# FRAMES (200) timed frames per run; ROUNDS (1) alternations per
# configuration, their frames pooled; ONLY (a regular expression) runs the
# configurations whose names match it; NO_LBVH skips the LBVH builds.
# Passing one build as both A and B measures the noise of the comparison
# itself.
set -uo pipefail
A="${1:?usage: bench/before_after.sh BEFORE_DIR AFTER_DIR [OUT_DIR]}"
B="${2:?usage: bench/before_after.sh BEFORE_DIR AFTER_DIR [OUT_DIR]}"
OUT="${3:-before_after}"
FRAMES="${FRAMES:-200}"
ROUNDS="${ROUNDS:-1}"
mkdir -p "$OUT"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
status=0

echo "== registers per kernel (cuobjdump --dump-resource-usage)"
for side in A B; do
  dir=$A; [ $side = B ] && dir=$B
  cuobjdump --dump-resource-usage "$dir/strata-cli" > "$OUT/regs_$side.txt" 2>&1 || status=1
done
python3 "$here/compare_registers.py" "$OUT/regs_A.txt" "$OUT/regs_B.txt" || status=1

# name|scene|extra flags
configs=(
  "atrium-1|assets/scenes/atrium-1.json|--bounces 3"
  "atrium-3|assets/scenes/atrium-3.json|--bounces 3"
  "kitchen-1|assets/scenes/kitchen-1.json|--bounces 3"
  "kitchen-3|assets/scenes/kitchen-3.json|--bounces 3"
  "forest|assets/scenes/forest.json|--bounces 3"
  "atrium-1-stackless|assets/scenes/atrium-1.json|--bounces 3 --builder lbvh-skip --traversal stackless"
  "forest-stackless|assets/scenes/forest.json|--bounces 3 --builder lbvh-skip --traversal stackless"
  "kitchen-3-instanced|assets/scenes/kitchen-3.json|--bounces 3 --set accel.mode=instanced"
  "vd-party|assets/scenes/vd-party.json|--bounces 1"
  "vd-party-instanced|assets/scenes/vd-party.json|--bounces 1 --set accel.mode=instanced"
  "vd-mushroom|assets/scenes/vd-mushroom.json|--bounces 1"
  "sponza-kd|assets/scenes/real/sponza.json|--bounces 1 --set render.nee=false --builder kdtree"
  "sponza-lbvh|assets/scenes/real/sponza.json|--bounces 1 --set render.nee=false --builder lbvh-skip"
  "conference-kd|assets/scenes/real/conference.json|--bounces 1 --set render.nee=false --builder kdtree"
  "conference-lbvh|assets/scenes/real/conference.json|--bounces 1 --set render.nee=false --builder lbvh-skip"
  "sr3-kd-original|assets/scenes/real/sr-3.json|--bounces 1 --set render.nee=false --builder kdtree --kd-opts none"
)
run() {  # side round name scene flags...
  local side=$1 round=$2 name=$3 scene=$4; shift 4
  local dir=$A; [ "$side" = B ] && dir=$B
  # shellcheck disable=SC2068
  "$dir/strata-cli" bench "$scene" --res 1920x1080 --spp 1 --frames "$FRAMES" --warmup 20 $@ \
    --csv "$OUT/${name}_${side}_$round.csv" > "$OUT/${name}_$side.txt" 2>&1 || { echo "$name $side failed"; status=1; }
}
i=0
for c in "${configs[@]}"; do
  IFS='|' read -r name scene flags <<<"$c"
  [[ -n "${ONLY:-}" && ! "$name" =~ $ONLY ]] && continue
  [ -f "$scene" ] || { echo "$name: no $scene"; continue; }
  for ((r = 0; r < ROUNDS; ++r)); do
    if [ $(((i + r) % 2)) = 0 ]; then run A $r "$name" "$scene" $flags; run B $r "$name" "$scene" $flags
    else run B $r "$name" "$scene" $flags; run A $r "$name" "$scene" $flags; fi
  done
  for side in A B; do  # the rounds' frames in one file
    head -n 1 "$OUT/${name}_${side}_0.csv" > "$OUT/${name}_$side.csv" 2>/dev/null
    for ((r = 0; r < ROUNDS; ++r)); do tail -n +2 "$OUT/${name}_${side}_$r.csv" >> "$OUT/${name}_$side.csv" 2>/dev/null; done
  done
  i=$((i + 1))
done
echo "== stage medians, ms (A = $A, B = $B; |B/A - 1| > 2% marked)"
for c in "${configs[@]}"; do
  IFS='|' read -r name scene flags <<<"$c"
  [ -f "$OUT/${name}_A.csv" ] && [ -f "$OUT/${name}_B.csv" ] || continue
  python3 "$here/compare_csv.py" "$name" "$OUT/${name}_A.csv" "$OUT/${name}_B.csv" || status=1
done
[ -n "${NO_LBVH:-}" ] && exit $status
echo "== LBVH builds (strata-bench-lbvh, medians)"
for side in A B; do
  dir=$A; [ $side = B ] && dir=$B
  echo "-- $side"
  "$dir/strata-bench-lbvh" --sizes 100000,1000000 --runs 100 --warmup 10 --builder all || status=1
done
exit $status
