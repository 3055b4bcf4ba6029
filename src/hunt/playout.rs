//! A uniformly random legal move without building the move list, for playouts
//! (MCTS, `playout`).
//!
//! Drops and steps are counted with population counts (one per piece), one
//! index is drawn, and the move is found by walking the same counts again.
//! Captures are rare and their chains need a search, so when the hunters have
//! at least one jump the draw falls back to the full move list (every chain
//! starts with a single jump, so "no single jump" means "no capture").

use super::position::bits;
use super::{HuntGame, HuntMove, HuntPos, PreyNoMoves};
use crate::game::Game;
use crate::random::Rng;

/// The index of the `k`-th set bit of `m` (`k < m.count_ones()`).
#[inline]
fn nth_bit(mut m: u64, k: u32) -> u8 {
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros() as u8
}

impl HuntGame {
    /// Whether some hunter can jump a prey now (the start of any capture).
    #[inline]
    fn hunter_has_jump(&self, p: &HuntPos, empty: u64) -> bool {
        let b = &*self.tables;
        bits(p.hunters)
            .any(|h| bits(b.jump_over[h] & p.prey).any(|o| empty >> b.jump_to[h][o] & 1 == 1))
    }

    /// A uniformly random legal move (the same distribution as drawing from
    /// [`Game::legal_moves`]), `None` when there is no legal move.
    pub(crate) fn random_move_fast(&self, p: &HuntPos, rng: &mut Rng) -> Option<HuntMove> {
        if self.hunters_have_won(p) {
            return None;
        }
        let empty = self.empty(p);
        let b = &*self.tables;
        if p.hunter_to_move {
            let drops = self.hunter_drops(p, empty);
            let only_drops =
                p.hunters_in_hand > 0 && (self.rules.drop_before_move.0 || p.hunters == 0);
            if !only_drops && self.hunter_has_jump(p, empty) {
                // Captures (and, unless compulsory, everything else): the list.
                let mut moves = Vec::with_capacity(64);
                self.legal_moves(p, &mut moves);
                return if moves.is_empty() {
                    None
                } else {
                    Some(moves[rng.below(moves.len())])
                };
            }
            let n_drops = drops.count_ones();
            let n_steps: u32 = if only_drops {
                0
            } else {
                bits(p.hunters)
                    .map(|h| (b.neighbours[h] & empty).count_ones())
                    .sum()
            };
            let total = n_drops + n_steps;
            if total == 0 {
                return None;
            }
            let k = rng.below(total as usize) as u32;
            if k < n_drops {
                return Some(HuntMove::drop(nth_bit(drops, k)));
            }
            let mut k = k - n_drops;
            for h in bits(p.hunters) {
                let t = b.neighbours[h] & empty;
                let c = t.count_ones();
                if k < c {
                    return Some(HuntMove::step(h as u8, nth_bit(t, k)));
                }
                k -= c;
            }
            unreachable!("the step count covers every step");
        } else {
            let drops = if p.prey_in_hand > 0 { empty } else { 0 };
            let steps_allowed = !(p.prey_in_hand > 0 && self.rules.drop_before_move.1);
            let n_drops = drops.count_ones();
            let n_steps: u32 = if steps_allowed {
                bits(p.prey)
                    .map(|q| (b.neighbours[q] & empty).count_ones())
                    .sum()
            } else {
                0
            };
            let total = n_drops + n_steps;
            if total == 0 {
                return (self.rules.prey_no_moves == PreyNoMoves::Pass).then(HuntMove::pass);
            }
            let k = rng.below(total as usize) as u32;
            if k < n_drops {
                return Some(HuntMove::drop(nth_bit(drops, k)));
            }
            let mut k = k - n_drops;
            for q in bits(p.prey) {
                let t = b.neighbours[q] & empty;
                let c = t.count_ones();
                if k < c {
                    return Some(HuntMove::step(q as u8, nth_bit(t, k)));
                }
                k -= c;
            }
            unreachable!("the step count covers every step");
        }
    }
}
