//! `huntsolve check`: every preset passes; each deliberate fault fails the check
//! that must catch it, with its message; board files the loader lets through but
//! that are wrong fail, and those it refuses exit with status 2.

use crate::common::run;
use huntsolve::{check_rules, AnyGame, CheckOptions, CheckStatus, NoProgress};

/// The checks, in report order: a check removed or renamed fails here.
const NAMES: &[&str] = &[
    "board", "geometry", "bends", "symmetry", "tiers", "pieces", "index", "unmoves", "parents",
    "orbits", "paths", "classes", "images", "perft",
];

#[test]
fn every_preset_passes_and_every_check_counts_cases() {
    for (family, name, _) in huntsolve::all_presets() {
        let game = AnyGame::parse(name).unwrap();
        let opts = CheckOptions {
            samples: 3,
            depth: 2,
            ..CheckOptions::default()
        };
        let r = check_rules(&game, &opts, &NoProgress).unwrap();
        let names: Vec<&str> = r.checks.iter().map(|c| c.name).collect();
        assert_eq!(names, NAMES, "{name}");
        for c in &r.checks {
            assert_ne!(c.status, CheckStatus::Failed, "{name}: {c:?}");
            let counted = c.status == CheckStatus::Skipped || c.name == "perft" || c.cases > 0;
            assert!(counted, "{name}: check {} ran no case", c.name);
        }
        if family == "tafl" {
            assert_eq!(r.checks[0].status, CheckStatus::Skipped);
        }
        assert!(r.tiers > 0 && r.positions > 0, "{name}");
        assert_eq!(r.perft.len(), 2, "{name}");
    }
}

