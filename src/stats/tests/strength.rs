//! Material outcomes, ratings, verdicts and the calibration on known games.

use crate::stats::ladder::{calibrate, cell_of, pair_verdict};
use crate::stats::material::{histogram, mann_whitney, mean_interval, share_at_least};
use crate::stats::metrics::variant_metrics;
use crate::stats::perfect::OpeningValue;
use crate::stats::rating::{fit_bradley_terry, invert, Match, ELO_PER_UNIT};
use crate::stats::tournament::{EndReason, GameRecord};
use statrs::function::erf::erfc;

use super::{cell, record};

/// Capture histograms of known games: counts, mean, share reaching N.
#[test]
fn capture_counts_of_known_games() {
    let recs = vec![
        record(None, [0, 1], 30, 4),
        record(None, [2, 0], 30, 4),
        record(Some(0), [3, 0], 30, 4),
        record(None, [2, 2], 4, 4),
    ];
    let m = variant_metrics("v", ["hunter", "prey"], &recs, 1);
    assert_eq!(m.capture_counts[0], vec![1, 0, 2, 1]);
    assert_eq!(m.capture_counts[1], vec![2, 1, 1]);
    assert_eq!(m.no_engine_move, 1);
    assert_eq!(histogram([1, 1, 4]), vec![0, 2, 0, 0, 1]);
    let c = cell_of(&m, "e");
    // Mean 7/4, sample variance ((1.75)² + 2(0.25)² + (1.25)²)/3 = 1.5833.
    let mean = c.captures_mean[0];
    assert!((mean.estimate - 1.75).abs() < 1e-12);
    let half = 1.959_963_984_540_054 * (1.583_333_333_333_333_3f64 / 4.0).sqrt();
    assert!((mean.hi - (1.75 + half)).abs() < 1e-9, "{mean:?}");
    assert_eq!(share_at_least(&c.capture_counts[0], 2).estimate, 0.75);
    assert_eq!(share_at_least(&c.capture_counts[0], 4).estimate, 0.0);
    assert_eq!(share_at_least(&c.capture_counts[0], 0).estimate, 1.0);
    assert_eq!(mean_interval(&[]).estimate, 0.0);
}

/// Mann-Whitney U against brute force over all pairs, the tie-corrected
/// variance against the exact permutation distribution, and a textbook
/// p-value (SciPy's `mannwhitneyu([1,2,3], [4,5,6], method="asymptotic")`).
#[test]
fn mann_whitney_against_independent_values() {
    // No ties: U = 0, z = (4.5 − 0.5) / sqrt(5.25).
    let t = mann_whitney(&histogram([1, 2, 3]), &histogram([4, 5, 6]));
    assert_eq!(t.u, 0.0);
    assert_eq!(t.superiority, 0.0);
    let z = 4.0 / 5.25f64.sqrt();
    let p = erfc(z / std::f64::consts::SQRT_2);
    assert!(
        (t.p_value - p).abs() < 1e-12 && (p - 0.080_855_6).abs() < 1e-6,
        "{t:?}"
    );
    assert!(t.z < 0.0);
    // With ties: brute-force U, and the variance over every split of the
    // pooled sample equals the tie-corrected formula used by the test.
    let a = [0u32, 0, 1, 2];
    let b = [1u32, 1, 2, 3];
    let brute: f64 = a
        .iter()
        .flat_map(|&x| b.iter().map(move |&y| (x, y)))
        .map(|(x, y)| match x.cmp(&y) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Less => 0.0,
        })
        .sum();
    let t = mann_whitney(&histogram(a), &histogram(b));
    assert_eq!(t.u, brute);
    let pooled: Vec<u32> = a.iter().chain(&b).copied().collect();
    let mut us = Vec::new();
    for mask in 0u32..256 {
        if mask.count_ones() != 4 {
            continue;
        }
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for (i, &v) in pooled.iter().enumerate() {
            if mask & (1 << i) != 0 {
                x.push(v)
            } else {
                y.push(v)
            }
        }
        us.push(mann_whitney(&histogram(x), &histogram(y)).u);
    }
    let mean = us.iter().sum::<f64>() / us.len() as f64;
    let var = us.iter().map(|u| (u - mean).powi(2)).sum::<f64>() / us.len() as f64;
    assert!((mean - 8.0).abs() < 1e-12);
    let z = ((brute - 8.0).abs() - 0.5) / var.sqrt();
    let p = erfc(z / std::f64::consts::SQRT_2);
    assert!((t.p_value - p).abs() < 1e-9, "{} vs {p}", t.p_value);
    // Everything tied: nothing to test.
    let t = mann_whitney(&[5], &[7]);
    assert_eq!((t.p_value, t.superiority), (1.0, 0.5));
}

