#!/usr/bin/env python3
"""The calibration report from the ladders of scripts/calibration.sh.

    scripts/calibration-report.py WORK_DIR RUN_LOG OUT_DIR

Reads WORK_DIR/<family>/ladder.json (each written by `huntsolve compare --engines ...
--tables ... --no-referee`, whose `calibration` holds the exact values, over the games'
openings and over all openings, and the checks of every rung against the former), pools them and writes OUT_DIR/calibration.md, calibration.csv (one row per pair
of variants and rung), calibration.json and calibration.svg (agreement and score error by
rung). RUN_LOG is the output of scripts/calibration.sh (its `==` lines carry `uptime`, its
timing lines the CPU time). Standard library only; files are written temp-then-rename.
"""
import csv
import io
import json
import os
import sys

CLEAR = 0.05  # an exact difference of side 0's score this large is "clear"


def write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def sign_text(s):
    return {1: "+", -1: "−", 0: "0"}[s]


def exact_sign(d):
    return 1 if d > 1e-9 else (-1 if d < -1e-9 else 0)


def truth(x):
    """Side 0's exact score over the openings the games drew (what the rungs are scored against)."""
    return x["sampled"]["score0"]


def value_classes(values):
    """Class index of each variant: variants of equal exact value share one."""
    classes, reps = [], []
    for v in values:
        for k, r in enumerate(reps):
            if abs(v - r) <= 1e-9:
                classes.append(k)
                break
        else:
            reps.append(v)
            classes.append(len(reps) - 1)
    return classes


def independent_effects(effects):
    """How many independent differences the clear pairs measure: within a family,
    pairs between the same two classes of equal exact value measure one
    difference, and a difference that is the sum of two others is not new (the
    rank of the pairs' difference vectors: classes touched minus connected
    components). Returns the count and, per family, the class pairs."""
    total, groups = 0, {}
    for fam in sorted({f for f, _, _ in effects}):
        edges = {tuple(sorted((a, b))) for f, a, b in effects if f == fam}
        parent = {}

        def find(x):
            while parent.setdefault(x, x) != x:
                x = parent[x]
            return x
        for a, b in edges:
            parent[find(a)] = find(b)
        nodes = {x for e in edges for x in e}
        total += len(nodes) - len({find(x) for x in nodes})
        groups[fam] = sorted(edges)
    return total, groups


def order_sentence(by_err, measured):
    """The concluding sentence on the rungs' two orders, from the numbers: the
    order by score error (smallest first, `by_err`) against each family's order
    by measured strength (strongest first, from `measured`: (family, weakest
    first)), naming the families where they differ and the first rungs on
    which they part, or saying that they agree."""
    differ, same, unrated = [], [], []
    for fam, order in measured:
        if not order:
            unrated.append(fam)
            continue
        strongest_first = list(reversed(order))
        if strongest_first == by_err:
            same.append(fam)
            continue
        k = next(i for i, (x, y) in enumerate(zip(strongest_first, by_err)) if x != y)
        differ.append(f"{fam} (by strength `{strongest_first[k]}` comes where the error order has `{by_err[k]}`)")
    parts = []
    if differ:
        parts.append("The order by measured strength (cross-play, strongest first) differs from it in "
                     + "; ".join(differ) + ": there, a rung's strength against the others does not say how "
                     "close its self-play comes to the exact values")
    if same:
        parts.append(("It is the same as the order by measured strength (strongest first) in " if not differ
                      else "It is the same in ") + ", ".join(same))
    if unrated:
        parts.append("No measured strength (no cross-play) in " + ", ".join(unrated))
    return ". ".join(parts) + "."


