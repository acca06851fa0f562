#!/usr/bin/env bash
# Builds the libFuzzer targets (build-fuzz/, clang, ASan + UBSan) and runs one.
#   scripts/fuzz.sh TARGET SECONDS [libFuzzer options...]
# TARGET: scene | obj | ply | gltf | image | vdmap. New inputs go to build-fuzz/corpus/TARGET (the
# seeds in fuzz/corpus/TARGET and, where present, ../shared/testdata are read
# only); a crash, leak, timeout or out-of-memory input is written to
# build-fuzz/artifacts/TARGET/ and the script exits non-zero. Extra options go
# to libFuzzer, e.g. -fork=2 (two processes) or -max_len=65536.
# STRATA_FUZZ_BUILD_DIR overrides build-fuzz/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${STRATA_FUZZ_BUILD_DIR:-$ROOT/build-fuzz}"
if [ $# -lt 2 ]; then
  echo "usage: scripts/fuzz.sh scene|obj|ply|gltf|image|vdmap SECONDS [libFuzzer options...]" >&2
  exit 2
fi
TARGET="$1"
SECONDS_TO_RUN="$2"
shift 2
case "$TARGET" in
  scene) MAX_LEN=16384 ;;
  obj) MAX_LEN=16384 ;;
  ply) MAX_LEN=16384 ;;
  gltf) MAX_LEN=16384 ;;
  image) MAX_LEN=65536 ;;
  vdmap) MAX_LEN=65536 ;;
  *) echo "fuzz.sh: unknown target '$TARGET' (scene, obj, ply, gltf, image or vdmap)" >&2; exit 2 ;;
esac

"$ROOT/scripts/setup.sh"
if ! command -v clang++ >/dev/null; then
  echo "fuzz.sh: clang++ not found (scripts/setup.sh installs clang)" >&2
  exit 1
fi
if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTRATA_FUZZ=ON -DSTRATA_CUDA=OFF \
    -DSTRATA_VIEWER=OFF -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >/dev/null
fi
cmake --build "$BUILD" --target "fuzz_$TARGET" -- -j"${STRATA_JOBS:-2}" >/dev/null

# Seeds: the committed corpus, plus the real files of ../shared/testdata (not
# copied into the repository) linked into a folder of their own.
seeds=("$ROOT/fuzz/corpus/$TARGET")
TESTDATA="${STRATA_TESTDATA_DIR:-$ROOT/../shared/testdata}"
extra="$BUILD/seeds/$TARGET"
rm -rf "$extra"
mkdir -p "$extra"
case "$TARGET" in
  obj) pattern='*.obj' ;;
  ply) pattern='*.ply' ;;
  gltf) pattern='*.gl[tb]*' ;;
  image) pattern='*.[hpe][dnx][rg]' ;;  # .hdr, .png, .exr
  vdmap) pattern='*.hdr' ;;
  *) pattern='*.json' ;;
esac
if [ -d "$TESTDATA" ]; then
  find "$TESTDATA" -maxdepth 1 -type f -name "$pattern" -exec ln -sf {} "$extra/" \;
fi
[ -n "$(ls -A "$extra")" ] && seeds+=("$extra")

WORK="$BUILD/corpus/$TARGET"
ART="$BUILD/artifacts/$TARGET"
mkdir -p "$WORK" "$ART"
echo "fuzz_$TARGET for ${SECONDS_TO_RUN} s (corpus $WORK, artifacts $ART)"
"$BUILD/fuzz/fuzz_$TARGET" -max_total_time="$SECONDS_TO_RUN" -timeout=10 -rss_limit_mb=2048 -max_len="$MAX_LEN" \
  -dict="$ROOT/fuzz/dict/$TARGET.dict" -artifact_prefix="$ART/" -print_final_stats=1 "$@" \
  "$WORK" "${seeds[@]}"
