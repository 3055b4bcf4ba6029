//! One tier solved in parts (`retro::split`) with the in-process transport (the
//! parts as threads): the records joined from 2 and 3 parts are those of the
//! one-process solver, for kaooa's largest tier, a tier of the mogol board and a
//! Bagh-Chal movement tier; a whole scope solved split into a directory gives
//! the tables of `solve`; a part failing mid-tier fails every part with its
//! error, and a rerun resumes and gives the same records; a memory limit below
//! what one process needs is enough for each of 3 parts. The MPI runs are in
//! `scripts/mpi-check.sh`.

use huntsolve::retro::{load_records, plan, solve, Compact};
use huntsolve::retro::{
    part_memory, run_parts, solve_part, solve_split, PartResult, SplitOptions, SplitSolveOptions,
    Threads, Transport,
};
use huntsolve::retro::{solve_tier, ChildValues, Scope, Solvable, SolveOptions, TierGame};
use huntsolve::NoProgress;
use huntsolve::{Error, Result};
use std::path::PathBuf;
use std::sync::Arc;

/// The one-process records of every tier of `scope` (plan order), and the
/// children of the largest tier (or of `pick`).
fn one_process<G: Solvable>(
    game: &G,
    scope: &Scope,
    pick: Option<&str>,
) -> (G::Tier, Vec<u16>, ChildValues<G::Tier>) {
    let plan = plan(game, scope).unwrap();
    let order: Vec<G::Tier> = plan.waves.iter().flatten().copied().collect();
    let target = match pick {
        Some(name) => game.parse_tier(name).unwrap(),
        None => *order.iter().max_by_key(|&&t| game.tier_size(t)).unwrap(),
    };
    let mut all = std::collections::HashMap::new();
    for &t in &order {
        let mut children = ChildValues::new();
        for c in game.stored_children(t) {
            children.insert(c, Arc::clone(&all[&c]));
        }
        let res = solve_tier(game, t, &children, &NoProgress).unwrap();
        if t == target {
            return (t, res.records, children);
        }
        all.insert(t, Arc::new(res.records));
    }
    panic!("tier not in the plan");
}

/// `tier` solved in `parts` parts (batches of `batch` children), the parts' records joined.
fn split_records<G: Solvable>(
    game: &G,
    tier: G::Tier,
    children: &ChildValues<G::Tier>,
    parts: usize,
    batch: usize,
) -> (Vec<u16>, Vec<PartResult>) {
    let opts = SplitOptions {
        batch,
        pool: None,
        ..Default::default()
    };
    let results = run_parts(parts, 1, &|t: &mut Threads| {
        solve_part(game, tier, children, t, &opts, &NoProgress)
    });
    let results: Vec<PartResult> = results.into_iter().map(|r| r.unwrap()).collect();
    let mut joined = Vec::new();
    for r in &results {
        assert_eq!(r.range.start as usize, joined.len());
        joined.extend_from_slice(&r.records);
    }
    (joined, results)
}

/// `crosses`: some predecessor update must cross parts (a tier whose in-tier
/// moves are few may have none).
fn check_split(spec: &str, scope: Scope, pick: Option<&str>, crosses: bool) {
    let g = huntsolve::hunt::from_spec(spec).unwrap();
    let (tier, want, children) = one_process(&g, &scope, pick);
    let want_stats = huntsolve::Outcomes::of_records(&want);
    assert!(want_stats.classes > 0);
    // Small batches (many exchange rounds a level) on the small tiers only.
    let small = if g.tier_size(tier) < 200_000 {
        7
    } else {
        1 << 16
    };
    for (parts, batch) in [(2, 1 << 16), (3, small)] {
        let (got, results) = split_records(&g, tier, &children, parts, batch);
        assert!(
            got == want,
            "{spec} tier {} in {parts} parts: records differ at slot {:?}",
            g.tier_name(tier),
            got.iter().zip(&want).position(|(a, b)| a != b)
        );
        for r in &results {
            assert_eq!(r.stats.outcomes, want_stats);
            assert_eq!(r.stats.levels, results[0].stats.levels);
        }
        let sent: u64 = results.iter().map(|r| r.traffic.remote_updates).sum();
        assert!(!crosses || sent > 0, "{spec}: no update crossed parts");
    }
}

