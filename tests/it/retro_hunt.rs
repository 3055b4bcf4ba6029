//! Hunt games solved tier by tier and checked against exhaustive search over
//! every position reachable from the start (a different algorithm, sharing no
//! code with the solver), and the same records with 1 and 2 threads.

use huntsolve::decode;
use huntsolve::game::Game;
use huntsolve::game::Notation;
use huntsolve::hunt::{from_spec, HuntPos};
use huntsolve::retro::{load_records, solve, Compact};
use huntsolve::retro::{Scope, Solvable, SolveOptions, TierGame};
use huntsolve::NoProgress;

fn check_whole(spec: &str) {
    let g = from_spec(spec).unwrap();
    let reference = crate::common::retro::exhaustive(&g, &[g.start()]);
    let mut per_threads = Vec::new();
    for threads in [1, 2] {
        let dir = std::env::temp_dir().join(format!(
            "huntsolve-hunt-{}-{threads}-{}",
            spec.replace([',', '=', '>'], "_"),
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let opts = SolveOptions {
            threads,
            memory_limit: None,
            ..Default::default()
        };
        let report = solve(&g, &Scope::Whole, &dir, &opts, &NoProgress).unwrap();
        let tiers = g.scope_tiers(&Scope::Whole).unwrap();
        // Terminal tiers are not stored; their positions' values are their outcomes.
        let records: std::collections::BTreeMap<_, _> = tiers
            .iter()
            .filter(|&&t| !g.tier_is_terminal(t))
            .map(|&t| (t, load_records(&g, &dir, t).unwrap()))
            .collect();
        assert!(tiers.iter().any(|&t| g.tier_is_terminal(t)), "{spec}");
        for &t in &tiers {
            let stored = dir.join(format!("{}.hst", g.tier_name(t))).exists();
            assert_eq!(stored, !g.tier_is_terminal(t), "{spec}: {}", g.tier_name(t));
        }
        for (pos, &want) in &reference {
            let t = g.tier_of(pos);
            let got = if g.tier_is_terminal(t) {
                g.outcome(pos).map(|v| (v, 0))
            } else {
                decode(records[&t][g.rank(t, pos) as usize])
            };
            assert_eq!(got, Some(want), "{spec}: {}", g.format_position(pos));
        }
        let (v, d) = reference[&g.start()];
        let start = report.summary.start.clone().unwrap();
        assert_eq!((start.value.as_str(), start.distance), (v.name(), d));
        // The table layer's verifier (independent code) agrees with every record.
        let v = huntsolve::table::verify_dir(&g, &dir, &NoProgress).unwrap();
        assert!(v.all_agree(), "{spec}: {} mismatches", v.mismatches);
        assert!(v.positions > 0);
        per_threads.push(records);
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert_eq!(per_threads[0], per_threads[1], "{spec}: 1 vs 2 threads");
}

#[test]
fn kaooa_6_matches_exhaustive_search() {
    check_whole("kaooa-6");
}

#[test]
fn kaooa_matches_exhaustive_search() {
    check_whole("kaooa");
}

/// About 85 s in the test profile on a loaded 2-core machine (run by `cargo test`).
#[test]
fn small_alquerque_game_matches_exhaustive_search() {
    // 2 hunters dropped, 3 prey, chains: captures by chains leave for later tiers.
    check_whole(
        "bagh-chal,hunters=2,hunter_start=hand,prey=3,hunter_win=captures>=2,chain=continue",
    );
}

/// A memory limit below the parallel estimate but above the one-tier-at-a-time
/// estimate solves waves in batches, with the same records; below that it refuses.
#[test]
fn memory_limit_batches_waves_with_the_same_records() {
    let g = from_spec("kaooa-6").unwrap();
    let plan = huntsolve::retro::plan(&g, &Scope::Whole).unwrap();
    assert!(
        plan.memory_serial < plan.memory,
        "{} {}",
        plan.memory_serial,
        plan.memory
    );
    // Every tier's records in a solved directory, in plan order.
    let tables = |dir: &std::path::Path| -> Vec<Vec<u16>> {
        plan.waves
            .iter()
            .flatten()
            .map(|&t| load_records(&g, dir, t).unwrap())
            .collect()
    };
    let mut records = Vec::new();
    for limit in [None, Some(plan.memory_serial)] {
        let dir = std::env::temp_dir().join(format!(
            "huntsolve-batch-{}-{}",
            limit.is_some(),
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let opts = SolveOptions {
            threads: 2,
            memory_limit: limit,
            ..Default::default()
        };
        let report = solve(&g, &Scope::Whole, &dir, &opts, &NoProgress).unwrap();
        assert_eq!(report.solved, plan.tiers());
        let all = tables(&dir);
        records.push((all, report.summary.start.clone()));
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert_eq!(records[0], records[1]);
    // Below the largest tier's estimate: refused without the compact solver,
    // solved with it (`auto`: only the tiers over the limit) with the same
    // records; below the compact estimate, solved with the largest tiers'
    // child records held sparse (same records again), and refused below that
    // estimate.
    let dir = std::env::temp_dir().join(format!("huntsolve-batch-no-{}", std::process::id()));
    let tight = |limit: u64, compact: Compact| SolveOptions {
        threads: 1,
        memory_limit: Some(limit),
        compact,
        ..Default::default()
    };
    assert!(plan.memory_compact < plan.memory_serial);
    assert!(
        plan.memory_sparse < plan.memory_compact,
        "{} {}",
        plan.memory_sparse,
        plan.memory_compact
    );
    for (limit, compact) in [
        (plan.memory_serial - 1, Compact::Never),
        (plan.memory_sparse - 1, Compact::Auto),
        (plan.memory_sparse - 1, Compact::Always),
    ] {
        let _ = std::fs::remove_dir_all(&dir);
        let err = solve(&g, &Scope::Whole, &dir, &tight(limit, compact), &NoProgress).unwrap_err();
        assert!(matches!(err, huntsolve::Error::Memory(_)), "{err}");
        // kaooa-6's sparse estimate is below its ranking tables' size, which
        // are refused first.
        let text = err.to_string();
        assert!(
            text.contains("one tier at a time") || text.contains("ranking tables alone"),
            "{err}"
        );
    }
    for (limit, compact) in [
        (plan.memory_serial - 1, Compact::Auto),
        (plan.memory_compact, Compact::Always),
        (plan.memory_compact - 1, Compact::Auto),
        (plan.memory_compact - 1, Compact::Always),
    ] {
        let _ = std::fs::remove_dir_all(&dir);
        let report = solve(&g, &Scope::Whole, &dir, &tight(limit, compact), &NoProgress).unwrap();
        assert_eq!(report.solved, plan.tiers());
        let all = tables(&dir);
        assert!(
            (all, report.summary.start.clone()) == records[0],
            "{compact:?}: records differ"
        );
        assert_eq!(
            report.summary.tiers.len(),
            plan.tiers(),
            "{compact:?}: summary"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A tier past 2^32 slots (7 cows on the 49-point board, 21.6 G slots):
/// rank and unrank round trip on slots above 2^32 and on the last pair, and the
/// enumeration of consecutive slots gives the positions `unrank` gives, but for
/// the hash, which it may leave unset (no solve:
/// the tier would need about 87 GB of solver state).
#[test]
fn sixty_four_bit_index_round_trip_past_two_to_the_32() {
    let g = from_spec("cows-leopards-peralikatuma").unwrap();
    let t = g.parse_tier("h0p0c17").unwrap();
    let size = g.tier_size(t);
    assert!(size > 1 << 34, "{size}");
    let mut rng = huntsolve::Rng::new(17);
    let mut checked = 0;
    let mut starts: Vec<u64> = (0..200)
        .map(|_| (1 << 32) + rng.below((size - (1 << 32) - 64) as usize) as u64)
        .collect();
    starts.push(size - 64);
    for start in starts {
        let mut seen = Vec::new();
        g.for_each_slot(t, start..start + 64, None, &mut |i, p| {
            seen.push((i, *p));
            Ok(())
        })
        .unwrap();
        for i in start..start + 64 {
            let got = g.unrank(t, i);
            // The same position; the enumeration may leave the hash unset (0).
            let text = |p: Option<&HuntPos>| p.map(|p| g.format_position(p));
            let swept = seen.iter().find(|s| s.0 == i).map(|s| &s.1);
            assert_eq!(text(got.as_ref()), text(swept), "slot {i}");
            if let Some(p) = got {
                assert!(i > u32::MAX as u64);
                assert_eq!(g.rank(t, &p), i, "slot {i}: {}", g.format_position(&p));
                checked += 1;
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}
