#!/usr/bin/env bash
# The kd-tree's trace against strata's LBVH and the peers (OptiX 9, cuBQL,
# NexusBVH through ../shared/tools/peerbench) on the same frames, in one run:
# strata-cli bench of each scene with the kd-tree (the chapter's All, and All
# with strata's switches) and lbvh-skip, primary rays only (--bounces 0) and
# one diffuse bounce (--bounces 1), 1920x1080, 1 spp, no NEE; then peerbench
# over the scenes' OBJs with the same cameras (its primary and diffuse rays).
# Usage (repository root):
#   bench/kd_vs_peers.sh BIN_DIR PEERBENCH_DIR OBJ_DIR CAMERAS SCENE.json...
# BIN_DIR holds strata-cli; CAMERAS is peerbench's cameras file for OBJ_DIR;
# PEERBENCH_DIR '-' leaves the peers out (OBJ_DIR and CAMERAS then unused).
# CONFIGS (environment): the strata configurations, space-separated
# BUILDER:PRESET[:KEY=VALUE...] (PRESET '-': none), by default
# "kdtree:all kdtree:all+strata lbvh-skip:-"; e.g. kdtree:all+strata:accel.kd_small_clip=false.
set -uo pipefail
BIN="${1:?usage: bench/kd_vs_peers.sh BIN_DIR PEERBENCH_DIR OBJ_DIR CAMERAS SCENE.json...}"
PEER="${2:?peerbench folder}"
OBJS="${3:?OBJ folder}"
CAMS="${4:?cameras file}"
shift 4
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
status=0
for s in "$@"; do
  for cfg in ${CONFIGS:-kdtree:all kdtree:all+strata lbvh-skip:-}; do
    IFS=: read -r -a parts <<<"$cfg"
    b=${parts[0]} preset=${parts[1]:--}
    for n in 0 1; do
      sets=()
      [ "$preset" != "-" ] && sets=(--set "accel.kd_preset=$preset")
      for kv in "${parts[@]:2}"; do sets+=(--set "$kv"); done
      out=$("$BIN/strata-cli" bench "$s" --res 1920x1080 --spp 1 --bounces "$n" --frames 60 --warmup 10 \
            --set render.nee=false --builder "$b" "${sets[@]}" 2>&1) || { status=1; echo "$out" | tail -2; }
      printf "%s %s bounces=%s: build %s ms, trace %s ms, %s\n" "$(basename "$s" .json)" "$cfg" "$n" \
        "$(awk '/^build /{print $2}' <<<"$out")" "$(awk '/^trace /{print $2}' <<<"$out")" \
        "$(grep '^closest-hit' <<<"$out" | sed 's/  */ /g')"
    done
  done
done
[ "$PEER" = "-" ] && exit $status
echo "== peerbench"
OUT="${OUT:-.}" "$PEER/run.sh" "$OBJS" "$CAMS" "${OUT:-.}/peerbench_results" || status=1
grep -vE "^\s*$" "${OUT:-.}/peerbench_results/peerbench.log" | grep -iE "mesh|build|primary|diffuse|trace|CHECK|GPU" | head -80
exit $status