#[test]
fn kaooa_largest_tier_split_equals_one_process() {
    check_split("kaooa", Scope::Whole, None, false);
}

#[test]
fn mogol_board_tier_split_equals_one_process() {
    // The 37-point board with 3 cows left (1 cow is the end): a movement tier of 2.5 M slots.
    check_split(
        "cows-leopards-mogol,hunter_win=captures>=22",
        Scope::MaxPrey(3),
        None,
        true,
    );
}

#[test]
fn bagh_chal_movement_tier_split_equals_one_process() {
    // 2 goats left of 3 (1 is the end): a movement tier of 0.7 M slots.
    check_split(
        "bagh-chal,prey=3,hunter_win=captures>=2",
        Scope::Movement,
        Some("h0p0c1"),
        true,
    );
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("huntsolve-split-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn same_tables<G: Solvable>(game: &G, scope: &Scope, a: &std::path::Path, b: &std::path::Path) {
    let p = plan(game, scope).unwrap();
    for &t in p.waves.iter().flatten() {
        assert_eq!(
            load_records(game, a, t).unwrap(),
            load_records(game, b, t).unwrap(),
            "tier {}",
            game.tier_name(t)
        );
    }
}

fn split_solve<G: Solvable>(
    game: &G,
    scope: &Scope,
    dir: &std::path::Path,
    parts: usize,
    limit: Option<u64>,
) -> Vec<Result<Option<huntsolve::retro::SolveReport>>> {
    split_solve_with(game, scope, dir, parts, limit, SplitOptions::default())
}

fn split_solve_with<G: Solvable>(
    game: &G,
    scope: &Scope,
    dir: &std::path::Path,
    parts: usize,
    limit: Option<u64>,
    split: SplitOptions,
) -> Vec<Result<Option<huntsolve::retro::SolveReport>>> {
    let opts = SplitSolveOptions {
        memory_limit: limit,
        split: SplitOptions {
            batch: 1000,
            ..split
        },
        ..Default::default()
    };
    run_parts(parts, 1, &|t: &mut Threads| {
        solve_split(game, scope, dir, t, &opts, &|_| {}, &NoProgress)
    })
}

#[test]
fn scope_solved_split_equals_solve_and_resumes() {
    let g = huntsolve::hunt::from_spec("kaooa").unwrap();
    let scope = Scope::Whole;
    let (one, split) = (temp_dir("one"), temp_dir("split"));
    let opts = SolveOptions {
        threads: 1,
        ..Default::default()
    };
    let report = solve(&g, &scope, &one, &opts, &NoProgress).unwrap();
    let results = split_solve(&g, &scope, &split, 3, None);
    let mut results = results.into_iter();
    let first = results.next().unwrap().unwrap().expect("part 0 reports");
    for r in results {
        assert!(r.unwrap().is_none());
    }
    same_tables(&g, &scope, &one, &split);
    assert_eq!(first.summary.start, report.summary.start);
    let strip = |s: &huntsolve::retro::Summary| {
        s.tiers
            .iter()
            .map(|t| (t.tier.clone(), t.positions, t.outcomes))
            .collect::<Vec<_>>()
    };
    assert_eq!(strip(&first.summary), strip(&report.summary));
    // No part file is left behind.
    let leftovers: Vec<_> = std::fs::read_dir(&split)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".p"))
        .filter(|e| !e.file_name().to_string_lossy().ends_with(".hst"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    assert!(!split.join(huntsolve::retro::UNFINISHED_MARK).exists());

    // A rerun keeps every table.
    let again = split_solve(&g, &scope, &split, 2, None);
    let r = again.into_iter().next().unwrap().unwrap().unwrap();
    assert_eq!((r.solved, r.resumed), (0, first.solved));

    // Part files of a tier whose table is gone are joined again, not solved.
    let p = plan(&g, &scope).unwrap();
    let last = *p.waves.iter().flatten().last().unwrap();
    let name = g.tier_name(last);
    let table = huntsolve::table::table_path(&split, &name);
    std::fs::remove_file(&table).unwrap();
    // As a run killed on that tier leaves it: its mark, which the rerun reports.
    let mark = split.join(huntsolve::retro::UNFINISHED_MARK);
    std::fs::write(&mark, format!("{name}\n")).unwrap();
    // (Write the parts by solving the tier alone again: same records.)
    let mut children = ChildValues::new();
    for c in g.stored_children(last) {
        children.insert(c, Arc::new(load_records(&g, &split, c).unwrap()));
    }
    let events = std::sync::Mutex::new(Vec::new());
    let opts = SplitSolveOptions::default();
    let results = run_parts(2, 1, &|t: &mut Threads| {
        solve_split(
            &g,
            &scope,
            &split,
            t,
            &opts,
            &|e| events.lock().unwrap().push(format!("{e:?}")),
            &NoProgress,
        )
    });
    for r in results {
        r.unwrap();
    }
    same_tables(&g, &scope, &one, &split);
    let events = events.into_inner().unwrap();
    assert!(
        events
            .iter()
            .any(|e| e.contains(&name) && e.contains("joined_only: false")),
        "{events:?}"
    );
    assert!(
        events
            .iter()
            .any(|e| e.contains(&format!("unfinished: Some({name:?})"))),
        "the rerun does not name the unfinished tier: {events:?}"
    );
    assert!(
        !mark.exists(),
        "a finished solve leaves its unfinished-tier mark"
    );
    let _ = std::fs::remove_dir_all(&one);
    let _ = std::fs::remove_dir_all(&split);
}

/// A transport that fails part `victim` at its `after`-th exchange, as a killed
/// rank would leave its peers.
struct Failing<'a> {
    inner: &'a mut Threads,
    victim: usize,
    after: u64,
    count: u64,
}

