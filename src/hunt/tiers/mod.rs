//! Hunt games as a [`TierGame`].
//!
//! **Tiers.** A tier is (hunters in hand, prey in hand, prey captured), named
//! `h<hunters in hand>p<prey in hand>c<captured>`. Drops and captures change the
//! tier; steps (and the prey's pass) stay inside. Tiers in which the hunters
//! have already won by count (H11) are leaves.
//!
//! **Index** (scheme version [`crate::retro::driver::INDEX_VERSION`]). With `H`
//! hunters and `P` prey on a board of `n` points:
//! `index = (hunter_class · C(n−H, P) + prey_rank) · 2 + side`, where
//! - `hunter_class` numbers the hunter sets that are the smallest image (as a
//!   bit mask) of their orbit under the board's symmetry group, in increasing
//!   mask order (as chess tablebases place the king first);
//! - `prey_rank` is the combinatorial-number-system (colex) rank of the prey
//!   set among the `n − H` points free of hunters, in increasing point order;
//!   when the hunter set is fixed by some non-identity symmetries, the
//!   smallest rank over those symmetries is used, so the index is canonical
//!   for the whole position;
//! - `side` is 0 with the hunters to move, 1 with the prey to move.
//!
//! Slots whose prey set is not the smallest image under the hunter set's
//! stabiliser are empty ([`TierGame::unrank`] returns `None`).

mod index;
mod preds;

pub(crate) use crate::tier::distinct_images;
use index::{compress, squeeze, with_index};

use crate::error::{Error, Result};
use crate::game::Game;
use crate::hunt::{HuntGame, HuntMove, HuntPos, MoveKind, PreyNoMoves};
use crate::tier::TierGame;

/// A hunt tier: pieces in hand and prey captured (the side to move is inside the tier).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HuntTier {
    /// Hunters still in hand.
    pub hunters_in_hand: u8,
    /// Prey still in hand.
    pub prey_in_hand: u8,
    /// Prey captured.
    pub captured: u8,
}

/// Pieces on board in a tier: (hunters, prey), or `None` if the counts are impossible.
pub(crate) fn on_board(game: &HuntGame, t: HuntTier) -> Option<(usize, usize)> {
    let r = game.rules();
    let h = (r.hunters as i32) - t.hunters_in_hand as i32;
    let p = r.prey as i32 - t.prey_in_hand as i32 - t.captured as i32;
    let n = game.board().len() as i32;
    (h >= 0 && p >= 0 && h + p <= n).then_some((h as usize, p as usize))
}

/// Whether every position of the tier is already won by the hunters (H11).
fn tier_is_won(game: &HuntGame, t: HuntTier) -> bool {
    let Some((_, p)) = on_board(game, t) else {
        return true;
    };
    let prey = if p >= 64 { u64::MAX } else { (1u64 << p) - 1 };
    let probe = HuntPos {
        hunters: 0,
        prey,
        hunters_in_hand: t.hunters_in_hand,
        prey_in_hand: t.prey_in_hand,
        captured: t.captured,
        hunter_to_move: true,
        hash: 0,
    };
    game.hunters_have_won(&probe)
}

/// Whether, in tier `t` with the hunters (`hunter_to_move`) or the prey to move,
/// the side that moved last had no in-tier move at all: it still had pieces in
/// hand and must drop them before moving (H4), so it dropped (a move from
/// another tier) and no un-move of this tier leads here. Equally: with the other
/// side to move, that side has no in-tier move (every move of it is a drop).
/// Passes are the one exception kept conservative: a prey that may pass is never
/// ruled out.
fn last_mover_only_drops(game: &HuntGame, t: HuntTier, hunter_to_move: bool) -> bool {
    let rules = game.rules();
    if hunter_to_move {
        t.prey_in_hand > 0 && rules.drop_before_move.1 && rules.prey_no_moves != PreyNoMoves::Pass
    } else {
        t.hunters_in_hand > 0 && rules.drop_before_move.0
    }
}

