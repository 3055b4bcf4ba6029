//! Rules strings (canonical form, fingerprint, errors), every preset playing
//! random games to the end, and Zobrist hashes kept incrementally equal to the
//! recomputed ones.
//! (Moved from the integration tests: they read `TaflGame::compute_hash` and `size`.)

use crate::game::Evaluate;
use crate::game::Notation;
use crate::game::{Game, Value};
use crate::random::Rng;
use crate::tafl::{from_spec, TaflRules, PRESETS};

#[test]
fn canonical_form_is_the_same_for_equal_rules() {
    let a = from_spec(
        "caikaboroda,throne_hostile=att_always_def_empty,corners_hostile=all,corner_side=yes",
    )
    .unwrap();
    assert_eq!(a.rules_string(), "caikaboroda-hostile");
    let b = from_spec("caikaboroda-hostile").unwrap();
    assert_eq!(a.fingerprint(), b.fingerprint());
    let c = from_spec("tablut-ludii,king_capture=strong").unwrap();
    assert_eq!(c.rules_string(), "tablut-smith");
    let d = from_spec("brandubh, move_limit=200 ,first=defenders").unwrap();
    assert_eq!(d.rules_string(), "brandubh,first=defenders,move_limit=200");
    assert_eq!(d.move_limit(), Some(200));
    assert_ne!(
        d.fingerprint(),
        from_spec("brandubh").unwrap().fingerprint()
    );
    let e = from_spec("caikaboroda,board=7x7").unwrap();
    assert_eq!(e.size(), 7);
    assert_eq!(from_spec(&e.rules_string()).unwrap().rules(), e.rules());
}

#[test]
fn bad_rules_give_clear_errors() {
    let err = |s: &str| from_spec(s).unwrap_err().to_string();
    assert!(err("tablut").contains("caikaboroda"), "{}", err("tablut"));
    assert!(err("caikaboroda,colour=red").contains("accepted keys"));
    assert!(err("caikaboroda,goal=middle").contains("corners, edge"));
    assert!(from_spec("caikaboroda,encirclement=on").is_ok());
    assert!(err("caikaboroda,shieldwall=on").contains("not implemented"));
    assert!(err("caikaboroda,exit_fort=on").contains("not implemented"));
    assert!(err("caikaboroda,layout=brandubh").contains("7x7"));
    assert!(err("caikaboroda,move_limit=-3").contains("positive"));
    assert!(err("caikaboroda,first").contains("key=value"));
    assert!(err("caikaboroda,first=attackers,first=defenders").contains("twice"));
    assert!(from_spec("caikaboroda,encirclement=off").is_ok());
    assert!("brandubh".parse::<TaflRules>().is_ok());
}

#[test]
fn every_preset_plays_to_the_end_with_consistent_hashes() {
    for &(name, _) in PRESETS {
        let g = from_spec(name).unwrap();
        let mut rng = Rng::new(99);
        let mut moves = Vec::new();
        let (mut att_wins, mut def_wins, mut other) = (0, 0, 0);
        for _ in 0..60 {
            let mut p = g.start();
            let mut ended = false;
            for _ in 0..2000 {
                if let Some(v) = g.outcome(&p) {
                    assert!(g.random_move(&p, &mut rng.clone()).is_none());
                    let attackers_won = (v == Value::Win) == p.attackers_to_move;
                    match v {
                        Value::Draw => other += 1,
                        _ if attackers_won => att_wins += 1,
                        _ => def_wins += 1,
                    }
                    ended = true;
                    break;
                }
                g.legal_moves(&p, &mut moves);
                assert!(!moves.is_empty(), "{name}: no outcome but no moves");
                let mut probe = Rng::new(p.hash);
                let r = g.random_move(&p, &mut probe).expect("a move exists");
                assert!(
                    moves.contains(&r),
                    "{name}: random_move gave an illegal move"
                );
                let m = moves[rng.below(moves.len())];
                let captures = g.captures_of(&p, m);
                let q = g.play(&p, m);
                assert_eq!(q.hash, g.compute_hash(&q), "{name}: incremental hash");
                let before = (p.attackers | p.defenders).count_ones() + (p.king != 255) as u32;
                let after = (q.attackers | q.defenders).count_ones() + (q.king != 255) as u32;
                assert_eq!(before - after, captures, "{name}: captures_of");
                assert_eq!(g.is_capture(&p, m), captures > 0);
                assert_eq!(g.parse_position(&g.format_position(&q)).unwrap(), q);
                p = q;
            }
            if !ended {
                other += 1;
            }
        }
        // Random play favours the king; king captures are covered by tests/tafl_positions.rs.
        assert!(
            def_wins > 0 && att_wins + def_wins + other == 60,
            "{name}: {att_wins} {def_wins} {other}"
        );
    }
}

#[test]
fn evaluation_is_tunable_and_antisymmetric() {
    let mut g = from_spec("caikaboroda").unwrap();
    let s = g.start();
    let mut flipped = s;
    flipped.attackers_to_move = !flipped.attackers_to_move;
    assert_eq!(g.evaluate(&s), -g.evaluate(&flipped));
    let before = g.evaluate(&s);
    g.set_eval_param("defender", 500).unwrap();
    assert_ne!(g.evaluate(&s), before);
    assert!(g.eval_params().contains(&("defender", 500)));
    assert!(g.set_eval_param("queen", 1).is_err());
    assert!(g.evaluate(&s).abs() < 20_000);
}
