//! Material outcomes: how many pieces each side captured in a game, kept as
//! a histogram per side (`counts[k]` = games in which the side captured `k`
//! pieces), and the tests between two variants on them.
//!
//! A drawn hunt game still says how many cows fell; in tafl, side 0's
//! captures are the pieces side 1 lost and the other way round. From a
//! histogram: the mean with a 95 % normal interval, the share of games in
//! which a side reached `N` captures (the same `N` as the capture-threshold
//! rules `hunter_win=captures>=N`, Wilson intervals), and between two variants
//! the Mann-Whitney U test (normal approximation with the tie correction and a
//! continuity correction of ½, as R's `wilcox.test(exact = FALSE)` and SciPy's
//! `mannwhitneyu(method="asymptotic")`) with the probability of superiority
//! `P(X > Y) + ½ P(X = Y)` as its effect size.

use crate::stats::math::{self, Interval, Z95};
use statrs::distribution::{ContinuousCDF, Normal};

/// Whether each side of `game` can capture at all: in a hunt game the prey
/// never capture (only the hunter jumps); elsewhere both may.
pub(crate) fn can_capture<G: crate::game::Game>(game: &G) -> [bool; 2] {
    [0, 1].map(|side| !(game.family() == "hunt" && game.side_name(side) == "prey"))
}

/// Both sides may capture: what a report written before
/// [`VariantMetrics::can_capture`](crate::stats::metrics::VariantMetrics) was kept assumes.
pub(crate) fn both_capture() -> [bool; 2] {
    [true, true]
}

/// Histogram of small counts: `out[k]` = how many of `values` equal `k`.
pub(crate) fn histogram(values: impl IntoIterator<Item = u32>) -> Vec<u64> {
    let mut out: Vec<u64> = Vec::new();
    for v in values {
        let k = v as usize;
        if out.len() <= k {
            out.resize(k + 1, 0);
        }
        out[k] += 1;
    }
    out
}

/// Number of games in a histogram.
pub(crate) fn total(counts: &[u64]) -> u64 {
    counts.iter().sum()
}

/// Mean of a histogram with a 95 % normal interval (sample variance; an
/// empty histogram gives `[0, 0]`).
pub(crate) fn mean_interval(counts: &[u64]) -> Interval {
    let n = total(counts);
    if n == 0 {
        return Interval::ZERO;
    }
    let nf = n as f64;
    let mean = counts
        .iter()
        .enumerate()
        .map(|(k, &c)| k as f64 * c as f64)
        .sum::<f64>()
        / nf;
    let var = if n < 2 {
        0.0
    } else {
        counts
            .iter()
            .enumerate()
            .map(|(k, &c)| c as f64 * (k as f64 - mean).powi(2))
            .sum::<f64>()
            / (nf - 1.0)
    };
    let half = Z95 * (var / nf).sqrt();
    Interval {
        estimate: mean,
        lo: (mean - half).max(0.0),
        hi: mean + half,
    }
}

/// Share of games with at least `n` captures (Wilson interval).
pub(crate) fn share_at_least(counts: &[u64], n: usize) -> Interval {
    let hits: u64 = counts.iter().skip(n).sum();
    math::wilson(hits, total(counts), Z95)
}

/// The Mann-Whitney U test of two histograms.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MannWhitney {
    /// U of the first sample: pairs in which it is larger, ties counting ½.
    pub u: f64,
    /// Probability of superiority `U / (n_a n_b)`: 0.5 when neither tends to be larger.
    pub superiority: f64,
    /// Normal deviate (continuity-corrected, signed: positive when the first is larger).
    pub z: f64,
    /// Two-sided p-value (1 when every value is tied or a sample is empty).
    pub p_value: f64,
}

/// Mann-Whitney U between histograms `a` and `b` (see the module docs).
pub(crate) fn mann_whitney(a: &[u64], b: &[u64]) -> MannWhitney {
    let (na, nb) = (total(a) as f64, total(b) as f64);
    if na == 0.0 || nb == 0.0 {
        return MannWhitney {
            u: 0.0,
            superiority: 0.5,
            z: 0.0,
            p_value: 1.0,
        };
    }
    let len = a.len().max(b.len());
    let at = |h: &[u64], k: usize| h.get(k).copied().unwrap_or(0) as f64;
    let (mut u, mut below_b, mut ties) = (0.0, 0.0, 0.0);
    for k in 0..len {
        let (ca, cb) = (at(a, k), at(b, k));
        u += ca * (below_b + 0.5 * cb);
        below_b += cb;
        let t = ca + cb;
        ties += t * t * t - t;
    }
    let n = na + nb;
    let mean = na * nb / 2.0;
    let var = na * nb / 12.0 * ((n + 1.0) - ties / (n * (n - 1.0)));
    let superiority = u / (na * nb);
    if var <= 0.0 {
        return MannWhitney {
            u,
            superiority,
            z: 0.0,
            p_value: 1.0,
        };
    }
    let dev = ((u - mean).abs() - 0.5).max(0.0) / var.sqrt();
    let z = if u >= mean { dev } else { -dev };
    let p_value = match Normal::new(0.0, 1.0) {
        Ok(normal) => (2.0 * normal.sf(dev)).min(1.0),
        Err(_) => 1.0,
    };
    MannWhitney {
        u,
        superiority,
        z,
        p_value,
    }
}

/// Difference of two histograms' means (first minus second) with a 95 %
/// normal (Welch) interval.
pub(crate) fn mean_difference(a: &[u64], b: &[u64]) -> Interval {
    let (ma, mb) = (mean_interval(a), mean_interval(b));
    let se = |m: &Interval| (m.hi - m.estimate) / Z95;
    // mean_interval clamps lo at 0 but not hi: its upper half-width is the
    // unclamped one.
    let half = Z95 * (se(&ma).powi(2) + se(&mb).powi(2)).sqrt();
    let d = ma.estimate - mb.estimate;
    Interval {
        estimate: d,
        lo: d - half,
        hi: d + half,
    }
}

/// One side's captures in two variants at one strength.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct CaptureComparison {
    /// Side whose captures are compared (0 or 1).
    pub side: usize,
    /// Mean captures of the first variant minus the second (95 % interval).
    pub difference: Interval,
    /// Mann-Whitney test of the two distributions.
    pub test: MannWhitney,
}

impl CaptureComparison {
    /// Compares side `side`'s capture histograms `a` and `b`.
    pub(crate) fn new(side: usize, a: &[u64], b: &[u64]) -> Self {
        CaptureComparison {
            side,
            difference: mean_difference(a, b),
            test: mann_whitney(a, b),
        }
    }

    /// +1 when the first variant's captures are larger at the 5 % level,
    /// −1 when smaller, 0 otherwise.
    pub(crate) fn sign(&self) -> i32 {
        if self.test.p_value >= 0.05 {
            0
        } else if self.test.superiority > 0.5 {
            1
        } else {
            -1
        }
    }
}
