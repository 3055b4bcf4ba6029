#!/usr/bin/env python3
"""Independent perft counts for the hunt-game family (results/atlas.md).

Written from Ludii's rules files (Ludeme/Ludii, Common/res/lud/board/hunt/*.lud)
and Ludii's graph constructors, NOT from huntsolve's Rust code: the boards are
rebuilt here with Ludii's operations (wedge, square with alternating
diagonals, scale, shift, rotate, merge, remove, add) on floating-point
coordinates, and the jumps follow Ludii's radial rule (from the point jumped
over, continue along the least-bent edge if the bend is below 0.25 rad,
Core/src/game/util/graph/Trajectories.java `followRadial`).

The count is huntsolve's perft: a position where the game is over (the side
to move has no legal move, or the hunters have their captures) is one leaf at
any depth; otherwise perft(d) sums perft(d-1) over the legal moves.  The
game-over test is made at the start of each turn (docs/rules.md H13).

Usage: python3 scripts/family_perft.py [GAME ...] [--depth N]
       (no GAME: every game; prints `rules` and `perft` lines for
       tests/data/hunt/start.perft)
"""

import math
import sys
import time

# ---------------------------------------------------------------- graphs


class Graph:
    """Vertices (x, y) in Ludii's order and undirected edges as index pairs."""

    def __init__(self, verts=None, edges=None):
        self.v = list(verts or [])
        self.e = set()
        for a, b in edges or []:
            self.add_edge(a, b)

    def add_edge(self, a, b):
        if a != b:
            self.e.add((min(a, b), max(a, b)))

    def copy(self):
        return Graph(self.v, self.e)


def wedge(rows, columns=3):
    """Ludii Wedge.java: apex at (mid, mid); row r at y = mid - r with
    `columns` points spread from x = mid - r to mid + r."""
    g = Graph()
    mid = rows - 1
    for r in range(rows):
        if r == 0:
            g.v.append((float(mid), float(mid)))
        else:
            left, right = mid - r, mid + r
            for c in range(columns):
                t = c / (columns - 1)
                g.v.append((left + t * (right - left), float(mid - r)))
    for r in range(rows):
        if r == 0:
            for c in range(columns):
                g.add_edge(0, c + 1)
        else:
            frm = r * columns - columns + 1
            for c in range(columns - 1):
                g.add_edge(frm + c, frm + c + 1)
            if r < rows - 1:
                for c in range(columns):
                    g.add_edge(frm + c, frm + columns + c)
    return g


def square_alternating(n):
    """(square n diagonals:Alternating): unit grid; the cell with lower-left
    corner (c, r) has the diagonal (c,r)-(c+1,r+1) when c+r is even, else
    (c,r+1)-(c+1,r) (Square.java handleDiagonals)."""
    g = Graph()
    idx = {}
    for r in range(n):
        for c in range(n):
            idx[(c, r)] = len(g.v)
            g.v.append((float(c), float(r)))
    for r in range(n):
        for c in range(n):
            if c + 1 < n:
                g.add_edge(idx[(c, r)], idx[(c + 1, r)])
            if r + 1 < n:
                g.add_edge(idx[(c, r)], idx[(c, r + 1)])
            if c + 1 < n and r + 1 < n:
                if (c + r) % 2 == 0:
                    g.add_edge(idx[(c, r)], idx[(c + 1, r + 1)])
                else:
                    g.add_edge(idx[(c, r + 1)], idx[(c + 1, r)])
    return g


def rectangle(rows, cols):
    """(rectangle rows cols): orthogonal grid, row-major from the bottom."""
    g = Graph()
    idx = {}
    for r in range(rows):
        for c in range(cols):
            idx[(c, r)] = len(g.v)
            g.v.append((float(c), float(r)))
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols:
                g.add_edge(idx[(c, r)], idx[(c + 1, r)])
            if r + 1 < rows:
                g.add_edge(idx[(c, r)], idx[(c, r + 1)])
    return g


def scale(g, sx, sy):
    h = g.copy()
    h.v = [(x * sx, y * sy) for x, y in g.v]
    return h


def shift(g, dx, dy):
    h = g.copy()
    h.v = [(x + dx, y + dy) for x, y in g.v]
    return h


def rotate(g, degrees):
    """Anticlockwise about the centre of the bounding box (Graph.rotate)."""
    xs = [x for x, _ in g.v]
    ys = [y for _, y in g.v]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    a = math.radians(degrees)
    h = g.copy()
    h.v = [
        (
            cx + (x - cx) * math.cos(a) - (y - cy) * math.sin(a),
            cy + (x - cx) * math.sin(a) + (y - cy) * math.cos(a),
        )
        for x, y in g.v
    ]
    return h


def merge(*graphs):
    """Union; vertices closer than 0.01 are one (Merge.java). The first
    graph's vertices keep their numbers, new ones are appended."""
    out = Graph()
    for g in graphs:
        remap = {}
        for i, (x, y) in enumerate(g.v):
            for j, (u, w) in enumerate(out.v):
                if abs(u - x) < 0.01 and abs(w - y) < 0.01:
                    remap[i] = j
                    break
            else:
                remap[i] = len(out.v)
                out.v.append((x, y))
        for a, b in g.e:
            out.add_edge(remap[a], remap[b])
    return out


def remove(g, vertices=(), edges=()):
    h = g.copy()
    for a, b in edges:
        h.e.discard((min(a, b), max(a, b)))
    if vertices:
        keep = [i for i in range(len(g.v)) if i not in set(vertices)]
        new = {old: k for k, old in enumerate(keep)}
        h.v = [g.v[i] for i in keep]
        h.e = {
            (min(new[a], new[b]), max(new[a], new[b]))
            for a, b in h.e
            if a in new and b in new
        }
    return h


