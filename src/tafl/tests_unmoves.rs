//! The tafl un-move generator against a reference that decides each candidate
//! predecessor by the forward rules (full `legal_moves` + `play`), on random
//! sparse positions and random playout positions of every preset and of extra
//! option sets that switch the throne, corner and king rules. Also the
//! stabiliser orders reported by `rank_orbit` against the orbit sizes counted
//! by transforming the position.

use crate::game::Game;
use crate::game::Notation;
use crate::random::Rng;
use crate::tafl::geometry::NONE;
use crate::tafl::{from_spec, CornerAccess, TaflGame, TaflMove, TaflPos, PRESETS};
use crate::tier::TierGame;
use std::collections::HashSet;

/// The un-moves as the forward rules define them: slide a piece of the side
/// that just moved back along a ray through empty cells (never stopping on a
/// cell its men may not stand on), and keep the predecessor when it is not
/// over, the slide is among its legal moves, and playing it gives `pos` back.
fn reference_unmoves(g: &TaflGame, pos: &TaflPos) -> Vec<TaflPos> {
    let mut out = Vec::new();
    if pos.king == NONE {
        return out;
    }
    let geo = g.geometry();
    let mut forbid = geo.throne_bit;
    if g.rules().corner_access == CornerAccess::KingOnly {
        forbid |= geo.corners;
    }
    let men_ok = geo.all & !forbid;
    let king_bit = 1u128 << pos.king;
    let occ = pos.attackers | pos.defenders | king_bit;
    let attackers_moved = !pos.attackers_to_move;
    let pieces = if attackers_moved {
        pos.attackers
    } else {
        pos.defenders | king_bit
    };
    let mut moves = Vec::new();
    for t in 0..geo.cells as u8 {
        if pieces >> t & 1 == 0 {
            continue;
        }
        let is_king = t == pos.king;
        for dir in 0..4 {
            let mut s = geo.nb[t as usize][dir];
            while s != NONE && occ >> s & 1 == 0 {
                let cur = s;
                s = geo.nb[s as usize][dir];
                if !is_king && men_ok >> cur & 1 == 0 {
                    continue;
                }
                let moved = |b: u128| b & !(1u128 << t) | 1u128 << cur;
                let pred = if is_king {
                    g.make_pos(pos.attackers, pos.defenders, cur, false)
                } else if attackers_moved {
                    g.make_pos(moved(pos.attackers), pos.defenders, pos.king, true)
                } else {
                    g.make_pos(pos.attackers, moved(pos.defenders), pos.king, false)
                };
                if g.outcome(&pred).is_some() {
                    continue;
                }
                let mv = TaflMove { from: cur, to: t };
                g.legal_moves(&pred, &mut moves);
                if moves.contains(&mv) && g.play(&pred, mv) == *pos {
                    out.push(pred);
                }
            }
        }
    }
    out
}

/// A random position with up to `max_a` attackers and `max_d` defenders on
/// cells where men may stand, the king anywhere free, either side to move.
fn random_sparse(g: &TaflGame, rng: &mut Rng, max_a: usize, max_d: usize) -> TaflPos {
    let geo = g.geometry();
    let mut forbid = geo.throne_bit;
    if g.rules().corner_access == CornerAccess::KingOnly {
        forbid |= geo.corners;
    }
    let king = rng.below(geo.cells) as u8;
    let mut taken = 1u128 << king;
    let mut place = |k: usize, rng: &mut Rng| {
        let mut set = 0u128;
        while (set.count_ones() as usize) < k {
            let c = rng.below(geo.cells) as u8;
            let b = 1u128 << c;
            if (taken | forbid) & b == 0 {
                set |= b;
                taken |= b;
            }
        }
        set
    };
    let a = rng.below(max_a + 1);
    let d = rng.below(max_d + 1);
    let att = place(a, rng);
    let def = place(d, rng);
    g.make_pos(att, def, king, rng.below(2) == 0)
}

fn key(p: &TaflPos) -> (u128, u128, u8, bool, u64) {
    (
        p.attackers,
        p.defenders,
        p.king,
        p.attackers_to_move,
        p.hash,
    )
}

fn specs() -> Vec<String> {
    let mut specs: Vec<String> = PRESETS.iter().map(|p| p.0.to_string()).collect();
    for extra in [
        "caikaboroda,throne_pass_men=no",
        "caikaboroda,throne_pass_king=no,throne_reenter_king=no",
        "caikaboroda,throne_pass_king=no,corner_access=all",
        "caikaboroda-hostile,king_armed=no",
        "brandubh,throne_pass_men=no,corner_access=all",
        "brandubh,throne_reenter_king=yes,throne_pass_king=no,encirclement=on",
        "tablut-linnaeus,board=7x7,king_armed=no",
        "tablut-ludii,throne_pass_king=yes",
    ] {
        specs.push(extra.into());
    }
    specs
}

/// Compares the two generators on one position; returns the number of un-moves.
fn compare(g: &TaflGame, spec: &str, p: &TaflPos, buf: &mut Vec<TaflPos>) -> usize {
    g.unmoves(p, buf);
    let got: Vec<_> = buf.iter().map(key).collect();
    let want: Vec<_> = reference_unmoves(g, p).iter().map(key).collect();
    // Each (predecessor, move) pair once: no duplicates.
    let got_set: HashSet<_> = got.iter().copied().collect();
    assert_eq!(got_set.len(), got.len(), "{spec}: duplicate un-move");
    let want_set: HashSet<_> = want.iter().copied().collect();
    assert_eq!(got_set, want_set, "{spec}\n{}", g.diagram(p));
    got.len()
}

