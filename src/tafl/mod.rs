//! Tafl family: Caikabōraḍa (seed B), Tablut and Brandubh variants.
//!
//! One rules value ([`TaflRules`], every option of docs/rules.md §2.2) drives one
//! generic engine on `u128` bitboards. Slides are found by scanning precomputed
//! ray masks for the first blocker (`geometry`).
//!
//! # Notation
//! Cells are named `a1`…`i9` (file a = x 0, rank 1 = y 0). A move is a rook
//! slide `from-to` (`e3-h3`); captures are consequences of the move and are not
//! written.
//!
//! # Position text
//! One canonical form that [`Notation::parse_position`](crate::game::Notation::parse_position) reads back: the rows from
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

mod eval;
pub(crate) mod geometry;
mod movegen;
mod notation;
mod position;
pub(crate) mod rules;
mod slides;

use crate::error::Result;
pub use eval::EvalWeights;
use geometry::{Geometry, NONE};
pub use position::{TaflMove, TaflPos};
pub use rules::{
    AllCaptured, CornerAccess, Goal, KingCapture, KingFlank, NoMoves, Repetition, Side, TaflRules,
    ThroneHostile, PRESETS,
};
use std::sync::Arc;

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
    /// The sides' names for output (`TaflRules::side_labels`); not hashed.
    labels: [&'static str; 2],
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
pub(super) fn bit(c: u8) -> u128 {
    1u128 << c
}

impl TaflGame {
    /// Builds the game for a rules value.
    pub(crate) fn new(rules: TaflRules) -> TaflGame {
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
        let labels = rules.side_labels();
        let mut game = TaflGame {
            labels,
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
    pub(crate) fn rules(&self) -> &TaflRules {
        &self.rules
    }

    /// The board geometry (rays, special cells, symmetries, keys).
    pub fn geometry(&self) -> &Geometry {
        &self.geo
    }

    /// Board side (7 or 9).
    #[cfg(test)]
    pub(crate) fn size(&self) -> usize {
        self.geo.n
    }
}

#[cfg(test)]
mod tests_positions;

#[cfg(test)]
mod tests_unmoves;

#[cfg(test)]
mod tests_diff;

#[cfg(test)]
mod tests_rules;
pub(crate) mod tiers;

pub use rules::KEYS;
