//! Statistics for comparing rule variants: confidence intervals, tests of
//! proportions and of contingency tables, effect sizes, and a plain sentence for
//! each result.
//!
//! The distributions and special functions come from statrs (the chi-square tail,
//! and through it the normal one; the hypergeometric probabilities of Fisher's
//! test); what is written here is what statrs does not offer, each saying so: the
//! Wilson interval, the seeded bootstrap, the two-sided sum of Fisher's test, the
//! two-proportion and independence tests, effect sizes and their labels.
//! Everything is checked against textbook values in its unit tests
//! (`math/tests.rs`: Wilson interval for 50/100, Fisher's tea-tasting table,
//! chi-square critical values).

use crate::error::{Error, Result};
use crate::random::Rng;
use statrs::distribution::{ChiSquared, ContinuousCDF, Discrete, Hypergeometric};

/// The two-sided 95 % normal quantile, z₀.₉₇₅.
pub(crate) const Z95: f64 = 1.959_963_984_540_054;

/// A confidence interval `[lo, hi]` around an estimate.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Interval {
    /// Point estimate.
    pub estimate: f64,
    /// Lower bound.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
}

impl Interval {
    /// `[0, 0]` with estimate 0: the interval of no observation.
    pub(crate) const ZERO: Interval = Interval {
        estimate: 0.0,
        lo: 0.0,
        hi: 0.0,
    };

    /// The three CSV values estimate, low, high (6 decimals) of the reports.
    pub(crate) fn values(&self) -> Vec<String> {
        [self.estimate, self.lo, self.hi]
            .iter()
            .map(|x| format!("{x:.6}"))
            .collect()
    }

    /// Whether `x` lies inside the closed interval.
    pub fn contains(&self, x: f64) -> bool {
        self.lo <= x && x <= self.hi
    }
}

/// Wilson score interval for `successes` out of `n` at normal quantile `z`
/// (use [`Z95`] for 95 %). For `n = 0` the interval is `[0, 1]` around 0.
/// Written here: statrs has distributions, not confidence intervals.
///
/// Unlike the Wald interval it stays inside `[0, 1]` and keeps its coverage
/// near 0 and 1, where balance and drawishness often sit.
pub(crate) fn wilson(successes: u64, n: u64, z: f64) -> Interval {
    if n == 0 {
        return Interval {
            estimate: 0.0,
            lo: 0.0,
            hi: 1.0,
        };
    }
    let n_f = n as f64;
    let p = successes as f64 / n_f;
    let z2 = z * z;
    let denom = 1.0 + z2 / n_f;
    let centre = (p + z2 / (2.0 * n_f)) / denom;
    let half = z * (p * (1.0 - p) / n_f + z2 / (4.0 * n_f * n_f)).sqrt() / denom;
    // At 0 and n the exact bounds are 0 and 1; rounding would leave 1e-16 gaps.
    Interval {
        estimate: p,
        lo: if successes == 0 {
            0.0
        } else {
            (centre - half).max(0.0)
        },
        hi: if successes == n {
            1.0
        } else {
            (centre + half).min(1.0)
        },
    }
}

/// Score interval (Wilson-type, 95 % at [`Z95`]) of a mean score over games that
/// end in a win (1), a draw (½) or a loss (0): `wins`, `draws` and `losses`
/// counts. Written here: statrs has no interval for a multinomial mean.
///
/// It is the set of scores μ that a score test does not reject: n·(s − μ)² ≤
/// z²·V(μ), where `s` is the observed score and V(μ) the variance of one
/// game's score under the outcome shares most likely among those whose mean
/// is μ (the constrained maximum likelihood, as Wilson's interval takes the
/// variance μ(1 − μ) at μ, not at the estimate). Without draws it is Wilson's
/// interval of the wins. Unlike a normal interval around the observed
/// variance it never has zero width: 20 drawn games give ½ ± z²/(2(n + z²)) =
/// [0.419, 0.581], the score moving by at most half the decisive share.
/// `n = 0` gives `[0, 1]` around ½.
pub(crate) fn score_interval(wins: u64, draws: u64, losses: u64, z: f64) -> Interval {
    let n = wins + draws + losses;
    if n == 0 {
        return Interval {
            estimate: 0.5,
            lo: 0.0,
            hi: 1.0,
        };
    }
    let nf = n as f64;
    let s = (wins as f64 + 0.5 * draws as f64) / nf;
    // g(μ) = n(s − μ)² − z² V(μ): ≤ 0 at μ = s, > 0 at the far end unless the
    // estimate sits there; bisection finds the crossing on each side.
    let g = |mu: f64| nf * (s - mu) * (s - mu) - z * z * null_variance(wins, draws, losses, mu);
    let crossing = |inside: f64, outside: f64| {
        if g(outside) <= 0.0 {
            return outside;
        }
        let (mut a, mut b) = (inside, outside);
        for _ in 0..100 {
            let m = 0.5 * (a + b);
            if g(m) <= 0.0 {
                a = m;
            } else {
                b = m;
            }
        }
        0.5 * (a + b)
    };
    Interval {
        estimate: s,
        lo: crossing(s, 0.0),
        hi: crossing(s, 1.0),
    }
}

