//! A slot's position from the index and its predecessors' ranks: the hunt's
//! enumerations for the solver's propagation (`slot_pred_ranks`,
//! `slot_pred_edges`, `pred_ranks` in [`TierGame`]).

use super::index::{spread, squeeze, Index, Lifted};
use super::{last_mover_only_drops, on_board, HuntTier};
use crate::hunt::{HuntGame, HuntPos, PreyNoMoves};
use crate::tier::TierGame;

/// For a representative whose hunter set only the identity fixes: its prey
/// compressed onto the points free of hunters, and that mask's colex rank.
type Known = Option<(u64, u64)>;

impl HuntGame {
    /// [`HuntGame::unrank_stab`] with the index at hand, the position without its
    /// hash ([`HuntGame::tier_pos_unhashed`]), and for a class whose
    /// hunter set no symmetry but the identity fixes, the prey compressed onto the
    /// points free of hunters and its rank (`Known`): what [`HuntGame::pred_ranks_in`]
    /// would otherwise compute again.
    ///
    /// With `sorted`, the slot is one of an increasing run (a level's children in
    /// `slot_pred_ranks`) and its prey are unranked from the last slot's
    /// ([`Index::compressed_unrank_sorted`]).
    pub(super) fn unrank_in(
        &self,
        idx: &Index,
        t: HuntTier,
        index: u64,
        sorted: bool,
    ) -> Option<(HuntPos, u32, Known)> {
        let (h, p) = on_board(self, t)?;
        let side = index & 1;
        let rest = index >> 1;
        let free = idx.n - h;
        let per = idx.binom[free][p];
        let (class, prank) = (rest / per, rest % per);
        let sets = &idx.sets[h];
        let hunters = *sets.masks.get(class as usize)?;
        let x = if sorted {
            idx.compressed_unrank_sorted(free, p, prank)
        } else {
            idx.compressed_unrank(free, p, prank)
        };
        let pos = self.tier_pos_unhashed(t, hunters, spread(x, hunters), side == 0);
        if sets.stabiliser[class as usize].is_empty() {
            return Some((pos, 1, Some((x, prank))));
        }
        let (r, stab) = idx.rank_stab(&pos);
        (r == index).then_some((pos, stab, None))
    }

    /// [`TierGame::pred_ranks`] with the index at hand (appending to `out`);
    /// `known`, from [`HuntGame::unrank_in`], spares mapping and ranking the prey
    /// of a representative again.
    ///
    /// Un-steps whose legality needs at most a jump test (see
    /// [`TierGame::unmoves`] here) are ranked without building positions: an
    /// un-step of the prey keeps the hunter set, so its class and canonical
    /// symmetries are looked up once and the prey set is mapped and compressed
    /// once per such symmetry, each predecessor then being that mask with one
    /// compressed point moved (as in `child_indices`); an un-step of a hunter is
    /// ranked whole. Every other case takes the general path (un-moves, then
    /// their ranks).
    pub(super) fn pred_ranks_in(
        &self,
        idx: &Index,
        tier: HuntTier,
        pos: &HuntPos,
        known: Known,
        buf: &mut Vec<HuntPos>,
        push: &mut impl FnMut(u64, Option<u32>),
    ) {
        let t = self.tier_of(pos);
        if last_mover_only_drops(self, t, pos.hunter_to_move) || self.hunters_have_won(pos) {
            return;
        }
        let rules = self.rules();
        let hunter_moved = !pos.hunter_to_move;
        // With compulsory captures a hunter step is legal exactly when no jump is
        // (checked per predecessor below, without generating its moves).
        let always_legal = if hunter_moved {
            !(pos.hunters_in_hand > 0 && rules.drop_before_move.0)
        } else {
            !(pos.prey_in_hand > 0 && rules.drop_before_move.1)
                && rules.prey_no_moves != PreyNoMoves::Pass
        };
        let general = |buf: &mut Vec<HuntPos>, push: &mut dyn FnMut(u64, Option<u32>)| {
            self.unmoves(pos, buf);
            for p in buf.iter().filter(|p| self.tier_of(p) == tier) {
                let (r, stab) = self.rank_orbit(tier, p);
                push(r, stab);
            }
        };
        if !always_legal || t != tier {
            return general(buf, push);
        }
        let board = self.board();
        let empty = board.all_mask() & !(pos.hunters | pos.prey);
        if hunter_moved {
            // The prey stay put: each symmetry maps them once, when first needed.
            let mut images = [None; 16];
            let mut image = |s: u8| match images.get_mut(s as usize) {
                Some(cell) => *cell.get_or_insert_with(|| idx.map(s as usize, pos.prey)),
                None => idx.map(s as usize, pos.prey),
            };
            let mut m = pos.hunters;
            while m != 0 {
                let to = m.trailing_zeros();
                m &= m - 1;
                let mut from = board.neighbours[to as usize] & empty;
                while from != 0 {
                    let s = from.trailing_zeros();
                    from &= from - 1;
                    let pred = HuntPos {
                        hunters: pos.hunters & !(1u64 << to) | 1u64 << s,
                        hunter_to_move: true,
                        hash: 0,
                        ..*pos
                    };
                    if rules.capture_compulsory && self.hunter_can_capture(&pred) {
                        continue;
                    }
                    let (r, stab) = idx.rank_stab_with(&pred, &mut image);
                    push(r, Some(stab));
                }
            }
            return;
        }
        let h = pos.hunters.count_ones() as usize;
        let p = pos.prey.count_ones() as usize;
        let (class, best_h, syms) = idx.canonical(pos.hunters);
        let mut images = [(0u8, 0u64, 0u64); 16];
        let images = if let Some((x, r)) = known {
            // The representative of a class only the identity (symmetry 0) fixes.
            images[0] = (0, x, r);
            &images[..1]
        } else {
            if syms.len() > images.len() {
                return general(buf, push);
            }
            for (k, &s) in syms.iter().enumerate() {
                let x = squeeze(idx.map(s as usize, pos.prey), best_h);
                images[k] = (s, x, idx.compressed_rank(x));
            }
            &images[..syms.len()]
        };
        // A point's place among the points free of hunters in image `s`.
        let at = |s: u8, q: u32| {
            let y = idx.point[s as usize][q as usize] as u32;
            y - (best_h & ((1u64 << y) - 1)).count_ones()
        };
        let base = class as u64 * idx.binom[idx.n - h][p];
        let mut lifted = [Lifted::default(); 16];
        let mut m = pos.prey;
        while m != 0 {
            let to = m.trailing_zeros();
            m &= m - 1;
            let mut from = board.neighbours[to as usize] & empty;
            if from == 0 {
                continue;
            }
            for (l, &(sym, x, r0)) in lifted.iter_mut().zip(images) {
                *l = idx.lift(x, r0, at(sym, to));
            }
            let lifted = &lifted[..images.len()];
            while from != 0 {
                let s = from.trailing_zeros();
                from &= from - 1;
                let (mut best, mut stab) = (u64::MAX, 0u32);
                for (l, &(sym, _, _)) in lifted.iter().zip(images) {
                    let r = idx.step_to(l, at(sym, s));
                    if r < best {
                        (best, stab) = (r, 1);
                    } else if r == best {
                        stab += 1;
                    }
                }
                // The predecessor has the prey to move: side bit 1.
                push((base + best) * 2 + 1, Some(stab));
            }
        }
    }
}
