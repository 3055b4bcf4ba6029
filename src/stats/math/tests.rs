//! Statistics checked against textbook values.

use super::*;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn wilson_50_of_100() {
    let i = wilson(50, 100, Z95);
    assert!(close(i.lo, 0.4038, 5e-5), "{i:?}");
    assert!(close(i.hi, 0.5962, 5e-5), "{i:?}");
    assert!(close(i.estimate, 0.5, 1e-12));
}

#[test]
fn wilson_edges_stay_in_unit_interval() {
    // 0/10: Wilson upper bound z²/(n+z²) = 3.8415/13.8415 = 0.2775.
    let i = wilson(0, 10, Z95);
    assert_eq!(i.lo, 0.0);
    assert!(close(i.hi, 0.2775, 5e-5), "{i:?}");
    let j = wilson(10, 10, Z95);
    assert!(close(j.lo, 1.0 - 0.2775, 5e-5), "{j:?}");
    assert_eq!(j.hi, 1.0);
}

#[test]
fn fisher_tea_tasting() {
    // Fisher's lady tasting tea: [[3,1],[1,3]], two-sided p = 0.4857 (= 34/70).
    let t = fisher_exact([[3, 1], [1, 3]]);
    assert!(close(t.p_value, 34.0 / 70.0, 1e-9), "{t:?}");
    assert!(close(t.p_value, 0.4857, 5e-5));
}

#[test]
fn fisher_dieting_example() {
    // Wikipedia "Fisher's exact test": men/women dieting [[1,9],[11,3]],
    // two-sided p = 0.002759.
    let t = fisher_exact([[1, 9], [11, 3]]);
    assert!(close(t.p_value, 0.002759, 5e-6), "{t:?}");
    // The same table transposed or with rows swapped gives the same p.
    assert!(close(
        fisher_exact([[11, 3], [1, 9]]).p_value,
        t.p_value,
        1e-12
    ));
    assert!(close(
        fisher_exact([[1, 11], [9, 3]]).p_value,
        t.p_value,
        1e-12
    ));
}

#[test]
fn fisher_identical_rows_is_one() {
    assert!(close(fisher_exact([[5, 5], [5, 5]]).p_value, 1.0, 1e-9));
}

#[test]
fn chi_square_critical_values() {
    // Tables of the chi-square distribution: upper 5 % and 1 % points.
    for (x, df, p) in [
        (3.841, 1.0, 0.05),
        (5.991, 2.0, 0.05),
        (7.815, 3.0, 0.05),
        (9.488, 4.0, 0.05),
        (6.635, 1.0, 0.01),
        (9.210, 2.0, 0.01),
        (18.307, 10.0, 0.05),
    ] {
        let got = chi_square_sf(x, df);
        assert!(close(got, p, 1e-4), "chi2={x} df={df}: {got}");
    }
    // df = 2 has the closed form exp(-x/2).
    for x in [0.5, 2.0, 7.0, 30.0] {
        assert!(close(chi_square_sf(x, 2.0), (-x / 2.0_f64).exp(), 1e-12));
    }
}

#[test]
fn chi_square_tables() {
    // [[20,30],[30,20]]: all expected counts 25, chi2 = 4 * 25/25 = 4, p = 0.0455003.
    let t = chi_square_independence(&[vec![20, 30], vec![30, 20]]).unwrap();
    assert!(close(t.statistic, 4.0, 1e-12));
    assert_eq!(t.df, 1);
    assert!(close(t.p_value, 0.0455003, 1e-6), "{t:?}");
    // 2x3 by hand: [[10,20,30],[20,20,20]] expected 15,20,25 per row,
    // chi2 = 2 * (25/15 + 25/25) = 16/3, df 2, p = exp(-8/3).
    let t = chi_square_independence(&[vec![10, 20, 30], vec![20, 20, 20]]).unwrap();
    assert!(close(t.statistic, 16.0 / 3.0, 1e-12));
    assert_eq!(t.df, 2);
    assert!(close(t.p_value, (-8.0f64 / 3.0).exp(), 1e-12));
    // An empty column is dropped: same answer.
    let u = chi_square_independence(&[vec![10, 0, 20, 30], vec![20, 0, 20, 20]]).unwrap();
    assert_eq!(u.df, 2);
    assert!(close(u.statistic, t.statistic, 1e-12));
    let v = cramers_v(t.statistic, 120, 2, 3);
    assert!(close(v, (16.0 / 3.0 / 120.0f64).sqrt(), 1e-12));
    assert!(chi_square_independence(&[vec![1, 2]]).is_err());
    assert!(chi_square_independence(&[vec![1, 0], vec![2, 0]]).is_err());
}

