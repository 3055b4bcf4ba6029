//! (Module of the integration-test crate tests/it.)
//! Issue 24: material outcomes (capture histograms, Mann-Whitney), the
//! rungs' measured strength (Bradley-Terry), the perfect engine, the exact
//! value of the random openings, the calibration, and the guards against
//! overclaiming verdicts.

use huntsolve::game::{Game, Value};
use huntsolve::progress::NoProgress;
use huntsolve::retro::{solve, Scope, SolveOptions};
use huntsolve::stats::ladder::{
    add_ratings, calibrate, cell_of, pair_verdict, run_ladder, AsymmetricRow, LadderCell,
    LadderOptions, LadderReport,
};
use huntsolve::stats::material::{histogram, mann_whitney, mean_interval, share_at_least};
use huntsolve::stats::metrics::variant_metrics;
use huntsolve::stats::perfect::{opening_value, OpeningValue};
use huntsolve::stats::rating::{fit_bradley_terry, invert, Match, ELO_PER_UNIT};
use huntsolve::stats::tournament::{EndReason, GameRecord};
use huntsolve::stats::{EngineSpec, TournamentConfig};
use huntsolve::AnyGame;
use statrs::function::erf::erfc;

fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("huntsolve-strength-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn record(winner: Option<u8>, captures: [u32; 2], plies: u32, random_plies: u32) -> GameRecord {
    GameRecord {
        rules: "x".into(),
        fingerprint: 1,
        engine: "e".into(),
        random_plies,
        opening: "uniform".into(),
        referee: None,
        max_plies: 100,
        index: 0,
        seed: 0,
        first: 0,
        winner,
        end: EndReason::Terminal,
        plies,
        captures,
        millis: 1,
        moves: Vec::new(),
    }
}

/// A cell from (winner, hunter captures) games.
fn cell(name: &str, engine: &str, games: &[(Option<u8>, u32)]) -> LadderCell {
    let recs: Vec<GameRecord> = games
        .iter()
        .map(|&(w, c)| record(w, [c, 0], 20, 4))
        .collect();
    cell_of(&variant_metrics(name, ["hunter", "prey"], &recs, 1), engine)
}

/// Capture histograms of known games: counts, mean, share reaching N.
#[test]
fn capture_counts_of_known_games() {
    let recs = vec![
        record(None, [0, 1], 30, 4),
        record(None, [2, 0], 30, 4),
        record(Some(0), [3, 0], 30, 4),
        record(None, [2, 2], 4, 4),
    ];
    let m = variant_metrics("v", ["hunter", "prey"], &recs, 1);
    assert_eq!(m.capture_counts[0], vec![1, 0, 2, 1]);
    assert_eq!(m.capture_counts[1], vec![2, 1, 1]);
    assert_eq!(m.no_engine_move, 1);
    assert_eq!(histogram([1, 1, 4]), vec![0, 2, 0, 0, 1]);
    let c = cell_of(&m, "e");
    // Mean 7/4, sample variance ((1.75)² + 2(0.25)² + (1.25)²)/3 = 1.5833.
    let mean = c.captures_mean[0];
    assert!((mean.estimate - 1.75).abs() < 1e-12);
    let half = 1.959_963_984_540_054 * (1.583_333_333_333_333_3f64 / 4.0).sqrt();
    assert!((mean.hi - (1.75 + half)).abs() < 1e-9, "{mean:?}");
    assert_eq!(share_at_least(&c.capture_counts[0], 2).estimate, 0.75);
    assert_eq!(share_at_least(&c.capture_counts[0], 4).estimate, 0.0);
    assert_eq!(share_at_least(&c.capture_counts[0], 0).estimate, 1.0);
    assert_eq!(mean_interval(&[]).estimate, 0.0);
}

