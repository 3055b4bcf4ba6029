//! Hunt games as a [`Solvable`]: scopes, plans and names of tiers for the driver.

use super::{on_board, HuntTier};
use crate::error::{Error, Result};
use crate::game::Game;
use crate::hunt::{HuntGame, HunterWin};
use crate::retro::scope::{binomial, tier_closure, Scope, Solvable};
use crate::tier::TierGame;

impl Solvable for HuntGame {
    fn scope_tiers(&self, scope: &Scope) -> Result<Vec<HuntTier>> {
        let r = self.rules();
        let cap = match r.hunter_win {
            HunterWin::Captures(n) => (n as u32).min(r.prey as u32),
            HunterWin::Static => r.prey as u32,
        };
        let movement = |max_on_board: u32| -> Vec<HuntTier> {
            (0..=cap)
                .map(|c| HuntTier {
                    hunters_in_hand: 0,
                    prey_in_hand: 0,
                    captured: c as u8,
                })
                .filter(|&t| on_board(self, t).is_some_and(|(_, p)| p as u32 <= max_on_board))
                .collect()
        };
        let roots =
            match scope {
                Scope::Whole => vec![self.tier_of(&self.start())],
                Scope::Movement => movement(u32::MAX),
                Scope::MaxPrey(n) if *n > r.prey as u32 => return Err(Error::Usage(format!(
                    "max-prey={n}: these rules have {} {}; give at most {} (or solve the movement phase: --phase movement)",
                    r.prey,
                    self.side_label(1),
                    r.prey
                ))),
                Scope::MaxPrey(n) => movement(*n),
                Scope::MaxInHand(n) => {
                    // Never more in hand than at the start (Bagh-Chal's tigers start on board).
                    let start = self.start();
                    let mut roots = Vec::new();
                    for hh in 0..=start.hunters_in_hand as u32 {
                        for ph in 0..=start.prey_in_hand as u32 {
                            if hh + ph > *n {
                                continue;
                            }
                            for c in 0..=cap {
                                let t = HuntTier {
                                    hunters_in_hand: hh as u8,
                                    prey_in_hand: ph as u8,
                                    captured: c as u8,
                                };
                                if on_board(self, t).is_some() {
                                    roots.push(t);
                                }
                            }
                        }
                    }
                    roots
                }
                Scope::Material { .. } => return Err(Error::Usage(
                    "scope 'material' is for tafl; hunt games take whole, movement, max-prey=N or max-in-hand=N"
                        .into(),
                )),
            };
        Ok(tier_closure(self, &roots))
    }

    /// `Index::build`: per hunter count h, a lookup entry (12 bytes) and up to one
    /// symmetry byte for each of the C(n, h) hunter sets, plus a mask (8 bytes) and
    /// a stabiliser list (24 bytes and its symmetries) per class, bounded by C(n, h).
    fn index_bytes(&self) -> Option<u64> {
        let n = self.board().len() as u64;
        let syms = self.board().symmetries.len() as u64;
        let per_set = 12 + syms + 8 + 24 + syms;
        (0..=self.rules().hunters as u64).try_fold(0u64, |acc, h| {
            acc.checked_add(binomial(n, h).checked_mul(per_set)?)
        })
    }

    /// Measured on this machine (2 cores, x86-64, one thread): movement tiers
    /// of the seed boards about 6.4 M slots per CPU second (`solve
    /// cows-leopards-mogol --max-prey 6`: 760 M slots, 125 CPU-s; 5 M taken).
    /// A tier with pieces in hand costs per slot about a + b·d, where d is the
    /// mean number of drops a position has (the empty points, for the side or
    /// sides with pieces in hand: each drop's child is ranked in another tier),
    /// and twice b for a hunter's drop (a new hunter set is canonicalised
    /// again): a = 0.023 µs, b = 0.066 µs, fitted to the whole Bagh-Chal game
    /// (34.9 G slots in about 4 CPU-hours, about 6 drops a position) and
    /// `cows-leopards-mogol,prey=5`'s h0p1c0 (0.96 M slots/s, 15.5 drops); it
    /// predicts that game's h1p0c0 at 0.49 M (measured 0.54 M) and h1p1c0 at
    /// 0.32 M (0.45 M). The flat 2.4 M used before made the whole
    /// `cows-leopards-mogol,prey=7` look like 20 CPU-minutes; its placement
    /// tiers ran at 0.3-1 M slots/s.
    fn core_rate(&self, tier: HuntTier) -> f64 {
        let Some((h, p)) = on_board(self, tier).filter(|_| self.tier_has_moveless_slots(tier))
        else {
            return 5e6;
        };
        let empty = self.board().len().saturating_sub(h + p) as f64;
        // Each side is to move in half the slots.
        let drops = |in_hand: u8, weight: f64| {
            if in_hand > 0 {
                weight * empty / 2.0
            } else {
                0.0
            }
        };
        let weighted = drops(tier.hunters_in_hand, 2.0) + drops(tier.prey_in_hand, 1.0);
        let micros = 0.023 + 0.066 * weighted;
        (1e6 / micros).min(5e6)
    }

    fn tier_placements(&self, t: HuntTier) -> u64 {
        match on_board(self, t) {
            Some((h, p)) => {
                let n = self.board().len() as u64;
                binomial(n, h as u64)
                    .saturating_mul(binomial(n - h as u64, p as u64))
                    .saturating_mul(2)
            }
            None => 0,
        }
    }
}
