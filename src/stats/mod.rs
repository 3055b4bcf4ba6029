//! Statistical comparison of rule variants: hand-written statistics
//! (`math`), agents and a resumable parallel self-play runner
//! (`agent`, `tournament`), metrics with confidence intervals and tests
//! between variants (`metrics`), reports (`report`) and SVG plots (`plot`).

pub(crate) mod agent;
pub(crate) mod engine;
pub(crate) mod explore;
pub(crate) mod files;
pub(crate) mod known;
pub(crate) mod ladder;
pub(crate) mod ludii_metrics;
pub(crate) mod ludii_report;
pub(crate) mod material;
pub(crate) mod math;
pub(crate) mod mcts;
pub(crate) mod measures;
pub(crate) mod measures_map;
pub(crate) mod metrics;
pub(crate) mod perfect;
pub(crate) mod played;
pub(crate) mod plot;
pub(crate) mod rating;
pub(crate) mod referee;
pub(crate) mod report;
pub(crate) mod search_agent;
pub(crate) mod speed;
pub(crate) mod strength_note;
pub(crate) mod sweep;
pub(crate) mod tournament;

pub use agent::{Agent, GreedyAgent, RandomAgent};
pub use engine::{make_agent, EngineSpec, ENGINE_MAX_DEPTH};
pub use tournament::{play_game, run_tournament, EndReason, GameRecord, TournamentConfig};

#[cfg(test)]
mod tests;

pub use explore::{run_explore, write_explore, ExploreConfig, ExploreReport, GridOption, Method};
pub use known::{claim_line, known_claims, KnownClaim, KNOWN};
pub use ladder::{
    cell_of, kendall_tau_b, pair_verdict, run_ladder, write_ladder, LadderOptions, LadderRun,
};
pub use ladder::{Calibration, PairCheck, RungCalibration, VariantRating};
pub use ludii_metrics::{
    engine_agreement, ludii_metrics, EngineAgreement, LudiiMetrics, SOURCES as LUDII_SOURCES,
};
pub use ludii_report::LudiiRow;
pub use mcts::{search, MctsConfig, MctsSpec};
pub use measures::{
    measures_csv, measures_markdown, perfect_measures, LineEnd, LinePly, PerfectMeasures,
};
pub use measures_map::measures_map;
pub use metrics::variant_metrics;
pub use referee::{referee_text, table_dirs, TableDir};
pub use report::{assemble, run_compare_with, run_variant, safe_name, write_compare};
pub use speed::{bench_rungs, SpeedReport};
pub use sweep::{run_sweep, write_sweep, SweepParam};
pub use tournament::{check_games, load_games, repetition_winner, MAX_GAMES};
