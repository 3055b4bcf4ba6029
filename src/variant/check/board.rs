//! The hunt family's own checks: the board's tables (what a board file says and
//! what is derived from it), its geometry, its symmetry group, and, position by
//! position, the images under every symmetry and the piece counts of the tiers.
//!
//! The board-file loader ([`Board::parse`]) already refuses unknown points, an
//! edge on two lines, a line through a point twice, two jumps from one point
//! over another, duplicate coordinates or names, and more than 64 points. What
//! it lets through, and is checked here: a point on no line or a board in
//! pieces, a line that passes over a point of the board without stopping there,
//! two lines that continue each other straight (so the jump across their meeting
//! point is missing), and a line that bends. The derived tables are checked too
//! (adjacency both ways, every jump's middle adjacent to both ends), so that a
//! built-in board or a future loader cannot break them unseen.

use super::report::Tally;
use super::tiers::PositionHook;
use crate::board::{Board, NO_JUMP};
use crate::game::{Game, Notation};
use crate::hunt::tiers::{on_board, HuntTier};
use crate::hunt::{HuntGame, HuntPos};
use crate::tier::{distinct_images, TierGame};

fn names(board: &Board, ids: &[u8]) -> String {
    let v: Vec<&str> = ids.iter().map(|&i| board.name_of(i)).collect();
    v.join(" ")
}

/// The board's tables: ids, adjacency both ways, jumps along lines, connected.
pub(crate) fn check_board(board: &Board) -> Tally {
    let mut t = Tally::new(
        "board",
        "ids, adjacency both ways, jumps over a neighbour of both ends, connected",
    );
    let n = board.len();
    t.case((1..=crate::board::MAX_POINTS).contains(&n), || {
        format!("{n} points; a board has 1 to 64")
    });
    for (i, p) in board.points.iter().enumerate() {
        t.case(p.id as usize == i, || {
            format!("point {} has id {}, at place {i}", p.name, p.id)
        });
    }
    let all = board.all_mask();
    let name = |i: usize| {
        board
            .points
            .get(i)
            .map_or("?", |p| p.name.as_str())
            .to_string()
    };
    for a in 0..n {
        let nb = board.neighbours[a];
        t.case(nb & !all == 0, || {
            format!("{} has a neighbour out of range (mask {nb:#x})", name(a))
        });
        t.case(nb >> a & 1 == 0, || {
            format!("{} is its own neighbour", name(a))
        });
        for b in (0..n).filter(|&b| nb >> b & 1 == 1) {
            t.case(board.neighbours[b] >> a & 1 == 1, || {
                format!(
                    "one-sided adjacency: {} lists {} as a neighbour, but not the other way",
                    name(a),
                    name(b)
                )
            });
        }
        for &(over, to) in &board.jumps[a] {
            let (o, c) = (over as usize, to as usize);
            if o >= n || c >= n {
                t.case(false, || {
                    format!(
                        "a jump from {} over point {o} to point {c}: out of range",
                        name(a)
                    )
                });
                continue;
            }
            t.case(
                nb >> o & 1 == 1 && board.neighbours[c] >> o & 1 == 1 && c != a,
                || {
                    format!(
                        "the jump {}x{} over {}: the middle point is not adjacent to both ends",
                        name(a),
                        name(c),
                        name(o)
                    )
                },
            );
            t.case(
                board.jump_to[a][o] == to && board.jump_over[a] >> o & 1 == 1,
                || {
                    format!(
                        "the jump {}x{} over {} is missing from the jump table",
                        name(a),
                        name(c),
                        name(o)
                    )
                },
            );
            t.case(board.jumps[c].contains(&(over, a as u8)), || {
                format!(
                    "one-sided jump: {}x{} over {} exists, not the way back",
                    name(a),
                    name(c),
                    name(o)
                )
            });
        }
        let listed = board.jump_to[a].iter().filter(|&&c| c != NO_JUMP).count();
        t.case(listed == board.jumps[a].len(), || {
            format!("{}: the jump table and the jump list disagree", name(a))
        });
    }
    for line in &board.lines {
        for w in line.windows(2) {
            let ok = (w[0] as usize) < n
                && (w[1] as usize) < n
                && board.neighbours[w[0] as usize] >> w[1] & 1 == 1;
            t.case(ok, || {
                format!(
                    "the line {}: consecutive points not adjacent",
                    names(board, line)
                )
            });
        }
    }
    // Connected: every point reached from point 0 along edges.
    let mut seen = 1u64;
    let mut frontier = 1u64;
    while frontier != 0 {
        let a = frontier.trailing_zeros() as usize;
        frontier &= frontier - 1;
        let new = board.neighbours[a] & all & !seen;
        seen |= new;
        frontier |= new;
    }
    let cut = all & !seen;
    t.case(cut == 0, || {
        let ids: Vec<u8> = (0..n as u8).filter(|&i| cut >> i & 1 == 1).collect();
        format!(
            "the board is in pieces: {} cannot be reached from {} along lines",
            names(board, &ids),
            name(0)
        )
    });
    t
}

