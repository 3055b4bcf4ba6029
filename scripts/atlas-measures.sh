#!/usr/bin/env bash
# Re-makes the measures of results/atlas.md ("Comparisons that tell readings apart"): every
# reading solved whole in results/atlas/runs.tsv, and Kaooa with 7 and 6 crows, measured
# under perfect play (`huntsolve measures`) and played by a strength ladder whose moves are
# checked against the exact values (`huntsolve compare --tables --no-referee`).
#
#   scripts/atlas-measures.sh [OUT]     (OUT: the tables' base directory, default tables/atlas)
#
# 1. Solves each reading into OUT/<name> (`solve` keeps the tiers already solved there; the
#    tables stay out of git).
# 2. `measures` over all of them, in runs.tsv order: results/atlas/measures.{md,csv,json}, and
#    the map of how the value moves within each game's readings: results/atlas/measures-map.md.
# 3. One ladder per game (GAMES games a reading and rung, default 200; ENGINES, default
#    random,depth=2,depth=4,perfect; seed 1, 4 random opening plies, one thread, so every game
#    is the same each time): results/atlas/engines-<game>/ (ladder.md, ludii.csv, ladder.json,
#    the per-rung reports; the game logs gzipped). The `perfect` rung plays from the tables:
#    it is the check that the agreement columns measure what they say.
# Wall time and the load before and after each step are appended to
# results/atlas/measures-runs.tsv.
# Runs niced; BIN=path uses a built binary instead of building (huntsolve-bin.sh);
# ONLY=GLOB makes only the ladders whose game matches GLOB; MEASURES=0 skips steps 1-2 (the
# ladders then read the readings' order from the measures.json already made).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/huntsolve-bin.sh
out=${1:-tables/atlas}
res=results/atlas
games=${GAMES:-200}
engines=${ENGINES:-random,depth=2,depth=4,perfect}
mkdir -p "$out" "$res"
log=$res/measures-runs.tsv
[ -f "$log" ] || printf 'step\twall_s\tload_before\tload_after\tbuild\n' >"$log"
step() { # name stdout-file command...
  local name=$1 to=$2 load0 t0 wall
  shift 2
  load0=$(cut -d' ' -f1-3 /proc/loadavg)
  t0=$(date +%s.%N)
  "$@" >"$to"
  wall=$(echo "$(date +%s.%N) - $t0" | bc)
  printf '%s\t%.2f\t%s\t%s\t%s\n' "$name" "$wall" "$load0" "$(cut -d' ' -f1-3 /proc/loadavg)" \
    "$build" >>"$log"
}

# The readings: runs.tsv (name, rules), then Kaooa's two.
mapfile -t readings < <(tail -n +2 "$res/runs.tsv" | cut -f1,2; printf 'kaooa\tkaooa\nkaooa-6\tkaooa-6\n')
dirs=()
[ "${MEASURES:-1}" = 0 ] || for r in "${readings[@]}"; do
  IFS=$'\t' read -r name rules <<<"$r"
  nice -n 10 "$bin" solve "$rules" --out "$out/$name" --threads 2 --memory 8G >/dev/null 2>&1
  dirs+=(--tables "$out/$name")
done
if [ "${MEASURES:-1}" != 0 ]; then
  step measures.md "$res/measures.md" nice -n 10 "$bin" measures "${dirs[@]}"
  step measures.csv "$res/measures.csv" nice -n 10 "$bin" measures "${dirs[@]}" --csv
  step measures.json "$res/measures.json" nice -n 10 "$bin" measures "${dirs[@]}" --json
