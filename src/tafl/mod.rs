//! Tafl family: Caikabōraḍa (seed B), Tablut and Brandubh variants.
//!
//! One rules value ([`TaflRules`], every option of rules-spec §2.2) drives one
//! generic engine on `u128` bitboards. Slides are found by scanning precomputed
//! ray masks for the first blocker ([`geometry`]).
//!
//! # Notation
//! Cells are named `a1`…`i9` (file a = x 0, rank 1 = y 0). A move is a rook
//! slide `from-to` (`e3-h3`); captures are consequences of the move and are not
//! written.
//!
//! # Position text
//! One canonical form that [`Game::parse_position`] reads back: the rows from
//! the top rank down to rank 1, separated by `/`, one character per cell
//! (`A` attacker, `D` defender, `K` king, `.` empty), then a space and the side
//! to move (`a` attackers, `d` defenders). A position without `K` is one where
//! the king has been captured. The Tablut start with the attackers to move:
//!
//! ```text
//! ...AAA.../....A..../....D..../A...D...A/AADDKDDAA/A...D...A/....D..../....A..../...AAA... a
//! ```
//!
//! # Outcome
//! Decided from the position alone (no history): the king captured (attackers
//! win), the king on a goal cell (defenders win), no attacker left under
//! `all_captured=win` (defenders win), otherwise a side to move without a legal
//! move is judged by `no_moves`. Repetition is left to search.

pub mod geometry;
pub mod rules;

use crate::error::{Error, Result};
use crate::game::{Game, Value};
use geometry::{Geometry, NONE};
pub use rules::{
    AllCaptured, CornerAccess, Goal, KingCapture, KingFlank, NoMoves, Repetition, Side, TaflRules,
    ThroneHostile, PRESETS,
};
use std::sync::Arc;

/// A tafl position. Cheap to copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TaflPos {
    /// Attacker men.
    pub attackers: u128,
    /// Defender men (king excluded).
    pub defenders: u128,
    /// King's cell (`x + y * n`), 255 once captured.
    pub king: u8,
    /// Whether the attackers are to move.
    pub attackers_to_move: bool,
    /// Zobrist hash (kept up to date incrementally by [`Game::play`]).
    pub hash: u64,
}

/// A move: a slide from one cell to another (cell indices).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TaflMove {
    /// Start cell.
    pub from: u8,
    /// Destination cell.
    pub to: u8,
}

/// Evaluation weights (centi-pieces), tunable by name through [`Game::set_eval_param`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalWeights {
    /// Value of one attacker man (counts for the attackers).
    pub attacker: i32,
    /// Value of one defender man (counts for the defenders).
    pub defender: i32,
    /// Bonus for the defenders per direction in which the king can slide straight to a goal cell.
    pub king_path: i32,
    /// Bonus for the attackers per attacker orthogonally next to the king.
    pub king_pressure: i32,
    /// Bonus for the defenders per cell the king can reach in one move.
    pub king_mobility: i32,
}

impl Default for EvalWeights {
    fn default() -> Self {
        EvalWeights {
            attacker: 100,
            defender: 180,
            king_path: 250,
            king_pressure: 60,
            king_mobility: 5,
        }
    }
}

/// A tafl game: the rules plus derived tables.
#[derive(Clone, Debug)]
pub struct TaflGame {
    rules: TaflRules,
    geo: Arc<Geometry>,
    eval: EvalWeights,
    /// Cells a man may never stop on.
    forbid_men: u128,
    /// Cells the king may never stop on (the throne under `throne_reenter_king=no`).
    forbid_king: u128,
    /// Cells whose reaching by the king wins.
    goal: u128,
    start: TaflPos,
}

/// Parses a rules string `preset[,key=value...]` into a game.
pub fn from_spec(spec: &str) -> Result<TaflGame> {
    Ok(TaflGame::new(TaflRules::parse(spec)?))
}

/// Start cells (attackers, defenders, king) of the layout for board side `n`.
fn layout(
    n: usize,
) -> (
    &'static [&'static str],
    &'static [&'static str],
    &'static str,
) {
    if n == 9 {
        (
            &[
                "d1", "e1", "f1", "e2", "a4", "a5", "a6", "b5", "i4", "i5", "i6", "h5", "d9", "e9",
                "f9", "e8",
            ],
            &["e3", "e4", "e6", "e7", "c5", "d5", "f5", "g5"],
            "e5",
        )
    } else {
        (
            &["d1", "d2", "a4", "b4", "f4", "g4", "d6", "d7"],
            &["d3", "c4", "e4", "d5"],
            "d4",
        )
    }
}

#[inline]
fn bit(c: u8) -> u128 {
    1u128 << c
}

