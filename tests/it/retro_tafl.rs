//! Tafl endgames solved tier by tier and checked against exhaustive search over
//! the explicit game graph from every placement of the material (code that
//! shares nothing with the solver), against the table verifier, and for the
//! same records with 1 and 2 threads. Also the index: rank/unrank round trip
//! and symmetry classes that cover every placement exactly once.

use huntsolve::decode;
use huntsolve::game::Game;
use huntsolve::game::Notation;
use huntsolve::retro::TaflTier;
use huntsolve::retro::{load_records, solve};
use huntsolve::retro::{Scope, Solvable, SolveOptions, TierGame};
use huntsolve::tafl::{from_spec, TaflGame, TaflPos};
use huntsolve::NoProgress;
use std::collections::{BTreeMap, HashSet};

/// Every placement of `a` attackers and `d` defenders plus the king on cells
/// where they may stand, with both sides to move (by brute force over cells,
/// not through the index).
fn placements(g: &TaflGame, a: usize, d: usize) -> Vec<TaflPos> {
    let cells = g.geometry().cells as u8;
    let mut out = Vec::new();
    // The position parser rejects men on forbidden cells: use it as the oracle,
    // asked once per cell (a lone attacker there, the king elsewhere) since the
    // rule is per cell; asking it per placement dominated the tests' run time.
    let man_ok: Vec<bool> = (0..cells)
        .map(|c| {
            let king = if c == 0 { 1 } else { 0 };
            g.parse_position(&g.format_position(&g.make_pos(1u128 << c, 0, king, true)))
                .is_ok()
        })
        .collect();
    let ok = |p: &TaflPos| {
        (0..cells).all(|c| (p.attackers | p.defenders) >> c & 1 == 0 || man_ok[c as usize])
    };
    fn subsets(cells: u8, k: usize, avoid: u128, start: u8, acc: u128, f: &mut dyn FnMut(u128)) {
        if k == 0 {
            f(acc);
            return;
        }
        for c in start..cells {
            if avoid >> c & 1 == 0 {
                subsets(cells, k - 1, avoid, c + 1, acc | 1u128 << c, f);
            }
        }
    }
    for king in 0..cells {
        subsets(cells, a, 1u128 << king, 0, 0, &mut |att| {
            subsets(cells, d, att | 1u128 << king, 0, 0, &mut |def| {
                for side in [true, false] {
                    let p = g.make_pos(att, def, king, side);
                    if ok(&p) {
                        out.push(p);
                    }
                }
            });
        });
    }
    out
}

