//! The solver on random game graphs with cycles, exits into later tiers,
//! duplicate moves and a symmetry, against exhaustive level iteration; the
//! same records with 1 and 2 threads.

use crate::common::graph::GraphGame;
use huntsolve::decode;
use huntsolve::retro::{load_records, solve};
use huntsolve::retro::{Scope, SolveOptions, TierGame};
use huntsolve::NoProgress;

fn tmpdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("huntsolve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn check(g: &GraphGame, name: &str) {
    let reference = crate::common::retro::exhaustive(g, &g.nodes());
    let mut per_threads = Vec::new();
    for threads in [1, 2] {
        let dir = tmpdir(&format!("{name}-{threads}"));
        let opts = SolveOptions {
            threads,
            memory_limit: None,
            ..Default::default()
        };
        solve(g, &Scope::Whole, &dir, &opts, &NoProgress).unwrap();
        let mut all = Vec::new();
        let mut t = 0;
        while let Ok(recs) = load_records(g, &dir, t) {
            all.push(recs);
            t += 1;
        }
        for node in g.nodes() {
            let tier = g.tier_of(&node);
            let rec = all[tier as usize][g.rank(tier, &node) as usize];
            assert_eq!(decode(rec), Some(reference[&node]), "{name}: node {}", node);
        }
        per_threads.push(all);
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert_eq!(
        per_threads[0], per_threads[1],
        "{name}: records differ with 1 and 2 threads"
    );
}

#[test]
fn random_graphs_without_symmetry() {
    for seed in 0..6 {
        let g = GraphGame::random(seed, 3, 300, 2, 0.2, false);
        check(&g, &format!("plain{seed}"));
    }
}

#[test]
fn random_graphs_with_symmetry() {
    for seed in 10..16 {
        let g = GraphGame::random(seed, 3, 300, 2, 0.2, true);
        check(&g, &format!("sym{seed}"));
    }
}

#[test]
fn large_tier_takes_the_parallel_path() {
    // 40000 slots per tier: above the one-job threshold, so rayon splits the work.
    let g = GraphGame::random(99, 2, 40000, 2, 0.15, true);
    check(&g, "large");
}
