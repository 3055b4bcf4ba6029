//! Hand-made positions for Caikabōraḍa's own rules (docs/rules.md §2.2, seed B)
//! and for the rule options that tell the presets apart.

use crate::game::Notation;
use crate::game::{play_line, Game, Value};
use crate::tafl::{from_spec, TaflGame, TaflPos};

/// A position from cell lists (`"c4 b3"`), the king's cell (`""` = captured) and the side to move.
fn setup(g: &TaflGame, att: &str, def: &str, king: &str, attackers_to_move: bool) -> TaflPos {
    let geo = g.geometry();
    let bits = |s: &str| {
        s.split_whitespace().fold(0u128, |m, c| {
            m | 1u128 << geo.parse_cell(c).unwrap_or_else(|| panic!("bad cell {c}"))
        })
    };
    let k = if king.is_empty() {
        255
    } else {
        geo.parse_cell(king).unwrap()
    };
    let p = g.make_pos(bits(att), bits(def), k, attackers_to_move);
    // Every hand-made position must survive the text round trip.
    assert_eq!(g.parse_position(&g.format_position(&p)).unwrap(), p);
    p
}

fn play(g: &TaflGame, p: &TaflPos, mv: &str) -> TaflPos {
    let m = g
        .parse_move(p, mv)
        .unwrap_or_else(|e| panic!("{mv}: {e}\n{}", g.diagram(p)));
    let q = g.play(p, m);
    assert_eq!(q.hash, g.compute_hash(&q), "incremental hash after {mv}");
    q
}

fn legal(g: &TaflGame, p: &TaflPos) -> Vec<String> {
    let mut v = Vec::new();
    g.legal_moves(p, &mut v);
    let mut s: Vec<String> = v.iter().map(|&m| g.format_move(p, m)).collect();
    s.sort();
    s
}

fn cai() -> TaflGame {
    from_spec("caikaboroda").unwrap()
}

fn king_captured(p: &TaflPos) -> bool {
    p.king == 255
}

#[test]
fn king_captured_by_four() {
    let g = cai();
    let p = setup(&g, "c4 b3 d3 h2", "b9", "c3", true);
    let q = play(&g, &p, "h2-c2");
    assert!(king_captured(&q), "{}", g.diagram(&q));
    assert_eq!(g.outcome(&q), Some(Value::Loss)); // defenders to move, lost
                                                  // Three attackers without throne or edge do not capture.
    let p = setup(&g, "c4 b3 h2", "b9", "c3", true);
    let q = play(&g, &p, "h2-c2");
    assert!(!king_captured(&q));
    assert_eq!(g.outcome(&q), None);
}

#[test]
fn king_captured_by_three_against_the_empty_throne() {
    let g = cai();
    let p = setup(&g, "d4 f4 a3", "b9", "e4", true);
    let q = play(&g, &p, "a3-e3");
    assert!(king_captured(&q), "{}", g.diagram(&q));
    // Without T11 the throne does not close the fourth side.
    let g2 = from_spec("caikaboroda,throne_side=no").unwrap();
    let p = setup(&g2, "d4 f4 a3", "b9", "e4", true);
    assert!(!king_captured(&play(&g2, &p, "a3-e3")));
}

#[test]
fn king_captured_by_three_against_the_edge() {
    let g = cai();
    let p = setup(&g, "d1 f1 h2", "b9", "e1", true);
    let q = play(&g, &p, "h2-e2");
    assert!(king_captured(&q), "{}", g.diagram(&q));
    let g2 = from_spec("caikaboroda,edge_side=no").unwrap();
    let p = setup(&g2, "d1 f1 h2", "b9", "e1", true);
    assert!(!king_captured(&play(&g2, &p, "h2-e2")));
}

