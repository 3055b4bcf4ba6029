//! Which tiers a solve covers: the whole game, the movement phase, or a slice.

use crate::error::{quote, Error, Result};
use crate::tier::TierGame;
use std::collections::BTreeSet;

/// The part of a game a solve covers. Every scope is closed under
/// [`TierGame::tier_children`], so all tiers it needs are inside it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Scope {
    /// Every tier reachable from the start position's tier.
    Whole,
    /// Hunt games: the tiers with no piece left in hand.
    Movement,
    /// Hunt games: movement tiers with at most this many prey on board.
    MaxPrey(u32),
    /// Hunt games: the end of the placement phase, the tiers with at most this many
    /// pieces in hand (hunters and prey together), and the movement phase.
    MaxInHand(u32),
    /// Tafl: the king and at most this many attackers and defenders on board.
    Material {
        /// Most attackers on board.
        attackers: u32,
        /// Most defenders on board.
        defenders: u32,
    },
}

impl Scope {
    /// Parses `whole`, `movement`, `max-prey=N`, `max-in-hand=N`, `material=A,D` (manifest form).
    pub fn parse(text: &str) -> Result<Scope> {
        let t = text.trim();
        let num = |s: &str| {
            s.trim().parse::<u32>().map_err(|_| {
                Error::Usage(format!(
                    "scope {}: {} is not a non-negative integer",
                    quote(t),
                    quote(s)
                ))
            })
        };
        if t == "whole" || t.is_empty() {
            Ok(Scope::Whole)
        } else if t == "movement" {
            Ok(Scope::Movement)
        } else if let Some(n) = t.strip_prefix("max-prey=") {
            Ok(Scope::MaxPrey(num(n)?))
        } else if let Some(n) = t.strip_prefix("max-in-hand=") {
            Ok(Scope::MaxInHand(num(n)?))
        } else if let Some(m) = t.strip_prefix("material=") {
            let (a, d) = m.split_once(',').unwrap_or((m, "0"));
            Ok(Scope::Material {
                attackers: num(a)?,
                defenders: num(d)?,
            })
        } else {
            Err(Error::Usage(format!(
                "unknown scope {}; accepted: whole, movement, max-prey=N, max-in-hand=N, material=A,D",
                quote(t)
            )))
        }
    }

    /// The manifest form, parsed back by [`Scope::parse`].
    pub fn name(&self) -> String {
        match self {
            Scope::Whole => "whole".into(),
            Scope::Movement => "movement".into(),
            Scope::MaxPrey(n) => format!("max-prey={n}"),
            Scope::MaxInHand(n) => format!("max-in-hand={n}"),
            Scope::Material {
                attackers,
                defenders,
            } => format!("material={attackers},{defenders}"),
        }
    }
}

/// A [`TierGame`] the driver can solve: which tiers a scope covers, and how
/// many placements (positions before symmetry reduction) a tier holds.
pub trait Solvable: TierGame {
    /// The tiers of `scope`, closed under children (any order).
    fn scope_tiers(&self, scope: &Scope) -> Result<Vec<Self::Tier>>;
    /// Number of placements with side to move in `tier`, without symmetry reduction.
    fn tier_placements(&self, tier: Self::Tier) -> u64;
    /// Bytes of the ranking tables the first [`TierGame::tier_size`] or rank call
    /// builds, counted without building them (so a plan can refuse first); `None`
    /// when the count does not fit a `u64`. Default: nothing worth counting.
    fn index_bytes(&self) -> Option<u64> {
        Some(0)
    }
    /// Slots of `tier` the solver settles per CPU second, as measured on this
    /// family (for the plan's time estimate, never for a decision). Default: 10^6.
    fn core_rate(&self, _tier: Self::Tier) -> f64 {
        1e6
    }
}

/// Every tier reachable from `roots` through [`TierGame::tier_children`], sorted.
pub fn tier_closure<G: TierGame>(game: &G, roots: &[G::Tier]) -> Vec<G::Tier> {
    let mut seen: BTreeSet<G::Tier> = BTreeSet::new();
    let mut stack: Vec<G::Tier> = roots.to_vec();
    while let Some(t) = stack.pop() {
        if seen.insert(t) {
            stack.extend(game.tier_children(t));
        }
    }
    seen.into_iter().collect()
}

pub(crate) use crate::tier::binomial;
