#!/usr/bin/env bash
# The seed games from the start by df-pn: for each of
# cows-leopards-mogol, cows-leopards-peralikatuma and diviyan-keliya, the two one-sided
# runs "the leopards force a win" and "the cows force a win", each with a time limit. A
# disproof of one side's goal shows the other side holds at least a draw.
#
#   [HUNTSOLVE_BIN=PATH] scripts/prove-seeds.sh [SECONDS_PER_SIDE] [THREADS] [HASH_MIB] [RULES...]
#
# Defaults: 1500 s a side (50 minutes a game), one thread per core, 12288 MiB of --hash.
# No tables: the leopard-endgame tables (`solve <rules> --max-prey 4`) hold only positions
# with at most 4 cows, and the hunters' static win (at least 21 captures) is already terminal.
# JSON reports go to results/proofs/<rules>-<side>-<S>s.json, a log (with /usr/bin/time's
# figures) to results/proofs/seeds-<S>s.log; certificates of proven goals to the
# git-ignored tables/seeds/ and are re-checked with `check-proof`.
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-1500}"
threads="${2:-$(nproc)}"
hash="${3:-12288}"
shift $(($# < 3 ? $# : 3))
games=("$@")
[ "${#games[@]}" -gt 0 ] || games=(cows-leopards-mogol cows-leopards-peralikatuma diviyan-keliya)
# HUNTSOLVE_BIN: a copy of the binary to run (so that a rebuild during the runs
# does not change the prover between them); default: build and run target/release.
bin="${HUNTSOLVE_BIN:-target/release/huntsolve}"
[ -n "${HUNTSOLVE_BIN:-}" ] || cargo build --release --quiet --bin huntsolve
mkdir -p results/proofs tables/seeds
log="results/proofs/seeds-${secs}s.log"
for rules in "${games[@]}"; do
  for side in hunter prey; do
    out="results/proofs/$rules-$side-${secs}s.json"
    cert="tables/seeds/$rules.$side.proof"
    rm -f "$cert"
    echo "$bin prove $rules start --side $side --time $secs --threads $threads --hash $hash --save $cert --json ($(date -u +%FT%TZ); load $(cut -d' ' -f1-3 /proc/loadavg))" | tee -a "$log"
    set +e
    /usr/bin/time -v -o "tables/seeds/time.log" "$bin" prove "$rules" start --side "$side" \
      --time "$secs" --threads "$threads" --hash "$hash" --save "$cert" --json >"$out"
    status=$?
    set -e
    cat "$out" | tee -a "$log"
    grep -E 'Maximum resident|Elapsed|User time' tables/seeds/time.log | tee -a "$log"
    echo "exit $status; load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$log"
    if [ "$status" -eq 0 ] && [ -f "$cert" ]; then
      "$bin" check-proof "$cert" --json | tee -a "$log"
    fi
  done
done