/// Bradley-Terry with a side advantage: a saturated two-engine table has a
/// closed-form answer; expected scores made from known ratings give them back.
#[test]
fn bradley_terry_recovers_known_ratings() {
    // A (0) as side 0 scores 0.8 against B; B as side 0 scores 0.4 against A:
    // r_B − r_A = −(logit 0.8 − logit 0.4) / 2, h = (logit 0.8 + logit 0.4) / 2.
    let logit = |p: f64| (p / (1.0 - p)).ln();
    let m = |i, j, n: f64, s: f64| Match {
        side0: i,
        side1: j,
        games: n,
        score0: n * s,
        score0_sq: n * s,
    };
    let fit = fit_bradley_terry(&[m(0, 1, 100.0, 0.8), m(1, 0, 100.0, 0.4)], 2, 0.0).unwrap();
    let want = -(logit(0.8) - logit(0.4)) / 2.0 * ELO_PER_UNIT;
    assert!((fit.ratings[1].estimate - want).abs() < 1e-6, "{fit:?}");
    let h = (logit(0.8) + logit(0.4)) / 2.0 * ELO_PER_UNIT;
    assert!((fit.side0_advantage.estimate - h).abs() < 1e-6);
    assert!(fit.ratings[1].hi < 0.0, "B is measurably weaker: {fit:?}");
    // Three engines at 0, 1.0 and 0.3 logistic units, side advantage −0.5.
    let truth = [0.0, 1.0, 0.3];
    let sig = |x: f64| 1.0 / (1.0 + (-x).exp());
    let mut matches = Vec::new();
    for i in 0..3 {
        for j in 0..3 {
            if i != j {
                matches.push(m(i, j, 400.0, sig(truth[i] - truth[j] - 0.5)));
            }
        }
    }
    let fit = fit_bradley_terry(&matches, 3, 0.0).unwrap();
    for (k, t) in truth.iter().enumerate() {
        assert!(
            (fit.ratings[k].estimate - t * ELO_PER_UNIT).abs() < 1e-6,
            "{k}: {fit:?}"
        );
    }
    assert!((fit.side0_advantage.estimate + 0.5 * ELO_PER_UNIT).abs() < 1e-6);
    assert_eq!(fit.order(), vec![0, 2, 1]);
    let d = fit.difference(2, 1);
    assert!((d.estimate - 0.7 * ELO_PER_UNIT).abs() < 1e-6 && d.lo > 0.0);
    // A rung that won everything: finite only with the prior.
    let sweep = [m(1, 0, 20.0, 1.0), m(0, 1, 20.0, 0.0)];
    assert!(fit_bradley_terry(&sweep, 2, 0.0).is_err());
    let f = fit_bradley_terry(&sweep, 2, 1.0).unwrap();
    assert!(
        f.ratings[1].estimate > 300.0 && f.ratings[1].lo > 0.0,
        "{f:?}"
    );
    // Not connected: engine 2 never played.
    assert!(fit_bradley_terry(&sweep, 3, 0.0).is_err());
    assert!(invert(&[vec![1.0, 2.0], vec![2.0, 4.0]]).is_none());
}

