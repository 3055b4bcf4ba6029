#!/usr/bin/env bash
# The calibration study: ladders on families of variants whose exact values
# are known (each solved whole in seconds), checked against those values.
#
#   scripts/calibration.sh [GAMES] [RATE_GAMES] [WORK_DIR]
#
# For each family: solves every variant whole into WORK_DIR/tables (kept; `solve`
# resumes), then runs `huntsolve compare --engines ... --tables ... --no-referee --rate N`:
# the tables end no game, they give the `perfect` rung its moves and the exact value of
# every variant's random opening. The ladders (with their raw games) stay in WORK_DIR
# (default runs/calibration, git-ignored; re-creatable from this command: every engine
# here is deterministic given the seed); scripts/calibration-report.py then writes
# results/calibration.{md,csv,json,svg} from their ladder.json files.
set -euo pipefail
GAMES=${1:-100}
RATE=${2:-20}
WORK=${3:-runs/calibration}
# HUNTSOLVE names a binary already built (then nothing is built here).
BIN=${HUNTSOLVE:-target/release/huntsolve}
ENGINES=${ENGINES:-random,depth=1,depth=2,depth=4,mcts=300:cutoff=20,perfect}
PLIES=${RANDOM_PLIES:-4}
if [[ -z "${HUNTSOLVE:-}" ]]; then cargo build --release --quiet; fi
mkdir -p "$WORK/tables"

# family name, then its variants
families=(
  "kaooa|kaooa|kaooa-6|kaooa,hunter_win=captures>=3|kaooa-6,hunter_win=captures>=2"
  "alquerque25|diviyan-keliya,board=alquerque25,prey=4,hunter_win=captures>=2|diviyan-keliya,board=alquerque25,prey=4,hunter_win=captures>=3|diviyan-keliya,board=alquerque25,prey=4,hunter_win=captures>=4|diviyan-keliya,board=alquerque25,prey=5,hunter_win=captures>=4"
  "seed-a-3cows|diviyan-keliya,prey=3,hunter_win=captures>=3|diviyan-keliya-ludii,prey=3,hunter_win=captures>=3|diviyan-keliya-ludii-multi,prey=3,hunter_win=captures>=3|diviyan-keliya,prey=3,hunter_win=captures>=2"
)
only=${FAMILIES:-}
for f in "${families[@]}"; do
  IFS='|' read -r -a parts <<<"$f"
  name=${parts[0]}
  if [[ -n "$only" && ",$only," != *",$name,"* ]]; then continue; fi
  variants=("${parts[@]:1}")
  tables=()
  for v in "${variants[@]}"; do
    d="$WORK/tables/$(echo "$v" | tr ',=>' '___')"
    nice -n 10 "$BIN" solve "$v" --out "$d" --threads 1 >/dev/null
    tables+=(--tables "$d")
  done
  echo "== $name: $(uptime)"
  # The progress lines ("finished in") are dropped; a failed compare is not:
  # its exit status is taken from the pipe (grep's own 1, "no line left", is
  # no failure) and stops the study with a message.
  /usr/bin/time -f "$name: %e s wall, %U s user, %S s sys" \
    nice -n 10 "$BIN" compare "${variants[@]}" --games "$GAMES" --engines "$ENGINES" \
    --rate "$RATE" "${tables[@]}" --no-referee --random-plies "$PLIES" --seed 1 \
    --threads 2 --out "$WORK/$name" 2>&1 | { grep -v "finished in" || [ $? -eq 1 ]; } \
    && status=0 || status=${PIPESTATUS[0]}
  if [ "$status" -ne 0 ]; then
    echo "calibration.sh: compare of family $name failed (exit $status)" >&2
    exit "$status"
  fi
done
echo "== done: $(uptime)"
