//! Invariants over seeded random games for every preset: incremental hash ==
//! recomputed hash, text forms round-trip, every generated move parses back,
//! perft is invariant under the board's symmetries; plus rules-string and
//! position-text errors.

use crate::game::Evaluate;
use crate::game::Notation;
use crate::game::{perft, Game};
use crate::hunt::{from_spec, HuntGame, HuntPos, HuntRules, PRESETS};
use crate::random::Rng;

/// Positions along a seeded random game (start included), stopping at the end.
fn random_line(g: &HuntGame, seed: u64, plies: usize) -> Vec<HuntPos> {
    let mut rng = Rng::new(seed);
    let mut p = g.start();
    let mut out = vec![p];
    let mut moves = Vec::new();
    for _ in 0..plies {
        if g.outcome(&p).is_some() {
            break;
        }
        g.legal_moves(&p, &mut moves);
        assert!(
            !moves.is_empty(),
            "non-terminal position without moves: {}",
            g.format_position(&p)
        );
        p = g.play(&p, moves[rng.below(moves.len())]);
        out.push(p);
    }
    out
}

#[test]
fn every_preset_builds_and_plays() {
    assert_eq!(PRESETS.len(), 36);
    for &(name, desc) in PRESETS {
        assert!(!desc.is_empty());
        let g = from_spec(name).unwrap();
        // Some seed plays more than 10 plies (the 6-point Mysore game can end sooner).
        let longest = (0..20).map(|seed| random_line(&g, seed, 300).len()).max();
        assert!(longest > Some(10), "{name}");
    }
}

#[test]
fn incremental_hash_equals_recomputed_hash() {
    for &(name, _) in PRESETS {
        for opts in [
            "",
            ",chain=optional",
            ",chain=maximal,removal=end_of_turn",
            ",prey_no_moves=pass",
        ] {
            let g = from_spec(&format!("{name}{opts}")).unwrap();
            for seed in 0..20 {
                for p in random_line(&g, seed, 400) {
                    assert_eq!(p.hash, g.compute_hash(&p), "{name}{opts} seed {seed}");
                    assert_eq!(g.hash(&p), p.hash);
                }
            }
        }
    }
}

#[test]
fn hashes_differ_between_positions() {
    let g = from_spec("diviyan-keliya").unwrap();
    let mut seen = std::collections::HashMap::new();
    for seed in 0..30 {
        for p in random_line(&g, seed, 200) {
            if let Some(q) = seen.insert(p.hash, p) {
                assert_eq!(q, p, "hash collision");
            }
        }
    }
}

#[test]
fn text_forms_round_trip() {
    for &(name, _) in PRESETS {
        let g = from_spec(name).unwrap();
        let mut moves = Vec::new();
        for seed in 0..5 {
            for p in random_line(&g, seed, 300) {
                let text = g.format_position(&p);
                assert_eq!(g.parse_position(&text).unwrap(), p, "{name}: {text}");
                g.legal_moves(&p, &mut moves);
                for &m in &moves {
                    let s = g.format_move(&p, m);
                    assert_eq!(g.parse_move(&p, &s).unwrap(), m, "{name}: {s} in {text}");
                }
            }
        }
        assert_eq!(g.parse_position("start").unwrap(), g.start());
    }
}

#[test]
fn perft_is_invariant_under_symmetries() {
    for &(name, _) in PRESETS {
        let g = from_spec(name).unwrap();
        let syms = g.board().symmetries().len();
        for seed in 0..3 {
            let line = random_line(&g, 100 + seed, 12 + 5 * seed as usize);
            let p = *line.last().unwrap();
            let want = perft(&g, &p, 3);
            for s in 0..syms {
                let q = g.map_pos(s, &p);
                assert_eq!(perft(&g, &q, 3), want, "{name} seed {seed} symmetry {s}");
            }
        }
    }
}

