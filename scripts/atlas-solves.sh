#!/usr/bin/env bash
# Re-makes the solved rows of results/atlas.md: every atlas game solved whole from its
# start, the readings in dispute side by side, each table directory verified whole.
#
#   scripts/atlas-solves.sh [OUT]     (OUT: the tables' base directory, default tables/atlas)
#
# Per run it writes results/atlas/<name>-summary.json (the solve's summary),
# results/atlas/<name>-verify.json and one line of results/atlas/runs.tsv: name, rules,
# the start's value, wall seconds, peak RSS (KiB), the load average before the run, build.
# Runs niced; BIN=path uses a built binary instead of building (huntsolve-bin.sh);
# ONLY=GLOB makes only the runs whose name matches GLOB (e.g. ONLY='*-ludii-pass').
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/huntsolve-bin.sh
out=${1:-tables/atlas}
res=results/atlas
mkdir -p "$out" "$res"
tsv=$res/runs.tsv
[ -f "$tsv" ] || printf 'name\trules\tstart\twall_s\tpeak_rss_kib\tload_before\tbuild\n' >"$tsv"

run() { # name rules
  local name=$1 rules=$2 load wall rss start
  # shellcheck disable=SC2053
  [[ -z ${ONLY:-} || $name == $ONLY ]] || return 0
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  rm -rf "${out:?}/$name"
  /usr/bin/time -f '%e %M' -o "$out/$name.time" nice -n 10 "$bin" solve "$rules" \
    --out "$out/$name" --threads 2 --memory 8G --json >"$res/$name-summary.json"
  read -r wall rss <"$out/$name.time"
  nice -n 10 "$bin" verify --tables "$out/$name" --threads 2 --json >"$res/$name-verify.json"
  start=$(python3 -c "import json,sys; s=json.load(open(sys.argv[1])).get('start') or {}; print(s.get('value','-'), s.get('distance','-'))" "$res/$name-summary.json")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$rules" "$start" "$wall" "$rss" "$load" "$build" >>"$tsv"
  echo "$name: $start ($wall s, $rss KiB)"
}

# The presets as Ludii reads them.
for g in mysore-tiger huli-mane-ata hat-diviyan-keliya hat-diviyan-keliya-large pulijudamu; do
  run "$g" "$g"
done

# Readings in dispute: every capture threshold, compulsory capture, chains, who starts.
for n in 1 2 3; do run "mysore-tiger-N$n" "mysore-tiger,hunter_win=$n"; done
for n in 1 2 3 4 5; do run "huli-mane-ata-N$n" "huli-mane-ata,hunter_win=$n"; done
for n in 1 2 3 4 5 6 7; do run "hat-diviyan-keliya-N$n" "hat-diviyan-keliya,hunter_win=$n"; done
for n in 1 2 3 4 5 6 7 8; do run "hat-diviyan-keliya-large-N$n" "hat-diviyan-keliya-large,hunter_win=$n"; done
for n in 1 2 3 4 5; do run "pulijudamu-N$n" "pulijudamu,hunter_win=$n"; done
for g in mysore-tiger huli-mane-ata hat-diviyan-keliya hat-diviyan-keliya-large pulijudamu; do
  run "$g-compulsory" "$g,capture_compulsory=true"
  run "$g-chains" "$g,chain=continue"
done
run huli-mane-ata-tiger-first "huli-mane-ata,first=hunter"
run mysore-tiger-tiger-first "mysore-tiger,first=hunter"
run pulijudamu-tiger-first "pulijudamu,first=hunter"
# Ludii's end rules: these files end the game only when the tiger cannot move or has
# captured enough (`(if (no Moves P2) ...)`); a people, lamb or goat side without a move
# makes Ludii's forced pass. The presets make that side lose (H14 `prey_no_moves=loss`).
# (Hat Diviyan Keliya's movement phase ends on `("NoMoves" Loss)` for either side, as here.)
for g in mysore-tiger huli-mane-ata pulijudamu; do
  run "$g-ludii-pass" "$g,prey_no_moves=pass"
done
# The tiger wins once the prey cannot immobilise it (M1 of the board, docs/rules.md 1.6).
for g in hat-diviyan-keliya-large pulijudamu; do run "$g-static" "$g,hunter_win=static"; done
# Pulijudamu's goat counts (Ludii's option "Start Rules Goat", 5-23; at most 18 fit beside
# the tiger on 19 points): all goats to win, and the static reading.
for p in $(seq 6 18); do
  run "pulijudamu-goats$p" "pulijudamu,prey=$p,hunter_win=$p"
  run "pulijudamu-goats$p-static" "pulijudamu,prey=$p,hunter_win=static"
done

# The 31-point games do not fit whole (the start tier alone: about 4.6 G index slots for
# Adugo, 3.3 G for the Orissa game): their capture thresholds are bounded by df-pn from
# the start instead (`bounds`, each decided threshold's certificate re-checked), and the
# prey's win is asked for by `prove --side prey` (time-boxed).
bounded() { # name what command...
  local name=$1 what=$2 load wall rss
  # shellcheck disable=SC2053
  [[ -z ${ONLY:-} || $name == $ONLY ]] || return 0
  shift 2
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  /usr/bin/time -f '%e %M' -o "$out/$name.time" nice -n 10 "$bin" "$@" >"$res/$name.json" \
    2>"$out/$name.log"
  read -r wall rss <"$out/$name.time"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$2" "$what" "$wall" "$rss" "$load" "$build" \
    >>"$res/bounds.tsv"
}
if [ "${BOUNDED:-1}" = 1 ]; then
  for g in adugo orissa-tiger; do
    mkdir -p "$out/$g-bounds"
    bounded "$g-bounds" bounds bounds "$g" --time 900 --threads 2 --hash 2048 \
      --save-dir "$out/$g-bounds" --json
    bounded "$g-prey-prove" "prove --side prey" prove "$g" start --side prey --time 900 \
      --threads 2 --hash 3072 --save "$out/$g-prey.proof" --json
  done
fi