/// The variance of one game's score (1, ½, 0) under the outcome shares
/// (a, b, c) most likely for the counts among those of mean a + b/2 = `mu`.
fn null_variance(wins: u64, draws: u64, losses: u64, mu: f64) -> f64 {
    let (w, d, l) = (wins as f64, draws as f64, losses as f64);
    // With t = a − c = 2μ − 1: a = c + t, b = 1 − t − 2c, c in [max(0, −t), (1 − t)/2];
    // the log-likelihood is concave in c: bisection on its derivative.
    let t = 2.0 * mu - 1.0;
    let (lo, hi) = ((-t).max(0.0), (1.0 - t) / 2.0);
    let slope = |c: f64| {
        let part = |k: f64, x: f64, sign: f64| {
            if k == 0.0 {
                0.0
            } else if x <= 0.0 {
                sign * f64::INFINITY
            } else {
                sign * k / x
            }
        };
        part(w, c + t, 1.0) + part(l, c, 1.0) + part(d, 1.0 - t - 2.0 * c, -2.0)
    };
    let c = if hi <= lo || slope(lo) <= 0.0 {
        lo
    } else if slope(hi) >= 0.0 {
        hi
    } else {
        let (mut a, mut b) = (lo, hi);
        for _ in 0..100 {
            let m = 0.5 * (a + b);
            if slope(m) > 0.0 {
                a = m;
            } else {
                b = m;
            }
        }
        0.5 * (a + b)
    };
    let a = (c + t).max(0.0);
    let b = (1.0 - t - 2.0 * c).max(0.0);
    a * (1.0 - mu).powi(2) + b * (0.5 - mu).powi(2) + c * mu * mu
}

/// The difference `a − b` of two independent estimates with their 95 %
/// intervals, by Newcombe's method (MOVER: the squared distances from each
/// estimate to its own bounds are added). From two Wilson-type intervals it
/// is Newcombe's hybrid score interval, which keeps a width where each sample
/// is one-sided. Written here: not in statrs.
pub(crate) fn difference_interval(a: &Interval, b: &Interval) -> Interval {
    let d = a.estimate - b.estimate;
    let down = ((a.estimate - a.lo).powi(2) + (b.hi - b.estimate).powi(2)).sqrt();
    let up = ((a.hi - a.estimate).powi(2) + (b.estimate - b.lo).powi(2)).sqrt();
    Interval {
        estimate: d,
        lo: d - down,
        hi: d + up,
    }
}

/// Balance, 1 − |win rate of side 0 − win rate of side 1|, with the interval
/// that follows from side 0's score interval (`score0`): the two win rates
/// differ by 2·score − 1, so balance is 1 − |2μ − 1| over the score's interval.
pub(crate) fn balance_from_score(score0: &Interval) -> Interval {
    let b = |mu: f64| 1.0 - (2.0 * mu - 1.0).abs();
    let (lo, hi) = (b(score0.lo).min(b(score0.hi)), {
        if score0.lo <= 0.5 && 0.5 <= score0.hi {
            1.0
        } else {
            b(score0.lo).max(b(score0.hi))
        }
    });
    Interval {
        estimate: b(score0.estimate),
        lo,
        hi,
    }
}

