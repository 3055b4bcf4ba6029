//! The per-tier step an MPI worker runs (`solve_tier_alone`: children read from
//! disk, the tier solved as the one-process driver would, full or compact),
//! tier by tier in the manager's order, gives the tables and summary of the
//! one-process `solve`; and `solve --mpi` in a build
//! without the `mpi` feature says how to get one. The MPI runs themselves are in
//! `scripts/mpi-check.sh` (they need Open MPI and `mpirun`).

use crate::common::graph::GraphGame;
use huntsolve::retro::{
    kept_tier, load_records, make_summary, plan, solve, solve_tier_alone, Compact,
};
use huntsolve::retro::{Scope, SolveOptions};
use huntsolve::NoProgress;
use std::collections::{BTreeMap, HashMap};

#[test]
fn tier_by_tier_from_disk_equals_solve() {
    let g = GraphGame::random(11, 5, 400, 2, 0.3, true);
    let base = std::env::temp_dir().join(format!("huntsolve-cluster-{}", std::process::id()));
    let (one, steps) = (base.join("one"), base.join("steps"));
    let _ = std::fs::remove_dir_all(&base);
    let opts = SolveOptions {
        threads: 1,
        memory_limit: None,
        ..Default::default()
    };
    let report = solve(&g, &Scope::Whole, &one, &opts, &NoProgress).unwrap();

    let p = plan(&g, &Scope::Whole).unwrap();
    // The full solver, and the compact one for every tier (what a worker over
    // its limit runs), give the same tables.
    for compact in [Compact::Never, Compact::Always] {
        let steps = steps.join(format!("{compact:?}"));
        std::fs::create_dir_all(&steps).unwrap();
        let worker = SolveOptions {
            compact,
            ..opts.clone()
        };
        let mut loaded = HashMap::new();
        let mut done = BTreeMap::new();
        for &t in p.waves.iter().flatten() {
            assert_eq!(
                kept_tier(&g, t, &steps).unwrap(),
                None,
                "tier {t} not yet written"
            );
            let summary =
                solve_tier_alone(&g, t, &steps, &worker, &mut loaded, &NoProgress).unwrap();
            assert_eq!(
                load_records(&g, &steps, t).unwrap(),
                load_records(&g, &one, t).unwrap(),
                "{compact:?}: tier {t}"
            );
            // What a rerun's manager would keep is what the worker reported,
            // and a tier given out again is kept, not solved again.
            assert_eq!(kept_tier(&g, t, &steps).unwrap().as_ref(), Some(&summary));
            let again = solve_tier_alone(&g, t, &steps, &worker, &mut loaded, &NoProgress);
            assert_eq!(again.unwrap(), summary);
            done.insert(t, summary);
        }
        let summary = make_summary(&g, &p, &done, None);
        let strip = |s: &huntsolve::retro::Summary| {
            s.tiers
                .iter()
                .map(|t| (t.tier.clone(), t.positions, t.outcomes))
                .collect::<Vec<_>>()
        };
        assert_eq!(strip(&summary), strip(&report.summary), "{compact:?}");
    }
    let _ = std::fs::remove_dir_all(&base);
}

#[cfg(not(feature = "mpi"))]
#[test]
fn mpi_flag_without_the_feature_is_refused_clearly() {
    let (code, _out, err) = crate::common::run(&["solve", "kaooa", "--mpi"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--features mpi"), "{err}");
}

#[test]
fn split_tiers_without_mpi_is_refused_clearly() {
    let (code, _out, err) = crate::common::run(&["solve", "kaooa", "--split-tiers"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--split-tiers") && err.contains("--mpi"),
        "{err}"
    );
}
