//! Answers that combine solved tables with search: the layer above both.
//!
//! - `position`: the one way to answer a position ([`answer_position`]): the
//!   tables, the prover and search in the order and budgets of a [`Policy`],
//!   for `query`, the explorer's server and every other face; the exact
//!   principal variation along tables ([`exact_pv`]).
//! - `query`: a position answered by search, with the keys of the table
//!   answer.
//! - `crosscheck`: solved tables against search on seeded random positions
//!   (`verify --search`), a check that shares nothing with the retrograde solver
//!   or the verifier but the rules engine.
//! - `exact`: `query --exact`, the prover's value and the distance search
//!   bounded by the proof.
//! - `openings`: `openings --prove`, the ranked opening lines proven by the
//!   prover (tables as leaves) and re-ranked by proven value.
//!
//! Neither [`crate::table`] nor [`crate::search`] imports this module: tables
//! know nothing of search, and search sees tables only through the
//! [`crate::game::Oracle`] trait.

pub(crate) mod crosscheck;
pub(crate) mod exact;
pub(crate) mod openings;
pub(crate) mod position;
pub(crate) mod query;

pub use openings::{prove_openings, ProveOpeningsConfig, ProvenOpening, ProvenSource};

pub use crosscheck::{crosscheck_dir, CrossReport, CrossSample};
pub use position::{
    answer_position, answer_position_with, exact_pv, Answered, Policy, ProverUse, Source,
    TABLE_DRAW_PV,
};
pub use query::{answer, SearchAnswer};