def add(g, edges=()):
    h = g.copy()
    for a, b in edges:
        h.add_edge(a, b)
    return h


class Board:
    """Neighbours and Ludii-style radial jumps of a graph."""

    def __init__(self, name, g):
        self.name = name
        self.xy = g.v
        self.n = len(g.v)
        self.nb = [set() for _ in range(self.n)]
        for a, b in g.e:
            self.nb[a].add(b)
            self.nb[b].add(a)
        # jump[a] = list of (over, to): the radial from a through its
        # neighbour b continues to the least-bent edge of b, bend < 0.25 rad.
        self.jump = [[] for _ in range(self.n)]
        for a in range(self.n):
            for b in self.nb[a]:
                hx, hy = self.xy[b][0] - self.xy[a][0], self.xy[b][1] - self.xy[a][1]
                best, best_bend = None, None
                for c in self.nb[b]:
                    if c == a:
                        continue
                    dx, dy = self.xy[c][0] - self.xy[b][0], self.xy[c][1] - self.xy[b][1]
                    bend = abs(
                        math.atan2(hx * dy - hy * dx, hx * dx + hy * dy)
                    )
                    if best_bend is None or bend < best_bend:
                        best, best_bend = c, bend
                if best is not None and best_bend < 0.25:
                    self.jump[a].append((b, best))

    def site(self, x, y):
        for i, (u, w) in enumerate(self.xy):
            if abs(u - x) < 1e-6 and abs(w - y) < 1e-6:
                return i
        raise KeyError((x, y))

    def ludii_label(self, label):
        """Ludii's coordinate label of a vertex: the column letter counts the
        distinct x values, the row number the distinct y values."""
        xs = sorted({round(x, 6) for x, _ in self.xy})
        ys = sorted({round(y, 6) for _, y in self.xy})
        col = ord(label[0].upper()) - ord("A")
        row = int(label[1:]) - 1
        return self.site(xs[col], ys[row])

    def counts(self):
        edges = sum(len(s) for s in self.nb) // 2
        jumps = sum(len(j) for j in self.jump)
        return self.n, edges, jumps


# ------------------------------------------------------------- the boards


def board_triangle(rows):
    # Hat Diviyan Keliya.lud / Huli-Mane Ata.lud: (scale 1 2 (wedge rows))
    return scale(wedge(rows), 1, 2)


def board_mysore():
    # Mysore Tiger Game.lud:
    # (add (remove (scale 1 2 (wedge 3)) vertices:{5}) edges:{{4 5}})
    return add(remove(scale(wedge(3), 1, 2), vertices=[5]), edges=[(4, 5)])


def board_pulijudamu():
    # Pulijudamu.lud
    g = merge(scale(wedge(5, 3), 1, 2), shift(scale(rectangle(3, 2), 8, 2), 0, 2))
    g = remove(g, edges=[(17, 18), (15, 16), (13, 14)])
    return add(g, edges=[(13, 7), (15, 4), (17, 1), (3, 18), (6, 16), (9, 14)])


def board_bottom_triangle():
    # AlquerqueGraphWithBottomTriangle.def (Adugo.lud)
    return merge(shift(square_alternating(5), 0, 2), wedge(3))


def board_orissa_one():
    # Orissa Tiger Game (One Tiger).lud
    return merge(square_alternating(5), shift(rotate(wedge(3), 180), 0, 4))


def rectangle_alternating(rows, cols):
    """(rectangle rows cols diagonals:Alternating): the grid of `rectangle` with
    one diagonal per cell, as square_alternating (Square.java handleDiagonals)."""
    g = rectangle(rows, cols)
    idx = {(int(x), int(y)): i for i, (x, y) in enumerate(g.v)}
    for r in range(rows - 1):
        for c in range(cols - 1):
            if (c + r) % 2 == 0:
                g.add_edge(idx[(c, r)], idx[(c + 1, r + 1)])
            else:
                g.add_edge(idx[(c, r + 1)], idx[(c + 1, r)])
    return g


def board_cross33():
    # Fox and Geese.lud ("CrossBoard" 3 7 diagonals:Alternating); Manu.lud,
    # Refskak.lud and Musinaykahwhanmetowaywin.lud spell it out:
    # (merge (shift 0 2 (rectangle 3 7 diagonals:Alternating))
    #        (shift 2 0 (rectangle 7 3 diagonals:Alternating)))
    return merge(shift(rectangle_alternating(3, 7), 0, 2), shift(rectangle_alternating(7, 3), 2, 0))


def board_nuktagaq():
    # Nuktagaq.lud: (remove ("CrossGraph" 3 7 diagonals:Alternating)
    #   edges:{{17 10} {9 10} {10 11}}); the ids are those of the merge above
    # (the 3x7 rectangle first, row by row), so 10 is the centre (3,3).
    g = board_cross33()
    assert g.v[10] == (3.0, 3.0) and g.v[9] == (2.0, 3.0) and g.v[17] == (3.0, 4.0)
    return remove(g, edges=[(17, 10), (9, 10), (10, 11)])


def board_radiating5():
    # Coyote.lud: (rectangle 5 5 diagonals:Radiating): the grid and the
    # diagonal steps out of the centre in the four directions, i.e. the two
    # long diagonals (Square.java, DiagonalsType.Radiating).
    g = rectangle(5, 5)
    idx = {(int(x), int(y)): i for i, (x, y) in enumerate(g.v)}
    for n in range(3):
        for dx, dy in ((1, 1), (1, -1), (-1, -1), (-1, 1)):
            a, b = (2 + n * dx, 2 + n * dy), (2 + (n + 1) * dx, 2 + (n + 1) * dy)
            if a in idx and b in idx:
                g.add_edge(idx[a], idx[b])
    return g


