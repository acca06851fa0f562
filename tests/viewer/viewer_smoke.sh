#!/usr/bin/env bash
# Viewer smoke test under Xvfb (Mesa; CPU backend where there is no GPU):
# open the default scene, render a few frames with every option changed
# through --set, write a screenshot, a window screenshot and a recording, exit
# 0; check the PNGs' sizes and content and the CSV's rows and columns.
# Usage: viewer_smoke.sh STRATA SOURCE_DIR
#
# STRATA_VIEWER_PRELOAD (set by tests/CMakeLists.txt in the sanitized tree):
# a library the viewer runs with in LD_PRELOAD, Mesa's GL driver, so that it
# stays loaded until exit. Mesa unloads the driver when the window closes;
# LeakSanitizer, which checks at exit, would then report each block that only
# the driver's own variables pointed to, with stacks it cannot name.
set -uo pipefail
VIEWER="$1"
SRC="$2"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
fails=0
pass() { echo "ok   $1"; }
fail() { echo "FAIL $1"; fails=$((fails + 1)); }
if ! command -v xvfb-run >/dev/null; then
  echo "xvfb-run not installed (scripts/setup.sh installs xvfb)"; exit 1
fi
PRELOAD=()
if [ -n "${STRATA_VIEWER_PRELOAD:-}" ]; then
  [ -f "$STRATA_VIEWER_PRELOAD" ] || { echo "STRATA_VIEWER_PRELOAD: no file $STRATA_VIEWER_PRELOAD"; exit 1; }
  PRELOAD=(env LD_PRELOAD="$STRATA_VIEWER_PRELOAD")
fi
# --version needs no display and no scene.
if "$VIEWER" --version | grep -Eq '^strata [0-9]+\.[0-9]+ \('; then
  pass "--version"
else
  fail "--version: $("$VIEWER" --version 2>&1)"
fi
FRAMES=4
run() {  # name, extra args...
  local name="$1"
  shift
  xvfb-run -a -s "-screen 0 1024x768x24" "${PRELOAD[@]}" "$VIEWER" "$SRC/assets/scenes/default.json" --backend cpu \
    --width 320 --height 180 --frames "$FRAMES" --exit --fixed-step "$@" >"$TMP/$name.log" 2>&1
}

if run base --record "$TMP/rec.csv" --screenshot "$TMP/shot.png" --screenshot-ui "$TMP/ui.png" --linear \
     --set render.spp=2 --set render.bounces=2 --set render.nee=false --set render.rr_start=1 \
     --set render.exposure=0.5 --set render.tonemap=reinhard --set render.seed=7 --set render.threads=2 \
     --set accel.builder=cpu-sah --set accel.morton_bits=30 --set accel.mode=flat \
     --set animation.fps=24 --set animation.start_time=0.5 --set animation.play=true; then
  pass "viewer runs $FRAMES frames with every option set and exits 0"
else
  fail "viewer run: $(tail -5 "$TMP/base.log")"
fi
python3 "$SRC/tests/viewer/check_png.py" "$TMP/shot.png" 320 180 && pass "screenshot 320x180, not uniform" || fail "screenshot"
head -2 "$TMP/shot.pfm" 2>/dev/null | tr '\n' ' ' | grep -q "^PF 320 180" && pass "--linear writes shot.pfm" || fail "--linear PFM"
python3 "$SRC/tests/viewer/check_png.py" "$TMP/ui.png" 320 180 && pass "window screenshot 320x180, not uniform" || fail "window screenshot"
if [ -f "$TMP/rec.csv" ]; then
  rows=$(($(wc -l <"$TMP/rec.csv") - 1))
  [ "$rows" -eq "$FRAMES" ] && pass "recording has one row per frame ($rows)" || fail "recording rows: $rows"
  header=$(head -1 "$TMP/rec.csv")
  for col in frame scene_time render.spp accel.builder animate_ms build_ms trace_ms display_ms total_ms launches rays; do
    echo "$header" | tr ',' '\n' | grep -qx "$col" || fail "recording lacks column $col"
  done
  ncols=$(echo "$header" | tr ',' '\n' | wc -l)
  bad=$(awk -F, -v n="$ncols" 'NR > 1 && NF != n' "$TMP/rec.csv" | wc -l)
  [ "$bad" -eq 0 ] && pass "every row has the header's $ncols columns" || fail "$bad rows with a wrong column count"
  awk -F, 'NR == 2 { exit !($0 ~ /cpu-sah/ && $0 ~ /reinhard/) }' "$TMP/rec.csv" && pass "rows carry the options set" || fail "options not in the rows"
  ls "$TMP" | grep -q "rec.csv.tmp" && fail "temporary recording left behind" || pass "no temporary file left"
