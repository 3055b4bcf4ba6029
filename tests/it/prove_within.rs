//! Claims bounded by plies (`prove --within`): the bounded search against the
//! retrograde solver's distances, its certificates against the checker, and
//! certificates whose bound was altered, which the checker must refuse.

use crate::common::run;
use huntsolve::game::{Game, Notation, Oracle, Value};
use huntsolve::hunt::{from_spec, HuntGame};
use huntsolve::prove::RunOutcome;
use huntsolve::prove::{check, CheckReport};
use huntsolve::prove::{prove_within, WithinConfig};
use huntsolve::prove::{CertHeader, Certificate, Kind, Node, TableRef};
use huntsolve::table::TableOracle;
use huntsolve::Rng;

fn solved_kaooa() -> (HuntGame, TableOracle<HuntGame>) {
    let (g, dir) = crate::common::retro::solved_whole("kaooa", "within-kaooa");
    let oracle = TableOracle::new(&g, &dir).unwrap();
    (g, oracle)
}

fn cfg(plies: u32) -> WithinConfig {
    WithinConfig {
        plies,
        nodes: Some(20_000_000),
        time: None,
        hash_mib: 64,
    }
}

/// The bounded claim for `side` at `pos`, its certificate, and the checker's report.
fn claim(
    g: &HuntGame,
    pos: &<HuntGame as Game>::Pos,
    side: usize,
    plies: u32,
) -> (RunOutcome, Certificate) {
    let (report, cert) = prove_within(g, pos, side, cfg(plies), Some(1 << 22)).unwrap();
    assert_ne!(report.outcome, RunOutcome::Unknown, "{report:?}");
    let cert = cert.expect("a decided claim has a certificate");
    let checked = checked(g, &cert);
    assert!(checked.ok(), "{:?}", checked.examples);
    (report.outcome, cert)
}

fn checked(g: &HuntGame, cert: &Certificate) -> CheckReport {
    check(g, cert, &|_: &_| Ok(None)).unwrap()
}

#[test]
fn the_shortest_bounded_win_is_the_retrograde_distance() {
    let (g, oracle) = solved_kaooa();
    let start = g.start();
    assert_eq!(oracle.probe(&g, &start), Some((Value::Win, 15)));
    let crows = g.side_to_move(&start);
    assert_eq!(claim(&g, &start, crows, 14).0, RunOutcome::Disproven);
    let (outcome, win) = claim(&g, &start, crows, 15);
    assert_eq!(outcome, RunOutcome::Proven);
    assert!(checked(&g, &win).depth.unwrap() <= 15);
    assert_eq!(claim(&g, &start, 1 - crows, 20).0, RunOutcome::Disproven);
    // Positions along random games: the side to move wins within d plies
    // exactly from the table's distance on, and a side the table does not
    // call the winner never wins within the horizon.
    let mut rng = Rng::new(20261203);
    let mut moves = Vec::new();
    let mut tried = 0;
    for _ in 0..12 {
        let mut p = start;
        for _ in 0..(rng.below(14)) {
            g.legal_moves(&p, &mut moves);
            if g.outcome(&p).is_some() || moves.is_empty() {
                break;
            }
            p = g.play(&p, moves[rng.below(moves.len())]);
        }
        if g.outcome(&p).is_some() {
            continue;
        }
        let (v, d) = oracle
            .probe(&g, &p)
            .expect("kaooa's tables cover every position");
        let mover = g.side_to_move(&p);
        let winner = match v {
            Value::Win => Some(mover),
            Value::Loss => Some(1 - mover),
            Value::Draw => None,
        };
        const HORIZON: u32 = 12;
        for side in [0, 1] {
            if winner == Some(side) && d <= HORIZON {
                assert_eq!(
                    claim(&g, &p, side, d).0,
                    RunOutcome::Proven,
                    "{}",
                    g.format_position(&p)
                );
                if d > 1 {
                    assert_eq!(claim(&g, &p, side, d - 1).0, RunOutcome::Disproven);
                }
            } else {
                let plies = if winner == Some(side) { d - 1 } else { HORIZON };
                assert_eq!(
                    claim(&g, &p, side, plies).0,
                    RunOutcome::Disproven,
                    "{}",
                    g.format_position(&p)
                );
            }
        }
        tried += 1;
    }
    assert!(tried >= 8, "too few positions tried: {tried}");
}