#[test]
fn king_beside_a_corner() {
    // corner_side=no (literal preset): the king on b1 cannot be captured and escapes next move.
    let g = cai();
    let p = setup(&g, "b2 c5", "b9", "b1", true);
    let q = play(&g, &p, "c5-c1");
    assert!(!king_captured(&q), "{}", g.diagram(&q));
    assert!(legal(&g, &q).contains(&"b1-a1".to_string()));
    let r = play(&g, &q, "b1-a1");
    assert_eq!(g.outcome(&r), Some(Value::Loss)); // attackers to move: the king escaped
                                                  // corner_side=yes: two attackers, the edge and the corner close all four sides.
    let g2 = from_spec("caikaboroda,corner_side=yes").unwrap();
    let p = setup(&g2, "b2 c5", "b9", "b1", true);
    let q = play(&g2, &p, "c5-c1");
    assert!(king_captured(&q), "{}", g2.diagram(&q));
    assert_eq!(g2.outcome(&q), Some(Value::Loss));
}

#[test]
fn several_men_captured_by_one_move() {
    let g = cai();
    // Defenders to move: a3-c3 takes c4 (against c5) and d3 (against e3).
    let p = setup(&g, "c4 d3 h8", "c5 e3 a3", "e5", false);
    let m = g.parse_move(&p, "a3-c3").unwrap();
    assert_eq!(g.captures_of(&p, m), 2);
    let q = play(&g, &p, "a3-c3");
    assert_eq!(q.attackers.count_ones(), 1);
}

#[test]
fn armed_king_captures_as_hammer_and_anvil() {
    let g = cai();
    // Hammer: the king slides d8-d6, taking c6 against the defender on b6.
    let p = setup(&g, "c6 h8", "b6", "d8", false);
    let q = play(&g, &p, "d8-d6");
    assert_eq!(q.attackers.count_ones(), 1, "{}", g.diagram(&q));
    // Anvil: a defender takes c6 against the king on d6.
    let p = setup(&g, "c6 h8", "b8", "d6", false);
    let q = play(&g, &p, "b8-b6");
    assert_eq!(q.attackers.count_ones(), 1, "{}", g.diagram(&q));
    // An unarmed king does neither.
    let g2 = from_spec("caikaboroda,king_armed=no").unwrap();
    let p = setup(&g2, "c6 h8", "b6", "d8", false);
    assert_eq!(play(&g2, &p, "d8-d6").attackers.count_ones(), 2);
    let p = setup(&g2, "c6 h8", "b8", "d6", false);
    assert_eq!(play(&g2, &p, "b8-b6").attackers.count_ones(), 2);
}

#[test]
fn moving_between_two_enemies_is_safe() {
    let g = cai();
    let p = setup(&g, "c8 h8", "b3 d3", "e5", true);
    let q = play(&g, &p, "c8-c3");
    assert_eq!(q.attackers.count_ones(), 2, "{}", g.diagram(&q));
    // The king moving between two attackers is safe as well (T14).
    let p = setup(&g, "c4 c2 h8", "b9", "a3", false);
    let q = play(&g, &p, "a3-c3");
    assert!(!king_captured(&q));
    assert_eq!(g.outcome(&q), None);
}

#[test]
fn men_pass_through_the_empty_throne_but_never_stop() {
    let g = cai();
    let p = setup(&g, "e3 a8", "h8", "a5", true);
    let moves = legal(&g, &p);
    assert!(moves.contains(&"e3-e6".to_string()));
    assert!(moves.contains(&"e3-e9".to_string()));
    assert!(!moves.contains(&"e3-e5".to_string()));
    // The king may stop on the throne again (T4 = yes) and pass it.
    let p = setup(&g, "a8", "h8", "e3", false);
    let moves = legal(&g, &p);
    assert!(moves.contains(&"e3-e5".to_string()));
    assert!(moves.contains(&"e3-e8".to_string()));
    // Ludii's castle blocks every piece; the king may not return.
    let l = from_spec("tablut-ludii").unwrap();
    let p = setup(&l, "e3 a8", "h8", "b7", true);
    assert!(!legal(&l, &p)
        .iter()
        .any(|m| m.starts_with("e3-e") && m != "e3-e4" && m != "e3-e2" && m != "e3-e1"));
    let p = setup(&l, "a8", "h8", "e3", false);
    assert!(!legal(&l, &p).iter().any(|m| m == "e3-e5" || m == "e3-e6"));
    // An occupied throne blocks everyone.
    let p = setup(&g, "e3 a8", "h8", "e5", true);
    assert!(!legal(&g, &p).iter().any(|m| m == "e3-e6"));
}

