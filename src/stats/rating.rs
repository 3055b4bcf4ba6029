//! Measured strength of the ladder's rungs: a Bradley-Terry fit of
//! cross-play games between engines, with a side-0 advantage.
//!
//! A game between engine `i` playing side 0 and engine `j` playing side 1
//! gives side 0 the score `s` (win 1, draw ½, loss 0), modelled as
//! `E[s] = σ(r_i − r_j + h)` with `σ` the logistic function, `r` the
//! engines' ratings (the first engine's fixed at 0) and `h` the advantage of
//! side 0 in this variant (hunt games are not symmetric, so a rating without
//! it would mix the engine with the side it played). The fit maximises the
//! Bernoulli quasi-likelihood `Σ s ln p + (1 − s) ln(1 − p)` by Newton's
//! method; the intervals come from the inverse of the information matrix,
//! scaled by the observed dispersion when the scores vary more than the model
//! says: Pearson's χ² over the matches divided by its degrees of freedom
//! (matches minus fitted parameters), never below 1, so a game full of draws does not
//! claim more precision than its wins and losses give. A fit whose Newton
//! steps have not settled within [`MAX_NEWTON`] iterations says so
//! ([`RatingFit::converged`]) rather than passing for a result. Ratings are reported in Elo
//! points (`400 / ln 10` per logistic unit).
//!
//! A prior of `prior_draws` virtual draws between each pair of adjacent
//! engines (half with each colour) keeps the fit finite when one engine won
//! every game; 0 gives the plain maximum-likelihood fit.

use crate::error::{Error, Result};
use crate::stats::math::{Interval, Z95};

/// Newton iterations before a fit is reported as not converged.
pub(crate) const MAX_NEWTON: usize = 200;

/// Elo points per logistic unit.
pub(crate) const ELO_PER_UNIT: f64 = 400.0 / std::f64::consts::LN_10;

/// Games between two engines with fixed sides, summed.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Match {
    /// Engine playing side 0.
    pub side0: usize,
    /// Engine playing side 1.
    pub side1: usize,
    /// Number of games.
    pub games: f64,
    /// Side 0's total score (wins + ½ draws).
    pub score0: f64,
    /// Sum of the squared per-game scores (wins + ¼ draws), for the dispersion.
    pub score0_sq: f64,
}

impl Match {
    /// From counts of side-0 wins, side-1 wins and draws.
    pub(crate) fn from_counts(
        side0: usize,
        side1: usize,
        wins0: u64,
        wins1: u64,
        draws: u64,
    ) -> Self {
        Match {
            side0,
            side1,
            games: (wins0 + wins1 + draws) as f64,
            score0: wins0 as f64 + 0.5 * draws as f64,
            score0_sq: wins0 as f64 + 0.25 * draws as f64,
        }
    }
}

/// A fitted rating table.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct RatingFit {
    /// Rating of each engine in Elo points, the first fixed at 0 (95 % interval).
    pub ratings: Vec<Interval>,
    /// Covariance of the ratings (Elo²; the first row and column are 0).
    pub covariance: Vec<Vec<f64>>,
    /// Side 0's advantage in Elo points (95 % interval).
    pub side0_advantage: Interval,
    /// Dispersion factor applied to the covariance (at least 1): Pearson's χ²
    /// over the matches divided by `dispersion_df`.
    pub dispersion: f64,
    /// Degrees of freedom of the dispersion: matches (pairs of engines with
    /// sides) minus fitted parameters (0 when there are no more matches than
    /// parameters, and then the dispersion is 1, unestimated).
    #[serde(default)]
    pub dispersion_df: f64,
    /// Whether Newton's method settled (a step below 1e-10) within its
    /// iterations ([`MAX_NEWTON`]); a fit that did not is reported as such.
    #[serde(default = "yes")]
    pub converged: bool,
    /// Games fitted (without the prior's).
    pub games: f64,
    /// Newton iterations used.
    pub iterations: usize,
}

fn yes() -> bool {
    true
}

impl RatingFit {
    /// Rating of `b` minus rating of `a` in Elo with a 95 % interval.
    pub(crate) fn difference(&self, a: usize, b: usize) -> Interval {
        let d = self.ratings[b].estimate - self.ratings[a].estimate;
        let c = &self.covariance;
        let var = (c[a][a] + c[b][b] - 2.0 * c[a][b]).max(0.0);
        let half = Z95 * var.sqrt();
        Interval {
            estimate: d,
            lo: d - half,
            hi: d + half,
        }
    }

    /// Engines from the lowest rating to the highest (ties keep their order).
    pub(crate) fn order(&self) -> Vec<usize> {
        let mut idx: Vec<usize> = (0..self.ratings.len()).collect();
        idx.sort_by(|&a, &b| {
            self.ratings[a]
                .estimate
                .total_cmp(&self.ratings[b].estimate)
        });
        idx
    }
}

