#!/usr/bin/env bash
# Set-up if needed, build, run every test (GPU tests report "skipped" where
# there is no CUDA device); then the CPU tests and the viewer smoke test again
# under AddressSanitizer + UndefinedBehaviorSanitizer, and a short run of each
# fuzz target.
#
#   scripts/test.sh [--no-sanitize | --sanitize-only] [--no-fuzz] [--fuzz-seconds N] [CTEST ARGS...]
#
#   --no-sanitize     only the regular build and its tests
#   --sanitize-only   only the sanitized build, its tests and the fuzz smoke run
#   --no-fuzz         skip the fuzz smoke run
#   --fuzz-seconds N  seconds per fuzz target (default 20)
#
# The sanitized tree is build-asan/ (STRATA_ASAN_BUILD_DIR): CUDA-free, built
# with clang (STRATA_SANITIZE + STRATA_FUZZ, so the fuzz targets link the same
# instrumented library), with the viewer (its Xvfb test adds about a minute:
# 30 s of build, 25 s of tests). Any sanitizer report from any process of its
# tests, leaks included (they are written to build-asan/sanitizer-logs/), fails
# the run; the viewer runs with Mesa's driver preloaded so that LeakSanitizer
# can still see the driver's memory at exit (tests/viewer/viewer_smoke.sh).
# CTEST ARGS go to both ctest runs. See docs/reliability.md.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${STRATA_BUILD_DIR:-$ROOT/build}"
ASAN_BUILD="${STRATA_ASAN_BUILD_DIR:-$ROOT/build-asan}"
regular=1 sanitize=1 fuzz=1 fuzz_seconds=20
ctest_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-sanitize) sanitize=0; fuzz=0 ;;
    --sanitize-only) regular=0 ;;
    --no-fuzz) fuzz=0 ;;
    --fuzz-seconds) fuzz_seconds="$2"; shift ;;
    *) ctest_args+=("$1") ;;
  esac
  shift
done
JOBS="${STRATA_JOBS:-$(nproc)}"

# Layers include only downwards (issue 19): seconds, before any build.
python3 "$ROOT/scripts/check_layers.py" "$ROOT/src"

if [ "$regular" = 1 ]; then
  "$ROOT/scripts/build.sh"
  (cd "$BUILD" && ctest --output-on-failure "${ctest_args[@]}")
  echo "== regular build and tests: ${SECONDS} s"
fi

if [ "$sanitize" = 1 ]; then
  "$ROOT/scripts/setup.sh"
  start=$SECONDS
  echo "== sanitized build ($ASAN_BUILD: ASan + UBSan, CPU only)"
  targets=(strata_tests strata_backend_tests strata-cli strata)
  # Configured once, and again where the tree has no viewer target (a tree
  # configured before the viewer joined it has STRATA_VIEWER=OFF in its cache).
  if ! ninja -C "$ASAN_BUILD" -t query strata >/dev/null 2>&1; then
    cmake -S "$ROOT" -B "$ASAN_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTRATA_CUDA=OFF \
      -DSTRATA_VIEWER=ON -DSTRATA_SANITIZE=ON -DSTRATA_FUZZ=ON \
      -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >/dev/null
    if ! ninja -C "$ASAN_BUILD" -t query strata >/dev/null 2>&1; then
      echo "test.sh: $ASAN_BUILD has no viewer target after configuring (cmake -S $ROOT -B $ASAN_BUILD says why)" >&2
      exit 1
    fi
  fi
  [ "$fuzz" = 1 ] && targets+=(strata_fuzz)
  cmake --build "$ASAN_BUILD" --target "${targets[@]}" -- -j"$JOBS"
  # An uninstrumented binary would pass without checking anything.
  for bin in tests/strata_tests tests/strata_backend_tests src/strata-cli src/strata; do
    if ! nm "$ASAN_BUILD/$bin" | grep __asan_init >/dev/null; then
      echo "test.sh: $ASAN_BUILD/$bin is not built with AddressSanitizer" >&2
      exit 1
    fi
  done
  LOGS="$ASAN_BUILD/sanitizer-logs"
  rm -rf "$LOGS"
  mkdir -p "$LOGS"
  status=0
  (cd "$ASAN_BUILD" &&
     ASAN_OPTIONS="log_path=$LOGS/asan:check_initialization_order=1:detect_leaks=1" \
     UBSAN_OPTIONS="log_path=$LOGS/ubsan:print_stacktrace=1:halt_on_error=1" \
     ctest --output-on-failure -j"$JOBS" "${ctest_args[@]}") || status=$?
  if [ -n "$(ls -A "$LOGS")" ]; then
    echo "test.sh: sanitizer reports in $LOGS:" >&2
    cat "$LOGS"/* >&2
    status=1
  fi
  [ "$status" = 0 ] || exit "$status"
  echo "== sanitized build and tests: no sanitizer reports ($((SECONDS - start)) s)"

  if [ "$fuzz" = 1 ]; then
    for target in scene obj ply gltf image vdmap; do
      log="$ASAN_BUILD/fuzz-$target.log"
      if ! STRATA_FUZZ_BUILD_DIR="$ASAN_BUILD" "$ROOT/scripts/fuzz.sh" "$target" "$fuzz_seconds" >"$log" 2>&1; then
        grep -v -E '^#[0-9]+.*(NEW|REDUCE|pulse)|NEW_FUNC' "$log" | tail -60 >&2
        echo "test.sh: fuzz_$target found a problem (the input is in $ASAN_BUILD/artifacts/$target/)" >&2
        exit 1
      fi
      echo "fuzz_$target: $(grep -o 'number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*') inputs in ${fuzz_seconds} s, no findings"
    done
    echo "== fuzz smoke run: no findings; sanitizer and fuzz stages took $((SECONDS - start)) s"
  fi
fi