impl TaflGame {
    /// Builds the game for a rules value.
    pub fn new(rules: TaflRules) -> TaflGame {
        let geo = Arc::new(Geometry::new(rules.size as usize));
        let mut forbid_men = geo.throne_bit;
        if rules.corner_access == CornerAccess::KingOnly {
            forbid_men |= geo.corners;
        }
        let forbid_king = if rules.throne_reenter_king {
            0
        } else {
            geo.throne_bit
        };
        let goal = match rules.goal {
            Goal::Corners => geo.corners,
            Goal::Edge => geo.edge,
        };
        let (a, d, k) = layout(geo.n);
        let cells = |names: &[&str]| {
            names.iter().fold(0u128, |m, s| {
                m | bit(geo.parse_cell(s).expect("layout cells are valid"))
            })
        };
        let (att, def) = (cells(a), cells(d));
        let king = geo.parse_cell(k).expect("layout cells are valid");
        let mut game = TaflGame {
            rules,
            geo,
            eval: EvalWeights::default(),
            forbid_men,
            forbid_king,
            goal,
            start: TaflPos {
                attackers: 0,
                defenders: 0,
                king: NONE,
                attackers_to_move: true,
                hash: 0,
            },
        };
        game.start = game.make_pos(att, def, king, rules.first == Side::Attackers);
        game
    }

    /// The rules.
    pub fn rules(&self) -> &TaflRules {
        &self.rules
    }

    /// The board geometry (rays, special cells, symmetries, keys).
    pub fn geometry(&self) -> &Geometry {
        &self.geo
    }

    /// Board side (7 or 9).
    pub fn size(&self) -> usize {
        self.geo.n
    }

    /// The 8 symmetries of the square as cell permutations (`perm[c]` is the image
    /// of cell `c`), identity first. Every tafl rule set here is invariant under them.
    pub fn symmetries(&self) -> &[Vec<u8>] {
        &self.geo.sym
    }

    /// The position mapped by symmetry `s` (index into [`TaflGame::symmetries`]).
    pub fn transform(&self, pos: &TaflPos, s: usize) -> TaflPos {
        let king = if pos.king == NONE {
            NONE
        } else {
            self.geo.sym[s][pos.king as usize]
        };
        self.make_pos(
            self.geo.map_bits(s, pos.attackers),
            self.geo.map_bits(s, pos.defenders),
            king,
            pos.attackers_to_move,
        )
    }

    /// Builds a position and computes its hash (no legality check; see
    /// [`Game::parse_position`] for a checked constructor).
    pub fn make_pos(
        &self,
        attackers: u128,
        defenders: u128,
        king: u8,
        attackers_to_move: bool,
    ) -> TaflPos {
        let mut p = TaflPos {
            attackers,
            defenders,
            king,
            attackers_to_move,
            hash: 0,
        };
        p.hash = self.compute_hash(&p);
        p
    }

    /// Zobrist hash recomputed from scratch.
    pub fn compute_hash(&self, p: &TaflPos) -> u64 {
        let g = &*self.geo;
        let mut h = if p.attackers_to_move {
            g.z_att_to_move
        } else {
            0
        };
        let mut a = p.attackers;
        while a != 0 {
            h ^= g.z_att[a.trailing_zeros() as usize];
            a &= a - 1;
        }
        let mut d = p.defenders;
        while d != 0 {
            h ^= g.z_def[d.trailing_zeros() as usize];
            d &= d - 1;
        }
        if p.king != NONE {
            h ^= g.z_king[p.king as usize];
        }
        h
    }

    #[inline]
    fn king_bit(p: &TaflPos) -> u128 {
        if p.king == NONE {
            0
        } else {
            bit(p.king)
        }
    }

    /// Whether the game is over by the king's fate or a wipe-out, and who won
    /// (`true`: attackers). The no-move rule is not included.
    fn decided(&self, p: &TaflPos) -> Option<bool> {
        if p.king == NONE {
            Some(true)
        } else if self.goal & bit(p.king) != 0
            || (p.attackers == 0 && self.rules.all_captured == AllCaptured::Win)
        {
            Some(false)
        } else if self.rules.encirclement && !p.attackers_to_move && self.encircled(p) {
            // Only an attacker move can close an encirclement, so testing the
            // positions with the defenders to move is the crate's "after an
            // attacker move" test.
            Some(true)
        } else {
            None
        }
    }

