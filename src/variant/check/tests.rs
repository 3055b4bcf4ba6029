//! The board checks on boards broken in ways a board file cannot express (the
//! loader derives adjacency and jumps from lines), and the piece counts on a tier
//! the rules cannot hold: each check must fail on its fault.

use super::board::{check_board, check_geometry, check_symmetries, HuntHook};
use super::report::CheckStatus;
use crate::board::Board;
use crate::hunt::tiers::HuntTier;

fn status(t: super::report::Tally) -> (CheckStatus, String) {
    let l = t.line();
    (l.status, l.first.unwrap_or_default())
}

#[test]
fn every_builtin_board_passes_the_board_checks() {
    for &(name, ..) in crate::board::BUILTIN {
        let b = Board::builtin(name).unwrap();
        assert_eq!(status(check_board(&b)).0, CheckStatus::Ok, "{name}");
        assert_eq!(status(check_geometry(&b).0).0, CheckStatus::Ok, "{name}");
        assert_eq!(status(check_symmetries(&b)).0, CheckStatus::Ok, "{name}");
    }
}

#[test]
fn a_one_sided_adjacency_fails_the_board_check() {
    let mut b = Board::builtin("alquerque25").unwrap();
    b.neighbours[1] &= !1; // b1 forgets a1; a1 still lists b1
    let (s, first) = status(check_board(&b));
    assert_eq!(s, CheckStatus::Failed);
    assert!(
        first.contains("one-sided adjacency: a1 lists b1"),
        "{first}"
    );
}

#[test]
fn a_jump_whose_middle_is_not_adjacent_fails_the_board_check() {
    let mut b = Board::builtin("alquerque25").unwrap();
    // a1 over b1 to c1 becomes a1 over d1 to c1: d1 is not a1's neighbour.
    let j = b.jumps[0].iter().position(|&(o, _)| o == 1).unwrap();
    b.jumps[0][j].0 = 3;
    let (s, first) = status(check_board(&b));
    assert_eq!(s, CheckStatus::Failed);
    assert!(
        first.contains("the middle point is not adjacent to both ends"),
        "{first}"
    );
}

#[test]
fn a_point_out_of_range_and_a_missing_way_back_fail_the_board_check() {
    let mut b = Board::builtin("alquerque25").unwrap();
    b.neighbours[0] |= 1 << 40;
    let (s, first) = status(check_board(&b));
    assert_eq!(s, CheckStatus::Failed);
    assert!(first.contains("out of range"), "{first}");
    let mut b = Board::builtin("alquerque25").unwrap();
    let c = b.jumps[2]
        .iter()
        .position(|&(o, t)| (o, t) == (1, 0))
        .unwrap();
    b.jumps[2].remove(c);
    b.jump_to[2][1] = crate::board::NO_JUMP;
    let (s, first) = status(check_board(&b));
    assert_eq!(s, CheckStatus::Failed);
    assert!(first.contains("one-sided jump: a1xc1 over b1"), "{first}");
}

#[test]
fn a_symmetry_that_breaks_an_edge_fails_the_symmetry_check() {
    let mut b = Board::builtin("alquerque25").unwrap();
    let s = &mut b.symmetries[1];
    s.swap(0, 1);
    let (st, first) = status(check_symmetries(&b));
    assert_eq!(st, CheckStatus::Failed);
    assert!(first.contains("symmetry 1 maps"), "{first}");
}

#[test]
fn a_bent_line_is_a_warning_and_a_skipped_point_a_failure() {
    let bent = Board::parse("point 0 0\npoint 1 0\npoint 2 1\nline a1 b1 c2\n").unwrap();
    let (geometry, bends) = check_geometry(&bent);
    assert_eq!(status(geometry).0, CheckStatus::Ok);
    let (s, first) = status(bends);
    assert_eq!(s, CheckStatus::Warning);
    assert!(first.contains("the line a1 b1 c2 bends at b1"), "{first}");
}

#[test]
fn a_tier_the_rules_cannot_hold_fails_the_piece_counts() {
    let g = crate::hunt::from_spec("kaooa").unwrap();
    let mut hook = HuntHook::new(&g);
    hook.tier_counts(&[HuntTier {
        hunters_in_hand: 0,
        prey_in_hand: 6,
        captured: 0,
    }]);
    assert_eq!(hook.pieces.line().status, CheckStatus::Ok);
    let mut hook = HuntHook::new(&g);
    hook.tier_counts(&[HuntTier {
        hunters_in_hand: 2,
        prey_in_hand: 0,
        captured: 0,
    }]);
    let l = hook.pieces.line();
    assert_eq!(l.status, CheckStatus::Failed);
    assert!(l.first.unwrap().contains("tier h2p0c0 does not fit"));
}