def board_la_yagua():
    # La Yagua.lud: (add (merge (rotate 180 (wedge 3))
    #   (shift 0 -4 (square 5 diagonals:Alternating))) edges:{{1 5} {5 3}})
    g = merge(rotate(wedge(3), 180), shift(square_alternating(5), 0, -4))
    return add(g, edges=[(1, 5), (5, 3)])


def board_juroku():
    # Juroku Musashi.lud, "Described": (add (merge (scale 2 (square 5
    #   diagonals:Alternating)) (shift 2 -2 (wedge 3))) vertices:{{3 -2} {5 -2}}
    #   edges:{{25 31} {25 29} {27 29} {27 32}})
    g = merge(scale(square_alternating(5), 2, 2), shift(wedge(3), 2, -2))
    g.v += [(3.0, -2.0), (5.0, -2.0)]
    return add(g, edges=[(25, 31), (25, 29), (27, 29), (27, 32)])


def board_komikan():
    # Komikan.lud: (merge (scale 2 (square 5 diagonals:Alternating)) (graph
    #   vertices:{...} edges:{...})), the triangle given point by point
    tri = Graph(
        [(4, 8), (3, 9), (4, 9), (5, 9), (2, 10), (3, 10), (4, 10), (5, 10), (6, 10),
         (1, 11), (3, 11), (4, 11), (5, 11), (7, 11)],
        [(0, 1), (0, 2), (0, 3), (1, 4), (1, 5), (1, 2), (2, 6), (2, 3), (3, 7), (3, 8),
         (4, 9), (4, 5), (5, 10), (5, 6), (6, 11), (6, 7), (7, 12), (7, 8), (8, 13),
         (9, 10), (10, 11), (11, 12), (12, 13)],
    )
    tri.v = [(float(x), float(y)) for x, y in tri.v]
    return merge(scale(square_alternating(5), 2, 2), tri)


def board_demala():
    # Demala Diviyan Keliya.lud, "Normal" (also Mysore Tiger Game (Three
    # Tigers).lud): (add (remove (merge (shift 0 2 (scale 8 2 (rectangle 3 2)))
    #   (scale 1 2 (wedge 5 4))) edges:{{0 1} {2 3} {4 5}})
    #   edges:{{0 15} {18 1} {2 11} {14 3} {4 7} {10 5}})
    g = merge(shift(scale(rectangle(3, 2), 8, 2), 0, 2), scale(wedge(5, 4), 1, 2))
    g = remove(g, edges=[(0, 1), (2, 3), (4, 5)])
    return add(g, edges=[(0, 15), (18, 1), (2, 11), (14, 3), (4, 7), (10, 5)])


def board_bam_blang():
    # Bam Blang Beh Khla.lud: (add (remove (merge {(shift 0.4 -1 (scale 0.6
    #   (rectangle 1 3))) (shift 0.2 0 (scale 0.8 2 (wedge 2))) (shift 0 -0.5
    #   (scale 1 2.5 (wedge 2)))}) edges:{{3 8} {3 7} {3 9}}) edges:{{6 9} {4 7} {1 8}})
    g = merge(
        shift(scale(rectangle(1, 3), 0.6, 0.6), 0.4, -1),
        shift(scale(wedge(2), 0.8, 2), 0.2, 0),
        shift(scale(wedge(2), 1, 2.5), 0, -0.5),
    )
    g = remove(g, edges=[(3, 8), (3, 7), (3, 9)])
    return add(g, edges=[(6, 9), (4, 7), (1, 8)])


def board_yeung_luk():
    # Yeung Luk Sz' Kon Tseung Kwan.lud: (merge (rectangle 9 5)
    #   (shift 1 8 (scale 0.5 (wedge 3))))
    return merge(rectangle(9, 5), shift(scale(wedge(3), 0.5, 0.5), 1, 8))


# -------------------------------------------------------------- the rules


