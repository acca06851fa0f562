#!/usr/bin/env bash
# End-to-end tests of strata-cli on the CPU backend (runs in CI, no GPU):
# renders write a PNG and a CSV; every bad input gives one clear message, a
# non-zero exit and no output file. Usage: cli_test.sh STRATA_CLI SOURCE_DIR
set -uo pipefail
CLI="$1"
SRC="$2"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
fails=0
pass() { echo "ok   $1"; }
fail() { echo "FAIL $1"; fails=$((fails + 1)); }

# --- a render on the CPU backend writes the image and one CSV row per frame
if "$CLI" render "$SRC/tests/data/cube_scene.json" --backend cpu --res 64x48 --spp 2 --frames 3 \
     --out "$TMP/cube.png" --timings "$TMP/t.csv" >"$TMP/out.txt" 2>"$TMP/err.txt"; then
  [ -s "$TMP/cube.png" ] && head -c 8 "$TMP/cube.png" | grep -q PNG && pass "render writes a PNG" || fail "render writes a PNG"
  [ "$(wc -l <"$TMP/t.csv")" -eq 4 ] && pass "timings CSV: header + 3 rows" || fail "timings CSV rows"
  head -1 "$TMP/t.csv" | grep -q "^frame,scene_time,render.width.*,animate_ms," && pass "CSV header names stages" || fail "CSV header"
  grep -q "$TMP/cube.png" "$TMP/out.txt" && pass "render prints the output path" || fail "render prints path"
else
  fail "render on the cpu backend: $(cat "$TMP/err.txt")"
fi

# --- the output's extension names its format: .pfm is the linear radiance as
# floats, an unknown one is refused before any work, with no file left
if "$CLI" render "$SRC/tests/data/cube_scene.json" --backend cpu --res 20x10 --spp 2 --out "$TMP/cube.PFM" \
     >/dev/null 2>"$TMP/err.txt" && [ "$(head -1 "$TMP/cube.PFM")" = "PF" ] && [ "$(head -2 "$TMP/cube.PFM" | tail -1)" = "20 10" ] \
   && [ "$(stat -c %s "$TMP/cube.PFM")" -eq $((3 + 6 + 5 + 20 * 10 * 12)) ]; then
  pass "render --out x.pfm writes a float PFM of the radiance"
else
  fail "render --out x.pfm: $(cat "$TMP/err.txt")"
fi
if "$CLI" render "$SRC/tests/data/cube_scene.json" --backend cpu --res 16x16 --out "$TMP/cube.tiff" \
     >/dev/null 2>"$TMP/err.txt"; then
  fail "render --out x.tiff: exited 0"
elif grep -q "cube.tiff: the output's extension names its format" "$TMP/err.txt" && [ ! -e "$TMP/cube.tiff" ]; then
  pass "render --out x.tiff: refused, naming the formats, no file"
else
  fail "render --out x.tiff: $(cat "$TMP/err.txt")"
fi

# --- long work reports its progress with the elapsed time (in a log: a line
# every 10 s and the last; on a terminal a bar and the time left)
if STRATA_PROGRESS_INTERVAL=0 "$CLI" render "$SRC/assets/scenes/cornell.json" --backend cpu --res 32x32 --frames 3 \
     --out "$TMP/p.png" >/dev/null 2>"$TMP/err.txt" \
   && grep -Eq "^rendering frame 1/3 [0-9]+\.[0-9] s, about [0-9]+ s left$" "$TMP/err.txt" \
   && grep -Eq "^rendering frame 3/3 [0-9]+\.[0-9] s$" "$TMP/err.txt"; then
  pass "render reports its progress"
else
  fail "render progress: $(cat "$TMP/err.txt")"
fi

# --- every LBVH variant and traversal renders on the CPU backend
for bt in "lbvh-karras stack" "lbvh-apetrei stack" "lbvh-skip stack" "lbvh-skip stackless"; do
  set -- $bt
  if "$CLI" render "$SRC/tests/data/cube_scene.json" --backend cpu --res 32x24 --spp 1 --builder "$1" --traversal "$2" \
       --out "$TMP/v.png" >/dev/null 2>"$TMP/err.txt" && [ -s "$TMP/v.png" ]; then
    pass "render with $1 / $2"
  else
    fail "render with $1 / $2: $(cat "$TMP/err.txt")"
  fi
done

# --- the kd-tree's options are recorded in the timings CSV as they ran; the
# GPU builder's [A]-[E] are refused on the CPU backend, whose reference
# kd-tree they would not change
if "$CLI" render "$SRC/tests/data/cube_scene.json" --backend cpu --res 16x16 --builder kdtree \
     --set accel.kd_large_split=sah --out "$TMP/kd.png" --timings "$TMP/kd.csv" >/dev/null 2>"$TMP/err.txt"; then
  python3 - "$TMP/kd.csv" <<'PY' && pass "the kd-tree's options in the CSV" || fail "kd-tree CSV columns"
import csv, sys
row = next(csv.DictReader(open(sys.argv[1])))
assert row["accel.builder"] == "kdtree" and row["accel.kd_large_split"] == "sah", row
assert row["accel.kd_opts"] == "none", row["accel.kd_opts"]
assert [row["accel.kd_" + k] for k in "abcde"] == ["false"] * 5
PY
else
  fail "render with the kd-tree: $(cat "$TMP/err.txt")"
fi

# --- EXR output: the linear radiance (OpenEXR's own exrheader reads it where
# Debian's openexr tools are installed); a %04d pattern writes every frame
if "$CLI" render "$SRC/tests/data/cube_scene.json" --backend cpu --res 16x8 --out "$TMP/cube.exr" >/dev/null 2>"$TMP/err.txt" \
   && [ "$(head -c 4 "$TMP/cube.exr" | od -An -tx1 | tr -d ' \n')" = "762f3101" ]; then
  pass "render --out x.exr writes an EXR"
  if command -v exrheader >/dev/null; then
    exrheader "$TMP/cube.exr" 2>&1 | grep -q "dataWindow (type box2i): (0 0) - (15 7)" \
      && pass "exrheader reads it" || fail "exrheader: $(exrheader "$TMP/cube.exr" 2>&1 | tail -3)"
  fi
