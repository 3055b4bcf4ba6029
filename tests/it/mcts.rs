//! (Module of the integration-test crate tests/it.)
//! MCTS: the list-free random move of both families, MCTS-Solver
//! soundness against solved tables, determinism, engine specs.

use huntsolve::game::{FullGame, Game, NoOracle, Notation, Value};
use huntsolve::retro::{solve, Scope, SolveOptions};
use huntsolve::stats::EngineSpec;
use huntsolve::stats::{search, MctsConfig, MctsSpec};
use huntsolve::table::TableOracle;
use huntsolve::AnyGame;
use huntsolve::NoProgress;
use huntsolve::Rng;
use std::collections::HashMap;

/// Positions along seeded random games (every `step`-th ply, terminal ones included).
fn sample_positions<G: Game>(g: &G, games: u64, plies: usize, step: usize) -> Vec<G::Pos> {
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for s in 0..games {
        let mut rng = Rng::new(1000 + s);
        let mut p = g.start();
        for ply in 0..plies {
            if ply % step == 0 {
                out.push(p.clone());
            }
            if g.outcome(&p).is_some() {
                out.push(p.clone());
                break;
            }
            g.legal_moves(&p, &mut moves);
            if moves.is_empty() {
                break;
            }
            p = g.play(&p, moves[rng.below(moves.len())]);
        }
    }
    out
}

/// Draws many random moves in each position: every draw is legal, every legal
/// move is drawn, and each move's frequency is within half of the uniform
/// expectation (200 draws per move expected: 7 standard deviations).
fn check_random_moves<G: FullGame>(name: &str, g: &G, positions: &[G::Pos]) -> usize {
    let mut legal = Vec::new();
    let mut rng = Rng::new(7);
    let mut checked = 0;
    for p in positions {
        g.legal_moves(p, &mut legal);
        if legal.is_empty() {
            assert!(
                g.random_move(p, &mut rng).is_none(),
                "{name}: a random move where there is no legal move: {}",
                g.format_position(p)
            );
            continue;
        }
        let draws = 200 * legal.len();
        let mut counts: HashMap<G::Move, usize> = HashMap::new();
        for _ in 0..draws {
            let m = g.random_move(p, &mut rng).expect("a legal move exists");
            *counts.entry(m).or_default() += 1;
        }
        for m in counts.keys() {
            assert!(
                legal.contains(m),
                "{name}: random_move gave the illegal {:?} in {}",
                m,
                g.format_position(p)
            );
        }
        for m in &legal {
            let c = counts.get(m).copied().unwrap_or(0);
            assert!(
                (100..=300).contains(&c),
                "{name}: {} drawn {c} times of {draws} ({} legal moves) in {}",
                g.format_move(p, *m),
                legal.len(),
                g.format_position(p)
            );
        }
        checked += 1;
    }
    checked
}

#[test]
fn hunt_random_move_is_uniform_over_exactly_the_legal_moves() {
    for spec in [
        "diviyan-keliya",
        "diviyan-keliya-ludii",
        "cows-leopards-peralikatuma",
        "cows-leopards-mogol",
        "bagh-chal",
        "kaooa",
        "diviyan-keliya,drop_before_move=none,chain=maximal",
        "diviyan-keliya,first_drop=centre,drop_before_move=hunter",
        "bagh-chal,drop_before_move=prey,capture_compulsory=true",
        "kaooa,prey_no_moves=pass,chain=optional",
        "diviyan-keliya,board=alquerque25,hunters=2,prey=3,hunter_win=2,removal=end_of_turn",
    ] {
        let AnyGame::Hunt(g) = AnyGame::parse(spec).unwrap() else {
            panic!("{spec}: not a hunt game")
        };
        let positions = sample_positions(&g, 8, 240, 4);
        let n = check_random_moves(spec, &g, &positions);
        assert!(n >= 20, "{spec}: only {n} positions checked");
    }
}

