//! Tests of the hunt tiers against the solvers' needs: every scope's tiers
//! round-trip, children and un-moves agree with play, the time estimate.

use super::*;
use crate::game::{Game, Notation};
use crate::retro::scope::{Scope, Solvable};
use crate::tier::TierGame;

#[test]
fn rank_unrank_round_trip_and_classes() {
    for spec in [
        "kaooa",
        "kaooa-6",
        "bagh-chal,prey=3,hunter_win=captures>=2",
    ] {
        let g = crate::hunt::from_spec(spec).unwrap();
        let tiers = g.scope_tiers(&Scope::Movement).unwrap();
        let syms = g.board().symmetries.len();
        for t in tiers.into_iter().take(3) {
            let mut classes = 0u64;
            let mut orbit_total = 0u64;
            for i in 0..g.tier_size(t) {
                if let Some(p) = g.unrank(t, i) {
                    classes += 1;
                    assert_eq!(g.rank(t, &p), i, "{spec} {}", g.format_position(&p));
                    assert_eq!(g.tier_of(&p), t);
                    // Every image ranks to the same slot.
                    let mut orbit = std::collections::HashSet::new();
                    for s in 0..syms {
                        let q = g.map_pos(s, &p);
                        assert_eq!(g.rank(t, &q), i);
                        orbit.insert((q.hunters, q.prey));
                    }
                    orbit_total += orbit.len() as u64;
                }
            }
            // The orbits of the classes cover every placement exactly once.
            assert_eq!(
                orbit_total,
                g.tier_placements(t),
                "{spec} {}",
                g.tier_name(t)
            );
            assert!(classes > 0);
        }
    }
}

