//! Hand-made positions for every hunt rule option (docs/rules.md §2.1).

use crate::game::Notation;
use crate::game::{Game, Value};
use crate::hunt::{from_spec, HuntGame, HuntPos};

fn game(spec: &str) -> HuntGame {
    from_spec(spec).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

fn mask(g: &HuntGame, names: &[&str]) -> u64 {
    names.iter().fold(0, |m, n| {
        m | 1u64
            << g.board()
                .point_by_name(n)
                .unwrap_or_else(|| panic!("no point {n}"))
    })
}

/// A position with hunters and prey on the named points, no pieces in hand;
/// the captured count makes the prey total match the rules.
fn pos(g: &HuntGame, hunters: &[&str], prey: &[&str], hunter_to_move: bool) -> HuntPos {
    let captured = g.rules().prey - prey.len() as u8;
    g.make_pos(
        mask(g, hunters),
        mask(g, prey),
        0,
        0,
        captured,
        hunter_to_move,
    )
}

fn moves(g: &HuntGame, p: &HuntPos) -> Vec<String> {
    let mut v = Vec::new();
    g.legal_moves(p, &mut v);
    let mut s: Vec<String> = v.iter().map(|&m| g.format_move(p, m)).collect();
    s.sort();
    s
}

fn captures(g: &HuntGame, p: &HuntPos) -> Vec<String> {
    moves(g, p)
        .into_iter()
        .filter(|m| m.contains('x'))
        .collect()
}

#[test]
fn chain_turns_a_corner_and_continue_forbids_stopping() {
    // e5 jumps f5 to g5, then turns and jumps g6 to g7.
    let spec = "diviyan-keliya";
    let g = game(spec);
    let p = pos(&g, &["e5", "e9"], &["f5", "g6"], true);
    assert_eq!(captures(&g, &p), ["e5xg5xg7"]);
    let g = game(&format!("{spec},chain=optional"));
    assert_eq!(captures(&g, &p), ["e5xg5", "e5xg5xg7"]);
    let g = game(&format!("{spec},chain=none"));
    assert_eq!(captures(&g, &p), ["e5xg5"]);
    let g = game(&format!("{spec},chain=maximal"));
    assert_eq!(captures(&g, &p), ["e5xg5xg7"]);
}

#[test]
fn taking_the_last_cow_wins_for_the_leopards() {
    let g = game("diviyan-keliya");
    let p = pos(&g, &["e5", "e9"], &["f5", "g6"], true);
    let mv = g.parse_move(&p, "e5xg5xg7").unwrap();
    assert_eq!(g.captures_of(&p, mv), 2);
    assert!(g.is_capture(&p, mv));
    let after = g.play(&p, mv);
    assert_eq!(after.captured, 24);
    assert_eq!(g.outcome(&after), Some(Value::Loss)); // prey to move, leopards have won
    assert!(moves(&g, &after).is_empty());
    assert_eq!(g.outcome(&p), None);
}

#[test]
fn a_chain_never_jumps_a_captured_cow_twice() {
    // c5 takes d5 landing on e5; jumping back over d5 is impossible under both
    // removal options (under end_of_turn the cow is still standing there).
    for removal in ["immediate", "end_of_turn"] {
        let g = game(&format!("diviyan-keliya,removal={removal}"));
        let p = pos(&g, &["c5", "e9"], &["d5"], true);
        assert_eq!(captures(&g, &p), ["c5xe5"], "{removal}");
        let mv = g.parse_move(&p, "c5xe5").unwrap();
        assert_eq!(g.captures_of(&p, mv), 1);
    }
    // The path notation cannot re-jump a taken cow either.
    let g = game("diviyan-keliya");
    let p = pos(&g, &["c5", "e9"], &["d5"], true);
    assert!(g.parse_move(&p, "c5xe5xc5").is_err());
}

#[test]
fn removal_timing_decides_whether_a_taken_cows_point_can_be_landed_on() {
    // i7 takes i5 (landing i3), h4 (landing g5), then h5 landing on i5, which
    // is empty only if the first cow left at once.
    let p_names = (["i7", "a5"], ["h4", "h5", "i5"]);
    let g = game("diviyan-keliya");
    let p = pos(&g, &p_names.0, &p_names.1, true);
    assert_eq!(captures(&g, &p), ["i7xi3xg5xi5"]);
    let g = game("diviyan-keliya,removal=end_of_turn");
    let p = pos(&g, &p_names.0, &p_names.1, true);
    assert_eq!(captures(&g, &p), ["i7xi3xg5"]);
}

#[test]
fn two_chains_ending_in_the_same_position_are_one_move() {
    // c3 can run the loop d3, e4, d5, c4 either way round and ends on c3.
    let g = game("bagh-chal-ludii,chain=continue");
    let p = pos(
        &g,
        &["a1", "e1", "a5", "c3"],
        &["d3", "e4", "d5", "c4"],
        true,
    );
    let caps = captures(&g, &p);
    assert_eq!(caps.len(), 1, "{caps:?}");
    let a = g.parse_move(&p, "c3xe3xe5xc5xc3").unwrap();
    let b = g.parse_move(&p, "c3xc5xe5xe3xc3").unwrap();
    assert_eq!(a, b);
    assert_eq!(g.captures_of(&p, a), 4);
    let after = g.play(&p, a);
    assert_eq!(after.prey, 0);
    assert_eq!(after.hunters, p.hunters);
    assert_eq!(after.captured, 20);
    assert_eq!(g.outcome(&after), Some(Value::Loss));
}

#[test]
fn compulsory_capture_removes_quiet_moves() {
    let p_h = ["c3", "g7"];
    // Four cows: fewer would already be a win under the static rule (M2 = 4).
    let p_p = ["d3", "a5", "a3", "i7"];
    let g = game("cows-leopards-peralikatuma");
    let p = pos(&g, &p_h, &p_p, true);
    assert_eq!(moves(&g, &p), ["c3xe3"]);
    let g = game("cows-leopards-peralikatuma,capture_compulsory=false");
    let p = pos(&g, &p_h, &p_p, true);
    let all = moves(&g, &p);
    assert!(all.contains(&"c3xe3".to_string()));
    assert!(all.contains(&"c3-c4".to_string()));
    // the capture, c3-c4 and c3-d4, and g7 to f6, f7, g6
    assert_eq!(all.len(), 6, "{all:?}");
}

#[test]
fn maximal_chains_keep_only_the_longest_captures() {
    // c3 can take one cow (d3); e5 can take two (f5 then g6).
    let hunters = ["c3", "e5"];
    let prey = ["d3", "f5", "g6"];
    let g = game("diviyan-keliya");
    let p = pos(&g, &hunters, &prey, true);
    assert_eq!(captures(&g, &p), ["c3xe3", "e5xg5xg7"]);
    let g = game("diviyan-keliya,chain=maximal");
    let p = pos(&g, &hunters, &prey, true);
    assert_eq!(captures(&g, &p), ["e5xg5xg7"]);
    // Steps stay legal: capture is not compulsory in this preset.
    assert!(moves(&g, &p).contains(&"c3-c4".to_string()));
    let g = game("diviyan-keliya,chain=maximal,capture_compulsory=true");
    assert_eq!(moves(&g, &p), ["e5xg5xg7"]);
}

#[test]
fn both_leopards_immobilised_lose() {
    // The M2 witness of docs/rules.md §1.6: leopards on 46, 47; cows on 43, 44, 39, 48.
    let g = game("diviyan-keliya");
    let p = pos(&g, &["c9", "e9"], &["d8", "e8", "e7", "g9"], true);
    assert!(moves(&g, &p).is_empty());
    assert_eq!(g.outcome(&p), Some(Value::Loss));
    // With the cows to move the game goes on.
    let p = pos(&g, &["c9", "e9"], &["d8", "e8", "e7", "g9"], false);
    assert_eq!(g.outcome(&p), None);
}

#[test]
fn one_immobilised_leopard_does_not_end_the_game() {
    // c9 is held by d8, e9 and the cows beyond them (e7, g9); a5 is free.
    let g = game("diviyan-keliya");
    let p = pos(&g, &["c9", "a5"], &["d8", "e9", "e7", "g9"], true);
    assert_eq!(g.outcome(&p), None);
    let m = moves(&g, &p);
    assert!(!m.is_empty());
    assert!(m.iter().all(|s| s.starts_with("a5")), "{m:?}");
    // Free the trapped leopard's jump by removing the cow beyond d8.
    let p = pos(&g, &["c9", "a5"], &["d8", "e9", "g9"], true);
    assert!(captures(&g, &p).contains(&"c9xe7".to_string()));
}

#[test]
fn bagh_chal_four_tigers_immobilised_lose() {
    // Tigers on a1, e1, a5, e5, each hemmed in by goats and goats behind them.
    let g = game("bagh-chal");
    let prey = [
        "b1", "c1", "a2", "b2", "a3", "c3", "d1", "d2", "e2", "e3", "a4", "b4", "b5", "c5", "d4",
        "d5", "e4",
    ];
    let p = g.make_pos(
        mask(&g, &["a1", "e1", "a5", "e5"]),
        mask(&g, &prey),
        0,
        3,
        0,
        true,
    );
    assert!(moves(&g, &p).is_empty());
    assert_eq!(g.outcome(&p), Some(Value::Loss));
}

#[test]
fn prey_without_moves_loses_passes_or_draws() {
    // A lone goat on a1 surrounded by tigers; no goats in hand.
    let hunters = ["b1", "a2", "b2", "e5"];
    for (opt, want_outcome, want_moves) in [
        ("loss", Some(Value::Loss), vec![]),
        ("pass", None, vec!["pass".to_string()]),
        ("draw", Some(Value::Draw), vec![]),
    ] {
        let g = game(&format!("bagh-chal-ludii,prey_no_moves={opt}"));
        let p = pos(&g, &hunters, &["a1"], false);
        assert_eq!(g.outcome(&p), want_outcome, "{opt}");
        assert_eq!(moves(&g, &p), want_moves, "{opt}");
        if opt == "pass" {
            let mv = g.parse_move(&p, "pass").unwrap();
            let after = g.play(&p, mv);
            assert!(after.hunter_to_move);
            assert_eq!((after.hunters, after.prey), (p.hunters, p.prey));
            assert_eq!(after.hash, g.compute_hash(&after));
        }
    }
}

#[test]
fn static_rule_uses_m2() {
    // M2 = 4 on peralikatuma49: 4 cows left keep the game going, 3 do not.
    let g = game("cows-leopards-peralikatuma");
    assert_eq!(g.m_hunters(), Some(4));
    let p4 = pos(&g, &["a5", "i5"], &["e1", "e2", "e3", "e4"], true);
    assert_eq!(g.outcome(&p4), None);
    let p3 = pos(&g, &["a5", "i5"], &["e1", "e2", "e3"], true);
    assert_eq!(p3.captured, 21);
    assert_eq!(g.outcome(&p3), Some(Value::Win));
    assert!(moves(&g, &p3).is_empty());
    // Cows in hand count: 2 on the board + 2 in hand is still 4.
    let p = g.make_pos(
        mask(&g, &["a5", "i5"]),
        mask(&g, &["e1", "e2"]),
        0,
        2,
        20,
        false,
    );
    assert_eq!(g.outcome(&p), None);
    // mogol43 has M2 = 5.
    let g = game("cows-leopards-mogol43");
    assert_eq!(g.m_hunters(), Some(5));
    // A capture threshold instead: 20 captures win.
    let g = game("cows-leopards-peralikatuma,hunter_win=20");
    assert_eq!(
        g.outcome(&pos(&g, &["a5", "i5"], &["e1", "e2", "e3", "e4"], true)),
        Some(Value::Win)
    );
}

#[test]
fn cows_keep_dropping_while_leopards_move() {
    let g = game("diviyan-keliya");
    let line = "e5 a5 c3";
    let p = crate::game::play_line(&g, &g.start(), line).unwrap();
    // Leopards placed, cows still in hand: the cows may only drop.
    let p = crate::game::play_line(&g, &p, "c7").unwrap();
    assert!(p.hunter_to_move);
    assert_eq!(p.hunters_in_hand, 0);
    let hm = moves(&g, &p);
    assert!(
        hm.iter().all(|m| m.contains('-') || m.contains('x')),
        "{hm:?}"
    );
    let p = crate::game::play_line(&g, &p, "e5-e6").unwrap();
    let pm = moves(&g, &p);
    assert_eq!(pm.len(), 49 - 4);
    assert!(pm.iter().all(|m| !m.contains('-')));
    // Without drop-before-move for the cows they may also step.
    let g = game("diviyan-keliya,drop_before_move=hunter");
    let p = crate::game::play_line(&g, &g.start(), "e5 a5 c3 c7 e5-e6").unwrap();
    let pm = moves(&g, &p);
    // a5 steps to a3, a7, b5; c7 to c6, d6, d7.
    assert!(pm.contains(&"a5-b5".to_string()), "{pm:?}");
    assert_eq!(pm.len(), 45 + 6);
}

#[test]
fn hunters_drop_before_moving_unless_told_otherwise() {
    let g = game("diviyan-keliya");
    let p = crate::game::play_line(&g, &g.start(), "e5 a5").unwrap();
    assert_eq!(moves(&g, &p).len(), 47);
    let g = game("diviyan-keliya,drop_before_move=prey");
    let p = crate::game::play_line(&g, &g.start(), "e5 a5").unwrap();
    let m = moves(&g, &p);
    // 47 drops and the 8 steps of the leopard on the centre.
    assert!(m.contains(&"e5-e6".to_string()));
    assert_eq!(m.len(), 47 + 8);
}

#[test]
fn first_drop_at_the_centre() {
    let g = game("diviyan-keliya,first_drop=centre");
    assert_eq!(moves(&g, &g.start()), ["e5"]);
    let p = crate::game::play_line(&g, &g.start(), "e5 a5").unwrap();
    assert_eq!(moves(&g, &p).len(), 47);
    assert!(from_spec("kaooa,first_drop=centre").is_err());
}

#[test]
fn kaooa_vulture_moves_while_crows_drop() {
    let g = game("kaooa");
    assert_eq!(moves(&g, &g.start()).len(), 10);
    let p = crate::game::play_line(&g, &g.start(), "t0 i0 t1").unwrap();
    // The vulture on i0 (05) steps to i1 or i4, or jumps: t0 and t1 hold crows.
    let m = moves(&g, &p);
    assert_eq!(m, ["i0-i1", "i0-i4"]);
    let p = crate::game::play_line(&g, &g.start(), "i1 i0").unwrap();
    // Crow on i1 (06) can be jumped from i0 (05) to t2 (02).
    let p = crate::game::play_line(&g, &p, "t3").unwrap();
    assert!(captures(&g, &p).contains(&"i0xt2".to_string()));
}

#[test]
fn bagh_chal_start() {
    let g = game("bagh-chal");
    let s = g.start();
    assert!(!s.hunter_to_move);
    assert_eq!(s.hunters.count_ones(), 4);
    assert_eq!((s.hunters_in_hand, s.prey_in_hand), (0, 20));
    assert_eq!(g.format_position(&s), "H...H...............H...H/h0p20c0/p");
}
