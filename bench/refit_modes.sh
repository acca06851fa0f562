#!/usr/bin/env bash
# accel.rebuild every-frame / refit / auto, flat and instanced, on scenes with
# deforming meshes, one binary, one run: per configuration the medians of
# build (and its build/blas, build/refit, build/top stages), trace and the
# frame, and the refits and SAH growth the CSV recorded (issue 21, item 3).
# Usage (repository root): bench/refit_modes.sh STRATA_CLI SCENE... ; FRAMES
# (200) timed frames after 20 warm-up, MODES ("flat instanced"), REBUILDS
# ("every-frame refit auto"), OUT (a folder for the CSVs, default refit_modes).
set -uo pipefail
CLI="${1:?usage: bench/refit_modes.sh STRATA_CLI SCENE...}"
shift
FRAMES="${FRAMES:-200}"
OUT="${OUT:-refit_modes}"
mkdir -p "$OUT"
status=0
printf '%-12s %-10s %-12s %9s %9s %9s %9s %9s %9s %7s %8s\n' scene mode rebuild build blas refit top trace frame refits growth
for scene in "$@"; do
  name="$(basename "$scene" .json)"
  for mode in ${MODES:-flat instanced}; do
    for rebuild in ${REBUILDS:-every-frame refit auto}; do
      csv="$OUT/${name}_${mode}_${rebuild}.csv"
      if ! "$CLI" bench "$scene" --res 1920x1080 --spp 1 --bounces 3 --frames "$FRAMES" --warmup 20 \
           --set accel.mode="$mode" --set accel.rebuild="$rebuild" --csv "$csv" >"$OUT/${name}_${mode}_${rebuild}.txt" 2>&1; then
        echo "$name $mode $rebuild: failed ($(tail -1 "$OUT/${name}_${mode}_${rebuild}.txt"))"
        status=1
        continue
      fi
      python3 - "$csv" "$name" "$mode" "$rebuild" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))[20:]
med = lambda k: statistics.median(float(r.get(k) or 0) for r in rows) if rows and k in rows[0] else 0.0
trace = sum(med(k) for k in rows[0] if k.startswith("trace") and k.endswith("_ms") and "/" not in k) if rows else 0
print(f"{sys.argv[2]:12s} {sys.argv[3]:10s} {sys.argv[4]:12s} {med('build_ms'):9.3f} {med('build/blas_ms'):9.3f} "
      f"{med('build/refit_ms'):9.3f} {med('build/top_ms'):9.3f} {trace:9.3f} {med('total_ms'):9.3f} "
      f"{med('refits_since_build'):7.0f} {med('sah_growth'):8.3f}")
PY
    done
  done
done
exit $status
