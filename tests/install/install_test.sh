#!/usr/bin/env bash
# cmake --install of a build into a scratch prefix: PREFIX/bin holds strata
# and strata-cli, PREFIX/share/strata the shaders and the default config, and
# the installed viewer reports (--version) the ones beside it; the installed
# CLI renders. Usage: install_test.sh BUILD_DIR
set -u
BUILD="$(cd "${1:?usage: install_test.sh BUILD_DIR}" && pwd)"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
fails=0
pass() { echo "ok   $1"; }
fail() { echo "FAIL $1"; fails=$((fails + 1)); }
P="$TMP/prefix"
if cmake --install "$BUILD" --prefix "$P" >"$TMP/install.log" 2>&1; then
  pass "cmake --install into a scratch prefix"
else
  fail "cmake --install: $(tail -3 "$TMP/install.log")"
fi
for f in bin/strata bin/strata-cli share/strata/config/default.json share/strata/shaders/display.vert; do
  [ -e "$P/$f" ] && pass "installed $f" || fail "missing $f"
done
# From another folder, so the working directory's shaders/ cannot be what is found.
cd "$TMP"
v="$("$P/bin/strata" --version 2>&1)"
if grep -q "^shaders: $P/share/strata/shaders$" <<<"$v" && grep -q "^config: $P/share/strata/config/default.json$" <<<"$v"; then
  pass "the installed viewer uses the shaders and config beside it"
else
  fail "installed viewer's paths: $v"
fi
SCENE="$HERE/../data/cube_scene.json"
if "$P/bin/strata-cli" render "$SCENE" --backend cpu --res 16x16 --out "$TMP/cube.png" >/dev/null 2>&1 && [ -s "$TMP/cube.png" ]; then
  pass "the installed strata-cli renders"
else
  fail "installed strata-cli render"
fi
echo "$fails failure(s)"
[ "$fails" -eq 0 ]