    /// The encirclement win (T15, as the hnefatafl crate's `WithoutEdgeAccess`
    /// enclosure): the region reachable from the king through cells without
    /// attackers touches no edge cell and holds every defender, and no attacker
    /// next to it has both neighbours along one axis threatening. A neighbour
    /// threatens when it is inside the region (a defender, the armed king, or an
    /// empty cell a defender may occupy or that is hostile to attackers), or
    /// outside it and a cell hostile to attackers (T6/T7). The edge never threatens.
    pub fn encircled(&self, p: &TaflPos) -> bool {
        if p.king == NONE {
            return false;
        }
        let g = &*self.geo;
        let free = g.all & !p.attackers;
        let mut region = bit(p.king);
        loop {
            let next = (region | g.grow(region)) & free;
            if next & g.edge != 0 {
                return false;
            }
            if next == region {
                break;
            }
            region = next;
        }
        if p.defenders & !region != 0 {
            return false;
        }
        let hostile = self.hostile_cells(true, p.king);
        let mut inside = region;
        if p.king != g.throne && hostile & g.throne_bit == 0 {
            // An empty throne that is not hostile cannot hold a defender man.
            inside &= !g.throne_bit;
        }
        if !self.rules.king_armed {
            inside &= !bit(p.king);
        }
        let threat = inside | (hostile & !region);
        let boundary = g.grow(region) & p.attackers;
        let exposed = (g.east(threat) & g.west(threat)) | (g.north(threat) & g.south(threat));
        boundary & exposed == 0
    }

    /// Cells the piece on `c` can stop on (a king when `is_king`), by scanning
    /// its four rays for the first blocker. Used for the king; the men of a side
    /// are generated together by [`Self::men_targets`].
    #[inline]
    fn targets(&self, p: &TaflPos, c: u8, is_king: bool) -> u128 {
        let g = &*self.geo;
        let occ = p.attackers | p.defenders | Self::king_bit(p);
        let throne_empty = p.king != g.throne;
        let (pass, forbid) = if is_king {
            (self.rules.throne_pass_king, self.forbid_king)
        } else {
            (self.rules.throne_pass_men, self.forbid_men)
        };
        // An impassable empty throne blocks like a piece; the king may still stop
        // on it when re-entering is allowed (handled below).
        let blockers = if pass || !throne_empty {
            occ
        } else {
            occ | g.throne_bit
        };
        let mut out = 0u128;
        let rays = &g.ray[c as usize];
        for (d, &r) in rays.iter().enumerate() {
            let b = r & blockers;
            let reach = if b == 0 {
                r
            } else if d < 2 {
                let first = b.trailing_zeros();
                if is_king && !pass && throne_empty && first == g.throne as u32 {
                    out |= g.throne_bit;
                }
                r & ((1u128 << first) - 1)
            } else {
                let first = 127 - b.leading_zeros();
                if is_king && !pass && throne_empty && first == g.throne as u32 {
                    out |= g.throne_bit;
                }
                r & !((2u128 << first) - 1)
            };
            out |= reach;
        }
        out & !forbid
    }

    /// `b` shifted `k` cells in direction `d` (no wrap masking).
    #[inline]
    fn shift(&self, b: u128, d: usize, k: usize) -> u128 {
        match d {
            0 => b << k,
            1 => b << (k * self.geo.n),
            2 => b >> k,
            _ => b >> (k * self.geo.n),
        }
    }

    /// Destinations of the men of the side to move, per direction (east,
    /// north, west, south): an occluded Kogge-Stone fill of all the men at once
    /// through the cells they may cross. Each destination is reached by exactly
    /// one man (the nearest piece behind it), so these sets are the moves.
    #[inline]
    fn men_targets(&self, p: &TaflPos) -> [u128; 4] {
        let g = &*self.geo;
        let men = if p.attackers_to_move {
            p.attackers
        } else {
            p.defenders
        };
        let occ = p.attackers | p.defenders | Self::king_bit(p);
        let mut cross = g.all & !occ;
        if !self.rules.throne_pass_men {
            cross &= !g.throne_bit;
        }
        let mut out = [0u128; 4];
        for (d, slot) in out.iter_mut().enumerate() {
            // Masking the propagator keeps row shifts from wrapping to the next row.
            let mut pro = match d {
                0 => cross & g.not_first_file,
                2 => cross & g.not_last_file,
                _ => cross,
            };
            let mut gen = men;
            gen |= pro & self.shift(gen, d, 1);
            pro &= self.shift(pro, d, 1);
            gen |= pro & self.shift(gen, d, 2);
            pro &= self.shift(pro, d, 2);
            gen |= pro & self.shift(gen, d, 4);
            pro &= self.shift(pro, d, 4);
            gen |= pro & self.shift(gen, d, 8);
            *slot = gen & !men & !self.forbid_men;
        }
        out
    }

    /// The man that slides to `to` in direction `d`: the nearest piece behind `to`.
    #[inline]
    fn source(&self, occ: u128, to: u8, d: usize) -> u8 {
        let behind = self.geo.ray[to as usize][(d + 2) % 4] & occ;
        debug_assert!(behind != 0);
        if d >= 2 {
            // Moving west or south: the source has a higher index.
            behind.trailing_zeros() as u8
        } else {
            (127 - behind.leading_zeros()) as u8
        }
    }