/// Mann-Whitney U against brute force over all pairs, the tie-corrected
/// variance against the exact permutation distribution, and a textbook
/// p-value (SciPy's `mannwhitneyu([1,2,3], [4,5,6], method="asymptotic")`).
#[test]
fn mann_whitney_against_independent_values() {
    // No ties: U = 0, z = (4.5 − 0.5) / sqrt(5.25).
    let t = mann_whitney(&histogram([1, 2, 3]), &histogram([4, 5, 6]));
    assert_eq!(t.u, 0.0);
    assert_eq!(t.superiority, 0.0);
    let z = 4.0 / 5.25f64.sqrt();
    let p = erfc(z / std::f64::consts::SQRT_2);
    assert!(
        (t.p_value - p).abs() < 1e-12 && (p - 0.080_855_6).abs() < 1e-6,
        "{t:?}"
    );
    assert!(t.z < 0.0);
    // With ties: brute-force U, and the variance over every split of the
    // pooled sample equals the tie-corrected formula used by the test.
    let a = [0u32, 0, 1, 2];
    let b = [1u32, 1, 2, 3];
    let brute: f64 = a
        .iter()
        .flat_map(|&x| b.iter().map(move |&y| (x, y)))
        .map(|(x, y)| match x.cmp(&y) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Less => 0.0,
        })
        .sum();
    let t = mann_whitney(&histogram(a), &histogram(b));
    assert_eq!(t.u, brute);
    let pooled: Vec<u32> = a.iter().chain(&b).copied().collect();
    let mut us = Vec::new();
    for mask in 0u32..256 {
        if mask.count_ones() != 4 {
            continue;
        }
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for (i, &v) in pooled.iter().enumerate() {
            if mask & (1 << i) != 0 {
                x.push(v)
            } else {
                y.push(v)
            }
        }
        us.push(mann_whitney(&histogram(x), &histogram(y)).u);
    }
    let mean = us.iter().sum::<f64>() / us.len() as f64;
    let var = us.iter().map(|u| (u - mean).powi(2)).sum::<f64>() / us.len() as f64;
    assert!((mean - 8.0).abs() < 1e-12);
    let z = ((brute - 8.0).abs() - 0.5) / var.sqrt();
    let p = erfc(z / std::f64::consts::SQRT_2);
    assert!((t.p_value - p).abs() < 1e-9, "{} vs {p}", t.p_value);
    // Everything tied: nothing to test.
    let t = mann_whitney(&[5], &[7]);
    assert_eq!((t.p_value, t.superiority), (1.0, 0.5));
}

/// Bradley-Terry with a side advantage: a saturated two-engine table has a
/// closed-form answer; expected scores made from known ratings give them back.
#[test]
fn bradley_terry_recovers_known_ratings() {
    // A (0) as side 0 scores 0.8 against B; B as side 0 scores 0.4 against A:
    // r_B − r_A = −(logit 0.8 − logit 0.4) / 2, h = (logit 0.8 + logit 0.4) / 2.
    let logit = |p: f64| (p / (1.0 - p)).ln();
    let m = |i, j, n: f64, s: f64| Match {
        side0: i,
        side1: j,
        games: n,
        score0: n * s,
        score0_sq: n * s,
    };
    let fit = fit_bradley_terry(&[m(0, 1, 100.0, 0.8), m(1, 0, 100.0, 0.4)], 2, 0.0).unwrap();
    let want = -(logit(0.8) - logit(0.4)) / 2.0 * ELO_PER_UNIT;
    assert!((fit.ratings[1].estimate - want).abs() < 1e-6, "{fit:?}");
    let h = (logit(0.8) + logit(0.4)) / 2.0 * ELO_PER_UNIT;
    assert!((fit.side0_advantage.estimate - h).abs() < 1e-6);
    assert!(fit.ratings[1].hi < 0.0, "B is measurably weaker: {fit:?}");
    // Three engines at 0, 1.0 and 0.3 logistic units, side advantage −0.5.
    let truth = [0.0, 1.0, 0.3];
    let sig = |x: f64| 1.0 / (1.0 + (-x).exp());
    let mut matches = Vec::new();
    for i in 0..3 {
        for j in 0..3 {
            if i != j {
                matches.push(m(i, j, 400.0, sig(truth[i] - truth[j] - 0.5)));
            }
        }
    }
    let fit = fit_bradley_terry(&matches, 3, 0.0).unwrap();
    for (k, t) in truth.iter().enumerate() {
        assert!(
            (fit.ratings[k].estimate - t * ELO_PER_UNIT).abs() < 1e-6,
            "{k}: {fit:?}"
        );
    }
    assert!((fit.side0_advantage.estimate + 0.5 * ELO_PER_UNIT).abs() < 1e-6);
    assert_eq!(fit.order(), vec![0, 2, 1]);
    let d = fit.difference(2, 1);
    assert!((d.estimate - 0.7 * ELO_PER_UNIT).abs() < 1e-6 && d.lo > 0.0);
    // A rung that won everything: finite only with the prior.
    let sweep = [m(1, 0, 20.0, 1.0), m(0, 1, 20.0, 0.0)];
    assert!(fit_bradley_terry(&sweep, 2, 0.0).is_err());
    let f = fit_bradley_terry(&sweep, 2, 1.0).unwrap();
    assert!(
        f.ratings[1].estimate > 300.0 && f.ratings[1].lo > 0.0,
        "{f:?}"
    );
    // Not connected: engine 2 never played.
    assert!(fit_bradley_terry(&sweep, 3, 0.0).is_err());
    assert!(invert(&[vec![1.0, 2.0], vec![2.0, 4.0]]).is_none());
}

