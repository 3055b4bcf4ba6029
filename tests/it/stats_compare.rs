//! End-to-end self-play and reports on tic-tac-toe (the hunt and tafl engines
//! are tested the same way through `huntsolve compare` once they land).

use huntsolve::stats::load_games;
use huntsolve::stats::*;
use huntsolve::stats::{assemble, run_variant, write_compare};
use huntsolve::NoProgress;
use huntsolve::TicTacToe;
use std::path::PathBuf;

fn tmp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("huntsolve-stats-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn cfg(games: u64, engine: EngineSpec, random_plies: u32) -> TournamentConfig {
    TournamentConfig {
        games,
        seed: 42,
        engine,
        random_plies,
        max_plies: None,
        threads: 2,
        softmax: None,
        engine_side1: None,
        referee: None,
    }
}

#[test]
fn random_tictactoe_matches_known_outcome_shares() {
    // Uniformly random tic-tac-toe: X wins 737/1260 = 0.5849, O wins 0.2881,
    // draws 0.1270 (exact enumeration of random play).
    let dir = tmp_dir("random");
    let c = cfg(3000, EngineSpec::Random, 0);
    let run = run_variant("ttt", &TicTacToe::default(), &c, &dir, "ttt", &NoProgress).unwrap();
    let m = &run.metrics;
    assert_eq!(m.games, 3000);
    assert_eq!(
        m.wins[0] + m.wins[1] + m.rule_draws + m.repetition_draws + m.move_limit,
        3000
    );
    assert!(
        m.win_rate[0].contains(737.0 / 1260.0),
        "{:?}",
        m.win_rate[0]
    );
    assert!(m.win_rate[1].contains(0.2881), "{:?}", m.win_rate[1]);
    assert!(m.draw_rate.contains(0.1270), "{:?}", m.draw_rate);
    assert!(m.length_min >= 5 && m.length_max <= 9);
    assert_eq!(m.move_limit, 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn games_are_deterministic_and_resumable() {
    let dir = tmp_dir("resume");
    let game = TicTacToe::default();
    let agent = make_agent::<TicTacToe>(&EngineSpec::Greedy, None).unwrap();
    let file = dir.join("games.jsonl");
    let strip = |mut v: Vec<GameRecord>| {
        for r in &mut v {
            r.millis = 0;
        }
        v
    };
    // 10 games, then the same tournament extended to 25: the first 10 are reused.
    let first = run_tournament(
        &game,
        agent.as_ref(),
        &cfg(10, EngineSpec::Greedy, 2),
        &file,
        "t",
        &NoProgress,
    )
    .unwrap();
    let lines_10 = std::fs::read_to_string(&file).unwrap();
    let all = run_tournament(
        &game,
        agent.as_ref(),
        &cfg(25, EngineSpec::Greedy, 2),
        &file,
        "t",
        &NoProgress,
    )
    .unwrap();
    assert_eq!(all.len(), 25);
    assert!(std::fs::read_to_string(&file)
        .unwrap()
        .starts_with(&lines_10));
    assert_eq!(strip(all[..10].to_vec()), strip(first.clone()));
    // A fresh run of game 17 alone gives the same game as inside the tournament.
    let g17 = play_game(&game, agent.as_ref(), &cfg(25, EngineSpec::Greedy, 2), 17).unwrap();
    assert_eq!(strip(vec![g17]), strip(vec![all[17].clone()]));
    // Random openings make games differ.
    let distinct: std::collections::HashSet<_> = all.iter().map(|r| r.moves.clone()).collect();
    assert!(distinct.len() > 5, "only {} distinct games", distinct.len());

    // A partial last line (a killed run) is dropped and the game replayed.
    let text = std::fs::read_to_string(&file).unwrap();
    let cut = text.trim_end().rfind('\n').unwrap() + 1;
    std::fs::write(&file, format!("{}{{\"rules\":\"tic", &text[..cut])).unwrap();
    let again = run_tournament(
        &game,
        agent.as_ref(),
        &cfg(25, EngineSpec::Greedy, 2),
        &file,
        "t",
        &NoProgress,
    )
    .unwrap();
    assert_eq!(strip(again), strip(all));
    assert_eq!(
        load_games(&game, &cfg(25, EngineSpec::Greedy, 2), &file)
            .unwrap()
            .len(),
        25
    );

    // Other settings against the same file are refused, not mixed.
    let err = run_tournament(
        &game,
        agent.as_ref(),
        &cfg(25, EngineSpec::Greedy, 3),
        &file,
        "t",
        &NoProgress,
    );
    assert!(
        matches!(err, Err(huntsolve::Error::Input { path: Some(_), .. })),
        "{err:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn greedy_takes_wins_and_blocks() {
    let game = TicTacToe::default();
    let agent = GreedyAgent;
    let mut rng = huntsolve::Rng::new(1);
    // X to move with two in a row on the bottom line: must complete it.
    let pos = huntsolve::Notation::parse_position(&game, "XX.OO....").unwrap();
    let mv = Agent::<TicTacToe>::choose(&agent, &game, &pos, &[], &mut rng).unwrap();
    assert_eq!(huntsolve::Notation::format_move(&game, &pos, mv), "c1");
}

#[test]
fn report_files_are_written_with_plots() {
    let dir = tmp_dir("report");
    let c = cfg(60, EngineSpec::Random, 0);
    let game = TicTacToe::default();
    let a = run_variant("ttt-a", &game, &c, &dir, "a", &NoProgress).unwrap();
    let c2 = TournamentConfig {
        seed: 1000,
        ..c.clone()
    };
    let b = run_variant("ttt-b", &game, &c2, &dir, "b", &NoProgress).unwrap();
    let report = assemble("test".into(), "huntsolve compare ...", &c, vec![a, b], 0.5).unwrap();
    assert_eq!(report.pairs.len(), 1);
    assert_eq!(report.pairs[0].win_rates.len(), 2);
    let files = write_compare(&dir, &report).unwrap();
    assert_eq!(files.len(), 7);
    assert!(files.iter().any(|f| f.ends_with("ludii.csv")), "{files:?}");
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(
        md.contains("Seed: 42") && md.contains("huntsolve compare ...") && md.contains("ttt-b")
    );
    let svg = std::fs::read_to_string(dir.join("win_rates.svg")).unwrap();
    assert!(
        svg.contains("<text") && svg.contains("ttt-a") && svg.contains("x wins"),
        "plot text missing"
    );
    let svg = std::fs::read_to_string(dir.join("lengths.svg")).unwrap();
    assert!(svg.contains("<polyline") || svg.contains("<path"));
    let csv = std::fs::read_to_string(dir.join("metrics.csv")).unwrap();
    let header_cols = csv.lines().next().unwrap().split(',').count();
    for line in csv.lines().skip(1) {
        assert_eq!(line.split(',').count(), header_cols, "{line}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(json["variants"][0]["games"], 60);
    if std::env::var_os("HUNTSOLVE_KEEP_TEST_OUTPUT").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn engine_specs_parse_or_explain() {
    assert_eq!(EngineSpec::parse("depth=4").unwrap(), EngineSpec::Depth(4));
    assert_eq!(
        EngineSpec::parse("time=0.5").unwrap(),
        EngineSpec::Time(0.5)
    );
    assert_eq!(EngineSpec::parse("greedy").unwrap(), EngineSpec::Greedy);
    for bad in ["depth=0", "depth=x", "time=-1", "fast", ""] {
        assert!(EngineSpec::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn exact_solver_knows_tictactoe() {
    use crate::common::exact::solve_reachable;
    use huntsolve::Value;
    let s = solve_reachable(&TicTacToe::default(), 1_000_000, &NoProgress).unwrap();
    // Tic-tac-toe: 5478 legal positions reachable from the start, 958 of them
    // terminal; the start is a draw.
    assert_eq!(s.positions, 5478);
    assert_eq!(s.terminal, 958);
    assert_eq!(s.start_value, Value::Draw);
    assert_eq!(s.wins + s.losses + s.draws, 5478);
    assert!(matches!(
        solve_reachable(&TicTacToe::default(), 100, &NoProgress),
        Err(huntsolve::Error::Memory(_))
    ));
}

#[test]
fn repetition_rule_follows_the_rules_string() {
    use huntsolve::stats::repetition_winner;
    let plain = huntsolve::AnyGame::parse("brandubh").unwrap();
    assert_eq!(
        huntsolve::with_game!(&plain, g => repetition_winner(g)),
        None
    );
    let cph = huntsolve::AnyGame::parse("brandubh,repetition=defenders_lose").unwrap();
    // Side 0 is the attackers: they win when the defenders repeat.
    assert_eq!(
        huntsolve::with_game!(&cph, g => repetition_winner(g)),
        Some(0)
    );
    assert_eq!(repetition_winner(&TicTacToe::default()), None);
}

/// A report rendered again from stored games says when and how long the
/// games took to play, and labels its own seconds as the rendering's ("Time: 0.6 s
/// wall for this run" on a 200-game ladder whose games were all read back); games
/// stored before their time of play was kept say "not recorded".
#[test]
fn a_ladder_rendered_from_stored_games_tells_when_they_were_played() {
    use huntsolve::stats::{run_ladder, write_ladder, LadderOptions, LadderRun};
    let out = tmp_dir("played");
    let specs = vec!["kaooa".to_string()];
    let engines: Vec<EngineSpec> = ["random", "greedy"]
        .iter()
        .map(|e| EngineSpec::parse(e).unwrap())
        .collect();
    let base = TournamentConfig {
        games: 6,
        seed: 5,
        threads: 2,
        ..TournamentConfig::default()
    };
    let ladder = || {
        let r = run_ladder(
            &LadderRun {
                specs: &specs,
                engines: &engines,
                base: &base,
                tables: &[],
                opts: &LadderOptions::default(),
                out_dir: &out,
                command: "test",
                build: "",
            },
            &NoProgress,
        )
        .unwrap();
        write_ladder(&out, &r).unwrap();
        (r, std::fs::read_to_string(out.join("ladder.md")).unwrap())
    };
    let (first, md) = ladder();
    assert_eq!((first.played.games, first.played.now), (12, 12), "{md}");
    assert!(
        md.contains("- This run: ") && md.contains("playing 12 games"),
        "{md}"
    );
    let (again, md) = ladder();
    assert_eq!((again.played.games, again.played.now), (12, 0));
    // The same games: their time of play and own seconds are those of the first run.
    assert_eq!(again.played.first, first.played.first);
    assert!(again.played.first.is_some() && again.played.unrecorded == 0);
    assert!(
        md.contains("- Games: 12 games, played 20")
            && md.contains(" UTC; ")
            && md.contains("- This rendering: ")
            && md.contains("reading the 12 stored games")
            && !md.contains("wall for this run"),
        "{md}"
    );
    // Games files written before the time of play was kept.
    for rung in ["random", "greedy"] {
        let file = out.join(rung).join("games-kaooa.jsonl");
        let text = std::fs::read_to_string(&file).unwrap();
        let old: String = text
            .lines()
            .map(|l| {
                let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                v.as_object_mut().unwrap().remove("played_at").unwrap();
                format!("{v}\n")
            })
            .collect();
        std::fs::write(&file, old).unwrap();
    }
    let (old, md) = ladder();
    assert_eq!((old.played.unrecorded, old.played.first), (12, None));
    assert!(md.contains("time of play not recorded"), "{md}");
    let _ = std::fs::remove_dir_all(&out);
}