#[test]
fn corners_are_closed_to_men() {
    let g = cai();
    let p = setup(&g, "a5 h8", "b2", "e5", true);
    let moves = legal(&g, &p);
    assert!(moves.contains(&"a5-a2".to_string()));
    assert!(!moves.contains(&"a5-a1".to_string()));
    assert!(!moves.contains(&"a5-a9".to_string()));
    // ... but open to the king, who wins there.
    let p = setup(&g, "h8", "b2", "a5", false);
    assert!(legal(&g, &p).contains(&"a5-a1".to_string()));
    let q = play(&g, &p, "a5-a1");
    assert_eq!(g.outcome(&q), Some(Value::Loss));
    assert_eq!(g.legal_moves_count(&q), 0);
    // corner_access=all opens them to men.
    let g2 = from_spec("caikaboroda,corner_access=all").unwrap();
    let p = setup(&g2, "a5 h8", "b2", "e5", true);
    assert!(legal(&g2, &p).contains(&"a5-a1".to_string()));
}

#[test]
fn defenders_move_first_in_caikaboroda() {
    let g = cai();
    assert!(!g.start().attackers_to_move);
    assert_eq!(g.side_name(g.side_to_move(&g.start())), "defenders");
    assert!(from_spec("tablut-ludii").unwrap().start().attackers_to_move);
}

#[test]
fn hostile_squares_in_caikaboroda_hostile() {
    let g = from_spec("caikaboroda-hostile").unwrap();
    // An empty corner is hostile: attacker b1 taken by a defender moving to c1.
    let p = setup(&g, "b1 h8", "c4", "e5", false);
    assert_eq!(play(&g, &p, "c4-c1").attackers.count_ones(), 1);
    // The throne is hostile to attackers even when the king sits on it.
    let p = setup(&g, "d5 h8", "b4", "e5", false);
    let q = play(&g, &p, "b4-b5");
    assert_eq!(q.attackers.count_ones(), 2, "c5 empty: nothing taken");
    let p = setup(&g, "d5 h8", "c8", "e5", false);
    assert_eq!(play(&g, &p, "c8-c5").attackers.count_ones(), 1);
    // ... but to defenders only when empty.
    let p = setup(&g, "c8 h8", "d5", "e5", true);
    assert_eq!(play(&g, &p, "c8-c5").defenders.count_ones(), 1);
    let p = setup(&g, "c8 h8", "d5", "g7", true);
    assert_eq!(play(&g, &p, "c8-c5").defenders.count_ones(), 0);
    // The literal preset has no hostile squares.
    let l = cai();
    let p = setup(&l, "c8 h8", "d5", "g7", true);
    assert_eq!(play(&l, &p, "c8-c5").defenders.count_ones(), 1);
}

#[test]
fn first_difference_ludii_against_hnefatafl() {
    let line = "a4-a1 c5-c1 b5-c5";
    let ludii = from_spec("tablut-ludii").unwrap();
    let crate_rules = from_spec("tablut-hnefatafl").unwrap();
    let l = play_line(&ludii, &ludii.start(), line).unwrap();
    let c = play_line(&crate_rules, &crate_rules.start(), line).unwrap();
    let d5 = 1u128 << ludii.geometry().parse_cell("d5").unwrap();
    assert_eq!(
        l.defenders & d5,
        0,
        "Ludii: d5 captured against the occupied throne"
    );
    assert_ne!(c.defenders & d5, 0, "crate: d5 survives");
}

#[test]
fn linnaean_capture_in_tablut_hnefatafl() {
    let g = from_spec("tablut-hnefatafl").unwrap();
    // King on the throne with attackers on e6, f5, e4; the defender on d5 falls to c5.
    let p = setup(&g, "e6 f5 e4 c8", "d5", "e5", true);
    let q = play(&g, &p, "c8-c5");
    assert_eq!(q.defenders.count_ones(), 0, "{}", g.diagram(&q));
    let g2 = from_spec("tablut-hnefatafl,linnaean=no").unwrap();
    let p = setup(&g2, "e6 f5 e4 c8", "d5", "e5", true);
    assert_eq!(play(&g2, &p, "c8-c5").defenders.count_ones(), 1);
}