else
  fail "render to .exr: $(cat "$TMP/err.txt")"
fi
if "$CLI" render "$SRC/tests/data/cube_scene.json" --backend cpu --res 16x8 --frames 3 --out "$TMP/seq_%03d.png" \
     >/dev/null 2>"$TMP/err.txt" && [ -s "$TMP/seq_000.png" ] && [ -s "$TMP/seq_001.png" ] && [ -s "$TMP/seq_002.png" ] \
   && [ ! -e "$TMP/seq_003.png" ]; then
  pass "--out seq_%03d.png writes every frame"
else
  fail "frame sequence: $(ls "$TMP" | grep seq_; cat "$TMP/err.txt")"
fi
if "$CLI" render "$SRC/tests/data/cube_scene.json" --backend cpu --res 16x8 --out "$TMP/f_%s.png" >/dev/null 2>"$TMP/err.txt"; then
  fail "bad frame pattern: exited 0"
elif grep -q "holds one frame number as %d or %0Nd" "$TMP/err.txt" && ! ls "$TMP" | grep -q '^f_'; then
  pass "bad frame pattern: refused, no file"
else
  fail "bad frame pattern: $(cat "$TMP/err.txt")"
fi

# --- view.heatmap: the image is the heatmap, the CSV has the frame's totals,
# the counts per ray are printed; a bad value is named
if "$CLI" render "$SRC/tests/data/cube_scene.json" --backend cpu --res 16x16 --set view.heatmap=triangles \
     --out "$TMP/heat.png" --timings "$TMP/heat.csv" >/dev/null 2>"$TMP/err.txt" \
   && "$CLI" render "$SRC/tests/data/cube_scene.json" --backend cpu --res 16x16 --out "$TMP/noheat.png" \
        --timings "$TMP/noheat.csv" >/dev/null 2>/dev/null; then
  python3 - "$TMP/heat.csv" "$TMP/noheat.csv" <<'PY' && pass "view.heatmap: totals in the CSV" || fail "view.heatmap CSV"
import csv, sys
heat = next(csv.DictReader(open(sys.argv[1])))
plain = next(csv.DictReader(open(sys.argv[2])))
assert heat["view.heatmap"] == "triangles", heat["view.heatmap"]
assert int(heat["heat_nodes"]) >= 256 and int(heat["heat_triangles"]) > 0, heat
assert float(heat["heatmap_ms"]) > 0, heat["heatmap_ms"]
assert plain["heat_nodes"] == plain["heat_triangles"] == plain["heat_steps"] == plain["heat_blas"] == "0", plain
assert heat["heat_blas"] == "0", heat  # flat mode: no BLAS
PY
  grep -q "heatmap of triangles, the last frame's camera rays: .* nodes, .* triangles, .* steps, .* BLAS entries per ray" "$TMP/err.txt" \
    && ! cmp -s "$TMP/heat.png" "$TMP/noheat.png" && pass "view.heatmap: its own image and counts per ray" \
    || fail "view.heatmap image or summary: $(cat "$TMP/err.txt")"
else
  fail "render with view.heatmap: $(cat "$TMP/err.txt")"
fi

# --- VD patches: pre-tessellated and plain quads render; pretess has 2 * 4^level triangles per patch
for mode in "pretess 4 2050" "off 4 10"; do
  set -- $mode
  if "$CLI" render "$SRC/assets/scenes/vd-mushroom.json" --backend cpu --res 32x24 --set vd.mode="$1" \
       --set vd.max_level="$2" --out "$TMP/vd.png" >"$TMP/o.txt" 2>"$TMP/err.txt" \
     && cat "$TMP/o.txt" "$TMP/err.txt" | grep -q ", $3 triangles,"; then
    pass "vd.mode=$1 renders with $3 triangles"
  else
    fail "vd.mode=$1: $(cat "$TMP/o.txt" "$TMP/err.txt")"
  fi
done

# --- bench reports the VD patches' memory in both modes, whichever runs
for mode in direct pretess; do
  if "$CLI" bench "$SRC/assets/scenes/vd-mushroom.json" --backend cpu --res 16x12 --frames 1 --warmup 0 \
       --set vd.mode=$mode --set vd.max_level=3 >"$TMP/o.txt" 2>"$TMP/err.txt" \
     && grep -q "^VD memory: *direct .* MiB, pre-tessellated .* MiB (.* M triangles at level 3)" "$TMP/o.txt"; then
    pass "bench vd.mode=$mode: VD memory, direct against pre-tessellated"
  else
    fail "bench vd.mode=$mode: $(cat "$TMP/o.txt" "$TMP/err.txt")"
  fi
done

# --- bad input: non-zero exit, one message naming the problem, no output
expect_error() {  # name, expected text, args...
  local name="$1" text="$2"
  shift 2
  rm -f "$TMP/bad.png"
  if "$CLI" "$@" --out "$TMP/bad.png" >"$TMP/o.txt" 2>"$TMP/e.txt"; then
    fail "$name: exited 0"
  elif ! grep -q -- "$text" "$TMP/e.txt"; then
    fail "$name: message lacks '$text': $(cat "$TMP/e.txt")"
  elif [ -e "$TMP/bad.png" ] || ls "$TMP" | grep -q 'bad.png.tmp'; then
    fail "$name: left an output file"
  else
    pass "$name"
  fi
}
# The GPU kd-tree's switches where they would do nothing are refused, saying why.
expect_error "--kd-opts with an LBVH builder" "accel.kd_opts = ABC does nothing here: it changes the kd-tree only" \
  render "$SRC/tests/data/cube_scene.json" --backend cpu --res 8x8 --kd-opts ABC
expect_error "--kd-opts on the CPU backend" "accel.kd_opts = AC does nothing here: .*CPU backend" \
  render "$SRC/tests/data/cube_scene.json" --backend cpu --res 8x8 --builder kdtree --kd-opts CA
printf '{"meshes": [{"name": "a", "obj": "cube.obj"}],\n  "render": {"spp": }\n}\n' >"$TMP/malformed.json"
printf '{"meshes": [{"name": "a", "obj": "missing.obj"}]}\n' >"$TMP/missing_obj.json"
expect_error "bad view.heatmap" "option 'view.heatmap': expected one of off, nodes, triangles, steps, blas" \
  render "$SRC/tests/data/cube_scene.json" --backend cpu --set view.heatmap=cells