#[test]
fn tafl_random_move_is_uniform_over_exactly_the_legal_moves() {
    for spec in ["brandubh", "caikaboroda-hostile"] {
        let AnyGame::Tafl(g) = AnyGame::parse(spec).unwrap() else {
            panic!("{spec}: not a tafl game")
        };
        let positions = sample_positions(&g, 2, 60, 10);
        let n = check_random_moves(spec, &g, &positions);
        assert!(n >= 8, "{spec}: only {n} positions checked");
    }
}

/// Exact values of every tic-tac-toe position by plain negamax.
fn ttt_value(g: &huntsolve::TicTacToe, p: &huntsolve::TttPos) -> Value {
    if let Some(v) = g.outcome(p) {
        return v;
    }
    let mut moves = Vec::new();
    g.legal_moves(p, &mut moves);
    moves
        .iter()
        .map(|&m| ttt_value(g, &g.play(p, m)).flip())
        .max()
        .expect("a non-terminal position has moves")
}

#[test]
fn mcts_solver_proves_only_true_values_in_tictactoe() {
    let g = huntsolve::TicTacToe::default();
    let positions = sample_positions(&g, 60, 9, 1);
    let (mut proven, mut children_proven) = (0, 0);
    for (i, p) in positions.iter().enumerate() {
        if g.outcome(p).is_some() {
            continue;
        }
        let cfg = MctsConfig {
            iterations: Some(300),
            ..MctsConfig::default()
        };
        let r = search(&g, p, &[], &NoOracle, &cfg, &mut Rng::new(i as u64));
        let truth = ttt_value(&g, p);
        if let Some((v, _)) = r.proven {
            assert_eq!(v, truth, "root of {}", g.format_position(p));
            proven += 1;
        }
        for c in &r.children {
            if let Some((v, _)) = c.proven {
                let child = g.play(p, c.mv);
                assert_eq!(
                    v,
                    ttt_value(&g, &child).flip(),
                    "child of {}",
                    g.format_position(p)
                );
                children_proven += 1;
            }
        }
        // The move played never throws away a proven result.
        let best = r.best.expect("a move");
        assert!(ttt_value(&g, &g.play(p, best)).flip() >= truth || r.proven.is_none());
    }
    // 300 iterations prove the start (a draw) and most later positions.
    assert!(proven > 100, "only {proven} roots proven");
    assert!(
        children_proven > 300,
        "only {children_proven} children proven"
    );
    // Proving the draw at the start takes about 155,000 iterations (seed 1);
    // the search stops as soon as the root is proven.
    let cfg = MctsConfig {
        iterations: Some(400_000),
        ..MctsConfig::default()
    };
    let r = search(&g, &g.start(), &[], &NoOracle, &cfg, &mut Rng::new(1));
    assert_eq!(r.proven.map(|p| p.0), Some(Value::Draw));
    assert!(r.iterations < 400_000);
}

fn solved_tables(spec: &str) -> (huntsolve::hunt::HuntGame, std::path::PathBuf) {
    let AnyGame::Hunt(g) = AnyGame::parse(spec).unwrap() else {
        panic!("{spec}: not a hunt game")
    };
    let dir = std::env::temp_dir().join(format!(
        "huntsolve-mcts-{}-{}",
        std::process::id(),
        huntsolve::stats::safe_name(spec)
    ));
    let options = SolveOptions {
        threads: 2,
        memory_limit: None,
        ..Default::default()
    };
    solve(&g, &Scope::Whole, &dir, &options, &NoProgress).unwrap();
    (g, dir)
}

