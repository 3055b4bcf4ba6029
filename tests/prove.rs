//! The df-pn prover against solved tables and hand-built cyclic graphs, and
//! its certificates against the independent checker.

use huntsolve::game::{Game, NoOracle, Oracle, Value};
use huntsolve::hunt::from_spec;
use huntsolve::progress::NoProgress;
use huntsolve::prove::{ProofTable, ProveConfig, Prover};
use huntsolve::retro::driver::solve;
use huntsolve::retro::{Scope, SolveOptions};
use huntsolve::table::TableOracle;

fn solved(spec: &str) -> (huntsolve::hunt::HuntGame, std::path::PathBuf) {
    let g = from_spec(spec).unwrap();
    let dir = std::env::temp_dir().join(format!("huntsolve-prove-{spec}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let opts = SolveOptions {
        threads: 1,
        memory_limit: None,
    };
    solve(&g, &Scope::Whole, &dir, &opts, &NoProgress).unwrap();
    (g, dir)
}

#[test]
fn kaooa_starts_equal_the_tables() {
    for spec in ["kaooa", "kaooa-6"] {
        let (g, dir) = solved(spec);
        let oracle = TableOracle::new(&g, &dir).unwrap();
        let start = g.start();
        let want = oracle.probe(&g, &start).unwrap();
        let tt = ProofTable::new(16);
        let p = Prover::new(
            &g,
            &NoOracle,
            &tt,
            ProveConfig {
                nodes: Some(2_000_000),
                ..Default::default()
            },
        );
        let (v, runs) = p.value(&start, &NoProgress);
        eprintln!("{spec}: table {want:?}, prover {v:?} {runs:?}");
        assert_eq!(v, Some(want.0), "{spec}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn debug_kaooa6() {
    let g = from_spec("kaooa-6").unwrap();
    let start = g.start();
    let tt = ProofTable::new(16);
    for n in [10_000u64, 100_000, 1_000_000] {
        tt.clear();
        let p = Prover::new(&g, &NoOracle, &tt, ProveConfig { nodes: Some(n), ..Default::default() });
        let r = p.prove_side(&start, 1, &NoProgress);
        eprintln!("{n}: {:?}", r);
        eprintln!("{:?}", p.debug_children(&start, 1));
    }
}