/// The verdict speaks of captures when every game is drawn, and says so when
/// two variants' results are identical.
#[test]
fn verdicts_use_captures_and_do_not_overclaim() {
    let sides = ["hunter".to_string(), "prey".to_string()];
    let drawn = |name: &str, caps: u32| {
        let g: Vec<(Option<u8>, u32)> = (0..60).map(|i| (None, caps + (i % 2))).collect();
        [cell(name, "weak", &g), cell(name, "strong", &g)]
    };
    let (a, b) = (drawn("a", 3), drawn("b", 1));
    let v = pair_verdict("a", "b", &a, &b, &sides);
    assert!(
        v.sentence.contains("was drawn") && v.sentence.contains("by captures"),
        "{}",
        v.sentence
    );
    assert!(
        v.sentence
            .contains("captures more in a than in b at every strength"),
        "{}",
        v.sentence
    );
    assert!(v.captures.iter().all(|c| c[0].sign() == 1));
    // Most games of one variant ended by the tables (after engine moves):
    // the verdict says that its results there are the tables' values.
    let judged = |name: &str, engine: &str, adjudicated: usize| {
        let recs: Vec<GameRecord> = (0..60)
            .map(|i| {
                let mut r = record(if i % 3 == 0 { Some(0) } else { None }, [1, 0], 20, 4);
                if i < adjudicated {
                    r.end = EndReason::Adjudicated;
                }
                r
            })
            .collect();
        cell_of(&variant_metrics(name, ["hunter", "prey"], &recs, 1), engine)
    };
    let e = [judged("e", "weak", 0), judged("e", "strong", 40)];
    let f = [judged("f", "weak", 0), judged("f", "strong", 0)];
    let v = pair_verdict("e", "f", &e, &f, &sides);
    assert!(
        v.sentence
            .contains("At strong most games of e or f were ended by the exact tables"),
        "{}",
        v.sentence
    );
    assert!(!v.sentence.contains("At weak"), "{}", v.sentence);
    let v = pair_verdict("a", "b", &a, &b, &sides);
    assert!(!v.sentence.contains("exact tables"), "{}", v.sentence);
    let same = drawn("c", 2);
    let same2 = drawn("d", 2);
    let v = pair_verdict("c", "d", &same, &same2, &sides);
    assert!(v.sentence.contains("identical results"), "{}", v.sentence);
    assert!(
        v.captures_sentence
            .to_lowercase()
            .contains("no clear difference"),
        "{}",
        v.captures_sentence
    );
}