#[test]
fn rules_strings_are_canonical() {
    let cases = [
        ("diviyan-keliya", "diviyan-keliya"),
        ("diviyan-keliya,chain=none", "diviyan-keliya-ludii"),
        ("kungser", "cows-leopards-mogol"),
        (
            "diviyan-keliya,hunter_win=captures>=12,chain=none",
            "diviyan-keliya-ludii,hunter_win=12",
        ),
        (
            "diviyan-keliya,chain=none,hunter_win=12",
            "diviyan-keliya-ludii,hunter_win=12",
        ),
        ("bagh-chal,hunter_start=e5+a1+e1+a5", "bagh-chal"),
        (
            "bagh-chal,move_limit=200,prey_no_moves=pass",
            "bagh-chal,prey_no_moves=pass,move_limit=200",
        ),
        (
            "diviyan-keliya-ludii,board=mogol37",
            "diviyan-keliya-ludii,board=mogol37",
        ),
        ("kaooa,prey=6,hunter_win=3", "kaooa-6"),
        (
            "adugo,prey_start=e7+d7+c7+b7+a7+e6+d6+c6+b6+a6+e5+d5+b5+a5",
            "adugo",
        ),
        ("adugo,hunter_win=captures>=5", "adugo-5"),
        (
            "mysore-tiger,prey_start=a1+e1+b3",
            "mysore-tiger,prey_start=a1+e1+b3",
        ),
    ];
    for (input, want) in cases {
        let g = from_spec(input).unwrap();
        assert_eq!(g.rules_string(), want, "{input}");
        let again = from_spec(&g.rules_string()).unwrap();
        assert_eq!(again.rules_string(), want);
        assert_eq!(again.fingerprint(), g.fingerprint());
        assert_eq!(again.rules(), g.rules());
    }
    let a = from_spec("diviyan-keliya").unwrap().fingerprint();
    let b = from_spec("diviyan-keliya-ludii").unwrap().fingerprint();
    assert_ne!(a, b);
    // Every preset prints as itself, except the alias.
    for &(name, _) in PRESETS {
        let s = from_spec(name).unwrap().rules_string();
        if name == "kungser" {
            assert_eq!(s, "cows-leopards-mogol");
        } else {
            assert_eq!(s, name);
        }
    }
    let r: HuntRules = "bagh-chal".parse().unwrap();
    assert_eq!(r.to_string(), "bagh-chal");
}

#[test]
fn bad_rules_strings_are_errors() {
    let cases = [
        ("nosuch", "accepted: diviyan-keliya"),
        ("diviyan-keliya,colour=red", "accepted: board, hunters"),
        (
            "diviyan-keliya,chain=sometimes",
            "none, optional, continue, maximal",
        ),
        ("diviyan-keliya,chain", "not key=value"),
        ("diviyan-keliya,hunter_win=30", "exceeds"),
        ("diviyan-keliya,hunters=0", "1..63"),
        ("diviyan-keliya,board=chessboard", "unknown board"),
        (
            "diviyan-keliya,board=/nonexistent/b.txt",
            "/nonexistent/b.txt",
        ),
        (
            "bagh-chal,hunter_start=a1+e1",
            "lists 2 points for 4 hunters",
        ),
        ("bagh-chal,hunter_start=a1+e1+a5+z9", "no point 'z9'"),
        ("bagh-chal,prey=40", "do not fit"),
        ("diviyan-keliya,chain=none,chain=optional", "given twice"),
        ("diviyan-keliya,move_limit=0", "none or a number"),
        ("adugo,prey_start=a5+b5", "lists 2 points for 14 prey"),
        ("mysore-tiger,prey_start=a1+e1+z9", "no point 'z9'"),
        ("mysore-tiger,prey_start=a1+a1+e1", "listed twice"),
        ("mysore-tiger,prey_start=a1+e1+c5", "a hunter's start point"),
        ("mysore-tiger,prey_start=a1++e1", "'hand' or point names"),
    ];
    for (spec, want) in cases {
        match from_spec(spec) {
            Ok(_) => panic!("accepted '{spec}'"),
            Err(e) => assert!(
                e.to_string().contains(want),
                "'{spec}': '{e}' lacks '{want}'"
            ),
        }
    }
}

