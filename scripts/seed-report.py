#!/usr/bin/env python3
"""Census of a seed endgame directory made by scripts/solve-seeds.sh, as Markdown and JSON.

    scripts/seed-report.py DIR [DIR...] > section.md

For each DIR (tables/seeds/RULES) it reads summary.json, analyze.json (with --by-side),
verify.json, solve.log and the /usr/bin/time logs, writes results/seed-endgames/RULES.json
(the figures a paper would cite, with the command and build) and prints a Markdown section:
per tier (cows on board) the classes, positions, outcomes for the side to move, the share of
positions (each class weighted by its orbit) that each side wins with the leopards and with
the cows to move, the longest win, and the smallest number of cows from which the cows win
any position at all. Standard library only.

A tier counts as verified whole ("verified_whole") when the census's own verify covered it
whole, or when a results/seed-endgames/verify-whole-RULES-*.json report (a separate `verify`
of chosen tiers with no sample) did with no mismatch; "verified_whole_by" names that report.

    scripts/seed-report.py --mark-whole

re-marks the committed results/seed-endgames/RULES.json files from those reports alone (no
tables needed).
"""
import json
import os
import re
import sys

# Cows of the seed presets (all three start with 24); PREY=n for another value.
PREY = int(os.environ.get("PREY", "24"))


def time_log(path):
    out = {}
    if not os.path.exists(path):
        return out
    for line in open(path):
        line = line.strip()
        if line.startswith("User time"):
            out["user_s"] = float(line.split(":")[1])
        elif line.startswith("System time"):
            out["sys_s"] = float(line.split(":")[1])
        elif line.startswith("Elapsed"):
            t = line.split(": ")[1].split(":")
            secs = 0.0
            for part in t:
                secs = secs * 60 + float(part)
            out["wall_s"] = secs
        elif line.startswith("Maximum resident"):
            out["peak_rss_bytes"] = int(line.split(":")[1]) * 1024
    return out


def marked_runs(log):
    """The `solve:` lines of a solve.log, each run that did not end well marked: the
    `solve exit status: N` line solve-seeds.sh writes after it (a SIGKILL, as the OOM
    killer sends, shows as 137 and "terminated by signal 9")."""
    runs = []
    for line in log.splitlines():
        if line.startswith("solve: "):
            runs.append(line[len("solve: "):])
        elif line.startswith("solve exit status: ") and runs:
            status = line[len("solve exit status: "):]
            if not status.startswith("0"):
                kind = "killed" if "signal 9" in status or status.startswith("137") else "failed"
                runs[-1] += f" [{kind}: exit status {status}]"
    return runs


def whole_verifies(rules):
    """{tier: report file} of the tiers a verify-whole report of `rules` checked whole
    (every slot, no sample) with no mismatch."""
    out = {}
    folder = "results/seed-endgames"
    prefix = f"verify-whole-{rules}-"
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        if not (name.startswith(prefix) and name.endswith(".json")):
            continue
        rep = json.load(open(os.path.join(folder, name)))
        if rep.get("rules") != rules:
            continue
        for t in rep["tiers"]:
            if t.get("sampled_slots") is None and t.get("mismatches") == 0:
                out.setdefault(t["tier"], name)
    return out


def mark_whole():
    folder = "results/seed-endgames"
    for name in sorted(os.listdir(folder)):
        if name.startswith("verify-whole-") or not name.endswith(".json"):
            continue
        path = os.path.join(folder, name)
        data = json.load(open(path))
        whole = whole_verifies(data["rules"])
        for t in data["tiers"]:
            by = whole.get(t["tier"])
            if by:
                t["verified_whole"] = True
                t["verified_whole_by"] = by
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(data, f, indent=1)
        os.replace(tmp, path)
        marked = [t["tier"] for t in data["tiers"] if t["verified_whole"]]
        print(f"{name}: verified whole {', '.join(marked) or 'none'}")


def pct(a, b):
    return 100.0 * a / b if b else 0.0