/// Calibration counts on cells with known exact values.
#[test]
fn calibration_counts_agreements() {
    let games = |w0: usize, n: usize| -> Vec<(Option<u8>, u32)> {
        (0..n)
            .map(|i| (if i < w0 { Some(0) } else { Some(1) }, 0))
            .collect()
    };
    // Rung 0: a 90 %, b 10 % (right direction); rung 1: a 10 %, b 90 % (wrong);
    // c equals b's exact value, and at rung 0 also its score.
    let cells = vec![
        vec![
            cell("a", "r0", &games(90, 100)),
            cell("a", "r1", &games(10, 100)),
        ],
        vec![
            cell("b", "r0", &games(10, 100)),
            cell("b", "r1", &games(90, 100)),
        ],
        vec![
            cell("c", "r0", &games(10, 100)),
            cell("c", "r1", &games(10, 100)),
        ],
    ];
    let exact = |score0: f64| OpeningValue {
        random_plies: 4,
        wins: [score0, 1.0 - score0],
        draws: 0.0,
        score0,
        positions: 1,
        start0: "draw".into(),
        start_score0: 0.5,
    };
    let engines = vec!["r0".to_string(), "r1".to_string()];
    let c = calibrate(&cells, &engines, &[exact(0.9), exact(0.1), exact(0.1)]);
    let (r0, r1) = (&c.rungs[0], &c.rungs[1]);
    assert_eq!(
        (r0.pairs, r0.agree, r0.wrong, r0.missed, r0.false_difference),
        (3, 3, 0, 0, 0)
    );
    // r1: a<b wrong, a<c? a 10 % vs c 10 %: no difference where exact says a>c (missed),
    // b>c claimed where exact equal (false difference).
    assert_eq!(
        (r1.agree, r1.wrong, r1.missed, r1.false_difference),
        (0, 1, 1, 1)
    );
    assert!(r0.mean_abs_error < 1e-12 && (r1.max_abs_error - 0.8).abs() < 1e-12);
    assert_eq!(r0.agree_start, 1);
    assert_eq!(c.pairs.len(), 3);
    assert_eq!(c.pairs[0].signs, vec![1, -1]);
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
    let tables = huntsolve::stats::referee::table_dirs(&[k7.clone(), k6.clone()]).unwrap();
    let AnyGame::Hunt(g) = AnyGame::parse("kaooa").unwrap() else {
        panic!()
    };
    let oracle = huntsolve::stats::referee::oracle_for(&g, &tables)
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
        huntsolve::stats::perfect::exact_value(&g, oracle.as_ref(), &g.start()),
        Some((Value::Win, _))
    ));

    let specs = vec!["kaooa".to_string(), "kaooa-6".to_string()];
    let engines: Vec<EngineSpec> = ["random", "depth=1"]
        .iter()
        .map(|e| EngineSpec::parse(e).unwrap())
        .collect();
    let base = TournamentConfig {
        games: 6,
        seed: 5,
        threads: 1,
        random_plies: 2,
        ..TournamentConfig::default()
    };
    let out = tmp("whole");
    let r = run_ladder(
        &huntsolve::stats::ladder::LadderRun {
            specs: &specs,
            engines: &engines,
            base: &base,
            tables: &tables,
            opts: &LadderOptions::default(),
            out_dir: &out,
            command: "t",
            build: "",
        },
        &NoProgress,
    )
    .unwrap();
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
    let engines: Vec<EngineSpec> = ["random", "perfect"]
        .iter()
        .map(|e| EngineSpec::parse(e).unwrap())
        .collect();
    let opts = LadderOptions {
        rate_games: 6,
        no_referee: true,
        ..Default::default()
    };
    let out = tmp("perfect");
    let r = run_ladder(
        &huntsolve::stats::ladder::LadderRun {
            specs: &specs,
            engines: &engines,
            base: &base,
            tables: &tables,
            opts: &opts,
            out_dir: &out,
            command: "t",
            build: "",
        },
        &NoProgress,
    )
    .unwrap();
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
    // score is the exact mean over the games' openings, within the sampling
    // of 6 openings.
    assert!(cal.rungs[1].max_abs_error < 0.5, "{:?}", cal.rungs[1]);
    let files = huntsolve::stats::ladder::write_ladder(&out, &r).unwrap();
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
    let canon = |x: &AnyGame| huntsolve::with_game!(x, g => g.rules_string());
    assert_eq!(canon(&a), canon(&b), "the two names must be one variant");
    let engines: Vec<EngineSpec> = ["random", "depth=1"]
        .iter()
        .map(|e| EngineSpec::parse(e).unwrap())
        .collect();
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
    let r = run_ladder(
        &huntsolve::stats::ladder::LadderRun {
            specs: &specs,
            engines: &engines,
            base: &base,
            tables: &[],
            opts: &opts,
            out_dir: &out,
            command: "t",
            build: "",
        },
        &NoProgress,
    )
    .unwrap();
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
        wall_seconds: 0.0,
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
    fn refused<G: huntsolve::FullGame>(_: &G, e: &EngineSpec) -> Option<huntsolve::Error> {
        huntsolve::stats::make_agent::<G>(e, None).err()
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
    let tables = huntsolve::stats::referee::table_dirs(std::slice::from_ref(&k7)).unwrap();
    let specs = vec!["kaooa".to_string()];
    let names = ["time=0.002", "time=0.002:tables", "mcts-time=0.002"];
    let engines: Vec<EngineSpec> = names
        .iter()
        .map(|e| EngineSpec::parse(e).unwrap())
        .collect();
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
    let r = run_ladder(
        &huntsolve::stats::ladder::LadderRun {
            specs: &specs,
            engines: &engines,
            base: &base,
            tables: &tables,
            opts: &opts,
            out_dir: &out,
            command: "t",
            build: "",
        },
        &NoProgress,
    )
    .unwrap();
    assert_eq!(r.cells[0].len(), 3);
    assert!(r.cells[0]
        .iter()
        .all(|c| c.games == 3 && c.adjudicated == 0));
    let AnyGame::Hunt(g) = AnyGame::parse("kaooa").unwrap() else {
        panic!()
    };
    for name in names {
        let file = out
            .join(huntsolve::stats::report::safe_name(name))
            .join("games-kaooa.jsonl");
        let text = std::fs::read_to_string(&file).unwrap();
        let recs: Vec<GameRecord> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(recs.len(), 3, "{name}");
        for rec in recs {
            assert_eq!(rec.engine, name);
            let end = huntsolve::game::play_line(&g, &g.start(), &rec.moves.join(" ")).unwrap();
            assert_eq!(rec.moves.len() as u32, rec.plies);
            match rec.end {
                EndReason::Terminal => assert!(g.outcome(&end).is_some(), "{name}: {rec:?}"),
                EndReason::MoveLimit => assert_eq!(rec.plies, rec.max_plies),
                EndReason::Repetition => assert!(rec.winner.is_none()),
                EndReason::Adjudicated => panic!("no referee: {rec:?}"),
            }
        }
    }
    let files = huntsolve::stats::ladder::write_ladder(&out, &r).unwrap();
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
    use huntsolve::stats::agent::SharedOracle;
    use huntsolve::stats::search_agent::{SearchAgent, TableSearchAgent};
    use huntsolve::stats::Agent;
    use std::sync::atomic::{AtomicU64, Ordering};
    struct Counting<G: Game>(SharedOracle<G>, AtomicU64);
    impl<G: Game> huntsolve::Oracle<G> for Counting<G> {
        fn probe(&self, game: &G, pos: &G::Pos) -> Option<(Value, u32)> {
            self.1.fetch_add(1, Ordering::Relaxed);
            self.0.probe(game, pos)
        }
    }
    let k7 = solved("kaooa", "leaves-k7");
    let tables = huntsolve::stats::referee::table_dirs(std::slice::from_ref(&k7)).unwrap();
    let AnyGame::Hunt(g) = AnyGame::parse("kaooa").unwrap() else {
        panic!()
    };
    let tables_oracle = huntsolve::stats::referee::oracle_for(&g, &tables)
        .unwrap()
        .unwrap();
    let counting = std::sync::Arc::new(Counting(tables_oracle.clone(), AtomicU64::new(0)));
    let agent = TableSearchAgent {
        search: SearchAgent::depth(2),
        oracle: counting.clone(),
    };
    assert_eq!(Agent::<_>::describe(&agent), "depth=2:tables");
    let start = g.start();
    let mut rng = huntsolve::random::Rng::new(1);
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
    use huntsolve::stats::speed::bench_rungs;
    let AnyGame::Hunt(g) = AnyGame::parse("kaooa").unwrap() else {
        panic!()
    };
    let engines: Vec<EngineSpec> = ["random", "depth=1", "time=0.001"]
        .iter()
        .map(|e| EngineSpec::parse(e).unwrap())
        .collect();
    let r = bench_rungs(&g, &engines, 3, 7, 2, &NoProgress).unwrap();
    assert_eq!(r.rungs.len(), 3);
    let agent = huntsolve::stats::make_agent(&engines[1], None).unwrap();
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
                huntsolve::stats::play_game(&g, agent.as_ref(), &cfg, i)
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