expect_error "view.heatmap_max without the heatmap" "view.heatmap_max = 50 does nothing here" \
  render "$SRC/tests/data/cube_scene.json" --backend cpu --set view.heatmap_max=50
expect_error "missing scene file" "nope.json" render "$TMP/nope.json" --backend cpu
expect_error "malformed JSON gives line:column" "malformed.json:2:" render "$TMP/malformed.json" --backend cpu
expect_error "missing OBJ" "missing.obj" render "$TMP/missing_obj.json" --backend cpu
expect_error "unknown --set key" "render.nope" render "$SRC/tests/data/cube_scene.json" --backend cpu --set render.nope=1
expect_error "bad --set value" "render.spp" render "$SRC/tests/data/cube_scene.json" --backend cpu --set render.spp=zero
expect_error "bad --res" "--res" render "$SRC/tests/data/cube_scene.json" --backend cpu --res 640
expect_error "resolution 0" "render.width" render "$SRC/tests/data/cube_scene.json" --backend cpu --res 0x10
expect_error "resolution huge" "render.height' = 100000 is out of range" render "$SRC/tests/data/cube_scene.json" --backend cpu --res 64x100000
expect_error "spp 0" "render.spp" render "$SRC/tests/data/cube_scene.json" --backend cpu --set render.spp=0
expect_error "bounces out of range" "render.bounces" render "$SRC/tests/data/cube_scene.json" --backend cpu --bounces 65
printf '#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 4 +X 16\n\002\002\000\020\001' >"$TMP/cut.hdr"
printf '{"meshes": [{"name": "c", "obj": "%s/tests/data/cube.obj"}], "lights": {"environment": {"hdr": "cut.hdr"}}}\n' "$SRC" >"$TMP/cut_env.json"
expect_error "truncated HDR environment" "cut.hdr: cannot read HDR image: truncated" render "$TMP/cut_env.json" --backend cpu
expect_error "start time beyond a float" "animation.start_time" render "$SRC/tests/data/cube_scene.json" --backend cpu --set animation.start_time=1e39
if "$CLI" validate "$SRC/tests/data/cube_scene.json" --backend cpu --time 1e39 >/dev/null 2>"$TMP/e.txt"; then
  fail "validate --time beyond a float: exited 0"
elif grep -q -- "--time: expected a scene time" "$TMP/e.txt"; then
  pass "validate --time beyond a float"
else
  fail "validate --time beyond a float: $(cat "$TMP/e.txt")"
fi
printf '{"camera": {"position": [0,0,5], "target": [0,0,0], "path": [{"time": 0, "position": [0,0,5], "target": [0,0,0]}, {"time": 1e300, "position": [0,1,5], "target": [0,0,0]}]}, "meshes": [{"name": "c", "obj": "%s/tests/data/cube.obj"}]}\n' "$SRC" >"$TMP/camkey.json"
expect_error "camera key time beyond a float" "camera.path\[1\].time: expected a scene time" render "$TMP/camkey.json" --backend cpu
printf '{"meshes": [{"name": "c", "obj": "%s/tests/data/cube.obj"}], "instances": [{"mesh": "c", "animation": {"keys": [{"time": -1e300}, {"time": 0}]}}]}\n' "$SRC" >"$TMP/instkey.json"
expect_error "instance key time beyond a float" "time: expected a scene time" render "$TMP/instkey.json" --backend cpu
expect_error "--spp 0 is not 'not given'" "render.spp" render "$SRC/tests/data/cube_scene.json" --backend cpu --spp 0
expect_error "--bounces -5" "render.bounces" render "$SRC/tests/data/cube_scene.json" --backend cpu --bounces -5
expect_error "--seed -1" "render.seed" render "$SRC/tests/data/cube_scene.json" --backend cpu --seed -1
# The CPU backend checks host memory before it allocates (documented limits
# that do not fit: one message with the sizes and what to lower).
STRATA_HOST_MEMORY_LIMIT_MB=200 expect_error "CPU backend memory check" \
  "the CPU backend needs about 47872 MiB of host memory (16384x16384 pixels, 12 triangles in instances) but 200 MiB are available (STRATA_HOST_MEMORY_LIMIT_MB); lower the resolution" \
  render "$SRC/tests/data/cube_scene.json" --backend cpu --res 16384x16384
STRATA_HOST_MEMORY_LIMIT_MB=lots expect_error "STRATA_HOST_MEMORY_LIMIT_MB checked" \
  "STRATA_HOST_MEMORY_LIMIT_MB: 'lots' is not a whole number of MiB" render "$SRC/tests/data/cube_scene.json" --backend cpu
# Without a usable GPU the default backend says so in words (with one, it renders).
if "$CLI" render "$SRC/tests/data/cube_scene.json" --res 8x8 --spp 1 --out "$TMP/gpu.png" >/dev/null 2>"$TMP/e.txt"; then
  pass "default backend renders (a GPU is present)"
elif grep -qE "(no usable CUDA GPU \(.*\)|built without CUDA); render on the CPU with --backend cpu" \
       "$TMP/e.txt" && [ ! -e "$TMP/gpu.png" ]; then
  pass "no GPU: the message says so and names --backend cpu"
else
  fail "no-GPU message: $(cat "$TMP/e.txt")"
fi
if "$CLI" soak "$SRC/tests/data/cube_scene.json" --backend cpu --max-growth-mib nan >/dev/null 2>"$TMP/e.txt"; then
  fail "soak --max-growth-mib nan: exited 0"
else
  grep -q -- "--max-growth-mib: nan is not a size" "$TMP/e.txt" && pass "soak --max-growth-mib nan: named" \
    || fail "soak nan message: $(cat "$TMP/e.txt")"
fi
# Non-regular inputs: an endless device is refused at a limit; a scene from a
# pipe (process substitution) is read once and renders.
expect_error "scene from /dev/zero" "/dev/zero: cannot read scene file: it is a device that gives more than 64 MiB" \
  render /dev/zero --backend cpu
