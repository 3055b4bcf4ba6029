//! Fuzz target `rules`: rules strings through `AnyGame::parse` (and
//! `parse_builtin`), `hunt::from_spec` and `tafl::from_spec`. A string that
//! parses builds a game whose canonical rules string parses back to the same
//! rules (same string, same fingerprint) and whose start position round-trips
//! through its text; nothing panics.

use super::{case, corpus_lines, iters, Mutator};
use huntsolve::{with_game, AnyGame, Game, Notation};

/// Words a rules string is made of.
fn dictionary() -> Vec<&'static str> {
    let mut d: Vec<&'static str> = huntsolve::all_presets().iter().map(|p| p.1).collect();
    d.extend(huntsolve::hunt::KEYS);
    d.extend(huntsolve::tafl::KEYS);
    d.extend(huntsolve::BUILTIN.iter().map(|b| b.0));
    d.extend([
        ",",
        "=",
        "yes",
        "no",
        "true",
        "false",
        "hunter",
        "prey",
        "attackers",
        "defenders",
        "draw",
        "forbid",
        "defenders_lose",
        "repeater_loses",
        "pass",
        "captures>=",
        "static",
        "immediate",
        "continue",
        "single",
        "hand",
        "any",
        "9x9",
        "7x7",
        "11x11",
        "corners",
        "edge",
        "win",
        "loss",
        "0",
        "1",
        "255",
        "256",
        "65536",
        "-1",
        "a1",
        "e5",
        " ",
        "\u{0}",
        "é",
        "board=",
        "hunters=",
        "prey=",
    ]);
    d
}

/// The checks on one rules string.
fn one(spec: &str) {
    for parsed in [AnyGame::parse(spec), AnyGame::parse_builtin(spec)] {
        let Ok(any) = parsed else { continue };
        with_game!(&any, g => {
            let canon = g.rules_string();
            let again = AnyGame::parse(&canon)
                .unwrap_or_else(|e| panic!("{spec:?}: its canonical form {canon:?} is refused: {e}"));
            with_game!(&again, h => {
                assert_eq!(h.rules_string(), canon, "{spec:?}: canonical form not stable");
                assert_eq!(h.fingerprint(), g.fingerprint(), "{spec:?}: fingerprint");
            });
            let start = g.start();
            let text = g.format_position(&start);
            let back = g
                .parse_position(&text)
                .unwrap_or_else(|e| panic!("{spec:?}: start {text:?} refused: {e}"));
            assert!(back == start, "{spec:?}: start {text:?} reads back differently");
            let mut moves = Vec::new();
            g.legal_moves(&start, &mut moves);
            let _ = g.outcome(&start);
            for &m in moves.iter().take(8) {
                let t = g.format_move(&start, m);
                assert_eq!(g.parse_move(&start, &t).ok(), Some(m), "{spec:?}: move {t:?}");
                let _ = g.play(&start, m);
            }
        });
    }
    if let Ok(h) = huntsolve::hunt::from_spec(spec) {
        let again = huntsolve::hunt::from_spec(&h.rules_string()).unwrap();
        assert_eq!(again.rules_string(), h.rules_string(), "{spec:?}");
    }
    if let Ok(t) = huntsolve::tafl::from_spec(spec) {
        let again = huntsolve::tafl::from_spec(&t.rules_string()).unwrap();
        assert_eq!(again.rules_string(), t.rules_string(), "{spec:?}");
    }
}

/// Values an option takes (or nearly takes).
const VALUES: &[&str] = &[
    "yes",
    "no",
    "0",
    "1",
    "2",
    "3",
    "7",
    "24",
    "255",
    "256",
    "4294967296",
    "hunter",
    "prey",
    "attackers",
    "defenders",
    "draw",
    "forbid",
    "defenders_lose",
    "repeater_loses",
    "pass",
    "captures>=1",
    "captures>=23",
    "captures>=0",
    "static",
    "immediate",
    "end_of_turn",
    "continue",
    "single",
    "hand",
    "any",
    "center",
    "a1+e1",
    "t0",
    "on",
    "off",
    "all",
    "none",
    "corners",
    "edge",
    "7x7",
    "9x9",
    "11x11",
    "brandubh",
    "tablut",
    "pentagram10",
    "alquerque25",
    "mogol37",
    "peralikatuma49",
    "loss",
    "win",
    "",
];

/// A preset with one to four `key=value` options drawn from the keys of
/// both families and [`VALUES`]: mostly near-valid strings.
fn structured(m: &mut Mutator) -> String {
    let presets = huntsolve::all_presets();
    let (family, name, _) = *m.pick(&presets);
    let mut spec = name.to_string();
    let n = if m.below(2) == 0 { 1 } else { 1 + m.below(4) };
    for _ in 0..n {
        // mostly the preset's own family's keys
        let key = if (family == "hunt") == (m.below(10) != 0) {
            *m.pick(huntsolve::hunt::KEYS)
        } else {
            *m.pick(huntsolve::tafl::KEYS)
        };
        spec.push_str(&format!(",{key}={}", m.pick(VALUES)));
    }
    spec
}

#[test]
fn fuzz_rules_strings() {
    let seeds = corpus_lines("rules");
    let others: Vec<Vec<u8>> = seeds.iter().map(|s| s.as_bytes().to_vec()).collect();
    let mut m = Mutator::new("rules", &dictionary());
    for (i, s) in seeds.iter().enumerate() {
        case("rules-seed", i as u64, s.as_bytes(), || one(s));
    }
    let (n, mut accepted) = (iters(20000), 0);
    for i in 0..n {
        let spec = if i % 2 == 0 {
            let seed = m.pick(&seeds).clone();
            m.mutate_text(&seed, &others)
        } else {
            structured(&mut m)
        };
        case("rules", i, spec.as_bytes(), || one(&spec));
        accepted += AnyGame::parse(&spec).is_ok() as u32;
    }
    eprintln!("rules: {n} mutated rules strings, {accepted} accepted");
}
