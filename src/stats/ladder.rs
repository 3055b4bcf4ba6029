//! The strength ladder: every variant played at several engine strengths
//! (both sides equal at each rung), to tell how much of a difference between
//! variants belongs to the rules and how much to the players.
//!
//! For each variant and strength: outcome shares with 95 % Wilson intervals and
//! side 0's score (win 1, draw ½) with a 95 % normal interval. Across
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

mod report;
use crate::error::{Error, Result};
use crate::random::Rng;
use crate::stats::material::{self, CaptureComparison};
use crate::stats::math::{self, Interval, Z95};
use crate::stats::metrics::VariantMetrics;
use crate::stats::perfect::OpeningValue;
use crate::stats::plot::plot_err;
use crate::stats::rating::{fit_bradley_terry, Match, RatingFit};
use crate::stats::report::CompareReport;
use plotters::prelude::*;
use report::{agreement_sentence, possessive};
pub use report::{ladder_csv, ladder_markdown, write_ladder};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Bootstrap resamples of the rank agreement.
pub(crate) const TAU_RESAMPLES: usize = 1000;

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
    /// Side 0's mean score, win 1 and draw ½ (normal interval).
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
}

impl LadderCell {
    /// Whether the engines played no part in this cell: every game ended
    /// before an engine moved.
    pub fn unplayed(&self) -> bool {
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
    /// Side 0's score in `a` minus in `b`, per strength (95 % normal interval).
    pub differences: Vec<Interval>,
    /// Captures of each side in `a` against `b`, per strength (`[side 0, side 1]`).
    #[serde(default)]
    pub captures: Vec<Vec<CaptureComparison>>,
    /// Plain sentence (results, and captures where the results cannot tell).
    pub sentence: String,
    /// Plain sentence on the captures alone.
    #[serde(default)]
    pub captures_sentence: String,
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

/// The measured strength of the rungs on one variant.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct VariantRating {
    /// Variant.
    pub variant: String,
    /// The Bradley-Terry fit, engines in the ladder's order.
    pub fit: RatingFit,
    /// Engines from the weakest to the strongest by rating.
    pub order: Vec<String>,
}

/// One rung against the exact values of a family of variants.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct RungCalibration {
    /// Engine.
    pub engine: String,
    /// Pairs of variants whose verdict is checked.
    pub pairs: u64,
    /// Verdicts that agree with the exact comparison of the openings' values
    /// (the same direction, or no clear difference where the values are equal).
    pub agree: u64,
    /// Verdicts in the wrong direction.
    pub wrong: u64,
    /// No clear difference where the exact values differ.
    pub missed: u64,
    /// A difference claimed where the exact values are equal.
    pub false_difference: u64,
    /// Verdicts that agree with the comparison of the start values (perfect
    /// play from the start, no random opening).
    pub agree_start: u64,
    /// Mean over the variants of |side 0's score − its exact value|.
    pub mean_abs_error: f64,
    /// Largest such error.
    pub max_abs_error: f64,
    /// Variants whose exact score lies inside the cell's 95 % interval.
    pub covered: u64,
}

/// A ladder checked against exact values.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Calibration {
    /// Exact value of each variant's random opening (variant order).
    pub exact: Vec<OpeningValue>,
    /// One row per rung.
    pub rungs: Vec<RungCalibration>,
    /// One row per pair of variants.
    #[serde(default)]
    pub pairs: Vec<PairCheck>,
}

/// One pair of variants against its exact comparison.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct PairCheck {
    /// First variant.
    pub a: String,
    /// Second variant.
    pub b: String,
    /// Exact side-0 score of `a`'s openings minus `b`'s.
    pub exact_difference: f64,
    /// Side-0 score at the start under optimal play, `a` minus `b`.
    pub start_difference: f64,
    /// The ladder's verdict per rung: +1, −1 or 0 (no clear difference).
    pub signs: Vec<i32>,
}

/// Sign of an exact difference (0 within rounding).
fn exact_sign(d: f64) -> i32 {
    if d > 1e-9 {
        1
    } else if d < -1e-9 {
        -1
    } else {
        0
    }
}