sed "s|\"cube.obj\"|\"$SRC/tests/data/cube.obj\"|" "$SRC/tests/data/cube_scene.json" >"$TMP/abs_scene.json"
if "$CLI" render <(cat "$TMP/abs_scene.json") --backend cpu --res 16x16 --spp 1 --out "$TMP/pipe.png" >/dev/null 2>"$TMP/e.txt" \
   && [ -s "$TMP/pipe.png" ]; then
  pass "scene through a pipe renders"
else
  fail "scene through a pipe: $(cat "$TMP/e.txt")"
fi
expect_error "--frames beyond the limit" "--frames: expected 1 to" render "$SRC/tests/data/cube_scene.json" --backend cpu --frames 2147483647
for w in -5 2147483647; do
  if "$CLI" bench "$SRC/tests/data/cube_scene.json" --backend cpu --res 8x8 --warmup $w >/dev/null 2>"$TMP/e.txt"; then
    fail "bench --warmup $w: exited 0"
  elif grep -q -- "--warmup: expected 0 to" "$TMP/e.txt"; then
    pass "bench --warmup $w: a message"
  else
    fail "bench --warmup $w: $(cat "$TMP/e.txt")"
  fi
done
# VD maps: missing, a NaN texel, a header promising more than the file holds
vd_scene() { printf '{"meshes": [{"name": "c", "obj": "%s/tests/data/cube.obj", "vd": {"map": "%s"}}]}\n' "$SRC" "$1" >"$TMP/$2"; }
vd_scene nomap.pfm vd_missing.json
printf 'PF\n1 1\n-1\n' >"$TMP/nan.pfm" && printf '\000\000\300\177\000\000\000\000\000\000\000\000' >>"$TMP/nan.pfm"
vd_scene nan.pfm vd_nan.json
printf 'PF\n16384 16384\n-1\nabc' >"$TMP/huge.pfm"
vd_scene huge.pfm vd_huge.json
expect_error "missing displacement map" "nomap.pfm: cannot open displacement map" render "$TMP/vd_missing.json" --backend cpu
expect_error "displacement map with a NaN" "nan.pfm: displacement texel (0, 0) is not finite" render "$TMP/vd_nan.json" --backend cpu
expect_error "PFM shorter than its header" "huge.pfm: truncated PFM" render "$TMP/vd_huge.json" --backend cpu
expect_error "stackless needs lbvh-skip" "lbvh-skip" render "$SRC/tests/data/cube_scene.json" --backend cpu --traversal stackless
expect_error "bad --kd-opts" "accel.kd_opts" render "$SRC/tests/data/cube_scene.json" --backend cpu --builder kdtree --kd-opts ABX
expect_error "unknown builder" "accel.builder" render "$SRC/tests/data/cube_scene.json" --backend cpu --builder octree
if "$CLI" render "$SRC/tests/data/cube_scene.json" --backend cpu --res 8x8 --out /nonexistent/dir/x.png \
     >/dev/null 2>"$TMP/e.txt"; then
  fail "unwritable output folder: exited 0"
else
  grep -q "/nonexistent/dir/x.png" "$TMP/e.txt" && pass "unwritable output folder" || fail "unwritable: $(cat "$TMP/e.txt")"
fi

# --- validate and --help
"$CLI" validate "$SRC/tests/data/cube_scene.json" --backend cpu --rays 200 >"$TMP/v.txt" 2>&1 \
  && grep -q "all structures agree" "$TMP/v.txt" && pass "validate agrees on the cube" || fail "validate: $(cat "$TMP/v.txt")"
for b in lbvh-karras hploc; do  # instanced mode on the CPU, with each builder's BLASes
  grep -q "instanced $b (cpu) closest hits *ok" "$TMP/v.txt" && grep -q "instanced $b (cpu) traversal .*BLAS entries" "$TMP/v.txt" \
    && pass "validate: instanced mode with $b's BLASes" || fail "validate: no instanced $b line: $(cat "$TMP/v.txt")"
done
"$CLI" validate "$SRC/assets/scenes/cornell.json" --backend cpu --rays 300 --kd-full-sah >"$TMP/v.txt" 2>&1 \
  && grep -q "kdtree full SAH (cpu, Wald-Havran) closest hits *ok" "$TMP/v.txt" \
  && grep -q "kdtree full SAH (cpu, Wald-Havran) quality" "$TMP/v.txt" \
  && pass "validate --kd-full-sah: Wald & Havran's kd-tree checked and measured" || fail "validate --kd-full-sah: $(cat "$TMP/v.txt")"
"$CLI" soak "$SRC/tests/data/cube_scene.json" --backend cpu --res 24x24 --frames 30 --validate-every 10 >"$TMP/s.txt" 2>&1 \
  && grep -q "soak passed" "$TMP/s.txt" && grep -q "validations:         4 (0 fresh-renderer mismatches" "$TMP/s.txt" \
  && pass "soak cycles every structure on the cpu backend" || fail "soak: $(cat "$TMP/s.txt")"
# Real-model scenes: a data folder without the file is one clear message.
STRATA_DATA="$TMP/nodata" expect_error "data: model not in the data folder" \
  "sponza.obj is not in the data folder $TMP/nodata (STRATA_DATA" render "$SRC/assets/scenes/real/sr-1.json" --backend cpu
expect_error "--data overrides STRATA_DATA" "is not in the data folder $TMP/other (--data" \
  render "$SRC/assets/scenes/real/conference.json" --backend cpu --data "$TMP/other"
# kdtable times the GPU kd-tree: without a GPU it says so.
if ! nvidia-smi -L >/dev/null 2>&1; then
  if "$CLI" kdtable "$SRC/tests/data/cube_scene.json" --csv "$TMP/k.csv" >/dev/null 2>"$TMP/e.txt"; then
    fail "kdtable without a GPU: exited 0"
  elif grep -q "kdtable times the GPU kd-tree" "$TMP/e.txt" && [ ! -e "$TMP/k.csv" ]; then
    pass "kdtable without a GPU"
  else
    fail "kdtable without a GPU: $(cat "$TMP/e.txt")"
  fi
