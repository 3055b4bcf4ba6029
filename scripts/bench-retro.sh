#!/usr/bin/env bash
# The retrograde solver's speed against its baseline (retro::reference) on the seed boards'
# decisive endgame tiers and Bagh-Chal's movement tier: `huntsolve bench --retro` REPEAT times
# per tier (current and reference in the same run, 1 thread and --threads 2), each run's JSON with
# the build and the load before and after into OUT/retro-TAG-RULES-TIER-K.json.txt, then the
# median ratios per tier on stdout.
#
#   scripts/bench-retro.sh TAG [REPEAT] [OUT]
#
# SPECS="RULES TIERS;RULES TIERS" replaces the default list of tiers.
#
# Run it on an idle machine: the ratios compare two solvers in one run, but a loaded machine
# moves them (see results/methods.md). Child tiers come from an empty directory: the
# tiers below are the lowest stored tiers of their games (their children are terminal), except
# diviyan-keliya's and caikaboroda's, whose children are solved in the same run (the ratio is
# the last tier's: 4 cows on every leopard board, as the other two; 3 attackers for the tafl).
set -euo pipefail
cd "$(dirname "$0")/.."
tag=${1:?usage: scripts/bench-retro.sh TAG [REPEAT] [OUT]}
repeat=${2:-3}
out=${3:-results/bench}
# Sets bin and build (BIN=path BUILD=commit to bench a binary built elsewhere).
source scripts/huntsolve-bin.sh
empty=$(mktemp -d)
trap 'rm -rf "$empty"' EXIT
mkdir -p "$out"
specs=${SPECS:-"cows-leopards-mogol h0p0c20;cows-leopards-peralikatuma h0p0c20;diviyan-keliya h0p0c23,h0p0c22,h0p0c21,h0p0c20;caikaboroda kx,a0d0,a1d0,a2d0,a3d0;bagh-chal h0p0c4"}
IFS=';' read -r -a list <<<"$specs"
for spec in "${list[@]}"; do
    # shellcheck disable=SC2086
    set -- $spec
    for k in $(seq 1 "$repeat"); do
        f="$out/retro-$tag-$1-${2##*,}-$k.json.txt"
        {
            echo "# $1 $2 build $build run $k load before: $(uptime)"
            "$bin" bench --retro "$1" --tiers "$2" --threads 2 --tables "$empty" --json
            echo "# load after: $(uptime)"
        } >"$f"
    done
done
python3 - "$out" "$tag" <<'EOF'
import glob, json, statistics, sys
out, tag = sys.argv[1], sys.argv[2]
rows = {}
for f in sorted(glob.glob(f"{out}/retro-{tag}-*.json.txt")):
    text = open(f).read().splitlines()
    j = json.loads("\n".join(l for l in text if not l.startswith("#")))
    # The ratio is of the last tier (the one the name gives), as in the bench's own summary.
    last = j["runs"][-1]["tier"]
    t = {(r["solver"], r["threads"]): r["seconds"] for r in j["runs"] if r["tier"] == last}
    key = (j["rules"], last)
    rows.setdefault(key, []).append((t[("reference", 1)] / t[("current", 1)],
                                     t[("current", 1)] / t[("current", 2)],
                                     t[("reference", 1)], t[("current", 1)], t[("current", 2)]))
print("| rules, tier | runs | reference 1 thread s | current 1 thread s | current / reference (median; each run) | 2 threads / 1 (median; each run) |")
print("|---|---:|---:|---:|---|---|")
for (rules, tier), rs in rows.items():
    med = lambda i: statistics.median(r[i] for r in rs)
    each = lambda i: ", ".join(f"{r[i]:.2f}" for r in rs)
    print(f"| {rules} {tier} | {len(rs)} | {med(2):.2f} | {med(3):.2f} | **{med(0):.2f}x** ({each(0)}) | {med(1):.2f}x ({each(1)}) |")
EOF
