//! The real binary: perft, show and playout on hunt rules.

use crate::common::run;

#[test]
fn perft_prints_the_count_last() {
    let (code, out, _) = run(&["perft", "bagh-chal", "--depth", "3"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().last(), Some("5052"));
    assert!(out.contains("leaves/s"));
    let (code, out, _) = run(&["perft", "bagh-chal", "--depth", "3", "--divide"]);
    assert_eq!(code, 0);
    assert!(out.contains("moves 21"));
    let sum: u64 = out
        .lines()
        .filter_map(|l| l.split_once(' '))
        .filter(|(m, _)| m.len() == 2)
        .map(|(_, n)| n.parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 5052);
    let (code, out, _) = run(&[
        "perft",
        "diviyan-keliya-ludii",
        "--depth",
        "2",
        "--moves",
        "e5 e4",
    ]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().last(), Some(&*(47 * 46).to_string()));
}

#[test]
fn illegal_moves_and_bad_rules_exit_with_status_2() {
    let (code, _, err) = run(&["perft", "bagh-chal", "--depth", "1", "--moves", "c3 c3"]);
    assert_eq!(code, 2);
    assert!(err.contains("ply 2"), "{err}");
    let (code, _, err) = run(&["show", "bagh-chal,chain=bogus"]);
    assert_eq!(code, 2);
    assert!(err.contains("none, optional, continue, maximal"), "{err}");
}

#[test]
fn show_reports_terminal_positions() {
    let pos = ".............................................HH.P/h0p0c23/p";
    let (code, out, _) = run(&["show", "cows-leopards-peralikatuma", "--position", pos]);
    assert_eq!(code, 0);
    assert!(out.contains("terminal: leopards win"), "{out}");
    let (code, out, _) = run(&["show", "kaooa"]);
    assert_eq!(code, 0);
    assert!(out.contains("moves    10"), "{out}");
    assert!(out.contains("not terminal"));
}

#[test]
fn playout_is_deterministic() {
    let args = ["playout", "kaooa", "--games", "300", "--seed", "5"];
    let (code, a, _) = run(&args);
    assert_eq!(code, 0);
    let (_, b, _) = run(&args);
    let pick = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| l.contains("wins") || l.contains("mean length") || l.contains("draws"))
            .map(String::from)
            .collect()
    };
    assert_eq!(pick(&a).len(), 4);
    assert_eq!(pick(&a), pick(&b));
}
