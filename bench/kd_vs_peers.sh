#!/usr/bin/env bash
# The kd-tree's trace against strata's LBVH and the peers (OptiX 9, cuBQL,
# NexusBVH through ../shared/tools/peerbench) on the same frames, in one run:
# strata-cli bench of each scene with the kd-tree (the chapter's All, and All
# with strata's switches) and lbvh-skip, primary rays only (--bounces 0) and
# one diffuse bounce (--bounces 1), 1920x1080, 1 spp, no NEE; then peerbench
# over the scenes' OBJs with the same cameras (its primary and diffuse rays).
# Usage (repository root):
#   bench/kd_vs_peers.sh BIN_DIR PEERBENCH_DIR OBJ_DIR CAMERAS SCENE.json...
# BIN_DIR holds strata-cli; CAMERAS is peerbench's cameras file for OBJ_DIR.
set -uo pipefail
BIN="${1:?usage: bench/kd_vs_peers.sh BIN_DIR PEERBENCH_DIR OBJ_DIR CAMERAS SCENE.json...}"
PEER="${2:?peerbench folder}"
OBJS="${3:?OBJ folder}"
CAMS="${4:?cameras file}"
shift 4
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
status=0
for s in "$@"; do
  for cfg in "kdtree all" "kdtree all+strata" "lbvh-skip -"; do
    read -r b preset <<<"$cfg"
    for n in 0 1; do
      set_preset=()
      [ "$preset" != "-" ] && set_preset=(--set "accel.kd_preset=$preset")
      out=$("$BIN/strata-cli" bench "$s" --res 1920x1080 --spp 1 --bounces "$n" --frames 60 --warmup 10 \
            --set render.nee=false --builder "$b" "${set_preset[@]}" 2>&1) || status=1
      printf "%s %s %s bounces=%s: build %s ms, trace %s ms, %s\n" "$(basename "$s" .json)" "$b" "$preset" "$n" \
        "$(awk '/^build /{print $2}' <<<"$out")" "$(awk '/^trace /{print $2}' <<<"$out")" \
        "$(grep '^closest-hit' <<<"$out" | sed 's/  */ /g')"
    done
  done
done
echo "== peerbench"
OUT="${OUT:-.}" "$PEER/run.sh" "$OBJS" "$CAMS" "${OUT:-.}/peerbench_results" || status=1
grep -vE "^\s*$" "${OUT:-.}/peerbench_results/peerbench.log" | grep -iE "mesh|build|primary|diffuse|trace|CHECK|GPU" | head -80
exit $status