#[test]
fn unmoves_equal_the_forward_filter_on_sparse_positions() {
    let mut buf = Vec::new();
    for spec in specs() {
        let g = from_spec(&spec).unwrap();
        let mut rng = Rng::new(0x7af1);
        let mut total = 0;
        let mut rejected = 0usize;
        for i in 0..3000 {
            let (ma, md) = [(4, 0), (3, 1), (2, 2), (5, 3)][i % 4];
            let p = random_sparse(&g, &mut rng, ma, md);
            let n = compare(&g, &spec, &p, &mut buf);
            total += n;
            // Count candidates the filter threw away, to know the test exercises it.
            let geo = g.geometry();
            let occ = p.attackers | p.defenders | 1u128 << p.king;
            let movers = if p.attackers_to_move {
                p.defenders | 1u128 << p.king
            } else {
                p.attackers
            };
            let mut slides = 0;
            for t in 0..geo.cells {
                if movers >> t & 1 != 0 {
                    for d in 0..4 {
                        slides += (geo.ray[t][d] & !occ).count_ones() as usize;
                    }
                }
            }
            rejected += slides.saturating_sub(n);
        }
        assert!(total > 10_000, "{spec}: only {total} un-moves");
        assert!(
            rejected > 100,
            "{spec}: only {rejected} candidates rejected"
        );
    }
}

#[test]
fn unmoves_equal_the_forward_filter_along_random_games() {
    let mut buf = Vec::new();
    let mut moves = Vec::new();
    for spec in specs() {
        let g = from_spec(&spec).unwrap();
        let mut rng = Rng::new(11);
        let mut total = 0;
        for _ in 0..8 {
            let mut p = g.start();
            for _ in 0..200 {
                total += compare(&g, &spec, &p, &mut buf);
                g.legal_moves(&p, &mut moves);
                if moves.is_empty() {
                    break;
                }
                p = g.play(&p, moves[rng.below(moves.len())]);
            }
        }
        assert!(total > 1000, "{spec}: only {total} un-moves");
    }
}

#[test]
fn rank_orbit_reports_the_stabiliser_order() {
    let mut rng = Rng::new(3);
    let mut nontrivial = 0;
    for spec in ["caikaboroda", "brandubh", "tablut-linnaeus"] {
        let g = from_spec(spec).unwrap();
        for _ in 0..4000 {
            let p = random_sparse(&g, &mut rng, 3, 2);
            let t = g.tier_of(&p);
            let (r, stab) = g.rank_orbit(t, &p);
            assert_eq!(r, g.rank(t, &p));
            let images: HashSet<_> = (0..8)
                .map(|s| {
                    let q = g.transform(&p, s);
                    (q.attackers, q.defenders, q.king)
                })
                .collect();
            let fixing = (0..8)
                .filter(|&s| {
                    let q = g.transform(&p, s);
                    (q.attackers, q.defenders, q.king) == (p.attackers, p.defenders, p.king)
                })
                .count() as u32;
            assert_eq!(stab, Some(fixing), "{spec}\n{}", g.diagram(&p));
            assert_eq!(images.len() as u32 * fixing, 8);
            if fixing > 1 {
                nontrivial += 1;
            }
        }
    }
    assert!(
        nontrivial > 20,
        "only {nontrivial} symmetric positions drawn"
    );
}

#[test]
fn quiet_slide_legal_equals_the_forward_rules() {
    // Every (from, to) pair of random positions, not only the ones the un-move
    // generator asks about: the helper must stand on its own.
    let mut moves = Vec::new();
    for spec in specs() {
        let g = from_spec(&spec).unwrap();
        let cells = g.geometry().cells as u8;
        let mut rng = Rng::new(99);
        let (mut yes, mut no_capture) = (0, 0);
        for i in 0..300 {
            let p = if i % 2 == 0 {
                random_sparse(&g, &mut rng, 4, 3)
            } else {
                // A position along a random game from the start (dense material).
                let mut p = g.start();
                for _ in 0..rng.below(60) {
                    g.legal_moves(&p, &mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    p = g.play(&p, moves[rng.below(moves.len())]);
                }
                p
            };
            if p.king == NONE {
                continue;
            }
            g.legal_moves(&p, &mut moves);
            let live = g.outcome(&p).is_none();
            for from in 0..cells {
                for to in 0..cells {
                    let mv = TaflMove { from, to };
                    let legal = live && moves.contains(&mv);
                    let want = legal && !g.is_capture(&p, mv);
                    assert_eq!(
                        g.quiet_slide_legal(&p, mv),
                        want,
                        "{spec} {}\n{}",
                        g.format_move(&p, mv),
                        g.diagram(&p)
                    );
                    yes += want as usize;
                    no_capture += (legal && !want) as usize;
                }
            }
        }
        assert!(yes > 1000, "{spec}: {yes}");
        assert!(
            no_capture > 10,
            "{spec}: only {no_capture} capturing moves seen"
        );
    }
}