class Rules:
    def __init__(self, board, hunters_start, hunters_hand, prey_start, prey_hand,
                 hunter_first, win_captures):
        self.b = board
        self.hunters_start = frozenset(hunters_start)
        self.hunters_hand = hunters_hand
        self.prey_start = frozenset(prey_start)
        self.prey_hand = prey_hand
        self.hunter_first = hunter_first
        self.win = win_captures
        self.compulsory = False
        # Ludii's multiple hops with a Pass in the same turn (HopSequenceCapture and
        # HopSequenceCaptureAgain or Pass): "optional"; `at:EndOfTurn` keeps the jumped
        # prey on the board until the turn ends ("end"), else they go at once.
        self.chain = "none"
        self.removal = "immediate"
        # A file with no end rule for blocked prey: Ludii gives the side with no
        # legal move a forced pass.
        self.prey_pass = False
        # huntsolve's rule (docs/rules.md 2.1): chains that end in the same position
        # are one move; Ludii's engine counts every order of the hops (`,paths`).
        self.dedupe = True
        self.stop_at = None
        # Komikan: "(if (no Moves P2) (result Mover Draw))": the game ends.
        self.prey_draw = False

    def start(self):
        # (hunters, prey, hunters in hand, prey in hand, captured, hunter to move)
        return (self.hunters_start, self.prey_start, self.hunters_hand,
                self.prey_hand, 0, self.hunter_first)

    def moves(self, s):
        """Legal moves, or None when the game is over for the side to move.

        Every game here: a side with pieces in hand places one on an empty
        point (its only kind of move: each .lud's Placement/Opening phase);
        afterwards a piece steps to an empty neighbour, and a hunter may
        instead hop over one adjacent prey along a radial to the empty point
        beyond, removing it (HopCapture, one hop per turn: no moveAgain).
        A side with no move loses ("NoMoves" Loss / no Moves P).
        """
        hunters, prey, hh, ph, cap, hunter_turn = s
        if cap >= self.win:
            return None
        empty = [i for i in range(self.b.n) if i not in hunters and i not in prey]
        out = []
        if hunter_turn:
            if hh > 0:
                return [("drop", t) for t in empty] or None
            for h in sorted(hunters):
                for t in self.b.nb[h]:
                    if t not in hunters and t not in prey:
                        out.append(("step", h, t))
                if self.chain == "none":
                    for over, t in self.b.jump[h]:
                        if over in prey and t not in hunters and t not in prey:
                            out.append(("hop", h, over, t))
                else:
                    # every chain of hops with this hunter, stopping after any hop;
                    # chains that end in the same position are one move
                    ends = set() if self.dedupe else []
                    # Ludii checks the end rules after every hop: its chain stops at the
                    # winning capture (`,paths` only; huntsolve's chain may go on)
                    self.stop_at = None if self.dedupe else self.win - cap
                    self.chains(h, h, frozenset(hunters - {h}), prey, frozenset(), ends)
                    out.extend(("chain", h, to, taken) for to, taken in sorted(ends, key=str))
            if self.compulsory and any(m[0] == "hop" for m in out):
                out = [m for m in out if m[0] == "hop"]
        else:
            if ph > 0:
                return [("drop", t) for t in empty] or None
            for q in sorted(prey):
                for t in self.b.nb[q]:
                    if t not in hunters and t not in prey:
                        out.append(("step", q, t))
            if not out and self.prey_pass:
                out.append(("pass",))
        return out or None

    def chains(self, start, at, others, prey, taken, ends):
        """Hops from `at` over prey not yet taken; with removal "end" the taken
        prey still stand (no landing on them), with "immediate" they are gone."""
        standing = prey if self.removal == "end" else prey - taken
        for over, to in self.b.jump[at]:
            if over not in prey or over in taken:
                continue
            if to in others or to in standing:
                continue  # the hunter's start point is empty: it left it
            now = taken | {over}
            if self.dedupe:
                ends.add((to, now))
            else:
                ends.append((to, now))
            if self.stop_at is not None and len(now) >= self.stop_at:
                continue
            self.chains(start, to, others, prey, now, ends)

    def play(self, s, m):
        hunters, prey, hh, ph, cap, hunter_turn = s
        if m[0] == "drop":
            if hunter_turn:
                hunters, hh = hunters | {m[1]}, hh - 1
            else:
                prey, ph = prey | {m[1]}, ph - 1
        elif m[0] == "step":
            if hunter_turn:
                hunters = (hunters - {m[1]}) | {m[2]}
            else:
                prey = (prey - {m[1]}) | {m[2]}
        elif m[0] == "pass":
            pass
        elif m[0] == "chain":
            hunters = (hunters - {m[1]}) | {m[2]}
            prey = prey - m[3]
            cap += len(m[3])
        else:
            hunters = (hunters - {m[1]}) | {m[3]}
            prey = prey - {m[2]}
            cap += 1
        return (frozenset(hunters), frozenset(prey), hh, ph, cap, not hunter_turn)


def perft(r, s, d, memo):
    if d == 0:
        return 1
    key = (s, d)
    if key in memo:
        return memo[key]
    ms = r.moves(s)
    if ms is None:
        n = 1
    elif d == 1:
        n = len(ms)
    else:
        n = sum(perft(r, r.play(s, m), d - 1, memo) for m in ms)
    memo[key] = n
    return n


def games():
    t10 = Board("triangle10", board_triangle(4))
    t13 = Board("triangle13", board_triangle(5))
    my = Board("mysore6", board_mysore())
    pj = Board("pulijudamu19", board_pulijudamu())
    bt = Board("alquerque31", board_bottom_triangle())
    oo = Board("orissa31", board_orissa_one())
    top = lambda b: [i for i, (x, y) in enumerate(b.xy) if y == max(v[1] for v in b.xy)]
    out = {}
    # Hat Diviyan Keliya.lud, default "Ludovici and Parker": 1 tiger, 7
    # leopards, both from hand; P1 (tiger) first; tiger wins at 3 leopards left.
    out["hat-diviyan-keliya"] = Rules(t10, [], 1, [], 7, True, 7 - 3)
    # Same file, option "Large": (wedge 5), 2 tigers, 8 leopards, goal 5 left.
    out["hat-diviyan-keliya-large"] = Rules(t13, [], 2, [], 8, True, 8 - 5)
    # Huli-Mane Ata.lud: tiger on (sites Top); 5 lambs in hand; lambs (P1)
    # first; the tiger wins when fewer than 4 lambs remain.
    out["huli-mane-ata"] = Rules(t10, top(t10), 0, [], 5, False, 5 - 3)
    # Mysore Tiger Game.lud: tiger on (sites Top); 3 people in hand, people
    # (P1) first; the tiger wins when fewer than 3 people remain.
    out["mysore-tiger"] = Rules(my, top(my), 0, [], 3, False, 1)
    # Pulijudamu.lud, options "1 Tiger" and "5 Goats": the tiger's forced
    # placement on (sites Top) is P1's first turn, so after it the goats
    # place; the tiger wins when the goats have no pieces.
    out["pulijudamu"] = Rules(pj, top(pj), 0, [], 5, False, 5)
    # Adugo.lud: jaguar on C5, dogs on (expand (sites Top) steps:2) minus C5;
    # P1 (jaguar) moves first; default end: the dogs lose at <= 0 dogs.
    c5 = bt.ludii_label("C5")
    near_top = {i for i, (x, y) in enumerate(bt.xy) if y >= max(v[1] for v in bt.xy) - 2}
    out["adugo"] = Rules(bt, [c5], 0, sorted(near_top - {c5}), 0, True, 14)
    # Option "Capture at least five dogs": the dogs lose at <= 9 dogs.
    out["adugo-5"] = Rules(bt, [c5], 0, sorted(near_top - {c5}), 0, True, 5)
    # Orissa Tiger Game (One Tiger).lud: tiger on C6, goats on
    # (expand (sites Bottom)) plus A3 and E3; the tiger (P1) first; the tiger
    # wins when the goats have no pieces.
    c6 = oo.ludii_label("C6")
    low = {i for i, (x, y) in enumerate(oo.xy) if y <= 1}
    goats = low | {oo.ludii_label("A3"), oo.ludii_label("E3")}
    out["orissa-tiger"] = Rules(oo, [c6], 0, sorted(goats), 0, True, 12)
    family_first_wave(out)
    return out


