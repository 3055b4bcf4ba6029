//! The strength ladder: every variant played at several engine strengths
//! (both sides equal at each rung), to tell how much of a difference between
//! variants belongs to the rules and how much to the players.
//!
//! For each variant and strength: outcome shares with 95 % Wilson intervals and
//! side 0's score (win 1, draw ½) with a 95 % score interval
//! ([`crate::stats::math::score_interval`], never of zero width). Across
//! strengths:
//! - **rank agreement**: Kendall's τ-b between the orderings of the variants by
//!   side 0's score at two strengths, with a 95 % percentile bootstrap interval
//!   (games resampled within each variant and strength), for every pair of
//!   strengths, and the mean τ over all pairs;
//! - **a verdict per pair of variants**: the difference of side 0's score at
//!   each strength with a 95 % interval, summarised in a sentence ("a gives the
//!   hunter more at every strength tried", "the difference reverses between
//!   depth=2 and mcts=1000", …).
//!
//! Asymmetric pairs (`--asymmetric`) play each pair of adjacent strengths
//! against each other, the stronger engine on either side.
//!
//! Files written by [`write_ladder`]: `ladder.md`, `ladder.csv` (one row per
//! variant and strength), `ladder.json`, `ladder_score.svg` (side 0's score
//! against strength, one line per variant, with intervals) and
//! `ladder_draws.svg` (draw share); each strength's full comparison report is
//! in a subdirectory named after the engine.

mod agreement;
mod calibrate;
mod markdown;
mod rating;
mod report;
mod verdict;

use crate::error::{Error, Result};
use crate::stats::material::{self, CaptureComparison};
use crate::stats::math::{Interval, Z95};
use crate::stats::metrics::VariantMetrics;
use crate::stats::plot::plot_err;
use crate::stats::report::CompareReport;
pub use agreement::kendall_tau_b;
use agreement::{rank_agreement, tied_strengths, TAU_RESAMPLES};
pub(crate) use calibrate::calibrate;
pub use calibrate::{Calibration, PairCheck, RungCalibration};
pub(crate) use markdown::ladder_markdown;
use plotters::prelude::*;
pub(crate) use rating::add_ratings;
pub use rating::VariantRating;
use rating::RATING_PRIOR_DRAWS;
use report::agreement_sentence;
pub use report::write_ladder;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use verdict::list;
pub use verdict::pair_verdict;

/// One variant at one strength.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct LadderCell {
    /// Variant name.
    pub variant: String,
    /// Engine text.
    pub engine: String,
    /// Games.
    pub games: u64,
    /// Wins of side 0 and 1.
    pub wins: [u64; 2],
    /// Draws of any kind.
    pub draws: u64,
    /// Games ended by the exact referee.
    pub adjudicated: u64,
    /// Win shares (Wilson).
    pub win_rate: [Interval; 2],
    /// Draw share (Wilson).
    pub draw_rate: Interval,
    /// Side 0's mean score, win 1 and draw ½ (95 % score interval).
    pub score0: Interval,
    /// Mean length in plies (bootstrap).
    pub length_mean: Interval,
    /// Mean captures per game by each side (95 % normal interval).
    #[serde(default)]
    pub captures_mean: [Interval; 2],
    /// Games by pieces captured, per side (see [`crate::stats::material`]).
    #[serde(default)]
    pub capture_counts: [Vec<u64>; 2],
    /// Games that ended before any engine moved (in the random opening, or
    /// adjudicated by the tables right after it).
    #[serde(default)]
    pub no_engine_move: u64,
    /// Whether each side can capture under the rules (the prey of a hunt game never do).
    #[serde(default = "material::both_capture")]
    pub can_capture: [bool; 2],
}

impl LadderCell {
    /// Whether the engines played no part in this cell: every game ended
    /// before an engine moved.
    pub(crate) fn unplayed(&self) -> bool {
        self.games > 0 && self.no_engine_move == self.games
    }
}

/// Kendall's τ-b between the variant orderings at two strengths.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct RankAgreement {
    /// First strength.
    pub a: String,
    /// Second strength.
    pub b: String,
    /// τ-b with its bootstrap interval.
    pub tau: Interval,
}

