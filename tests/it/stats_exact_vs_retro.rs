//! Cross-check: the in-memory reachable-graph solver of `common::exact` and the
//! tiered retrograde solver of `retro` agree on the start value and distance.

use crate::common::exact::solve_reachable;
use huntsolve::retro::{solve, Scope, SolveOptions};
use huntsolve::AnyGame;
use huntsolve::NoProgress;

#[test]
fn exact_and_tiered_solvers_agree() {
    for spec in [
        "kaooa-6",
        "kaooa",
        "diviyan-keliya,board=alquerque25,hunters=1,prey=2,hunter_win=1",
        "diviyan-keliya,board=alquerque25,hunters=2,prey=2,hunter_win=1",
        "diviyan-keliya,board=alquerque25,hunters=2,prey=2,hunter_win=2",
    ] {
        let AnyGame::Hunt(g) = AnyGame::parse(spec).unwrap() else {
            panic!("{spec} is not a hunt game")
        };
        let exact = solve_reachable(&g, 5_000_000, &NoProgress).unwrap();
        let dir = std::env::temp_dir().join(format!(
            "huntsolve-xcheck-{}-{}",
            std::process::id(),
            huntsolve::stats::safe_name(spec)
        ));
        let options = SolveOptions {
            threads: 2,
            memory_limit: None,
            ..Default::default()
        };
        let report = solve(&g, &Scope::Whole, &dir, &options, &NoProgress).unwrap();
        let start = report.summary.start.expect("whole scope has the start");
        assert_eq!(start.value, exact.start_value.name(), "{spec}");
        assert_eq!(start.distance, exact.start_distance, "{spec}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// `sweep` (tiered solver, tables in a temporary directory) gives, for every
/// value of the parameter, the start value and distance of the independent
/// in-memory solver; a rerun keeps every tier from disk; a memory limit below
/// the plan refuses before solving.
#[test]
fn sweep_agrees_with_the_exact_solver_and_resumes() {
    use huntsolve::retro::SolveOptions;
    use huntsolve::stats::{run_sweep, write_sweep, SweepParam};
    let base = "diviyan-keliya,board=alquerque25,hunters=2,prey=2";
    let param = SweepParam::parse("hunter_win=1..2").unwrap();
    let root = std::env::temp_dir().join(format!("huntsolve-sweep-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let tables = root.join("tables");
    let options = SolveOptions {
        threads: 2,
        memory_limit: None,
        ..Default::default()
    };
    let first = run_sweep(base, &param, &tables, &options, "test", &NoProgress).unwrap();
    assert_eq!(first.rows.len(), 2);
    for row in &first.rows {
        let AnyGame::Hunt(g) = AnyGame::parse(&row.rules).unwrap() else {
            panic!("{} is not a hunt game", row.rules)
        };
        let exact = solve_reachable(&g, 5_000_000, &NoProgress).unwrap();
        assert_eq!(row.start_value, exact.start_value, "{}", row.rules);
        assert_eq!(row.value_side0, exact.value_for(0), "{}", row.rules);
        assert_eq!(row.start_distance, exact.start_distance, "{}", row.rules);
        assert_eq!(
            row.outcomes.wins + row.outcomes.losses + row.outcomes.draws,
            row.outcomes.classes
        );
        assert!(row.solved_now > 0 && row.resumed == 0);
    }
    // The leopards need more plies to make two captures than one.
    assert!(first.rows[1].start_distance > first.rows[0].start_distance);
    let again = run_sweep(base, &param, &tables, &options, "test", &NoProgress).unwrap();
    for (a, b) in first.rows.iter().zip(&again.rows) {
        assert_eq!(b.solved_now, 0, "{}", b.rules);
        assert_eq!(b.resumed, a.tiers);
        assert_eq!(
            (
                b.start_value,
                b.start_distance,
                b.outcomes.wins,
                b.outcomes.losses,
                b.outcomes.draws
            ),
            (
                a.start_value,
                a.start_distance,
                a.outcomes.wins,
                a.outcomes.losses,
                a.outcomes.draws
            )
        );
    }
    let files = write_sweep(&root.join("report"), &again).unwrap();
    assert!(files.iter().all(|f| f.exists()));
    let tight = SolveOptions {
        threads: 1,
        memory_limit: Some(1000),
        ..Default::default()
    };
    let fresh = root.join("other");
    assert!(matches!(
        run_sweep(base, &param, &fresh, &tight, "test", &NoProgress),
        Err(huntsolve::Error::Memory(_))
    ));
    assert!(!fresh.exists(), "nothing is solved when a plan is too big");
    let _ = std::fs::remove_dir_all(&root);
}
