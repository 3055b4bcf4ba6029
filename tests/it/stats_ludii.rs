//! Ludii's measures of engine play (`huntsolve::stats::ludii_metrics`) on
//! hand-made game records, against values worked out by hand from the
//! formulas of Ludii's `Evaluation/src/metrics` classes.

use huntsolve::stats::{ludii_metrics, EndReason, GameRecord, LudiiMetrics};

fn game(first: u8, winner: Option<u8>, end: EndReason, legal: &[u32]) -> GameRecord {
    GameRecord {
        rules: "kaooa".into(),
        fingerprint: 1,
        engine: "greedy".into(),
        random_plies: 0,
        opening: "uniform".into(),
        referee: None,
        max_plies: 100,
        index: 0,
        seed: 0,
        first,
        winner,
        end,
        plies: legal.len() as u32,
        captures: [0, 0],
        millis: 1,
        played_at: None,
        moves: vec!["m".into(); legal.len()],
        legal_counts: legal.to_vec(),
    }
}

fn close(what: &str, got: f64, want: f64) {
    assert!((got - want).abs() < 1e-9, "{what}: {got}, by hand {want}");
}

/// Every share keeps a width and holds its estimate.
fn honest(m: &LudiiMetrics) {
    let mut shares = vec![
        ("balance", m.balance),
        ("drawishness", m.drawishness),
        ("advantage_p1", m.advantage_p1),
        ("completion", m.completion),
        ("timeouts", m.timeouts),
    ];
    if let Some(d) = m.decision_moves {
        shares.push(("decision_moves", d));
    }
    for (what, i) in shares {
        assert!(i.hi - i.lo > 0.01, "{what}: zero-width interval {i:?}");
        assert!(i.contains(i.estimate), "{what}: {i:?}");
    }
}

/// Five games: side 0 wins twice (once by the referee), side 1 once, one
/// repetition draw and one timeout; the second game is moved first by side 1.
#[test]
fn ludii_measures_equal_the_hand_computed_values() {
    let games = [
        game(0, Some(0), EndReason::Terminal, &[3, 1, 2, 2]),
        game(1, Some(1), EndReason::Terminal, &[1, 1]),
        game(0, None, EndReason::MoveLimit, &[2, 2, 2, 2, 2, 2]),
        game(0, None, EndReason::Repetition, &[4, 1, 1]),
        game(0, Some(0), EndReason::Adjudicated, &[5, 5, 1, 1, 1]),
    ];
    let m = ludii_metrics("kaooa", "greedy", &games);
    assert_eq!(m.games, 5);
    // Balance: 1 − |2/5 − 1/5|.
    close("balance", m.balance.estimate, 0.8);
    // Drawishness: every game without a winner, the timeout included.
    close("drawishness", m.drawishness.estimate, 2.0 / 5.0);
    // AdvantageP1: the first mover won three games (side 1 moved first in
    // the second), drew two: (3 + 2 × ½) / 5.
    close("advantage_p1", m.advantage_p1.estimate, 0.8);
    close("completion", m.completion.estimate, 3.0 / 5.0);
    close("timeouts", m.timeouts.estimate, 1.0 / 5.0);
    // Turns 4, 2, 6, 3, 5: mean 4, population variance (0+4+4+1+1)/5 = 2.
    close("duration_turns", m.duration_turns, 4.0);
    close("duration_turns_sd", m.duration_turns_sd, 2f64.sqrt());
    // Per-game mean legal moves 2, 1, 2, 2, 2.6; their mean.
    close("branching_factor", m.branching_factor.unwrap(), 9.6 / 5.0);
    // Per-game decision shares 3/4, 0, 1, 1/3, 2/5; their mean.
    let want = (0.75 + 0.0 + 1.0 + 1.0 / 3.0 + 0.4) / 5.0;
    close("decision_moves", m.decision_moves.unwrap().estimate, want);
    assert_eq!(m.games_without_moves, 0);
    honest(&m);
}

/// All drawn, no position with a choice: every share at 0 or 1 keeps a width.
#[test]
fn ludii_measures_of_all_drawn_games_keep_a_width() {
    let games = vec![game(0, None, EndReason::Terminal, &[1; 10]); 4];
    let m = ludii_metrics("kaooa", "greedy", &games);
    close("balance", m.balance.estimate, 1.0);
    close("drawishness", m.drawishness.estimate, 1.0);
    close("advantage_p1", m.advantage_p1.estimate, 0.5);
    close("completion", m.completion.estimate, 0.0);
    close("timeouts", m.timeouts.estimate, 0.0);
    close("duration_turns_sd", m.duration_turns_sd, 0.0);
    close("branching_factor", m.branching_factor.unwrap(), 1.0);
    close("decision_moves", m.decision_moves.unwrap().estimate, 0.0);
    honest(&m);
}

/// One side wins every game: balance 0, completion 1, and widths kept.
#[test]
fn ludii_measures_of_one_sided_games_keep_a_width() {
    let games = vec![game(0, Some(0), EndReason::Terminal, &[2, 3, 2]); 4];
    let m = ludii_metrics("kaooa", "greedy", &games);
    close("balance", m.balance.estimate, 0.0);
    close("completion", m.completion.estimate, 1.0);
    close("advantage_p1", m.advantage_p1.estimate, 1.0);
    close("drawishness", m.drawishness.estimate, 0.0);
    close("decision_moves", m.decision_moves.unwrap().estimate, 1.0);
    honest(&m);
}