fi
# vdtable: direct VD patches against pre-tessellation, validated, then six
# rows (pre-tessellation and direct mode by Harada's method and strata's,
# each built once and rebuilt every frame), the ratios per method, a CSV;
# --switches adds Harada's method with each of strata's switches alone.
if "$CLI" vdtable "$SRC/assets/scenes/vd-mushroom.json" --backend cpu --res 64x36 --validate-res 64x36 \
     --frames 2 --warmup 0 --level 3 --csv "$TMP/vd.csv" >"$TMP/vd.txt" 2>"$TMP/e.txt"; then
  [ "$(grep -c '^| .*vd-mushroom.json | \(direct (harada)\|direct (strata)\|pre-tessellated\) | \(built once\|rebuilt every frame\) | [0-9]' "$TMP/vd.txt")" -eq 6 ] \
    && [ "$(grep -c "direct (\(harada\|strata\)): pre-tessellated / direct memory .*x as Harada's Table 1.1 counts it" "$TMP/vd.txt")" -eq 2 ] \
    && grep -q "validated first" "$TMP/vd.txt" \
    && [ "$(wc -l <"$TMP/vd.csv")" -eq 7 ] && pass "vdtable: six validated rows, the ratios per method and a CSV" \
    || fail "vdtable rows: $(cat "$TMP/vd.txt")"
else
  fail "vdtable on the cpu backend: $(cat "$TMP/e.txt")"
fi
if "$CLI" vdtable "$SRC/assets/scenes/vd-mushroom.json" --backend cpu --res 64x36 --validate-res 64x36 \
     --frames 1 --warmup 0 --level 3 --methods harada --switches >"$TMP/vd.txt" 2>"$TMP/e.txt" \
   && [ "$(grep -c '^| .* | direct (harada + vd\.[a-z_]*=[a-z-]*) | built once | [0-9]' "$TMP/vd.txt")" -eq 6 ] \
   && [ "$(grep -c '^| .* | direct (strata)' "$TMP/vd.txt")" -eq 0 ]; then
  pass "vdtable --switches: Harada's method with each of strata's switches alone (the CPU backend's six)"
else
  fail "vdtable --switches: $(cat "$TMP/e.txt") $(cat "$TMP/vd.txt")"
fi
# Instanced mode: Harada's one middle level (each VD mesh's BLAS holding its
# patch boxes under one top level) and strata's patches' own top level, each
# validated on the coverage scene of the VD instances alone (no triangle in
# the triangles' two levels: the pairs still walk the instances).
if "$CLI" vdtable "$SRC/assets/scenes/vd-mushroom.json" --backend cpu --res 64x36 --validate-res 64x36 \
     --frames 1 --warmup 0 --level 3 --methods 'harada+accel.mode=instanced,strata+accel.mode=instanced' \
     >"$TMP/vd.txt" 2>"$TMP/e.txt" \
   && [ "$(grep -c '| direct (\(harada\|strata\)+accel.mode=instanced) | .* | [0-9]' "$TMP/vd.txt")" -eq 4 ]; then
  pass "vdtable in instanced mode: both methods validated and timed"
else
  fail "vdtable in instanced mode: $(cat "$TMP/e.txt") $(cat "$TMP/vd.txt")"
fi
# A --methods entry's options on top, one value holding a '+'.
if "$CLI" vdtable "$SRC/assets/scenes/vd-mushroom.json" --backend cpu --res 64x36 --validate-res 64x36 \
     --frames 1 --warmup 0 --level 3 --methods 'strata+vd.lod_bias=+1+vd.leaf=box' >"$TMP/vd.txt" 2>"$TMP/e.txt" \
   && [ "$(grep -c '| direct (strata+vd.lod_bias=+1+vd.leaf=box) | .* | [0-9]' "$TMP/vd.txt")" -eq 2 ]; then
  pass "vdtable --methods: options on top of a method, a value with a '+'"
else
  fail "vdtable --methods with options: $(cat "$TMP/e.txt") $(cat "$TMP/vd.txt")"
fi
# Pre-tessellation too large for the memory (Harada's party needs 52 GB): rows
# that say so, validation at the finest level where it fits, direct timed.
if STRATA_HOST_MEMORY_LIMIT_MB=300 "$CLI" vdtable "$SRC/assets/scenes/vd-party.json" --backend cpu \
     --res 32x18 --validate-res 32x18 --frames 1 --warmup 0 >"$TMP/vd.txt" 2>"$TMP/e.txt" \
   && grep -q "validated at level 3, where pre-tessellation fits" "$TMP/vd.txt" \
   && [ "$(grep -c '| pre-tessellated | .* | does not fit: .*host memory' "$TMP/vd.txt")" -eq 2 ] \
   && [ "$(grep -c '| direct (\(harada\|strata\)) | .* | [0-9]' "$TMP/vd.txt")" -eq 4 ]; then
  pass "vdtable: pre-tessellation that does not fit is said, direct still validated and timed"
else
  fail "vdtable without room for pre-tessellation: $(cat "$TMP/e.txt") $(cat "$TMP/vd.txt")"
fi
if ! nvidia-smi -L >/dev/null 2>&1; then
  if "$CLI" vdtable "$SRC/assets/scenes/vd-mushroom.json" --csv "$TMP/v.csv" >/dev/null 2>"$TMP/e.txt"; then
    fail "vdtable without a GPU: exited 0"
  elif grep -q -- "--backend cpu" "$TMP/e.txt" && [ ! -e "$TMP/v.csv" ]; then
    pass "vdtable without a GPU says --backend cpu"
  else
    fail "vdtable without a GPU: $(cat "$TMP/e.txt")"
  fi
fi
for bad in "has no VD patches|$SRC/tests/data/cube_scene.json" "--res: expected WxH|$SRC/assets/scenes/vd-mushroom.json --res 12" \
           "option 'vd.leaf': expected one of triangles, box, got 'cube'|$SRC/assets/scenes/vd-mushroom.json --methods strata+vd.leaf=cube"; do
  text="${bad%%|*}"
  rm -f "$TMP/vdbad.csv"
  # shellcheck disable=SC2086
  if "$CLI" vdtable ${bad#*|} --backend cpu --csv "$TMP/vdbad.csv" >"$TMP/o.txt" 2>"$TMP/e.txt"; then
    fail "vdtable '$text': exited 0"
  elif grep -q -- "$text" "$TMP/e.txt" && [ ! -e "$TMP/vdbad.csv" ] && ! grep -q '^|' "$TMP/o.txt"; then
    pass "vdtable: $text, no table, no CSV"
  else
    fail "vdtable '$text': $(cat "$TMP/e.txt") $(cat "$TMP/o.txt")"
  fi
done
# --- outputs: all or nothing, devices written in place, Ctrl-C leaves nothing
CUBE="$SRC/tests/data/cube_scene.json"
rm -f "$TMP/both.png"
if "$CLI" render "$CUBE" --backend cpu --res 16x16 --out "$TMP/both.png" --timings "$TMP/nodir/t.csv" \
     >/dev/null 2>"$TMP/e.txt"; then
  fail "unwritable --timings: exited 0"
elif grep -q "nodir/t.csv" "$TMP/e.txt" && [ ! -e "$TMP/both.png" ] && ! ls "$TMP" | grep -q 'both.png.tmp'; then
  pass "unwritable --timings: an error naming it, and no image either"
else
  fail "unwritable --timings: $(cat "$TMP/e.txt"); $(ls "$TMP")"
fi
if [ -c /dev/null ] && "$CLI" render "$CUBE" --backend cpu --res 16x16 --out /dev/null >/dev/null 2>"$TMP/e.txt" \
   && [ -c /dev/null ]; then
  pass "--out /dev/null writes into the device"
else
  fail "--out /dev/null: $(cat "$TMP/e.txt")"
fi
if [ -c /dev/full ]; then
  if "$CLI" render "$CUBE" --backend cpu --res 16x16 --out /dev/full >/dev/null 2>"$TMP/e.txt"; then
    fail "--out /dev/full: exited 0"
  elif grep -q "/dev/full: cannot write: No space" "$TMP/e.txt" && [ -c /dev/full ]; then
    pass "--out /dev/full: no space, said, the device kept"
  else
    fail "--out /dev/full: $(cat "$TMP/e.txt")"
  fi
fi
mkfifo "$TMP/fifo.png"
if timeout 20 "$CLI" render "$CUBE" --backend cpu --res 16x16 --out "$TMP/fifo.png" >/dev/null 2>"$TMP/e.txt"; then
  fail "--out FIFO: exited 0"
elif grep -q "fifo.png: cannot write: it is a FIFO" "$TMP/e.txt"; then
  pass "--out FIFO: refused at once"
else
  fail "--out FIFO: $(cat "$TMP/e.txt")"
fi
# Ctrl-C during a long render: the outputs' temporaries (open from the start) go with it.
"$CLI" render "$CUBE" --backend cpu --res 512x512 --spp 4096 --out "$TMP/int.png" --timings "$TMP/int.csv" \
  >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do ls "$TMP" | grep -q 'int.png.tmp' && break; sleep 0.1; done
kill -INT "$pid"
wait "$pid"
rc=$?
if [ "$rc" -ne 0 ] && ! ls "$TMP" | grep -q 'int\.' ; then
  pass "SIGINT during a render leaves no file (exit $rc)"
else
  fail "SIGINT during a render: exit $rc, left $(ls "$TMP" | grep 'int\.' | tr '\n' ' ')"
fi

"$CLI" render --no-such-flag >/dev/null 2>&1
rc=$?
[ "$rc" -eq 2 ] && pass "a usage error exits 2" || fail "a usage error exits $rc"
out=$("$CLI" render --sppp 3 x.json 2>&1); rc=$?
[ "$rc" -eq 2 ] && grep -q "did you mean --spp?" <<<"$out" && pass "a mistyped option: did you mean --spp?" ||
  fail "a mistyped option: exit $rc, $out"
out=$("$CLI" rendr x.json 2>&1); rc=$?
[ "$rc" -eq 2 ] && grep -q "did you mean render?" <<<"$out" && pass "a mistyped subcommand: did you mean render?" ||
  fail "a mistyped subcommand: exit $rc, $out"
out=$("$CLI" render --zzzzzzzz x.json 2>&1)
grep -q "did you mean" <<<"$out" && fail "no suggestion expected for --zzzzzzzz: $out" || pass "nothing close: no suggestion"
"$CLI" render "$TMP/missing.json" --backend cpu >/dev/null 2>&1
rc=$?
[ "$rc" -eq 1 ] && pass "strata's own error exits 1" || fail "a missing scene exits $rc"
if "$CLI" --version | grep -Eq '^strata-cli [0-9]+\.[0-9]+ \((unknown commit|[0-9a-f]{7,}(\+dirty)?)\), built (with CUDA [0-9]+\.[0-9]+|without CUDA \(the CPU backend only\))$'; then
  pass "--version: the version, the commit and the CUDA it was built with"
else
  fail "--version: $("$CLI" --version 2>&1)"
fi
for sub in render bench validate soak kdtable vdtable sweep; do
  "$CLI" "$sub" --help >/dev/null && pass "$sub --help" || fail "$sub --help"
done

# --- sweep: scenes x --vary dimensions, each cell validated against brute
# force then timed (or refused with the options' reason); the metadata
# header; a Slurm job array simulated by its environment variables, the
# shards merged into CSV and JSON equal to the unsharded table's cells.
SW="$TMP/sweep"
mkdir -p "$SW"
SWEEP_ARGS=("$SRC/assets/scenes/cornell.json" "$SRC/assets/scenes/vd-mushroom.json" --backend cpu --res 32x24
  --frames 2 --warmup 0 --rays 400 --vary accel.builder=lbvh-karras,lbvh-skip,kdtree
  --vary accel.mode=flat,instanced --vary accel.traversal=stack,stackless)
if "$CLI" sweep "${SWEEP_ARGS[@]}" --out "$SW/all.csv" >"$SW/out.txt" 2>"$TMP/e.txt"; then
  ok=$(grep -c '^[0-9]*,[^,]*,[^,]*,[^,]*,[^,]*,cpu,ok,400/400,2,' "$SW/all.csv")
  refused=$(grep -c ',cpu,"refused: .*stackless' "$SW/all.csv")
  if [ "$ok" -eq 16 ] && [ "$refused" -eq 8 ] && grep -q '^# matrix: scenes 2 ' "$SW/all.csv" \
     && grep -q '^# strata-cli: ' "$SW/all.csv" && grep -q '^# date: ' "$SW/all.csv" \
     && grep -q '^cell,scene,accel.builder,accel.mode,accel.traversal,backend,status,validated,frames,.*,trace_min_ms,trace_median_ms,trace_p95_ms,trace_max_ms,' "$SW/all.csv"; then
    pass "sweep: 24 cells, 16 validated and timed, 8 refused by the options, metadata and per-stage statistics"
  else
    fail "sweep cells: ok $ok refused $refused $(head -c 2000 "$SW/all.csv")"
  fi
else
  fail "sweep: $(cat "$TMP/e.txt")"
fi
shards_ok=1
for i in 1 2 3 4 5; do  # a job array --array=1-5
  SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=5 \
    "$CLI" sweep "${SWEEP_ARGS[@]}" --out "$SW/s$i.csv" >/dev/null 2>"$TMP/e.txt" || shards_ok=0
done
if [ "$shards_ok" -eq 1 ] && grep -q '^# shard: 2/5' "$SW/s3.csv" \
   && [ "$(grep -c '^[0-9]' "$SW/s3.csv")" -eq 5 ] \
   && "$CLI" sweep --merge "$SW"/s1.csv "$SW"/s2.csv "$SW"/s3.csv "$SW"/s4.csv "$SW"/s5.csv --out "$SW/m.csv" >/dev/null \
   && "$CLI" sweep --merge "$SW"/s5.csv "$SW"/s4.csv "$SW"/s3.csv "$SW"/s2.csv "$SW"/s1.csv --out "$SW/m.json" >/dev/null \
   && diff <(grep '^[0-9]' "$SW/all.csv" | cut -d, -f1-8) <(grep '^[0-9]' "$SW/m.csv" | cut -d, -f1-8) >/dev/null \
   && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); c=d['cells']; assert [x['cell'] for x in c]==list(range(24)); assert d['meta']['merged']=='5 shards'; assert sum(x['status']=='ok' for x in c)==16; assert all(isinstance(x['total_median_ms'], float) for x in c if x['status']=='ok')" "$SW/m.json"; then
  pass "sweep: a Slurm array of 5 shards (SLURM_ARRAY_TASK_*), merged to CSV and JSON, the cells of the whole sweep"
else
  fail "sweep shards: $(cat "$TMP/e.txt")"
fi
# Values as the options take them (+0.5, 1.) stay strings in JSON unless JSON reads them as numbers.
if "$CLI" sweep "$SRC/assets/scenes/cornell.json" --backend cpu --res 16x16 --frames 1 --warmup 0 --rays 50 \
     --vary render.exposure=+0.5,1.,0.25 --out "$SW/e.json" >/dev/null 2>"$TMP/e.txt" \
   && python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['cells']; assert [x['render.exposure'] for x in c]==['+0.5','1.',0.25], c" "$SW/e.json"; then
  pass "sweep --out .json: valid JSON whatever the values' spelling"
else
  fail "sweep JSON values: $(cat "$TMP/e.txt")"
fi
# --gpus 3: three shards at once on this machine (one device each; here the
# CPU backend), merged into JSON, their files removed.
if "$CLI" sweep "${SWEEP_ARGS[@]}" --gpus 3 --out "$SW/g.json" >/dev/null 2>"$TMP/e.txt" \
   && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); c=d['cells']; assert [x['cell'] for x in c]==list(range(24)); assert d['meta']['merged']=='3 shards'; assert sum(x['status']=='ok' for x in c)==16" "$SW/g.json" \
   && [ -z "$(ls "$SW" | grep 'g.json.shard')" ] \
   && python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['meta']['command']; assert '--gpus 3' in c and '--shard' not in c, c" "$SW/g.json" \
   && ! "$CLI" sweep "${SWEEP_ARGS[@]}" --gpus 2 --shard 0/2 --out "$SW/g2.csv" 2>/dev/null; then
  pass "sweep --gpus 3: three local shards merged, their files removed; not with --shard"