/// Checks every rung's verdicts and scores against the exact values
/// (`exact[v]` for variant `v`; see [`RungCalibration`]).
pub fn calibrate(
    cells: &[Vec<LadderCell>],
    engines: &[String],
    exact: &[OpeningValue],
) -> Calibration {
    let nv = cells.len().min(exact.len());
    let rungs = engines
        .iter()
        .enumerate()
        .map(|(k, e)| {
            let mut r = RungCalibration {
                engine: e.clone(),
                ..Default::default()
            };
            for i in 0..nv {
                for j in i + 1..nv {
                    let (Some(a), Some(b)) = (cells[i].get(k), cells[j].get(k)) else {
                        continue;
                    };
                    let got = interval_sign(&difference(a, b));
                    let want = exact_sign(exact[i].score0 - exact[j].score0);
                    let start = exact_sign(exact[i].start_score0 - exact[j].start_score0);
                    r.pairs += 1;
                    r.agree += u64::from(got == want);
                    r.agree_start += u64::from(got == start);
                    r.wrong += u64::from(got != 0 && want != 0 && got != want);
                    r.missed += u64::from(got == 0 && want != 0);
                    r.false_difference += u64::from(got != 0 && want == 0);
                }
            }
            let errs: Vec<f64> = (0..nv)
                .filter_map(|i| cells[i].get(k).map(|c| (c, &exact[i])))
                .map(|(c, x)| {
                    r.covered += u64::from(
                        c.score0.lo - 1e-12 <= x.score0 && x.score0 <= c.score0.hi + 1e-12,
                    );
                    (c.score0.estimate - x.score0).abs()
                })
                .collect();
            r.mean_abs_error = math::mean(&errs);
            r.max_abs_error = errs.iter().copied().fold(0.0, f64::max);
            r
        })
        .collect();
    let mut pairs = Vec::new();
    for i in 0..nv {
        for j in i + 1..nv {
            pairs.push(PairCheck {
                a: cells[i]
                    .first()
                    .map_or_else(String::new, |c| c.variant.clone()),
                b: cells[j]
                    .first()
                    .map_or_else(String::new, |c| c.variant.clone()),
                exact_difference: exact[i].score0 - exact[j].score0,
                start_difference: exact[i].start_score0 - exact[j].start_score0,
                signs: cells[i]
                    .iter()
                    .zip(&cells[j])
                    .map(|(a, b)| interval_sign(&difference(a, b)))
                    .collect(),
            });
        }
    }
    Calibration {
        exact: exact[..nv].to_vec(),
        rungs,
        pairs,
    }
}

/// The matches of variant `v` for the rating: its self-play cells (which
/// inform the side-0 advantage) and its cross-play rows.
pub(crate) fn rating_matches(
    v: usize,
    variant: &str,
    cells: &[Vec<LadderCell>],
    engines: &[String],
    cross: &[AsymmetricRow],
) -> Vec<Match> {
    let mut out: Vec<Match> = cells[v]
        .iter()
        .enumerate()
        .map(|(k, c)| Match::from_counts(k, k, c.wins[0], c.wins[1], c.draws))
        .collect();
    for row in cross.iter().filter(|r| r.variant == variant) {
        let at = |e: &str| engines.iter().position(|x| x == e);
        if let (Some(i), Some(j)) = (at(&row.engine0), at(&row.engine1)) {
            let c = &row.cell;
            out.push(Match::from_counts(i, j, c.wins[0], c.wins[1], c.draws));
        }
    }
    out
}

/// Virtual draws between adjacent rungs in the rating fit (keeps it finite
/// when a rung won every cross-play game).
pub(crate) const RATING_PRIOR_DRAWS: f64 = 1.0;

