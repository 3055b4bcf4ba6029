#!/usr/bin/env python3
"""The measures tables of results/atlas.md, from the files scripts/atlas-measures.sh writes.

Usage: python3 scripts/atlas-measures-table.py [RESULTS_DIR [PART...]]
  RESULTS_DIR: default results/atlas; PART: perfect, ludii, agreement, calibration (default all)

Reads RESULTS_DIR/runs.tsv (the run names), measures.json (`huntsolve measures --json`, one
row a reading, in the order of runs.tsv and then kaooa, kaooa-6) and the ladders'
engines-*/ladder.json (`huntsolve compare --engines ... --tables ... --no-referee`), and
prints three Markdown tables: perfect play per run; Ludii's measures of engine play per
reading and rung; each rung's agreement with perfect play. A reading whose canonical rules
repeat an earlier run's was played once, under the first run's name, and is marked "= name".
"""

import glob
import json
import os
import sys

res = sys.argv[1] if len(sys.argv) > 1 else "results/atlas"
parts = set(sys.argv[2:]) or {"perfect", "ludii", "agreement", "calibration"}
stdout, devnull = sys.stdout, open(os.devnull, "w")


def part(name):
    """Print what follows only when PART `name` is asked for."""
    sys.stdout = stdout if name in parts else devnull
names = [l.split("\t")[0] for l in open(os.path.join(res, "runs.tsv")).read().splitlines()[1:]]
names += ["kaooa", "kaooa-6"]
measures = json.load(open(os.path.join(res, "measures.json")))
assert len(measures) == len(names), (len(measures), len(names))

first_of = {}
for n, m in zip(names, measures):
    first_of.setdefault(m["rules"], n)


def pct(x):
    return f"{100 * x:.1f}"


def verdict(m):
    if m["winner"] is None:
        return "draw"
    return f"{m['winner']} win in {m['length']}"


def link(n):
    summary = f"{n}-summary.json"
    if os.path.exists(os.path.join(res, summary)):
        return f"[{n}](atlas/{summary})"
    return n


if "perfect" in parts:
  print("**Perfect play** (`huntsolve measures`; [measures.md](atlas/measures.md), "
        "[csv](atlas/measures.csv), [json](atlas/measures.json) with every principal line):\n")
  print("| run | rules | value from the start | first moves keeping it | principal line "
        "| moves keeping it on the line % | only moves (winner's) | forced plies |")
  print("| --- | --- | --- | ---: | --- | ---: | ---: | ---: |")
  ends = {"game_over": "the game ends", "repeats": "a position repeats", "limit": "the limit"}
  for n, m in zip(names, measures):
      keep = "-" if m["line_keep"] is None else pct(m["line_keep"])
      wom = "-" if m["winner_only_moves"] is None else m["winner_only_moves"]
      same = "" if first_of[m["rules"]] == n else f" (= {first_of[m['rules']]})"
      print(f"| {link(n)}{same} | `{m['rules']}` | {verdict(m)} | {m['first_keep']} of "
            f"{m['first_moves']} | {m['line_plies']} plies, then {ends[m['line_end']]} | {keep} "
            f"| {m['only_moves']} ({wom}) | {m['forced']} |")

ladders = {}
for path in sorted(glob.glob(os.path.join(res, "engines-*", "ladder.json"))):
    game = os.path.basename(os.path.dirname(path))
    ladders[game] = json.load(open(path))
order = ["engines-mysore-tiger", "engines-huli-mane-ata", "engines-hat-diviyan-keliya",
         "engines-hat-diviyan-keliya-large", "engines-pulijudamu", "engines-pulijudamu-goats",
         "engines-kaooa"]
order = [g for g in order if g in ladders] + sorted(g for g in ladders if g not in order)


def iv(x, digits=2):
    return f"{x['estimate']:.{digits}f} [{x['lo']:.{digits}f}, {x['hi']:.{digits}f}]"


def rows_of(lad):
    """(rules, engine) -> LudiiRow, in the ladder's order."""
    return [(r["agreement"]["rules"], r["agreement"]["engine"], r) for r in lad["ludii"]]


