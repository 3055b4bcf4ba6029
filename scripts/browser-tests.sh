#!/usr/bin/env bash
# Browser tests of `huntsolve serve` in headless Chromium (Debian's package,
# driven by playwright-core from npm; no browser download).
#
#   scripts/browser-tests.sh [SCREENSHOT_DIR]
#
# Installs chromium and the npm packages when missing, builds the binary (in
# $CARGO_TARGET_DIR when set), solves
# the small tables the tests need into a temporary directory (kaooa and kaooa
# with compulsory capture: 0.1 s each, caikaboroda material 2,0: under a
# second), starts the server on a free port, runs tests/browser/explorer.test.mjs, and always stops the server. With
# SCREENSHOT_DIR, the tests also save their screenshots there. Bounded in time:
# every step has a timeout. The test file reads two variables from the
# environment: ONLY=REGEX runs the tests whose names match, EXPLORER_ASSETS=DIR
# serves the page's files from DIR (e.g. assets/explorer while editing it)
# instead of the copy embedded in the binary.
set -euo pipefail
cd "$(dirname "$0")/.."
shots="${1:-}"

need_apt=()
command -v chromium >/dev/null || need_apt+=(chromium)
command -v node >/dev/null || need_apt+=(nodejs)
command -v npm >/dev/null || need_apt+=(npm)
if ((${#need_apt[@]})); then
  echo "browser-tests: installing ${need_apt[*]} (apt)"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  timeout 600 "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive timeout 900 "${sudo_cmd[@]}" apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
if [ ! -d tests/browser/node_modules/playwright-core ]; then
  echo "browser-tests: npm ci (playwright-core, pinned in tests/browser/package-lock.json)"
  (cd tests/browser && timeout 300 npm ci --no-audit --no-fund --loglevel=error)
fi

timeout 1800 cargo build --quiet --bin huntsolve
bin="${CARGO_TARGET_DIR:-target}/debug/huntsolve"

tmp=$(mktemp -d -t huntsolve-browser.XXXXXX)
server=""
cleanup() {
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

timeout 120 "$bin" solve kaooa --out "$tmp/tables/kaooa" >/dev/null 2>&1
timeout 120 "$bin" solve kaooa,capture_compulsory=true --out "$tmp/tables/kaooa-compulsory" >/dev/null 2>&1
timeout 300 "$bin" solve caikaboroda --material 2,0 --threads 1 --out "$tmp/tables/caikaboroda-k2" >/dev/null 2>&1

"$bin" serve --tables "$tmp/tables" --port 0 --search-time 0.5 >"$tmp/server.log" 2>&1 &
server=$!
url=""
for _ in $(seq 1 100); do
  url=$(grep -o 'http://[^ ]*' "$tmp/server.log" || true)
  [ -n "$url" ] && break
  kill -0 "$server" 2>/dev/null || { cat "$tmp/server.log"; echo "browser-tests: the server did not start"; exit 1; }
  sleep 0.1
done
[ -n "$url" ] || { cat "$tmp/server.log"; echo "browser-tests: no URL from the server"; exit 1; }
echo "browser-tests: server at $url"

[ -z "$shots" ] || mkdir -p "$shots"
timeout 300 node tests/browser/explorer.test.mjs "$url" ${shots:+"$(cd "$shots" && pwd)"}