else
  fail "no recording written"
fi

# A VD scene in each vd.mode (the panel's "VD patches" section rebuilds on a change).
for mode in direct pretess off; do
  if xvfb-run -a -s "-screen 0 1024x768x24" "${PRELOAD[@]}" "$VIEWER" "$SRC/assets/scenes/vd-mushroom.json" --backend cpu \
       --width 160 --height 120 --frames 2 --exit --fixed-step --set vd.mode=$mode --set vd.max_level=3 \
       --screenshot "$TMP/vd-$mode.png" >"$TMP/vd.log" 2>&1 \
     && python3 "$SRC/tests/viewer/check_png.py" "$TMP/vd-$mode.png" 160 120; then
    pass "VD scene with vd.mode=$mode"
  else
    fail "VD scene with vd.mode=$mode: $(tail -3 "$TMP/vd.log")"
  fi
done

# Live switching in one session, as the panel does it: direct -> pretess ->
# off -> direct -> a coarser level. The recording stops at the first vd.*
# change by design (its columns and geometry change): one row shows that the
# change was applied at frame 1.
if xvfb-run -a -s "-screen 0 1024x768x24" "${PRELOAD[@]}" "$VIEWER" "$SRC/assets/scenes/vd-mushroom.json" --backend cpu \
     --width 160 --height 120 --frames 6 --exit --fixed-step --set vd.max_level=3 --record "$TMP/vd-live.csv" \
     --at 1:vd.mode=pretess --at 2:vd.mode=off --at 3:vd.mode=direct --at 4:vd.max_level=2 \
     --screenshot-ui "$TMP/vd-live.png" >"$TMP/vd-live.log" 2>&1 \
   && python3 "$SRC/tests/viewer/check_png.py" "$TMP/vd-live.png" 160 120 \
   && [ "$(($(wc -l <"$TMP/vd-live.csv") - 1))" -eq 1 ]; then
  pass "VD modes switched live in one session"
else
  fail "VD live switching: $(tail -3 "$TMP/vd-live.log")"
fi

# Key bindings come from the config: a rebound config runs; an unknown key
# name is one message naming the config file and the action.
sed 's/"forward": "W"/"forward": "I"/' "$SRC/config/default.json" >"$TMP/keys.json"
run keys --config "$TMP/keys.json" && pass "config with rebound keys runs" || fail "rebound keys: $(tail -3 "$TMP/keys.log")"
sed 's/"record": "F9"/"record": "F99"/' "$SRC/config/default.json" >"$TMP/badkeys.json"
if run badkeys --config "$TMP/badkeys.json"; then
  fail "unknown key name: exited 0"
else
  grep -q "badkeys.json: keys.record: unknown key 'F99'" "$TMP/badkeys.log" && pass "unknown key name: clear message" \
    || fail "unknown key message: $(cat "$TMP/badkeys.log")"
fi

# Key taps (--press: press and release through the window's key callback
# within one frame; the CPU backend's frames are slow): F9 starts a
# recording, F12 and Shift+F12 each write their screenshot, Space pauses
# scene time (the recording's last rows keep one scene time).
mkdir -p "$TMP/keys_out"
FRAMES=7 run taps --output-dir "$TMP/keys_out" --press 1:F9 --press 2:F12 --press 2:SHIFT+F12 --press 3:SPACE
if ls "$TMP/keys_out"/strata-2*.png >/dev/null 2>&1 && ls "$TMP/keys_out"/strata-ui-*.png >/dev/null 2>&1 \
   && python3 - "$TMP"/keys_out/strata-*.csv <<'PY'; then
import csv, sys
t = [float(r["scene_time"]) for r in csv.DictReader(open(sys.argv[1]))]
assert len(t) >= 5, t
step = 1 / 30                                # --fixed-step: one 1/fps step per frame rendered
assert abs(t[1] - t[0] - step) < 1e-4, t     # playing when the recording started
assert t[-1] == t[-2] == t[-3], t            # paused by the tap
PY
  pass "key taps within one frame each register once (F9, F12, Shift+F12, Space)"
else
  fail "key taps: $(ls "$TMP/keys_out"; cat "$TMP/taps.log")"