/// The exact one-sided 95 % upper bound on a share never seen in `n`
/// trials: 1 − 0.05^(1/n) (Clopper-Pearson; about 3/n, the rule of three).
/// 1 for `n = 0`.
pub(crate) fn none_seen_upper(n: u64) -> f64 {
    if n == 0 {
        1.0
    } else {
        1.0 - 0.05f64.powf(1.0 / n as f64)
    }
}

/// Percentile bootstrap interval (95 %) of `statistic` over `data`, with
/// `resamples` seeded resamples. Deterministic for a given seed.
///
/// Used for statistics that are not a single proportion (mean game length,
/// balance, first-player score). An empty sample gives `[0, 0]`. Written here:
/// statrs has no resampling, and the draws come from the crate's seeded [`Rng`].
pub(crate) fn bootstrap<T: Clone>(
    data: &[T],
    statistic: impl Fn(&[T]) -> f64,
    resamples: usize,
    seed: u64,
) -> Interval {
    let estimate = if data.is_empty() {
        0.0
    } else {
        statistic(data)
    };
    if data.is_empty() || resamples == 0 {
        return Interval {
            estimate,
            lo: estimate,
            hi: estimate,
        };
    }
    let mut rng = Rng::new(seed);
    let mut sample: Vec<T> = Vec::with_capacity(data.len());
    let mut stats: Vec<f64> = Vec::with_capacity(resamples);
    for _ in 0..resamples {
        sample.clear();
        for _ in 0..data.len() {
            sample.push(data[rng.below(data.len())].clone());
        }
        stats.push(statistic(&sample));
    }
    stats.sort_by(f64::total_cmp);
    Interval {
        estimate,
        lo: quantile_sorted(&stats, 0.025),
        hi: quantile_sorted(&stats, 0.975),
    }
}

/// Quantile of sorted data by linear interpolation between order statistics
/// (type 7, the default of R and NumPy). Written here: statrs's `Data` sorts a
/// copy on every call, and the callers hold sorted data already.
pub(crate) fn quantile_sorted(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let h = (sorted.len() - 1) as f64 * q.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = h.ceil() as usize;
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// Arithmetic mean (0 for an empty slice).
pub(crate) fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        0.0
    } else {
        xs.iter().sum::<f64>() / xs.len() as f64
    }
}

/// Sample standard deviation (n − 1 in the denominator; 0 below two values).
pub(crate) fn sample_sd(xs: &[f64]) -> f64 {
    if xs.len() < 2 {
        return 0.0;
    }
    let m = mean(xs);
    let ss: f64 = xs.iter().map(|x| (x - m) * (x - m)).sum();
    (ss / (xs.len() - 1) as f64).sqrt()
}

/// Standard normal cumulative distribution function Φ(z), from statrs's χ² with one
/// degree of freedom (Z² is χ²₁): statrs 0.19.1's `erfc`, and so its `Normal::cdf`,
/// is accurate to only about 1e-10 (its interval constants carry 10 digits; fixed
/// upstream after that release), its incomplete gamma function to about 1e-15.
pub(crate) fn normal_cdf(z: f64) -> f64 {
    let tail = 0.5 * chi_square_sf(z * z, 1.0);
    if z <= 0.0 {
        tail
    } else {
        1.0 - tail
    }
}

/// Upper tail of the chi-square distribution: `P(X ≥ x)` for `df` degrees of freedom
/// (statrs; NaN for `df ≤ 0`, which no table here has).
pub(crate) fn chi_square_sf(x: f64, df: f64) -> f64 {
    ChiSquared::new(df).map_or(f64::NAN, |d| d.sf(x))
}

/// Result of a test: statistic, p-value and the test's name.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TestResult {
    /// Name of the test (`fisher-exact`, `two-proportion-z`, `chi-square`).
    pub test: String,
    /// The test statistic (z, χ², or for Fisher the observed table's probability).
    pub statistic: f64,
    /// Degrees of freedom (chi-square only; 0 otherwise).
    pub df: u32,
    /// Two-sided p-value.
    pub p_value: f64,
}