/// Whether `q` lies strictly inside the segment from `a` to `b`.
fn strictly_between(a: (i64, i64), b: (i64, i64), q: (i64, i64)) -> bool {
    let cross = (b.0 - a.0) * (q.1 - a.1) - (b.1 - a.1) * (q.0 - a.0);
    let dot = (q.0 - a.0) * (b.0 - a.0) + (q.1 - a.1) * (b.1 - a.1);
    let len = (b.0 - a.0).pow(2) + (b.1 - a.1).pow(2);
    cross == 0 && dot > 0 && dot < len
}

fn collinear(a: (i64, i64), b: (i64, i64), c: (i64, i64)) -> bool {
    (b.0 - a.0) * (c.1 - b.1) - (b.1 - a.1) * (c.0 - b.0) == 0
        && (b.0 - a.0) * (c.0 - b.0) + (b.1 - a.1) * (c.1 - b.1) > 0
}

/// The lines against the points' coordinates: two lines continuing each other
/// straight (a failure: a jump across their meeting point is missing from what
/// the drawing shows); a line that bends, or that passes over a point without
/// stopping there (warnings: a curved line is allowed, docs/rules.md §1.3, and
/// Ludii's Juroku Musashi board has a base line passing over two points, §1.9;
/// in a researcher's own file either is more often a slip, so it is shown).
pub(crate) fn check_geometry(board: &Board) -> (Tally, Tally) {
    let mut t = Tally::new("geometry", "no two lines continue each other straight");
    let mut bends = Tally::warnings(
        "bends",
        "every line straight and stopping at every point it passes (both allowed)",
    );
    let xy = |i: u8| {
        let p = &board.points[i as usize];
        (p.x as i64, p.y as i64)
    };
    for line in &board.lines {
        for w in line.windows(2) {
            let skipped: Vec<u8> = (0..board.len() as u8)
                .filter(|&q| !line.contains(&q) && strictly_between(xy(w[0]), xy(w[1]), xy(q)))
                .collect();
            bends.case(skipped.is_empty(), || {
                format!(
                    "the line {} passes over {} between {} and {} without stopping there",
                    names(board, line),
                    names(board, &skipped),
                    board.name_of(w[0]),
                    board.name_of(w[1])
                )
            });
        }
        for w in line.windows(3) {
            bends.case(collinear(xy(w[0]), xy(w[1]), xy(w[2])), || {
                format!(
                    "the line {} bends at {}",
                    names(board, line),
                    board.name_of(w[1])
                )
            });
        }
    }
    // Two lines sharing an end point, straight across it.
    for (i, l) in board.lines.iter().enumerate() {
        for m in &board.lines[i + 1..] {
            let ends = |v: &Vec<u8>| [(v[0], v[1]), (v[v.len() - 1], v[v.len() - 2])];
            for (e, before) in ends(l) {
                for (f, after) in ends(m) {
                    if e == f {
                        t.case(!collinear(xy(before), xy(e), xy(after)), || {
                            format!(
                                "the lines {} and {} continue each other straight at {}: no jump crosses it from {} to {}; write them as one line",
                                names(board, l),
                                names(board, m),
                                board.name_of(e),
                                board.name_of(before),
                                board.name_of(after)
                            )
                        });
                    }
                }
            }
        }
    }
    (t, bends)
}