    /// Whether the side to move has at least one legal move (ignores terminality).
    fn has_move(&self, p: &TaflPos) -> bool {
        // Nearly always some man can step to a free neighbour: one shift per
        // direction settles it before the full fills.
        let g = &*self.geo;
        let men = if p.attackers_to_move {
            p.attackers
        } else {
            p.defenders
        };
        let open = g.all & !(p.attackers | p.defenders | Self::king_bit(p)) & !self.forbid_men;
        if open & (g.east(men) | g.west(men) | g.north(men) | g.south(men)) != 0 {
            return true;
        }
        if !p.attackers_to_move && p.king != NONE && self.targets(p, p.king, true) != 0 {
            return true;
        }
        self.men_targets(p).iter().any(|&t| t != 0)
    }

    /// Cells hostile to men of the given side (T6/T7), before excluding cells
    /// the victim's own men occupy.
    #[inline]
    fn hostile_cells(&self, victim_attackers: bool, king: u8) -> u128 {
        let g = &*self.geo;
        let throne_empty = king != g.throne;
        let throne = match self.rules.throne_hostile {
            ThroneHostile::None => false,
            ThroneHostile::AttAlwaysDefEmpty => victim_attackers || throne_empty,
            ThroneHostile::BothAlways => true,
            ThroneHostile::BothEmpty => throne_empty,
        };
        let mut h = if throne { g.throne_bit } else { 0 };
        if self.rules.corners_hostile {
            h |= g.corners;
        }
        h
    }

    /// Whether the king's side in direction `d` is closed (attacker, empty throne,
    /// edge or corner as the rules say).
    #[inline]
    fn side_closed(&self, p: &TaflPos, k: u8, d: usize) -> bool {
        let g = &*self.geo;
        let q = g.nb[k as usize][d];
        if q == NONE {
            return self.rules.edge_side;
        }
        let qb = bit(q);
        p.attackers & qb != 0
            || (q == g.throne && self.rules.throne_side)
            || (self.rules.corner_side && g.corners & qb != 0 && p.defenders & qb == 0)
    }

    /// Plays `mv`, returning the new position and the cells of captured pieces
    /// (the king included).
    fn play_full(&self, pos: &TaflPos, mv: TaflMove) -> (TaflPos, u128) {
        let g = &*self.geo;
        let mut p = *pos;
        let (from, to) = (mv.from, mv.to);
        let fb = bit(from) | bit(to);
        let mut captured = 0u128;
        if p.attackers_to_move {
            debug_assert!(p.attackers & bit(from) != 0);
            p.attackers ^= fb;
            p.hash ^= g.z_att[from as usize] ^ g.z_att[to as usize];
            let anvils = p.attackers | (self.hostile_cells(false, p.king) & !p.defenders);
            for d in 0..4 {
                let q = g.nb[to as usize][d];
                if q == NONE {
                    continue;
                }
                let qb = bit(q);
                let r = g.nb[q as usize][d];
                if p.defenders & qb != 0 {
                    if r != NONE
                        && (anvils & bit(r) != 0
                            || (self.rules.linnaean
                                && r == g.throne
                                && p.king == g.throne
                                && (g.beside_throne & !qb) & !p.attackers == 0))
                    {
                        captured |= qb;
                    }
                } else if q == p.king {
                    let strong = self.rules.king_capture == KingCapture::Strong
                        || (g.beside_throne | g.throne_bit) & qb != 0;
                    let taken = if strong {
                        (0..4).all(|e| self.side_closed(&p, q, e))
                    } else {
                        r != NONE
                            && (p.attackers & bit(r) != 0
                                || (self.rules.king_flank == KingFlank::Hostile
                                    && self.hostile_cells(false, p.king) & !p.defenders & bit(r)
                                        != 0))
                    };
                    if taken {
                        captured |= qb;
                    }
                }
            }
            if captured != 0 {
                let men = captured & p.defenders;
                p.defenders &= !men;
                let mut m = men;
                while m != 0 {
                    p.hash ^= g.z_def[m.trailing_zeros() as usize];
                    m &= m - 1;
                }
                if p.king != NONE && captured & bit(p.king) != 0 {
                    p.hash ^= g.z_king[p.king as usize];
                    p.king = NONE;
                }
            }
        } else {
            let is_king = from == p.king;
            if is_king {
                p.king = to;
                p.hash ^= g.z_king[from as usize] ^ g.z_king[to as usize];
            } else {
                debug_assert!(p.defenders & bit(from) != 0);
                p.defenders ^= fb;
                p.hash ^= g.z_def[from as usize] ^ g.z_def[to as usize];
            }
            if !is_king || self.rules.king_armed {
                let king_anvil = if self.rules.king_armed {
                    Self::king_bit(&p)
                } else {
                    0
                };
                let anvils =
                    p.defenders | king_anvil | (self.hostile_cells(true, p.king) & !p.attackers);
                for d in 0..4 {
                    let q = g.nb[to as usize][d];
                    if q == NONE || p.attackers & bit(q) == 0 {
                        continue;
                    }
                    let r = g.nb[q as usize][d];
                    if r != NONE && anvils & bit(r) != 0 {
                        captured |= bit(q);
                    }
                }
                p.attackers &= !captured;
                let mut m = captured;
                while m != 0 {
                    p.hash ^= g.z_att[m.trailing_zeros() as usize];
                    m &= m - 1;
                }
            }
        }
        p.attackers_to_move = !p.attackers_to_move;
        p.hash ^= g.z_att_to_move;
        (p, captured)
    }