impl Transport for Failing<'_> {
    fn part(&self) -> usize {
        self.inner.part()
    }
    fn parts(&self) -> usize {
        self.inner.parts()
    }
    fn exchange(&mut self, out: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>> {
        self.count += 1;
        if self.part() == self.victim && self.count == self.after {
            self.inner.leave();
            return Err(Error::Cluster("part lost (test)".into()));
        }
        self.inner.exchange(out)
    }
}

#[test]
fn a_part_lost_mid_tier_fails_all_and_a_rerun_gives_the_same_records() {
    let g = huntsolve::hunt::from_spec("kaooa").unwrap();
    let scope = Scope::Whole;
    let (one, split) = (temp_dir("one-f"), temp_dir("split-f"));
    let opts = SolveOptions {
        threads: 1,
        ..Default::default()
    };
    solve(&g, &scope, &one, &opts, &NoProgress).unwrap();
    let sopts = SplitSolveOptions {
        memory_limit: None,
        split: SplitOptions {
            batch: 1000,
            ..Default::default()
        },
        ..Default::default()
    };
    // Far enough in to be inside some tier's levels.
    let results = run_parts(3, 1, &|t: &mut Threads| {
        let mut f = Failing {
            inner: t,
            victim: 1,
            after: 400,
            count: 0,
        };
        solve_split(&g, &scope, &split, &mut f, &sopts, &|_| {}, &NoProgress)
    });
    for (k, r) in results.iter().enumerate() {
        let e = r
            .as_ref()
            .err()
            .unwrap_or_else(|| panic!("part {k} succeeded"));
        assert!(matches!(e, Error::Cluster(_)), "part {k}: {e}");
    }
    let p = plan(&g, &scope).unwrap();
    let tables = p
        .waves
        .iter()
        .flatten()
        .filter(|&&t| huntsolve::table::table_path(&split, &g.tier_name(t)).exists())
        .count();
    assert!(tables > 0 && tables < p.tiers(), "{tables} tables");
    let rerun = split_solve(&g, &scope, &split, 3, None);
    let r = rerun.into_iter().next().unwrap().unwrap().unwrap();
    assert_eq!(r.resumed, tables);
    same_tables(&g, &scope, &one, &split);
    let _ = std::fs::remove_dir_all(&one);
    let _ = std::fs::remove_dir_all(&split);
}

