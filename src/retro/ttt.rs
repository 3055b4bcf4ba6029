//! Tic-tac-toe as a [`Solvable`]: the solver's first test bed (its tier index
//! is beside the game, in `crate::toy::tiers`).

use super::scope::{binomial, tier_closure, Scope, Solvable};
use crate::error::{Error, Result};
use crate::game::Game;
use crate::tier::TierGame;
use crate::toy::TicTacToe;

impl Solvable for TicTacToe {
    fn scope_tiers(&self, scope: &Scope) -> Result<Vec<u8>> {
        match scope {
            Scope::Whole => Ok(tier_closure(self, &[self.tier_of(&self.start())])),
            other => Err(Error::Usage(format!(
                "scope '{}' does not apply to tic-tac-toe; use whole",
                other.name()
            ))),
        }
    }
    fn tier_placements(&self, tier: u8) -> u64 {
        let nx = (tier as u64).div_ceil(2);
        let no = tier as u64 / 2;
        binomial(9, nx) * binomial(9 - nx, no)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_unrank_round_trip() {
        let g = TicTacToe::default();
        let mut classes = 0;
        for t in 0..=9u8 {
            for i in 0..g.tier_size(t) {
                if let Some(p) = g.unrank(t, i) {
                    classes += 1;
                    assert_eq!(g.rank(t, &p), i);
                    assert_eq!(g.tier_of(&p), t);
                }
            }
        }
        // 6046 placements with legal counts, 850 classes under the square's symmetries.
        let placements: u64 = (0..=9).map(|t| g.tier_placements(t)).sum();
        assert_eq!(placements, 6046);
        assert_eq!(classes, 850);
    }
}
