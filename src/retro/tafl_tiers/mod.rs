//! Tafl games as a [`Solvable`]: scopes and placements for the driver. The
//! tier index itself ([`TaflTier`], ranking, un-moves) lives beside the rules,
//! in `crate::tafl::tiers`.

pub(crate) use crate::tafl::tiers::*;

use crate::error::{Error, Result};
use crate::game::Game;
use crate::retro::scope::{binomial, tier_closure, Scope, Solvable};
use crate::tafl::TaflGame;
use crate::tier::TierGame;

impl Solvable for TaflGame {
    fn scope_tiers(&self, scope: &Scope) -> Result<Vec<TaflTier>> {
        let root = match scope {
            Scope::Whole => self.tier_of(&self.start()),
            Scope::Material {
                attackers,
                defenders,
            } => {
                let room = men_cells(self).count_ones() - 1;
                if attackers + defenders > room
                    || *attackers as usize > MAX_MEN
                    || *defenders as usize > MAX_MEN
                {
                    return Err(Error::Usage(format!(
                        "material {attackers},{defenders}: more men than the {room} cells free for them"
                    )));
                }
                TaflTier::material(*attackers as u8, *defenders as u8)
            }
            Scope::Movement | Scope::MaxPrey(_) | Scope::MaxInHand(_) => {
                return Err(Error::Usage(format!(
                    "scope '{}' is for hunt games; tafl takes whole or material=A,D",
                    scope.name()
                )))
            }
        };
        // Every smaller material too (a scope `material=A,D` means "up to").
        let mut roots = vec![root];
        if !root.king_captured {
            for a in 0..=root.attackers {
                for d in 0..=root.defenders {
                    roots.push(TaflTier::material(a, d));
                }
            }
        }
        Ok(tier_closure(self, &roots))
    }

    fn tier_placements(&self, t: TaflTier) -> u64 {
        if t.king_captured {
            return 2;
        }
        let (a, d) = (t.attackers as u64, t.defenders as u64);
        let men = men_cells(self);
        (0..self.geometry().cells)
            .map(|k| {
                let f = (men & !(1u128 << k)).count_ones() as u64;
                if a + d > f {
                    0
                } else {
                    binomial(f, a) * binomial(f - a, d)
                }
            })
            .sum::<u64>()
            * 2
    }

    /// Measured: Caikabōraḍa material 4,1 (2.81 G slots) in 2,889 CPU seconds,
    /// 0.97 M slots per CPU second, with the fast paths of `preds.rs` (build
    /// 64cf824, 2 threads, results/caikaboroda.md; 0.40 M before them, 0.2 M
    /// on material 4,0 with the first tafl solver). Rounded down: the rate
    /// varies with the material and the load.
    fn core_rate(&self, _tier: TaflTier) -> f64 {
        8e5
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;
    use crate::retro::tests_solver::assert_slot_pred_edges;

    /// Tafl's `slot_pred_ranks` (men's un-moves ranked from the child's ranks)
    /// equals ranking every un-move whole: `unrank_orbit`, then `unmoves` and
    /// `rank_orbit` of each; `slot_pred_edges` gives the same pairs for every
    /// child only the identity fixes, and nothing for the others. Every preset
    /// and a few options that change the board's free cells or the moves, on
    /// tiers with men of both sides (so men pass each other in the order).
    #[test]
    fn slot_pred_ranks_equal_ranking_every_unmove() {
        let mut specs: Vec<String> = crate::tafl::PRESETS
            .iter()
            .map(|p| p.0.to_string())
            .collect();
        specs.push("caikaboroda,corner_access=all".into());
        specs.push("brandubh,throne_pass_men=no,corner_access=all".into());
        for spec in specs {
            let g = crate::tafl::from_spec(&spec).unwrap();
            let mut rng = crate::random::Rng::new(5);
            let (mut buf, mut got, mut want) = (Vec::new(), Vec::new(), Vec::new());
            let (mut checked, mut symmetric) = (0, 0);
            for t in [
                TaflTier::material(1, 0),
                TaflTier::material(2, 1),
                TaflTier::material(3, 3),
                TaflTier::material(6, 2),
            ] {
                let size = g.tier_size(t);
                for _ in 0..1_500 {
                    let i = rng.below(size as usize) as u64;
                    let stab = g.slot_pred_ranks(t, i, &mut buf, &mut got);
                    let Some(rep) = g.unrank(t, i) else {
                        assert_eq!(stab, None, "{spec} {i}");
                        continue;
                    };
                    let (_, stab_c) = g.rank_orbit(t, &rep);
                    assert_eq!(stab, Some(stab_c), "{spec} {i}");
                    g.unmoves(&rep, &mut buf);
                    want.clear();
                    want.extend(buf.iter().map(|p| g.rank_orbit(t, p)));
                    got.sort_unstable();
                    want.sort_unstable();
                    assert_eq!(got, want, "{spec} {}", g.format_position(&rep));
                    checked += got.len();
                    symmetric += usize::from(stab_c != Some(1));
                    assert_slot_pred_edges(&g, t, i, (&rep, stab_c), &want);
                }
            }
            assert!(
                checked > 10_000 && symmetric > 10,
                "{spec}: {checked}, {symmetric}"
            );
        }
    }
}
