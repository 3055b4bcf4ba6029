//! The rungs' measured strength: Bradley-Terry fits from the self-play cells and the cross-play, and what they say of the verdicts.

use super::report::possessive;
use super::verdict::{interval_sign, list};
use super::{AsymmetricRow, LadderCell, LadderReport, PairVerdict};
use crate::error::Result;
use crate::stats::math;
use crate::stats::rating::{fit_bradley_terry, Match, RatingFit};

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
pub(crate) fn add_ratings(r: &mut LadderReport) -> Result<()> {
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
        if !fit.converged {
            r.warnings.push(format!(
                "The rungs' ratings on {name} did not converge: Newton's method was still moving after {} iterations, so those ratings and their intervals are not a fitted result.",
                fit.iterations
            ));
        }
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
