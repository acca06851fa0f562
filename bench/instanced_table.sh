#!/usr/bin/env bash
# Flat vs instanced mode on the CUDA backend (accel.mode): per-stage medians
# of the build (flat LBVH, or the BLASes of deforming instances plus the top
# level; static meshes' BLASes are built once) and the trace, at 1920x1080,
# 1 spp, 3 bounces with NEE, for each scene and LBVH variant.
# Usage: bench/instanced_table.sh STRATA_CLI [frames] [scenes...]
set -uo pipefail
CLI="${1:?usage: bench/instanced_table.sh STRATA_CLI [frames] [scenes...]}"
FRAMES="${2:-50}"
shift $(( $# >= 2 ? 2 : 1 ))
SCENES=("$@")
[ ${#SCENES[@]} -eq 0 ] && SCENES=(assets/scenes/atrium-3.json assets/scenes/kitchen-3.json assets/scenes/rigid-160.json assets/scenes/forest.json assets/scenes/vd-party.json)
printf '| scene | builder | mode | build ms | build/blas | build/top | launches/build | trace ms | frame ms | accel MiB |\n'
printf '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n'
for scene in "${SCENES[@]}"; do
  for builder in lbvh-karras lbvh-skip; do
    for mode in flat instanced; do
      out=$("$CLI" bench "$scene" --res 1920x1080 --spp 1 --bounces 3 --builder $builder --set accel.mode=$mode \
              --warmup 5 --frames "$FRAMES" 2>&1)
      get() { echo "$out" | awk -v k="$1" '$1 == k { print $2; exit }'; }
      launches=$(echo "$out" | awk '$1 == "build" { print $3; exit }')
      accel=$(echo "$out" | sed -n 's/.*acceleration \([0-9.]*\) MiB.*/\1/p')
      printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$(basename "$scene" .json)" $builder $mode \
        "$(get build)" "$(get build/blas)" "$(get build/top)" "$launches" "$(get trace)" "$(get total)" "$accel"
    done
  done
done