impl HuntGame {
    /// The position of tier `t` (its pieces in hand and captured) with these
    /// pieces on board and this side to move, without its Zobrist hash (0): the
    /// solvers' enumerations rank positions by their pieces and never read the
    /// hash, which cost about 20 instructions a slot ([`TierGame::unrank`] sets it).
    fn tier_pos_unhashed(
        &self,
        t: HuntTier,
        hunters: u64,
        prey: u64,
        hunter_to_move: bool,
    ) -> HuntPos {
        HuntPos {
            hunters,
            prey,
            hunters_in_hand: t.hunters_in_hand,
            prey_in_hand: t.prey_in_hand,
            captured: t.captured,
            hunter_to_move,
            hash: 0,
        }
    }

    /// The position of slot `index` of tier `t` and the order of its stabiliser,
    /// or `None` for a slot that holds no position. A slot of a class whose hunter
    /// set some symmetry fixes is ranked back (is it the canonical image?), and
    /// that ranking gives the stabiliser too; any other class's stabiliser is
    /// trivial.
    fn unrank_stab(&self, t: HuntTier, index: u64) -> Option<(HuntPos, u32)> {
        let (mut pos, stab, _) = with_index(self, |idx| self.unrank_in(idx, t, index, false))?;
        pos.hash = self.compute_hash(&pos);
        Some((pos, stab))
    }
}

impl TierGame for HuntGame {
    type Tier = HuntTier;

    fn tier_of(&self, pos: &HuntPos) -> HuntTier {
        HuntTier {
            hunters_in_hand: pos.hunters_in_hand,
            prey_in_hand: pos.prey_in_hand,
            captured: pos.captured,
        }
    }

    fn tier_name(&self, t: HuntTier) -> String {
        format!("h{}p{}c{}", t.hunters_in_hand, t.prey_in_hand, t.captured)
    }

    fn parse_tier(&self, name: &str) -> Result<HuntTier> {
        let bad = || Error::Usage(format!("'{name}' is not a hunt tier name (e.g. h0p3c1)"));
        let rest = name.strip_prefix('h').ok_or_else(bad)?;
        let (h, rest) = rest.split_once('p').ok_or_else(bad)?;
        let (p, c) = rest.split_once('c').ok_or_else(bad)?;
        let num = |s: &str| s.parse::<u8>().map_err(|_| bad());
        let t = HuntTier {
            hunters_in_hand: num(h)?,
            prey_in_hand: num(p)?,
            captured: num(c)?,
        };
        if on_board(self, t).is_none() {
            return Err(Error::Usage(format!(
                "tier '{name}' has impossible piece counts for {}",
                self.rules_string()
            )));
        }
        Ok(t)
    }

    fn tier_children(&self, t: HuntTier) -> Vec<HuntTier> {
        if tier_is_won(self, t) {
            return Vec::new();
        }
        let Some((_, p)) = on_board(self, t) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        if t.hunters_in_hand > 0 {
            out.push(HuntTier {
                hunters_in_hand: t.hunters_in_hand - 1,
                ..t
            });
        }
        if t.prey_in_hand > 0 {
            out.push(HuntTier {
                prey_in_hand: t.prey_in_hand - 1,
                ..t
            });
        }
        let most = match self.rules().chain {
            crate::hunt::Chain::None => p.min(1),
            _ => p,
        };
        for k in 1..=most {
            out.push(HuntTier {
                captured: t.captured + k as u8,
                ..t
            });
        }
        out.retain(|&c| on_board(self, c).is_some());
        out
    }

    fn tier_is_terminal(&self, t: HuntTier) -> bool {
        tier_is_won(self, t)
    }