#[test]
fn normal_tails() {
    assert!(close(normal_cdf(1.959963984540054), 0.975, 1e-12));
    assert!(close(normal_cdf(0.0), 0.5, 1e-15));
    assert!(close(normal_cdf(-1.0), 0.158655253931457, 1e-12));
    // Far tails, where 1 − Φ would round to 0: Φ(−8) = 6.22096e-16.
    assert!(close(
        normal_cdf(-8.0) / 6.220_960_574_271_78e-16,
        1.0,
        1e-9
    ));
}

#[test]
fn two_proportion_z_by_hand() {
    // 50/100 vs 65/100: pooled 0.575, se = sqrt(0.575*0.425*0.02) = 0.0699106,
    // z = -0.15/se = -2.14560, p = 2*Phi(-2.14560) = 0.03190.
    let t = two_proportion_z(50, 100, 65, 100).unwrap();
    assert!(close(t.statistic, -2.14560, 1e-4), "{t:?}");
    assert!(close(t.p_value, 0.03190, 1e-4), "{t:?}");
    let same = two_proportion_z(0, 10, 0, 20).unwrap();
    assert_eq!(same.p_value, 1.0);
    assert!(two_proportion_z(5, 0, 1, 2).is_err());
    assert!(two_proportion_z(5, 4, 1, 2).is_err());
}

#[test]
fn effect_sizes() {
    // Cohen's h between 0.5 and 0.65: 2 asin(sqrt .5) - 2 asin(sqrt .65) = -0.30469.
    assert!(close(cohens_h(0.5, 0.65), -0.30469, 1e-4));
    assert_eq!(label_h(0.1), "negligible");
    assert_eq!(label_h(-0.3), "small");
    assert_eq!(label_h(0.9), "large");
    assert_eq!(label_v(0.35), "medium");
}

#[test]
fn bootstrap_mean_matches_normal_theory() {
    // Mean of 1..=100 is 50.5, standard error 29.011/sqrt(100) = 2.9011; the
    // percentile interval should be close to 50.5 ± 1.96 * 2.9011 = [44.81, 56.19].
    let data: Vec<f64> = (1..=100).map(f64::from).collect();
    let a = bootstrap(&data, mean, 4000, 7);
    let b = bootstrap(&data, mean, 4000, 7);
    assert_eq!(a, b, "seeded bootstrap must be deterministic");
    assert!(close(a.estimate, 50.5, 1e-12));
    assert!(close(a.lo, 44.81, 0.6), "{a:?}");
    assert!(close(a.hi, 56.19, 0.6), "{a:?}");
    assert!(close(sample_sd(&data), 29.011492, 1e-5));
}

#[test]
fn sentences_say_what_they_found() {
    let t = fisher_exact([[1, 9], [11, 3]]);
    let s = interpret_proportions(
        "hunter win rate",
        "A",
        0.1,
        "B",
        0.79,
        &t,
        cohens_h(0.1, 0.79),
    );
    assert!(s.starts_with("The hunter win rate differs"), "{s}");
    assert!(s.contains("large"), "{s}");
    let t = fisher_exact([[3, 1], [1, 3]]);
    let s = interpret_proportions("hunter win rate", "A", 0.75, "B", 0.25, &t, 1.0);
    assert!(s.starts_with("No evidence"), "{s}");
}

#[test]
fn sweep_param_parses() {
    use crate::stats::sweep::SweepParam;
    let p = SweepParam::parse("hunter_win=1..20").unwrap();
    assert_eq!(
        (p.key.as_str(), p.prefix.as_str(), p.from, p.to),
        ("hunter_win", "", 1, 20)
    );
    assert_eq!(p.option(7), "hunter_win=7");
    let p = SweepParam::parse("hunter_win=captures>=1..20").unwrap();
    assert_eq!(p.option(3), "hunter_win=captures>=3");
    for bad in ["hunter_win", "=1..2", "k=5..1", "k=a..b", "k=1..x", "k=1"] {
        assert!(SweepParam::parse(bad).is_err(), "{bad}");
    }
}