fn sigmoid(x: f64) -> f64 {
    statrs::function::logistic::logistic(x)
}

/// Inverse of a small symmetric positive definite matrix by Gauss-Jordan
/// elimination with partial pivoting; `None` when it is singular. Written here:
/// statrs's matrices need nalgebra (a feature left off), for a dozen rows at most.
pub(crate) fn invert(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut a: Vec<Vec<f64>> = m
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut r = row.clone();
            r.extend((0..n).map(|j| if i == j { 1.0 } else { 0.0 }));
            r
        })
        .collect();
    let scale = m
        .iter()
        .flatten()
        .fold(0.0f64, |acc, x| acc.max(x.abs()))
        .max(1e-300);
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() <= 1e-12 * scale {
            return None;
        }
        a.swap(col, pivot);
        let p = a[col][col];
        for v in a[col].iter_mut() {
            *v /= p;
        }
        let pivot_row = a[col].clone();
        for (row, r) in a.iter_mut().enumerate() {
            let f = r[col];
            if row != col && f != 0.0 {
                for (x, p) in r.iter_mut().zip(&pivot_row) {
                    *x -= f * p;
                }
            }
        }
    }
    Some(a.into_iter().map(|r| r[n..].to_vec()).collect())
}

/// Fits the ratings of `engines` engines from `matches` (see the module docs).
pub(crate) fn fit_bradley_terry(
    matches: &[Match],
    engines: usize,
    prior_draws: f64,
) -> Result<RatingFit> {
    fit_within(matches, engines, prior_draws, MAX_NEWTON)
}

/// [`fit_bradley_terry`] with at most `max_newton` Newton iterations.
pub(crate) fn fit_within(
    matches: &[Match],
    engines: usize,
    prior_draws: f64,
    max_newton: usize,
) -> Result<RatingFit> {
    if engines < 2 {
        return Err(Error::Usage("a rating needs at least two engines".into()));
    }
    if let Some(m) = matches
        .iter()
        .find(|m| m.side0 >= engines || m.side1 >= engines || m.games.is_nan() || m.games < 0.0)
    {
        return Err(Error::Internal(format!(
            "rating: a match names engine {} or {} of {engines}, or has {} games",
            m.side0, m.side1, m.games
        )));
    }
    let all = with_prior(matches, engines, prior_draws);
    // Parameters: r_1..r_{E-1}, then h.
    let model = Model {
        all: &all,
        dim: engines,
        h_at: engines - 1,
    };
    let h_at = model.h_at;
    let (theta, iterations, converged) = model.newton(max_newton)?;
    if theta.iter().any(|x| !x.is_finite() || x.abs() > 50.0) {
        return Err(Error::input_data(
            "rating: the fit does not converge (an engine won or lost every game; give a prior)",
        ));
    }
    let (_, h) = model.information(&theta);
    let inv = invert(&h).ok_or_else(|| Error::input_data("rating: singular information"))?;
    let (dispersion, dispersion_df) = pearson_dispersion(&model, &theta, matches);
    let k2 = ELO_PER_UNIT * ELO_PER_UNIT * dispersion;
    let mut covariance = vec![vec![0.0; engines]; engines];
    for a in 1..engines {
        for b in 1..engines {
            covariance[a][b] = k2 * inv[a - 1][b - 1];
        }
    }
    let ratings = (0..engines)
        .map(|e| {
            let est = if e == 0 {
                0.0
            } else {
                ELO_PER_UNIT * theta[e - 1]
            };
            let half = Z95 * covariance[e][e].max(0.0).sqrt();
            Interval {
                estimate: est,
                lo: est - half,
                hi: est + half,
            }
        })
        .collect();
    let h_est = ELO_PER_UNIT * theta[h_at];
    let h_half = Z95 * (k2 * inv[h_at][h_at]).max(0.0).sqrt();
    Ok(RatingFit {
        ratings,
        covariance,
        side0_advantage: Interval {
            estimate: h_est,
            lo: h_est - h_half,
            hi: h_est + h_half,
        },
        dispersion,
        dispersion_df,
        converged,
        games: matches.iter().map(|m| m.games).sum(),
        iterations,
    })
}