if ladders:
    any_lad = ladders[order[0]]
    engines = any_lad["engines"]
    part("ludii")
    print()
    print(f"**Engine play: Ludii's measures** ({any_lad['games']} games a reading and rung, "
          f"{any_lad['random_plies']} random opening plies; balance, drawishness and advantage "
          "P1 with 95 % intervals; duration in plies, mean ± sd; branching factor; decision "
          "moves). One row per reading and rung:\n")
    print("| reading | rung | balance | drawishness | advantage P1 | duration | branching "
          "| decision moves | report |")
    print("| --- | --- | --- | --- | --- | --- | ---: | --- | --- |")
    for g in order:
        lad = ladders[g]
        for rules, eng, r in rows_of(lad):
            mm = r["measures"]
            br = "-" if mm["branching_factor"] is None else f"{mm['branching_factor']:.2f}"
            dm = "-" if mm["decision_moves"] is None else iv(mm["decision_moves"])
            print(f"| `{rules}` | `{eng}` | {iv(mm['balance'])} | {iv(mm['drawishness'])} | "
                  f"{iv(mm['advantage_p1'])} | {mm['duration_turns']:.1f} ± "
                  f"{mm['duration_turns_sd']:.1f} | {br} | {dm} | "
                  f"[{g}](atlas/{g}/ladder.md) |")

    part("agreement")
    print()
    print("**Engine play against perfect play.** Per reading: the exact value of the start "
          "and, per rung, whether the conclusion from side 0's score "
          "interval agrees with it (✓, ✗), side 0's score, and the share of each side's "
          "moves (after the opening plies) keeping the exact value, side 0 / side 1:\n")
    head = " | ".join(f"`{e}`" for e in engines)
    print(f"| reading | exact value | side 0's exact score after the openings | {head} |")
    print("| --- | --- | ---: | " + " | ".join("---" for _ in engines) + " |")
    for g in order:
        lad = ladders[g]
        score0 = {(c["variant"], c["engine"]): c["score0"]["estimate"]
                  for row in lad["cells"] for c in row}
        cal = lad.get("calibration") or {"exact": []}
        opening = {v: (x.get("sampled") or x)["score0"]
                   for v, x in zip(lad["variants"], cal["exact"])}
        by = {}
        for rules, eng, r in rows_of(lad):
            by.setdefault(rules, {})[eng] = r
        for rules, cells in by.items():
            any_r = next(iter(cells.values()))
            a0 = any_r["agreement"]
            sides = any_r["side_names"]
            s = a0["exact_score0"]
            exact = "-" if s is None else ("draw" if s == 0.5 else
                                           f"{sides[0] if s > 0.5 else sides[1]} win")
            out = []
            for e in engines:
                r = cells.get(e)
                if r is None:
                    out.append("-")
                    continue
                a = r["agreement"]
                mark = {True: "✓", False: "✗", None: "?"}[a["agrees"]]
                score = score0[(a["variant"], e)]
                k = [a["kept_share"][i]["estimate"] for i in (0, 1)]
                out.append(f"{mark} {score:.2f}; {pct(k[0])} / {pct(k[1])}")
            op = opening.get(a0["variant"])
            op = "-" if op is None else f"{op:.3f}"
            print(f"| `{rules}` (side 0: {sides[0]}) | {exact} | {op} | " + " | ".join(out)
                  + " |")

    # The ladders against the exact values of their random openings (the calibration of
    # results/calibration.md, on these families): pooled over the ladders, per rung.
    part("calibration")
    print()
    print("**The ladders against exact values** (each ladder's `calibration` in ladder.json, "
          "pooled: pairs of readings of one game whose verdict at the rung has the sign of the "
          "exact difference of their openings' values; the mean |score − exact| over the "
          "readings; readings whose exact score of the openings lies in the rung's 95 % "
          "interval):\n")
    print("| rung | pairs | agree | wrong direction | missed difference | false difference "
          "| mean \\|score − exact\\| | largest | exact inside 95 % interval |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    pooled = {}
    for g in order:
        cal = ladders[g].get("calibration")
        if not cal:
            continue
        n = len(ladders[g]["variants"])
        for r in cal["rungs"]:
            p = pooled.setdefault(r["engine"], dict(pairs=0, agree=0, wrong=0, missed=0,
                                                    false_difference=0, err=0.0, n=0,
                                                    max=0.0, covered=0))
            for k in ("pairs", "agree", "wrong", "missed", "false_difference", "covered"):
                p[k] += r[k]
            p["err"] += r["mean_abs_error"] * n
            p["n"] += n
            p["max"] = max(p["max"], r["max_abs_error"])
    for e in engines:
        p = pooled.get(e)
        if p is None:
            continue
        share = f" ({100 * p['agree'] / p['pairs']:.0f} %)" if p["pairs"] else ""
        print(f"| `{e}` | {p['pairs']} | {p['agree']}{share} | {p['wrong']} | {p['missed']} | "
              f"{p['false_difference']} | {p['err'] / p['n']:.3f} | {p['max']:.3f} | "
              f"{p['covered']}/{p['n']} |")
