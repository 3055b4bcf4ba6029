#!/usr/bin/env bash
# Latency of `huntsolve serve` for table positions under 50 concurrent requests:
#   scripts/explorer-latency.sh [SECONDS] [CONNECTIONS]   (default 10 s per table set, 50)
#   BIN=path/to/huntsolve BUILD=label scripts/explorer-latency.sh ...   (measure that binary instead)
# Release build (in $CARGO_TARGET_DIR when set); solves kaooa and cows-leopards-mogol --max-prey 4 into a temporary
# directory, serves them, collects 500 table positions of each by a seeded random
# walk over the API, then runs wrk (Debian package `wrk`) with CONNECTIONS clients for
# SECONDS per set, each asking the next position as soon as it has its answer (a
# closed loop: CONNECTIONS requests in flight; the server closes every connection
# after its answer, so each request is a new TCP connection). Prints the build
# (git commit) and the load next to each run.
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-10}"
conns="${2:-50}"
command -v wrk >/dev/null || { echo "needs wrk (apt-get install wrk)"; exit 2; }
if [ -n "${BIN:-}" ]; then
  bin=$BIN
else
  cargo build --release --quiet --bin huntsolve
  bin="${CARGO_TARGET_DIR:-target}/release/huntsolve"
fi
tmp=$(mktemp -d -t huntsolve-latency.XXXXXX)
server=""
cleanup() {
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then kill "$server"; wait "$server" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
"$bin" solve kaooa --out "$tmp/tables/kaooa" >/dev/null 2>&1
"$bin" solve cows-leopards-mogol --max-prey 4 --threads 1 --out "$tmp/tables/cows-leopards-mogol-p4" >/dev/null 2>&1
"$bin" serve --tables "$tmp/tables" --port 0 >"$tmp/server.log" 2>&1 &
server=$!
url=""
for _ in $(seq 1 100); do
  url=$(grep -o 'http://[^ ]*' "$tmp/server.log" || true)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { cat "$tmp/server.log"; exit 1; }

walk() { # rules start-position seed -> request paths of table positions, one a line
  python3 - "$url" "$1" "$2" "$3" <<'PY'
import json, random, sys, urllib.parse, urllib.request
url, rules, start, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
rng, pos, out = random.Random(seed), start, []
while len(out) < 500:
    q = urllib.parse.urlencode({'rules': rules, 'position': pos})
    a = json.load(urllib.request.urlopen(f'{url}api/position?{q}'))
    if a['source'] == 'table' and a['moves'] and all(m['source'] == 'table' for m in a['moves']):
        out.append('/api/position?' + q)
        pos = rng.choice(a['moves'])['position']
    else:
        pos = start
print('\n'.join(out))
PY
}
walk kaooa start 1 >"$tmp/kaooa.txt"
walk cows-leopards-mogol 'H.....H..........P....P.P.P........../h0p0c20/h' 2 >"$tmp/mogol.txt"
cat >"$tmp/paths.lua" <<'LUA'
paths = {}
for line in io.lines(os.getenv("PATHS")) do paths[#paths + 1] = line end
local i = 0
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
LUA
threads=2
[ "$conns" -ge 2 ] || threads=1
if [ -n "${BIN:-}" ]; then
  build=${BUILD:-$bin}
else
  build="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src assets || echo '+changes')"
fi
for set in kaooa mogol; do
  echo "== $set: 500 table positions, wrk -t$threads -c$conns -d${secs}s; build $build; $(uptime)"
  PATHS="$tmp/$set.txt" timeout $((secs + 30)) wrk -t"$threads" -c"$conns" -d"${secs}s" --latency -s "$tmp/paths.lua" "${url%/}" | grep -v '^ *$'
done
