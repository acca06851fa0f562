#!/usr/bin/env bash
# The kd-tree chapter's Table 13.2: for Original, [A], [A]-[B], [A]-[C],
# [A]-[D] and All, the construction time, kernel launches per build, ray-trace
# time R and total T, in flat mode, with lbvh-skip beside them. R as the
# chapter's: Whitted-style at 1024x1024 (render.integrator = whitted, one
# mirror reflection: primary and reflection rays with their shadow rays,
# textures), R = trace + shade + shadow. Usage (repository root):
#   bench/kdtree_table.sh PATH/TO/strata-cli [FRAMES] [WARMUP] [SCENES...]
# SCENES are names in assets/scenes/ (atrium-1, real/sr-2, ...) or paths to
# scene files; by default the chapter's SR1-3 (real Sponza + runners: the
# models come from the data folder, see docs/scene-format.md), KR1-3 (the
# generated kitchen + runners) and FF (the generated forest).
set -uo pipefail
CLI="${1:?usage: bench/kdtree_table.sh PATH/TO/strata-cli [FRAMES] [WARMUP] [SCENES...]}"
FRAMES="${2:-100}"
WARMUP="${3:-10}"
shift $(($# < 3 ? $# : 3))
SCENES=("$@")
[ ${#SCENES[@]} -eq 0 ] && SCENES=(real/sr-1 real/sr-2 real/sr-3 kitchen-1 kitchen-2 kitchen-3 forest)
[ -x "$CLI" ] && [ ! -d "$CLI" ] || { echo "kdtree_table.sh: $CLI is not the strata-cli executable" >&2; exit 2; }
variants=("Original:" "A:a" "AB:ab" "ABC:abc" "ABCD:abcd" "All:abcde")
printf "| scene | variant | build ms | launches/build | R ms (trace+shade+shadow) | T ms |\n| --- | --- | ---: | ---: | ---: | ---: |\n"
for scene in "${SCENES[@]}"; do
  file="$scene"
  [ -f "$file" ] || file="assets/scenes/$scene.json"
  for v in "${variants[@]}"; do
    name="${v%%:*}"; flags="${v#*:}"
    sets=()
    for k in a b c d e; do
      if [[ "$flags" == *"$k"* ]]; then sets+=(--set "accel.kd_$k=true"); else sets+=(--set "accel.kd_$k=false"); fi
    done
    out=$("$CLI" bench "$file" --res 1024x1024 --spp 1 --bounces 1 --set render.integrator=whitted --frames "$FRAMES" --warmup "$WARMUP" \
          --builder kdtree "${sets[@]}" 2>/dev/null)
    build=$(awk '/^build /{print $2}' <<<"$out"); launches=$(awk '/^build /{print $3}' <<<"$out")
    r=$(awk '/^trace +[0-9]/{t=$2} /^shade +[0-9]/{s=$2} /^shadow +[0-9]/{d=$2} END{printf "%.3f", t+s+d}' <<<"$out")
    total=$(awk '/^total /{print $2}' <<<"$out")
    printf "| %s | %s | %s | %s | %s | %s |\n" "$scene" "$name" "${build:-fail}" "${launches:-}" "$r" "${total:-fail}"
  done
  out=$("$CLI" bench "$file" --res 1024x1024 --spp 1 --bounces 1 --set render.integrator=whitted --frames "$FRAMES" --warmup "$WARMUP" \
        --builder lbvh-skip 2>/dev/null)
  printf "| %s | lbvh-skip | %s | %s | %s | %s |\n" "$scene" "$(awk '/^build /{print $2}' <<<"$out")" \
    "$(awk '/^build /{print $3}' <<<"$out")" \
    "$(awk '/^trace +[0-9]/{t=$2} /^shade +[0-9]/{s=$2} /^shadow +[0-9]/{d=$2} END{printf "%.3f", t+s+d}' <<<"$out")" \
    "$(awk '/^total /{print $2}' <<<"$out")"
done