    /// A terminal tier is one the hunters have won by count (H11), which
    /// [`Game::outcome`] checks first: the child is won with the hunters to move
    /// and lost with the prey to move, and every move passes the turn.
    fn terminal_child_value(
        &self,
        pos: &HuntPos,
        _m: HuntMove,
        child_tier: HuntTier,
    ) -> Option<crate::game::Value> {
        use crate::game::Value;
        tier_is_won(self, child_tier).then_some(if pos.hunter_to_move {
            Value::Loss
        } else {
            Value::Win
        })
    }

    fn tier_size(&self, t: HuntTier) -> u64 {
        let Some((h, p)) = on_board(self, t) else {
            return 0;
        };
        with_index(self, |idx| {
            // Saturating: a plan refuses a tier this large (`driver::plan`).
            (idx.sets[h].masks.len() as u64)
                .saturating_mul(idx.binom[idx.n - h][p])
                .saturating_mul(2)
        })
    }

    fn rank(&self, _t: HuntTier, pos: &HuntPos) -> u64 {
        with_index(self, |idx| idx.rank(pos))
    }

    fn rank_orbit(&self, _t: HuntTier, pos: &HuntPos) -> (u64, Option<u32>) {
        let (r, stab) = with_index(self, |idx| idx.rank_stab(pos));
        (r, Some(stab))
    }

    /// Distinct images of the piece sets under the board's symmetries
    /// ([`crate::board::Board::map_mask`]; the ranking tables are not used).
    /// The symmetries are the board's automorphism group, so by the
    /// orbit-stabiliser theorem this is the group's order over the number of
    /// symmetries fixing the position: the hunters' few points are mapped
    /// first, and the prey only under a symmetry that fixes them (on these
    /// boards, rarely). Counting the images themselves took most of
    /// `analyze --by-side` on the 49-point board's 7-cow tier (18.5 G classes).
    fn orbit_size(&self, pos: &HuntPos) -> Option<u64> {
        let board = self.board();
        let n = board.symmetries.len();
        let fixing = (0..n)
            .filter(|&s| {
                board.map_mask(s, pos.hunters) == pos.hunters
                    && board.map_mask(s, pos.prey) == pos.prey
            })
            .count()
            .max(1);
        let size = (n / fixing) as u64;
        debug_assert_eq!(
            size,
            distinct_images(n, |s| {
                (board.map_mask(s, pos.hunters), board.map_mask(s, pos.prey))
            })
        );
        Some(size)
    }

    fn unrank(&self, t: HuntTier, index: u64) -> Option<HuntPos> {
        self.unrank_stab(t, index).map(|(pos, _)| pos)
    }

    /// A representative whose hunter set no symmetry but the identity fixes (on
    /// these boards, most) has a trivial stabiliser: nothing to rank.
    fn unrank_orbit(&self, t: HuntTier, index: u64) -> Option<(HuntPos, Option<u32>)> {
        self.unrank_stab(t, index)
            .map(|(pos, stab)| (pos, Some(stab)))
    }

    fn may_have_unmoves(&self, t: HuntTier, index: u64) -> bool {
        // Slot parity is the side to move (see the index); the last mover is the other.
        !last_mover_only_drops(self, t, index & 1 == 0)
    }

    fn may_have_inner_moves(&self, t: HuntTier, index: u64) -> bool {
        // The side to move of this slot is the last mover of the other slot of the pair.
        !last_mover_only_drops(self, t, index & 1 == 1)
    }

    /// Steps and the pass stay in the tier, captures leave it; a side with a
    /// piece in hand takes the general path.
    fn count_inner_moves(
        &self,
        _t: HuntTier,
        pos: &HuntPos,
        exits: &mut Vec<HuntMove>,
    ) -> Option<u32> {
        self.steps_and_captures(pos, exits)
    }

    fn tier_has_moveless_slots(&self, t: HuntTier) -> bool {
        last_mover_only_drops(self, t, true) || last_mover_only_drops(self, t, false)
    }

