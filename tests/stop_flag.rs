//! Interrupting a solve keeps finished tiers; a rerun solves only the rest and
//! gives the same tables. Its own test binary: it sets the process's global
//! stop flag, which would interrupt any solve running beside it (in the `it`
//! binary it made `retro_checkpoint::resumed_placement_tiers_equal_an_uninterrupted_solve`
//! fail now and then with `Interrupted`).

#[allow(dead_code)]
#[path = "it/common/mod.rs"]
mod common;

use common::graph::GraphGame;
use huntsolve::retro::{load_records, solve};
use huntsolve::retro::{Scope, SolveOptions};
use huntsolve::Error;
use huntsolve::{clear_stop, request_stop, NoProgress, Progress};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Requests a stop once `after` solver stages have finished.
struct StopAfter {
    after: usize,
    seen: AtomicUsize,
}

impl Progress for StopAfter {
    fn finish_stage(&self) {
        if self.seen.fetch_add(1, Ordering::SeqCst) + 1 >= self.after {
            request_stop();
        }
    }
}

#[test]
fn interrupted_solve_resumes() {
    let g = GraphGame::random(7, 4, 500, 2, 0.3, true);
    let dir = std::env::temp_dir().join(format!("huntsolve-resume-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let opts = SolveOptions {
        threads: 1,
        memory_limit: None,
        ..Default::default()
    };
    // Each tier has two stages (scan, propagate): stop after the first tier.
    let stopper = StopAfter {
        after: 2,
        seen: AtomicUsize::new(0),
    };
    let first = solve(&g, &Scope::Whole, &dir, &opts, &stopper);
    assert!(matches!(first, Err(Error::Interrupted)), "{first:?}");
    clear_stop();
    assert!(
        load_records(&g, &dir, 3).is_ok(),
        "the finished tier is on disk"
    );
    assert!(
        load_records(&g, &dir, 0).is_err(),
        "the start tier was not reached"
    );

    let second = solve(&g, &Scope::Whole, &dir, &opts, &NoProgress).unwrap();
    assert_eq!(second.resumed, 1);
    assert_eq!(second.solved, 3);
    let third = solve(&g, &Scope::Whole, &dir, &opts, &NoProgress).unwrap();
    assert_eq!((third.solved, third.resumed), (0, 4));
    assert_eq!(third.summary.tiers, second.summary.tiers);
    assert_eq!(third.summary.start, second.summary.start);

    // A fresh solve in another directory gives byte-identical records.
    let fresh_dir = dir.with_extension("fresh");
    let _ = std::fs::remove_dir_all(&fresh_dir);
    solve(&g, &Scope::Whole, &fresh_dir, &opts, &NoProgress).unwrap();
    for t in 0..4 {
        assert_eq!(
            load_records(&g, &dir, t).unwrap(),
            load_records(&g, &fresh_dir, t).unwrap()
        );
    }

    // The memory check refuses politely.
    let tight = SolveOptions {
        threads: 1,
        memory_limit: Some(1000),
        ..Default::default()
    };
    let refused = solve(&g, &Scope::Whole, &fresh_dir, &tight, &NoProgress);
    assert!(matches!(refused, Err(Error::Memory(_))), "{refused:?}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&fresh_dir);
}