/// The verdict speaks of captures when every game is drawn, and says so when
/// two variants' results are identical.
#[test]
fn verdicts_use_captures_and_do_not_overclaim() {
    let sides = ["hunter".to_string(), "prey".to_string()];
    let drawn = |name: &str, caps: u32| {
        let g: Vec<(Option<u8>, u32)> = (0..60).map(|i| (None, caps + (i % 2))).collect();
        [cell(name, "weak", &g), cell(name, "strong", &g)]
    };
    let (a, b) = (drawn("a", 3), drawn("b", 1));
    let v = pair_verdict("a", "b", &a, &b, &sides);
    assert!(
        v.sentence.contains("was drawn") && v.sentence.contains("by captures"),
        "{}",
        v.sentence
    );
    assert!(
        v.sentence
            .contains("captures more in a than in b at every strength"),
        "{}",
        v.sentence
    );
    assert!(v.captures.iter().all(|c| c[0].sign() == 1));
    // The reports print the captures once: the sentence says they are in it.
    assert!(v.captures_in_sentence);
    // Most games of one variant ended by the tables (after engine moves):
    // the verdict says that its results there are the tables' values.
    let judged = |name: &str, engine: &str, adjudicated: usize| {
        let recs: Vec<GameRecord> = (0..60)
            .map(|i| {
                let mut r = record(if i % 3 == 0 { Some(0) } else { None }, [1, 0], 20, 4);
                if i < adjudicated {
                    r.end = EndReason::Adjudicated;
                }
                r
            })
            .collect();
        cell_of(&variant_metrics(name, ["hunter", "prey"], &recs, 1), engine)
    };
    let e = [judged("e", "weak", 0), judged("e", "strong", 40)];
    let f = [judged("f", "weak", 0), judged("f", "strong", 0)];
    let v = pair_verdict("e", "f", &e, &f, &sides);
    assert!(!v.captures_in_sentence, "{}", v.sentence);
    assert!(
        v.sentence
            .contains("At strong most games of e or f were ended by the exact tables"),
        "{}",
        v.sentence
    );
    assert!(!v.sentence.contains("At weak"), "{}", v.sentence);
    let v = pair_verdict("a", "b", &a, &b, &sides);
    assert!(!v.sentence.contains("exact tables"), "{}", v.sentence);
    let same = drawn("c", 2);
    let same2 = drawn("d", 2);
    let v = pair_verdict("c", "d", &same, &same2, &sides);
    assert!(v.sentence.contains("identical results"), "{}", v.sentence);
    assert!(
        v.captures_sentence.to_lowercase().contains("do not tell"),
        "{}",
        v.captures_sentence
    );
}