fn check_material(spec: &str, a: u32, d: u32) {
    let g = from_spec(spec).unwrap();
    let scope = Scope::Material {
        attackers: a,
        defenders: d,
    };
    let tiers = g.scope_tiers(&scope).unwrap();
    let mut roots = Vec::new();
    for t in &tiers {
        if !t.king_captured {
            roots.extend(placements(&g, t.attackers as usize, t.defenders as usize));
        }
    }
    let reference = crate::common::retro::exhaustive(&g, &roots);
    let mut per_threads = Vec::new();
    for threads in [1, 2] {
        let dir = std::env::temp_dir().join(format!(
            "huntsolve-tafl-{}-{a}-{d}-{threads}-{}",
            spec.replace([',', '='], "_"),
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let opts = SolveOptions {
            threads,
            memory_limit: None,
            ..Default::default()
        };
        solve(&g, &scope, &dir, &opts, &NoProgress).unwrap();
        let records: BTreeMap<_, _> = tiers
            .iter()
            .map(|&t| (t, load_records(&g, &dir, t).unwrap()))
            .collect();
        for (pos, &want) in &reference {
            let t = g.tier_of(pos);
            let got = decode(records[&t][g.rank(t, pos) as usize]);
            assert_eq!(got, Some(want), "{spec}: {}", g.format_position(pos));
        }
        let v = huntsolve::table::verify_dir(&g, &dir, &NoProgress).unwrap();
        assert!(v.all_agree(), "{spec}: {} mismatches", v.mismatches);
        assert!(v.positions > 0);
        per_threads.push(records);
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert_eq!(per_threads[0], per_threads[1], "{spec}: 1 vs 2 threads");
    // Both outcomes occur: the test would notice a solver that says "draw" everywhere.
    let wins = reference
        .values()
        .filter(|v| v.0 == huntsolve::game::Value::Win && v.1 > 0)
        .count();
    assert!(wins > 0, "{spec}: no non-terminal win");
}

#[test]
fn brandubh_king_vs_2_attackers_matches_exhaustive_search() {
    check_material("brandubh", 2, 0);
}

#[test]
fn brandubh_king_and_defender_vs_attacker_matches_exhaustive_search() {
    check_material("brandubh", 1, 1);
}

/// About 14 s in the test profile (9x9: half a million placements).
#[test]
fn caikaboroda_king_vs_2_attackers_matches_exhaustive_search() {
    check_material("caikaboroda-hostile", 2, 0);
}

#[test]
fn edge_goal_unarmed_king_matches_exhaustive_search() {
    // Edge escape, weak unarmed king, attackers first (a different set of rule paths).
    check_material("tablut-linnaeus,board=7x7,king_armed=no", 2, 0);
}

#[test]
fn index_round_trip_and_classes_cover_placements() {
    check_index(&[
        ("brandubh", 2, 1),
        ("caikaboroda", 1, 0),
        ("tablut-linnaeus", 1, 1),
    ]);
}

#[test]
fn index_round_trip_and_classes_cover_placements_9x9_two_attackers() {
    check_index(&[("caikaboroda", 2, 0)]);
}

fn check_index(cases: &[(&str, u8, u8)]) {
    for &(spec, a, d) in cases {
        let g = from_spec(spec).unwrap();
        let t = TaflTier::material(a, d);
        let mut orbit_total = 0u64;
        let mut classes = 0u64;
        for i in 0..g.tier_size(t) {
            if let Some(p) = g.unrank(t, i) {
                classes += 1;
                assert_eq!(g.rank(t, &p), i, "{spec} {}", g.format_position(&p));
                assert_eq!(g.tier_of(&p), t);
                let mut orbit = HashSet::new();
                for s in 0..8 {
                    let q = g.transform(&p, s);
                    assert_eq!(g.rank(t, &q), i, "{spec} {}", g.format_position(&q));
                    orbit.insert((q.attackers, q.defenders, q.king));
                }
                orbit_total += orbit.len() as u64;
            }
        }
        assert_eq!(orbit_total, g.tier_placements(t), "{spec}");
        assert_eq!(
            g.tier_placements(t),
            placements(&g, a as usize, d as usize).len() as u64,
            "{spec}"
        );
        assert!(classes * 8 >= g.tier_placements(t));
    }
}

#[test]
fn unmoves_are_exactly_the_non_capturing_predecessors() {
    // Forward check: for every non-terminal placement, each in-tier child lists it as an un-move.
    let g = from_spec("brandubh").unwrap();
    let mut moves = Vec::new();
    let mut buf = Vec::new();
    let mut edges = 0;
    for p in placements(&g, 2, 1).into_iter().step_by(7) {
        if g.outcome(&p).is_some() {
            continue;
        }
        g.legal_moves(&p, &mut moves);
        for &m in &moves {
            let c = g.play(&p, m);
            if g.tier_of(&c) == g.tier_of(&p) {
                g.unmoves(&c, &mut buf);
                assert!(
                    buf.contains(&p),
                    "{} -> {}",
                    g.format_position(&p),
                    g.format_position(&c)
                );
                edges += 1;
            }
        }
    }
    assert!(edges > 1000);
    // Backward check: every un-move is a legal, non-capturing, non-terminal predecessor.
    for c in placements(&g, 2, 1).into_iter().step_by(11) {
        g.unmoves(&c, &mut buf);
        for p in &buf {
            assert!(g.outcome(p).is_none());
            g.legal_moves(p, &mut moves);
            assert!(moves.iter().any(|&m| g.play(p, m) == c));
        }
    }
}

#[test]
fn scope_and_tiers() {
    let g = from_spec("caikaboroda").unwrap();
    let tiers = g
        .scope_tiers(&Scope::Material {
            attackers: 4,
            defenders: 0,
        })
        .unwrap();
    let names: Vec<String> = tiers.iter().map(|&t| g.tier_name(t)).collect();
    assert_eq!(names, ["a0d0", "a1d0", "a2d0", "a3d0", "a4d0", "kx"]);
    assert!(g.scope_tiers(&Scope::MaxPrey(3)).is_err());
    assert!(g
        .scope_tiers(&Scope::Material {
            attackers: 70,
            defenders: 10
        })
        .is_err());
}
