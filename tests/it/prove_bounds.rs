//! Capture-threshold bounds (`huntsolve bounds`) against exact solves of the same
//! `hunter_win=captures>=N` variants by the retrograde solver (independent code:
//! un-moves and tier sweeps, no proof numbers), and the command's interface.

use huntsolve::game::{Game, Value};
use huntsolve::hunt::{HuntGame, HuntRules};
use huntsolve::prove::Init;
use huntsolve::prove::RunOutcome;
use huntsolve::prove::{bounds, threshold_variant, BoundsConfig};
use huntsolve::retro::solve;
use huntsolve::retro::{Scope, SolveOptions};
use huntsolve::table::TableOracle;
use huntsolve::NoProgress;

/// Whether the hunters force a win from the start of `game`, by a whole-game solve.
fn hunters_win_exactly(game: &HuntGame, tag: &str) -> bool {
    let dir = std::env::temp_dir().join(format!(
        "huntsolve-bounds-{tag}-{:016x}-{}",
        game.fingerprint(),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let opts = SolveOptions {
        threads: 1,
        memory_limit: None,
        ..Default::default()
    };
    solve(game, &Scope::Whole, &dir, &opts, &NoProgress).unwrap();
    let oracle = TableOracle::new(game, &dir).unwrap();
    let start = game.start();
    let (v, _) = oracle
        .try_probe(&start)
        .unwrap()
        .expect("the start is in the tables");
    let _ = std::fs::remove_dir_all(&dir);
    huntsolve::prove::wins_for(v, game.side_to_move(&start), 0) && v != Value::Draw
}

/// `bounds` from the start equals the exact values of every threshold variant,
/// with every claimed bound's certificate re-checked (inside `bounds`), under
/// the given initialisations of the prover.
fn bounds_agree(spec: &str, inits: &[Init]) {
    let rules = HuntRules::parse(spec).unwrap();
    let exact: Vec<bool> = (1..=rules.prey as u32)
        .map(|n| hunters_win_exactly(&threshold_variant(&rules, n).unwrap(), spec))
        .collect();
    // Monotone in N, as the bounds assume.
    assert!(exact.windows(2).all(|w| w[0] || !w[1]), "{spec}: {exact:?}");
    let want_proven = exact.iter().take_while(|&&w| w).count() as u32;
    for &init in inits {
        let cfg = BoundsConfig {
            nodes_per_run: Some(20_000_000),
            hash_mib: 64,
            init,
            ..Default::default()
        };
        let b = bounds(&rules, &cfg, &NoProgress).unwrap();
        assert_eq!(b.proven, want_proven, "{spec} {init:?}: {exact:?}");
        let want_disproven = (want_proven < rules.prey as u32).then_some(want_proven + 1);
        assert_eq!(b.disproven, want_disproven, "{spec} {init:?}");
        assert!(b.open.is_empty(), "{spec} {init:?}: open {:?}", b.open);
        for r in &b.runs {
            // Every run that counted agrees with the exact value of its variant.
            match r.report.outcome {
                RunOutcome::Proven => assert!(exact[r.n as usize - 1], "{spec} N={}", r.n),
                RunOutcome::Disproven => assert!(!exact[r.n as usize - 1], "{spec} N={}", r.n),
                RunOutcome::Unknown => {}
            }
            if r.report.outcome != RunOutcome::Unknown {
                assert!(r.certificate.as_ref().is_some_and(|c| c.holds));
            }
        }
    }
}

#[test]
fn bounds_equal_exact_solves_on_kaooa() {
    bounds_agree("kaooa", &[Init::Heuristic, Init::Plain]);
    bounds_agree("kaooa-6", &[Init::Heuristic, Init::Plain]);
}

#[test]
fn bounds_equal_exact_solves_on_the_25_point_board() {
    bounds_agree(
        "diviyan-keliya,board=alquerque25,hunters=1,prey=3,hunter_win=1",
        &[Init::Heuristic],
    );
    bounds_agree(
        "diviyan-keliya,board=alquerque25,hunters=2,prey=3,hunter_win=1",
        &[Init::Heuristic],
    );
}

#[test]
fn bounds_command_saves_checkable_certificates_and_refuses_tafl() {
    use crate::common::run;
    let dir = std::env::temp_dir().join(format!("huntsolve-bounds-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.display().to_string();
    let (code, out, err) = run(&["bounds", "kaooa-6", "--save-dir", &d, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    let files: Vec<String> = v["runs"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["certificate"]["file"].as_str().map(String::from))
        .collect();
    assert!(!files.is_empty());
    for f in &files {
        let (code, _, err) = run(&["check-proof", f]);
        assert_eq!(code, 0, "{f}: {err}");
    }
    let (code, _, err) = run(&["bounds", "brandubh"]);
    assert_eq!(code, 2);
    assert!(err.contains("hunt games only"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