/// Calibration counts on cells with known exact values.
#[test]
fn calibration_counts_agreements() {
    let games = |w0: usize, n: usize| -> Vec<(Option<u8>, u32)> {
        (0..n)
            .map(|i| (if i < w0 { Some(0) } else { Some(1) }, 0))
            .collect()
    };
    // Rung 0: a 90 %, b 10 % (right direction); rung 1: a 10 %, b 90 % (wrong);
    // c equals b's exact value, and at rung 0 also its score.
    let cells = vec![
        vec![
            cell("a", "r0", &games(90, 100)),
            cell("a", "r1", &games(10, 100)),
        ],
        vec![
            cell("b", "r0", &games(10, 100)),
            cell("b", "r1", &games(90, 100)),
        ],
        vec![
            cell("c", "r0", &games(10, 100)),
            cell("c", "r1", &games(10, 100)),
        ],
    ];
    let exact = |score0: f64| OpeningValue {
        random_plies: 4,
        wins: [score0, 1.0 - score0],
        draws: 0.0,
        score0,
        positions: 1,
        start0: "draw".into(),
        start_score0: 0.5,
        sampled: None,
    };
    let engines = vec!["r0".to_string(), "r1".to_string()];
    let c = calibrate(&cells, &engines, &[exact(0.9), exact(0.1), exact(0.1)]);
    let (r0, r1) = (&c.rungs[0], &c.rungs[1]);
    assert_eq!(
        (r0.pairs, r0.agree, r0.wrong, r0.missed, r0.false_difference),
        (3, 3, 0, 0, 0)
    );
    // r1: a<b wrong, a<c? a 10 % vs c 10 %: no difference where exact says a>c (missed),
    // b>c claimed where exact equal (false difference).
    assert_eq!(
        (r1.agree, r1.wrong, r1.missed, r1.false_difference),
        (0, 1, 1, 1)
    );
    assert!(r0.mean_abs_error < 1e-12 && (r1.max_abs_error - 0.8).abs() < 1e-12);
    assert_eq!(r0.agree_start, 1);
    // Inside the 95 % interval: every rung-0 cell (its score is the exact
    // value); at rung 1 only c's (a's 10 % and b's 90 % miss by 0.8).
    assert_eq!((r0.covered, r1.covered), (3, 1));
    assert_eq!(c.pairs.len(), 3);
    assert_eq!(c.pairs[0].signs, vec![1, -1]);
}

/// The truth of a calibration is the exact value of the openings the games
/// drew, not of all openings: a cell whose score is the sampled openings'
/// value (90 %) has no error and covers it, although all openings are worth
/// 50 %; two variants whose sampled values differ are a real difference,
/// whatever their all-openings values say.
#[test]
fn calibration_scores_against_the_sampled_openings() {
    let games = |w0: usize, n: usize| -> Vec<(Option<u8>, u32)> {
        (0..n)
            .map(|i| (if i < w0 { Some(0) } else { Some(1) }, 0))
            .collect()
    };
    let cells = vec![
        vec![cell("a", "perfect", &games(90, 100))],
        vec![cell("b", "perfect", &games(10, 100))],
    ];
    let exact = |all: f64, sampled: f64| OpeningValue {
        random_plies: 4,
        wins: [all, 1.0 - all],
        draws: 0.0,
        score0: all,
        positions: 9,
        start0: "draw".into(),
        start_score0: 0.5,
        sampled: Some(crate::stats::perfect::SampledOpenings {
            games: 100,
            seed: 1,
            wins: [(100.0 * sampled) as u64, 100 - (100.0 * sampled) as u64],
            draws: 0,
            score0: sampled,
        }),
    };
    let engines = vec!["perfect".to_string()];
    let c = calibrate(&cells, &engines, &[exact(0.5, 0.9), exact(0.5, 0.1)]);
    let k = &c.rungs[0];
    assert!(k.mean_abs_error < 1e-12, "{k:?}");
    assert!((k.mean_abs_error_all - 0.4).abs() < 1e-12, "{k:?}");
    assert_eq!(k.covered, 2);
    assert_eq!((k.agree, k.false_difference), (1, 0), "{k:?}");
    assert!((c.pairs[0].exact_difference - 0.8).abs() < 1e-12);
    assert!(c.pairs[0].all_openings_difference.abs() < 1e-12);
}