    /// Whether `mv` is a legal move of `pred` that captures nothing, decided
    /// without generating `pred`'s moves (retrograde un-move generation calls
    /// this once per candidate predecessor).
    ///
    /// Exactly `outcome(pred).is_none() && legal_moves(pred).contains(&mv) &&
    /// !is_capture(pred, mv)`: the game is not decided in `pred`, the piece on
    /// `mv.from` belongs to the side to move, `mv.to` lies on one of its rays
    /// with every cell up to it empty, the throne (if crossed) may be crossed
    /// by that piece, the piece may stop on `mv.to`, and the capture test at
    /// `mv.to` finds nothing. A legal move also means the side to move has a
    /// move, so the no-move part of [`Game::outcome`] cannot apply.
    pub fn quiet_slide_legal(&self, pred: &TaflPos, mv: TaflMove) -> bool {
        let g = &*self.geo;
        if pred.king == NONE || mv.from as usize >= g.cells || mv.to as usize >= g.cells {
            return false;
        }
        let is_king = mv.from == pred.king;
        let own = if pred.attackers_to_move {
            pred.attackers
        } else {
            pred.defenders | bit(pred.king)
        };
        if own & bit(mv.from) == 0 || self.decided(pred).is_some() {
            return false;
        }
        let (pass, forbid) = if is_king {
            (self.rules.throne_pass_king, self.forbid_king)
        } else {
            (self.rules.throne_pass_men, self.forbid_men)
        };
        let to = bit(mv.to);
        if forbid & to != 0 {
            return false;
        }
        let rays = &g.ray[mv.from as usize];
        let Some(d) = (0..4).find(|&d| rays[d] & to != 0) else {
            return false;
        };
        // The cells crossed and the destination must be empty.
        let path = rays[d] & !g.ray[mv.to as usize][d];
        let occ = pred.attackers | pred.defenders | bit(pred.king);
        if path & occ != 0 {
            return false;
        }
        // Crossing the (then necessarily empty) throne needs the pass option;
        // stopping on it is governed by `forbid` above.
        if !pass && path & !to & g.throne_bit != 0 {
            return false;
        }
        self.play_full(pred, mv).1 == 0
    }

    /// Plays a move after checking that it is legal.
    pub fn play_checked(&self, pos: &TaflPos, mv: TaflMove) -> Result<TaflPos> {
        let mut moves = Vec::new();
        self.legal_moves(pos, &mut moves);
        if moves.contains(&mv) {
            Ok(self.play(pos, mv))
        } else {
            Err(Error::Move(format!(
                "{} is not legal here",
                self.format_move(pos, mv)
            )))
        }
    }

    /// Number of legal moves (without building a list).
    pub fn count_moves(&self, p: &TaflPos) -> u32 {
        if self.decided(p).is_some() {
            return 0;
        }
        let mut n: u32 = self.men_targets(p).iter().map(|t| t.count_ones()).sum();
        if !p.attackers_to_move {
            n += self.targets(p, p.king, true).count_ones();
        }
        n
    }

    /// A uniformly random legal move without building the move list (for
    /// playouts): counts the targets of every piece, draws one index, then
    /// finds its piece. `None` when the game is decided or the side to move
    /// has no legal move (see [`Game::outcome`] for the value).
    pub fn random_move(&self, p: &TaflPos, rng: &mut crate::random::Rng) -> Option<TaflMove> {
        if self.decided(p).is_some() {
            return None;
        }
        let men = self.men_targets(p);
        let king_targets = if p.attackers_to_move {
            0
        } else {
            self.targets(p, p.king, true)
        };
        let total: u32 =
            men.iter().map(|t| t.count_ones()).sum::<u32>() + king_targets.count_ones();
        if total == 0 {
            return None;
        }
        let mut k = rng.below(total as usize) as u32;
        let nth = |mut t: u128, k: u32| {
            for _ in 0..k {
                t &= t - 1;
            }
            t.trailing_zeros() as u8
        };
        for (d, &t) in men.iter().enumerate() {
            let cnt = t.count_ones();
            if k < cnt {
                let to = nth(t, k);
                return Some(TaflMove {
                    from: self.source(p.attackers | p.defenders | Self::king_bit(p), to, d),
                    to,
                });
            }
            k -= cnt;
        }
        Some(TaflMove {
            from: p.king,
            to: nth(king_targets, k),
        })
    }