/// Two-proportion z-test (pooled standard error), two-sided:
/// `x1` of `n1` against `x2` of `n2`.
///
/// With no variation at all (both rates 0 or both 1) the test has nothing to
/// detect: z = 0 and p = 1. Written here (statrs has no tests, only the normal
/// tail it uses).
pub(crate) fn two_proportion_z(x1: u64, n1: u64, x2: u64, n2: u64) -> Result<TestResult> {
    if n1 == 0 || n2 == 0 || x1 > n1 || x2 > n2 {
        return Err(Error::input_data(format!(
            "two-proportion test needs 0 <= x <= n and n > 0 (got {x1}/{n1}, {x2}/{n2})"
        )));
    }
    let (p1, p2) = (x1 as f64 / n1 as f64, x2 as f64 / n2 as f64);
    let pooled = (x1 + x2) as f64 / (n1 + n2) as f64;
    let se = (pooled * (1.0 - pooled) * (1.0 / n1 as f64 + 1.0 / n2 as f64)).sqrt();
    let z = if se > 0.0 { (p1 - p2) / se } else { 0.0 };
    Ok(TestResult {
        test: "two-proportion-z".into(),
        statistic: z,
        df: 0,
        p_value: (2.0 * normal_cdf(-z.abs())).min(1.0),
    })
}

/// Fisher's exact test, two-sided, on the 2×2 table `[[a, b], [c, d]]`.
///
/// The p-value sums the hypergeometric probabilities of every table with the
/// same margins that is no more likely than the observed one (the convention
/// of R's `fisher.test`), with a small relative tolerance so that ties computed
/// with rounding error count as ties. Written here: statrs gives each table's
/// hypergeometric probability, not the test.
pub(crate) fn fisher_exact(table: [[u64; 2]; 2]) -> TestResult {
    let [[a, b], [c, d]] = table;
    let r1 = a + b;
    let r2 = c + d;
    let c1 = a + c;
    let n = r1 + r2;
    // The top-left cell is the number of first-column counts among the first row's
    // r1: hypergeometric with margins that come from the table (c1, r1 <= n).
    let Ok(cells) = Hypergeometric::new(n, c1, r1) else {
        return TestResult {
            test: "fisher-exact".into(),
            statistic: f64::NAN,
            df: 0,
            p_value: f64::NAN,
        };
    };
    let ln_p = |x: u64| cells.ln_pmf(x);
    let lo = c1.saturating_sub(r2);
    let hi = r1.min(c1);
    let observed = ln_p(a);
    let mut p = 0.0;
    for x in lo..=hi {
        let lp = ln_p(x);
        if lp <= observed + 1e-7 {
            p += lp.exp();
        }
    }
    TestResult {
        test: "fisher-exact".into(),
        statistic: observed.exp(),
        df: 0,
        p_value: p.min(1.0),
    }
}

/// Pearson's chi-square test of independence on an r×c table of counts
/// (rows: variants, columns: outcomes). Rows and columns whose total is zero
/// are dropped first (they carry no information and would divide by zero).
/// Written here: statrs has the chi-square tail ([`chi_square_sf`]), not the test.
///
/// An error when fewer than two rows or columns are left.
pub(crate) fn chi_square_independence(table: &[Vec<u64>]) -> Result<TestResult> {
    let cols = table.first().map_or(0, |r| r.len());
    if table.iter().any(|r| r.len() != cols) {
        return Err(Error::Internal(
            "chi-square table rows differ in length".into(),
        ));
    }
    let keep_cols: Vec<usize> = (0..cols)
        .filter(|&j| table.iter().any(|r| r[j] > 0))
        .collect();
    let rows: Vec<Vec<f64>> = table
        .iter()
        .filter(|r| r.iter().any(|&x| x > 0))
        .map(|r| keep_cols.iter().map(|&j| r[j] as f64).collect())
        .collect();
    if rows.len() < 2 || keep_cols.len() < 2 {
        return Err(Error::input_data(format!(
            "chi-square needs at least 2 non-empty rows and columns (have {} x {})",
            rows.len(),
            keep_cols.len()
        )));
    }
    let row_tot: Vec<f64> = rows.iter().map(|r| r.iter().sum()).collect();
    let col_tot: Vec<f64> = (0..keep_cols.len())
        .map(|j| rows.iter().map(|r| r[j]).sum())
        .collect();
    let n: f64 = row_tot.iter().sum();
    let mut chi2 = 0.0;
    for (i, r) in rows.iter().enumerate() {
        for (j, &obs) in r.iter().enumerate() {
            let exp = row_tot[i] * col_tot[j] / n;
            chi2 += (obs - exp) * (obs - exp) / exp;
        }
    }
    let df = ((rows.len() - 1) * (keep_cols.len() - 1)) as u32;
    Ok(TestResult {
        test: "chi-square".into(),
        statistic: chi2,
        df,
        p_value: chi_square_sf(chi2, df as f64),
    })
}

