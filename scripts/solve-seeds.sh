#!/usr/bin/env bash
# The seed games' movement endgames (leopards and cows with few cows left), resumable:
# run it again after an interruption and every finished tier is kept on disk.
#
#   scripts/solve-seeds.sh RULES MAX_PREY [OUT_DIR] [THREADS]
#
# e.g. scripts/solve-seeds.sh cows-leopards-mogol 7
# A MAX_PREY of the form A,D is a tafl material scope (`--material A,D`), e.g.
#   scripts/solve-seeds.sh caikaboroda 5,0 tables/seeds/caikaboroda
# Default OUT_DIR: tables/seeds/RULES (git-ignored; one directory per rules value, so a
# larger MAX_PREY later keeps the smaller tiers). The plan prints its memory and time
# estimate first; the limit is raised to 20G here (24 GiB machine). Then: `analyze --by-side`
# (census per side, over classes and positions) and `verify`: every slot of the tiers in
# FULL_TIERS (default: none) and SAMPLE seeded random slots (default 200000) of every other
# tier; VERIFY=all re-derives every slot of every tier (as long as the solve again).
# Logs: OUT_DIR/solve.log; peak memory and CPU time from /usr/bin/time in OUT_DIR/time*.log;
# JSON in OUT_DIR/{summary,analyze,verify}.json.
set -euo pipefail
cd "$(dirname "$0")/.."
rules="$1"
max_prey="$2"
out="${3:-tables/seeds/$rules}"
threads="${4:-$(nproc)}"
scope_flag=(--max-prey "$max_prey")
[[ "$max_prey" == *,* ]] && scope_flag=(--material "$max_prey")
mkdir -p "$out"
cargo build --release --quiet --bin huntsolve
bin=target/release/huntsolve
build="$(git rev-parse --short HEAD)$(git diff --quiet || echo +dirty)"
echo "solve: $rules ${scope_flag[*]} into $out, $threads threads, build $build, $(date -u +%FT%TZ), load: $(uptime)" | tee -a "$out/solve.log"
set +e
/usr/bin/time -v -o "$out/time-solve-$max_prey.log" \
  "$bin" solve "$rules" "${scope_flag[@]}" --out "$out" --threads "$threads" --memory "${MEMORY:-20G}" \
  2>>"$out/solve.log" | tee -a "$out/solve.log"
status=${PIPESTATUS[0]}
set -e
# The run's end, for seed-report.py: a run killed (the OOM killer's SIGKILL: 137 from time's
# "Command terminated by signal 9") is listed with that mark, never as a run that made tables.
signal=$(sed -n 's/.*Command terminated by signal \([0-9]*\).*/\1/p' "$out/time-solve-$max_prey.log" 2>/dev/null)
echo "solve exit status: $status${signal:+ (terminated by signal $signal)}" | tee -a "$out/solve.log"
[ "$status" -eq 0 ] || exit "$status"
echo "analyze: $(date -u +%FT%TZ), load: $(uptime)" | tee -a "$out/solve.log"
/usr/bin/time -v -o "$out/time-analyze-$max_prey.log" \
  "$bin" analyze --tables "$out" --by-side --threads "$threads" --json >"$out/analyze.json"
echo "verify: $(date -u +%FT%TZ), load: $(uptime)" | tee -a "$out/solve.log"
if [ "${VERIFY:-sample}" = all ]; then
  scope=()
else
  scope=(--sample "${SAMPLE:-200000}")
  [ -n "${FULL_TIERS:-}" ] && scope+=(--tiers "$FULL_TIERS")
fi
set +e
/usr/bin/time -v -o "$out/time-verify-$max_prey.log" "$bin" verify --tables "$out" --threads "$threads" \
  "${scope[@]}" --json >"$out/verify.json"
status=$?
set -e
echo "verify exit status: $status" | tee -a "$out/solve.log"
du -sb "$out"/*.hst | awk '{s+=$1} END {printf "tables on disk: %.0f bytes\n", s}' | tee -a "$out/solve.log"
echo "done: $(date -u +%FT%TZ)" | tee -a "$out/solve.log"
exit "$status"