    /// Un-steps whose legality needs at most a jump test (see
    /// [`TierGame::unmoves`] here) are ranked without building positions: an un-step of the prey keeps the
    /// hunter set, so its class and canonical symmetries are looked up once and
    /// the prey set is mapped and compressed once per such symmetry, each
    /// predecessor then being that mask with one compressed point moved (as in
    /// `child_indices`); an un-step of a hunter is ranked whole. Every other
    /// case takes the general path (un-moves, then their ranks).
    fn pred_ranks(
        &self,
        tier: HuntTier,
        pos: &HuntPos,
        buf: &mut Vec<HuntPos>,
        out: &mut Vec<(u64, Option<u32>)>,
    ) {
        out.clear();
        with_index(self, |idx| {
            self.pred_ranks_in(idx, tier, pos, None, buf, &mut |r, stab| {
                out.push((r, stab))
            })
        });
    }

    /// The slot's pieces come from the index: the prey's compressed mask and rank
    /// are not computed again for the prey's un-steps.
    fn slot_pred_ranks(
        &self,
        tier: HuntTier,
        index: u64,
        buf: &mut Vec<HuntPos>,
        out: &mut Vec<(u64, Option<u32>)>,
    ) -> Option<Option<u32>> {
        out.clear();
        with_index(self, |idx| {
            let (pos, stab, known) = self.unrank_in(idx, tier, index, true)?;
            self.pred_ranks_in(idx, tier, &pos, known, buf, &mut |r, stab| {
                out.push((r, stab))
            });
            Some(Some(stab))
        })
    }

    /// Every predecessor's order is known here, so a child only the identity
    /// fixes always takes this path.
    fn slot_pred_edges(
        &self,
        tier: HuntTier,
        index: u64,
        buf: &mut Vec<HuntPos>,
        out: &mut Vec<(u64, u16)>,
    ) -> bool {
        with_index(self, |idx| {
            let Some((pos, 1, known)) = self.unrank_in(idx, tier, index, true) else {
                return false;
            };
            let start = out.len();
            let mut exact = true;
            self.pred_ranks_in(idx, tier, &pos, known, buf, &mut |r, stab| match stab {
                Some(s) => out.push((r, s as u16)),
                None => exact = false,
            });
            if !exact {
                out.truncate(start);
            }
            exact
        })
    }

    /// Consecutive slots share their pieces pairwise (the side is the low bit), and
    /// consecutive prey ranks are consecutive in colex order, which is the numeric
    /// order of the prey mask compressed onto the points free of hunters: the next
    /// prey set is the next larger number with as many bits (Gosper's rule),
    /// spread back onto the free points. Only the first slot of each hunter class
    /// is unranked; the stabiliser check of symmetric classes is as in `unrank`.
    fn for_each_slot(
        &self,
        t: HuntTier,
        range: std::ops::Range<u64>,
        want: Option<&dyn Fn(u64) -> bool>,
        f: &mut dyn FnMut(u64, &HuntPos) -> Result<()>,
    ) -> Result<()> {
        let Some((h, p)) = on_board(self, t) else {
            return Ok(());
        };
        let end = range.end.min(self.tier_size(t));
        with_index(self, |idx| {
            let per = idx.binom[idx.n - h][p];
            let sets = &idx.sets[h];
            // The current pair: (class, prey rank) and its compressed prey mask.
            let mut state: Option<(u64, u64, u64)> = None;
            let mut free = [0u8; 64];
            let mut nfree;
            let mut pair = range.start >> 1;
            while pair * 2 < end {
                let (class, prank) = (pair / per, pair % per);
                let Some(&hunters) = sets.masks.get(class as usize) else {
                    break;
                };
                let x = match state {
                    Some((c, r, x)) if c == class && r + 1 == prank => {
                        // Gosper: the next larger mask with the same number of bits.
                        let low = x & x.wrapping_neg();
                        let ripple = x + low;
                        ((ripple ^ x) >> (2 + low.trailing_zeros())) | ripple
                    }
                    _ => {
                        nfree = 0;
                        let mut fm = idx.all() & !hunters;
                        while fm != 0 {
                            free[nfree] = fm.trailing_zeros() as u8;
                            fm &= fm - 1;
                            nfree += 1;
                        }
                        compress(idx.prey_unrank(hunters, p, prank), &free[..nfree])
                    }
                };
                state = Some((class, prank, x));
                let mut prey = 0u64;
                let mut m = x;
                while m != 0 {
                    prey |= 1u64 << free[m.trailing_zeros() as usize];
                    m &= m - 1;
                }
                // The class's hunter set is canonical, so the symmetries that could give
                // a smaller rank are its stabiliser's: the slot holds a position if no
                // image of the prey under them ranks lower. Same-size sets rank in colex
                // order, which is the numeric order of their compressed masks, so the
                // images are compared as masks, without ranking them (once per pair:
                // both sides have these pieces).
                let canonical = sets.stabiliser[class as usize]
                    .iter()
                    .all(|&s| squeeze(idx.map(s as usize, prey), hunters) >= x);
                if canonical {
                    for side in 0..2u64 {
                        let index = pair * 2 + side;
                        if index < range.start || index >= end || !want.is_none_or(|w| w(index)) {
                            continue;
                        }
                        let pos = self.tier_pos_unhashed(t, hunters, prey, side == 0);
                        debug_assert_eq!(idx.rank(&pos), index, "slot {index} of {t:?}");
                        f(index, &pos)?;
                    }
                }
                pair += 1;
            }
            Ok(())
        })
    }