else
  fail "sweep --gpus: $(cat "$TMP/e.txt")"
fi
if ! "$CLI" sweep --merge "$SW/s1.csv" "$SW/s3.csv" --out "$SW/bad.csv" 2>"$TMP/e.txt" \
   && grep -q 'cells 1, 6, 11, 16, 21, 3, 8, 13, 18, 23, 4, 9, 14, 19, 24\|are in no shard' "$TMP/e.txt" \
   && [ ! -e "$SW/bad.csv" ] \
   && ! "$CLI" sweep --merge "$SW/s1.csv" "$SW/s1.csv" --out "$SW/bad.csv" 2>/dev/null \
   && ! "$CLI" sweep "${SWEEP_ARGS[@]}" --out "$SW/x.txt" 2>"$TMP/e.txt" && grep -q 'expected a .csv or .json file' "$TMP/e.txt" \
   && ! "$CLI" sweep "${SWEEP_ARGS[@]}" --vary accel.builder=kd --out "$SW/x.csv" 2>/dev/null \
   && ! "$CLI" sweep "${SWEEP_ARGS[@]}" --shard 5/5 --out "$SW/x.csv" 2>"$TMP/e.txt" && grep -q 'shard 5 of 5' "$TMP/e.txt" \
   && [ ! -e "$SW/x.csv" ] && [ ! -e "$SW/x.txt" ]; then
  pass "sweep: missing or doubled shards, a bad extension, value or shard are refused, no file left"