def expand(b, sites, steps=1):
    """Ludii's (expand REGION steps:N): the region and every point within N
    edges of it."""
    region = set(sites)
    for _ in range(steps):
        region |= {q for p in region for q in b.nb[p]}
    return region


def bottom(b):
    return {i for i, (x, y) in enumerate(b.xy) if abs(y - min(v[1] for v in b.xy)) < 1e-6}


def top(b):
    return {i for i, (x, y) in enumerate(b.xy) if abs(y - max(v[1] for v in b.xy)) < 1e-6}


def with_(r, **kw):
    for k, v in kw.items():
        setattr(r, k, v)
    return r


def family_first_wave(out):
    """The files of Ludii's hunt category that huntsolve's options express
    (docs/rules.md section 3.3), each from its .lud file."""
    aq = Board("alquerque25", square_alternating(5))
    lab = aq.ludii_label
    # Cercar La Liebre.lud: counters (P1, first) on (expand (sites Bottom)) and
    # A3 E3, the hare on the centre; "NoMovesLossAndLessNumPiecesPlayerLoss" P1 9:
    # the counters lose with 9 left, i.e. at 3 captures.
    counters = sorted(expand(aq, bottom(aq)) | {lab("A3"), lab("E3")})
    assert len(counters) == 12
    out["cercar-la-liebre"] = Rules(aq, [lab("C3")], 0, counters, 0, False, 3)
    # ruleset "Murray (Described)": ("HopSequenceCapture"), Pass in the same turn
    out["cercar-la-liebre-murray"] = with_(
        Rules(aq, [lab("C3")], 0, counters, 0, False, 3), chain="optional")
    # option "Less Diagonal": the alquerque without its diamond = the two long
    # diagonals (Radiating); option "No Diagonal": (square 5)
    rad = Board("radiating25", board_radiating5())
    grid = Board("grid25", rectangle(5, 5))
    for name, b in (("radiating25", rad), ("grid25", grid)):
        c = sorted(expand(b, bottom(b)) | {b.ludii_label("A3"), b.ludii_label("E3")})
        out["cercar-la-liebre,board=" + name] = Rules(b, [b.ludii_label("C3")], 0, c, 0, False, 3)
    # Pon Chochotl.lud: the same rules as Cercar La Liebre's default. Coyote.lud:
    # the same on (rectangle 5 5 diagonals:Radiating). Their option "Multiple
    # hops", ("HopSequenceCapture" ~ ~ at:EndOfTurn), is left out: its
    # continuation is the first hop's form, which may jump a prey already taken
    # in the turn again (docs/rules.md section 3.3).
    sheep = sorted(expand(rad, bottom(rad)) | {rad.ludii_label("A3"), rad.ludii_label("E3")})
    out["coyote"] = Rules(rad, [rad.ludii_label("C3")], 0, sheep, 0, False, 3)
    # Kulaochal.lud: tigers (P1, first) on the corners, goats on the rest but
    # the centre; the tigers win with no goat left; no end rule for blocked goats.
    corners = [lab(s) for s in ("A1", "E1", "A5", "E5")]
    goats = sorted(set(range(25)) - set(corners) - {lab("C3")})
    out["kulaochal"] = with_(Rules(aq, corners, 0, goats, 0, True, 20), prey_pass=True)
    # Yaguarete Kora.lud: (rotate 180 ("AlquerqueGraphWithBottomTriangle")),
    # jaguar (P1, first) on C6, dogs on (expand (sites Bottom) steps:2); the
    # jaguar wins with 6 dogs left (9 captures); no end rule for blocked dogs.
    yk = Board("yaguarete31", rotate(board_bottom_triangle(), 180))
    dogs = sorted(expand(yk, bottom(yk), 2))
    assert len(dogs) == 15
    out["yaguarete-kora"] = with_(Rules(yk, [yk.ludii_label("C6")], 0, dogs, 0, True, 9), prey_pass=True)
    # The 33-point cross (Fox and Geese.lud "CrossBoard" 3 7 diagonals:Alternating).
    cr = Board("cross33", board_cross33())
    cl = cr.ludii_label
    geese = expand(cr, bottom(cr)) | {i for i, (x, y) in enumerate(cr.xy) if y == 2}
    assert len(geese) == 13
    # Fox and Geese.lud: the fox (P1) drops first anywhere; geese on (expand
    # (sites Bottom)) and (sites Row 2), options 15 and 17 add A4 G4, A5 G5;
    # "NoMovesLossAndNoPiecesPlayerLoss" P2 (see docs/rules.md 3.1 for its
    # (result P2 Win)); single hops.  Manu.lud: the same rules.
    out["fox-and-geese"] = Rules(cr, [], 1, sorted(geese), 0, True, 13)
    g15 = geese | {cl("A4"), cl("G4")}
    out["fox-and-geese-15"] = Rules(cr, [], 1, sorted(g15), 0, True, 15)
    g17 = g15 | {cl("A5"), cl("G5")}
    out["fox-and-geese-17"] = Rules(cr, [], 1, sorted(g17), 0, True, 17)
    # Musinaykahwhanmetowaywin.lud: the oke-mow (P1, first) on the centre,
    # multiple hops with Pass; no end rule for blocked pawns.
    out["musinaykahwhanmetowaywin"] = with_(
        Rules(cr, [cl("D4")], 0, sorted(geese), 0, True, 13), chain="optional", prey_pass=True)
    # Refskak.lud: lambs (P1, first) on (expand (sites Bottom) steps:2) and
    # A3 B3 F3 G3, the fox on the centre; the fox wins with 6 lambs left.
    lambs = expand(cr, bottom(cr), 2) | {cl(s) for s in ("A3", "B3", "F3", "G3")}
    assert len(lambs) == 13
    out["refskak"] = Rules(cr, [cl("D4")], 0, sorted(lambs), 0, False, 7)
    # Nuktagaq.lud: the two hunters (P1, first) on the centre and the point
    # below it; prey on (expand (sites Top) steps:4) but Row 2 and the centre.
    nk = Board("nuktagaq33", board_nuktagaq())
    centre = nk.site(3, 3)
    prey = expand(nk, top(nk), 4) - {i for i, (x, y) in enumerate(nk.xy) if y == 2} - {centre}
    assert len(prey) == 19, len(prey)
    out["nuktagaq"] = Rules(nk, [centre, nk.site(3, 2)], 0, sorted(prey), 0, True, 19)
    # La Yagua.lud: jaguar (P1, first) on C7, dogs on (expand (sites Bottom)
    # steps:1) and A3 E3; the jaguar wins with 6 dogs left.
    ly = Board("yagua31", board_la_yagua())
    dogs = expand(ly, bottom(ly)) | {ly.ludii_label("A3"), ly.ludii_label("E3")}
    assert len(dogs) == 12
    out["la-yagua"] = Rules(ly, [ly.ludii_label("C7")], 0, sorted(dogs), 0, True, 6)
    # Juroku Musashi.lud, "Described": soldiers (P1, first) on (difference
    # (sites Outer) (expand (sites Bottom))) = the square's rim, the general on
    # (ahead (centrePoint) N) = the square's centre (8,4)... here (4,4).
    jm = Board("juroku33", board_juroku())
    rim = {i for i, (x, y) in enumerate(jm.xy) if 0 <= y <= 8 and (x in (0, 8) or y in (0, 8))}
    assert len(rim) == 16
    out["juroku-musashi"] = with_(Rules(jm, [jm.site(4, 4)], 0, sorted(rim), 0, False, 16), prey_pass=True)
    # Komikan.lud, "Dog moves in any direction" (MapuChess): the lion (P1,
    # first) on E7, dogs on (expand (sites Bottom)) and A3 I3; multiple hops
    # with Pass; the lion wins with no dog left; dogs with no move: a draw.
    km = Board("komikan38", board_komikan())
    dogs = expand(km, bottom(km)) | {km.ludii_label("A3"), km.ludii_label("I3")}
    assert len(dogs) == 12
    out["komikan-mapuchess"] = with_(
        Rules(km, [km.ludii_label("E7")], 0, sorted(dogs), 0, True, 12), chain="optional", prey_draw=True)
    # Demala Diviyan Keliya.lud, "Normal": tigers (P1, first) on H5 G4 I4, 15
    # dogs in hand; the tigers win with 7 dogs left (8 captures).
    dm = Board("demala23", board_demala())
    out["demala-diviyan-keliya"] = Rules(dm, [dm.ludii_label(s) for s in ("H5", "G4", "I4")], 0, [], 15, True, 8)
    # Bam Blang Beh Khla.lud: the tiger (P1, first) on (sites Top), goats on
    # (sites Bottom); the tiger wins with no goat left; no end rule for
    # blocked goats.
    bb = Board("bamblang10", board_bam_blang())
    out["bam-blang-beh-khla"] = with_(Rules(bb, sorted(top(bb)), 0, sorted(bottom(bb)), 0, True, 3), prey_pass=True)
    # Yeung Luk Sz' Kon Tseung Kwan.lud, "Described": rebels (P1, first) on
    # Columns 1 and 5 and Column 3 but the centre and (expand (sites Top)), the
    # general on the centre (2,4); the general wins with no rebel left.
    yl = Board("yeungluk49", board_yeung_luk())
    gen = yl.site(2, 4)
    near_top = expand(yl, top(yl))
    rebels = {i for i, (x, y) in enumerate(yl.xy) if x in (1, 3)} | (
        {i for i, (x, y) in enumerate(yl.xy) if x == 2} - near_top - {gen})
    assert len(rebels) == 26
    out["yeung-luk-sz-kon-tseung-kwan"] = with_(Rules(yl, [gen], 0, sorted(rebels), 0, False, 26), prey_pass=True)


