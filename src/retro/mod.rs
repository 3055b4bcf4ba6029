//! Retrograde analysis: tiers, indexing, the solver.

pub mod tier;

pub use tier::TierGame;
