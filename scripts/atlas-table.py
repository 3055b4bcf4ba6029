#!/usr/bin/env python3
"""Census columns of results/atlas.md from `huntsolve solve` summaries.

Usage: python3 scripts/atlas-table.py SUMMARY.json [...]
       python3 scripts/atlas-table.py --runs results/atlas/runs.tsv

The first form prints, per summary: the rules, the start's value and distance,
the longest win stored (the largest distance over the tiers), the symmetry
classes, the share of classes won, lost and drawn for the side to move, and the
solver's seconds. The second prints the markdown table of every run listed in
runs.tsv (written by scripts/atlas-solves.sh), with its verify result.
"""

import json
import os
import sys


def census(path):
    d = json.load(open(path))
    tiers = d["tiers"]
    classes = sum(t["classes"] for t in tiers)
    wins = sum(t["wins"] for t in tiers)
    losses = sum(t["losses"] for t in tiers)
    draws = sum(t["draws"] for t in tiers)
    longest = max((t["max_distance"] for t in tiers), default=0)
    positions = sum(t["positions"] for t in tiers)
    pct = lambda n: f"{100.0 * n / classes:.1f}" if classes else "-"
    return d, dict(
        classes=classes, positions=positions, longest=longest,
        won=pct(wins), lost=pct(losses), drawn=pct(draws),
    )


def verified(path):
    if not os.path.exists(path):
        return "-"
    v = json.load(open(path))
    bad = v["mismatches"] + v.get("orbit_mismatches", 0)
    return f"{v['positions']:,} checked, {bad} mismatches"


def runs(tsv):
    base = os.path.dirname(tsv)
    rows = [l.rstrip("\n").split("\t") for l in open(tsv)][1:]
    print("| run | rules | start (side to move) | longest win | classes | won / lost / drawn % | verify | wall s | peak RSS | load |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, rules, start, wall, rss, load, build in rows:
        s = os.path.join(base, f"{name}-summary.json")
        if not os.path.exists(s) or start == "bounds":
            continue
        _, c = census(s)
        value, dist = start.split()
        start_txt = value if value in ("draw", "-") else f"{value} in {dist}"
        print(
            f"| [{name}](atlas/{name}-summary.json) | `{rules}` | {start_txt} | {c['longest']} | "
            f"{c['classes']:,} | {c['won']} / {c['lost']} / {c['drawn']} | "
            f"{verified(os.path.join(base, f'{name}-verify.json'))} | {wall} | "
            f"{int(rss) / 1024:.0f} MiB | {load.split()[0]} |"
        )


if __name__ == "__main__":
    if sys.argv[1:2] == ["--runs"]:
        runs(sys.argv[2])
    else:
        for p in sys.argv[1:]:
            d, c = census(p)
            start = d.get("start") or {}
            print(f"{d['rules']} | start {start.get('value', '-')} in {start.get('distance', '-')} | "
                  f"longest {c['longest']} | classes {c['classes']:,} | won {c['won']} % lost {c['lost']} % "
                  f"drawn {c['drawn']} % | {p}")
