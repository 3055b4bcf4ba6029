#!/usr/bin/env python3
"""Ludii's seeded random games, converted into replay data for huntsolve's tests.

Reads the game logs written by Ludii's engine and writes one compact data file
per setup, tests/data/hunt/ludii-games/<preset>.txt, which
tests/it/hunt_ludii_games.rs replays move by move against huntsolve's move
generation (legal move count, the chosen move, the game's end).

How the logs were made (the logs are the input; this script does not need Ludii):
  - Engine: Ludii 1.0.8, i.e. the automenta/ludii fork at commit
    d3edb3553c2f4d020df2aa3d9a37037477da3bfd, a decompilation of Ludii-1.0.8.jar,
    built from source with two patches that restore official Ludii code (a missing
    `break` in Grammar.removeRedundantFunctionNames; the next-player loops that
    the decompiler mangled in End.applyResult, Game and
    Context.setMoverAndImpliedPrevAndNext).
  - A small driver over that engine, mode `random`:
        random <lud> 20 <seed> <out> [option ...]
    plays 20 games from the start, each move drawn as
    `moves.get(new java.util.Random(seed).nextInt(numLegal))` (one generator for
    all 20 games), up to 1000 plies, and logs every ply as
        ply mover numLegal chosenIndex from to from/label-to/label :: ludii-move
    (`handN` is a hand cell, for a drop; `pass` a pass), then
        end plies=N over=true|false winner=1|2|none
    The header lists Ludii's vertices as `# v index label x y`.

Output format (one file per setup; `#` starts a comment):
    preset NAME          huntsolve preset the record is replayed under
    ludii_hunter P       Ludii's player number (1 or 2) of the hunters
    first_ply K          Ludii's ply number of the first listed ply
    mirror_y C           (optional) huntsolve's point is Ludii's (x, C - y)
    after_pass continue  (optional) Ludii's record goes on after a blocked
                         side's pass; huntsolve's game ends there
    v INDEX LABEL X Y    Ludii's vertices
    game N               then one line per ply:
    NUMLEGAL FROM TO     Ludii's number of legal moves and the chosen move in
                         Ludii's vertex indices (FROM `h` for a drop from hand)
    NUMLEGAL pass        a pass
    end win P            Ludii's game is over after the last ply, won by player P
    end limit            Ludii's driver stopped at its ply limit (game not over)
    end truncated N      cut here; Ludii's game went on to N plies

Usage: python3 scripts/ludii_games.py --games DIR [--out DIR] [--max-plies N]
       (DIR: the folder of Ludii's logs; defaults: tests/data/hunt/ludii-games, 600)
"""

import argparse
import os
import re
import sys

# Ludii log file -> (preset, Ludii's player of the hunters, notes for the header,
# extra header keys).
SETUPS = [
    ("Diviyan Keliya", "diviyan-keliya-ludii", 1, [], []),
    (
        "Baghchal",
        "bagh-chal-ludii",
        2,
        [
            "Ludii's default ruleset \"Baghchal (Observed)\", option",
            '"End Rules/Capture all the tigers" (the .lud names the goats P1 and',
            "ends when P1 has 0 pieces: the tigers must take all 20 goats), hence",
            "bagh-chal-ludii (hunter_win=captures>=20), not bagh-chal (captures>=5).",
        ],
        [],
    ),
    (
        "Hat Diviyan Keliya",
        "hat-diviyan-keliya",
        1,
        [
            "Known difference: a tiger blocked during the leopards' drop phase",
            "(while leopards are in hand, or by their last drop) passes in Ludii",
            "and play continues; huntsolve's preset ends the game there (the tiger",
            "loses). Ludii evaluates the end rules of the phase of the player who",
            "just moved, and only its \"Movement\" phase has them (\"NoMoves\" Loss);",
            "a player's phase changes after that check, so no leopard drop, not",
            "even the last, is followed by the check. The test replays such a",
            "game up to that pass and checks that huntsolve sees",
            "the game over there; the rest of the record is kept, to be checked",
            "once a rules option for Ludii's reading exists.",
        ],
        ["after_pass continue"],
    ),
    (
        "Hat Diviyan Keliya (Large)",
        "hat-diviyan-keliya-large",
        1,
        [
            "Known difference (as in hat-diviyan-keliya.txt): a tiger blocked",
            "during the leopards' drop phase passes in Ludii; huntsolve ends the",
            "game.",
        ],
        ["after_pass continue"],
    ),
    ("Huli-Mane Ata", "huli-mane-ata", 2, [], []),
    ("Mysore Tiger Game", "mysore-tiger", 2, [], []),
    (
        "Pulijudamu",
        "pulijudamu",
        1,
        [
            "Ludii's ply 0 (the tiger's forced placement on the apex, its only",
            "legal move) is left out: the preset starts after it.",
        ],
        [],
    ),
    ("Adugo", "adugo", 1, [], []),
    (
        "Orissa Tiger Game (One Tiger)",
        "orissa-tiger",
        1,
        [
            "huntsolve's board is the mirror image of Ludii's (docs/rules.md",
            "section 1.8.5): a Ludii vertex (x, y) is huntsolve's point (x, 6 - y).",
        ],
        ["mirror_y 6"],
    ),
]

