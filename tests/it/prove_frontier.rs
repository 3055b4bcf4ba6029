//! The frontier driver (`huntsolve frontier`) against exact whole-game solves by
//! the retrograde solver (independent code: un-moves and tier sweeps), its
//! resumption from the state file, and its refusals.

use huntsolve::game::{Game, Value};
use huntsolve::hunt::HuntGame;
use huntsolve::prove::RunOutcome;
use huntsolve::prove::TableDirs;
use huntsolve::prove::{frontier, frontier_value, FrontierConfig, STATE_FILE};
use huntsolve::retro::solve;
use huntsolve::retro::{Scope, SolveOptions};
use huntsolve::table::TableOracle;
use huntsolve::NoProgress;
use std::path::PathBuf;

fn temp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("huntsolve-frontier-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The start's value for its mover, by a whole-game solve.
fn exact_start_value(game: &HuntGame, tag: &str) -> Value {
    let dir = temp(&format!("exact-{tag}-{:016x}", game.fingerprint()));
    let opts = SolveOptions {
        threads: 1,
        memory_limit: None,
        ..Default::default()
    };
    solve(game, &Scope::Whole, &dir, &opts, &NoProgress).unwrap();
    let oracle = TableOracle::new(game, &dir).unwrap();
    let (v, _) = oracle.try_probe(&game.start()).unwrap().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    v
}

fn game(spec: &str) -> HuntGame {
    HuntGame::new(spec.parse().unwrap()).unwrap()
}

/// The frontier's value (no tables) at each depth and thread count equals the
/// exact value, and every decided run carries a certificate that holds (checked
/// inside the driver; an error otherwise).
fn frontier_agrees(spec: &str, depths: &[u32]) {
    let g = game(spec);
    let exact = exact_start_value(&g, "agree");
    let none = TableDirs::open(&g, &[]).unwrap();
    for &depth in depths {
        for threads in [1, 2] {
            let cfg = FrontierConfig {
                depth,
                threads,
                hash_mib: 64,
                ..Default::default()
            };
            let (v, runs) = frontier_value(&g, &none, &cfg, &NoProgress).unwrap();
            assert_eq!(v, Some(exact), "{spec} depth {depth} threads {threads}");
            for r in &runs {
                assert_ne!(r.outcome, RunOutcome::Unknown);
                let c = r
                    .certificate
                    .as_ref()
                    .expect("a decided run has a certificate");
                assert_eq!(c.holds, Some(true));
            }
        }
    }
}

/// With a one-MiB table (entries replaced all the time) the frontier's value
/// is the exact one whether each selection starts a new generation of the
/// table or not: generations choose what is replaced, never what is true.
#[test]
fn table_generations_keep_the_frontier_exact_under_pressure() {
    let g = game("kaooa");
    let exact = exact_start_value(&g, "generations");
    let none = TableDirs::open(&g, &[]).unwrap();
    for generations in [true, false] {
        let cfg = FrontierConfig {
            depth: 3,
            hash_mib: 1,
            generations,
            ..Default::default()
        };
        let (v, runs) = frontier_value(&g, &none, &cfg, &NoProgress).unwrap();
        assert_eq!(v, Some(exact), "generations {generations}");
        assert!(runs.iter().all(|r| r
            .certificate
            .as_ref()
            .is_some_and(|c| c.holds == Some(true))));
    }
}

#[test]
fn frontier_equals_exact_solves_on_kaooa() {
    frontier_agrees("kaooa", &[1, 3, 6]);
    frontier_agrees("kaooa-6", &[2, 4]);
}

#[test]
fn frontier_equals_exact_solves_on_the_25_point_board() {
    frontier_agrees(
        "diviyan-keliya,board=alquerque25,hunters=1,prey=3,hunter_win=1",
        &[1],
    );
    frontier_agrees(
        "diviyan-keliya,board=alquerque25,hunters=3,prey=3,hunter_win=captures>=1",
        &[3],
    );
}

#[test]
fn frontier_with_tables_as_leaves_equals_the_exact_value() {
    // Tables of the end of placement as leaves: the graph's leaves come from them.
    let spec = "kaooa-6";
    let g = game(spec);
    let exact = exact_start_value(&g, "tables");
    let dir = temp("tables");
    let opts = SolveOptions {
        threads: 1,
        memory_limit: None,
        ..Default::default()
    };
    solve(&g, &Scope::Movement, &dir, &opts, &NoProgress).unwrap();
    let tables = TableDirs::open(&g, std::slice::from_ref(&dir)).unwrap();
    let cfg = FrontierConfig {
        depth: 4,
        hash_mib: 64,
        ..Default::default()
    };
    let (v, runs) = frontier_value(&g, &tables, &cfg, &NoProgress).unwrap();
    assert_eq!(v, Some(exact));
    assert!(runs.iter().all(|r| r
        .certificate
        .as_ref()
        .is_some_and(|c| c.holds == Some(true))));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A certificate assembled from a saved state needs no tables: the run
/// without them writes the same bytes and says it did not check them (the
/// check is `check-proof --tables`, a separate step), with no error; the CLI
/// exits 0 and names that step.
#[test]
fn an_assembly_from_a_saved_state_without_tables_writes_the_same_certificate() {
    use crate::common::run;
    let g = game("kaooa-6");
    let dir = temp("assembly-tables");
    let opts = SolveOptions {
        threads: 1,
        memory_limit: None,
        ..Default::default()
    };
    solve(&g, &Scope::Movement, &dir, &opts, &NoProgress).unwrap();
    let tables = TableDirs::open(&g, std::slice::from_ref(&dir)).unwrap();
    let none = TableDirs::open(&g, &[]).unwrap();
    let out = temp("assembly-out");
    // Depth 2 stops inside the placement: the graph has no table leaves, the
    // frontier positions' certificates do.
    let cfg = FrontierConfig {
        depth: 2,
        hash_mib: 64,
        out: Some(out.clone()),
        ..Default::default()
    };
    let side = 0;
    let a = frontier(&g, &tables, side, &cfg, &NoProgress).unwrap();
    assert_ne!(a.outcome, RunOutcome::Unknown);
    let ca = a.certificate.clone().expect("a certificate");
    assert_eq!(ca.holds, Some(true));
    assert!(ca.table_leaves > 0, "the certificate has table leaves");
    let b = frontier(&g, &none, side, &cfg, &NoProgress).unwrap();
    assert_eq!(b.runs, 0, "nothing is proven again");
    let cb = b.certificate.expect("the assembled certificate");
    assert_eq!(cb.sha256, ca.sha256);
    assert_eq!(cb.holds, None);
    assert_eq!(cb.table_leaves, ca.table_leaves);
    let file = cb.file.expect("written");
    let d = out.display().to_string();
    let (code, text, err) = run(&[
        "frontier", "kaooa-6", "--depth", "2", "--side", "0", "--out", &d,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("not checked"), "{text}");
    assert!(text.contains("check-proof"), "{text}");
    let t = dir.display().to_string();
    let (code, text, err) = run(&["check-proof", &file, "--tables", &t]);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("holds"), "{text}");
    for d in [dir, out] {
        let _ = std::fs::remove_dir_all(&d);
    }
}

#[test]
fn a_resumed_frontier_run_equals_an_uninterrupted_one() {
    let g = game("kaooa-6");
    let none = TableDirs::open(&g, &[]).unwrap();
    let side = 1; // the crows: disproven (a draw)
    let whole = FrontierConfig {
        depth: 4,
        hash_mib: 64,
        out: Some(temp("whole")),
        ..Default::default()
    };
    let a = frontier(&g, &none, side, &whole, &NoProgress).unwrap();
    assert_eq!(a.outcome, RunOutcome::Disproven);
    // A first run that stops early: every position not decided by its scoring
    // run is given up at once, so the start stays open ...
    let dir = temp("resumed");
    let short = FrontierConfig {
        depth: 4,
        hash_mib: 64,
        score_nodes: 200,
        max_job_nodes: 200,
        out: Some(dir.clone()),
        ..Default::default()
    };
    let b1 = frontier(&g, &none, side, &short, &NoProgress).unwrap();
    assert_eq!(b1.outcome, RunOutcome::Unknown);
    assert!(dir.join(STATE_FILE).is_file());
    // ... and the rerun resumes from its state and ends where the whole run did.
    let long = FrontierConfig {
        out: Some(dir.clone()),
        ..whole.clone()
    };
    let b2 = frontier(&g, &none, side, &long, &NoProgress).unwrap();
    assert_eq!(b2.outcome, a.outcome);
    assert_eq!(
        b2.resumed, b2.frontier,
        "every frontier position was in the state"
    );
    assert!(b2.runs < a.runs + b1.runs);
    // A third run has nothing left to prove.
    let b3 = frontier(&g, &none, side, &long, &NoProgress).unwrap();
    assert_eq!((b3.outcome, b3.runs), (a.outcome, 0));
    for d in [whole.out.unwrap(), dir] {
        let _ = std::fs::remove_dir_all(&d);
    }
}

/// A reproducible run (one thread, its proof table saved with the state)
/// writes the certificate of an uninterrupted one-thread run on one shared
/// table, also when stopped after a few results (in the scoring, inside a
/// selection, later; twice) and resumed; a rerun with other settings, or on
/// two threads, is refused, and so is a saved table that is not the state's.
#[test]
fn a_reproducible_run_stopped_and_resumed_makes_the_uninterrupted_certificate() {
    let g = game("kaooa-6");
    let none = TableDirs::open(&g, &[]).unwrap();
    let side = 1; // the crows: disproven (a draw)
    let sha = |r: &huntsolve::prove::FrontierResult| {
        assert_eq!(r.outcome, RunOutcome::Disproven);
        let c = r.certificate.as_ref().unwrap();
        assert_eq!(c.holds, Some(true));
        c.sha256.clone()
    };
    let shared = temp("repro-shared");
    let plain = FrontierConfig {
        reproducible: false,
        ..reproducible(&shared, None)
    };
    let a = frontier(&g, &none, side, &plain, &NoProgress).unwrap();
    let want = sha(&a);
    assert!(a.selections > 1, "{} selections", a.selections);
    let one = temp("repro-one");
    let every_run = FrontierConfig {
        snapshot_every: std::time::Duration::ZERO,
        ..reproducible(&one, None)
    };
    let b = frontier(&g, &none, side, &every_run, &NoProgress).unwrap();
    assert_eq!(
        sha(&b),
        want,
        "uninterrupted, the table saved before every run"
    );
    assert!(saved_table(&one).is_none(), "a decided run keeps no table");
    // Stopped in the scoring, right after it (inside the first selection),
    // and later; stopped once more, then run to the end.
    let scored = a.frontier as u64;
    let mut inside_a_selection = false;
    for (k, stop) in [3, scored + 1, (scored + a.runs) / 2]
        .into_iter()
        .enumerate()
    {
        let dir = temp(&format!("repro-stop-{k}"));
        let first = frontier(
            &g,
            &none,
            side,
            &reproducible(&dir, Some(stop)),
            &NoProgress,
        );
        assert!(
            matches!(first, Err(huntsolve::Error::Interrupted)),
            "stop {stop}"
        );
        let state = std::fs::read_to_string(dir.join(STATE_FILE)).unwrap();
        inside_a_selection |= state.contains("\"pending\"");
        let again = frontier(&g, &none, side, &reproducible(&dir, Some(2)), &NoProgress);
        assert!(matches!(again, Err(huntsolve::Error::Interrupted)));
        let r = frontier(&g, &none, side, &reproducible(&dir, None), &NoProgress).unwrap();
        assert_eq!(sha(&r), want, "stopped after {stop} results");
        assert!(r.runs < a.runs, "the resumed run redid earlier runs");
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(inside_a_selection, "no stop fell inside a selection");
    // Other settings on a reproducible run's state, or two threads: refused.
    let dir = temp("repro-refused");
    let first = frontier(&g, &none, side, &reproducible(&dir, Some(5)), &NoProgress);
    assert!(matches!(first, Err(huntsolve::Error::Interrupted)));
    for other in [
        FrontierConfig {
            hash_mib: 8,
            ..reproducible(&dir, None)
        },
        FrontierConfig {
            reproducible: false,
            ..reproducible(&dir, None)
        },
        FrontierConfig {
            threads: 2,
            ..reproducible(&dir, None)
        },
    ] {
        let e = frontier(&g, &none, side, &other, &NoProgress).unwrap_err();
        assert!(matches!(e, huntsolve::Error::Usage(_)), "{e}");
    }
    // A saved table that is not the one the state names: refused.
    let saved: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".zst"))
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
    let other = temp("repro-other");
    let stopped = frontier(&g, &none, side, &reproducible(&other, Some(7)), &NoProgress);
    assert!(matches!(stopped, Err(huntsolve::Error::Interrupted)));
    std::fs::copy(saved_table(&other).unwrap(), &saved[0]).unwrap();
    let e = frontier(&g, &none, side, &reproducible(&dir, None), &NoProgress).unwrap_err();
    assert!(e.to_string().contains("saved proof table"), "{e}");
    for d in [shared, one, dir, other] {
        let _ = std::fs::remove_dir_all(&d);
    }
}

/// The value of the start by two reproducible runs (one goal side, then the
/// other) in one directory, the second stopped and resumed: the first is
/// decided again from the state alone, and both certificates are the
/// uninterrupted runs'.
#[test]
fn a_reproducible_value_run_resumed_in_its_second_side_makes_the_same_certificates() {
    let g = game("kaooa-6");
    let none = TableDirs::open(&g, &[]).unwrap();
    let shas = |rs: &[huntsolve::prove::FrontierResult]| -> Vec<String> {
        rs.iter()
            .map(|r| r.certificate.as_ref().unwrap().sha256.clone())
            .collect()
    };
    let whole = temp("repro-value-whole");
    let (v, want) = frontier_value(&g, &none, &reproducible(&whole, None), &NoProgress).unwrap();
    assert_eq!(want.len(), 2, "two goal sides");
    // The mover's goal run to its end, the other's stopped: as a value run
    // stopped in its second run.
    let dir = temp("repro-value-stopped");
    let mover = g.side_to_move(&g.start());
    frontier(&g, &none, mover, &reproducible(&dir, None), &NoProgress).unwrap();
    let second = frontier(
        &g,
        &none,
        1 - mover,
        &reproducible(&dir, Some(7)),
        &NoProgress,
    );
    assert!(matches!(second, Err(huntsolve::Error::Interrupted)));
    let (v2, got) = frontier_value(&g, &none, &reproducible(&dir, None), &NoProgress).unwrap();
    assert_eq!(v2, v);
    assert_eq!(got[0].runs, 0, "the first side decided from the state");
    assert_eq!(shas(&got), shas(&want));
    for d in [whole, dir] {
        let _ = std::fs::remove_dir_all(&d);
    }
}

/// The reproducible runs of these tests: depth 4, a 4 MiB table, the state in
/// `dir`, stopped after `stop` results (`None`: run to the end).
fn reproducible(dir: &std::path::Path, stop: Option<u64>) -> FrontierConfig {
    FrontierConfig {
        depth: 4,
        hash_mib: 4,
        reproducible: true,
        out: Some(dir.to_path_buf()),
        stop_after_results: stop,
        ..Default::default()
    }
}

/// The proof table a reproducible run saved in `dir`, if any.
fn saved_table(dir: &std::path::Path) -> Option<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.to_string_lossy().ends_with(".zst"))
}

