//! The perfect engine, the exact value of the random openings, the ladder's
//! guards and the time-limited and `:tables` rungs.

use crate::game::{Game, Value};
use crate::progress::NoProgress;
use crate::retro::{solve, Scope, SolveOptions};
use crate::stats::ladder::{
    add_ratings, pair_verdict, run_ladder, AsymmetricRow, LadderCell, LadderOptions, LadderReport,
};
use crate::stats::perfect::opening_value;
use crate::stats::tournament::{EndReason, GameRecord};
use crate::stats::{EngineSpec, TournamentConfig};
use crate::AnyGame;

use super::{cell, tmp};

/// The engines of these names.
fn engine_specs(names: &[&str]) -> Vec<EngineSpec> {
    names
        .iter()
        .map(|e| EngineSpec::parse(e).unwrap())
        .collect()
}

/// [`run_ladder`] over these variants, rungs, settings and tables into `out`.
fn ladder(
    specs: &[String],
    engines: &[EngineSpec],
    base: &TournamentConfig,
    tables: &[crate::stats::referee::TableDir],
    opts: &LadderOptions,
    out: &std::path::Path,
) -> LadderReport {
    run_ladder(
        &crate::stats::ladder::LadderRun {
            specs,
            engines,
            base,
            tables,
            opts,
            out_dir: out,
            command: "t",
            build: "",
        },
        &NoProgress,
    )
    .unwrap()
}

fn solved(spec: &str, name: &str) -> std::path::PathBuf {
    let dir = tmp(name);
    let AnyGame::Hunt(g) = AnyGame::parse(spec).unwrap() else {
        panic!("{spec}")
    };
    let options = SolveOptions {
        threads: 1,
        memory_limit: None,
        ..Default::default()
    };
    solve(&g, &Scope::Whole, &dir, &options, &NoProgress).unwrap();
    dir
}

