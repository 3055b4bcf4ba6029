//! `--hash` as the prover's hard memory bound: a budget too small ends a run
//! with "out of memory budget" (not a panic, not an overshoot), and the
//! certificate builder with a clear error.

use huntsolve::game::{Game, NoOracle};
use huntsolve::hunt::from_spec;
use huntsolve::progress::NoProgress;
use huntsolve::prove::{ProofTable, ProveConfig, Prover, RunOutcome, StopReason};

/// With 1 MiB, the kaooa-6 draw (its closure search needs a larger set) stops
/// out of memory under the prover of before issue 23 (plain initial numbers,
/// no symmetry classes, no win-in-one test: with them the set is about ten
/// times smaller and fits); with 16 MiB it is proven. Every charge is returned when the
/// runs end (only the table's own bytes stay charged), and the peak never
/// passed the bound.
#[test]
fn a_tiny_budget_stops_the_run_and_every_charge_is_returned() {
    let g = from_spec("kaooa-6").unwrap();
    let start = g.start();
    for (mib, threads, closure) in [(1, 1, true), (1, 2, true), (1, 1, false)] {
        let tt = ProofTable::new(mib);
        {
            let p = Prover::new(
                &g,
                &NoOracle,
                &tt,
                ProveConfig {
                    threads,
                    closure,
                    nodes: Some(3_000_000),
                    symmetry: false,
                    init: huntsolve::prove::dfpn::Init::Plain,
                    quick_check: false,
                    ..Default::default()
                },
            );
            let (v, runs) = p.value(&start, &NoProgress);
            assert_eq!(v, None, "{mib} MiB, {threads} threads, closure {closure}");
            let last = runs.last().unwrap();
            assert_eq!(last.outcome, RunOutcome::Unknown);
            assert_eq!(last.stopped, Some(StopReason::Memory), "{last:?}");
            assert!(p.out_of_memory());
            assert!(last.memory_peak_bytes <= tt.budget().cap());
            assert!(last.memory_peak_bytes > tt.bytes(), "work was charged");
        }
        assert_eq!(tt.budget().cap(), mib << 20);
        assert_eq!(tt.budget().used(), tt.bytes(), "charges returned");
    }
    let tt = ProofTable::new(16);
    {
        let p = Prover::new(&g, &NoOracle, &tt, ProveConfig::default());
        let (v, runs) = p.value(&start, &NoProgress);
        assert_eq!(v, Some(huntsolve::game::Value::Draw));
        assert!(runs.iter().all(|r| r.stopped.is_none()));
    }
    assert_eq!(tt.budget().used(), tt.bytes());
    assert!(tt.budget().peak() <= 16 << 20);
}

/// The command line: an unknown value with the reason (text and JSON), and a
/// certificate too large for the budget refused with exit status 2 (with the
/// prover of before issue 23, see above).
#[test]
fn prove_command_reports_out_of_memory_budget() {
    use crate::common::table::run;
    const OLD: [&str; 4] = ["--init", "plain", "--no-symmetry", "--no-quick-check"];
    let args =
        |a: &[&'static str]| -> Vec<&'static str> { a.iter().chain(&OLD).copied().collect() };
    let (code, out, err) = run(&args(&[
        "prove", "kaooa-6", "start", "--hash", "1", "--json",
    ]));
    assert_eq!(code, 0, "{err}");
    let j: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(j["value"], "unknown");
    assert_eq!(j["runs"][0]["stopped"], "memory");
    assert_eq!(j["memory_budget_bytes"], 1 << 20);
    assert!(j["memory_budget_peak_bytes"].as_u64().unwrap() <= 1 << 20);
    let (code, out, _) = run(&args(&["prove", "kaooa-6", "start", "--hash", "1"]));
    assert_eq!(code, 0);
    assert!(out.contains("(out of memory budget)"), "{out}");
    // `query --exact` uses the default prover, whose symmetric table now holds
    // the kaooa-6 draw in 1 MiB (before issue 23: "stopped: out of memory budget").
    let (code, out, _) = run(&["query", "kaooa-6", "start", "--exact", "--hash", "1"]);
    assert_eq!(code, 0);
    assert!(out.contains("draw"), "{out}");
    // 3 MiB proves the draw, but its certificate does not fit beside the table.
    let dir = std::env::temp_dir().join(format!("huntsolve-prove-mem-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("k6.proof");
    let fs = f.to_str().unwrap();
    let mut a = vec!["prove", "kaooa-6", "start", "--hash", "3", "--save", fs];
    a.extend(OLD);
    let (code, _, err) = run(&a);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("out of memory budget"), "{err}");
    assert!(!f.with_extension("proof.prey").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