#[test]
fn a_damaged_state_file_is_refused() {
    use crate::common::run;
    let dir = temp("damaged");
    let d = dir.display().to_string();
    let (code, _, err) = run(&["frontier", "kaooa", "--depth", "3", "--out", &d]);
    assert_eq!(code, 0, "{err}");
    let state = dir.join(STATE_FILE);
    let mut bytes = std::fs::read(&state).unwrap();
    let last = bytes.len() - 3;
    bytes[last] ^= 0x20;
    std::fs::write(&state, &bytes).unwrap();
    let (code, _, err) = run(&["frontier", "kaooa", "--depth", "3", "--out", &d]);
    assert_eq!(code, 2);
    assert!(err.contains("damaged") && err.contains(STATE_FILE), "{err}");
    std::fs::write(&state, b"not a state\n{}").unwrap();
    let (code, _, err) = run(&["frontier", "kaooa", "--depth", "3", "--out", &d]);
    assert_eq!(code, 2);
    assert!(err.contains("damaged"), "{err}");
    // A state of other rules is refused too.
    let (code, _, err) = run(&["frontier", "kaooa-6", "--depth", "3", "--out", &d]);
    assert_eq!(code, 2);
    let _ = err;
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn frontier_command_writes_a_checkable_certificate_and_refuses_tafl() {
    use crate::common::run;
    let dir = temp("cli");
    let d = dir.display().to_string();
    let (code, out, err) = run(&[
        "frontier",
        "kaooa-6,hunter_win=captures>=2",
        "--depth",
        "3",
        "--side",
        "hunter",
        "--threads",
        "2",
        "--out",
        &d,
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    let file = v["runs"][0]["certificate"]["file"]
        .as_str()
        .expect("a certificate file")
        .to_string();
    let (code, _, err) = run(&["check-proof", &file]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(&["frontier", "brandubh", "--depth", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("hunt games"), "{err}");
    let (code, _, _) = run(&["frontier", "kaooa", "--depth", "0"]);
    assert_eq!(code, 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bounds_by_the_frontier_equal_the_exact_intervals() {
    use huntsolve::hunt::HuntRules;
    use huntsolve::prove::{bounds, BoundsConfig};
    // Kaooa: the crows keep the vulture from any capture (disproven N >= 1);
    // three leopards on the 25-point board force every capture (proven N <= 3).
    for (spec, proven, disproven) in [
        ("kaooa-6", 0, Some(1)),
        (
            "diviyan-keliya,board=alquerque25,hunters=3,prey=2,hunter_win=1",
            2,
            None,
        ),
    ] {
        let rules = HuntRules::parse(spec).unwrap();
        let cfg = BoundsConfig {
            hash_mib: 64,
            frontier_depth: Some(2),
            ..Default::default()
        };
        let b = bounds(&rules, &cfg, &NoProgress).unwrap();
        assert_eq!((b.proven, b.disproven), (proven, disproven), "{spec}");
        assert!(b.open.is_empty());
        for r in &b.runs {
            assert!(r.frontier.is_some());
            if r.report.outcome != RunOutcome::Unknown {
                assert!(r.certificate.as_ref().is_some_and(|c| c.holds));
            }
        }
    }
}
