//! Statistical comparison of rule variants: hand-written statistics
//! ([`math`]), agents and a resumable parallel self-play runner
//! ([`agent`], [`tournament`]), metrics with confidence intervals and tests
//! between variants ([`metrics`]), reports ([`report`]) and SVG plots ([`plot`]).

pub mod agent;
pub mod engine;
pub mod explore;
pub(crate) mod files;
pub mod ladder;
pub mod material;
pub mod math;
pub mod mcts;
pub mod metrics;
pub mod perfect;
pub mod played;
pub mod plot;
pub mod rating;
pub mod referee;
pub mod report;
pub mod search_agent;
pub mod speed;
pub mod sweep;
pub mod tournament;

pub use agent::{Agent, GreedyAgent, RandomAgent};
pub use engine::{make_agent, EngineSpec};
pub use tournament::{play_game, run_tournament, EndReason, GameRecord, TournamentConfig};

#[cfg(test)]
mod tests;