def main(dirs):
    for d in dirs:
        summary = json.load(open(os.path.join(d, "summary.json")))
        analyze = json.load(open(os.path.join(d, "analyze.json")))
        verify = json.load(open(os.path.join(d, "verify.json")))
        rules = summary["rules"]
        log = open(os.path.join(d, "solve.log")).read()
        runs = marked_runs(log)
        times = {}
        for name in sorted(os.listdir(d)):
            m = re.match(r"time-(solve|analyze|verify)-(\d+)\.log", name)
            if m:
                times[f"{m.group(1)} max-prey {m.group(2)}"] = time_log(os.path.join(d, name))
        table_bytes = sum(
            os.path.getsize(os.path.join(d, f)) for f in os.listdir(d) if f.endswith(".hst")
        )
        solved = {t["tier"]: t for t in summary["tiers"]}
        verified = {t["tier"]: t for t in verify["tiers"]}
        whole = whole_verifies(rules)
        tiers = []
        for t in sorted(analyze["tiers"], key=lambda t: -int(t["tier"].split("c")[1])):
            name = t["tier"]
            sides = {s["name"]: s for s in t["by_side"]}
            h, p = sides["hunter"]["weighted"], sides["prey"]["weighted"]
            positions = h["positions"] + p["positions"]
            leopards = h["wins"] + p["losses"]
            cows = h["losses"] + p["wins"]
            v = verified.get(name, {})
            tiers.append(
                {
                    "tier": name,
                    "cows": PREY - int(name.split("c")[1]),
                    "classes": t["positions"],
                    "slots": t["records"],
                    "positions": positions,
                    "wins": t["wins"],
                    "losses": t["losses"],
                    "draws": t["draws"],
                    "max_win": t["max_win"],
                    "max_loss": t["max_loss"],
                    "leopards_win_positions": leopards,
                    "cows_win_positions": cows,
                    "drawn_positions": positions - leopards - cows,
                    "leopards_to_move": h,
                    "cows_to_move": p,
                    "longest_win": {k: t["longest_win"][k] for k in ("position", "distance")}
                    if t.get("longest_win")
                    else None,
                    "seconds": solved.get(name, {}).get("seconds"),
                    "file_bytes": t.get("file_bytes"),
                    "verified_slots": v.get("sampled_slots") or v.get("records"),
                    "verified_whole": name in whole or (v.get("sampled_slots") is None and bool(v)),
                    "verified_whole_by": whole.get(name),
                    "verify_mismatches": v.get("mismatches"),
                }
            )
        cows_win = [t["cows"] for t in tiers if t["cows_win_positions"] > 0]
        out = {
            "rules": rules,
            "fingerprint": summary.get("fingerprint"),
            "runs": runs,
            "times": times,
            "table_bytes": table_bytes,
            "verify": {
                "slots_checked": verify.get("positions"),
                "mismatches": verify.get("mismatches"),
            },
            "smallest_cows_with_a_cows_win": min(cows_win) if cows_win else None,
            "tiers": tiers,
        }
        os.makedirs("results/seed-endgames", exist_ok=True)
        with open(f"results/seed-endgames/{rules}.json", "w") as f:
            json.dump(out, f, indent=1)
        print(f"### {rules}\n")
        for r in runs:
            print(f"- run: `{r}`")
        for k, v in times.items():
            if v:
                print(
                    f"- {k}: wall {v.get('wall_s', 0):.0f} s, CPU {v.get('user_s', 0) + v.get('sys_s', 0):.0f} s, "
                    f"peak RSS {v.get('peak_rss_bytes', 0) / 1e9:.2f} GB"
                )
        print(f"- tables: {table_bytes:,} bytes on disk; verify: {verify.get('positions'):,} classes re-derived, "
              f"{verify.get('mismatches')} mismatches\n")
        print("| tier | cows | classes | positions | won / lost / drawn (classes, side to move) | longest win / loss (plies) | leopards win | cows win | drawn | verified |")
        print("|---|---:|---:|---:|---|---|---:|---:|---:|---|")
        for t in tiers:
            n = t["positions"]
            ver = ("whole" if t["verified_whole"] else f"{t['verified_slots']:,} slots") + f", {t['verify_mismatches']} bad"
            print(
                f"| {t['tier']} | {t['cows']} | {t['classes']:,} | {n:,} | {t['wins']:,} / {t['losses']:,} / {t['draws']:,} | "
                f"{t['max_win']} / {t['max_loss']} | {pct(t['leopards_win_positions'], n):.4f} % | "
                f"{pct(t['cows_win_positions'], n):.5f} % ({t['cows_win_positions']:,}) | {pct(t['drawn_positions'], n):.4f} % | {ver} |"
            )
        print()
        print(
            "Smallest number of cows from which the cows win some position (immobilise both leopards): "
            + (f"{min(cows_win)}." if cows_win else "none in these tiers.")
            + " Shares are of positions (placements with side to move: each class weighted by its orbit), both sides to move together.\n"
        )
        best = max(tiers, key=lambda t: t["max_win"])
        if best["longest_win"]:
            print(f"Longest win: {best['longest_win']['distance']} plies, `{best['longest_win']['position']}` (tier {best['tier']}).\n")


if __name__ == "__main__":
    if sys.argv[1:] == ["--mark-whole"]:
        mark_whole()
    else:
        main(sys.argv[1:])
