//! Cross-check: the in-memory reachable-graph solver of `stats::exact` and the
//! tiered retrograde solver of `retro` agree on the start value and distance.

use huntsolve::progress::NoProgress;
use huntsolve::retro::{solve, Scope, SolveOptions};
use huntsolve::stats::exact::solve_reachable;
use huntsolve::AnyGame;

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
            huntsolve::stats::report::safe_name(spec)
        ));
        let options = SolveOptions {
            threads: 2,
            memory_limit: None,
        };
        let report = solve(&g, &Scope::Whole, &dir, &options, &NoProgress).unwrap();
        let start = report.summary.start.expect("whole scope has the start");
        assert_eq!(start.value, exact.start_value.name(), "{spec}");
        assert_eq!(start.distance, exact.start_distance, "{spec}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
