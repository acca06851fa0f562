#!/usr/bin/env bash
# The VD benchmark (issue: three-level hierarchy): per-stage times for primary
# and shadow rays at 1920x1080 (1 spp, 1 bounce, NEE), direct vs
# pre-tessellated, with memory and pairs per patch, for the party scene (many
# patches) and the mushroom (few patches, many rays per patch).
# Usage: bench/vd_table.sh STRATA_CLI [frames]
# (Harada's own comparison, primary + shadow rays with the structures built
# once and rebuilt every frame: strata-cli vdtable.)
set -uo pipefail
CLI="${1:?usage: bench/vd_table.sh STRATA_CLI [frames]}"
FRAMES="${2:-50}"
for scene in assets/scenes/vd-party.json assets/scenes/vd-mushroom.json; do
  for mode in direct pretess; do
    echo "== $scene vd.mode=$mode"
    "$CLI" bench "$scene" --res 1920x1080 --spp 1 --bounces 1 --set vd.mode=$mode --set vd.max_level=5 \
      --warmup 5 --frames "$FRAMES" 2>&1 | grep -E "^(scene|build|  build/(sort|aabb|vd)|trace|  trace|vd|  vd|shade|  shade|shadow|total|primary)|memory|VD patches|rays"
  done
done
echo "== vd-party direct without pair culling (vd.pair_cull false)"
"$CLI" bench assets/scenes/vd-party.json --res 1920x1080 --spp 1 --bounces 1 --set vd.mode=direct --set vd.max_level=5 \
  --set vd.pair_cull=false --warmup 5 --frames "$FRAMES" 2>&1 | grep -E "^(trace|vd|  vd/(sort|bottom)|shadow|total)|memory|VD patches"
echo "== vd-party direct, last-bounce rays asking for the closest VD hit (vd.last_bounce_any_hit false)"
"$CLI" bench assets/scenes/vd-party.json --res 1920x1080 --spp 1 --bounces 1 --set vd.mode=direct --set vd.max_level=5 \
  --set vd.last_bounce_any_hit=false --warmup 5 --frames "$FRAMES" 2>&1 | grep -E "^(vd|  vd/(bounce|bottom)|shade|  shade/bounce|total)"
echo "== vd-party at level 7"
"$CLI" bench assets/scenes/vd-party.json --res 1920x1080 --bounces 1 --set vd.mode=pretess --set vd.max_level=7 --frames 5 --warmup 1 2>&1 | tail -2
"$CLI" bench assets/scenes/vd-party.json --res 1920x1080 --bounces 1 --set vd.mode=direct --set vd.max_level=7 --frames 20 --warmup 3 2>&1 | grep -E "^(vd|total)|memory"