    /// With the prey to move, a drop or a step changes one or two prey points
    /// under the same hunter set: the hunter class and the symmetries that make it
    /// canonical are looked up once, the prey set is mapped and compressed once per
    /// such symmetry, and each child's prey rank is that compressed mask with the
    /// moved point's compressed image set (and the start cleared). Other moves are
    /// played and ranked.
    fn child_indices(
        &self,
        t: HuntTier,
        pos: &HuntPos,
        moves: &[HuntMove],
        inner: bool,
        out: &mut Vec<(HuntTier, u64)>,
    ) {
        out.clear();
        let general = |m: HuntMove, out: &mut Vec<(HuntTier, u64)>| {
            let child = self.play(pos, m);
            let ct = self.tier_of(&child);
            // A child in a terminal tier is not stored (its value is its outcome):
            // there is nothing to look up, so it is not ranked either.
            let index = if ct == t && !inner || tier_is_won(self, ct) {
                0
            } else {
                with_index(self, |idx| idx.rank(&child))
            };
            out.push((ct, index));
        };
        if !inner
            && moves
                .iter()
                .all(|m| matches!(m.kind, MoveKind::Step | MoveKind::Pass))
        {
            // Every child is in the tier and only counted (a movement tier's common case).
            out.extend(moves.iter().map(|_| (t, 0)));
            return;
        }
        if pos.hunter_to_move {
            for &m in moves {
                match m.kind {
                    MoveKind::Step if !inner => out.push((t, 0)),
                    _ => general(m, out),
                }
            }
            return;
        }
        with_index(self, |idx| {
            let h = pos.hunters.count_ones() as usize;
            let p = pos.prey.count_ones() as usize;
            let (class, best_h, syms) = idx.canonical(pos.hunters);
            let mut images = [(0u8, 0u64); 16];
            if syms.len() > images.len() {
                for &m in moves {
                    general(m, out);
                }
                return;
            }
            for (k, &s) in syms.iter().enumerate() {
                images[k] = (s, squeeze(idx.map(s as usize, pos.prey), best_h));
            }
            let images = &images[..syms.len()];
            // Compressed position of the image of point `q` under `s`.
            let at = |s: u8, q: u8| {
                let y = idx.point[s as usize][q as usize] as u32;
                1u64 << (y - (best_h & ((1u64 << y) - 1)).count_ones())
            };
            let best = |f: &dyn Fn(u8, u64) -> u64| {
                images
                    .iter()
                    .map(|&(s, x)| idx.compressed_rank(f(s, x)))
                    .min()
                    .unwrap_or(0)
            };
            for &m in moves {
                match m.kind {
                    MoveKind::Drop => {
                        let ct = HuntTier {
                            prey_in_hand: t.prey_in_hand - 1,
                            ..t
                        };
                        let r = best(&|s, x| x | at(s, m.to));
                        let per = idx.binom[idx.n - h][p + 1];
                        out.push((ct, (class as u64 * per + r) * 2));
                    }
                    MoveKind::Step if !inner => out.push((t, 0)),
                    MoveKind::Step => {
                        let r = best(&|s, x| x & !at(s, m.from) | at(s, m.to));
                        let per = idx.binom[idx.n - h][p];
                        out.push((t, (class as u64 * per + r) * 2));
                    }
                    _ => general(m, out),
                }
            }
        })
    }