/// Cramér's V for a chi-square statistic on an r×c table of `n` observations
/// (`r`, `c` after dropping empty rows and columns).
pub(crate) fn cramers_v(chi2: f64, n: u64, rows: usize, cols: usize) -> f64 {
    let k = rows.min(cols);
    if n == 0 || k < 2 {
        return 0.0;
    }
    (chi2 / (n as f64 * (k - 1) as f64)).sqrt()
}

/// Cohen's h, the effect size between two proportions:
/// `2·asin(√p1) − 2·asin(√p2)`. Effect sizes and their labels below are
/// conventions (Cohen's), not in statrs.
pub(crate) fn cohens_h(p1: f64, p2: f64) -> f64 {
    2.0 * p1.clamp(0.0, 1.0).sqrt().asin() - 2.0 * p2.clamp(0.0, 1.0).sqrt().asin()
}

/// Cohen's verbal label for |h| (0.2 small, 0.5 medium, 0.8 large).
pub(crate) fn label_h(h: f64) -> &'static str {
    let h = h.abs();
    if h < 0.2 {
        "negligible"
    } else if h < 0.5 {
        "small"
    } else if h < 0.8 {
        "medium"
    } else {
        "large"
    }
}

/// Verbal label for Cramér's V (0.1 small, 0.3 medium, 0.5 large).
pub(crate) fn label_v(v: f64) -> &'static str {
    if v < 0.1 {
        "negligible"
    } else if v < 0.3 {
        "small"
    } else if v < 0.5 {
        "medium"
    } else {
        "large"
    }
}

/// Formats a p-value for text: `p < 0.001` or `p = 0.042`.
pub(crate) fn format_p(p: f64) -> String {
    if p < 0.001 {
        "p < 0.001".into()
    } else {
        format!("p = {p:.3}")
    }
}

/// A plain sentence on a difference between two proportions: what was
/// measured, whether the data show a difference at the 5 % level, and how big.
pub(crate) fn interpret_proportions(
    what: &str,
    name1: &str,
    p1: f64,
    name2: &str,
    p2: f64,
    test: &TestResult,
    h: f64,
) -> String {
    let pct = |p: f64| format!("{:.1} %", 100.0 * p);
    if test.p_value < 0.05 {
        format!(
            "The {what} differs: {} in {name1} against {} in {name2} ({}, {}); the effect is {} (Cohen's h = {h:.2}).",
            pct(p1),
            pct(p2),
            test.test,
            format_p(test.p_value),
            label_h(h)
        )
    } else {
        format!(
            "No evidence that the {what} differs: {} in {name1} against {} in {name2} ({}, {}); the observed effect is {} (Cohen's h = {h:.2}), and more games would be needed to detect a smaller one.",
            pct(p1),
            pct(p2),
            test.test,
            format_p(test.p_value),
            label_h(h)
        )
    }
}

/// A plain sentence on a chi-square test of whole outcome tables.
pub(crate) fn interpret_table(what: &str, test: &TestResult, v: f64) -> String {
    if test.p_value < 0.05 {
        format!(
            "The {what} differ (chi-square = {:.2}, df = {}, {}); the association is {} (Cramér's V = {v:.2}).",
            test.statistic,
            test.df,
            format_p(test.p_value),
            label_v(v)
        )
    } else {
        format!(
            "No evidence that the {what} differ (chi-square = {:.2}, df = {}, {}; Cramér's V = {v:.2}, {}).",
            test.statistic,
            test.df,
            format_p(test.p_value),
            label_v(v)
        )
    }
}

#[cfg(test)]
mod tests;