/// Differences between two variants across strengths.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct PairVerdict {
    /// First variant.
    pub a: String,
    /// Second variant.
    pub b: String,
    /// Side 0's score in `a` minus in `b`, per strength (95 % Newcombe interval).
    pub differences: Vec<Interval>,
    /// Captures of each side in `a` against `b`, per strength (`[side 0, side 1]`).
    #[serde(default)]
    pub captures: Vec<Vec<CaptureComparison>>,
    /// Plain sentence (results, and captures where the results cannot tell).
    pub sentence: String,
    /// Plain sentence on the captures alone.
    #[serde(default)]
    pub captures_sentence: String,
    /// Whether `sentence` already gives the captures (where every game was
    /// drawn, the captures are all the games can say), so a report prints
    /// `captures_sentence` only when this is false.
    #[serde(default)]
    pub captures_in_sentence: bool,
    /// Whether the verdict holds across the two strongest rungs by measured
    /// rating (empty without cross-play).
    #[serde(default)]
    pub strongest: String,
}

/// Games between two different engines (asymmetric pair).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct AsymmetricRow {
    /// Variant.
    pub variant: String,
    /// Engine of side 0.
    pub engine0: String,
    /// Engine of side 1.
    pub engine1: String,
    /// The cell's results.
    pub cell: LadderCell,
}

/// How a ladder is run beyond its rungs.
#[derive(Clone, Debug, Default)]
pub struct LadderOptions {
    /// Play each pair of adjacent strengths against each other, the stronger
    /// engine on either side.
    pub asymmetric: bool,
    /// Games per variant for every ordered pair of different rungs (0: no
    /// cross-play, no ratings).
    pub rate_games: u64,
    /// The tables do not end games: they serve the `perfect` engine and the
    /// exact values of the openings only.
    pub no_referee: bool,
}

/// A finished ladder.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct LadderReport {
    /// Title.
    pub title: String,
    /// Command that reproduces it.
    pub command: String,
    /// Build (git commit and profile).
    pub build: String,
    /// Engines from weakest to strongest (as given).
    pub engines: Vec<String>,
    /// Variant names.
    pub variants: Vec<String>,
    /// Side names (from the first variant).
    pub side_names: [String; 2],
    /// Games per variant and strength.
    pub games: u64,
    /// Base seed.
    pub seed: u64,
    /// Random opening plies.
    pub random_plies: u32,
    /// Exact referee directories, if any.
    pub tables: Vec<String>,
    /// The tables did not end games (`--no-referee`): they served the
    /// `perfect` engine and the exact values only.
    #[serde(default)]
    pub tables_only: bool,
    /// Cells, `cells[variant][engine]`.
    pub cells: Vec<Vec<LadderCell>>,
    /// Kendall's τ-b for every pair of strengths.
    pub agreement: Vec<RankAgreement>,
    /// Mean τ-b over all pairs of strengths (bootstrap interval).
    pub mean_tau: Option<Interval>,
    /// One verdict per pair of variants.
    pub verdicts: Vec<PairVerdict>,
    /// Sentence on the rank agreement.
    pub summary: String,
    /// Cautions on what the games can support (adjudicated games, identical
    /// results, rungs not measurably stronger than the one below).
    #[serde(default)]
    pub warnings: Vec<String>,
    /// Asymmetric games (empty unless asked for).
    pub asymmetric: Vec<AsymmetricRow>,
    /// Cross-play between every ordered pair of rungs (`--rate`; empty unless asked for).
    #[serde(default)]
    pub cross_play: Vec<AsymmetricRow>,
    /// Measured strength of the rungs on each variant (with cross-play).
    #[serde(default)]
    pub ratings: Vec<VariantRating>,
    /// The rungs from the weakest to the strongest by the mean measured rating
    /// over the variants (empty without cross-play).
    #[serde(default)]
    pub measured_order: Vec<String>,
    /// The ladder against exact values (with tables covering every variant's openings).
    #[serde(default)]
    pub calibration: Option<Calibration>,
    /// Ludii's measures and the agreement with exact values, per variant and
    /// engine (variant-major; empty in a report written before they were kept).
    #[serde(default)]
    pub ludii: Vec<crate::stats::ludii_report::LudiiRow>,
    /// Wall time of this run, seconds (reading stored games and writing the
    /// report, when every game was stored: see `played`).
    pub wall_seconds: f64,
    /// When and how long the games of every tournament of the ladder took to
    /// play (default: a report written before it was kept).
    #[serde(default)]
    pub played: crate::stats::played::Played,
}