/// Fits the ratings of every variant from the self-play cells and the
/// cross-play rows (`r.asymmetric` and `r.cross_play`) and sets the measured
/// order, the warnings on rungs not measurably stronger than the one below,
/// and each verdict's sentence on the two strongest rungs (which says so
/// when those two are not measurably different). Without cross-play it
/// changes nothing.
pub fn add_ratings(r: &mut LadderReport) -> Result<()> {
    let mut cross = r.asymmetric.clone();
    cross.extend(r.cross_play.iter().cloned());
    if cross.is_empty() {
        return Ok(());
    }
    let e = r.engines.len();
    let mut ratings = Vec::new();
    for (v, name) in r.variants.iter().enumerate() {
        let matches = rating_matches(v, name, &r.cells, &r.engines, &cross);
        let fit = match fit_bradley_terry(&matches, e, RATING_PRIOR_DRAWS) {
            Ok(f) => f,
            Err(err) => {
                r.warnings.push(format!(
                    "The rungs' ratings on {name} could not be fitted: {err}."
                ));
                continue;
            }
        };
        for k in 1..e {
            let d = fit.difference(k - 1, k);
            let (lo, hi) = (&r.engines[k - 1], &r.engines[k]);
            if d.hi < 0.0 {
                r.warnings.push(format!(
                    "On {name}, {hi} is weaker than {lo}, the rung given below it ({:+.0} Elo [{:+.0}, {:+.0}]).",
                    d.estimate, d.lo, d.hi
                ));
            } else if d.lo <= 0.0 {
                r.warnings.push(format!(
                    "On {name}, {hi} is not measurably stronger than {lo}, the rung given below it ({:+.0} Elo [{:+.0}, {:+.0}]).",
                    d.estimate, d.lo, d.hi
                ));
            }
        }
        let order = fit
            .order()
            .into_iter()
            .map(|k| r.engines[k].clone())
            .collect();
        ratings.push(VariantRating {
            variant: name.clone(),
            fit,
            order,
        });
    }
    if ratings.is_empty() {
        return Ok(());
    }
    let pooled: Vec<f64> = (0..e)
        .map(|k| {
            math::mean(
                &ratings
                    .iter()
                    .map(|x| x.fit.ratings[k].estimate)
                    .collect::<Vec<_>>(),
            )
        })
        .collect();
    let mut idx: Vec<usize> = (0..e).collect();
    idx.sort_by(|&a, &b| pooled[a].total_cmp(&pooled[b]));
    r.measured_order = idx.iter().map(|&k| r.engines[k].clone()).collect();
    if e >= 2 {
        let top = [idx[e - 2], idx[e - 1]];
        for v in &mut r.verdicts {
            v.strongest = strongest_sentence(v, &r.engines, top, &r.side_names);
            // The two strongest rungs by mean rating may not differ measurably
            // on the pair's variants: then "holds at both" is one strength
            // seen twice, not a trend with strength.
            let close: Vec<&str> = ratings
                .iter()
                .filter(|x| x.variant == v.a || x.variant == v.b)
                .filter(|x| x.fit.difference(top[0], top[1]).lo <= 0.0)
                .map(|x| x.variant.as_str())
                .collect();
            if !close.is_empty() {
                v.strongest.push_str(&format!(
                    " But {} is not measurably stronger than {} on {}: the two strongest rungs may be one strength, so this does not show that the verdict holds as strength grows; a measurably stronger rung is needed for that.",
                    r.engines[top[1]],
                    r.engines[top[0]],
                    list(&close)
                ));
            }
        }
    }
    r.ratings = ratings;
    Ok(())
}

/// Whether a verdict holds across the two strongest rungs `top`.
fn strongest_sentence(
    v: &PairVerdict,
    engines: &[String],
    top: [usize; 2],
    sides: &[String; 2],
) -> String {
    let names = format!("{} and {}", engines[top[0]], engines[top[1]]);
    let score: Vec<i32> = top
        .iter()
        .map(|&k| interval_sign(&v.differences[k]))
        .collect();
    let caps: Vec<i32> = top
        .iter()
        .map(|&k| {
            v.captures
                .get(k)
                .and_then(|c| c.first())
                .map_or(0, |c| c.sign())
        })
        .collect();
    let side0 = &sides[0];
    let who = |s: i32| if s > 0 { &v.a } else { &v.b };
    if score[0] != 0 && score[0] == score[1] {
        format!(
            "Across the two strongest rungs by measured rating ({names}) the verdict holds: {} gives the {side0} a higher score at both.",
            who(score[0])
        )
    } else if score[0] != 0 && score[1] != 0 {
        format!(
            "Across the two strongest rungs by measured rating ({names}) the verdict does not hold: the difference reverses between them; a stronger rung is needed."
        )
    } else if score.iter().all(|&s| s == 0) && caps[0] != 0 && caps[0] == caps[1] {
        format!(
            "Across the two strongest rungs by measured rating ({names}) the scores do not differ, but the {side0} {} more in {} at both.",
            if side0.ends_with('s') { "capture" } else { "captures" },
            who(caps[0])
        )
    } else {
        format!(
            "Across the two strongest rungs by measured rating ({names}) the verdict is not settled (no clear difference at one or both, in score and in the {} captures); more games or a stronger rung are needed.",
            possessive(side0)
        )
    }
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
    /// Wall time of this run, seconds.
    pub wall_seconds: f64,
}