/// Perfect play from the tables reaches the exact value; the opening value
/// with no random ply is the start value; with tables covering the whole
/// game and refereeing, no engine moves and the ladder says so instead of
/// reporting an agreement across strengths.
#[test]
fn perfect_engine_openings_and_the_whole_game_warning() {
    let k7 = solved("kaooa", "k7");
    let k6 = solved("kaooa-6", "k6");
    let tables = crate::stats::referee::table_dirs(&[k7.clone(), k6.clone()]).unwrap();
    let AnyGame::Hunt(g) = AnyGame::parse("kaooa").unwrap() else {
        panic!()
    };
    let oracle = crate::stats::referee::oracle_for(&g, &tables)
        .unwrap()
        .unwrap();
    let v0 = opening_value(&g, oracle.as_ref(), 0, 1000)
        .unwrap()
        .unwrap();
    // Kaooa: the crows (side 1, first to move) win from the start.
    assert_eq!(g.side_to_move(&g.start()), 1);
    assert_eq!(
        (v0.start0.as_str(), v0.score0, v0.positions),
        ("loss", 0.0, 1)
    );
    let v2 = opening_value(&g, oracle.as_ref(), 2, 1000)
        .unwrap()
        .unwrap();
    let total = v2.wins[0] + v2.wins[1] + v2.draws;
    assert!((total - 1.0).abs() < 1e-12 && v2.positions > 1, "{v2:?}");
    assert!(matches!(
        crate::stats::perfect::exact_value(&g, oracle.as_ref(), &g.start()),
        Some((Value::Win, _))
    ));

    let specs = vec!["kaooa".to_string(), "kaooa-6".to_string()];
    let engines = engine_specs(&["random", "depth=1"]);
    let base = TournamentConfig {
        games: 6,
        seed: 5,
        threads: 1,
        random_plies: 2,
        ..TournamentConfig::default()
    };
    let out = tmp("whole");
    let r = ladder(
        &specs,
        &engines,
        &base,
        &tables,
        &LadderOptions::default(),
        &out,
    );
    assert!(r.cells.iter().flatten().all(|c| c.unplayed()));
    assert!(r.summary.contains("No engine moved"), "{}", r.summary);
    assert!(
        !r.summary.contains("the same at every strength"),
        "{}",
        r.summary
    );
    assert!(
        r.warnings.iter().any(|w| w.contains("no engine moved")),
        "{:?}",
        r.warnings
    );
    assert!(r.verdicts[0].sentence.contains("before any engine moved"));

    // The tables as the truth only: perfect play, ratings and calibration.
    let engines = engine_specs(&["random", "perfect"]);
    let opts = LadderOptions {
        rate_games: 6,
        no_referee: true,
        ..Default::default()
    };
    let out = tmp("perfect");
    let r = ladder(&specs, &engines, &base, &tables, &opts, &out);
    assert!(r
        .cells
        .iter()
        .flatten()
        .all(|c| c.adjudicated == 0 && !c.unplayed()));
    assert_eq!(r.cross_play.len(), 2 * 2);
    assert_eq!(r.ratings.len(), 2);
    assert_eq!(r.measured_order.last().map(String::as_str), Some("perfect"));
    let cal = r.calibration.as_ref().expect("tables cover the openings");
    assert_eq!(cal.rungs.len(), 2);
    // Perfect players reach the exact value of each game's opening: the cell's
    // score is the exact mean over the games' openings (the sampled value).
    assert!(cal.rungs[1].max_abs_error < 1e-12, "{:?}", cal.rungs[1]);
    assert_eq!(cal.rungs[1].covered, 2, "{:?}", cal.rungs[1]);
    for (cells, x) in r.cells.iter().zip(&cal.exact) {
        let sampled = x.sampled.as_ref().expect("uniform openings are sampled");
        assert_eq!(sampled.games, 6);
        assert!((cells[1].score0.estimate - sampled.score0).abs() < 1e-12);
    }
    // Here every opening of a variant has one value, so both truths agree;
    // a sample that differs from all openings is
    // strength::calibration_scores_against_the_sampled_openings.
    for x in &cal.exact {
        assert!((x.score0 - x.truth0()).abs() < 1e-9, "{x:?}");
    }
    let files = crate::stats::ladder::write_ladder(&out, &r).unwrap();
    let md = std::fs::read_to_string(&files[0]).unwrap();
    assert!(md.contains("Against the exact values") && md.contains("Measured strength"));
    assert!(md.contains("they end no game"));
    for d in [k7, k6, out, tmp("whole")] {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// Two variants with identical results (the same rules under two names) and
/// asymmetric pairs: the ladder does not say the ordering "changes between
/// some strengths".
#[test]
fn identical_variants_have_no_ordering_to_change() {
    let specs = vec![
        "kaooa-6".to_string(),
        "kaooa,prey=6,hunter_win=captures>=3".to_string(),
    ];
    let a = AnyGame::parse(&specs[0]).unwrap();
    let b = AnyGame::parse(&specs[1]).unwrap();
    let canon = |x: &AnyGame| crate::with_game!(x, g => g.rules_string());
    assert_eq!(canon(&a), canon(&b), "the two names must be one variant");
    let engines = engine_specs(&["random", "depth=1"]);
    let base = TournamentConfig {
        games: 8,
        seed: 2,
        threads: 1,
        ..TournamentConfig::default()
    };
    let out = tmp("identical");
    let opts = LadderOptions {
        asymmetric: true,
        ..Default::default()
    };
    let r = ladder(&specs, &engines, &base, &[], &opts, &out);
    assert!(
        !r.summary.contains("changes between some strengths"),
        "{}",
        r.summary
    );
    assert!(
        r.summary.contains("same hunter's score") || r.summary.contains("same"),
        "{}",
        r.summary
    );
    assert!(
        r.verdicts[0].sentence.contains("identical results"),
        "{}",
        r.verdicts[0].sentence
    );
    let _ = std::fs::remove_dir_all(out);
}

/// A ladder of two variants over `engines` with the given self-play cells
/// (the same at every rung: variant "a" favours the hunter, "b" the prey)
/// and cross-play between rungs: `cross[(i, j)]` = side-0 wins, side-1 wins
/// and draws of rung i (side 0) against rung j, the same on both variants.
type CrossPlay = ((usize, usize), (u32, u32, u32));

fn rated_ladder(engines: &[&str], cross: &[CrossPlay]) -> LadderReport {
    let sides = ["hunter".to_string(), "prey".to_string()];
    let games = |w0: u32, w1: u32, d: u32| -> Vec<(Option<u8>, u32)> {
        (0..w0)
            .map(|_| (Some(0), 1))
            .chain((0..w1).map(|_| (Some(1), 0)))
            .chain((0..d).map(|_| (None, 0)))
            .collect()
    };
    let variants = ["a", "b"];
    let cells: Vec<Vec<LadderCell>> = variants
        .iter()
        .map(|v| {
            let (w0, w1) = if *v == "a" { (50, 10) } else { (10, 50) };
            engines
                .iter()
                .map(|e| cell(v, e, &games(w0, w1, 0)))
                .collect()
        })
        .collect();
    let mut rows = Vec::new();
    for v in variants {
        for &((i, j), (w0, w1, d)) in cross {
            rows.push(AsymmetricRow {
                variant: v.into(),
                engine0: engines[i].into(),
                engine1: engines[j].into(),
                cell: cell(
                    v,
                    &format!("{} vs {}", engines[i], engines[j]),
                    &games(w0, w1, d),
                ),
            });
        }
    }
    LadderReport {
        title: "t".into(),
        command: "t".into(),
        build: String::new(),
        engines: engines.iter().map(|e| e.to_string()).collect(),
        variants: variants.iter().map(|v| v.to_string()).collect(),
        side_names: sides.clone(),
        games: 60,
        seed: 1,
        random_plies: 4,
        tables: Vec::new(),
        tables_only: false,
        verdicts: vec![pair_verdict("a", "b", &cells[0], &cells[1], &sides)],
        cells,
        agreement: Vec::new(),
        mean_tau: None,
        summary: String::new(),
        warnings: Vec::new(),
        asymmetric: Vec::new(),
        cross_play: rows,
        ratings: Vec::new(),
        measured_order: Vec::new(),
        calibration: None,
        ludii: Vec::new(),
        wall_seconds: 0.0,
        played: Default::default(),
    }
}

/// The rating guards: a rung that does not beat the one below is named (not
/// measurably stronger, or weaker), and a verdict that holds at the two
/// strongest rungs says so only as far as those two differ measurably.
#[test]
fn rating_guards_name_rungs_that_do_not_differ() {
    // mid = weak (even games both ways), strong beats both 36-4.
    let mut r = rated_ladder(
        &["weak", "mid", "strong"],
        &[
            ((1, 0), (20, 20, 0)),
            ((0, 1), (20, 20, 0)),
            ((2, 1), (36, 4, 0)),
            ((1, 2), (4, 36, 0)),
            ((2, 0), (36, 4, 0)),
            ((0, 2), (4, 36, 0)),
        ],
    );
    add_ratings(&mut r).unwrap();
    assert_eq!(r.ratings.len(), 2);
    assert_eq!(r.measured_order.last().map(String::as_str), Some("strong"));
    let about = |w: &str| r.warnings.iter().filter(|x| x.contains(w)).count();
    assert_eq!(
        about("mid is not measurably stronger than weak"),
        2,
        "{:?}",
        r.warnings
    );
    assert_eq!(about("strong is"), 0, "{:?}", r.warnings);
    let s = &r.verdicts[0].strongest;
    assert!(
        s.contains("the verdict holds") && s.contains("a gives the hunter"),
        "{s}"
    );
    assert!(!s.contains("not measurably"), "{s}");

    // strong = mid, both beat weak: the two strongest rungs are one strength.
    let mut r = rated_ladder(
        &["weak", "mid", "strong"],
        &[
            ((1, 0), (36, 4, 0)),
            ((0, 1), (4, 36, 0)),
            ((2, 1), (20, 20, 0)),
            ((1, 2), (20, 20, 0)),
            ((2, 0), (36, 4, 0)),
            ((0, 2), (4, 36, 0)),
        ],
    );
    add_ratings(&mut r).unwrap();
    assert_eq!(
        r.warnings
            .iter()
            .filter(|w| w.contains("strong is not measurably stronger than mid"))
            .count(),
        2,
        "{:?}",
        r.warnings
    );
    let s = &r.verdicts[0].strongest;
    assert!(s.contains("the verdict holds"), "{s}");
    assert!(
        s.contains("is not measurably stronger than") && s.contains("on a and b"),
        "{s}"
    );

    // The rung given above is the weaker: "weaker than", not "not measurably".
    let mut r = rated_ladder(&["x", "y"], &[((0, 1), (36, 4, 0)), ((1, 0), (4, 36, 0))]);
    add_ratings(&mut r).unwrap();
    assert_eq!(
        r.warnings
            .iter()
            .filter(|w| w.contains("y is weaker than x"))
            .count(),
        2,
        "{:?}",
        r.warnings
    );
    assert_eq!(r.measured_order, vec!["y".to_string(), "x".to_string()]);

    // No cross-play: nothing to fit, nothing claimed.
    let mut r = rated_ladder(&["x", "y"], &[]);
    add_ratings(&mut r).unwrap();
    assert!(r.ratings.is_empty() && r.warnings.is_empty());
    assert!(r.verdicts[0].strongest.is_empty());
}

/// The `:tables` modifier: parsed for the alpha-beta engines only, written
/// back as given, and refused without tables.
#[test]
fn table_leaves_engine_syntax() {
    for t in ["depth=3:tables", "time=0.25:tables"] {
        let e = EngineSpec::parse(t).unwrap();
        assert_eq!(e.text(), t);
    }
    assert!(EngineSpec::parse("time=0.25:tables").unwrap().timed());
    assert!(!EngineSpec::parse("time=0.25:tables")
        .unwrap()
        .deterministic());
    assert!(EngineSpec::parse("depth=3:tables").unwrap().deterministic());
    assert!(EngineSpec::parse("mcts-time=0.5").unwrap().timed());
    assert!(!EngineSpec::parse("mcts=50").unwrap().timed());
    for bad in [
        "random:tables",
        "perfect:tables",
        "mcts=10:tables",
        "depth=3:tables:tables",
        "time=0:tables",
        ":tables",
    ] {
        assert!(EngineSpec::parse(bad).is_err(), "{bad}");
    }
    let AnyGame::Hunt(g) = AnyGame::parse("kaooa").unwrap() else {
        panic!()
    };
    fn refused<G: crate::game::FullGame>(_: &G, e: &EngineSpec) -> Option<crate::Error> {
        crate::stats::make_agent::<G>(e, None).err()
    }
    let e = EngineSpec::parse("depth=2:tables").unwrap();
    let err = refused(&g, &e).expect("no tables");
    assert!(err.to_string().contains("--tables"), "{err}");
}

/// Time-limited rungs (alpha-beta by time with the tables as leaves, and
/// MCTS by time) finish their games with legal moves only. No timing is
/// asserted: only that every recorded game replays move by move and ends as
/// its record says.
#[test]
fn time_limited_rungs_play_legal_games_to_the_end() {
    let k7 = solved("kaooa", "timed-k7");
    let tables = crate::stats::referee::table_dirs(std::slice::from_ref(&k7)).unwrap();
    let specs = vec!["kaooa".to_string()];
    let names = ["time=0.002", "time=0.002:tables", "mcts-time=0.002"];
    let engines = engine_specs(&names);
    let base = TournamentConfig {
        games: 3,
        seed: 9,
        threads: 1,
        random_plies: 2,
        ..TournamentConfig::default()
    };
    let out = tmp("timed");
    let opts = LadderOptions {
        rate_games: 1,
        no_referee: true,
        ..Default::default()
    };
    let r = ladder(&specs, &engines, &base, &tables, &opts, &out);
    assert_eq!(r.cells[0].len(), 3);
    assert!(r.cells[0]
        .iter()
        .all(|c| c.games == 3 && c.adjudicated == 0));
    let AnyGame::Hunt(g) = AnyGame::parse("kaooa").unwrap() else {
        panic!()
    };
    for name in names {
        let file = out
            .join(crate::stats::report::safe_name(name))
            .join("games-kaooa.jsonl");
        let text = std::fs::read_to_string(&file).unwrap();
        let recs: Vec<GameRecord> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(recs.len(), 3, "{name}");
        for rec in recs {
            assert_eq!(rec.engine, name);
            let end = crate::game::play_line(&g, &g.start(), &rec.moves.join(" ")).unwrap();
            assert_eq!(rec.moves.len() as u32, rec.plies);
            match rec.end {
                EndReason::Terminal => assert!(g.outcome(&end).is_some(), "{name}: {rec:?}"),
                EndReason::MoveLimit => assert_eq!(rec.plies, rec.max_plies),
                EndReason::Repetition => assert!(rec.winner.is_none()),
                EndReason::Adjudicated => panic!("no referee: {rec:?}"),
            }
        }
    }
    let files = crate::stats::ladder::write_ladder(&out, &r).unwrap();
    let md = std::fs::read_to_string(&files[0]).unwrap();
    assert!(
        md.contains("Time-limited rungs (`time=0.002`, `time=0.002:tables`, `mcts-time=0.002`)"),
        "{md}"
    );
    for d in [k7, out] {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// A `:tables` search reads the tables at its leaves and, where they cover
/// every child, plays a move that keeps the exact win (kaooa's start is a
/// crows' win; the tables cover the whole game).
#[test]
fn table_leaves_search_probes_the_tables_and_keeps_the_win() {
    use crate::stats::agent::SharedOracle;
    use crate::stats::search_agent::{SearchAgent, TableSearchAgent};
    use crate::stats::Agent;
    use std::sync::atomic::{AtomicU64, Ordering};
    struct Counting<G: Game>(SharedOracle<G>, AtomicU64);
    impl<G: Game> crate::Oracle<G> for Counting<G> {
        fn probe(&self, game: &G, pos: &G::Pos) -> Option<(Value, u32)> {
            self.1.fetch_add(1, Ordering::Relaxed);
            self.0.probe(game, pos)
        }
    }
    let k7 = solved("kaooa", "leaves-k7");
    let tables = crate::stats::referee::table_dirs(std::slice::from_ref(&k7)).unwrap();
    let AnyGame::Hunt(g) = AnyGame::parse("kaooa").unwrap() else {
        panic!()
    };
    let tables_oracle = crate::stats::referee::oracle_for(&g, &tables)
        .unwrap()
        .unwrap();
    let counting = std::sync::Arc::new(Counting(tables_oracle.clone(), AtomicU64::new(0)));
    let agent = TableSearchAgent {
        search: SearchAgent::depth(2),
        oracle: counting.clone(),
    };
    assert_eq!(Agent::<_>::describe(&agent), "depth=2:tables");
    let start = g.start();
    let mut rng = crate::random::Rng::new(1);
    let mv = agent.choose(&g, &start, &[], &mut rng).unwrap();
    assert!(counting.1.load(Ordering::Relaxed) > 0, "no probe");
    let child = g.play(&start, mv);
    assert!(
        matches!(tables_oracle.probe(&g, &child), Some((Value::Loss, _))),
        "the move gives the win away"
    );
    let _ = std::fs::remove_dir_all(k7);
}

/// `bench --ladder`'s timing plays the games `compare` plays (same seeds,
/// same plies) at each rung; no timing is asserted.
#[test]
fn rung_speed_counts_the_compare_games() {
    use crate::stats::speed::bench_rungs;
    let AnyGame::Hunt(g) = AnyGame::parse("kaooa").unwrap() else {
        panic!()
    };
    let engines = engine_specs(&["random", "depth=1", "time=0.001"]);
    let r = bench_rungs(&g, &engines, 3, 7, 2, &NoProgress).unwrap();
    assert_eq!(r.rungs.len(), 3);
    let agent = crate::stats::make_agent(&engines[1], None).unwrap();
    let cfg = TournamentConfig {
        games: 3,
        seed: 7,
        engine: engines[1].clone(),
        random_plies: 2,
        threads: 1,
        ..TournamentConfig::default()
    };
    let plies: u64 = (0..3)
        .map(|i| {
            u64::from(
                crate::stats::play_game(&g, agent.as_ref(), &cfg, i)
                    .unwrap()
                    .plies,
            )
        })
        .sum();
    assert_eq!(r.rungs[1].plies, plies);
    assert_eq!(
        r.rungs.iter().map(|s| s.timed).collect::<Vec<_>>(),
        vec![false, false, true]
    );
    for s in &r.rungs {
        assert_eq!(s.games, 3);
        assert!(s.plies >= 3 && s.seconds_for(200) > 0.0, "{s:?}");
    }
    assert!(bench_rungs(&g, &engines, 0, 7, 2, &NoProgress).is_err());
    let perfect = [EngineSpec::Perfect];
    assert!(bench_rungs(&g, &perfect, 1, 7, 2, &NoProgress).is_err());
}