/// The cell of a variant's metrics at one strength.
pub fn cell_of(m: &VariantMetrics, engine: &str) -> LadderCell {
    let draws = m.games - m.wins[0] - m.wins[1];
    LadderCell {
        variant: m.name.clone(),
        engine: engine.to_string(),
        games: m.games,
        wins: m.wins,
        draws,
        adjudicated: m.adjudicated,
        win_rate: m.win_rate,
        draw_rate: m.draw_rate,
        score0: crate::stats::math::score_interval(m.wins[0], draws, m.wins[1], Z95),
        length_mean: m.length_mean,
        captures_mean: [
            material::mean_interval(&m.capture_counts[0]),
            material::mean_interval(&m.capture_counts[1]),
        ],
        capture_counts: m.capture_counts.clone(),
        no_engine_move: m.no_engine_move,
        can_capture: m.can_capture,
    }
}

/// Cautions on the cells: strengths at which no engine moved, and cells
/// where the exact tables ended most games.
pub(crate) fn ladder_warnings(
    cells: &[Vec<LadderCell>],
    engines: &[String],
    random_plies: u32,
) -> Vec<String> {
    let mut out = Vec::new();
    for (k, e) in engines.iter().enumerate() {
        let col: Vec<&LadderCell> = cells.iter().filter_map(|row| row.get(k)).collect();
        if !col.is_empty() && col.iter().all(|c| c.unplayed()) {
            out.push(format!(
                "At {e} no engine moved in any game: every game ended within the {random_plies} random opening plies or was decided by the exact tables right after them; its results are those of the openings, not of {e}."
            ));
            continue;
        }
        for c in col {
            if c.games > 0 && c.adjudicated * 2 > c.games {
                out.push(format!(
                    "At {e}, {:.0} % of the games of {} were ended by the exact tables ({} after the opening without an engine move): their results are the tables' values, not the engines'.",
                    100.0 * c.adjudicated as f64 / c.games as f64,
                    c.variant,
                    c.no_engine_move
                ));
            }
        }
    }
    out
}

/// Builds the ladder from one comparison report per engine (same variants, same order).
#[allow(clippy::too_many_arguments)]
pub(crate) fn assemble_ladder(
    title: String,
    command: &str,
    engines: &[String],
    reports: &[CompareReport],
    asymmetric: Vec<AsymmetricRow>,
    tables: Vec<String>,
    wall_seconds: f64,
) -> Result<LadderReport> {
    let first = reports
        .first()
        .ok_or_else(|| Error::Usage("a ladder needs at least one engine".into()))?;
    let variants: Vec<String> = first.variants.iter().map(|v| v.name.clone()).collect();
    let side_names = first
        .variants
        .first()
        .map(|v| v.side_names.clone())
        .unwrap_or_else(|| ["side 0".into(), "side 1".into()]);
    let cells: Vec<Vec<LadderCell>> = (0..variants.len())
        .map(|i| {
            reports
                .iter()
                .zip(engines)
                .map(|(r, e)| cell_of(&r.variants[i], e))
                .collect()
        })
        .collect();
    let (agreement, mean_tau) = rank_agreement(&cells, engines, first.seed);
    let mut verdicts = Vec::new();
    for i in 0..variants.len() {
        for j in i + 1..variants.len() {
            verdicts.push(pair_verdict(
                &variants[i],
                &variants[j],
                &cells[i],
                &cells[j],
                &side_names,
            ));
        }
    }
    let tied = tied_strengths(&cells, engines.len());
    let tied_names: Vec<&str> = engines
        .iter()
        .zip(&tied)
        .filter(|(_, &t)| t)
        .map(|(e, _)| e.as_str())
        .collect();
    let warnings = ladder_warnings(&cells, engines, first.random_plies);
    let summary = if !cells.is_empty() && cells.iter().flatten().all(|c| c.unplayed()) {
        format!(
            "No engine moved in any game: every game ended within the {} random opening plies or was decided by the exact tables right after them, so the strengths played no part and there is no agreement across strengths to measure. The outcomes are the exact values of the random openings, identical across strengths by construction.",
            first.random_plies
        )
    } else {
        agreement_sentence(
            &agreement,
            mean_tau.as_ref(),
            &side_names[0],
            variants.len(),
            &tied_names,
        )
    };
    Ok(LadderReport {
        title,
        command: command.to_string(),
        build: String::new(),
        engines: engines.to_vec(),
        variants,
        side_names,
        games: first.games,
        seed: first.seed,
        random_plies: first.random_plies,
        tables,
        tables_only: false,
        cells,
        agreement,
        mean_tau,
        verdicts,
        summary,
        warnings,
        asymmetric,
        cross_play: Vec::new(),
        ratings: Vec::new(),
        measured_order: Vec::new(),
        calibration: None,
        ludii: (0..first.variants.len())
            .flat_map(|i| {
                reports
                    .iter()
                    .filter_map(move |r| crate::stats::report::ludii_rows(r).get(i).cloned())
            })
            .collect(),
        wall_seconds,
        played: {
            let mut p = crate::stats::played::Played::default();
            for r in reports {
                p.add(&r.played);
            }
            p
        },
    })
}