DEPTH = {
    "cercar-la-liebre": 6, "cercar-la-liebre-murray": 6, "cercar-la-liebre,board=radiating25": 6,
    "cercar-la-liebre,board=grid25": 6, "coyote": 6, "kulaochal": 6, "yaguarete-kora": 6,
    "fox-and-geese": 6, "fox-and-geese-15": 6, "fox-and-geese-17": 6,
    "musinaykahwhanmetowaywin": 6, "refskak": 6, "nuktagaq": 6, "la-yagua": 6,
    "juroku-musashi": 6, "komikan-mapuchess": 6, "demala-diviyan-keliya": 6,
    "bam-blang-beh-khla": 6, "yeung-luk-sz-kon-tseung-kwan": 6,
    "hat-diviyan-keliya": 7,
    "hat-diviyan-keliya-large": 6,
    "huli-mane-ata": 8,
    "mysore-tiger": 10,
    "pulijudamu": 6,
    "adugo": 6,
    "adugo-5": 6,
    "orissa-tiger": 6,
}


def variant(spec):
    """`NAME[,hunter_win=N][,capture_compulsory=true][,first=hunter|prey][,prey=P]`:
    a game of games() with the readings of docs/rules.md H2, H4, H7, H11 changed
    (prey=P changes the prey in hand)."""
    import copy

    name, *opts = spec.split(",")
    r = copy.copy(games()[name])
    for o in opts:
        k, v = o.split("=")
        if k == "hunter_win":
            r.win = int(v.replace("captures>=", ""))
        elif k == "capture_compulsory":
            r.compulsory = v == "true"
        elif k == "first":
            r.hunter_first = v == "hunter"
        elif k == "prey":
            r.prey_hand = int(v)
        elif k == "paths":
            r.dedupe = v != "true"
        else:
            raise SystemExit(f"unknown option {k}")
    return r


