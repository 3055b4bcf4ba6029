//! `--hash` as the prover's hard memory bound: a budget too small ends a run with "out of
//! memory budget" (not a panic, not an overshoot), and every charge is returned (moved from
//! the integration tests: it reads `Prover::out_of_memory` and `Budget::used`).

use crate::game::{Game, NoOracle};
use crate::hunt::from_spec;
use crate::progress::NoProgress;
use crate::prove::{ProofTable, ProveConfig, Prover, RunOutcome, StopReason};

/// With 1 MiB, the kaooa-6 draw (its closure search needs a larger set) stops
/// out of memory under an earlier prover (plain initial numbers,
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
                    init: crate::prove::dfpn::Init::Plain,
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
        assert_eq!(v, Some(crate::game::Value::Draw));
        assert!(runs.iter().all(|r| r.stopped.is_none()));
    }
    assert_eq!(tt.budget().used(), tt.bytes());
    assert!(tt.budget().peak() <= 16 << 20);
}