fi
# Readings whose canonical rules repeat an earlier one (`hat-diviyan-keliya,hunter_win=4` is
# the preset) are measured, but played once: the first of them.
mapfile -t firsts < <(python3 -c '
import json, sys
seen = set()
for m in json.load(open(sys.argv[1])):
    if m["rules"] not in seen:
        seen.add(m["rules"])
        print(m["tables"])' "$res/measures.json")

# The maps: how the value moves with fewer prey and with the capture threshold.
map() { # title name...
  local title=$1 n ts=()
  shift
  for n in "$@"; do ts+=(--tables "$out/$n"); done
  printf '\n## %s\n\n' "$title"
  nice -n 10 "$bin" measures "${ts[@]}" --map
}
maps() {
  printf '# How the value moves across the readings\n\n'
  printf 'Made by scripts/atlas-measures.sh (`huntsolve measures --map`, build %s).\n' "$build"
  map "Kaooa: 6 and 7 crows" kaooa-6 kaooa
  map "Pulijudamu: 5 to 18 goats, all goats to win" pulijudamu $(printf 'pulijudamu-goats%s ' $(seq 6 18))
  map "Pulijudamu: 5 to 18 goats, the static rule" pulijudamu-static \
    $(printf 'pulijudamu-goats%s-static ' $(seq 6 18))
  map "Mysore tiger game: captures to win" mysore-tiger-N{1..3}
  map "Huli-Mane Ata: captures to win" huli-mane-ata-N{1..5}
  map "Hat Diviyan Keliya: captures to win" hat-diviyan-keliya-N{1..7}
  map "Hat Diviyan Keliya, large: captures to win" hat-diviyan-keliya-large-N{1..8}
  map "Pulijudamu: captures to win" pulijudamu-N{1..5}
  # The seed games' n-cows maps: whole games from the empty board with 1-3 cows (more do not
  # solve in seconds; results/mogol.md and peralikatuma.md have them to 7-8 cows), N = 1
  # asking for one capture, N = n for every cow.
  local g k n names
  for g in cows-leopards-mogol cows-leopards-peralikatuma; do
    for k in one all; do
      names=()
      for n in 1 2 3; do
        local want=1
        [ "$k" = one ] || want=$n
        nice -n 10 "$bin" solve "$g,prey=$n,hunter_win=captures>=$want" \
          --out "$out/seed-$g-$n-$want" --threads 2 --memory 8G >/dev/null 2>&1
        names+=("seed-$g-$n-$want")
      done
      map "$g: 1 to 3 cows, $k of them to win" "${names[@]}"
    done
  done
}
[ "${MEASURES:-1}" = 0 ] || step measures-map.md "$res/measures-map.md" maps

# The game a reading belongs to, for its ladder.
game_of() {
  case $1 in
    pulijudamu-goats*) echo pulijudamu-goats ;;
    hat-diviyan-keliya-large*) echo hat-diviyan-keliya-large ;;
    kaooa*) echo kaooa ;;
    *) echo "$1" | sed -E 's/-(N[0-9]+|compulsory|chains|tiger-first|ludii-pass|static)$//' ;;
  esac
}
ladder() { # game
  local g=$1 r name rules variants=() tables=()
  # shellcheck disable=SC2053
  [[ -z ${ONLY:-} || $g == $ONLY ]] || return 0
  for r in "${readings[@]}"; do
    IFS=$'\t' read -r name rules <<<"$r"
    [ "$(game_of "$name")" = "$g" ] || continue
    [[ " ${firsts[*]} " == *" $out/$name "* ]] || continue
    variants+=("$rules")
    tables+=(--tables "$out/$name")
  done
  rm -rf "${res:?}/engines-$g"
  step "engines-$g" "$out/engines-$g.log" nice -n 10 "$bin" compare "${variants[@]}" --games "$games" \
    --engines "$engines" --seed 1 --random-plies 4 --threads 1 "${tables[@]}" --no-referee \
    --out "$res/engines-$g"
  find "$res/engines-$g" -name 'games-*.jsonl' -exec gzip -9n {} +
}
for g in mysore-tiger huli-mane-ata hat-diviyan-keliya hat-diviyan-keliya-large pulijudamu \
  pulijudamu-goats kaooa; do
  ladder "$g"
done
