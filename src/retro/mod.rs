//! Retrograde analysis: tiers, indexing, the solver, the solve driver.
//!
//! - [`crate::tier`] (below this module): the [`TierGame`] interface and the record encoding.
//! - [`solver`]: [`solve_tier`], backward induction inside one tier; its
//!   [`solver::checkpoint`]: a tier's solver state on disk at a level boundary, to resume
//!   inside the tier (and the checkpoint machinery both solvers share).
//! - [`reference`](mod@reference): the previous solver, the baseline of `bench --retro` and a cross-check.
//! - [`tafl_tiers`]: tafl as a [`TierGame`] (tiers by material, king-cell index).
//! - [`scope`]: which tiers a solve covers ([`Scope`], [`Solvable`]).
//! - [`compact`]: the one-byte-a-slot solver for tiers whose solver words do not fit in memory.
//! - [`split`]: one tier solved in parts (MPI ranks, or threads in tests) exchanging predecessor updates.
//! - [`compact::checkpoint`]: the same for the compact solver (one zstd stream of its bytes).
//! - [`driver`]: [`solve`], the tier DAG in order, resume, memory check, summary.
//! - [`schedule`]: which tier goes to which worker next in an MPI solve (`cluster`), without MPI.
//! - [`bench`](mod@bench): chosen tiers solved in memory by both solvers, timed.
//! - [`manifest`]: batches of solves described in TOML.

pub mod bench;
pub mod cache;
pub mod compact;
pub mod driver;
pub mod hunt_tiers;
pub mod lock;
pub mod manifest;
pub mod reference;
pub mod schedule;
pub mod scope;
pub mod solver;
pub mod split;
pub mod tafl_tiers;

mod ttt;

pub use crate::tier::TierGame;
pub use driver::{solve, SolveOptions, Summary, TierSummary};
pub use scope::{Scope, Solvable};
pub use solver::{
    solve_tier, Absorb, CheckpointReport, Checkpointing, ChildRecords, ChildValues, ListReport,
    SparseRecords, TierResult, TierStats,
};
#[cfg(test)]
use solver::{solve_tier_checkpointed, solve_tier_with};

#[cfg(test)]
mod tests_solver;

#[cfg(test)]
mod tests_checkpoint;
