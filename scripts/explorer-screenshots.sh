#!/usr/bin/env bash
# The explorer screenshots of results/explorer/ (README "Explorer"):
#   scripts/explorer-screenshots.sh [OUT_DIR]   (default results/explorer)
# Release build (or the binary HUNTSOLVE_BIN names, e.g. target/debug/huntsolve:
# then nothing is built); solves kaooa (0.1 s), cows-leopards-mogol --max-prey 4
# (about 20 s in a release build, 215 MB) and caikaboroda and caikaboroda-hostile
# --material 3,0 (about 10 s each) into a temporary directory, serves them, and
# photographs the pages in headless Chromium: at 1280x800 (the desktop), the
# `-phone` ones at 390x844, the `-editor` one with the position editor open.
# Needs chromium and tests/browser/node_modules (scripts/browser-tests.sh
# installs both).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-results/explorer}"
mkdir -p "$out"
if [ -n "${HUNTSOLVE_BIN:-}" ]; then
  bin="$HUNTSOLVE_BIN"
else
  cargo build --release --quiet --bin huntsolve
  bin=target/release/huntsolve
fi
tmp=$(mktemp -d -t huntsolve-shots.XXXXXX)
server=""
cleanup() {
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then kill "$server"; wait "$server" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
"$bin" solve kaooa --out "$tmp/tables/kaooa" >/dev/null 2>&1
"$bin" solve cows-leopards-mogol --max-prey 4 --threads 1 --out "$tmp/tables/cows-leopards-mogol-p4" >/dev/null 2>&1
"$bin" solve caikaboroda --material 3,0 --threads 1 --out "$tmp/tables/caikaboroda-k3" >/dev/null 2>&1
"$bin" solve caikaboroda-hostile --material 3,0 --threads 1 --out "$tmp/tables/caikaboroda-hostile-k3" >/dev/null 2>&1
"$bin" serve --tables "$tmp/tables" --port 0 >"$tmp/server.log" 2>&1 &
server=$!
url=""
for _ in $(seq 1 100); do
  url=$(grep -o 'http://[^ ]*' "$tmp/server.log" || true)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { cat "$tmp/server.log"; exit 1; }
enc() { python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$1"; }
mogol='H.....H..........P....P.P.P........../h0p0c20/h'
caika='........./........./........./........./........./........./........./..A....../.A.KA.... a'
kaooa="?rules=kaooa&root=start&moves=$(enc 't1 t0 i1 t0-i4 i2 i4-i3 t3')&ply=7"
caikaq="?rules=caikaboroda&position=$(enc "$caika")&compare=caikaboroda-hostile"
timeout 600 node tests/browser/screenshots.mjs "$url" "$(cd "$out" && pwd)" \
  kaooa "$kaooa" \
  kaooa-phone "$kaooa" \
  kaooa-compare "?rules=kaooa&root=start&moves=$(enc 't1 t0')&ply=2&compare=kaooa-6" \
  kaooa-editor "$kaooa" \
  bagh-chal "?rules=bagh-chal&root=start&moves=$(enc 'c3 a5-b4 b2')&ply=3" \
  seed-c-mogol "?rules=cows-leopards-mogol&position=$(enc "$mogol")" \
  seed-c-mogol-phone "?rules=cows-leopards-mogol&position=$(enc "$mogol")" \
  caikaboroda "$caikaq" \
  caikaboroda-phone "$caikaq"
