#!/usr/bin/env bash
# Runs the GPU test suite, validation and benchmarks with already-built
# binaries (the GPU machines have no package manager, so strata is built on a
# build machine and its binaries carried over). Usage:
#   bench/gpu_suite.sh BIN_DIR [quick]
# BIN_DIR holds strata_gpu_tests, strata_backend_tests, strata-cli and
# strata-bench-lbvh. Run from
# the repository root (scene files are read from assets/scenes/).
set -uo pipefail
BIN="${1:?usage: bench/gpu_suite.sh BIN_DIR [quick]}"
MODE="${2:-full}"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
status=0
echo "== GPU tests"
"$BIN/strata_gpu_tests" --gtest_brief=1 || status=1
"$BIN/strata_backend_tests" --gtest_filter='*/Cuda.*' --gtest_brief=1 || status=1
echo "== validate"
for s in assets/scenes/*.json; do
  "$BIN/strata-cli" validate "$s" --rays 1000 | grep -E "^validating|FAIL|skip|agree with the|FAILED" || status=1
done
echo "== LBVH build"
if [ "$MODE" = quick ]; then
  "$BIN/strata-bench-lbvh" --sizes 100000,1000000 --runs 50 --warmup 5 --builder all || status=1
else
  "$BIN/strata-bench-lbvh" --runs 100 --warmup 10 --builder all || status=1
  "$BIN/strata-bench-lbvh" --runs 100 --warmup 10 --morton-bits 30 --builder all || status=1
fi
echo "== frame benchmarks (1920x1080, 1 spp, 3 bounces, NEE, rebuild every frame)"
for s in assets/scenes/atrium-*.json assets/scenes/kitchen-*.json assets/scenes/forest.json; do
  [ -f "$s" ] || continue
  "$BIN/strata-cli" bench "$s" --res 1920x1080 --spp 1 --bounces 3 --frames 200 --warmup 20 || status=1
done
if [ "$MODE" != quick ]; then
  echo "== traversal (1920x1080, 1 spp, 3 bounces, NEE): lbvh-skip, stack vs stackless"
  for s in assets/scenes/atrium-1.json assets/scenes/kitchen-1.json assets/scenes/forest.json; do
    [ -f "$s" ] || continue
    for t in stack stackless; do
      "$BIN/strata-cli" bench "$s" --res 1920x1080 --spp 1 --bounces 3 --frames 200 --warmup 20 \
        --builder lbvh-skip --traversal "$t" | grep -E "^settings|^trace|^build" || status=1
    done
  done
fi
exit $status
