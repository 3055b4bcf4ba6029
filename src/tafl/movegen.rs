//! Tafl move generation: rook slides by ray masks, custodial and king captures,
//! the end of the game, fast counting and random moves, and the [`Game`] rules
//! interface of [`TaflGame`].

use super::geometry::NONE;
use super::{bit, TaflGame, TaflMove, TaflPos};
use super::{AllCaptured, KingCapture, KingFlank, NoMoves, ThroneHostile};
use crate::game::{Game, Value};

impl TaflGame {
    /// Whether the game is over by the king's fate or a wipe-out, and who won
    /// (`true`: attackers). The no-move rule is not included.
    pub(super) fn decided(&self, p: &TaflPos) -> Option<bool> {
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
    pub(crate) fn encircled(&self, p: &TaflPos) -> bool {
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
    pub(super) fn targets(&self, p: &TaflPos, c: u8, is_king: bool) -> u128 {
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
    pub(super) fn shift(&self, b: u128, d: usize, k: usize) -> u128 {
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
    pub(super) fn men_targets(&self, p: &TaflPos) -> [u128; 4] {
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
    pub(super) fn source(&self, occ: u128, to: u8, d: usize) -> u8 {
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
    pub(super) fn has_move(&self, p: &TaflPos) -> bool {
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
    pub(super) fn hostile_cells(&self, victim_attackers: bool, king: u8) -> u128 {
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
    pub(super) fn side_closed(&self, p: &TaflPos, k: u8, d: usize) -> bool {
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
    pub(super) fn play_full(&self, pos: &TaflPos, mv: TaflMove) -> (TaflPos, u128) {
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

    /// The legal moves of `p` that capture something, into `exits`, and the
    /// number of the others, counted from the destination sets without being
    /// listed: a move can only capture next to an enemy piece
    /// ([`Self::may_capture_at`]), so only the moves landing there are played
    /// to see. A decided position has neither.
    pub(crate) fn count_quiet_moves(&self, p: &TaflPos, exits: &mut Vec<TaflMove>) -> u32 {
        exits.clear();
        if self.decided(p).is_some() {
            return 0;
        }
        let g = &*self.geo;
        let king = Self::king_bit(p);
        let enemy = if p.attackers_to_move {
            p.defenders | king
        } else {
            p.attackers
        };
        let near = g.grow(enemy);
        let occ = p.attackers | p.defenders | king;
        let mut quiet = 0;
        let mut sort = |targets: u128, from: &dyn Fn(u8) -> u8| {
            quiet += (targets & !near).count_ones();
            let mut m = targets & near;
            while m != 0 {
                let to = m.trailing_zeros() as u8;
                m &= m - 1;
                let mv = TaflMove { from: from(to), to };
                if self.is_capture(p, mv) {
                    exits.push(mv);
                } else {
                    quiet += 1;
                }
            }
        };
        for (d, targets) in self.men_targets(p).into_iter().enumerate() {
            sort(targets, &|to| self.source(occ, to, d));
        }
        if !p.attackers_to_move {
            sort(self.targets(p, p.king, true), &|_| p.king);
        }
        quiet
    }

    /// Number of legal moves (without building a list).
    pub(crate) fn count_moves(&self, p: &TaflPos) -> u32 {
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
    pub(crate) fn random_move(
        &self,
        p: &TaflPos,
        rng: &mut crate::random::Rng,
    ) -> Option<TaflMove> {
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
}

impl Game for TaflGame {
    type Pos = TaflPos;

    type Move = TaflMove;

    fn repetition(&self) -> crate::game::Repetition {
        match self.rules.repetition {
            super::Repetition::Draw => crate::game::Repetition::Draw,
            super::Repetition::DefendersLose => crate::game::Repetition::DefendersLose,
            super::Repetition::RepeaterLoses => crate::game::Repetition::RepeaterLoses,
        }
    }

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

    fn side_label(&self, side: usize) -> &'static str {
        self.labels[side.min(1)]
    }

    fn is_capture(&self, pos: &TaflPos, mv: TaflMove) -> bool {
        self.play_full(pos, mv).1 != 0
    }

    fn captures_of(&self, pos: &TaflPos, mv: TaflMove) -> u32 {
        self.play_full(pos, mv).1.count_ones()
    }

    fn move_limit(&self) -> Option<u32> {
        self.rules.move_limit
    }

    fn random_move(&self, pos: &TaflPos, rng: &mut crate::random::Rng) -> Option<TaflMove> {
        TaflGame::random_move(self, pos, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;
    use crate::random::Rng;
    use crate::tafl::{from_spec, PRESETS};

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
                    let mut exits = Vec::new();
                    let quiet = g.count_quiet_moves(&p, &mut exits);
                    let mut captures: Vec<TaflMove> = moves
                        .iter()
                        .copied()
                        .filter(|&m| g.is_capture(&p, m))
                        .collect();
                    exits.sort_by_key(|m| (m.from, m.to));
                    captures.sort_by_key(|m| (m.from, m.to));
                    assert_eq!(exits, captures, "{spec}\n{}", g.diagram(&p));
                    assert_eq!(quiet as usize + exits.len(), moves.len());
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
