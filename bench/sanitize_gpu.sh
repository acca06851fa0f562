#!/usr/bin/env bash
# bench/sanitize_gpu.sh — compute-sanitizer over the GPU code (issue 7), split
# into parts that each fit one 10-minute call on the lent H100.
#
#   bench/sanitize_gpu.sh PART BIN_DIR [ARGS...]
#
# BIN_DIR holds strata-cli, strata_gpu_tests and strata_backend_tests. Parts:
#   tests TOOL [FILTER]   TOOL (memcheck|racecheck|synccheck) over the GPU
#                         test suite, or the gtest FILTER of it
#   kd TOOL SCENE OPTS... one frame of the GPU kd-tree per [A]-[E] subset in
#                         OPTS (none, A, AB, ..., ABCDE), 32x32, 1 bounce
#   builders TOOL SCENE   one frame per LBVH variant and traversal
# Every run uses --error-exitcode, so a report fails the part; the summary
# line of each run is printed with its wall time.
set -uo pipefail

part=${1:?part}; bin=${2:?bin dir}; shift 2
cs=${COMPUTE_SANITIZER:-compute-sanitizer}
status=0

run() {  # label, command...
    local label=$1; shift
    local t0=$SECONDS
    local log
    log=$(mktemp)
    "$cs" --error-exitcode 99 "$@" >"$log" 2>&1
    local rc=$?
    local summary
    summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY|hazard" "$log" | tail -1)
    printf '%-40s rc=%d %4ds  %s\n' "$label" "$rc" $((SECONDS - t0)) "$summary"
    if [ $rc -ne 0 ]; then
        status=1
        tail -30 "$log"
    fi
    rm -f "$log"
}

case $part in
tests)
    tool=$1; filter=${2:-*}
    run "$tool tests $filter" --tool "$tool" "$bin/strata_gpu_tests" --gtest_filter="$filter" --gtest_brief=1
    run "$tool backend tests" --tool "$tool" "$bin/strata_backend_tests" --gtest_filter='*/Cuda.*' --gtest_brief=1
    ;;
kd)
    tool=$1; scene=$2; shift 2
    for o in "$@"; do
        run "$tool kd $(basename "$scene") $o" --tool "$tool" "$bin/strata-cli" render "$scene" --res 32x32 \
            --spp 1 --bounces 1 --frames 1 --builder kdtree --kd-opts "$o" --out /tmp/sanitize_kd.png
    done
    ;;
builders)
    tool=$1; scene=$2
    for b in lbvh-karras:stack lbvh-apetrei:stack lbvh-skip:stack lbvh-skip:stackless; do
        run "$tool ${b} $(basename "$scene")" --tool "$tool" "$bin/strata-cli" render "$scene" --res 32x32 \
            --spp 1 --bounces 1 --frames 2 --builder "${b%%:*}" --traversal "${b##*:}" --out /tmp/sanitize_b.png
    done
    ;;
*)
    echo "unknown part: $part" >&2
    exit 2
    ;;
esac
exit $status
