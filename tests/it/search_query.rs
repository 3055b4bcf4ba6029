//! `huntsolve query` through the binary: table answers against exact search
//! without tables (kaooa-6), search fallback where tiers are missing, tafl by
//! search alone, bad input and batch mode.

use huntsolve::game::Game;
use huntsolve::game::Notation;
use huntsolve::Rng;
use serde_json::Value as Json;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// Runs the binary with `stdin` fed in; (exit code, stdout, stderr).
fn run_in(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_huntsolve"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn run(args: &[&str]) -> (i32, String, String) {
    run_in(args, "")
}

fn json_lines(out: &str) -> Vec<Json> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn solved(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("huntsolve-sq-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    let (code, _, err) = run(&["solve", "kaooa-6", "--out", d.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    d
}

/// Positions of kaooa-6 reached by seeded random playouts (not terminal).
fn sample_positions(n: usize) -> Vec<String> {
    let g = huntsolve::hunt::from_spec("kaooa-6").unwrap();
    let mut rng = Rng::new(11);
    let mut moves = Vec::new();
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = g.start();
        let plies = 6 + rng.below(40);
        for _ in 0..plies {
            g.legal_moves(&pos, &mut moves);
            if moves.is_empty() {
                break;
            }
            pos = g.play(&pos, moves[rng.below(moves.len())]);
        }
        if g.outcome(&pos).is_none() {
            out.push(g.format_position(&pos));
        }
    }
    out
}

