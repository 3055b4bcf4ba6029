//! The statistics checked on known inputs (moved from tests/it/stats_strength.rs):
//! Material outcomes (capture histograms, Mann-Whitney), the
//! rungs' measured strength (Bradley-Terry), the perfect engine, the exact
//! value of the random openings, the calibration, and the guards against
//! overclaiming verdicts.

use crate::stats::ladder::{cell_of, LadderCell};
use crate::stats::metrics::variant_metrics;
use crate::stats::tournament::{EndReason, GameRecord};

mod strength;
mod strength_ladder;

fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("huntsolve-strength-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn record(winner: Option<u8>, captures: [u32; 2], plies: u32, random_plies: u32) -> GameRecord {
    GameRecord {
        rules: "x".into(),
        fingerprint: 1,
        engine: "e".into(),
        random_plies,
        opening: "uniform".into(),
        referee: None,
        max_plies: 100,
        index: 0,
        seed: 0,
        first: 0,
        winner,
        end: EndReason::Terminal,
        plies,
        captures,
        millis: 1,
        played_at: None,
        moves: Vec::new(),
        legal_counts: Vec::new(),
    }
}

/// A cell from (winner, hunter captures) games.
fn cell(name: &str, engine: &str, games: &[(Option<u8>, u32)]) -> LadderCell {
    let recs: Vec<GameRecord> = games
        .iter()
        .map(|&(w, c)| record(w, [c, 0], 20, 4))
        .collect();
    cell_of(&variant_metrics(name, ["hunter", "prey"], &recs, 1), engine)
}