#[test]
fn bad_positions_and_moves_are_errors() {
    let g = from_spec("bagh-chal").unwrap();
    let cases = [
        ("H...H", "expected POINTS"),
        ("H...H/h0p20c0/p", "point characters"),
        ("H...H...............H...X/h0p20c0/p", "character 'X'"),
        ("H...H...............H..../h0p20c0/p", "3 hunters"),
        ("H...H...............H...H/h0p19c0/p", "the rules have 20"),
        ("H...H...............H...H/h0p20c0/x", "side 'x'"),
        ("H...H...............H...H/h0q20c0/p", "expected 'p<n>'"),
    ];
    for (text, want) in cases {
        let e = g.parse_position(text).unwrap_err().to_string();
        assert!(e.contains(want), "'{text}': '{e}' lacks '{want}'");
    }
    let s = g.start();
    for bad in ["z9", "a1-a2", "a1xa3", "pass", "c3xz1"] {
        assert!(g.parse_move(&s, bad).is_err(), "{bad}");
    }
    let e = crate::game::play_line(&g, &s, "c3 c2 b2")
        .unwrap_err()
        .to_string();
    assert!(e.contains("ply 2"), "{e}");
}

#[test]
fn board_files_work_as_rules_option() {
    let dir = std::env::temp_dir().join(format!("huntsolve-board-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("line5.board");
    std::fs::write(
        &path,
        "name line5\npoint 0 0\npoint 1 0\npoint 2 0\npoint 3 0\npoint 4 0\nline a1 b1 c1 d1 e1\n",
    )
    .unwrap();
    let spec = format!("kaooa,board={},prey=3,hunter_win=2", path.display());
    let g = from_spec(&spec).unwrap();
    assert_eq!(g.board().len(), 5);
    assert_eq!(perft(&g, &g.start(), 1), 5);
    assert!(g.rules_string().contains("line5.board"));
    std::fs::write(&path, "point 0 0\npoint 0 0\n").unwrap();
    let e = from_spec(&spec).unwrap_err().to_string();
    assert!(e.contains("already defined"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn eval_params_are_settable() {
    let mut g = from_spec("diviyan-keliya").unwrap();
    let names: Vec<&str> = g.eval_params().iter().map(|p| p.0).collect();
    assert_eq!(
        names,
        ["capture", "mobility", "threat", "en_prise", "trapped", "in_hand"]
    );
    g.set_eval_param("capture", 250).unwrap();
    assert_eq!(g.weights().capture, 250);
    assert!(g.set_eval_param("colour", 1).is_err());
    // Symmetric: the same position scores opposite for the two sides.
    let p = random_line(&g, 3, 30).pop().unwrap();
    let q = g.make_pos(
        p.hunters,
        p.prey,
        p.hunters_in_hand,
        p.prey_in_hand,
        p.captured,
        !p.hunter_to_move,
    );
    assert_eq!(g.evaluate(&p), -g.evaluate(&q));
    // Captures count for the hunters.
    let a = g.make_pos(1, 2, 0, 10, 12, true);
    let b = g.make_pos(1, 2, 0, 10, 13, true);
    assert_eq!(g.evaluate(&b) - g.evaluate(&a), 250);
}

/// H3b: prey on fixed points start on the board with nothing in hand, only step,
/// and are counted in the position text like any prey.
#[test]
fn prey_start_puts_the_prey_on_the_board() {
    use crate::game::Notation;
    let g = from_spec("mysore-tiger,prey_start=a1+e1+b3").unwrap();
    let start = g.start();
    assert_eq!(start.prey_in_hand, 0);
    assert_eq!(start.prey.count_ones(), 3);
    assert!(!start.hunter_to_move);
    let mut moves = Vec::new();
    g.legal_moves(&start, &mut moves);
    assert!(moves.iter().all(|m| m.kind == crate::hunt::MoveKind::Step));
    // a1 is hemmed in by e1 and b3; e1 steps to d3, b3 to c3 (c5 holds the tiger).
    assert_eq!(moves.len(), 2);
    let text = g.format_position(&start);
    assert_eq!(g.parse_position(&text).unwrap(), start);
    // With the prey in hand (the preset) the start is a drop.
    let hand = from_spec("mysore-tiger").unwrap();
    assert_eq!(hand.start().prey_in_hand, 3);
    assert_eq!(hand.rules().prey_start, crate::hunt::PreyStart::Hand);
    // Adugo: the dogs fill the three far rows but the jaguar's point.
    let adugo = from_spec("adugo").unwrap();
    let s = adugo.start();
    assert_eq!((s.prey.count_ones(), s.prey_in_hand), (14, 0));
    assert_eq!(s.hunters.count_ones(), 1);
    assert!(s.hunter_to_move);
    assert_eq!(s.hunters & s.prey, 0);
}