/// Proven values of MCTS-Solver (roots and root moves) against the solved
/// tables, without and with the tables as leaves.
#[test]
fn mcts_solver_agrees_with_solved_tables() {
    for spec in [
        "kaooa",
        "diviyan-keliya,board=alquerque25,hunters=2,prey=2,hunter_win=1",
    ] {
        let (g, dir) = solved_tables(spec);
        let tables = TableOracle::new(&g, &dir).unwrap();
        let exact = |p: &huntsolve::hunt::HuntPos| match g.outcome(p) {
            Some(v) => v,
            None => tables.try_probe(p).unwrap().expect("whole game solved").0,
        };
        let positions = sample_positions(&g, 12, 60, 3);
        let (mut proven, mut with_tables) = (0, 0);
        for (i, p) in positions.iter().enumerate() {
            if g.outcome(p).is_some() {
                continue;
            }
            let cfg = MctsConfig {
                iterations: Some(400),
                ..MctsConfig::default()
            };
            let r = search(&g, p, &[], &NoOracle, &cfg, &mut Rng::new(i as u64));
            if let Some((v, _)) = r.proven {
                assert_eq!(v, exact(p), "{spec}: root {}", g.format_position(p));
                proven += 1;
            }
            for c in &r.children {
                if let Some((v, _)) = c.proven {
                    let child = g.play(p, c.mv);
                    assert_eq!(
                        v,
                        exact(&child).flip(),
                        "{spec}: child of {}",
                        g.format_position(p)
                    );
                    proven += 1;
                }
            }
            // With the tables as leaves every root move is exact at once
            // (a single legal move is played without search).
            let r = search(&g, p, &[], &tables, &cfg, &mut Rng::new(i as u64));
            if r.children.len() == 1 {
                continue;
            }
            let (v, _) = r.proven.expect("tables prove the root");
            assert_eq!(
                v,
                exact(p),
                "{spec}: root with tables {}",
                g.format_position(p)
            );
            let best = g.play(p, r.best.expect("a move"));
            assert_eq!(exact(&best).flip(), v, "{spec}: the move keeps the value");
            with_tables += 1;
        }
        assert!(
            proven > 20,
            "{spec}: only {proven} values proven without tables"
        );
        assert!(with_tables > 20);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn mcts_is_deterministic_for_a_seed() {
    let AnyGame::Hunt(g) = AnyGame::parse("cows-leopards-mogol").unwrap() else {
        panic!()
    };
    let p = sample_positions(&g, 1, 30, 30)[0];
    let cfg = MctsConfig {
        iterations: Some(500),
        cutoff: Some(20),
        ..MctsConfig::default()
    };
    let a = search(&g, &p, &[], &NoOracle, &cfg, &mut Rng::new(5));
    let b = search(&g, &p, &[], &NoOracle, &cfg, &mut Rng::new(5));
    assert_eq!(a.best, b.best);
    assert_eq!(a.iterations, 500);
    let va: Vec<u32> = a.children.iter().map(|c| c.visits).collect();
    let vb: Vec<u32> = b.children.iter().map(|c| c.visits).collect();
    assert_eq!(va, vb);
    assert_eq!(a.playout_plies, b.playout_plies);
    // A time budget stops too.
    let t = MctsConfig {
        iterations: None,
        time: Some(std::time::Duration::from_millis(50)),
        ..MctsConfig::default()
    };
    let r = search(&g, &p, &[], &NoOracle, &t, &mut Rng::new(5));
    assert!(r.iterations > 0 && r.best.is_some());
}

#[test]
fn mcts_engine_specs_parse_and_print() {
    for text in [
        "mcts=1000",
        "mcts-time=0.5",
        "mcts=50:cutoff=20",
        "mcts=7:cutoff=3:c=0.7",
    ] {
        let e = EngineSpec::parse(text).unwrap();
        assert_eq!(e.text(), text);
    }
    assert!(EngineSpec::parse("mcts=1000").unwrap().deterministic());
    assert!(!EngineSpec::parse("mcts-time=1").unwrap().deterministic());
    for bad in [
        "mcts",
        "mcts=0",
        "mcts=x",
        "mcts-time=-1",
        "mcts=5:cutoff=0",
        "mcts=5:k=1",
    ] {
        let e = EngineSpec::parse(bad).unwrap_err().to_string();
        assert!(e.contains("mcts=N"), "{bad}: {e}");
    }
    assert_eq!(
        MctsSpec::parse("mcts=10:c=2")
            .unwrap()
            .unwrap()
            .config()
            .exploration,
        2.0
    );
}

#[test]
fn kendall_tau_b_known_values() {
    use huntsolve::stats::kendall_tau_b;
    assert_eq!(kendall_tau_b(&[1.0, 2.0, 3.0], &[0.1, 0.2, 0.3]), 1.0);
    assert_eq!(kendall_tau_b(&[1.0, 2.0, 3.0], &[0.3, 0.2, 0.1]), -1.0);
    // One discordant pair of three: (2 - 1) / 3.
    assert!((kendall_tau_b(&[1.0, 2.0, 3.0], &[0.1, 0.3, 0.2]) - 1.0 / 3.0).abs() < 1e-12);
    // Ties: x = (1, 1, 2), y = (1, 2, 3): 2 concordant, 1 tied in x only.
    let t = kendall_tau_b(&[1.0, 1.0, 2.0], &[1.0, 2.0, 3.0]);
    assert!((t - 2.0 / (2.0f64 * 3.0).sqrt()).abs() < 1e-12, "{t}");
}

fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("huntsolve-mcts-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The ladder on a tiny case: two Kaooa variants at three strengths, with
/// asymmetric pairs; every cell is there, the files are written, and a rerun
/// replays nothing.
#[test]
fn ladder_on_a_tiny_case() {
    use huntsolve::stats::TournamentConfig;
    use huntsolve::stats::{run_ladder, write_ladder};
    let out = tmp("ladder");
    let specs = vec!["kaooa".to_string(), "kaooa-6".to_string()];
    let engines: Vec<EngineSpec> = ["random", "depth=2", "mcts=100"]
        .iter()
        .map(|e| EngineSpec::parse(e).unwrap())
        .collect();
    let base = TournamentConfig {
        games: 12,
        seed: 3,
        threads: 2,
        ..TournamentConfig::default()
    };
    let r = run_ladder(
        &huntsolve::stats::LadderRun {
            specs: &specs,
            engines: &engines,
            base: &base,
            tables: &[],
            opts: &huntsolve::stats::LadderOptions {
                asymmetric: true,
                ..Default::default()
            },
            out_dir: &out,
            command: "test",
            build: "",
        },
        &NoProgress,
    )
    .unwrap();
    assert_eq!(r.cells.len(), 2);
    assert!(r.cells.iter().all(|row| row.len() == 3));
    assert!(r.cells.iter().flatten().all(|c| c.games == 12));
    assert_eq!(r.agreement.len(), 3);
    assert_eq!(r.verdicts.len(), 1);
    assert_eq!(r.verdicts[0].differences.len(), 3);
    // 2 adjacent pairs × 2 orientations × 2 variants.
    assert_eq!(r.asymmetric.len(), 8);
    assert!(r
        .asymmetric
        .iter()
        .any(|a| a.engine0 == "mcts=100" && a.engine1 == "depth=2"));
    let files = write_ladder(&out, &r).unwrap();
    for f in &files {
        assert!(std::fs::metadata(f).unwrap().len() > 100, "{}", f.display());
    }
    let md = std::fs::read_to_string(out.join("ladder.md")).unwrap();
    assert!(md.contains("Kendall") && md.contains(&r.verdicts[0].sentence));
    assert!(out.join("mcts=100").join("report.md").exists());
    let again = run_ladder(
        &huntsolve::stats::LadderRun {
            specs: &specs,
            engines: &engines,
            base: &base,
            tables: &[],
            opts: &huntsolve::stats::LadderOptions {
                asymmetric: true,
                ..Default::default()
            },
            out_dir: &out,
            command: "test",
            build: "",
        },
        &NoProgress,
    )
    .unwrap();
    for (a, b) in r.cells.iter().flatten().zip(again.cells.iter().flatten()) {
        assert_eq!((a.wins, a.draws), (b.wins, b.draws));
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// The exact referee: with the whole of kaooa-6 solved, every game ends right
/// after the random opening plies with the exact value of that position.
#[test]
fn exact_referee_adjudicates_with_table_values() {
    use huntsolve::stats::run_compare_with;
    use huntsolve::stats::table_dirs;
    use huntsolve::stats::TournamentConfig;
    use huntsolve::stats::{load_games, EndReason};
    let (g, dir) = solved_tables("kaooa-6");
    let tables = table_dirs(std::slice::from_ref(&dir)).unwrap();
    let out = tmp("referee");
    let cfg = TournamentConfig {
        games: 16,
        seed: 9,
        engine: EngineSpec::parse("mcts=50").unwrap(),
        random_plies: 3,
        threads: 2,
        ..TournamentConfig::default()
    };
    let r = run_compare_with(
        &["kaooa-6".to_string()],
        &cfg,
        &tables,
        &out,
        "test",
        &NoProgress,
    )
    .unwrap();
    assert_eq!(r.variants[0].adjudicated, 16);
    let oracle = TableOracle::new(&g, &dir).unwrap();
    let mut vcfg = cfg.clone();
    vcfg.referee = huntsolve::stats::referee_text(&tables, &g.rules_string());
    let games = load_games(&g, &vcfg, &out.join("games-kaooa-6.jsonl")).unwrap();
    assert_eq!(games.len(), 16);
    for rec in &games {
        assert_eq!(rec.end, EndReason::Adjudicated);
        assert_eq!(rec.plies, 3);
        let line = rec.moves.join(" ");
        let p = huntsolve::game::play_line(&g, &g.start(), &line).unwrap();
        let (v, _) = oracle.try_probe(&p).unwrap().unwrap();
        let side = g.side_to_move(&p) as u8;
        let expected = match v {
            Value::Win => Some(side),
            Value::Loss => Some(1 - side),
            Value::Draw => None,
        };
        assert_eq!(rec.winner, expected);
    }
    // Tables for other rules are refused.
    let err = run_compare_with(
        &["kaooa".to_string()],
        &cfg,
        &tables,
        &out,
        "test",
        &NoProgress,
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("none of the variants"), "{err}");
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `explore` on a tiny grid: exact rows agree with the independent in-memory
/// solver; a size guard sends the bigger variants to the ladder; files are written.
#[test]
fn explore_mixes_exact_and_ladder_rows() {
    use crate::common::exact::solve_reachable;
    use huntsolve::stats::TournamentConfig;
    use huntsolve::stats::{run_explore, write_explore, ExploreConfig, GridOption, Method};
    let out = tmp("explore");
    let grid = vec![
        GridOption::parse("hunter_win=2..3").unwrap(),
        GridOption::parse("prey=5,6").unwrap(),
    ];
    let plan = |spec: &str| {
        huntsolve::retro::plan_any(
            &AnyGame::parse(spec).unwrap(),
            &Scope::Whole,
            huntsolve::retro::Compact::Auto,
            None,
        )
        .unwrap()
        .slots
    };
    // Between the sizes of the 5- and 6-crow games: 5 crows exact, 6 on the ladder.
    let guard = plan("kaooa,hunter_win=2,prey=5").max(plan("kaooa,hunter_win=3,prey=5"));
    assert!(guard < plan("kaooa,hunter_win=2,prey=6"));
    let cfg = ExploreConfig {
        engines: vec![EngineSpec::Random, EngineSpec::parse("mcts=30").unwrap()],
        tournament: TournamentConfig {
            games: 8,
            threads: 2,
            ..TournamentConfig::default()
        },
        solve: SolveOptions {
            threads: 2,
            memory_limit: None,
            ..Default::default()
        },
        max_exact_slots: guard,
        tables: out.join("tables"),
    };
    let r = run_explore("kaooa", &grid, &cfg, &out, "test", "", &NoProgress).unwrap();
    assert_eq!(r.rows.len(), 4);
    for row in &r.rows {
        if row.values[1] == "5" {
            assert_eq!(row.method, Method::Exact, "{}", row.rules);
            let AnyGame::Hunt(g) = AnyGame::parse(&row.rules).unwrap() else {
                panic!()
            };
            let exact = solve_reachable(&g, 5_000_000, &NoProgress).unwrap();
            assert_eq!(row.exact_value.as_deref(), Some(exact.value_for(0).name()));
            assert_eq!(row.length.estimate, exact.start_distance as f64);
        } else {
            assert_eq!(row.method, Method::Ladder, "{}", row.rules);
            assert!(
                row.balance.lo <= row.balance.estimate && row.balance.estimate <= row.balance.hi
            );
        }
    }
    // Ranked by balance.
    assert!(r
        .rows
        .windows(2)
        .all(|w| w[0].balance.estimate >= w[1].balance.estimate));
    for f in write_explore(&out, &r).unwrap() {
        assert!(
            std::fs::metadata(&f).unwrap().len() > 100,
            "{}",
            f.display()
        );
    }
    // The report said "Time: 0.6 s wall for this run" when it was
    // rendered again from the stored games. Two ladder rows, two engines, 8 games.
    assert_eq!((r.played.games, r.played.now), (32, 32));
    let md = |r: &huntsolve::stats::ExploreReport| {
        let files = write_explore(&out, r).unwrap();
        let f = files
            .iter()
            .find(|f| f.extension().is_some_and(|e| e == "md"))
            .unwrap();
        std::fs::read_to_string(f).unwrap()
    };
    let first = md(&r);
    assert!(
        first.contains("- This run: ") && first.contains("playing 32 games"),
        "{first}"
    );
    let again = run_explore("kaooa", &grid, &cfg, &out, "test", "", &NoProgress).unwrap();
    assert_eq!((again.played.games, again.played.now), (32, 0));
    let second = md(&again);
    assert!(!second.contains("for this run"), "{second}");
    assert!(
        second.contains("- This rendering: ") && second.contains("no game played"),
        "{second}"
    );
    assert!(second.contains("- Games: 32 games, played "), "{second}");
    assert!(GridOption::parse("prey").is_err() && GridOption::parse("prey=5..2").is_err());
    let one = run_explore("kaooa", &grid[..1], &cfg, &out, "test", "", &NoProgress);
    assert!(one.unwrap_err().to_string().contains("two or three"));
    let _ = std::fs::remove_dir_all(&out);
}

/// The verdict sentence of two variants across strengths: same direction,
/// reversal, no difference.
#[test]
fn ladder_verdicts_say_what_the_intervals_say() {
    use huntsolve::stats::variant_metrics;
    use huntsolve::stats::{cell_of, pair_verdict};
    use huntsolve::stats::{EndReason, GameRecord};
    // A variant's games at one strength: `w0` side-0 wins, `w1` side-1 wins, `d` draws.
    let cell = |name: &str, engine: &str, w0: usize, w1: usize, d: usize| {
        let rec = |winner: Option<u8>| GameRecord {
            rules: name.into(),
            fingerprint: 1,
            engine: engine.into(),
            random_plies: 0,
            opening: "uniform".into(),
            referee: None,
            max_plies: 100,
            index: 0,
            seed: 0,
            first: 0,
            winner,
            end: EndReason::Terminal,
            plies: 10,
            captures: [0, 0],
            millis: 1,
            played_at: None,
            moves: Vec::new(),
            legal_counts: Vec::new(),
        };
        let mut games = vec![rec(Some(0)); w0];
        games.extend(vec![rec(Some(1)); w1]);
        games.extend(vec![rec(None); d]);
        cell_of(
            &variant_metrics(name, ["hunter", "prey"], &games, 1),
            engine,
        )
    };
    let a = [
        cell("a", "weak", 150, 50, 0),
        cell("a", "strong", 50, 150, 0),
    ];
    let b = [
        cell("b", "weak", 50, 150, 0),
        cell("b", "strong", 150, 50, 0),
    ];
    let sides = ["hunter".to_string(), "prey".to_string()];
    let v = pair_verdict("a", "b", &a, &b, &sides);
    assert!(v.sentence.contains("reverses"), "{}", v.sentence);
    assert!(v.differences[0].lo > 0.0 && v.differences[1].hi < 0.0);
    let v = pair_verdict("a", "b", &a[..1], &b[..1], &sides);
    assert!(
        v.sentence.contains("at every strength tried"),
        "{}",
        v.sentence
    );
    let same = [
        cell("c", "weak", 100, 100, 0),
        cell("c", "strong", 60, 60, 80),
    ];
    let same2 = [
        cell("d", "weak", 98, 102, 0),
        cell("d", "strong", 61, 59, 80),
    ];
    let v = pair_verdict("c", "d", &same, &same2, &sides);
    assert!(
        v.sentence
            .starts_with("These games do not tell c and d apart"),
        "{}",
        v.sentence
    );
}
