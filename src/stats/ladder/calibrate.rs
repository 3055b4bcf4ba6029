//! The ladder against exact values: every rung's verdicts and scores checked against the exact values of the random openings.
//!
//! The truth is the exact value over the openings the games drew
//! ([`OpeningValue::truth0`]): every rung plays the same sampled openings, so
//! scoring against the value over all openings would count the openings'
//! sampling as the players' error. The all-openings value is kept beside it.

use super::verdict::{difference, interval_sign};
use super::LadderCell;
use crate::stats::math;
use crate::stats::perfect::OpeningValue;

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
    /// Mean over the variants of |side 0's score − its exact value| (over
    /// the sampled openings where known).
    pub mean_abs_error: f64,
    /// The same against the value over all openings.
    #[serde(default)]
    pub mean_abs_error_all: f64,
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
    /// Exact side-0 score of `a`'s openings minus `b`'s (the sampled
    /// openings where known: the difference the verdicts are checked against).
    pub exact_difference: f64,
    /// The same over all openings.
    #[serde(default)]
    pub all_openings_difference: f64,
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
pub(crate) fn calibrate(
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
                    let want = exact_sign(exact[i].truth0() - exact[j].truth0());
                    let start = exact_sign(exact[i].start_score0 - exact[j].start_score0);
                    r.pairs += 1;
                    r.agree += u64::from(got == want);
                    r.agree_start += u64::from(got == start);
                    r.wrong += u64::from(got != 0 && want != 0 && got != want);
                    r.missed += u64::from(got == 0 && want != 0);
                    r.false_difference += u64::from(got != 0 && want == 0);
                }
            }
            let mut errs_all = Vec::new();
            let errs: Vec<f64> = (0..nv)
                .filter_map(|i| cells[i].get(k).map(|c| (c, &exact[i])))
                .map(|(c, x)| {
                    let t = x.truth0();
                    r.covered += u64::from(c.score0.lo - 1e-12 <= t && t <= c.score0.hi + 1e-12);
                    errs_all.push((c.score0.estimate - x.score0).abs());
                    (c.score0.estimate - t).abs()
                })
                .collect();
            r.mean_abs_error = math::mean(&errs);
            r.mean_abs_error_all = math::mean(&errs_all);
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
                exact_difference: exact[i].truth0() - exact[j].truth0(),
                all_openings_difference: exact[i].score0 - exact[j].score0,
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