else
  fail "sweep refusals: $(cat "$TMP/e.txt")"
fi

# --- scripts/plot.py: figures from a timing CSV (a marker where an option
# changed), a sweep CSV and a kdtable CSV; the extension names the format; bad input is
# named and leaves no file. Debian's python3 with python3-matplotlib
# (scripts/setup.sh installs it).
PY=python3
/usr/bin/python3 -c "import matplotlib" 2>/dev/null && PY=/usr/bin/python3
PLOT="$SRC/scripts/plot.py"
if ! "$PY" -c "import matplotlib" 2>/dev/null; then
  fail "plot.py: no matplotlib for $PY (scripts/setup.sh installs python3-matplotlib)"
elif "$CLI" bench "$SRC/tests/data/cube_scene.json" --backend cpu --res 32x24 --spp 1 --frames 6 --warmup 1 \
       --csv "$TMP/bench.csv" >/dev/null 2>&1; then
  "$PY" - "$TMP/bench.csv" "$TMP/changed.csv" <<'PYEOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
i = rows[0].index("accel.builder")
for r in rows[4:]:
    r[i] = "lbvh-apetrei"
csv.writer(open(sys.argv[2], "w", newline="")).writerows(rows)
PYEOF
  out=$("$PY" "$PLOT" "$TMP/changed.csv" -o "$TMP/fig.png" 2>&1)
  head -c 8 "$TMP/fig.png" 2>/dev/null | grep -q PNG && grep -q "timings, 6 rows" <<<"$out" &&
    pass "plot.py: a timing CSV becomes a PNG" || fail "plot.py timing CSV: $out"
  printf 'scene,variant,build_ms,kernel_ms,calls,kernels,r_ms,t_ms,validation\ns.json,Original,9.1,6.5,775,870,2.7,12,ok\ns.json,All,6.4,-1,305,306,2.8,9.9,ok\n' >"$TMP/kd.csv"
  "$PY" "$PLOT" "$TMP/kd.csv" -o "$TMP/kd.svg" >/dev/null 2>&1 && grep -q "<svg" "$TMP/kd.svg" &&
    pass "plot.py: a kdtable CSV becomes an SVG" || fail "plot.py kdtable CSV"
  "$PY" "$PLOT" "$TMP/kd.csv" -o "$TMP/kd.pdf" >/dev/null 2>&1; rc=$?
  [ "$rc" -eq 2 ] && [ ! -e "$TMP/kd.pdf" ] && pass "plot.py: an unknown extension is a usage error" || fail "plot.py .pdf: exit $rc"
  printf 'scene,variant,build_ms,kernel_ms,calls,kernels,r_ms,t_ms,validation\ns.json,All,fast,1,1,1,1,1,ok\n' >"$TMP/bad.csv"
  out=$("$PY" "$PLOT" "$TMP/bad.csv" -o "$TMP/bad.png" 2>&1); rc=$?
  [ "$rc" -eq 1 ] && grep -q "bad.csv:2: column build_ms: 'fast' is not a number" <<<"$out" && [ ! -e "$TMP/bad.png" ] &&
    ! ls "$TMP" | grep -q "tmp-" && pass "plot.py: a bad value is named with its line, no file left" ||
    fail "plot.py bad value: exit $rc, $out"
  # A sweep (the merged table above): one bar per validated cell, the refused left out and counted.
  out=$("$PY" "$PLOT" "$SW/m.csv" -o "$TMP/sweep.png" 2>&1)
  head -c 8 "$TMP/sweep.png" 2>/dev/null | grep -q PNG && grep -q "sweep, 24 rows" <<<"$out" &&
    pass "plot.py: a sweep CSV (metadata lines first) becomes a PNG" || fail "plot.py sweep CSV: $out"
  "$PY" "$PLOT" "$SW/m.csv" -o "$TMP/bt.svg" --kind build-trace >/dev/null 2>&1 && grep -q "<svg" "$TMP/bt.svg" &&
    "$PY" "$PLOT" "$SW/m.csv" -o "$TMP/mr.png" --kind mrays >/dev/null 2>&1 && head -c 8 "$TMP/mr.png" | grep -q PNG &&
    ! "$PY" "$PLOT" "$TMP/kd.csv" -o "$TMP/kd2.png" --kind mrays 2>/dev/null && [ ! -e "$TMP/kd2.png" ] &&
    pass "plot.py --kind build-trace and mrays for a sweep (not for other files)" || fail "plot.py --kind"
  out=$("$PY" "$PLOT" "$SW/m.csv" -o "$TMP/sweep2.png" --stages trace,nope 2>&1); rc=$?
  [ "$rc" -eq 1 ] && grep -q "has no stage 'nope'" <<<"$out" && [ ! -e "$TMP/sweep2.png" ] &&
    pass "plot.py: a sweep's unknown stage is named" || fail "plot.py sweep --stages: exit $rc, $out"