/// Pearson's dispersion over the real matches (not the prior's), the
/// quasi-likelihood estimate for grouped scores: Σ (S − n p)² / (n p (1 − p))
/// over the matches (S a match's score over its n games), divided by the
/// matches minus the fitted parameters; at least 1, and 1 with 0 degrees of
/// freedom when the matches do not outnumber the parameters (a saturated
/// fit has nothing left to estimate it from).
fn pearson_dispersion(model: &Model<'_>, theta: &[f64], matches: &[Match]) -> (f64, f64) {
    let mut chi2 = 0.0;
    let mut groups = 0.0;
    for m in matches.iter().filter(|m| m.games > 0.0) {
        let p = sigmoid(model.eta(theta, m));
        let var = m.games * p * (1.0 - p);
        if var > 0.0 {
            chi2 += (m.score0 - m.games * p).powi(2) / var;
        }
        groups += 1.0;
    }
    let df = groups - model.dim as f64;
    if df <= 0.0 {
        return (1.0, 0.0);
    }
    ((chi2 / df).max(1.0), df)
}

/// The matches with games, and `prior_draws` virtual draws between adjacent
/// engines (half with each on side 0).
fn with_prior(matches: &[Match], engines: usize, prior_draws: f64) -> Vec<Match> {
    let mut all: Vec<Match> = matches.iter().copied().filter(|m| m.games > 0.0).collect();
    if prior_draws > 0.0 {
        for k in 0..engines - 1 {
            for (i, j) in [(k, k + 1), (k + 1, k)] {
                let g = prior_draws / 2.0;
                all.push(Match {
                    side0: i,
                    side1: j,
                    games: g,
                    score0: g / 2.0,
                    score0_sq: g / 4.0,
                });
            }
        }
    }
    all
}

/// The logistic model of the fit: `dim` parameters, the ratings of engines
/// 1.. (engine 0 is 0) and then side 0's advantage (at `h_at`).
struct Model<'a> {
    all: &'a [Match],
    dim: usize,
    h_at: usize,
}

impl Model<'_> {
    /// A match's features: (parameter, coefficient).
    fn features(&self, m: &Match) -> Vec<(usize, f64)> {
        let mut x = vec![(self.h_at, 1.0)];
        if m.side0 != m.side1 {
            if m.side0 > 0 {
                x.push((m.side0 - 1, 1.0));
            }
            if m.side1 > 0 {
                x.push((m.side1 - 1, -1.0));
            }
        }
        x
    }

    fn eta(&self, theta: &[f64], m: &Match) -> f64 {
        self.features(m).iter().map(|&(k, v)| theta[k] * v).sum()
    }

    fn loglik(&self, theta: &[f64]) -> f64 {
        self.all
            .iter()
            .map(|m| {
                let e = self.eta(theta, m);
                // ln σ(e) and ln(1 − σ(e)), stable for large |e|.
                let ln_p = -(1.0 + (-e).exp()).ln();
                let ln_q = -(1.0 + e.exp()).ln();
                m.score0 * ln_p + (m.games - m.score0) * ln_q
            })
            .sum()
    }

    /// The gradient and the information matrix at `theta`.
    fn information(&self, theta: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
        let dim = self.dim;
        let mut g = vec![0.0; dim];
        let mut h = vec![vec![0.0; dim]; dim];
        for m in self.all {
            let p = sigmoid(self.eta(theta, m));
            let x = self.features(m);
            for &(a, va) in &x {
                g[a] += (m.score0 - m.games * p) * va;
                for &(b, vb) in &x {
                    h[a][b] += m.games * p * (1.0 - p) * va * vb;
                }
            }
        }
        (g, h)
    }

    /// Newton's method with step halving from 0: the parameters, the
    /// iterations made and whether the steps settled within `max_newton`.
    fn newton(&self, max_newton: usize) -> Result<(Vec<f64>, usize, bool)> {
        let dim = self.dim;
        let mut theta = vec![0.0; dim];
        let mut iterations = 0;
        let mut current = self.loglik(&theta);
        let mut converged = false;
        for it in 1..=max_newton {
            iterations = it;
            let (g, h) = self.information(&theta);
            let inv = invert(&h).ok_or_else(|| {
                Error::input_data(
                    "rating: the games do not connect every engine (no cross-play between some rungs)",
                )
            })?;
            let step: Vec<f64> = (0..dim)
                .map(|a| (0..dim).map(|b| inv[a][b] * g[b]).sum())
                .collect();
            let mut t = 1.0;
            let mut next: Vec<f64>;
            loop {
                next = theta.iter().zip(&step).map(|(x, s)| x + t * s).collect();
                let l = self.loglik(&next);
                if l >= current - 1e-12 || t < 1e-6 {
                    current = l;
                    break;
                }
                t /= 2.0;
            }
            let moved = step.iter().map(|s| (t * s).abs()).fold(0.0, f64::max);
            theta = next;
            if moved < 1e-10 {
                converged = true;
                break;
            }
        }
        Ok((theta, iterations, converged))
    }
}