/// Records stored before legal-move counts were kept give no branching factor
/// or decision share, rather than a made-up one; a game without moves counts
/// 0 in the branching factor and is left out of the decision share.
#[test]
fn ludii_measures_without_legal_counts_say_so() {
    let mut old = game(0, Some(0), EndReason::Terminal, &[2, 2]);
    old.legal_counts.clear();
    let m = ludii_metrics("kaooa", "greedy", &[old]);
    assert_eq!(m.branching_factor, None);
    assert_eq!(m.decision_moves, None);
    let games = [
        game(0, Some(0), EndReason::Terminal, &[]),
        game(0, Some(0), EndReason::Terminal, &[4, 2]),
    ];
    let m = ludii_metrics("kaooa", "greedy", &games);
    close("branching_factor", m.branching_factor.unwrap(), 1.5);
    close("decision_moves", m.decision_moves.unwrap().estimate, 1.0);
    assert_eq!(m.games_without_moves, 1);
}

fn tmp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("huntsolve-ludii-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The CSV rows of `path` as maps from header to value.
fn csv_rows(path: &std::path::Path) -> Vec<std::collections::HashMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .map(|l| {
            header
                .iter()
                .zip(l.split(','))
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// Kaooa solved (the crows, second to move, win): a ladder whose tables do not
/// referee reports for each engine whether its conclusion agrees with the
/// exact start value, and the share of its moves that keep the exact value;
/// the report names Ludii's sources.
#[test]
fn compare_with_tables_reports_the_agreement_with_perfect_play() {
    let (_, tables) = crate::common::retro::solved_whole("kaooa", "ludii-kaooa");
    let dir = tmp_dir("solved");
    let (code, stdout, stderr) = crate::common::run(&[
        "compare",
        "kaooa",
        "--engines",
        "random,perfect",
        "--games",
        "6",
        "--tables",
        tables.to_str().unwrap(),
        "--no-referee",
        "--threads",
        "1",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(
        stdout.contains(
            "  kaooa perfect: exact start value crows win; engines' conclusion crows favoured (agrees)"
        ),
        "{stdout}"
    );
    for engine in ["random", "perfect"] {
        let md = std::fs::read_to_string(dir.join(engine).join("report.md")).unwrap();
        assert!(
            md.contains("## Measures under Ludii's definitions, and agreement with perfect play"),
            "{md}"
        );
        assert!(md.contains("| crows win |"), "{md}");
        assert!(
            md.contains(
                "`Evaluation/src/metrics/single/outcome/Balance.java` at commit \
                 `4bfeb09307f59fdbd52273ef88c8dec61168f7ae`"
            ),
            "{md}"
        );
        assert!(!md.contains("not solved: no agreement column |"), "{md}");
        let rows = csv_rows(&dir.join(engine).join("ludii.csv"));
        assert_eq!(rows.len(), 1);
        let row = &rows[0];
        assert_eq!(row["rules"], "kaooa");
        assert_eq!(row["engine"], engine);
        assert_eq!(row["solved"], "true");
        // Side 0 is the vulture, who loses under perfect play.
        assert_eq!(row["exact_score0"], "0.000000");
        for side in ["side0", "side1"] {
            let checked: u64 = row[&format!("moves_checked_{side}")].parse().unwrap();
            let kept: u64 = row[&format!("moves_kept_{side}")].parse().unwrap();
            assert!(checked > 0 && kept <= checked, "{row:?}");
            let lo: f64 = row[&format!("kept_share_{side}_lo")].parse().unwrap();
            let hi: f64 = row[&format!("kept_share_{side}_hi")].parse().unwrap();
            assert!(hi - lo > 0.01, "{row:?}");
        }
        let json = std::fs::read_to_string(dir.join(engine).join("report.json")).unwrap();
        assert!(json.contains("\"agreement\""), "{json}");
    }
    // Perfect play keeps the exact value with every move, and its games
    // favour the crows, as the start value says.
    let perfect = &csv_rows(&dir.join("perfect").join("ludii.csv"))[0];
    assert_eq!(perfect["conclusion"], "-1", "{perfect:?}");
    assert_eq!(perfect["agrees"], "yes", "{perfect:?}");
    for side in ["side0", "side1"] {
        assert_eq!(
            perfect[&format!("moves_checked_{side}")],
            perfect[&format!("moves_kept_{side}")],
            "{perfect:?}"
        );
    }
    // Random crows throw wins away (seeded games: 22 of their 116 moves), and
    // these six games favour the vulture: a conclusion that disagrees.
    let random = &csv_rows(&dir.join("random").join("ludii.csv"))[0];
    assert_eq!(random["agrees"], "no", "{random:?}");
    let kept: u64 = random["moves_kept_side1"].parse().unwrap();
    let checked: u64 = random["moves_checked_side1"].parse().unwrap();
    assert!(kept < checked, "{random:?}");
    let ladder = std::fs::read_to_string(dir.join("ladder.md")).unwrap();
    assert!(
        ladder.contains("| kaooa | `random` |") && ladder.contains("| kaooa | `perfect` |"),
        "{ladder}"
    );
}

/// Without tables the agreement is stated as missing, not left blank.
#[test]
fn compare_without_tables_says_not_solved() {
    let dir = tmp_dir("unsolved");
    let (code, stdout, stderr) = crate::common::run(&[
        "compare",
        "kaooa",
        "--games",
        "4",
        "--threads",
        "1",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(
        stdout.contains("  kaooa greedy: not solved: no agreement column"),
        "{stdout}"
    );
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(md.contains("| not solved: no agreement column |"), "{md}");
    let row = &csv_rows(&dir.join("ludii.csv"))[0];
    assert_eq!(row["solved"], "false");
    assert_eq!(row["agrees"], "not solved");
    assert_eq!(row["exact_score0"], "");
    let games: f64 = row["games"].parse().unwrap();
    assert_eq!(games, 4.0);
}
