#!/usr/bin/env bash
# Whole games from the empty board with fewer cows (n x N table), resumable:
# each variant solves into its own directory, and a rerun keeps every finished tier.
#
#   scripts/fewer-cows.sh RESULTS_TSV RULES...
#
# e.g. scripts/fewer-cows.sh results/seed-bounds/fewer-cows.tsv \
#        "cows-leopards-mogol,prey=3" "cows-leopards-mogol,prey=3,hunter_win=captures>=1"
# For each RULES: `solve RULES --out tables/fewer/<RULES> --json` (THREADS, default nproc;
# MEMORY, default 20G), then `verify --sample SAMPLE` (default 100000) of the same directory,
# and one TSV line: rules, the start's value, tiers, classes, wall s, CPU s, peak RSS kB,
# verify mismatches, load at start and end, build, UTC time. The solve's JSON and the
# /usr/bin/time logs stay in the directory (git-ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
tsv="$1"
shift
threads="${THREADS:-$(nproc)}"
# BIN/BUILD: see scripts/huntsolve-bin.sh.
source scripts/huntsolve-bin.sh
mkdir -p "$(dirname "$tsv")"
[ -s "$tsv" ] || printf 'rules\tstart\ttiers\tclasses\twall_s\tcpu_s\tpeak_rss_kb\tverify_mismatches\tload_start\tload_end\tbuild\tutc\n' >"$tsv"
for rules in "$@"; do
  out="tables/fewer/$(echo "$rules" | sed "s/,/_/g; s/>=/-ge-/g; s/=/-/g")"
  mkdir -p "$out"
  load0=$(cut -d' ' -f1 /proc/loadavg)
  utc=$(date -u +%FT%TZ)
  start=$(date +%s.%N)
  /usr/bin/time -v -o "$out/time-solve.log" "$bin" solve "$rules" --out "$out" \
    --threads "$threads" --memory "${MEMORY:-20G}" --json >"$out/solve.json" 2>"$out/solve.err" || true
  wall=$(echo "$(date +%s.%N) - $start" | bc)
  cpu=$(awk -F': ' '/User time|System time/ {s+=$2} END {printf "%.1f", s}' "$out/time-solve.log")
  rss=$(awk -F': ' '/Maximum resident/ {print $2}' "$out/time-solve.log")
  set +e
  "$bin" verify --tables "$out" --threads "$threads" --sample "${SAMPLE:-100000}" --json >"$out/verify.json"
  set -e
  load1=$(cut -d' ' -f1 /proc/loadavg)
  python3 - "$out/solve.json" "$out/verify.json" "$rules" "$wall" "$cpu" "$rss" "$load0" "$load1" "$build" "$utc" >>"$tsv" <<'EOF'
import json, sys
solve, verify = (json.load(open(p)) for p in sys.argv[1:3])
rules, wall, cpu, rss, load0, load1, build, utc = sys.argv[3:]
if "error" in solve:
    start, tiers, classes = "error: " + solve["error"], 0, 0
else:
    st = solve["start"]
    start = f'{st["value"]} in {st["distance"]} ({st["side_to_move"]} to move)' if st["value"] != "draw" else f'draw ({st["side_to_move"]} to move)'
    tiers = len(solve["tiers"])
    classes = sum(t["classes"] for t in solve["tiers"])
mismatches = sum(t["mismatches"] for t in verify["tiers"]) if "tiers" in verify else verify.get("error")
print("\t".join(str(x) for x in [rules, start, tiers, classes, f"{float(wall):.1f}", cpu, rss,
                                 mismatches, load0, load1, build, utc]))
EOF
  tail -1 "$tsv"
done
