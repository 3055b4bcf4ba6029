//! The rank agreement across strengths: Kendall's τ-b of the variant orderings with percentile bootstrap intervals.

use super::{LadderCell, RankAgreement};
use crate::random::Rng;
use crate::stats::math::{self, Interval};

/// Bootstrap resamples of the rank agreement.
pub(crate) const TAU_RESAMPLES: usize = 1000;

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