    fn unmoves(&self, pos: &HuntPos, out: &mut Vec<HuntPos>) {
        out.clear();
        if last_mover_only_drops(self, self.tier_of(pos), pos.hunter_to_move) {
            return;
        }
        let board = self.board();
        let empty = board.all_mask() & !(pos.hunters | pos.prey);
        let hunter_moved = !pos.hunter_to_move;
        let pieces = if hunter_moved { pos.hunters } else { pos.prey };
        let mut moves: Vec<HuntMove> = Vec::new();
        // A step can only be illegal in the predecessor when the game is over
        // there (same piece counts as `pos`), when drops must come first, or
        // when a capture is compulsory. Outside those cases every geometric
        // un-step is a legal step and regenerating the predecessor's moves
        // (the costliest part of un-move generation) is skipped.
        let rules = self.rules();
        if self.hunters_have_won(pos) {
            return;
        }
        let always_legal = if hunter_moved {
            !(rules.capture_compulsory || pos.hunters_in_hand > 0 && rules.drop_before_move.0)
        } else {
            !(pos.prey_in_hand > 0 && rules.drop_before_move.1)
        };
        let mut m = pieces;
        while m != 0 {
            let t = m.trailing_zeros() as u8;
            m &= m - 1;
            let mut from = board.neighbours[t as usize] & empty;
            while from != 0 {
                let s = from.trailing_zeros() as u8;
                from &= from - 1;
                let moved = |b: u64| b & !(1u64 << t) | 1u64 << s;
                let (h, p) = if hunter_moved {
                    (moved(pos.hunters), pos.prey)
                } else {
                    (pos.hunters, moved(pos.prey))
                };
                let pred = self.make_pos(
                    h,
                    p,
                    pos.hunters_in_hand,
                    pos.prey_in_hand,
                    pos.captured,
                    hunter_moved,
                );
                if always_legal {
                    out.push(pred);
                    continue;
                }
                // Keep it only if the step is legal there (drops first, compulsory capture...).
                self.legal_moves(&pred, &mut moves);
                if moves
                    .iter()
                    .any(|mv| mv.kind == MoveKind::Step && mv.from == s && mv.to == t)
                {
                    out.push(pred);
                }
            }
        }
        if !hunter_moved && self.rules().prey_no_moves == PreyNoMoves::Pass {
            let pred = HuntPos {
                hunter_to_move: false,
                ..*pos
            };
            let pred = self.make_pos(
                pred.hunters,
                pred.prey,
                pred.hunters_in_hand,
                pred.prey_in_hand,
                pred.captured,
                false,
            );
            self.legal_moves(&pred, &mut moves);
            if moves.iter().any(|mv| mv.kind == MoveKind::Pass) {
                out.push(pred);
            }
        }
    }
}

#[cfg(test)]
mod tests;