/// The batched child ranking equals playing each move and ranking the child.
#[test]
fn child_indices_equal_play_and_rank() {
    for (spec, scope) in [
        ("bagh-chal", Scope::MaxInHand(2)),
        ("kaooa", Scope::Whole),
        ("diviyan-keliya", Scope::MaxPrey(3)),
        ("bagh-chal,hunters=2,hunter_start=hand,prey=5", Scope::Whole),
    ] {
        let g = crate::hunt::from_spec(spec).unwrap();
        let mut rng = crate::random::Rng::new(11);
        let (mut moves, mut got) = (Vec::new(), Vec::new());
        let mut checked = 0;
        for t in g.scope_tiers(&scope).unwrap() {
            let size = g.tier_size(t);
            for _ in 0..300 {
                let Some(p) = g.unrank(t, rng.below(size as usize) as u64) else {
                    continue;
                };
                g.legal_moves(&p, &mut moves);
                for inner in [true, false] {
                    g.child_indices(t, &p, &moves, inner, &mut got);
                    assert_eq!(got.len(), moves.len());
                    for (&m, &(ct, r)) in moves.iter().zip(&got) {
                        let c = g.play(&p, m);
                        assert_eq!(ct, g.tier_of(&c), "{spec}");
                        if (inner || ct != t) && !g.tier_is_terminal(ct) {
                            assert_eq!(r, g.rank(ct, &c), "{spec} {}", g.format_position(&p));
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 1000, "{spec}: {checked}");
    }
}

/// `unrank_orbit` (one ranking of a symmetric class's slot) gives what unranking
/// and then ranking the position gives: the same position, its stabiliser's order,
/// and nothing for a slot that holds no position.
#[test]
fn unrank_orbit_equals_unrank_then_rank_orbit() {
    for (spec, scope) in [
        ("cows-leopards-mogol", Scope::MaxPrey(3)),
        ("bagh-chal,prey=3,hunter_win=captures>=2", Scope::Movement),
        ("kaooa", Scope::Whole),
    ] {
        let g = crate::hunt::from_spec(spec).unwrap();
        let syms = g.board().symmetries.len() as u64;
        let (mut symmetric, mut empty) = (0, 0);
        for t in g.scope_tiers(&scope).unwrap() {
            for i in 0..g.tier_size(t).min(20_000) {
                let got = g.unrank_orbit(t, i);
                let Some(pos) = g.unrank(t, i) else {
                    assert!(got.is_none(), "{spec} {i}");
                    empty += 1;
                    continue;
                };
                let (r, stab) = g.rank_orbit(t, &pos);
                assert_eq!(r, i, "{spec}");
                assert_eq!(got, Some((pos, stab)), "{spec} {i}");
                let stab = u64::from(stab.unwrap());
                assert_eq!(stab * g.orbit_size(&pos).unwrap(), syms, "{spec} {i}");
                symmetric += u32::from(stab > 1);
            }
        }
        assert!(
            symmetric > 0 && empty > 0,
            "{spec}: {symmetric} symmetric, {empty} empty"
        );
    }
}

/// The hunt games' `slot_pred_ranks` (the slot's prey taken from the index,
/// unranked along sorted runs) equals the trait's default: `unrank_orbit`, then
/// `pred_ranks` of the representative; `slot_pred_edges` gives the same pairs
/// for every child only the identity fixes, and nothing for the others.
#[test]
fn slot_pred_ranks_equal_unrank_then_pred_ranks() {
    for (spec, scope) in [
        ("cows-leopards-mogol", Scope::MaxPrey(4)),
        ("diviyan-keliya", Scope::MaxPrey(2)),
        ("bagh-chal,prey=3,hunter_win=captures>=2", Scope::Whole),
        ("kaooa", Scope::Whole),
    ] {
        let g = crate::hunt::from_spec(spec).unwrap();
        let mut rng = crate::random::Rng::new(3);
        let (mut buf, mut got, mut want) = (Vec::new(), Vec::new(), Vec::new());
        let mut checked = 0;
        for t in g.scope_tiers(&scope).unwrap() {
            let size = g.tier_size(t);
            let mut slots: Vec<u64> = (0..2_000)
                .map(|_| rng.below(size as usize) as u64)
                .collect();
            slots.sort_unstable();
            for i in slots {
                let stab = g.slot_pred_ranks(t, i, &mut buf, &mut got);
                let Some((rep, stab_c)) = g.unrank_orbit(t, i) else {
                    assert_eq!(stab, None, "{spec} {i}");
                    continue;
                };
                assert_eq!(stab, Some(stab_c), "{spec} {i}");
                g.pred_ranks(t, &rep, &mut buf, &mut want);
                got.sort_unstable();
                want.sort_unstable();
                assert_eq!(got, want, "{spec} {}", g.format_position(&rep));
                checked += got.len();
                // The edges straight from the slot: a child only the identity fixes.
                crate::retro::tests_solver::assert_slot_pred_edges(&g, t, i, (&rep, stab_c), &want);
            }
        }
        assert!(checked > 1000, "{spec}: {checked}");
    }
}

/// The hunt games' `terminal_child_value` equals playing the move and reading
/// the child's outcome, for every move into a terminal tier.
#[test]
fn terminal_child_value_equals_the_outcome() {
    for (spec, scope) in [
        ("cows-leopards-mogol", Scope::MaxPrey(4)),
        ("bagh-chal,prey=3,hunter_win=captures>=2", Scope::Whole),
        ("diviyan-keliya", Scope::MaxPrey(3)),
    ] {
        let g = crate::hunt::from_spec(spec).unwrap();
        let mut rng = crate::random::Rng::new(7);
        let mut moves = Vec::new();
        let mut checked = 0;
        for t in g.scope_tiers(&scope).unwrap() {
            let size = g.tier_size(t);
            for _ in 0..3_000 {
                let Some(p) = g.unrank(t, rng.below(size as usize) as u64) else {
                    continue;
                };
                g.legal_moves(&p, &mut moves);
                for &m in &moves {
                    let c = g.play(&p, m);
                    let ct = g.tier_of(&c);
                    let v = g.terminal_child_value(&p, m, ct);
                    if g.tier_is_terminal(ct) {
                        assert_eq!(v, g.outcome(&c), "{spec} {}", g.format_position(&p));
                        checked += 1;
                    } else {
                        assert_eq!(v, None, "{spec}");
                    }
                }
            }
        }
        assert!(checked > 100, "{spec}: {checked}");
    }
}

#[test]
fn drops_make_a_tier_slower_in_the_time_estimate() {
    let g = crate::hunt::from_spec("cows-leopards-mogol,prey=5").unwrap();
    let tier = |h, p, c| HuntTier {
        hunters_in_hand: h,
        prey_in_hand: p,
        captured: c,
    };
    let movement = g.core_rate(tier(0, 0, 0));
    let prey_drops = g.core_rate(tier(0, 1, 0));
    let hunter_drops = g.core_rate(tier(1, 0, 0));
    let both = g.core_rate(tier(1, 1, 0));
    assert!(movement > prey_drops && prey_drops > hunter_drops && hunter_drops > both);
    // Near the rates measured on this game's tiers (0.96 M and 0.54 M slots/s).
    assert!((0.5e6..2e6).contains(&prey_drops), "{prey_drops}");
    assert!((0.25e6..1e6).contains(&hunter_drops), "{hunter_drops}");
}