HEADER = re.compile(r"^# game=(.*) file=(.*) options=\[(.*)\] seed=(-?\d+) ")
VERTEX = re.compile(r"^# v (\d+) (\S+) (-?[\d.]+) (-?[\d.]+)$")
END = re.compile(r"^end plies=(\d+) over=(true|false) winner=(\S+)$")


class LogError(Exception):
    pass


def integral(text, where):
    value = float(text)
    if value != round(value):
        raise LogError(f"{where}: coordinate {text} is not a whole number")
    return int(round(value))


def read_log(path):
    """The header fields, the vertices and the games of one Ludii log."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    m = HEADER.match(lines[0]) if lines else None
    if not m:
        raise LogError(f"{path}:1: not a Ludii random-games header")
    header = {
        "game": m.group(1),
        "file": m.group(2),
        "options": [o for o in m.group(3).split(", ") if o],
        "seed": int(m.group(4)),
    }
    vertices, games = [], []
    for n, line in enumerate(lines[1:], start=2):
        where = f"{path}:{n}"
        v = VERTEX.match(line)
        if v:
            index = int(v.group(1))
            if index != len(vertices):
                raise LogError(f"{where}: vertex {index} out of order")
            x, y = integral(v.group(3), where), integral(v.group(4), where)
            vertices.append((index, v.group(2), x, y))
        elif line.startswith("#") or not line.strip():
            continue
        elif line.startswith("game "):
            if int(line.split()[1]) != len(games):
                raise LogError(f"{where}: game {line.split()[1]} out of order")
            games.append({"plies": [], "end": None})
        elif line.startswith("end "):
            e = END.match(line)
            if not e or not games or games[-1]["end"] is not None:
                raise LogError(f"{where}: bad end line")
            plies, over, winner = int(e.group(1)), e.group(2) == "true", e.group(3)
            if plies != len(games[-1]["plies"]):
                raise LogError(f"{where}: end says {plies} plies, the record has {len(games[-1]['plies'])}")
            games[-1]["end"] = (over, winner)
        else:
            fields = line.split(" :: ")[0].split()
            if len(fields) != 7 or not games:
                raise LogError(f"{where}: bad ply line")
            ply, mover, legal, chosen, frm, to = map(int, fields[:6])
            if ply != len(games[-1]["plies"]) or not 0 <= chosen < legal:
                raise LogError(f"{where}: bad ply numbers")
            desc = fields[6]
            if desc == "pass":
                move = "pass"
            else:
                d = re.match(r"^(hand)?(\d+)(?:/\S+)?-(\d+)/\S+$", desc)
                if not d or int(d.group(2)) != frm or int(d.group(3)) != to:
                    raise LogError(f"{where}: cannot read the move {desc}")
                if not 0 <= to < len(vertices) or (not d.group(1) and not 0 <= frm < len(vertices)):
                    raise LogError(f"{where}: vertex out of range in {desc}")
                move = ("h" if d.group(1) else str(frm), str(to))
            games[-1]["plies"].append((mover, legal, move))
    if not games or any(g["end"] is None for g in games):
        raise LogError(f"{path}: a game has no end line")
    return header, vertices, games


def convert(log_dir, name, preset, hunter, notes, keys, max_plies):
    """The data file's text for one setup, and (games, plies kept)."""
    path = os.path.join(log_dir, name + ".txt")
    header, vertices, games = read_log(path)
    lud = os.path.basename(header["file"])
    first_ply = 1 if preset == "pulijudamu" else 0
    out = [
        f"# Ludii's random games of {header['game']}, for huntsolve's preset {preset}.",
        "# Source: Ludii 1.0.8's own engine (the automenta/ludii fork at commit",
        "# d3edb3553c2f4d020df2aa3d9a37037477da3bfd, a decompilation of Ludii-1.0.8.jar,",
        "# with two patches restoring official Ludii code); scripts/ludii_games.py tells more.",
        f"# Game file: {header['file']}",
        f"# Options: {', '.join(header['options']) if header['options'] else 'none (the defaults)'}",
        f"# Seed: {header['seed']} (java.util.Random; each move is moves[nextInt(numLegal)])",
        "# Made by the Ludii driver's mode `random`:",
        f'#   random "{header["file"]}" 20 {header["seed"]} "games/{name}.txt"'
        + "".join(f' "{o}"' for o in header["options"]),
        f'# then: python3 scripts/ludii_games.py (reads games/{name}.txt, writes this file).',
        f"# Games longer than {max_plies} plies are cut at {max_plies} (`end truncated N`: Ludii",
        "# went on to N plies); Ludii's driver itself stops at 1000 plies (`end limit`).",
    ]
    out += [f"# {n}" for n in notes]
    passes = [
        f"game {n} ply {k}"
        for n, g in enumerate(games)
        for k, (_, _, move) in enumerate(g["plies"])
        if move == "pass" and k + 1 < len(g["plies"])
    ]
    if "after_pass continue" in keys:
        out.append(f"# Passes that Ludii's record goes on after: {', '.join(passes) or 'none'}.")
    elif passes:
        raise LogError(f"{name}: Ludii goes on after a pass ({', '.join(passes)})")
    out += [
        "#",
        "# Keys: preset (huntsolve's rules), ludii_hunter (Ludii's player number of the hunters),",
        "# first_ply (Ludii's ply number of each game's first line), mirror_y C (huntsolve's point",
        "# is Ludii's (x, C - y)), after_pass continue (Ludii's record goes on after a pass).",
        "# Vertex table: `v <Ludii index> <Ludii label> <x> <y>` (Ludii's coordinates).",
        "# Per game: `game N`, then one line per ply: `<numLegal> <from> <to>`, Ludii's number of",
        "# legal moves and its chosen move in Ludii vertex indices (`h` for a drop from hand),",
        "# or `<numLegal> pass`; then the end: `end win P` (game over, Ludii's player P won),",
        "# `end limit` (Ludii's 1000-ply limit, not over) or `end truncated N`.",
        f"preset {preset}",
        f"ludii_hunter {hunter}",
        f"first_ply {first_ply}",
    ]
    out += keys
    out += [f"v {i} {label} {x} {y}" for i, label, x, y in vertices]
    kept = 0
    for n, game in enumerate(games):
        plies = game["plies"]
        if first_ply:
            mover, legal, move = plies[0]
            if legal != 1 or move == "pass" or move[0] != "h":
                raise LogError(f"{name} game {n}: ply 0 is not a forced drop")
            plies = plies[1:]
        out.append(f"game {n}")
        total = len(plies)
        plies = plies[:max_plies]
        kept += len(plies)
        for _, legal, move in plies:
            out.append(f"{legal} pass" if move == "pass" else f"{legal} {move[0]} {move[1]}")
        over, winner = game["end"]
        if total > max_plies:
            out.append(f"end truncated {total + first_ply}")
        elif over:
            if winner not in ("1", "2"):
                raise LogError(f"{name} game {n}: over without a winner ({winner})")
            out.append(f"end win {winner}")
        else:
            out.append("end limit")
    return "\n".join(out) + "\n", len(games), kept


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", required=True, help="the folder of Ludii's game logs")
    ap.add_argument("--out", default="tests/data/hunt/ludii-games")
    ap.add_argument("--max-plies", type=int, default=600)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name, preset, hunter, notes, keys in SETUPS:
        try:
            text, games, plies = convert(args.games, name, preset, hunter, notes, keys, args.max_plies)
        except (OSError, LogError) as e:
            print(f"ludii_games.py: {e}", file=sys.stderr)
            return 1
        target = os.path.join(args.out, preset + ".txt")
        with open(target, "w", encoding="utf-8") as f:
            f.write(text)
        print(f"{target}: {games} games, {plies} plies, {len(text)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
