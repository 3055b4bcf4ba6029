#!/usr/bin/env bash
# One capture threshold of a seed game from the empty board, by the frontier driver with
# threshold endgame tables as leaves ("the leopards can force N captures?").
# Resumable: the tables keep their finished tiers and the frontier keeps its state.
#
#   scripts/threshold-frontier.sh RESULTS_TSV RULES N MAX_PREY [DEPTH] [SECONDS]
#
# e.g. scripts/threshold-frontier.sh results/seed-bounds/thresholds.tsv cows-leopards-mogol 21 5
# 1. `solve "RULES,hunter_win=captures>=N" --max-prey MAX_PREY` into tables/thr/<name>
#    (the movement endgames of that variant: the leaves);
# 2. `frontier "RULES,hunter_win=captures>=N" --depth DEPTH (default 2) --side hunter
#    --time SECONDS (default 600)` with those tables, state and certificates in
#    tables/thr/<name>.frontier;
# 3. `check-proof` of the start's certificate when the start was decided;
# 4. one TSV line: rules, tables' max prey, depth, outcome, frontier size, decided
#    positions, runs, nodes, root costs, frontier wall s and CPU s, certificate bytes and
#    trailer crc32, check-proof's exit status, load at start and end, build, UTC time.
# THREADS (default nproc) and HASH (MiB, default 2048) apply to both steps.
set -euo pipefail
cd "$(dirname "$0")/.."
tsv="$1" rules="$2" n="$3" max_prey="$4" depth="${5:-2}" seconds="${6:-600}"
threads="${THREADS:-$(nproc)}"
# BIN/BUILD: see scripts/huntsolve-bin.sh.
source scripts/huntsolve-bin.sh
variant="$rules,hunter_win=captures>=$n"
name="$rules-N$n"
tables="tables/thr/$name"
fdir="tables/thr/$name.frontier"
mkdir -p "$tables" "$fdir" "$(dirname "$tsv")"
[ -s "$tsv" ] || printf 'rules\tmax_prey\tdepth\toutcome\tfrontier\tdecided\truns\tnodes\troot_cost_prove\troot_cost_disprove\twall_s\tcpu_s\tcert_bytes\tcert_crc32\tcheck_proof\tload_start\tload_end\tbuild\tutc\n' >"$tsv"
load0=$(cut -d' ' -f1 /proc/loadavg)
utc=$(date -u +%FT%TZ)
/usr/bin/time -v -o "$tables/time-solve.log" "$bin" solve "$variant" --max-prey "$max_prey" \
  --out "$tables" --threads "$threads" --memory "${MEMORY:-20G}" >"$tables/solve.out" 2>"$tables/solve.err" || {
  echo "threshold-frontier: the tables' solve failed:" >&2
  tail -3 "$tables/solve.err" >&2
  exit 2
}
/usr/bin/time -v -o "$fdir/time-frontier.log" "$bin" frontier "$variant" --depth "$depth" \
  --side hunter --tables "$tables" --threads "$threads" --hash "${HASH:-2048}" --time "$seconds" \
  --out "$fdir" --json >"$fdir/frontier.json" 2>"$fdir/frontier.err" || true
cert=$(find "$fdir" -maxdepth 1 -name "*.s*.d$depth.*.proof" | head -1)
check="-"
if [ -n "$cert" ]; then
  set +e
  "$bin" check-proof "$cert" --tables "$tables" >"$fdir/check-proof.out" 2>&1
  check=$?
  set -e
fi
load1=$(cut -d' ' -f1 /proc/loadavg)
python3 - "$fdir/frontier.json" "$fdir/time-frontier.log" "$variant" "$max_prey" "$depth" "${cert:-}" \
  "$check" "$load0" "$load1" "$build" "$utc" >>"$tsv" <<'EOF'
import json, os, sys
path, timelog, variant, max_prey, depth, cert, check, load0, load1, build, utc = sys.argv[1:]
d = json.load(open(path))
if "runs" not in d:
    r = {"outcome": "error: " + str(d.get("error"))}
else:
    r = d["runs"][0]
cpu = 0.0
for line in open(timelog):
    if "User time" in line or "System time" in line:
        cpu += float(line.split(": ")[1])
size = os.path.getsize(cert) if cert else "-"
# The certificate's trailer checksum (crc32 of every byte before it, at end-12).
crc = open(cert, "rb").read()[-12:-8][::-1].hex() if cert else "-"
print("\t".join(str(x) for x in [
    variant, max_prey, depth, r.get("outcome"), r.get("frontier"),
    (r.get("proven") or 0) + (r.get("disproven") or 0), r.get("runs"), r.get("nodes"),
    r.get("root_proof_cost"), r.get("root_disproof_cost"), f'{r.get("seconds") or 0:.1f}',
    f"{cpu:.1f}", size, crc, check, load0, load1, build, utc]))
EOF
tail -1 "$tsv"