/// The dispersion factor: match scores that the model cannot explain vary
/// more than its probabilities say, and the intervals widen by the square
/// root of the factor, Pearson's χ² over the matches per degree of freedom
/// left by the fitted parameters; matches the model fits give the floor, 1.
/// These six matches (5 of 50, 1 of 50, 45 of 50, 980 of 1,000, 5 of 10 and
/// 180 of 200 games won by side 0) fit three engines poorly.
#[test]
fn bradley_terry_dispersion_widens_the_intervals_of_a_poor_fit() {
    let m = |side0, side1, n: f64, s: f64| Match {
        side0,
        side1,
        games: n,
        score0: n * s,
        score0_sq: n * s,
    };
    let poor = [
        m(0, 1, 50.0, 0.1),
        m(1, 0, 50.0, 0.02),
        m(1, 2, 50.0, 0.9),
        m(2, 1, 1000.0, 0.98),
        m(0, 2, 10.0, 0.5),
        m(2, 0, 200.0, 0.9),
    ];
    let fit = fit_bradley_terry(&poor, 3, 0.0).unwrap();
    assert!(fit.dispersion > 1.1, "{fit:?}");
    // The intervals are those of the covariance, which carries the factor.
    let half = fit.ratings[1].hi - fit.ratings[1].estimate;
    assert!((half - 1.959_963_984_540_054 * fit.covariance[1][1].sqrt()).abs() < 1e-9);
    // The factor is Pearson's χ² over the six matches divided by their
    // degrees of freedom, six matches minus three parameters (r1, r2, h): the
    // ratio of summed squared residuals to summed variances over the games
    // (about 1.13 here) ignored both the grouping and the fitted parameters.
    let unit = |x: &crate::stats::math::Interval| x.estimate / ELO_PER_UNIT;
    let (r, h) = (
        [0.0, unit(&fit.ratings[1]), unit(&fit.ratings[2])],
        unit(&fit.side0_advantage),
    );
    let chi2: f64 = poor
        .iter()
        .map(|m| {
            let p = 1.0 / (1.0 + (-(r[m.side0] - r[m.side1] + h)).exp());
            (m.score0 - m.games * p).powi(2) / (m.games * p * (1.0 - p))
        })
        .sum();
    assert_eq!(fit.dispersion_df, 3.0);
    assert!(
        (fit.dispersion - chi2 / 3.0).abs() < 1e-6 * fit.dispersion,
        "{fit:?}"
    );
    assert!(fit.dispersion > 100.0, "{fit:?}");
    // A saturated fit (two matches, two parameters) leaves no degrees of
    // freedom: the factor is 1, unestimated.
    let sig = |x: f64| 1.0 / (1.0 + (-x).exp());
    let fits = [m(0, 1, 100.0, sig(0.4)), m(1, 0, 100.0, sig(-0.4))];
    let exact = fit_bradley_terry(&fits, 2, 0.0).unwrap();
    assert!(exact.converged, "{exact:?}");
    assert_eq!((exact.dispersion, exact.dispersion_df), (1.0, 0.0));
    // Matches the model fits: the floor, 1, with their degrees of freedom.
    let truth = [0.0, 0.5];
    let mut good = Vec::new();
    for (i, j) in [(0, 1), (1, 0), (0, 0), (1, 1)] {
        good.push(m(i, j, 100.0, sig(truth[i] - truth[j] + 0.2)));
    }
    let f = fit_bradley_terry(&good, 2, 0.0).unwrap();
    assert_eq!((f.dispersion, f.dispersion_df), (1.0, 2.0));
}

/// A fit that Newton's method has not settled says so instead of passing its
/// last iterate for a result: cut off after one iteration, the three-engine
/// fit is flagged, and the ladder's warnings name it; given its iterations it
/// settles and is not.
#[test]
fn bradley_terry_reports_whether_it_converged() {
    use crate::stats::rating::{fit_within, MAX_NEWTON};
    let m = |side0, side1, n: f64, s: f64| Match {
        side0,
        side1,
        games: n,
        score0: n * s,
        score0_sq: n * s,
    };
    let matches = [
        m(0, 1, 40.0, 0.2),
        m(1, 0, 40.0, 0.9),
        m(1, 2, 40.0, 0.3),
        m(2, 1, 40.0, 0.8),
        m(0, 2, 40.0, 0.1),
    ];
    let cut = fit_within(&matches, 3, 0.0, 1).unwrap();
    assert!(!cut.converged && cut.iterations == 1, "{cut:?}");
    let ok = fit_bradley_terry(&matches, 3, 0.0).unwrap();
    assert!(ok.converged && ok.iterations < MAX_NEWTON, "{ok:?}");
}