#[test]
fn check_prints_a_table_and_json_and_exits_0() {
    let (code, out, err) = run(&["check", "kaooa", "--samples", "20", "--perft", "3=720"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("perft 3   720 (as expected)"), "{out}");
    for name in NAMES {
        assert!(out.lines().any(|l| l.starts_with(name)), "{name}: {out}");
    }
    assert!(out.contains("unmoves   ok"), "{out}");
    let (code, out, _) = run(&["check", "kaooa", "--samples", "5", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["family"], "hunt");
    assert_eq!(v["checks"].as_array().unwrap().len(), NAMES.len());
    assert_eq!(v["checks"][7]["name"], "unmoves");
    assert_eq!(v["checks"][7]["status"], "ok");
}

#[test]
fn a_wrong_expected_perft_fails_with_exit_1() {
    let (code, out, err) = run(&["check", "kaooa", "--samples", "2", "--perft", "1=11"]);
    assert_eq!(code, 1);
    assert!(out.contains("perft 1: 10 leaves, 11 expected"), "{out}");
    assert!(err.contains("(perft)"), "{err}");
}

/// Each fault and the check, with a piece of its message, that must catch it.
const CAUGHT: &[(&str, &str, &str)] = &[
    ("unmove-dropped", "unmoves", "whose un-moves do not give"),
    ("unmove-twice", "parents", "the un-moves give the parent"),
    ("rank", "index", "which ranks to"),
    ("rank", "images", "under symmetry"),
    ("tier-children", "tiers", "which is not a child of tier"),
    ("class-hash", "classes", "the representative of its class"),
    (
        "child-index",
        "paths",
        "child_indices (inner true) disagrees",
    ),
];

#[test]
fn each_fault_fails_its_check_with_its_message() {
    for &(fault, check, says) in CAUGHT {
        let (code, out, err) = run(&[
            "check",
            "kaooa",
            "--samples",
            "30",
            "--depth",
            "1",
            "--fault",
            fault,
        ]);
        assert_eq!(code, 1, "{fault}: {out}{err}");
        let line = out
            .lines()
            .skip_while(|l| !l.starts_with(&format!("{check:<9} FAILED")))
            .take(2)
            .collect::<Vec<_>>()
            .join("\n");
        assert!(line.contains(says), "{fault} -> {check}: {out}");
    }
    let (code, _, err) = run(&["check", "kaooa", "--fault", "nosuch"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("unknown fault 'nosuch'; accepted: unmove-dropped"),
        "{err}"
    );
}

#[test]
fn tafl_rules_get_the_generic_checks_and_catch_a_broken_unmove() {
    let (code, out, err) = run(&["check", "brandubh", "--samples", "4", "--depth", "1"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("board     skipped"), "{out}");
    assert!(out.contains("parents   ok"), "{out}");
    let (code, out, _) = run(&[
        "check",
        "brandubh",
        "--samples",
        "4",
        "--depth",
        "1",
        "--fault",
        "unmove-dropped",
    ]);
    assert_eq!(code, 1);
    assert!(out.contains("unmoves   FAILED"), "{out}");
}

/// A board file in the temporary directory, removed when dropped.
struct BoardFile(std::path::PathBuf);

impl BoardFile {
    fn new(tag: &str, text: &str) -> BoardFile {
        let path = std::env::temp_dir().join(format!(
            "huntsolve-check-{}-{tag}.board",
            std::process::id()
        ));
        std::fs::write(&path, text).unwrap();
        BoardFile(path)
    }
    fn rules(&self) -> String {
        format!("mysore-tiger,board={},hunter_start=hand", self.0.display())
    }
}

impl Drop for BoardFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A 2x3 grid: a1 b1 c1 on the bottom row, a2 b2 c2 above.
const GRID: &str = "point 0 0\npoint 1 0\npoint 2 0\npoint 0 1\npoint 1 1\npoint 2 1\n";

#[test]
fn the_atlas_board_file_passes() {
    let path = format!(
        "{}/tests/data/hunt/boards/mysore6.board",
        env!("CARGO_MANIFEST_DIR")
    );
    let (code, out, err) = run(&[
        "check",
        &format!("mysore-tiger,board={path}"),
        "--samples",
        "10",
    ]);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn a_board_file_with_a_broken_line_fails_the_geometry_check() {
    // The bottom line skips b1: a1 c1 passes over it. A warning (Ludii's
    // Juroku Musashi board does so on purpose), shown with the line.
    let f = BoardFile::new(
        "skip",
        &format!("{GRID}line a1 c1\nline a2 b2 c2\nline a1 a2\nline b1 b2\nline c1 c2\n"),
    );
    let (code, out, _) = run(&["check", &f.rules(), "--samples", "5"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("bends     warning 1"), "{out}");
    assert!(
        out.contains("the line a1 c1 passes over b1 between a1 and c1"),
        "{out}"
    );
    // Two lines continue each other straight at b1: the jump a1xc1 is missing.
    let f = BoardFile::new(
        "split",
        &format!(
            "{GRID}line a1 b1\nline b1 c1\nline a2 b2 c2\nline a1 a2\nline b1 b2\nline c1 c2\n"
        ),
    );
    let (code, out, _) = run(&["check", &f.rules(), "--samples", "5"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("the lines a1 b1 and b1 c1 continue each other straight at b1"),
        "{out}"
    );
}

#[test]
fn a_board_file_in_pieces_fails_the_board_check() {
    let f = BoardFile::new("pieces", &format!("{GRID}line a1 b1 c1\nline a2 b2 c2\n"));
    let (code, out, _) = run(&["check", &f.rules(), "--samples", "5"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("board     FAILED"), "{out}");
    assert!(
        out.contains("the board is in pieces: a2 b2 c2 cannot be reached from a1"),
        "{out}"
    );
}

#[test]
fn a_board_file_the_loader_refuses_exits_2_with_its_line() {
    let f = BoardFile::new("unknown", &format!("{GRID}line a1 b1 d1\n"));
    let (code, _, err) = run(&["check", &f.rules()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("line 7: unknown point 'd1' in a line"),
        "{err}"
    );
    let f = BoardFile::new("twice", &format!("{GRID}point 1 1\nline a1 b1 c1\n"));
    let (code, _, err) = run(&["check", &f.rules()]);
    assert_eq!(code, 2);
    assert!(err.contains("is already defined on line 5"), "{err}");
}
