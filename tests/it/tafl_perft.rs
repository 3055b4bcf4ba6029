//! Perft counts for the tafl presets, read from `tests/data/tafl/*.perft`.
//! Also checks that the generic `game::perft` agrees with the engine's bulk
//! counter, and that perft is invariant under the 8 symmetries.

use huntsolve::game::Notation;
use huntsolve::game::{perft, Game};
use huntsolve::tafl::{from_spec, TaflGame};

struct Case {
    rules: String,
    position: String,
    depth: u32,
    leaves: u64,
    slow: bool,
}

fn load(name: &str) -> Vec<Case> {
    let path = format!("{}/tests/data/tafl/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut cases = Vec::new();
    let (mut rules, mut position) = (String::new(), "start".to_string());
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (slow, line) = match line.strip_prefix("slow ") {
            Some(rest) => (true, rest),
            None => (false, line),
        };
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "rules" => rules = rest.trim().to_string(),
            "position" => position = rest.trim().to_string(),
            "perft" => {
                let mut it = rest.split_whitespace();
                let depth = it.next().and_then(|s| s.parse().ok());
                let leaves = it.next().and_then(|s| s.parse().ok());
                match (depth, leaves) {
                    (Some(depth), Some(leaves)) => cases.push(Case {
                        rules: rules.clone(),
                        position: position.clone(),
                        depth,
                        leaves,
                        slow,
                    }),
                    _ => panic!("{path}:{}: bad perft line", i + 1),
                }
            }
            _ => panic!("{path}:{}: unknown key '{key}'", i + 1),
        }
    }
    assert!(!cases.is_empty(), "{path}: no cases");
    cases
}

fn run(name: &str, slow: bool) {
    for c in load(name).iter().filter(|c| c.slow == slow) {
        let game = from_spec(&c.rules).expect("rules parse");
        let pos = game.parse_position(&c.position).expect("position parses");
        let got = game.perft_fast(&pos, c.depth);
        assert_eq!(
            got, c.leaves,
            "{}: {} perft {}",
            c.rules, c.position, c.depth
        );
    }
}

#[test]
fn perft_start_positions() {
    run("start.perft", false);
}

/// The `slow` lines (20-40 million leaves each, bulk-counted: well under a second in
/// the test profile).
#[test]
fn perft_start_positions_deep() {
    run("start.perft", true);
}

#[test]
fn generic_perft_agrees_with_bulk_counter() {
    for spec in [
        "tablut-ludii",
        "brandubh",
        "caikaboroda",
        "caikaboroda-hostile",
    ] {
        let g = from_spec(spec).unwrap();
        let s = g.start();
        assert_eq!(perft(&g, &s, 3), g.perft_fast(&s, 3), "{spec}");
    }
}

/// A position reached by a few captures-rich random moves, to make symmetry
/// testing less trivial than the (symmetric) start.
fn scrambled(g: &TaflGame, seed: u64, plies: usize) -> huntsolve::tafl::TaflPos {
    let mut rng = huntsolve::Rng::new(seed);
    let mut p = g.start();
    let mut moves = Vec::new();
    for _ in 0..plies {
        g.legal_moves(&p, &mut moves);
        if moves.is_empty() {
            break;
        }
        p = g.play(&p, moves[rng.below(moves.len())]);
    }
    p
}

#[test]
fn perft_invariant_under_symmetries() {
    for spec in [
        "caikaboroda",
        "caikaboroda-hostile",
        "tablut-hnefatafl",
        "tablut-ludii",
        "brandubh",
    ] {
        let g = from_spec(spec).unwrap();
        for seed in 1..4u64 {
            let p = scrambled(&g, seed, 12);
            let base = g.perft_fast(&p, 3);
            for s in 0..8 {
                let q = g.transform(&p, s);
                assert_eq!(g.perft_fast(&q, 3), base, "{spec} seed {seed} symmetry {s}");
            }
        }
    }
}