#[test]
fn weak_king_in_tablut_and_brandubh() {
    // Tablut (weak): two attackers take the king away from the throne.
    let g = from_spec("tablut-ludii").unwrap();
    let p = setup(&g, "b3 d7", "h8", "c3", true);
    assert!(!king_captured(&play(&g, &p, "d7-d6")));
    let p = setup(&g, "b3 d7", "h8", "c3", true);
    let q = play(&g, &p, "d7-d3");
    assert!(king_captured(&q), "{}", g.diagram(&q));
    // Beside the throne he needs three attackers and the throne.
    let p = setup(&g, "d4 a3 h8", "b8", "e4", true);
    assert!(!king_captured(&play(&g, &p, "a3-e3")));
    let p = setup(&g, "d4 f4 a3", "b8", "e4", true);
    assert!(king_captured(&play(&g, &p, "a3-e3")));
    // Brandubh: a corner acts as the second flanker.
    let b = from_spec("brandubh").unwrap();
    let p = setup(&b, "c5", "g5", "b1", true);
    assert!(king_captured(&play(&b, &p, "c5-c1")));
    let b2 = from_spec("brandubh,king_flank=attackers").unwrap();
    let p = setup(&b2, "c5", "g5", "b1", true);
    assert!(!king_captured(&play(&b2, &p, "c5-c1")));
}

#[test]
fn no_moves_and_wipe_out() {
    // Attackers to move with their only man blocked: loss (caikaboroda) or draw (no_moves=draw).
    let g = cai();
    let p = setup(&g, "a2", "a3 b2", "i5", true);
    assert_eq!(g.outcome(&p), Some(Value::Loss));
    let g2 = from_spec("caikaboroda,no_moves=draw").unwrap();
    assert_eq!(g2.outcome(&p), Some(Value::Draw));
    // No attacker left: a win for the defenders under all_captured=win, else judged by no_moves.
    let t = from_spec("tablut-hnefatafl").unwrap();
    let p = setup(&t, "", "c3", "g7", true);
    assert_eq!(t.outcome(&p), Some(Value::Loss));
    let t2 = from_spec("tablut-hnefatafl,all_captured=no_moves").unwrap();
    assert_eq!(t2.outcome(&p), Some(Value::Draw));
}

#[test]
fn position_text_and_errors() {
    let g = from_spec("tablut-hnefatafl").unwrap();
    let text = g.format_position(&g.start());
    assert_eq!(
        text,
        "...AAA.../....A..../....D..../A...D...A/AADDKDDAA/A...D...A/....D..../....A..../...AAA... a"
    );
    assert_eq!(g.parse_position(&text).unwrap(), g.start());
    assert_eq!(g.parse_position("start").unwrap(), g.start());
    for bad in [
        "",
        "...AAA... a",
        "...AAA.../....A..../....D..../A...D...A/AADDKDDAA/A...D...A/....D..../....A..../...AAA... x",
        "...AAA.../....A..../....D..../A...D...A/AADDADDAA/A...D...A/....D..../....A..../...AAA... a",
        "...AAA.../....A..../....D..../A...D...A/AADDKDDAK/A...D...A/....D..../....A..../...AAA... a",
        "...AAQ.../....A..../....D..../A...D...A/AADDKDDAA/A...D...A/....D..../....A..../...AAA... a",
    ] {
        assert!(g.parse_position(bad).is_err(), "accepted: {bad}");
    }
    let d = g.diagram(&g.start());
    assert!(d.contains(" 9  + . . A A A . . + 9"), "{d}");
    assert!(g.parse_move(&g.start(), "e5-e6").is_err());
    assert!(g.parse_move(&g.start(), "z1-a1").is_err());
    assert!(g.parse_move(&g.start(), "d1-d4").is_ok());
}

trait CountMoves {
    fn legal_moves_count(&self, p: &TaflPos) -> usize;
}

impl CountMoves for TaflGame {
    fn legal_moves_count(&self, p: &TaflPos) -> usize {
        let mut v = Vec::new();
        self.legal_moves(p, &mut v);
        v.len()
    }
}
