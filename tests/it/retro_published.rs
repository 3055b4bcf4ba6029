//! The solver's index against published state-space figures
//! (tests/data/hunt/published.txt): the number of symmetry classes of a scope is
//! counted slot by slot through `unrank`, the same path the solver takes.

use huntsolve::retro::plan;
use huntsolve::retro::{Scope, TierGame};
use rayon::prelude::*;

fn published() -> Vec<(String, String, String, u64)> {
    let text = include_str!("../data/hunt/published.txt");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            assert_eq!(f.len(), 5, "malformed line: {l}");
            (
                f[0].to_string(),
                f[1].to_string(),
                f[2].to_string(),
                f[3].parse().expect("a count"),
            )
        })
        .collect()
}

#[test]
fn class_counts_match_published_figures() {
    let rows = published();
    assert!(!rows.is_empty());
    for (rules, scope, what, value) in rows {
        assert_eq!(what, "classes");
        let game = huntsolve::hunt::from_spec(&rules).unwrap();
        let scope = Scope::parse(&scope).unwrap();
        let plan = plan(&game, &scope).unwrap();
        let mut total = 0u64;
        for &t in plan.waves.iter().flatten() {
            let n = game.tier_size(t);
            // Chunks of 64 Ki slots in parallel (u64 ranges are not indexed in rayon).
            let chunks = n.div_ceil(1 << 16);
            total += (0..chunks)
                .into_par_iter()
                .map(|c| {
                    let end = ((c + 1) << 16).min(n);
                    ((c << 16)..end)
                        .filter(|&i| game.unrank(t, i).is_some())
                        .count() as u64
                })
                .sum::<u64>();
        }
        assert_eq!(total, value, "{rules} [{}]", scope.name());
    }
}