#[test]
fn an_altered_bound_is_refused() {
    let g = from_spec("kaooa").unwrap();
    let start = g.start();
    let crows = g.side_to_move(&start);
    // No win within 14: its horizon leaves would have a ply left under 15.
    let (_, no_win) = claim(&g, &start, crows, 14);
    assert!(no_win.nodes.contains(&Node::Horizon));
    let mut c = no_win.clone();
    c.header.within = Some(15);
    let r = checked(&g, &c);
    assert!(
        !r.ok() && r.examples.iter().any(|e| e.contains("horizon")),
        "{:?}",
        r.examples
    );
    // Without a bound at all, a horizon leaf proves nothing.
    c.header.within = None;
    assert!(!checked(&g, &c).ok());
    // A hostile bound is a malformed certificate, not a huge allocation.
    c.header.within = Some(u32::MAX);
    assert!(check(&g, &c, &|_: &_| Ok(None)).is_err());
    // A smaller bound than searched holds (fewer plies, weaker claim).
    c.header.within = Some(9);
    assert!(checked(&g, &c).ok());
    // A win within 15 is not a win within 14.
    let (_, win) = claim(&g, &start, crows, 15);
    let mut c = win.clone();
    c.header.within = Some(14);
    let r = checked(&g, &c);
    assert!(
        !r.ok() && r.examples.iter().any(|e| e.contains("longest line")),
        "{:?}",
        r.examples
    );
    // A horizon leaf in a win claim.
    let mut c = win;
    let leaf = c.nodes.iter().position(|n| *n == Node::Terminal).unwrap();
    c.nodes[leaf] = Node::Horizon;
    assert!(!checked(&g, &c).ok());
    // Bytes round trip, and an old certificate (no bound) keeps its bytes.
    assert_eq!(Certificate::decode(&no_win.encode()).unwrap(), no_win);
    let mut unbounded = no_win.clone();
    unbounded.header.within = None;
    let text = String::from_utf8_lossy(&unbounded.encode()).into_owned();
    assert!(!text.contains("\"within\":"));
}

#[test]
fn a_table_win_counts_only_beyond_the_plies_left() {
    let g = from_spec("kaooa").unwrap();
    let start = g.start();
    let crows = g.side_to_move(&start);
    let table = TableRef {
        tier: "start".into(),
        crc32: 7,
    };
    let cert = |within: Option<u32>| Certificate {
        header: CertHeader {
            rules: g.rules_string(),
            fingerprint: g.fingerprint(),
            position: g.format_position(&start),
            side: crows as u8,
            side_name: g.side_name(crows).into(),
            kind: Kind::NoWin,
            nodes: 1,
            tables: vec![table.clone()],
            writer: "test".into(),
            within,
        },
        nodes: vec![Node::Table {
            table: 0,
            value: Value::Win,
            distance: 15,
        }],
    };
    let probe = |_: &_| Ok(Some((table.clone(), Value::Win, 15)));
    // The crows win in 15: not within 14, within 15, and not "never".
    assert!(check(&g, &cert(Some(14)), &probe).unwrap().ok());
    assert!(!check(&g, &cert(Some(15)), &probe).unwrap().ok());
    assert!(!check(&g, &cert(None), &probe).unwrap().ok());
}

#[test]
fn prove_within_command() {
    let dir = std::env::temp_dir().join(format!("huntsolve-within-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("k.proof");
    let f = file.to_str().unwrap();
    let (code, out, err) = run(&["prove", "kaooa", "--within", "14", "--save", f, "--json"]);
    assert_eq!(code, 0, "{err}");
    let j: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let claims = j["claims"].as_array().unwrap();
    assert_eq!(claims.len(), 2);
    assert_eq!(claims[0]["outcome"], "disproven", "{out}");
    for c in claims {
        let path = c["certificate"]["file"].as_str().unwrap();
        let (code, out, err) = run(&["check-proof", path]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains("within   14 plies"), "{out}");
    }
    let (code, out, _) = run(&["prove", "kaooa", "--within", "15", "--side", "0"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("forces a win within 15 plies") || out.contains("cannot force"),
        "{out}"
    );
    for bad in ["0", "201", "-1", "x"] {
        let (code, _, err) = run(&["prove", "kaooa", "--within", bad]);
        assert_eq!(code, 2, "--within {bad}: {err}");
    }
    let (code, _, err) = run(&["prove", "kaooa", "--within", "3", "--tables", f]);
    assert_eq!(code, 2);
    assert!(err.contains("--within does not read tables"), "{err}");
}
