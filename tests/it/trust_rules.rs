//! The exact paths (solve, table answers, verify, prove,
//! check-proof, the exact referee) refuse rules whose repetition rule is not
//! `draw`, since they all count a cycle as a draw; the rule is a typed value.

use super::common::run;
use huntsolve::game::{Game, NoOracle, Repetition};
use huntsolve::hunt::from_spec;
use huntsolve::prove::check;
use huntsolve::prove::extract;
use huntsolve::prove::Certificate;
use huntsolve::prove::{ProofTable, ProveConfig, Prover, RunOutcome};
use huntsolve::NoProgress;
use huntsolve::{with_game, AnyGame, Error};

fn tmpdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("huntsolve-trust-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn repetition_of(spec: &str) -> Repetition {
    let any = AnyGame::parse(spec).unwrap();
    with_game!(&any, g => g.repetition())
}

#[test]
fn the_repetition_rule_is_a_typed_value() {
    assert_eq!(repetition_of("kaooa"), Repetition::Draw);
    assert_eq!(repetition_of("kaooa,repetition=forbid"), Repetition::Forbid);
    assert_eq!(repetition_of("brandubh"), Repetition::Draw);
    assert_eq!(
        repetition_of("brandubh-hnefatafl"),
        Repetition::RepeaterLoses
    );
    assert_eq!(
        repetition_of("brandubh,repetition=defenders_lose"),
        Repetition::DefendersLose
    );
    assert_eq!(
        repetition_of("brandubh-hnefatafl,repetition=draw"),
        Repetition::Draw
    );
}

fn assert_refused(spec: &str, err: &Error) {
    assert!(matches!(err, Error::Rules(_)), "{spec}: {err:?}");
    let msg = err.to_string();
    assert!(msg.contains("repetition=draw"), "{spec}: {msg}");
    assert_eq!(err.exit_code(), 2);
}

#[test]
fn solve_refuses_rules_whose_cycles_are_not_draws() {
    let dir = tmpdir("solve");
    for (spec, extra, word) in [
        (
            "brandubh-hnefatafl",
            &["--material", "1,0"][..],
            "repeater_loses",
        ),
        ("kaooa,repetition=forbid", &[][..], "forbid"),
        (
            "brandubh,repetition=defenders_lose",
            &["--material", "1,0"][..],
            "defenders_lose",
        ),
    ] {
        let out = dir.join("out");
        let mut args = vec!["solve", spec, "--out", out.to_str().unwrap()];
        args.extend_from_slice(extra);
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{spec}: {err}");
        assert!(err.contains("error:"), "{spec}: {err}");
        assert!(err.contains(&format!("repetition={word}")), "{spec}: {err}");
        assert!(
            !out.join("summary.json").exists(),
            "{spec}: nothing is solved"
        );
    }
    // Said explicitly, draw semantics are solved as before.
    let out = dir.join("draw");
    let (code, _, err) = run(&[
        "solve",
        "brandubh-hnefatafl,repetition=draw",
        "--material",
        "1,0",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.join("summary.json").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn table_answers_and_the_exact_referee_refuse_other_repetition_rules() {
    let dir = tmpdir("tables");
    let g = huntsolve::tafl::from_spec("brandubh-hnefatafl").unwrap();
    let e = huntsolve::table::TableOracle::new(&g, &dir).unwrap_err();
    assert_refused("brandubh-hnefatafl", &e);
    let h = from_spec("kaooa,repetition=forbid").unwrap();
    let e = huntsolve::table::TableOracle::new(&h, &dir).unwrap_err();
    assert_refused("kaooa,repetition=forbid", &e);
    // The exact referee's in-memory solver (before: a memory error after
    // enumerating, or a value under draw semantics).
    let e = crate::common::exact::solve_reachable(&h, 1_000_000, &NoProgress).unwrap_err();
    assert_refused("kaooa,repetition=forbid", &e);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The certificate of kaooa's start (a hunter win in 15), proven without tables.
pub fn kaooa_certificate() -> (huntsolve::hunt::HuntGame, Certificate) {
    let g = from_spec("kaooa").unwrap();
    let start = g.start();
    let tt = ProofTable::new(16);
    let cfg = ProveConfig {
        nodes: Some(5_000_000),
        ..Default::default()
    };
    let p = Prover::new(&g, &NoOracle, &tt, cfg);
    let (v, _) = p.value(&start, &NoProgress);
    assert!(v.is_some());
    let side = g.side_to_move(&start);
    let cert = extract(
        &p,
        &start,
        side,
        RunOutcome::Proven,
        &|_: &_| Ok(None),
        1 << 22,
    )
    .unwrap();
    drop(p);
    (g, cert)
}

/// A kaooa certificate relabelled `kaooa,repetition=forbid` (checksums
/// recomputed by `encode`) used to "hold".
#[test]
fn check_proof_refuses_a_certificate_relabelled_to_other_repetition_rules() {
    let (g, mut cert) = kaooa_certificate();
    let none = |_: &_| Ok(None);
    assert!(check(&g, &cert, &none).unwrap().ok());
    let forbid = from_spec("kaooa,repetition=forbid").unwrap();
    cert.header.rules = forbid.rules_string();
    cert.header.fingerprint = forbid.fingerprint();
    let e = check(&forbid, &cert, &none).unwrap_err();
    assert_refused("kaooa,repetition=forbid", &e);

    let dir = tmpdir("cert");
    let file = dir.join("forbid.cert");
    std::fs::write(&file, cert.encode()).unwrap();
    assert!(Certificate::read(&file).is_ok());
    let (code, out, err) = run(&["check-proof", file.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("error:") && err.contains("repetition=forbid"),
        "{err}"
    );
    assert!(!out.contains("holds"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