def solve_value(r):
    """The start's value by retrograde analysis over the positions reachable
    from the start (no symmetry, no tiers: independent of huntsolve's solver).
    Values are for the side to move: a position whose side to move has no
    move, or whose prey are to move after the hunters' last capture, is lost
    (distance 0); a position with a lost child is won in 1 + the shortest
    such child's distance; one whose children are all won is lost in 1 + the
    longest; the rest (cycles) are draws. Returns (value, distance, reached)."""
    from collections import deque

    start = r.start()
    index = {start: 0}
    states = [start]
    children = []
    i = 0
    while i < len(states):
        ms = r.moves(states[i]) or []
        kids = []
        for m in ms:
            c = r.play(states[i], m)
            if c not in index:
                index[c] = len(states)
                states.append(c)
            kids.append(index[c])
        children.append(kids)
        i += 1
    n = len(states)
    parents = [[] for _ in range(n)]
    for a, kids in enumerate(children):
        for k in kids:
            parents[k].append(a)
    value = [None] * n
    dist = [0] * n
    left = [len(k) for k in children]
    queue = deque()
    for a in range(n):
        if not children[a]:
            value[a], dist[a] = "loss", 0
            queue.append(a)
    while queue:
        c = queue.popleft()
        for a in parents[c]:
            if value[a] is not None:
                continue
            if value[c] == "loss":
                value[a], dist[a] = "win", dist[c] + 1
                queue.append(a)
            else:
                left[a] -= 1
                if left[a] == 0:
                    value[a], dist[a] = "loss", dist[c] + 1
                    queue.append(a)
    v = value[0] or "draw"
    return v, (dist[0] if value[0] else 0), n


BOARDS = {
    "triangle10": lambda: board_triangle(4),
    "triangle13": lambda: board_triangle(5),
    "mysore6": board_mysore,
    "pulijudamu19": board_pulijudamu,
    "alquerque31": board_bottom_triangle,
    "cross33": board_cross33,
    "nuktagaq33": board_nuktagaq,
    "radiating25": board_radiating5,
    "yagua31": board_la_yagua,
    "juroku33": board_juroku,
    "komikan38": board_komikan,
    "demala23": board_demala,
    "bamblang10": board_bam_blang,
    "yeungluk49": board_yeung_luk,
    "grid25": lambda: rectangle(5, 5),
}

# Boards written on Ludii's label grid: x is the rank of the point's x among the
# board's distinct x values, y likewise, so a point's algebraic name is Ludii's
# coordinate label in lower case (Ludii's "C5" is c5). The graph is unchanged.
LABEL_GRID = {"cross33", "nuktagaq33", "radiating25", "yagua31", "juroku33", "komikan38",
              "demala23", "bamblang10", "yeungluk49", "grid25"}


def label_grid(xy):
    xs = sorted({round(x, 6) for x, _ in xy})
    ys = sorted({round(y, 6) for _, y in xy})
    return [(float(xs.index(round(x, 6))), float(ys.index(round(y, 6)))) for x, y in xy]


def board_files(directory):
    """Writes, per board, NAME.txt (the adjacency and line lists of
    docs/rules.md, checked against the built-in board by `cargo test`) and
    NAME.board (a board file `board=PATH` reads), both derived here from
    Ludii's constructors; and prints the id diagrams of docs/rules.md."""
    import os

    for name, make in BOARDS.items():
        b = Board(name, make())
        for a in range(b.n):
            for over, to in b.jump[a]:
                assert (over, a) in b.jump[to], f"{name}: a radial that does not run back"
        if name in LABEL_GRID:
            b.xy = label_grid(b.xy)
        # ids: sorted by y, then x (docs/rules.md section 1.0)
        order = sorted(range(b.n), key=lambda i: (round(b.xy[i][1], 6), round(b.xy[i][0], 6)))
        new = {old: k for k, old in enumerate(order)}
        xy = [(int(round(b.xy[o][0])), int(round(b.xy[o][1]))) for o in order]
        assert all(abs(b.xy[o][0] - xy[new[o]][0]) < 1e-6 and abs(b.xy[o][1] - xy[new[o]][1]) < 1e-6 for o in order)
        nb = [sorted(new[q] for q in b.nb[o]) for o in order]
        nxt = {}
        for a in range(b.n):
            for over, to in b.jump[a]:
                nxt[(new[a], new[over])] = new[to]
        lines = []
        for a in range(b.n):
            for c in nb[a]:
                if any(nxt.get((p, a)) == c for p in nb[a]):
                    continue
                line = [a, c]
                while (line[-2], line[-1]) in nxt:
                    line.append(nxt[(line[-2], line[-1])])
                if line[0] < line[-1]:
                    lines.append(line)
        lines.sort(key=lambda l: (-len(l), l))
        head = (f"# {name}: built from Ludii's constructors by scripts/family_perft.py "
                "(docs/rules.md section 1.8)\n")
        with open(os.path.join(directory, name + ".txt"), "w") as f:
            f.write(head)
            for i in range(b.n):
                f.write(f"adj {i:02d} ({xy[i][0]},{xy[i][1]}): " + " ".join(f"{q:02d}" for q in nb[i]) + "\n")
            for l in lines:
                f.write("line " + " ".join(f"{q:02d}" for q in l) + "\n")
        names = [chr(ord("a") + x) + str(y + 1) for x, y in xy]
        with open(os.path.join(directory, name + ".board"), "w") as f:
            f.write(head.replace("(docs", "as a board file (docs"))
            f.write(f"name {name}\n")
            for x, y in xy:
                f.write(f"point {x} {y}\n")
            for l in lines:
                f.write("line " + " ".join(names[q] for q in l) + "\n")
        mk = [min_prey(xy, nb, nxt, k) for k in (1, 2)]
        print(f"### {name}: M1 = {mk[0]}, M2 = {mk[1]}, symmetries = {symmetry_count(nb, nxt)}")
        print(f"### {name}: {b.n} points, {sum(map(len, nb)) // 2} edges, {len(lines)} lines, "
              f"{sum(len(l) - 2 for l in lines) * 2} directed jumps")
        print(draw(xy, nb))
        for i in range(b.n):
            print(f"{i:02d} ({xy[i][0]},{xy[i][1]}) {names[i]}: " + " ".join(f"{q:02d}" for q in nb[i]))
        for l in lines:
            print(" ".join(f"{q:02d}" for q in l))