#[test]
fn parts_fit_a_limit_one_process_refuses() {
    let g = huntsolve::hunt::from_spec("kaooa").unwrap();
    let scope = Scope::Whole;
    let p = plan(&g, &scope).unwrap();
    let order: Vec<_> = p.waves.iter().flatten().copied().collect();
    let need3 = order
        .iter()
        .map(|&t| part_memory(&g, t, 3, false).unwrap())
        .max()
        .unwrap();
    assert!(need3 < p.memory_serial, "{need3} vs {}", p.memory_serial);
    let limit = need3;
    let dir = temp_dir("limit");
    let opts = SolveOptions {
        threads: 1,
        memory_limit: Some(limit),
        compact: Compact::Never,
        ..Default::default()
    };
    let e = solve(&g, &scope, &dir, &opts, &NoProgress).unwrap_err();
    assert!(matches!(e, Error::Memory(_)), "{e}");
    let full = SplitOptions {
        compact: false,
        ..Default::default()
    };
    for r in split_solve_with(&g, &scope, &dir, 3, Some(limit), full.clone()) {
        r.unwrap();
    }
    // Two parts need more than the limit: every part refuses with the reason.
    let dir2 = temp_dir("limit2");
    for r in split_solve_with(&g, &scope, &dir2, 2, Some(limit), full) {
        let e = r.unwrap_err().to_string();
        assert!(
            e.contains("split into 2 parts") || e.contains("part"),
            "{e}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&dir2);
}

/// The scope solved in one process and split (on the compact encoding) into
/// 2 and 3 parts: the same tables; no part or checkpoint file left.
fn check_compact_split<G: Solvable>(game: &G, scope: &Scope, tag: &str) {
    let one = temp_dir(&format!("c1-{tag}"));
    let opts = SolveOptions {
        threads: 1,
        ..Default::default()
    };
    solve(game, scope, &one, &opts, &NoProgress).unwrap();
    for parts in [2, 3] {
        let dir = temp_dir(&format!("c{parts}-{tag}"));
        let split = SplitOptions {
            checkpoint_every: Some(std::time::Duration::ZERO),
            ..Default::default()
        };
        let events = std::sync::Mutex::new(Vec::new());
        let opts = SplitSolveOptions {
            split: SplitOptions {
                batch: 1000,
                ..split
            },
            ..Default::default()
        };
        let results = run_parts(parts, 1, &|t: &mut Threads| {
            let observe =
                |e: &huntsolve::retro::SplitEvent| events.lock().unwrap().push(format!("{e:?}"));
            solve_split(game, scope, &dir, t, &opts, &observe, &NoProgress)
        });
        for r in results {
            r.unwrap();
        }
        same_tables(game, scope, &one, &dir);
        // Every tier went the compact way (none given up to the full solver).
        let events = events.into_inner().unwrap();
        let solved: Vec<_> = events.iter().filter(|e| e.starts_with("Solved")).collect();
        assert!(!solved.is_empty());
        assert!(
            solved.iter().all(|e| e.contains("compact: true")),
            "{tag}: {solved:?}"
        );
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains(".p") && !n.ends_with(".hst"))
            .collect();
        assert!(left.is_empty(), "{tag} in {parts} parts left {left:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
    let _ = std::fs::remove_dir_all(&one);
}

#[test]
fn compact_split_equals_one_process_on_the_differential_cases() {
    check_compact_split(
        &huntsolve::hunt::from_spec("kaooa").unwrap(),
        &Scope::Whole,
        "kaooa",
    );
    check_compact_split(
        &huntsolve::hunt::from_spec("cows-leopards-mogol,hunter_win=captures>=22").unwrap(),
        &Scope::MaxPrey(3),
        "mogol",
    );
    check_compact_split(
        &huntsolve::hunt::from_spec("bagh-chal,prey=2,hunter_win=captures>=2").unwrap(),
        &Scope::Movement,
        "bagh",
    );
    check_compact_split(
        &huntsolve::tafl::from_spec("caikaboroda").unwrap(),
        &Scope::Material {
            attackers: 2,
            defenders: 0,
        },
        "caik",
    );
}

#[test]
fn a_compact_split_stopped_at_a_level_resumes_from_its_checkpoints() {
    let g = huntsolve::hunt::from_spec("cows-leopards-mogol,hunter_win=captures>=22").unwrap();
    let scope = Scope::MaxPrey(3);
    let (one, dir) = (temp_dir("stop-one"), temp_dir("stop-split"));
    let opts = SolveOptions {
        threads: 1,
        ..Default::default()
    };
    solve(&g, &scope, &one, &opts, &NoProgress).unwrap();
    let every = Some(std::time::Duration::ZERO);
    let stopping = SplitOptions {
        checkpoint_every: every,
        stop_at: Some(3),
        ..Default::default()
    };
    for r in split_solve_with(&g, &scope, &dir, 3, None, stopping) {
        assert!(matches!(r, Err(Error::Interrupted)), "{:?}", r.err());
    }
    let ckpts = || -> Vec<String> {
        std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("of3.c"))
            .collect()
    };
    let at_stop = ckpts();
    assert_eq!(at_stop.len(), 3, "one checkpoint a part: {at_stop:?}");
    let boundary = |n: &String| n.rsplit(".c").next().unwrap().to_string();
    assert!(
        at_stop.iter().all(|n| boundary(n) == boundary(&at_stop[0])),
        "{at_stop:?}"
    );
    // A checkpoint of another boundary beside them is not mixed in.
    let stray = dir.join(format!(
        "{}999",
        at_stop[0].trim_end_matches(char::is_numeric)
    ));
    std::fs::write(&stray, b"not a checkpoint").unwrap();
    let plain_again = || SplitOptions {
        checkpoint_every: every,
        ..Default::default()
    };
    let plain = plain_again();
    for r in split_solve_with(&g, &scope, &dir, 3, None, plain.clone()) {
        r.unwrap();
    }
    same_tables(&g, &scope, &one, &dir);
    assert!(ckpts().is_empty(), "{:?}", ckpts());

    // A damaged checkpoint starts the tier over, with the same records.
    let dir2 = temp_dir("stop-damaged");
    let stopping = SplitOptions {
        checkpoint_every: every,
        stop_at: Some(2),
        ..Default::default()
    };
    for r in split_solve_with(&g, &scope, &dir2, 2, None, stopping) {
        assert!(matches!(r, Err(Error::Interrupted)));
    }
    let c = std::fs::read_dir(&dir2)
        .unwrap()
        .filter_map(|e| e.ok())
        .find(|e| e.file_name().to_string_lossy().contains("p1of2.c"))
        .unwrap()
        .path();
    let mut bytes = std::fs::read(&c).unwrap();
    let n = bytes.len();
    bytes[n - 10] ^= 0x55;
    std::fs::write(&c, bytes).unwrap();
    for r in split_solve_with(&g, &scope, &dir2, 2, None, plain) {
        r.unwrap();
    }
    same_tables(&g, &scope, &one, &dir2);

    // Stopped during the scan: each part keeps its own scan checkpoint, and
    // the rerun goes on from it to the same records.
    let dir3 = temp_dir("stop-scan");
    let stopping = SplitOptions {
        checkpoint_every: every,
        stop_scan_after: Some(20),
        ..Default::default()
    };
    for r in split_solve_with(&g, &scope, &dir3, 3, None, stopping) {
        assert!(matches!(r, Err(Error::Interrupted)), "{:?}", r.err());
    }
    let scans = |d: &std::path::Path| -> usize {
        std::fs::read_dir(d)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".cscan"))
            .count()
    };
    assert_eq!(scans(&dir3), 3);
    for r in split_solve_with(&g, &scope, &dir3, 3, None, plain_again()) {
        r.unwrap();
    }
    same_tables(&g, &scope, &one, &dir3);
    assert_eq!(scans(&dir3), 0);
    for d in [one, dir, dir2, dir3] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn a_compact_split_part_needs_its_share_of_the_compact_state() {
    let g = huntsolve::hunt::from_spec("cows-leopards-mogol").unwrap();
    let scope = Scope::MaxPrey(6);
    let p = plan(&g, &scope).unwrap();
    let big = *p
        .waves
        .iter()
        .flatten()
        .max_by_key(|&&t| g.tier_size(t))
        .unwrap();
    let (one, three) = (
        part_memory(&g, big, 1, true).unwrap(),
        part_memory(&g, big, 3, true).unwrap(),
    );
    let full = part_memory(&g, big, 3, false).unwrap();
    // Two bytes a slot of a third of the tier beside the sparse children,
    // against six bytes and the children whole.
    assert!(three < full / 2, "{three} vs {full}");
    assert!(three < one / 2, "{three} vs {one}");
}
