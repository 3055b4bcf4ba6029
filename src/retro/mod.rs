//! Retrograde analysis: the solver methods, the solve driver.
//!
//! - `crate::tier` (below this module): the [`TierGame`] interface and the record encoding;
//!   the tier indexes themselves live beside their games (`crate::hunt::tiers`,
//!   `crate::tafl::tiers`).
//! - `hunt_tiers`, `tafl_tiers`: those games as a [`Solvable`] (scopes and plans for the
//!   driver) and the indexes' tests against the solvers.
//! - `kernel`: what every method shares (a slot's scan result from its exits, the orbit
//!   formula, the final-records pass), with the table of which method uses what.
//! - `solver`: [`solve_tier`], the full solver (4 bytes a slot), backward induction inside
//!   one tier; its `solver::checkpoint`: a tier's solver state on disk at a level boundary,
//!   to resume inside the tier (and the checkpoint machinery the solvers share).
//! - `reference`: the previous solver, the baseline of `bench --retro` and a cross-check.
//! - `scope`: which tiers a solve covers ([`Scope`], [`Solvable`]).
//! - `compact`: the one-or-two-bytes-a-slot solver for tiers whose solver words do not fit
//!   in memory; `compact::ooc`: the same out of core, in parts on disk; `compact::checkpoint`:
//!   its checkpoints (one zstd stream of its bytes).
//! - `split`: one tier solved in parts (MPI ranks, or threads in tests) exchanging predecessor updates.
//! - `driver`: [`solve`], the tier DAG in order, resume, memory check, summary.
//! - `schedule`: which tier goes to which worker next in an MPI solve (`cluster`), without MPI.
//! - `bench`: chosen tiers solved in memory by both solvers, timed.
//! - `manifest`: batches of solves described in TOML.

pub(crate) mod bench;
pub(crate) mod compact;
pub(crate) mod driver;
pub(crate) mod hunt_tiers;
mod kernel;
pub(crate) use crate::table::lock;
pub(crate) mod manifest;
pub(crate) mod reference;
pub(crate) mod schedule;
pub(crate) mod scope;
pub(crate) mod solver;
pub(crate) mod split;
pub(crate) mod tafl_tiers;

mod ttt;

pub use crate::tier::TierGame;
pub use driver::{solve, Plan, SolveOptions, StartValue, Summary, TierSummary};
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

pub use crate::tafl::tiers::TaflTier;
pub use bench::{bench_tiers, BenchReport, Solver};
pub use driver::{
    check_index, default_memory_limit, format_bytes, kept_tier, load_records, make_summary,
    parse_size, plan, solve_tier_alone, summary_path, Compact, MadeBy, SolveReport, TierMethod,
};
pub use manifest::{plan_any, results_markdown, JobResult, Manifest, DEFAULT_MANIFEST};
pub use scope::tier_closure;
pub use split::{
    part_memory, run_parts, solve_part, solve_split, PartResult, SplitEvent, SplitOptions,
    SplitSolveOptions, Threads, Transport, UNFINISHED_MARK,
};