fi
# A screenshot or recording that cannot be written (its path is longer than
# PATH_MAX, even for root) is said and the viewer runs on to its last frame.
deep="$TMP/w"
while [ ${#deep} -lt 3870 ]; do deep="$deep/$(printf 'd%.0s' {1..199})"; done
deep="$deep/$(printf 'e%.0s' $(seq 1 $((4080 - ${#deep} - 1))))"
mkdir -p "$deep"
if run unwritable-taps --output-dir "$deep" --press 1:F12 --press 2:F9 \
   && grep -q "not saved: .*File name too long" "$TMP/unwritable-taps.log" \
   && grep -q "; not recording" "$TMP/unwritable-taps.log"; then
  pass "a failed F12 or F9 write is said and the viewer keeps running"
else
  fail "failed writes: $(tail -4 "$TMP/unwritable-taps.log")"
fi

# Config and window flags: a typo, a wrong type, a missing --config file and
# out-of-range flags are one message each (file, line or field) and exit non-zero.
expect_viewer_error() {  # name, expected text, args...
  local name="$1" want="$2"
  shift 2
  if run "$name" "$@"; then
    fail "$name: exited 0"
  elif grep -qF -- "$want" "$TMP/$name.log"; then
    pass "$name: clear message"
  else
    fail "$name: $(tail -3 "$TMP/$name.log")"
  fi
}
# An option in the config is checked as in a scene file: an unknown key or a
# bad value names the config file and the option.
sed 's/"render.spp": 1/"render.spq": 1/' "$SRC/config/default.json" >"$TMP/badopt.json"
expect_viewer_error config-unknown-option "badopt.json: options.render.spq: unknown option" --config "$TMP/badopt.json"
sed 's/"render.spp": 1/"view.heatmap": "nodez"/' "$SRC/config/default.json" >"$TMP/badval.json"
expect_viewer_error config-bad-value "badval.json: options.view.heatmap: option 'view.heatmap': expected one of" \
  --config "$TMP/badval.json"
# A screenshot asked for on the command line that cannot be written is an
# error naming it (the keys' and the panel's show it in the panel instead).
expect_viewer_error unwritable-shot "$TMP/no/such/dir/shot.png" --screenshot "$TMP/no/such/dir/shot.png"
# The output folder (--output-dir, the config's output.folder): relative
# --record and --screenshot paths go there; one that is not a folder is named.
mkdir -p "$TMP/out" "$TMP/cfgout"
if run outdir --output-dir "$TMP/out" --record rec.csv --screenshot shot.png && [ -s "$TMP/out/rec.csv" ] &&
   python3 "$SRC/tests/viewer/check_png.py" "$TMP/out/shot.png" 320 180; then
  pass "--output-dir: the recording and the screenshot are written there"
else
  fail "--output-dir: $(ls "$TMP/out") $(tail -3 "$TMP/outdir.log")"
fi
sed "s|\"folder\": \"\"|\"folder\": \"$TMP/cfgout\"|" "$SRC/config/default.json" >"$TMP/out.json"
run cfgout --config "$TMP/out.json" --screenshot shot.png && [ -s "$TMP/cfgout/shot.png" ] &&
  pass "config output.folder: the screenshot is written there" || fail "output.folder: $(tail -3 "$TMP/cfgout.log")"
expect_viewer_error outdir-missing "--output-dir: '$TMP/no/such/dir' is not a folder" --output-dir "$TMP/no/such/dir"
# A recording keeps its rows when the viewer is killed (each row is written
# at once; the signal moves the temporary into place): SIGTERM mid-run.
xvfb-run -a -s "-screen 0 1024x768x24" "${PRELOAD[@]}" "$VIEWER" "$SRC/assets/scenes/default.json" --backend cpu \
  --width 128 --height 72 --frames 100000 --exit --fixed-step --record "$TMP/killed.csv" >"$TMP/killed.log" 2>&1 &
xpid=$!
for _ in $(seq 1 150); do
  t=$(ls "$TMP"/killed.csv.tmp-* 2>/dev/null | head -1)
  [ -n "$t" ] && [ "$(wc -l <"$t")" -ge 3 ] && break
  sleep 0.2
done
vpid=$(pgrep -n -f "^$VIEWER .*killed.csv")
[ -n "$vpid" ] && kill -TERM "$vpid"
wait "$xpid"
if [ -s "$TMP/killed.csv" ] && [ "$(wc -l <"$TMP/killed.csv")" -ge 3 ] && ! ls "$TMP" | grep -q "killed.csv.tmp" &&
   head -1 "$TMP/killed.csv" | grep -q "^frame," && [ -z "$(tail -c 1 "$TMP/killed.csv")" ]; then
  pass "killed mid-run: the recording keeps its $(($(wc -l <"$TMP/killed.csv") - 1)) whole rows"
else
  fail "killed mid-run: $(ls "$TMP" | grep killed) $(tail -3 "$TMP/killed.log")"
fi
sed 's/"window"/"windw"/' "$SRC/config/default.json" >"$TMP/typo.json"
expect_viewer_error bad-press "--press '1:F99': unknown key 'F99'" --press 1:F99
expect_viewer_error config-typo "typo.json: unknown key 'windw'" --config "$TMP/typo.json"
sed 's/"width": 1600/"width": "wide"/' "$SRC/config/default.json" >"$TMP/type.json"
expect_viewer_error config-type "type.json: window.width: expected a number, got string" --config "$TMP/type.json"
printf '{"window": {"width": 1600,}}\n' >"$TMP/syntax.json"
expect_viewer_error config-syntax "syntax.json:1:" --config "$TMP/syntax.json"
expect_viewer_error config-missing "nothere.json: cannot open config file" --config "$TMP/nothere.json"
expect_viewer_error config-fifo "cannot read config file: it is a device" --config /dev/zero
# (checked before any window: no X server needed)
if "${PRELOAD[@]}" "$VIEWER" "$SRC/assets/scenes/default.json" --width 100000 >"$TMP/width.log" 2>&1; then
  fail "width-flag: exited 0"
else
  grep -qF -- "--width: 100000 is out of range (64-16384)" "$TMP/width.log" && pass "width-flag: clear message" \
    || fail "width-flag: $(tail -3 "$TMP/width.log")"
fi
expect_viewer_error scale-flag "--scale: 1e+30 is out of range" --scale 1e30

# No display: a clear message pointing to strata-cli, non-zero exit.
if env -u DISPLAY -u WAYLAND_DISPLAY "${PRELOAD[@]}" "$VIEWER" "$SRC/assets/scenes/default.json" --backend cpu >"$TMP/nodisp.log" 2>&1; then
  fail "no display: exited 0"
else
  grep -q "strata-cli render" "$TMP/nodisp.log" && pass "no display: points to strata-cli render" || fail "no display message: $(cat "$TMP/nodisp.log")"
fi
# A scene that fails to load: one message naming the file.
if run badscene --set render.nope=1; then fail "unknown option accepted"; else
  grep -q "render.nope" "$TMP/badscene.log" && pass "unknown --set key named" || fail "bad --set: $(tail -2 "$TMP/badscene.log")"
fi
# A scene that does not load still opens the window with the whole message
# (and a field to load another file); with --exit it then exits non-zero.
printf '{"meshes": [{"name": "a", "obj": "missing.obj"}]}\n' >"$TMP/missing_obj.json"
if xvfb-run -a -s "-screen 0 1024x768x24" "${PRELOAD[@]}" "$VIEWER" "$TMP/missing_obj.json" --backend cpu \
     --width 480 --height 200 --frames 3 --exit --screenshot-ui "$TMP/noscene.png" >"$TMP/noscene.log" 2>&1; then
  fail "bad scene: exited 0"
elif grep -q "missing.obj: cannot open OBJ file" "$TMP/noscene.log" \
     && python3 "$SRC/tests/viewer/check_png.py" "$TMP/noscene.png" 480 200; then
  pass "bad scene: the window opens with the message, then exits 1"
else
  fail "bad scene window: $(tail -3 "$TMP/noscene.log")"
fi
# Scripted live toggles (--at FRAME:key=value): each recorded row carries the
# options its frame was rendered with (records arrive a frame late).
FRAMES=6
if run at --record "$TMP/at.csv" --set accel.builder=lbvh-karras --at 2:accel.builder=lbvh-skip \
     --at 4:render.bounces=1 --at 4:accel.traversal=stackless; then
  python3 - "$TMP/at.csv" <<'PY' && pass "--at changes options live at their frames, rows carry them" || fail "--at rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
want = [("lbvh-karras", None)] * 2 + [("lbvh-skip", None)] * 2 + [("lbvh-skip", "1")] * 2
assert len(rows) == 6, len(rows)
for r, (b, bounces) in zip(rows, want):
    assert r["accel.builder"] == b, (r["frame"], r["accel.builder"])
    assert bounces is None or r["render.bounces"] == bounces, (r["frame"], r["render.bounces"])
    assert bounces is None or r["accel.traversal"] == "stackless"
assert rows[0]["render.bounces"] != "1"
PY
else
  fail "--at run: $(tail -3 "$TMP/at.log")"
fi
if run badat --at 3:accel.builder=octree; then fail "--at with a bad value accepted"; else
  grep -q -- "--at '3:accel.builder=octree'" "$TMP/badat.log" && pass "--at with a bad value: message names the entry" \
    || fail "bad --at message: $(tail -2 "$TMP/badat.log")"
fi
echo "$fails failure(s)"
[ "$fails" -eq 0 ]