def main():
    if len(sys.argv) != 4:
        sys.stderr.write(__doc__)
        sys.exit(2)
    work, log_path, out = sys.argv[1:]
    fams = []
    for name in sorted(os.listdir(work)):
        p = os.path.join(work, name, "ladder.json")
        if os.path.isfile(p):
            with open(p, encoding="utf-8") as f:
                r = json.load(f)
            if r.get("calibration"):
                fams.append((name, r))
    if not fams:
        sys.stderr.write(f"error: no ladder.json with a calibration under {work}\n")
        sys.exit(2)
    with open(log_path, encoding="utf-8") as f:
        log = [l.rstrip("\n") for l in f]
    loads = [l[3:] for l in log if l.startswith("== ")]
    timings = [l for l in log if " s wall, " in l and " s user" in l]

    engines = fams[0][1]["engines"]
    pooled = {e: dict(pairs=0, agree=0, wrong=0, missed=0, false_difference=0,
                      agree_start=0, clear=0, clear_agree=0, err_sum=0.0, err_n=0,
                      err_all_sum=0.0, covered=0) for e in engines}
    fam_classes = {}  # family -> value class of each variant
    effects = []  # (family, class of a, class of b) of every clear pair's two value classes
    rows = []
    for name, r in fams:
        if r["engines"] != engines:
            sys.stderr.write(f"error: {name} has other rungs ({r['engines']})\n")
            sys.exit(2)
        cal = r["calibration"]
        nv = len(cal["exact"])
        missing = [v for v, x in zip(r["variants"], cal["exact"]) if not x.get("sampled")]
        if missing:
            sys.stderr.write(f"error: {name}: no exact value of the sampled openings for {missing} "
                             "(a ladder.json of an older build, or softmax openings)\n")
            sys.exit(2)
        classes = value_classes([truth(x) for x in cal["exact"]])
        fam_classes[name] = classes
        index = {v: i for i, v in enumerate(r["variants"])}
        for k in cal["rungs"]:
            p = pooled[k["engine"]]
            for key in ("pairs", "agree", "wrong", "missed", "false_difference",
                        "agree_start", "covered"):
                p[key] += k[key]
            p["err_sum"] += k["mean_abs_error"] * nv
            p["err_all_sum"] += k["mean_abs_error_all"] * nv
            p["err_n"] += nv
        for pc in cal["pairs"]:
            want = exact_sign(pc["exact_difference"])
            if abs(pc["exact_difference"]) >= CLEAR:
                effects.append((name, classes[index[pc["a"]]], classes[index[pc["b"]]]))
            for e, s in zip(engines, pc["signs"]):
                clear = abs(pc["exact_difference"]) >= CLEAR
                if clear:
                    pooled[e]["clear"] += 1
                    pooled[e]["clear_agree"] += int(s == want)
                rows.append(dict(family=name, a=pc["a"], b=pc["b"], engine=e,
                                 exact_difference=pc["exact_difference"],
                                 all_openings_difference=pc["all_openings_difference"],
                                 start_difference=pc["start_difference"],
                                 verdict=s, exact_sign=want, agree=int(s == want),
                                 clear=int(clear)))
    for e in engines:
        p = pooled[e]
        p["agree_share"] = p["agree"] / p["pairs"] if p["pairs"] else 0.0
        p["clear_share"] = p["clear_agree"] / p["clear"] if p["clear"] else 0.0
        p["wrong_share"] = p["wrong"] / p["pairs"] if p["pairs"] else 0.0
        p["mean_abs_error"] = p["err_sum"] / p["err_n"] if p["err_n"] else 0.0
        p["mean_abs_error_all"] = p["err_all_sum"] / p["err_n"] if p["err_n"] else 0.0
        p["false_share"] = p["false_difference"] / p["pairs"] if p["pairs"] else 0.0
    n_effects, effect_groups = independent_effects(effects)

    # ---- CSV and JSON
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(rows[0].keys()), lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    write(os.path.join(out, "calibration.csv"), buf.getvalue())
    write(os.path.join(out, "calibration.json"), json.dumps(dict(
        clear_threshold=CLEAR, engines=engines, pooled=pooled, pairs=rows,
        clear_pairs=len(effects), independent_effects=n_effects,
        families=[dict(name=n, command=r["command"], build=r["build"],
                       variants=r["variants"], exact=r["calibration"]["exact"],
                       rungs=r["calibration"]["rungs"],
                       measured_order=r.get("measured_order", []),
                       games=r["games"], random_plies=r["random_plies"])
                  for n, r in fams],
        load=loads, timings=timings), indent=2) + "\n")

    # ---- SVG: agreement and error by rung
    W, H, L, R, T, B = 900, 470, 70, 260, 50, 70
    pw, ph = W - L - R, H - T - B
    x = lambda i: L + (i + 0.5) * pw / len(engines)
    y = lambda v: T + ph * (1 - v)
    series = [
        ("verdict agrees with exact (all pairs)", "#1f77b4", [pooled[e]["agree_share"] for e in engines], ""),
        (f"agrees where |exact diff| ≥ {CLEAR}", "#2ca02c", [pooled[e]["clear_share"] for e in engines], ""),
        ("verdict in the wrong direction", "#d62728", [pooled[e]["wrong_share"] for e in engines], ""),
        ("difference claimed where none is", "#ff7f0e", [pooled[e]["false_share"] for e in engines], "2,3"),
        ("mean |score − exact score|", "#7f7f7f", [pooled[e]["mean_abs_error"] for e in engines], "6,4"),
    ]
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{L + pw / 2}" y="28" font-size="17" text-anchor="middle">Ladder verdicts against exact values, '
           f'{sum(len(r["calibration"]["pairs"]) for _, r in fams)} pairs of variants</text>']
    for v in [0, 0.25, 0.5, 0.75, 1.0]:
        svg.append(f'<line x1="{L}" x2="{L + pw}" y1="{y(v)}" y2="{y(v)}" stroke="#ddd"/>')
        svg.append(f'<text x="{L - 8}" y="{y(v) + 4}" font-size="12" text-anchor="end">{v:.2f}</text>')
    svg.append(f'<line x1="{L}" x2="{L}" y1="{T}" y2="{T + ph}" stroke="black"/>')
    svg.append(f'<line x1="{L}" x2="{L + pw}" y1="{T + ph}" y2="{T + ph}" stroke="black"/>')
    for i, e in enumerate(engines):
        svg.append(f'<text x="{x(i)}" y="{T + ph + 20}" font-size="12" text-anchor="middle">{e}</text>')
    svg.append(f'<text x="{L + pw / 2}" y="{H - 18}" font-size="13" text-anchor="middle">rung (both sides), as given</text>')
    svg.append(f'<text x="18" y="{T + ph / 2}" font-size="13" text-anchor="middle" transform="rotate(-90 18 {T + ph / 2})">share of pairs / score error</text>')
    for k, (label, color, vals, dash) in enumerate(series):
        pts = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(vals))
        da = f' stroke-dasharray="{dash}"' if dash else ""
        svg.append(f'<polyline points="{pts}" fill="none" stroke="{color}" stroke-width="2.5"{da}/>')
        for i, v in enumerate(vals):
            svg.append(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="4" fill="{color}"/>')
        ly = T + 20 + 22 * k
        svg.append(f'<line x1="{L + pw + 12}" x2="{L + pw + 34}" y1="{ly}" y2="{ly}" stroke="{color}" stroke-width="2.5"{da}/>')
        svg.append(f'<text x="{L + pw + 40}" y="{ly + 4}" font-size="11">{label}</text>')
    svg.append("</svg>\n")
    write(os.path.join(out, "calibration.svg"), "\n".join(svg))

    # ---- Markdown
    md = []
    a = md.append
    games = fams[0][1]["games"]
    a("# Calibration: the strength ladder against exact values\n")
    a("How often the ladder's verdict on a pair of variants agrees with the exact comparison, "
      "on variants small enough to solve whole in seconds. Each family below was played as one "
      "ladder; its tables end no game (`--no-referee`): they give the `perfect` rung its moves "
      "and give every variant two exact values of its random openings, each the expected side-0 "
      "score when, after the uniformly random opening plies, both sides play perfectly:\n")
    a(f"- **over the games' openings** (the truth every rung is scored against): the mean over the "
      f"{games} openings the ladder's games drew (game `i` from the seed `seed + i`, the same "
      "openings at every rung). Perfect players reach exactly this value, so what is left "
      "between a rung's score and it is the players' doing (and the noise of their own choices);")
    a("- **over all openings** (shown beside it): every opening line weighted by its probability, "
      f"what the score would converge to with infinitely many games. The {games} sampled openings "
      "are worth more or less than that, and scoring against it would count that sampling as the "
      "players' error.\n")
    a("The value from the start (no random opening) is given too; most of these variants are draws "
      "from the start, so it separates few pairs.\n")
    a("A verdict at a rung is the sign of the 95 % interval of the side-0 score difference "
      "(`+`: the first variant gives side 0 more, `−`: less, `0`: no clear difference). It *agrees* "
      "when it has the sign of the exact difference over the games' openings (`0` where those values "
      "are equal); otherwise it is a *wrong direction* (the opposite sign), a *missed difference* "
      "(`0` where the values differ) or a *false difference* (a sign where they are equal).\n")
    a("## Commands and build\n")
    rate = fams[0][1]["cross_play"][0]["cell"]["games"] if fams[0][1].get("cross_play") else 0
    a(f"```sh\nscripts/calibration.sh {games} {rate} runs/calibration > runs/calibration.log   # the per-family commands below\n"
      "scripts/calibration-report.py runs/calibration runs/calibration.log results\n```\n")
    for n, r in fams:
        pl = r.get("played") or {}
        when = ""
        if pl.get("first") and pl.get("last"):
            import datetime
            fmt = lambda t: datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
            when = f"; its {pl['games']} games played {fmt(pl['first'])} to {fmt(pl['last'])} UTC"
        if pl:
            when += f", {pl['now']} of them by the run that wrote this ladder.json"
        a(f"- **{n}**: `{r['command']}` (ladder.json written by {r['build']}{when})")
    a("")
    a("Machine load during the runs (`uptime` before each family, 2 cores shared with other work):\n")
    for l in loads:
        a(f"- {l.strip()}")
    for t in timings:
        a(f"- {t.strip()}")
    a("\nThe raw games stay in the git-ignored `runs/calibration/` and are re-created by the "
      "same command (every engine used is deterministic given the seed).\n")

    a("## Agreement by rung (all families pooled)\n")
    a(f"| rung | pairs | agree | wrong direction | false difference | missed difference | agree where \\|exact diff\\| ≥ {CLEAR} | agree with start values | mean \\|score − exact\\| | the same against all openings | exact inside 95 % interval |")
    a("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    nvar = sum(len(r["calibration"]["exact"]) for _, r in fams)
    for e in engines:
        p = pooled[e]
        a(f"| `{e}` | {p['pairs']} | {p['agree']} ({100 * p['agree_share']:.0f} %) | {p['wrong']} | "
          f"{p['false_difference']} | {p['missed']} | {p['clear_agree']}/{p['clear']} | {p['agree_start']} | "
          f"{p['mean_abs_error']:.3f} | {p['mean_abs_error_all']:.3f} | {p['covered']}/{nvar} |")
    a("\n![agreement by rung](calibration.svg)\n")
    a("## Reading\n")
    good = [e for e in engines if pooled[e]["mean_abs_error"] < 0.1]
    bad = [e for e in engines if e not in good]
    ticks = lambda es: ", ".join("`" + e + "`" for e in es) or "none"
    count = lambda es, key: sum(pooled[e][key] for e in es)
    a(f"- Rungs whose self-play scores stay within 0.1 of the exact values on average ({ticks(good)}) "
      f"gave {count(good, 'wrong')} verdicts in the wrong direction and {count(good, 'false_difference')} false differences "
      f"out of {count(good, 'pairs')}; the others ({ticks(bad)}) gave {count(bad, 'wrong')} and "
      f"{count(bad, 'false_difference')} out of {count(bad, 'pairs')}.")
    def group(fam, c):
        r = dict(fams)[fam]
        return "{" + " = ".join(v for v, k in zip(r["variants"], fam_classes[fam]) if k == c) + "}"
    fam_effects = "; ".join(f"{fam}: " + ", ".join(f"{group(fam, ca)} against {group(fam, cb)}" for ca, cb in g)
                            for fam, g in effect_groups.items())
    clear_n = pooled[engines[0]]["clear"]
    a(f"- Where the exact difference is at least {CLEAR} in side 0's score, the verdict was right at " +
      ", ".join(f"`{e}` {pooled[e]['clear_agree']}/{pooled[e]['clear']}" for e in engines) +
      f". These {clear_n} clear pairs are {n_effects} independent effect{'s' if n_effects != 1 else ''}: "
      "variants of equal exact value form a group, and the pairs compare only these groups "
      f"({fam_effects or 'none'}), so each count above is {n_effects} finding{'s' if n_effects != 1 else ''} "
      "repeated, not that many.")
    small = [r_ for r_ in rows if r_["engine"] == engines[-1] and r_["exact_sign"] != 0 and not r_["clear"]]
    if small:
        a(f"- Differences smaller than {CLEAR} ({len(small)} pairs): the last rung (`{engines[-1]}`) left "
          f"{sum(1 for r_ in small if r_['verdict'] == 0)} of them at \"no clear difference\" with {games} games a variant.")
    else:
        a(f"- No pair has a nonzero exact difference smaller than {CLEAR}.")
    best = min(engines, key=lambda e: pooled[e]["mean_abs_error"])
    pb = pooled[best]
    a(f"- The rung closest to the exact values, `{best}`, scores {pb['mean_abs_error']:.3f} from the value of the games' "
      f"openings on average ({pb['covered']}/{nvar} inside its 95 % interval) and {pb['mean_abs_error_all']:.3f} from the "
      f"value over all openings: the difference between these two is the sampling of {games} openings, "
      "not the players.")
    by_err = sorted(engines, key=lambda e: pooled[e]["mean_abs_error"])
    a("- Ordered by mean score error (smallest first) the rungs are " + " < ".join(f"`{e}`" for e in by_err) +
      ". " + order_sentence(by_err, [(n, r.get("measured_order", [])) for n, r in fams]))
    a("")

    a("## Per family\n")
    for n, r in fams:
        cal = r["calibration"]
        sides = r["side_names"]
        a(f"### {n}\n")
        a(f"{r['games']} games per variant and rung, {r['random_plies']} random opening plies. "
          f"Measured order of the rungs (Bradley-Terry on cross-play, weakest first): "
          f"{' < '.join('`' + e + '`' for e in r.get('measured_order', [])) or '(no cross-play)'}.\n")
        a(f"| variant | start value for the {sides[0]} | exact {sides[0]} score of the games' openings | over all openings | " +
          " | ".join(f"`{e}`" for e in engines) + " |")
        a("|---|---|---:|---:|" + "---:|" * len(engines))
        for i, (v, x_) in enumerate(zip(r["variants"], cal["exact"])):
            scores = [c["score0"]["estimate"] for c in r["cells"][i]]
            a(f"| {v} | {x_['start0']} | {truth(x_):.3f} | {x_['score0']:.3f} | " + " | ".join(f"{s:.3f}" for s in scores) + " |")
        a("")
        a("| a | b | exact difference (games' openings) | over all openings | start difference | " + " | ".join(f"`{e}`" for e in engines) + " |")
        a("|---|---|---:|---:|---:|" + "---|" * len(engines))
        for pc in cal["pairs"]:
            want = exact_sign(pc["exact_difference"])
            cells = [sign_text(s) + (" ✓" if s == want else " ✗") for s in pc["signs"]]
            a(f"| {pc['a']} | {pc['b']} | {pc['exact_difference']:+.3f} | {pc['all_openings_difference']:+.3f} | {pc['start_difference']:+.1f} | " +
              " | ".join(cells) + " |")
        a("")
    write(os.path.join(out, "calibration.md"), "\n".join(md) + "\n")


if __name__ == "__main__":
    main()