    /// Fast perft (bulk counting at the last ply); the same convention as
    /// [`crate::game::perft`]: a terminal position is one leaf.
    pub fn perft_fast(&self, p: &TaflPos, depth: u32) -> u64 {
        if depth == 0 || self.decided(p).is_some() {
            return 1;
        }
        if depth == 1 {
            return (self.count_moves(p) as u64).max(1);
        }
        let mut moves = Vec::with_capacity(128);
        self.legal_moves(p, &mut moves);
        if moves.is_empty() {
            return 1;
        }
        moves
            .iter()
            .map(|&m| self.perft_fast(&self.play(p, m), depth - 1))
            .sum()
    }

    /// Cells from which the king reaches a goal cell in one move, per direction (for evaluation).
    fn king_paths(&self, p: &TaflPos) -> (u32, u32) {
        if p.king == NONE {
            return (0, 0);
        }
        let t = self.targets(p, p.king, true);
        let mut paths = 0;
        for &r in &self.geo.ray[p.king as usize] {
            if t & r & self.goal != 0 {
                paths += 1;
            }
        }
        (paths, t.count_ones())
    }
}

impl Game for TaflGame {
    type Pos = TaflPos;
    type Move = TaflMove;

    fn family(&self) -> &'static str {
        "tafl"
    }

    fn rules_string(&self) -> String {
        self.rules.canonical()
    }

    fn fingerprint(&self) -> u64 {
        self.rules.fingerprint()
    }

    fn start(&self) -> TaflPos {
        self.start
    }

    fn legal_moves(&self, p: &TaflPos, out: &mut Vec<TaflMove>) {
        out.clear();
        if self.decided(p).is_some() {
            return;
        }
        // Slide all men of the side one cell at a time per direction: the layer
        // after k steps holds the men's images at distance k, so each
        // destination's origin is known without a lookup.
        let g = &*self.geo;
        let men = if p.attackers_to_move {
            p.attackers
        } else {
            p.defenders
        };
        let mut cross = g.all & !(p.attackers | p.defenders | Self::king_bit(p));
        if !self.rules.throne_pass_men {
            cross &= !g.throne_bit;
        }
        let n = g.n as i32;
        for (d, step) in [1, n, -1, -n].into_iter().enumerate() {
            let pro = match d {
                0 => cross & g.not_first_file,
                2 => cross & g.not_last_file,
                _ => cross,
            };
            let mut layer = men;
            for k in 1..n {
                layer = self.shift(layer, d, 1) & pro;
                if layer == 0 {
                    break;
                }
                let mut t = layer & !self.forbid_men;
                while t != 0 {
                    let to = t.trailing_zeros() as i32;
                    t &= t - 1;
                    out.push(TaflMove {
                        from: (to - k * step) as u8,
                        to: to as u8,
                    });
                }
            }
        }
        if !p.attackers_to_move {
            let mut t = self.targets(p, p.king, true);
            while t != 0 {
                out.push(TaflMove {
                    from: p.king,
                    to: t.trailing_zeros() as u8,
                });
                t &= t - 1;
            }
        }
    }

    fn play(&self, pos: &TaflPos, mv: TaflMove) -> TaflPos {
        self.play_full(pos, mv).0
    }

    fn outcome(&self, p: &TaflPos) -> Option<Value> {
        if let Some(attackers_won) = self.decided(p) {
            return Some(if attackers_won == p.attackers_to_move {
                Value::Win
            } else {
                Value::Loss
            });
        }
        if !self.has_move(p) {
            return Some(match self.rules.no_moves {
                NoMoves::Loss => Value::Loss,
                NoMoves::Draw => Value::Draw,
            });
        }
        None
    }

    fn hash(&self, p: &TaflPos) -> u64 {
        p.hash
    }

    fn side_to_move(&self, p: &TaflPos) -> usize {
        if p.attackers_to_move {
            0
        } else {
            1
        }
    }

    fn side_name(&self, side: usize) -> &'static str {
        if side == 0 {
            "attackers"
        } else {
            "defenders"
        }
    }

    fn is_capture(&self, pos: &TaflPos, mv: TaflMove) -> bool {
        self.play_full(pos, mv).1 != 0
    }

    fn captures_of(&self, pos: &TaflPos, mv: TaflMove) -> u32 {
        self.play_full(pos, mv).1.count_ones()
    }

    fn format_position(&self, p: &TaflPos) -> String {
        let n = self.geo.n;
        let mut s = String::with_capacity(n * (n + 1) + 2);
        for y in (0..n).rev() {
            for x in 0..n {
                let c = (x + y * n) as u8;
                let b = bit(c);
                s.push(if p.attackers & b != 0 {
                    'A'
                } else if p.defenders & b != 0 {
                    'D'
                } else if p.king == c {
                    'K'
                } else {
                    '.'
                });
            }
            if y > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(if p.attackers_to_move { 'a' } else { 'd' });
        s
    }

    fn parse_position(&self, text: &str) -> Result<TaflPos> {
        let text = text.trim();
        if text == "start" {
            return Ok(self.start);
        }
        let n = self.geo.n;
        let (board, side) = text.rsplit_once(char::is_whitespace).ok_or_else(|| {
            Error::Position(format!(
                "'{text}': expected {n} rows of A/D/K/. separated by '/', a space, then 'a' or 'd'"
            ))
        })?;
        let attackers_to_move = match side {
            "a" => true,
            "d" => false,
            _ => {
                return Err(Error::Position(format!(
                    "side to move '{side}': expected 'a' (attackers) or 'd' (defenders)"
                )))
            }
        };
        let rows: Vec<&str> = board.trim().split('/').map(str::trim).collect();
        if rows.len() != n {
            return Err(Error::Position(format!(
                "expected {n} rows separated by '/', found {}",
                rows.len()
            )));
        }
        let (mut att, mut def, mut king) = (0u128, 0u128, NONE);
        for (i, row) in rows.iter().enumerate() {
            let y = n - 1 - i;
            let chars: Vec<char> = row.chars().collect();
            if chars.len() != n {
                return Err(Error::Position(format!(
                    "rank {}: '{row}' has {} cells, expected {n}",
                    y + 1,
                    chars.len()
                )));
            }
            for (x, ch) in chars.iter().enumerate() {
                let c = (x + y * n) as u8;
                match ch {
                    'A' => att |= bit(c),
                    'D' => def |= bit(c),
                    'K' => {
                        if king != NONE {
                            return Err(Error::Position("more than one king".into()));
                        }
                        king = c;
                    }
                    '.' => {}
                    _ => {
                        return Err(Error::Position(format!(
                            "rank {}: unexpected '{ch}' (use A, D, K or .)",
                            y + 1
                        )))
                    }
                }
            }
        }
        let men = att | def;
        if men & self.forbid_men != 0 {
            let bad = (men & self.forbid_men).trailing_zeros() as u8;
            return Err(Error::Position(format!(
                "a man on {}, where men may not stand under these rules",
                self.geo.cell_name(bad)
            )));
        }
        Ok(self.make_pos(att, def, king, attackers_to_move))
    }

    fn format_move(&self, _pos: &TaflPos, mv: TaflMove) -> String {
        format!(
            "{}-{}",
            self.geo.cell_name(mv.from),
            self.geo.cell_name(mv.to)
        )
    }

    fn parse_move(&self, pos: &TaflPos, text: &str) -> Result<TaflMove> {
        let t = text.trim();
        let (a, b) = t
            .split_once('-')
            .ok_or_else(|| Error::Move(format!("'{t}': expected from-to, e.g. e3-h3")))?;
        let from = self
            .geo
            .parse_cell(a)
            .ok_or_else(|| Error::Move(format!("'{a}' is not a cell of this board")))?;
        let to = self
            .geo
            .parse_cell(b)
            .ok_or_else(|| Error::Move(format!("'{b}' is not a cell of this board")))?;
        let mv = TaflMove { from, to };
        let mut moves = Vec::new();
        self.legal_moves(pos, &mut moves);
        if moves.contains(&mv) {
            Ok(mv)
        } else {
            let list: Vec<String> = moves.iter().map(|&m| self.format_move(pos, m)).collect();
            Err(Error::Move(format!(
                "'{t}' is not legal here; legal moves: {}",
                if list.is_empty() {
                    "none".to_string()
                } else {
                    list.join(" ")
                }
            )))
        }
    }

    fn diagram(&self, p: &TaflPos) -> String {
        let g = &*self.geo;
        let n = g.n;
        let files: String = (0..n)
            .map(|x| format!(" {}", (b'a' + x as u8) as char))
            .collect();
        let mut s = format!("   {files}\n");
        for y in (0..n).rev() {
            s.push_str(&format!("{:>2} ", y + 1));
            for x in 0..n {
                let c = (x + y * n) as u8;
                let b = bit(c);
                let ch = if p.attackers & b != 0 {
                    'A'
                } else if p.defenders & b != 0 {
                    'D'
                } else if p.king == c {
                    'K'
                } else if c == g.throne {
                    '*'
                } else if g.corners & b != 0 {
                    '+'
                } else {
                    '.'
                };
                s.push(' ');
                s.push(ch);
            }
            s.push_str(&format!(" {}\n", y + 1));
        }
        s.push_str(&format!("   {files}\n"));
        s.push_str(&format!(
            "{} to move; A attacker, D defender, K king, * throne, + corner\n",
            if p.attackers_to_move {
                "attackers"
            } else {
                "defenders"
            }
        ));
        s
    }

    fn evaluate(&self, p: &TaflPos) -> i32 {
        let w = &self.eval;
        let (paths, mobility) = self.king_paths(p);
        let pressure = if p.king == NONE {
            0
        } else {
            self.geo.nb[p.king as usize]
                .iter()
                .filter(|&&q| q != NONE && p.attackers & bit(q) != 0)
                .count() as i32
        };
        let for_defenders = w.defender * p.defenders.count_ones() as i32
            - w.attacker * p.attackers.count_ones() as i32
            + w.king_path * paths as i32
            + w.king_mobility * mobility as i32
            - w.king_pressure * pressure;
        if p.attackers_to_move {
            -for_defenders
        } else {
            for_defenders
        }
    }

    fn set_eval_param(&mut self, key: &str, value: i32) -> Result<()> {
        let w = &mut self.eval;
        let slot = match key {
            "attacker" => &mut w.attacker,
            "defender" => &mut w.defender,
            "king_path" => &mut w.king_path,
            "king_pressure" => &mut w.king_pressure,
            "king_mobility" => &mut w.king_mobility,
            _ => {
                return Err(Error::Input(format!(
                    "unknown tafl evaluation weight '{key}'; accepted: attacker, defender, \
                     king_path, king_pressure, king_mobility"
                )))
            }
        };
        if value.abs() > 2000 {
            return Err(Error::Input(format!(
                "evaluation weight {key}={value} is out of range (-2000..=2000)"
            )));
        }
        *slot = value;
        Ok(())
    }

    fn eval_params(&self) -> Vec<(&'static str, i32)> {
        let w = &self.eval;
        vec![
            ("attacker", w.attacker),
            ("defender", w.defender),
            ("king_path", w.king_path),
            ("king_pressure", w.king_pressure),
            ("king_mobility", w.king_mobility),
        ]
    }

    fn random_move(&self, pos: &TaflPos, rng: &mut crate::random::Rng) -> Option<TaflMove> {
        TaflGame::random_move(self, pos, rng)
    }

    fn move_limit(&self) -> Option<u32> {
        self.rules.move_limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Rng;

    /// Moves of every piece by scanning its own rays (the reference).
    fn moves_by_rays(g: &TaflGame, p: &TaflPos) -> Vec<TaflMove> {
        let mut v = Vec::new();
        if g.decided(p).is_some() {
            return v;
        }
        let mut pieces = if p.attackers_to_move {
            p.attackers
        } else {
            p.defenders | bit(p.king)
        };
        while pieces != 0 {
            let c = pieces.trailing_zeros() as u8;
            pieces &= pieces - 1;
            let mut t = g.targets(p, c, c == p.king);
            while t != 0 {
                v.push(TaflMove {
                    from: c,
                    to: t.trailing_zeros() as u8,
                });
                t &= t - 1;
            }
        }
        v.sort_by_key(|m| (m.from, m.to));
        v
    }

    /// The set-wise fills give exactly the per-piece ray scans, along random
    /// games of every preset and a few throne options.
    #[test]
    fn fills_match_ray_scans() {
        let mut specs: Vec<String> = PRESETS.iter().map(|p| p.0.to_string()).collect();
        specs.push("caikaboroda,throne_pass_men=no".into());
        specs.push("brandubh,throne_pass_men=no,corner_access=all".into());
        for spec in &specs {
            let g = from_spec(spec).unwrap();
            let mut rng = Rng::new(5);
            let mut moves = Vec::new();
            for _ in 0..20 {
                let mut p = g.start();
                for _ in 0..300 {
                    g.legal_moves(&p, &mut moves);
                    moves.sort_by_key(|m| (m.from, m.to));
                    assert_eq!(moves, moves_by_rays(&g, &p), "{spec}\n{}", g.diagram(&p));
                    assert_eq!(g.count_moves(&p) as usize, moves.len());
                    assert_eq!(
                        g.has_move(&p),
                        !moves.is_empty() || g.decided(&p).is_some() && g.has_move(&p)
                    );
                    if moves.is_empty() {
                        break;
                    }
                    p = g.play(&p, moves[rng.below(moves.len())]);
                }
            }
        }
    }
}