/// The symmetry group: identity first, permutations, adjacency and jumps mapped
/// onto themselves, closed under composition.
pub(crate) fn check_symmetries(board: &Board) -> Tally {
    let mut t = Tally::new(
        "symmetry",
        "each symmetry maps the adjacency and the jumps onto themselves",
    );
    let n = board.len();
    let syms = &board.symmetries;
    t.case(
        syms.first()
            .is_some_and(|s| s.iter().enumerate().all(|(i, &p)| p as usize == i)),
        || "the first symmetry is not the identity".to_string(),
    );
    for (k, s) in syms.iter().enumerate() {
        let mut hit = 0u64;
        for &p in s {
            hit |= 1u64.checked_shl(p as u32).unwrap_or(0);
        }
        let perm = s.len() == n && hit == board.all_mask();
        t.case(perm, || {
            format!("symmetry {k} is not a permutation of the {n} points")
        });
        if !perm {
            continue;
        }
        let img = |i: usize| s[i] as usize;
        for a in 0..n {
            for b in (0..n).filter(|&b| board.neighbours[a] >> b & 1 == 1) {
                t.case(board.neighbours[img(a)] >> img(b) & 1 == 1, || {
                    format!(
                        "symmetry {k} maps the edge {}-{} to {}-{}, which is not an edge",
                        board.name_of(a as u8),
                        board.name_of(b as u8),
                        board.name_of(s[a]),
                        board.name_of(s[b])
                    )
                });
            }
            for &(o, c) in &board.jumps[a] {
                t.case(
                    board.jump_to[img(a)][img(o as usize)] == s[c as usize],
                    || {
                        format!(
                            "symmetry {k} maps the jump {}x{} over {} to one that does not exist",
                            board.name_of(a as u8),
                            board.name_of(c),
                            board.name_of(o)
                        )
                    },
                );
            }
        }
    }
    for a in syms {
        for b in syms {
            let ab: Vec<u8> = (0..n.min(b.len()))
                .map(|i| a.get(b[i] as usize).copied().unwrap_or(0))
                .collect();
            t.case(syms.contains(&ab), || {
                "the symmetries are not closed under composition".to_string()
            });
        }
    }
    t
}

/// Each position against its images under the symmetries, and its piece counts.
pub(crate) struct HuntHook<'a> {
    pub(crate) game: &'a HuntGame,
    pub(crate) images: Tally,
    pub(crate) pieces: Tally,
}

impl<'a> HuntHook<'a> {
    pub(crate) fn new(game: &'a HuntGame) -> Self {
        HuntHook {
            game,
            images: Tally::new(
                "images",
                "a position's images: same slot, outcome and number of moves",
            ),
            pieces: Tally::new(
                "pieces",
                "tiers' and positions' piece counts match the rules",
            ),
        }
    }

    /// The tiers' counts against the rules (hunters, prey, hands).
    pub(crate) fn tier_counts(&mut self, tiers: &[HuntTier]) {
        let r = self.game.rules();
        for &t in tiers {
            let ok = t.hunters_in_hand <= r.hunters
                && t.prey_in_hand as u16 + t.captured as u16 <= r.prey as u16
                && on_board(self.game, t).is_some();
            self.pieces.case(ok, || {
                format!(
                    "tier {} does not fit the rules' {} hunters and {} prey on {} points",
                    self.game.tier_name(t),
                    r.hunters,
                    r.prey,
                    self.game.board().len()
                )
            });
        }
        let s = self.game.start();
        let on = (s.hunters.count_ones(), s.prey.count_ones());
        self.pieces.case(
            on.0 + s.hunters_in_hand as u32 == r.hunters as u32
                && on.1 + s.prey_in_hand as u32 + s.captured as u32 == r.prey as u32,
            || {
                format!(
                    "the start {} does not hold the rules' pieces",
                    self.game.format_position(&s)
                )
            },
        );
    }
}

impl<G: TierGame<Pos = HuntPos, Tier = HuntTier>> PositionHook<G> for HuntHook<'_> {
    fn position(&mut self, g: &G, t: HuntTier, index: u64, pos: &HuntPos) {
        let game = self.game;
        let board = game.board();
        let text = || game.format_position(pos);
        let fits = on_board(game, t).is_some_and(|(h, p)| {
            pos.hunters.count_ones() as usize == h
                && pos.prey.count_ones() as usize == p
                && pos.hunters & pos.prey == 0
                && (pos.hunters | pos.prey) & !board.all_mask() == 0
        });
        self.pieces.case(fits, || {
            format!(
                "{}: its pieces do not match tier {}",
                text(),
                game.tier_name(t)
            )
        });
        let mut moves = Vec::new();
        let count = |p: &HuntPos, moves: &mut Vec<_>| {
            moves.clear();
            if game.outcome(p).is_none() {
                game.legal_moves(p, moves);
            }
            moves.len()
        };
        let n = count(pos, &mut moves);
        let outcome = game.outcome(pos);
        for s in 1..board.symmetries.len() {
            let img = game.map_pos(s, pos);
            let r = g.rank(t, &img);
            let same = r == index && game.outcome(&img) == outcome && count(&img, &mut moves) == n;
            self.images.case(same, || {
                format!(
                    "{} and its image {} under symmetry {s}: slots {index} and {r}, or outcome or number of moves differ",
                    text(),
                    game.format_position(&img)
                )
            });
        }
        let distinct = distinct_images(board.symmetries.len(), |s| {
            (board.map_mask(s, pos.hunters), board.map_mask(s, pos.prey))
        });
        let said = g.orbit_size(pos);
        self.images.case(said.is_none_or(|o| o == distinct), || {
            format!(
                "{}: orbit size {said:?}, but it has {distinct} distinct images",
                text()
            )
        });
    }
}
