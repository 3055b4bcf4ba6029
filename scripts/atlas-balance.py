#!/usr/bin/env python3
"""The balance plot of results/atlas.md: every reading solved from its start, one row each.

Usage: python3 scripts/atlas-balance.py [results/atlas/runs.tsv] > results/atlas/balance.svg

Reads the runs listed in runs.tsv (written by scripts/atlas-solves.sh) and each run's
summary (results/atlas/NAME-summary.json). A row shows, left, the value of the start for
the side to move there (green: it wins, red: it loses, grey: a draw; with the distance in
plies), and right, the share of all symmetry classes of the game won, lost and drawn for
the side to move: how decisive the reading makes the game beyond its start. Rows are grouped
by game, games and readings in the order of runs.tsv. Plain SVG, no plotting library, the same bytes for the
same input.
"""

import json
import os
import sys
from xml.sax.saxutils import escape

WIN, LOSS, DRAW = "#2ca02c", "#d62728", "#9e9e9e"


def rows(tsv):
    base = os.path.dirname(tsv)
    lines = open(tsv).read().splitlines()
    head = lines[0].split("\t")
    for line in lines[1:]:
        r = dict(zip(head, line.split("\t")))
        d = json.load(open(os.path.join(base, r["name"] + "-summary.json")))
        tiers = d["tiers"]
        classes = sum(t["classes"] for t in tiers)
        won = sum(t["wins"] for t in tiers)
        lost = sum(t["losses"] for t in tiers)
        value, dist = r["start"].split()
        yield r["name"], r["rules"], value, int(dist), classes, won, lost


def game_of(rules):
    return rules.split(",")[0]


def svg(data):
    row_h, top, left, bar_x, bar_w = 15, 58, 330, 470, 400
    groups = {}
    for d in data:
        groups.setdefault(game_of(d[1]), []).append(d)
    groups = list(groups.items())
    height = top + sum(len(g[1]) * row_h + 22 for g in groups) + 20
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{bar_x + bar_w + 20}" height="{height}" '
        'font-family="sans-serif" font-size="11">',
        '<rect width="100%" height="100%" fill="white"/>',
        '<text x="10" y="20" font-size="15">The readings of the hunt-game family, each solved from its start</text>',
        f'<text x="{left}" y="44">start, for the side to move</text>',
        f'<text x="{bar_x}" y="44">symmetry classes won / lost / drawn for the side to move</text>',
    ]
    y = top
    for game, items in groups:
        out.append(f'<text x="10" y="{y + 10}" font-weight="bold">{escape(game)}</text>')
        y += 16
        for name, rules, value, dist, classes, won, lost in items:
            reading = rules[len(game) + 1:] if rules != game else "(preset)"
            out.append(f'<text x="22" y="{y + 10}">{escape(reading)}</text>')
            color = {"win": WIN, "loss": LOSS}.get(value, DRAW)
            label = value if value == "draw" else f"{value} in {dist}"
            out.append(f'<rect x="{left}" y="{y + 1}" width="12" height="11" fill="{color}"/>')
            out.append(f'<text x="{left + 18}" y="{y + 10}">{label}</text>')
            x = bar_x
            for n, c in ((won, WIN), (lost, LOSS), (classes - won - lost, DRAW)):
                w = bar_w * n / classes if classes else 0
                out.append(
                    f'<rect x="{x:.2f}" y="{y + 1}" width="{w:.2f}" height="11" fill="{c}"/>'
                )
                x += w
            y += row_h
        y += 6
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    tsv = sys.argv[1] if len(sys.argv) > 1 else "results/atlas/runs.tsv"
    sys.stdout.write(svg(list(rows(tsv))))


if __name__ == "__main__":
    main()
