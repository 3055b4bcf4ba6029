//! `openings --prove`: the proven values of opening lines against solved
//! tables, and the command's CSV and JSON output.

use huntsolve::answer::{prove_openings, ProveOpeningsConfig, ProvenSource};
use huntsolve::game::{Game, NoOracle, Oracle, Value};
use huntsolve::search::{rank_openings, OpeningsConfig};
use huntsolve::table::TableOracle;
use huntsolve::NoProgress;

fn solved(spec: &str, tag: &str) -> (huntsolve::hunt::HuntGame, std::path::PathBuf) {
    crate::common::retro::solved_whole(spec, &format!("prove-openings-{tag}"))
}

/// Every two-ply line of a small variant (wins for the first mover, the
/// hunter, and draws) is proven by the prover without tables, and each value,
/// turned to the first mover's view, equals the tables' value of the line's
/// end position; a line where the prover's value would differ from the
/// table's fails the test. The same with the tables given: every value then
/// comes from the tables.
#[test]
fn proven_opening_values_equal_the_tables() {
    for (spec, tag) in [
        (
            "diviyan-keliya,board=alquerque25,hunters=1,prey=2,hunter_win=1",
            "dk",
        ),
        ("kaooa", "kaooa"),
    ] {
        let (g, dir) = solved(spec, tag);
        let tables = TableOracle::new(&g, &dir).unwrap();
        // Up to the board's symmetries, as the command does.
        let canon = |p: &huntsolve::hunt::HuntPos| {
            let b = g.board();
            let masks = (0..b.symmetries().len())
                .map(|s| (b.map_mask(s, p.hunters), b.map_mask(s, p.prey)))
                .min();
            (masks, p.hunters_in_hand, p.prey_in_hand, p.hunter_to_move)
        };
        let cfg = OpeningsConfig {
            depth: 3,
            plies: 2,
            threads: 1,
            hash_mib: 4,
        };
        let pcfg = ProveOpeningsConfig {
            nodes: Some(2_000_000),
            time: None,
            hash_mib: 16,
            threads: 1,
        };
        let lines = rank_openings(&g, &NoOracle, &cfg, canon, &NoProgress).unwrap();
        let n = lines.len();
        assert!(n > 5, "{spec}: {n} lines");
        let proven = prove_openings(&g, &NoOracle, lines, &pcfg, &NoProgress).unwrap();
        assert_eq!(proven.len(), n);
        let mut seen = std::collections::BTreeSet::new();
        for (line, p) in &proven {
            let mut pos = g.start();
            for &m in &line.moves {
                pos = g.play(&pos, m);
            }
            let (v, _) = tables
                .probe(&g, &pos)
                .expect("the tables hold every position");
            let want = if line.moves.len() % 2 == 1 {
                v.flip()
            } else {
                v
            };
            assert_eq!(p.value, Some(want), "{spec}: line {}", line.text);
            assert_eq!(p.source, Some(ProvenSource::Proof), "{spec}: {}", line.text);
            if want != Value::Draw {
                let bound = p.plies_at_most.expect("a win has a proof length");
                assert!(bound > line.moves.len() as u32);
            }
            seen.insert(want.name());
        }
        // Ranked: no unproven line, and every win before every draw.
        let firsts: Vec<Value> = proven.iter().filter_map(|(_, p)| p.value).collect();
        assert!(firsts
            .windows(2)
            .all(|w| !(w[0] == Value::Draw && w[1] == Value::Win)));
        if tag == "dk" {
            assert_eq!(
                seen.len(),
                2,
                "{spec}: wins and draws expected, saw {seen:?}"
            );
        }
        // With the tables as oracle, the table answers (exact distances).
        let lines = rank_openings(&g, &NoOracle, &cfg, canon, &NoProgress).unwrap();
        let from_tables = prove_openings(&g, &tables, lines, &pcfg, &NoProgress).unwrap();
        for (line, p) in &from_tables {
            assert_eq!(p.source, Some(ProvenSource::Table), "{}", line.text);
            assert_eq!(p.prover_nodes, 0);
            let other = proven.iter().find(|(l, _)| l.text == line.text).unwrap();
            assert_eq!(p.value, other.1.value, "{}", line.text);
            if let (Some(d), Some(b)) = (p.distance, other.1.plies_at_most) {
                assert!(d <= b, "{}: exact {d} above the proof's {b}", line.text);
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// `openings --prove` writes the proven value, its source and the prover's
/// figures to the CSV and JSON files; `--tables` answers from the tables.
#[test]
fn openings_prove_command_writes_sources() {
    use crate::common::run;
    let (_, tables) = solved("kaooa", "cli");
    let out = std::env::temp_dir().join(format!(
        "huntsolve-prove-openings-out-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&out);
    let o = out.to_str().unwrap();
    let (code, text, err) = run(&[
        "openings", "kaooa", "--depth", "2", "--prove", "--hash", "8", "--out", o,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("source"), "{text}");
    let csv = std::fs::read_to_string(out.join("openings-kaooa.csv")).unwrap();
    let mut rows = csv.lines().filter(|l| !l.starts_with('#'));
    assert_eq!(
        rows.next().unwrap(),
        "rank,line,class_size,score,proven,source,distance,plies_at_most,prover_nodes,nodes,pv"
    );
    let rows: Vec<&str> = rows.collect();
    assert_eq!(rows.len(), 2, "{csv}");
    for r in &rows {
        let f: Vec<&str> = r.split(',').collect();
        // The crows (first to move) win after either first placement.
        assert_eq!((f[4], f[5]), ("win", "proof"), "{r}");
        assert!(f[7].parse::<u32>().unwrap() >= 15, "{r}");
        assert!(f[8].parse::<u64>().unwrap() > 0, "{r}");
    }
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("openings-kaooa.json")).unwrap())
            .unwrap();
    assert_eq!(j["prove"], true);
    for l in j["lines"].as_array().unwrap() {
        assert_eq!(l["value"], "win");
        assert_eq!(l["source"], "proof");
        // Two runs: the mover after the line's ply is the hunter, who cannot
        // win (disproven), then the crows' run (proven).
        let runs = l["runs"].as_array().unwrap();
        assert_eq!(runs.len(), 2, "{l}");
        assert_eq!(runs[1]["outcome"], "proven");
    }
    let t = tables.to_str().unwrap();
    let (code, _, err) = run(&[
        "openings", "kaooa", "--depth", "2", "--prove", "--tables", t, "--out", o,
    ]);
    assert_eq!(code, 0, "{err}");
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("openings-kaooa.json")).unwrap())
            .unwrap();
    let lines = j["lines"].as_array().unwrap();
    for l in lines {
        assert_eq!(l["source"], "table");
    }
    // Exact distances: t0 wins in 15 from the start (the start's value), i0 in 17.
    let d: Vec<u64> = lines
        .iter()
        .map(|l| l["distance"].as_u64().unwrap())
        .collect();
    assert_eq!(d, vec![15, 17]);
    let (code, _, err) = run(&[
        "openings",
        "kaooa",
        "--prove",
        "--prove-time",
        "0",
        "--out",
        o,
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--prove-time"), "{err}");
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_dir_all(&tables);
}