/// Table answers and `--exact` search without tables agree on value and
/// distance wherever the search proves something, and every table win/loss
/// within the search depth is proven; table draws are never proven won/lost.
#[test]
fn tables_and_exact_search_agree_on_kaooa_6() {
    let dir = solved("exact");
    let d = dir.to_str().unwrap();
    let positions = sample_positions(120);
    let batch = positions.join("\n");
    let (code, out, err) = run_in(&["query", "kaooa-6", "-", "--tables", d, "--json"], &batch);
    assert_eq!(code, 0, "{err}");
    let table = json_lines(&out);
    assert_eq!(table.len(), positions.len());
    // Keep the decided positions near their end, and a few draws.
    let mut picked = Vec::new();
    let mut draws = 0;
    for t in &table {
        assert_eq!(t["source"], "tables", "{t}");
        let dist = t["distance"].as_u64().unwrap();
        let near = t["value"] != "draw" && dist <= 7;
        if near || (t["value"] == "draw" && draws < 4) {
            draws += usize::from(t["value"] == "draw");
            picked.push(t.clone());
        }
    }
    let decided = picked.iter().filter(|t| t["value"] != "draw").count();
    assert!(decided >= 5, "only {decided} decided positions sampled");
    eprintln!("kaooa-6: {decided} decided positions and {draws} draws compared");
    let batch: Vec<String> = picked
        .iter()
        .map(|t| t["position"].as_str().unwrap().to_string())
        .collect();
    let (code, out, err) = run_in(
        &["query", "kaooa-6", "-", "--exact", "--depth", "9", "--json"],
        &batch.join("\n"),
    );
    assert_eq!(code, 0, "{err}");
    let searched = json_lines(&out);
    assert_eq!(searched.len(), picked.len());
    for (t, s) in picked.iter().zip(&searched) {
        assert_eq!(t["position"], s["position"]);
        assert_eq!(s["source"], "search");
        if t["value"] == "draw" {
            assert!(s["value"].is_null() || s["value"] == "draw", "{t}\n{s}");
        } else {
            assert_eq!(s["value"], t["value"], "{t}\n{s}");
            assert_eq!(s["distance"], t["distance"], "{t}\n{s}");
            // The best move by search is one of the table's optimal moves.
            let best = s["best"].as_str().unwrap();
            let m = t["moves"]
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["move"] == best)
                .unwrap();
            assert_eq!(m["value"], t["value"], "{t}\n{s}");
            assert_eq!(m["distance"], t["distance"], "{t}\n{s}");
        }
        // Every move search proves agrees with the table's value of that move.
        for sm in s["moves"].as_array().unwrap() {
            if sm["value"].is_null() {
                continue;
            }
            let tm = t["moves"]
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["move"] == sm["move"])
                .unwrap();
            assert_eq!(tm["value"], sm["value"], "{t}\n{s}");
            if sm["value"] != "draw" {
                assert_eq!(tm["distance"], sm["distance"], "{t}\n{s}");
            }
        }
    }
    // Text mode says how far the proof went.
    let (code, out, _) = run(&["query", "kaooa-6", "start", "--exact", "--depth", "3"]);
    assert_eq!(code, 0);
    assert!(out.contains("unknown beyond depth 3"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// With the tiers of the start's children removed, the start keeps its exact
/// value from its own table and its moves are scored by search.
#[test]
fn moves_into_missing_tiers_fall_back_to_search() {
    let dir = solved("missing");
    let d = dir.to_str().unwrap();
    let (code, out, err) = run(&["query", "kaooa-6", "start", "--tables", d, "--json"]);
    assert_eq!(code, 0, "{err}");
    let full: Json = serde_json::from_str(&out).unwrap();
    assert_eq!(full["source"], "tables");
    std::fs::remove_file(dir.join("h1p5c0.hst")).unwrap();
    let (code, out, err) = run(&[
        "query", "kaooa-6", "start", "--tables", d, "--json", "--depth", "4",
    ]);
    assert_eq!(code, 0, "{err}");
    let q: Json = serde_json::from_str(&out).unwrap();
    assert_eq!(q["source"], "tables+search", "{q}");
    assert_eq!(q["value"], full["value"]);
    assert_eq!(q["distance"], full["distance"]);
    // The oracle can prove every root move before the depth limit, ending the search early.
    let depth = q["depth"].as_u64().unwrap();
    assert!((1..=4).contains(&depth), "{q}");
    assert!(q["nodes"].as_u64().unwrap() > 0);
    let moves = q["moves"].as_array().unwrap();
    assert_eq!(moves.len(), full["moves"].as_array().unwrap().len());
    // A position whose own tier is gone is searched, with the remaining tables as oracle.
    std::fs::remove_file(dir.join("h1p6c0.hst")).unwrap();
    let (code, out, err) = run(&[
        "query", "kaooa-6", "start", "--tables", d, "--json", "--depth", "2",
    ]);
    assert_eq!(code, 0, "{err}");
    let q: Json = serde_json::from_str(&out).unwrap();
    assert_eq!(q["source"], "search", "{q}");
    assert_eq!(q["depth"], 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Tafl rules have no tables: query searches and returns a legal move, its PV
/// made of legal moves, and every legal move scored.
#[test]
fn tafl_query_by_search_returns_a_legal_move() {
    let g = huntsolve::tafl::from_spec("brandubh").unwrap();
    let (code, out, err) = run(&["query", "brandubh", "start", "--depth", "2", "--json"]);
    assert_eq!(code, 0, "{err}");
    let q: Json = serde_json::from_str(&out).unwrap();
    assert_eq!(q["source"], "search");
    assert_eq!(q["depth"], 2);
    let mut pos = g.start();
    let mut legal = Vec::new();
    g.legal_moves(&pos, &mut legal);
    let names: Vec<String> = legal.iter().map(|&m| g.format_move(&pos, m)).collect();
    let best = q["best"].as_str().unwrap();
    assert!(names.iter().any(|n| n == best), "{best} not legal");
    assert_eq!(q["moves"].as_array().unwrap().len(), names.len());
    for mv in q["pv"].as_array().unwrap() {
        g.legal_moves(&pos, &mut legal);
        let m = *legal
            .iter()
            .find(|&&m| g.format_move(&pos, m) == mv.as_str().unwrap())
            .unwrap_or_else(|| panic!("pv move {mv} not legal"));
        pos = g.play(&pos, m);
    }
    // Text mode, after the best move (now the other side to move).
    let (code, out, err) = run(&[
        "query", "brandubh", "start", "--depth", "1", "--moves", best,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("source   search (depth 1"), "{out}");
    assert!(out.contains("best     "), "{out}");
}

#[test]
fn bad_input_exits_2_with_a_clear_message() {
    let (code, out, err) = run(&["query", "kaooa-6", "garbage"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(
        err.contains("invalid position") && err.contains("garbage"),
        "{err}"
    );
    let (code, _, err) = run(&["query", "brandubh", "start", "--moves", "z9-z8"]);
    assert_eq!(code, 2);
    assert!(err.contains("invalid move") && err.contains("z9"), "{err}");
    let (code, _, err) = run(&["query", "kaooa-6", "start", "--depth", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("--depth"), "{err}");
    let (code, _, err) = run(&["query", "kaooa-6", "start", "--eval", "nonsense"]);
    assert_eq!(code, 2);
    assert!(err.contains("nonsense"), "{err}");
    let (code, _, err) = run(&["query", "kaooa-6", "start", "--tables", "/nonexistent/hs"]);
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/hs"), "{err}");
    assert!(!err.contains("panicked"));
}

/// Batch mode: one answer per line, a bad line reported and counted, exit 2.
#[test]
fn batch_mode_answers_every_line() {
    let g = huntsolve::hunt::from_spec("kaooa-6").unwrap();
    let start = g.format_position(&g.start());
    let input = format!("{start}\n\nnot-a-position\nstart\n");
    let (code, out, err) = run_in(&["query", "kaooa-6", "-", "--depth", "2", "--json"], &input);
    assert_eq!(code, 2);
    assert!(err.contains("1 of 3 positions"), "{err}");
    let lines = json_lines(&out);
    // Three answers, then the batch's own error as JSON (`--json` errors are JSON).
    assert_eq!(lines.len(), 4);
    assert!(lines[3]["error"].as_str().unwrap().contains("1 of 3"));
    assert_eq!(lines[3]["exit_code"], 2);
    assert_eq!(lines[0]["position"], start.as_str());
    assert!(lines[1]["error"]
        .as_str()
        .unwrap()
        .contains("not-a-position"));
    // `start` and its text give the same answer.
    assert_eq!(lines[0]["best"], lines[2]["best"]);
    assert_eq!(lines[0]["score"], lines[2]["score"]);
    assert_eq!(lines[0]["nodes"], lines[2]["nodes"]);
    let (code, out, err) = run_in(&["query", "kaooa-6", "-", "--depth", "2"], "start\nstart\n");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.matches("source   search").count(), 2, "{out}");
}

/// A value left unknown by a plain search says that it is a search
/// score and what would answer it (`value unknown (score +2048)` did not), in the
/// text and as `hint` in JSON; a proven value has no hint.
#[test]
fn an_unknown_value_without_tables_says_tables_would_answer() {
    let (code, out, err) = run(&["query", "kaooa", "start", "--depth", "2"]);
    assert_eq!(code, 0, "{err}");
    let line = out.lines().find(|l| l.starts_with("value")).unwrap_or("");
    assert!(
        line.contains("unknown (score")
            && line.contains("not proven: a search score")
            && line.contains("--tables DIR"),
        "{out}"
    );
    let (code, out, err) = run(&["query", "kaooa", "start", "--depth", "2", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v = &json_lines(&out)[0];
    assert!(v["value"].is_null(), "{v}");
    assert!(
        v["hint"].as_str().unwrap_or("").contains("--tables DIR"),
        "{v}"
    );
    // A proven answer (the tables' value) carries no hint.
    let dir = solved("hint");
    let (code, out, err) = run(&[
        "query",
        "kaooa-6",
        "start",
        "--tables",
        dir.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v = &json_lines(&out)[0];
    assert!(!v["value"].is_null() && v.get("hint").is_none(), "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `query --exact` named a drawing move best: on this Mogol endgame the tables
/// say a3-a4 is the only win (in 33) and a1-c1 draws, yet the answer was
/// `best a1-c1` with a line shuffling a1-c1 ... c1-a1 (the unfinished distance
/// search's choice). The best move is now the proof's (or none), the line
/// follows the proof, and every move named best has the position's value.
#[test]
fn exact_query_names_only_a_proven_move_best() {
    let pos = "H.....H..........P....P.P.P........../h0p0c20/h";
    let args = [
        "query",
        "cows-leopards-mogol",
        pos,
        "--exact",
        // The proof takes a few seconds; twice that leaves room on a loaded machine
        // (6 s failed once at load 10).
        "--time",
        "12",
    ];
    // One run (the limit is spent in full: the search goes on after the proof).
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    let field = |name: &str| {
        out.lines()
            .find_map(|l| l.strip_prefix(name).map(str::trim))
            .unwrap_or_else(|| panic!("no {name}: {out}"))
    };
    assert!(field("value ").starts_with("win "), "{out}");
    assert_eq!(field("best "), "a3-a4", "{out}");
    assert!(field("pv ").starts_with("a3-a4 "), "{out}");
    // The moves, first the best; no other move is a win (the tables say they
    // draw): none may claim it.
    let moves: Vec<Vec<&str>> = out
        .lines()
        .skip_while(|l| !l.starts_with("moves "))
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(moves[0], ["a3-a4", "win"], "{out}");
    assert!(moves.len() > 1, "{out}");
    assert!(moves[1..].iter().all(|m| m[1] != "win"), "{out}");
    // The text names the time limit it ran under.
    assert!(out.contains("time limit 12 s"), "{out}");
}

/// `query --exact` on a position no proof settles within the limit says the
/// best move is not determined rather than naming the search's guess.
#[test]
fn exact_query_without_a_proof_names_no_best_move() {
    let (code, out, err) = run(&[
        "query",
        "cows-leopards-peralikatuma",
        "start",
        "--exact",
        "--time",
        "0.5",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let a: Json = serde_json::from_str(out.trim()).unwrap();
    assert!(a["value"].is_null(), "{out}");
    assert!(a["best"].is_null(), "{out}");
}

/// Every exact path refuses rules whose repetition is not a draw:
/// `query --exact` answered "exact" under `repetition=forbid`.
#[test]
fn exact_query_refuses_other_repetition_rules() {
    for extra in [&[][..], &["--depth", "3"][..]] {
        let mut args = vec!["query", "kaooa,repetition=forbid", "start", "--exact"];
        args.extend_from_slice(extra);
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{out}{err}");
        assert!(err.contains("repetition=draw"), "{err}");
    }
}

/// A malformed position's hint gives an example of this game's board (it gave
/// a four-point example that fits no board).
#[test]
fn a_bad_position_hints_with_this_games_start() {
    let (code, _, err) = run(&["query", "kaooa", "t0"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(".........."), "{err}");
    assert!(err.contains("10 point characters"), "{err}");
    assert!(!err.contains("h1p23c0"), "{err}");
}