fn score_interval(wins0: u64, draws: u64, n: u64) -> Interval {
    if n == 0 {
        return Interval {
            estimate: 0.0,
            lo: 0.0,
            hi: 0.0,
        };
    }
    let nf = n as f64;
    let mean = (wins0 as f64 + 0.5 * draws as f64) / nf;
    let second = (wins0 as f64 + 0.25 * draws as f64) / nf;
    let var = (second - mean * mean).max(0.0) / nf;
    let half = Z95 * var.sqrt();
    Interval {
        estimate: mean,
        lo: (mean - half).max(0.0),
        hi: (mean + half).min(1.0),
    }
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
        score0: score_interval(m.wins[0], draws, m.games),
        length_mean: m.length_mean,
        captures_mean: [
            material::mean_interval(&m.capture_counts[0]),
            material::mean_interval(&m.capture_counts[1]),
        ],
        capture_counts: m.capture_counts.clone(),
        no_engine_move: m.no_engine_move,
    }
}

/// Kendall's τ-b of two score vectors (0 when either has no untied pair).
pub fn kendall_tau_b(x: &[f64], y: &[f64]) -> f64 {
    let (mut conc, mut disc, mut tx, mut ty) = (0f64, 0f64, 0f64, 0f64);
    for i in 0..x.len() {
        for j in i + 1..x.len() {
            let dx = (x[i] - x[j]).partial_cmp(&0.0).map_or(0, |o| o as i32);
            let dy = (y[i] - y[j]).partial_cmp(&0.0).map_or(0, |o| o as i32);
            match (dx, dy) {
                (0, 0) => {}
                (0, _) => tx += 1.0,
                (_, 0) => ty += 1.0,
                _ if dx == dy => conc += 1.0,
                _ => disc += 1.0,
            }
        }
    }
    let d = ((conc + disc + tx) * (conc + disc + ty)).sqrt();
    if d == 0.0 {
        0.0
    } else {
        (conc - disc) / d
    }
}

/// Per strength: whether the variants cannot be ordered there, because every
/// variant has the same side-0 score or no engine moved in any game.
pub(crate) fn tied_strengths(cells: &[Vec<LadderCell>], engines: usize) -> Vec<bool> {
    (0..engines)
        .map(|k| {
            let col: Vec<&LadderCell> = cells.iter().filter_map(|row| row.get(k)).collect();
            let first = col.first().map_or(0.0, |c| c.score0.estimate);
            col.iter()
                .all(|c| (c.score0.estimate - first).abs() < 1e-12)
                || col.iter().all(|c| c.unplayed())
        })
        .collect()
}

/// Side 0's score of a resample of a cell (multinomial over its outcomes).
fn resample_score(c: &LadderCell, rng: &mut Rng) -> f64 {
    if c.games == 0 {
        return 0.0;
    }
    let n = c.games as usize;
    let mut total = 0.0;
    for _ in 0..n {
        let k = rng.below(n) as u64;
        total += if k < c.wins[0] {
            1.0
        } else if k < c.wins[0] + c.wins[1] {
            0.0
        } else {
            0.5
        };
    }
    total / n as f64
}

fn percentile(mut v: Vec<f64>, estimate: f64) -> Interval {
    v.sort_by(f64::total_cmp);
    Interval {
        estimate,
        lo: math::quantile_sorted(&v, 0.025),
        hi: math::quantile_sorted(&v, 0.975),
    }
}