/// What [`run_ladder`] plays, with what, and where it writes.
#[derive(Clone, Copy, Debug)]
pub struct LadderRun<'a> {
    /// The variants' rules.
    pub specs: &'a [String],
    /// The rungs, weakest first.
    pub engines: &'a [crate::stats::engine::EngineSpec],
    /// Every tournament's settings (the engines are the rungs').
    pub base: &'a crate::stats::tournament::TournamentConfig,
    /// Exact tables: the referee, the `perfect` engine, the calibration.
    pub tables: &'a [crate::stats::referee::TableDir],
    /// Asymmetric pairs, cross-play, referee.
    pub opts: &'a LadderOptions,
    /// Where every tournament and the ladder's files go.
    pub out_dir: &'a Path,
    /// The command that reproduces the run.
    pub command: &'a str,
    /// The build (git commit and profile).
    pub build: &'a str,
}

/// Runs the whole ladder: one comparison per engine (each written with
/// [`crate::stats::report::write_compare`] into `out_dir/<engine>/`), then the
/// asymmetric pairs when asked (adjacent strengths, the stronger on either
/// side, into `out_dir/asym-<engine0>-vs-<engine1>/`), the cross-play of
/// every ordered pair of rungs with `opts.rate_games` (into
/// `out_dir/rate-<engine0>-vs-<engine1>/`) and the ratings fitted from it,
/// and, when the tables cover every variant's random openings, the
/// calibration against their exact values. Resumable: every tournament
/// keeps its games file.
pub fn run_ladder(
    run: &LadderRun,
    progress: &dyn crate::progress::Progress,
) -> Result<LadderReport> {
    let LadderRun {
        specs,
        engines,
        base,
        tables,
        opts,
        out_dir,
        command,
        build,
    } = *run;
    use crate::stats::report::{run_compare_opts, safe_name, write_compare};
    if engines.len() < 2 {
        return Err(Error::Usage(
            "--engines: give at least two engines for a ladder (e.g. random,depth=2,mcts=1000)"
                .into(),
        ));
    }
    if opts.rate_games > 0 {
        crate::stats::tournament::check_games(opts.rate_games)?;
    }
    let referee = !opts.no_referee;
    let started = std::time::Instant::now();
    let names: Vec<String> = engines.iter().map(|e| e.text()).collect();
    let mut reports = Vec::new();
    for e in engines {
        let cfg = crate::stats::tournament::TournamentConfig {
            engine: e.clone(),
            engine_side1: None,
            ..base.clone()
        };
        let dir = out_dir.join(safe_name(&e.text()));
        let mut r = run_compare_opts(specs, &cfg, tables, referee, &dir, command, progress)?;
        r.build = build.to_string();
        r.title = format!("Comparison at {}: {}", e.text(), specs.join(" vs "));
        write_compare(&dir, &r)?;
        reports.push(r);
    }
    let n = engines.len();
    let mut pairs_played = crate::stats::played::Played::default();
    let asym = if opts.asymmetric {
        let pairs = (1..n).flat_map(|k| [(k, k - 1), (k - 1, k)]).collect();
        play_pairs(run, pairs, base.games, "asym", progress, &mut pairs_played)?
    } else {
        Vec::new()
    };
    let cross = if opts.rate_games > 0 {
        let pairs = (0..n)
            .flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
            .collect();
        play_pairs(
            run,
            pairs,
            opts.rate_games,
            "rate",
            progress,
            &mut pairs_played,
        )?
    } else {
        Vec::new()
    };
    let mut r = assemble_ladder(
        format!("Strength ladder: {}", specs.join(" vs ")),
        command,
        &names,
        &reports,
        asym,
        tables.iter().map(|t| t.dir.display().to_string()).collect(),
        started.elapsed().as_secs_f64(),
    )?;
    r.cross_play = cross;
    r.played.add(&pairs_played);
    r.tables_only = opts.no_referee;
    add_ratings(&mut r)?;
    if let Some(exact) = exact_openings(run)? {
        r.calibration = Some(calibrate(&r.cells, &r.engines, &exact));
    }
    r.wall_seconds = started.elapsed().as_secs_f64();
    r.build = build.to_string();
    Ok(r)
}

