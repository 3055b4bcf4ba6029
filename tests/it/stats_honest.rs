//! What the reports and answers say when they are unsure: intervals that keep
//! a width on one-sided samples, the engines' strength, and the recorded
//! claims beside an unknown value. Each runs the binary.

use crate::common::run;

fn tmp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("huntsolve-honest-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Six games a variant at depth=2 on Mogol Putt'han are all drawn: the ladder
/// says so with the exact bound on the decisive share (1 − 0.05^(1/6) =
/// 39.3 %), keeps a width on the score and its difference (the normal
/// interval gave [50.0, 50.0] and [+0.0, +0.0]), does not call the pair
/// alike, states its engines' strength, and has no captures column for the
/// cows, who never capture.
#[test]
fn an_all_draw_ladder_says_what_its_games_leave_open() {
    let dir = tmp_dir("ladder");
    let out = dir.to_str().unwrap();
    let (code, stdout, stderr) = run(&[
        "compare",
        "cows-leopards-mogol",
        "cows-leopards-mogol,capture_compulsory=false",
        "--engines",
        "random,depth=2",
        "--games",
        "6",
        "--out",
        out,
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let md = std::fs::read_to_string(dir.join("ladder.md")).unwrap();
    assert!(
        md.contains("all 6 games drawn: the decisive share is below 39.3 % (95 %)"),
        "{md}"
    );
    assert!(!md.contains("50.0 [50.0, 50.0]"), "{md}");
    assert!(!md.contains("+0.0 [+0.0, +0.0]"), "{md}");
    assert!(!md.contains("no clear difference"), "{md}");
    assert!(
        md.contains("not told apart by these games") || md.contains("do not tell"),
        "{md}"
    );
    assert!(md.contains("## What these engines' strength means"), "{md}");
    assert!(md.contains("results/calibration.md"), "{md}");
    assert!(md.contains("At `depth=2` every game was drawn"), "{md}");
    assert!(!md.contains("cows captures"), "{md}");
    assert!(
        md.contains("The cows cannot capture under these rules"),
        "{md}"
    );
    // The per-strength comparison report says the same.
    let report = std::fs::read_to_string(dir.join("depth=2").join("report.md")).unwrap();
    assert!(report.contains("all 6 games drawn"), "{report}");
    assert!(!report.contains("captures by the cows"), "{report}");
    assert!(
        report.contains("## What these engines' strength means"),
        "{report}"
    );
    assert!(!report.contains("1.00 [1.00, 1.00]"), "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// At the Mogol start a short search or proof cannot settle the value; the
/// answer names what results/ records and its evidence, speaks of the
/// prover's state in words, and calls nothing exact that has no value.
#[test]
fn query_and_prove_name_the_recorded_claim_beside_their_unknown() {
    let (code, stdout, stderr) = run(&["query", "cows-leopards-mogol", "start", "--depth", "1"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("recorded the leopards cannot force a win"),
        "{stdout}"
    );
    assert!(stdout.contains("results/mogol.md"), "{stdout}");
    let (code, stdout, stderr) = run(&[
        "query",
        "cows-leopards-mogol",
        "start",
        "--exact",
        "--time",
        "0.5",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stdout.contains("root pn"), "{stdout}");
    if stdout.contains("value    unknown") {
        assert!(stdout.contains("undecided after"), "{stdout}");
        assert!(!stdout.contains(", exact)"), "{stdout}");
    }
    assert!(
        stdout.contains("recorded the leopards cannot force a win"),
        "{stdout}"
    );
    let (code, stdout, stderr) = run(&[
        "query",
        "cows-leopards-mogol",
        "start",
        "--depth",
        "1",
        "--json",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(v["recorded"][0]["page"], "results/mogol.md", "{v}");
    let (code, stdout, stderr) = run(&["prove", "cows-leopards-mogol", "--time", "0.5"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stdout.contains("root pn"), "{stdout}");
    assert!(stdout.contains("undecided after"), "{stdout}");
    assert!(
        stdout.contains("recorded the leopards cannot force a win"),
        "{stdout}"
    );
    // bounds names it too, beside its own unknown thresholds.
    let (code, stdout, stderr) = run(&["bounds", "cows-leopards-mogol", "--time", "0.5"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("recorded the leopards cannot force a win"),
        "{stdout}"
    );
    assert!(stdout.contains("results/mogol.md"), "{stdout}");
    // After a move nothing is recorded.
    let (code, stdout, _) = run(&[
        "query",
        "cows-leopards-mogol",
        "start",
        "--depth",
        "1",
        "--moves",
        "a1",
    ]);
    if code == 0 {
        assert!(!stdout.contains("recorded"), "{stdout}");
    }
}