/// Rank agreement of every pair of strengths and the mean, with bootstrap
/// intervals (`cells[variant][engine]`).
pub(crate) fn rank_agreement(
    cells: &[Vec<LadderCell>],
    engines: &[String],
    seed: u64,
) -> (Vec<RankAgreement>, Option<Interval>) {
    let e = engines.len();
    if cells.len() < 2 || e < 2 {
        return (Vec::new(), None);
    }
    let scores = |s: &dyn Fn(&LadderCell) -> f64| -> Vec<Vec<f64>> {
        (0..e)
            .map(|k| cells.iter().map(|row| s(&row[k])).collect())
            .collect()
    };
    let point = scores(&|c| c.score0.estimate);
    // A strength at which every variant has the same score orders nothing:
    // its τ would be 0 by convention, which reads as "the ordering changed".
    let tied = tied_strengths(cells, e);
    let pairs: Vec<(usize, usize)> = (0..e)
        .flat_map(|a| (a + 1..e).map(move |b| (a, b)))
        .filter(|&(a, b)| !tied[a] && !tied[b])
        .collect();
    if pairs.is_empty() {
        return (Vec::new(), None);
    }
    let taus = |sc: &[Vec<f64>]| -> Vec<f64> {
        pairs
            .iter()
            .map(|&(a, b)| kendall_tau_b(&sc[a], &sc[b]))
            .collect()
    };
    let est = taus(&point);
    let mut rng = Rng::new(seed ^ 0x7a75);
    let mut boot: Vec<Vec<f64>> = vec![Vec::new(); pairs.len()];
    let mut boot_mean = Vec::new();
    for _ in 0..TAU_RESAMPLES {
        let sc: Vec<Vec<f64>> = (0..e)
            .map(|k| {
                cells
                    .iter()
                    .map(|row| resample_score(&row[k], &mut rng))
                    .collect()
            })
            .collect();
        let t = taus(&sc);
        boot_mean.push(math::mean(&t));
        for (i, x) in t.into_iter().enumerate() {
            boot[i].push(x);
        }
    }
    let agreement = pairs
        .iter()
        .zip(boot)
        .zip(&est)
        .map(|((&(a, b), v), &t)| RankAgreement {
            a: engines[a].clone(),
            b: engines[b].clone(),
            tau: percentile(v, t),
        })
        .collect();
    (agreement, Some(percentile(boot_mean, math::mean(&est))))
}

/// Side 0's score of `a` minus `b` with a 95 % normal interval.
fn difference(a: &LadderCell, b: &LadderCell) -> Interval {
    let var = |c: &LadderCell| {
        if c.games == 0 {
            return 0.0;
        }
        let n = c.games as f64;
        let m = c.score0.estimate;
        let second = (c.wins[0] as f64 + 0.25 * c.draws as f64) / n;
        (second - m * m).max(0.0) / n
    };
    let d = a.score0.estimate - b.score0.estimate;
    let half = Z95 * (var(a) + var(b)).sqrt();
    Interval {
        estimate: d,
        lo: d - half,
        hi: d + half,
    }
}

fn list(names: &[&str]) -> String {
    match names.len() {
        0 => String::new(),
        1 => names[0].to_string(),
        _ => format!(
            "{} and {}",
            names[..names.len() - 1].join(", "),
            names[names.len() - 1]
        ),
    }
}

/// Signs of intervals: +1 above 0, −1 below, 0 when it holds 0.
fn interval_sign(d: &Interval) -> i32 {
    if d.lo > 0.0 {
        1
    } else if d.hi < 0.0 {
        -1
    } else {
        0
    }
}

/// The strengths (by name) at which `signs` equals `s`.
fn engines_with<'a>(cells: &'a [LadderCell], signs: &[i32], s: i32) -> Vec<&'a str> {
    cells
        .iter()
        .zip(signs)
        .filter(|(_, &g)| g == s)
        .map(|(c, _)| c.engine.as_str())
        .collect()
}

/// The sentence on one side's captures in `a` against `b` across strengths.
fn captures_direction(a: &str, b: &str, side: &str, cells: &[LadderCell], signs: &[i32]) -> String {
    // "the hunter captures", "the attackers capture".
    let verb = if side.ends_with('s') {
        "capture"
    } else {
        "captures"
    };
    let (up, down, none) = (
        engines_with(cells, signs, 1),
        engines_with(cells, signs, -1),
        engines_with(cells, signs, 0),
    );
    let n = signs.len();
    if up.len() == n {
        format!(
            "the {side} {verb} more in {a} than in {b} at every strength tried ({})",
            list(&up)
        )
    } else if down.len() == n {
        format!(
            "the {side} {verb} more in {b} than in {a} at every strength tried ({})",
            list(&down)
        )
    } else if !up.is_empty() && !down.is_empty() {
        format!(
            "the difference in the {} captures reverses: more in {a} at {}, in {b} at {}{}",
            possessive(side),
            list(&up),
            list(&down),
            if none.is_empty() {
                String::new()
            } else {
                format!(" (no clear difference at {})", list(&none))
            }
        )
    } else if !up.is_empty() {
        format!(
            "the {side} {verb} more in {a} than in {b} at {}; no clear difference at {}",
            list(&up),
            list(&none)
        )
    } else if !down.is_empty() {
        format!(
            "the {side} {verb} more in {b} than in {a} at {}; no clear difference at {}",
            list(&down),
            list(&none)
        )
    } else {
        format!(
            "no clear difference in the {} captures at any strength tried",
            possessive(side)
        )
    }
}

fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Whether two cells hold the same results: outcomes and captures.
fn same_results(x: &LadderCell, y: &LadderCell) -> bool {
    let trim = |v: &[u64]| {
        let end = v.iter().rposition(|&c| c > 0).map_or(0, |i| i + 1);
        v[..end].to_vec()
    };
    x.games == y.games
        && x.wins == y.wins
        && x.draws == y.draws
        && (0..2).all(|s| trim(&x.capture_counts[s]) == trim(&y.capture_counts[s]))
}

/// The verdict on two variants (`ra`, `rb`: their cells across strengths;
/// `sides`: the side names). The results decide it where they can; where
/// every game of both variants is drawn, the captures speak instead. The
/// sentence says so when the two variants gave identical results, when no
/// engine moved (every game decided by the tables after the opening), and
/// at the strengths where the tables ended most of the games.
pub fn pair_verdict(
    a: &str,
    b: &str,
    ra: &[LadderCell],
    rb: &[LadderCell],
    sides: &[String; 2],
) -> PairVerdict {
    let side0 = sides[0].as_str();
    let diffs: Vec<Interval> = ra.iter().zip(rb).map(|(x, y)| difference(x, y)).collect();
    let signs: Vec<i32> = diffs.iter().map(interval_sign).collect();
    let (up, down, none) = (
        engines_with(ra, &signs, 1),
        engines_with(ra, &signs, -1),
        engines_with(ra, &signs, 0),
    );
    let n = diffs.len();
    let results = if up.len() == n {
        format!(
            "{a} gives the {side0} a higher score than {b} at every strength tried ({}).",
            list(&up)
        )
    } else if down.len() == n {
        format!(
            "{b} gives the {side0} a higher score than {a} at every strength tried ({}).",
            list(&down)
        )
    } else if !up.is_empty() && !down.is_empty() {
        format!(
            "The difference reverses: {a} gives the {side0} more at {}, {b} at {}{}.",
            list(&up),
            list(&down),
            if none.is_empty() {
                String::new()
            } else {
                format!(" (no clear difference at {})", list(&none))
            }
        )
    } else if !up.is_empty() {
        format!(
            "{a} gives the {side0} a higher score than {b} at {}; no clear difference at {}.",
            list(&up),
            list(&none)
        )
    } else if !down.is_empty() {
        format!(
            "{b} gives the {side0} a higher score than {a} at {}; no clear difference at {}.",
            list(&down),
            list(&none)
        )
    } else {
        format!(
            "No clear difference between {a} and {b} in the {} score at any strength tried.",
            possessive(side0)
        )
    };
    let captures: Vec<Vec<CaptureComparison>> = ra
        .iter()
        .zip(rb)
        .map(|(x, y)| {
            (0..2)
                .map(|s| CaptureComparison::new(s, &x.capture_counts[s], &y.capture_counts[s]))
                .collect()
        })
        .collect();
    let captured = |s: usize| {
        ra.iter()
            .chain(rb)
            .any(|c| c.capture_counts[s].iter().skip(1).any(|&k| k > 0))
    };
    let parts: Vec<String> = (0..2)
        .filter(|&s| captured(s))
        .map(|s| {
            let signs: Vec<i32> = captures.iter().map(|c| c[s].sign()).collect();
            captures_direction(a, b, &sides[s], ra, &signs)
        })
        .collect();
    let captures_text = if parts.is_empty() {
        format!("no piece was captured in any game of {a} or {b}")
    } else {
        parts.join("; ")
    };
    let captures_sentence = format!("{}.", upper_first(&captures_text));
    let all_drawn = ra.iter().chain(rb).all(|c| c.wins == [0, 0]);
    let unplayed: Vec<&str> = ra
        .iter()
        .zip(rb)
        .filter(|(x, y)| x.unplayed() && y.unplayed())
        .map(|(x, _)| x.engine.as_str())
        .collect();
    let mut sentence = if ra.len() == rb.len() && ra.iter().zip(rb).all(|(x, y)| same_results(x, y))
    {
        format!(
            "{a} and {b} gave identical results (outcomes and captures) at every strength tried: these games do not tell them apart."
        )
    } else if all_drawn {
        format!(
            "Every game of {a} and {b} was drawn at every strength tried, so the results cannot tell them apart; by captures, {captures_text}."
        )
    } else {
        results
    };
    if !unplayed.is_empty() {
        sentence.push_str(&format!(
            " (At {} every game was decided by the exact tables before any engine moved: that strength says nothing about play.)",
            list(&unplayed)
        ));
    }
    let mostly = |c: &LadderCell| c.games > 0 && c.adjudicated * 2 > c.games;
    let adjudicated: Vec<&str> = ra
        .iter()
        .zip(rb)
        .filter(|(x, y)| !(x.unplayed() && y.unplayed()) && (mostly(x) || mostly(y)))
        .map(|(x, _)| x.engine.as_str())
        .collect();
    if !adjudicated.is_empty() {
        sentence.push_str(&format!(
            " (At {} most games of {a} or {b} were ended by the exact tables: the results there are mostly the tables' values of the positions the engines reached, not the outcome of their play.)",
            list(&adjudicated)
        ));
    }
    PairVerdict {
        a: a.to_string(),
        b: b.to_string(),
        differences: diffs,
        captures,
        sentence,
        captures_sentence,
        strongest: String::new(),
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
        .ok_or_else(|| Error::Input("a ladder needs at least one engine".into()))?;
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
        wall_seconds,
    })
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
#[allow(clippy::too_many_arguments)]
pub fn run_ladder(
    specs: &[String],
    engines: &[crate::stats::engine::EngineSpec],
    base: &crate::stats::tournament::TournamentConfig,
    tables: &[crate::stats::referee::TableDir],
    opts: &LadderOptions,
    out_dir: &Path,
    command: &str,
    build: &str,
    progress: &dyn crate::progress::Progress,
) -> Result<LadderReport> {
    use crate::stats::report::{run_compare_opts, safe_name, write_compare};
    if engines.len() < 2 {
        return Err(Error::Input(
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
    let play_pairs =
        |pairs: Vec<(usize, usize)>, games: u64, prefix: &str| -> Result<Vec<AsymmetricRow>> {
            let mut rows = Vec::new();
            for (i, j) in pairs {
                let (e0, e1) = (&engines[i], &engines[j]);
                let cfg = crate::stats::tournament::TournamentConfig {
                    engine: e0.clone(),
                    engine_side1: Some(e1.clone()),
                    games,
                    ..base.clone()
                };
                let dir = out_dir.join(safe_name(&format!(
                    "{prefix}-{}-vs-{}",
                    e0.text(),
                    e1.text()
                )));
                let mut r =
                    run_compare_opts(specs, &cfg, tables, referee, &dir, command, progress)?;
                r.build = build.to_string();
                write_compare(&dir, &r)?;
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
        };
    let n = engines.len();
    let asym = if opts.asymmetric {
        let pairs = (1..n).flat_map(|k| [(k, k - 1), (k - 1, k)]).collect();
        play_pairs(pairs, base.games, "asym")?
    } else {
        Vec::new()
    };
    let cross = if opts.rate_games > 0 {
        let pairs = (0..n)
            .flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
            .collect();
        play_pairs(pairs, opts.rate_games, "rate")?
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
    r.tables_only = opts.no_referee;
    add_ratings(&mut r)?;
    if !tables.is_empty() {
        let mut exact = Vec::new();
        for spec in specs {
            let any = crate::variant::AnyGame::parse(spec)?;
            let v = crate::with_game!(&any, g => {
                match crate::stats::referee::oracle_for(g, tables)? {
                    Some(o) => crate::stats::perfect::opening_value(g, o.as_ref(), base.random_plies, OPENING_POSITIONS)?,
                    None => None,
                }
            });
            match v {
                Some(v) => exact.push(v),
                None => break,
            }
        }
        if exact.len() == specs.len() {
            r.calibration = Some(calibrate(&r.cells, &r.engines, &exact));
        }
    }
    r.wall_seconds = started.elapsed().as_secs_f64();
    r.build = build.to_string();
    Ok(r)
}

/// Most distinct positions after the random opening for its exact value.
pub(crate) const OPENING_POSITIONS: usize = 5_000_000;