/// Two-sided Fisher p-values against an exact count in integers over every
/// 2x2 table of up to 40 games: the tables exactly as likely as the observed
/// one count toward the p-value. Their probabilities computed through
/// logarithms differ in the last bits, which the tie tolerance absorbs;
/// without it such a table is dropped and the p-value is too small.
#[test]
fn fisher_counts_tables_tied_with_the_observed_one() {
    fn binom(n: u64, k: u64) -> u128 {
        (0..k).fold(1u128, |acc, i| acc * (n - i) as u128 / (i + 1) as u128)
    }
    let mut ties = 0;
    for n in 2..=40u64 {
        for r1 in 1..n {
            for c1 in 1..n {
                let lo = (c1 + r1).saturating_sub(n);
                let hi = r1.min(c1);
                // The weight of top-left cell x: C(c1, x) C(n - c1, r1 - x).
                let w = |x: u64| binom(c1, x) * binom(n - c1, r1 - x);
                let total = binom(n, r1) as f64;
                for a in lo..=hi {
                    let observed = w(a);
                    let at_most: Vec<u128> = (lo..=hi).map(w).filter(|&x| x <= observed).collect();
                    ties += at_most.iter().filter(|&&x| x == observed).count() - 1;
                    let exact = at_most.iter().sum::<u128>() as f64 / total;
                    let table = [[a, r1 - a], [c1 - a, n + a - r1 - c1]];
                    let got = fisher_exact(table).p_value;
                    assert!(
                        close(got, exact.min(1.0), 1e-9),
                        "{table:?}: {got} against {exact}"
                    );
                }
            }
        }
    }
    assert!(ties > 1000, "{ties} tied tables");
}

/// Without draws the score interval is Wilson's interval of the wins.
#[test]
fn score_interval_without_draws_is_wilson() {
    for (w, l) in [(50, 50), (3, 17), (0, 10), (10, 0), (19, 1)] {
        let s = score_interval(w, 0, l, Z95);
        let x = wilson(w, w + l, Z95);
        assert!(close(s.lo, x.lo, 1e-9), "{w}/{l}: {s:?} vs {x:?}");
        assert!(close(s.hi, x.hi, 1e-9), "{w}/{l}: {s:?} vs {x:?}");
    }
}

/// An all-draw cell: the score is ½ with a width z²/(2(n + z²)) each side
/// (the old normal interval around the observed variance was [½, ½]).
#[test]
fn score_interval_of_an_all_draw_cell_keeps_its_width() {
    let s = score_interval(0, 20, 0, Z95);
    let half = Z95 * Z95 / (2.0 * (20.0 + Z95 * Z95));
    assert!(close(s.estimate, 0.5, 1e-12));
    assert!(close(s.lo, 0.5 - half, 1e-7), "{s:?}");
    assert!(close(s.hi, 0.5 + half, 1e-7), "{s:?}");
    assert!(close(half, 0.0806, 5e-5));
    // The difference of two such cells: Newcombe's ±√2·half, not [0, 0].
    let d = difference_interval(&s, &s);
    assert!(close(d.estimate, 0.0, 1e-12));
    assert!(close(d.hi, 2f64.sqrt() * half, 1e-7), "{d:?}");
    assert!(close(d.lo, -(2f64.sqrt()) * half, 1e-7), "{d:?}");
    // Balance from it: 1 at the estimate, below it by the score's reach.
    let b = balance_from_score(&s);
    assert_eq!((b.estimate, b.hi), (1.0, 1.0));
    assert!(close(b.lo, 1.0 - 2.0 * half, 1e-7), "{b:?}");
}

/// A one-sided cell (19 wins, 1 draw of 20): the interval stays inside [0, 1],
/// reaches 1 only where no game was lost or drawn, and is wider below than
/// the normal interval's [0.927, 1].
#[test]
fn score_interval_of_a_one_sided_cell() {
    let s = score_interval(19, 1, 0, Z95);
    assert!(close(s.estimate, 0.975, 1e-12));
    assert!(s.lo > 0.8 && s.lo < 0.927, "{s:?}");
    assert!(s.hi < 1.0 && s.hi > 0.99, "{s:?}");
    let all = score_interval(20, 0, 0, Z95);
    assert_eq!(all.hi, 1.0);
    assert!(close(all.lo, wilson(20, 20, Z95).lo, 1e-9));
    // Every interval holds its estimate, whatever the counts.
    for w in 0..6u64 {
        for d in 0..6u64 {
            for l in 0..6u64 {
                let i = score_interval(w, d, l, Z95);
                if w + d + l > 0 {
                    assert!(i.lo < i.hi, "{w} {d} {l}: {i:?}");
                }
                assert!(
                    i.lo <= i.estimate && i.estimate <= i.hi,
                    "{w} {d} {l}: {i:?}"
                );
            }
        }
    }
}

#[test]
fn none_seen_bound_is_the_rule_of_three() {
    assert!(close(none_seen_upper(20), 0.1391, 5e-5));
    assert!(close(none_seen_upper(1000) * 1000.0, 2.994, 1e-2));
    assert_eq!(none_seen_upper(0), 1.0);
}