def symmetry_count(nb, nxt):
    """The point permutations that map edges onto edges and jumps onto jumps
    (docs/rules.md section 1.9), counted by backtracking over the ids."""
    n = len(nb)
    adj = [set(x) for x in nb]
    count = 0

    def fits(perm, p):
        q = perm[p]
        if len(adj[p]) != len(adj[q]):
            return False
        for r in adj[p]:
            if r in perm and perm[r] not in adj[q]:
                return False
        for (a, b), c in nxt.items():
            if p in (a, b, c) and a in perm and b in perm and c in perm:
                if nxt.get((perm[a], perm[b])) != perm[c]:
                    return False
        return True

    def place(p, perm, used):
        nonlocal count
        if p == n:
            count += 1
            return
        for q in range(n):
            if q not in used:
                perm[p] = q
                if fits(perm, p):
                    used.add(q)
                    place(p + 1, perm, used)
                    used.discard(q)
                del perm[p]

    place(0, {}, set())
    return count


def min_prey(xy, nb, nxt, k):
    """docs/rules.md section 1.6: the fewest prey that immobilise k hunters
    placed as well as possible for the prey (every neighbour occupied, and
    beyond each prey neighbour on the line, the point occupied)."""
    import itertools

    best = None
    for hs in itertools.combinations(range(len(xy)), k):
        need = set()
        for h in hs:
            for q in nb[h]:
                if q in hs:
                    continue
                need.add(q)
                if (h, q) in nxt:
                    need.add(nxt[(h, q)])
        need -= set(hs)
        if best is None or len(need) < best:
            best = len(need)
    return best


def draw(xy, nb):
    """Ids on a grid of 4 columns per x and 2 rows per y, every edge drawn
    with one mark per text row (as huntsolve's own diagrams)."""
    x0 = min(x for x, _ in xy); x1 = max(x for x, _ in xy)
    y0 = min(y for _, y in xy); y1 = max(y for _, y in xy)
    grid = [[" "] * ((x1 - x0) * 4 + 2) for _ in range((y1 - y0) * 2 + 1)]
    col = lambda x: (x - x0) * 4
    row = lambda y: (y1 - y) * 2
    for a in range(len(xy)):
        for b_ in nb[a]:
            (ax, ay), (bx, by) = xy[a], xy[b_]
            if (by, bx) <= (ay, ay and ax or ax) and (by, bx) <= (ay, ax):
                continue
            if ay == by:
                for c in range(col(ax) + 2, col(bx)):
                    grid[row(ay)][c] = "-"
            else:
                r0, r1 = row(by), row(ay)
                for r in range(r0 + 1, r1):
                    t = (r - r0) / (r1 - r0)
                    c = col(bx) + (col(ax) - col(bx)) * t
                    mark = "|" if ax == bx else ("/" if (bx - ax) > 0 else "\\")
                    grid[r][int(round(c)) + (1 if mark == "\\" else 0)] = mark
    for i, (x, y) in enumerate(xy):
        grid[row(y)][col(x)] = f"{i:02d}"[0]
        grid[row(y)][col(x) + 1] = f"{i:02d}"[1]
    return "\n".join("".join(r).rstrip() for r in grid)


def main(argv):
    depth = None
    names = []
    it = iter(argv)
    for a in it:
        if a == "--depth":
            depth = int(next(it))
        elif a == "--values":
            for name in list(it) or list(games()):
                t = time.time()
                v, d, n = solve_value(variant(name))
                print(f"{name}: {v} in {d} plies ({n} positions reached, {time.time() - t:.1f} s)", flush=True)
            return
        elif a == "--board-files":
            board_files(next(it))
            return
        elif a == "--boards":
            for name, r in games().items():
                n, e, j = r.b.counts()
                print(f"{name}: board {r.b.name}: {n} points, {e} edges, {j} directed jumps")
            return
        else:
            names.append(a)
    all_games = games()
    for name in names or list(all_games):
        r = all_games[name] if name in all_games else variant(name)
        print(f"rules {name}")
        memo = {}
        for d in range(1, (depth or DEPTH[name]) + 1):
            t = time.time()
            n = perft(r, r.start(), d, memo)
            print(f"perft {d} {n}", flush=True)
            print(f"#   depth {d}: {time.time() - t:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