/// The games of each ordered pair of rungs `(i, j)` (rung `i` on side 0),
/// `games` per variant, each into `out_dir/<prefix>-<engine i>-vs-<engine j>/`.
fn play_pairs(
    run: &LadderRun,
    pairs: Vec<(usize, usize)>,
    games: u64,
    prefix: &str,
    progress: &dyn crate::progress::Progress,
    played: &mut crate::stats::played::Played,
) -> Result<Vec<AsymmetricRow>> {
    use crate::stats::report::{run_compare_opts, safe_name, write_compare};
    let referee = !run.opts.no_referee;
    let mut rows = Vec::new();
    for (i, j) in pairs {
        let (e0, e1) = (&run.engines[i], &run.engines[j]);
        let cfg = crate::stats::tournament::TournamentConfig {
            engine: e0.clone(),
            engine_side1: Some(e1.clone()),
            games,
            ..run.base.clone()
        };
        let dir = run.out_dir.join(safe_name(&format!(
            "{prefix}-{}-vs-{}",
            e0.text(),
            e1.text()
        )));
        let mut r = run_compare_opts(
            run.specs,
            &cfg,
            run.tables,
            referee,
            &dir,
            run.command,
            progress,
        )?;
        r.build = run.build.to_string();
        write_compare(&dir, &r)?;
        played.add(&r.played);
        for v in &r.variants {
            rows.push(AsymmetricRow {
                variant: v.name.clone(),
                engine0: e0.text(),
                engine1: e1.text(),
                cell: cell_of(v, &cfg.engine_text()),
            });
        }
    }
    Ok(rows)
}

/// The exact values of every variant's random openings (over all of them,
/// and over those the games drew), when the tables cover them all (`None`
/// otherwise, or without tables).
fn exact_openings(run: &LadderRun) -> Result<Option<Vec<crate::stats::perfect::OpeningValue>>> {
    let (specs, tables) = (run.specs, run.tables);
    if tables.is_empty() {
        return Ok(None);
    }
    let mut exact = Vec::new();
    for spec in specs {
        let any = crate::variant::AnyGame::parse(spec)?;
        let v = crate::with_game!(&any, g => {
            match crate::stats::referee::oracle_for(g, tables)? {
                Some(o) => {
                    let all = crate::stats::perfect::opening_value(g, o.as_ref(), run.base.random_plies, OPENING_POSITIONS)?;
                    // Softmax openings differ by rung: no one sample to score against.
                    let sampled = match (&all, run.base.softmax) {
                        (Some(_), None) => {
                            let sampling = crate::stats::perfect::Sampling {
                                games: run.base.games,
                                seed: run.base.seed,
                                random_plies: run.base.random_plies,
                                max_plies: run.base.max_plies_for(g),
                            };
                            crate::stats::perfect::sampled_openings(g, o.as_ref(), &sampling)?
                        }
                        _ => None,
                    };
                    all.map(|a| crate::stats::perfect::OpeningValue { sampled, ..a })
                }
                None => None,
            }
        });
        match v {
            Some(v) => exact.push(v),
            None => break,
        }
    }
    Ok((exact.len() == specs.len()).then_some(exact))
}

/// Most distinct positions after the random opening for its exact value.
pub(crate) const OPENING_POSITIONS: usize = 5_000_000;
