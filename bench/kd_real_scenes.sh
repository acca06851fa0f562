#!/usr/bin/env bash
# The GPU kd-tree on real models (issue 17): GPU tests of the kd builder,
# `validate` (invariants, quality against the binned-SAH BVH, the GPU tree
# against the CPU reference, hits against brute force) and frame benchmarks
# of the kd-tree against lbvh-skip in one run: primary rays only (--bounces 0)
# and one diffuse bounce (--bounces 1), 1920x1080, 1 spp, no NEE.
# Usage (repository root): bench/kd_real_scenes.sh BIN_DIR SCENE.json...
# BIN_DIR holds strata-cli and strata_gpu_tests.
set -uo pipefail
BIN="${1:?usage: bench/kd_real_scenes.sh BIN_DIR SCENE.json...}"
shift
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
status=0
echo "== GPU kd-tree tests"
"$BIN/strata_gpu_tests" --gtest_filter='GpuKdTree*' 2>&1 | grep -vE "^\[ *(RUN|OK) " || status=1
for s in "$@"; do
  echo "== validate $s"
  "$BIN/strata-cli" validate "$s" --rays 2000 | grep -E "^validating|kdtree|FAIL|agree with the|FAILED" || status=1
done
for s in "$@"; do
  for b in kdtree lbvh-skip; do
    for n in 0 1; do
      out=$("$BIN/strata-cli" bench "$s" --res 1920x1080 --spp 1 --bounces "$n" --frames 60 --warmup 10 \
            --set render.nee=false --builder "$b" 2>&1) || status=1
      printf "%s %s bounces=%s: build %s ms, trace %s ms, %s\n" "$(basename "$s" .json)" "$b" "$n" \
        "$(awk '/^build /{print $2}' <<<"$out")" "$(awk '/^trace /{print $2}' <<<"$out")" \
        "$(grep '^closest-hit' <<<"$out" | sed 's/  */ /g')"
    done
  done
done
exit $status