else
  fail "bench --csv for plot.py"
fi

# --- glTF meshes: the Khronos samples of Debian's assimp-testmodels (installed
# by scripts/setup.sh), when present: the demo scene's structures agree with
# brute force, and its baked skin moves between frames
GLTF2=/usr/share/assimp/models/glTF2
if [ -d "$GLTF2" ]; then
  if "$CLI" validate "$SRC/assets/scenes/gltf-engine.json" --backend cpu --rays 300 >"$TMP/gv.txt" 2>&1 \
     && grep -q "all structures agree with the reference" "$TMP/gv.txt"; then
    pass "validate: a scene of glTF files (hierarchy, skin, morph targets)"
  else
    fail "validate gltf-engine: $(tail -5 "$TMP/gv.txt")"
  fi
  printf '{"camera": {"position": [0, 1, 4], "target": [0, 1, 0]}, "meshes": [{"name": "s", "gltf": "%s/simple_skin/simple_skin.gltf", "fps": 10}], "lights": {"environment": {"color": [1, 1, 1]}}}\n' \
    "$GLTF2" >"$TMP/skin.json"
  if "$CLI" render "$TMP/skin.json" --backend cpu --res 24x24 --spp 1 --frames 16 --out "$TMP/skin_%02d.pfm" \
       >/dev/null 2>"$TMP/err.txt" && ! cmp -s "$TMP/skin_00.pfm" "$TMP/skin_15.pfm"; then
    pass "render: a skinned glTF mesh moves between frames"
  else
    fail "render skinned glTF: $(cat "$TMP/err.txt")"
  fi
fi
printf '{"meshes": [{"name": "g", "gltf": "%s/nope.glb"}]}\n' "$TMP" >"$TMP/nogltf.json"
expect_error "missing glTF file" "meshes\[0\].gltf: $TMP/nope.glb: cannot open the glTF file" render "$TMP/nogltf.json" --backend cpu

echo "$fails failure(s)"
[ "$fails" -eq 0 ]
