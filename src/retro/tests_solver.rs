//! The tier solver against the previous one (`retro::reference`, kept as a baseline):
//! every tier of several games, with absorption automatic, forced on and forced off,
//! with 1 and 2 threads, and the compact solver (`retro::compact`, forced on these
//! small tiers) with 1 and 2 threads, and both with the child tiers' records held
//! sparse (`solver::SparseRecords`), must give the reference's records exactly. And the
//! solver's shortcut hint `may_have_unmoves` must never rule out a slot that some
//! in-tier move reaches (checked forward, from every position's moves).

use crate::game::Game;
use crate::progress::NoProgress;
use crate::retro::compact::{solve_tier_compact, CompactKind, MAX_COMPACT_DISTANCE};
use crate::retro::driver::plan;
use crate::retro::reference::solve_tier_reference;
use crate::retro::{
    solve_tier_with, Absorb, ChildRecords, ChildValues, ListReport, Scope, Solvable, SparseRecords,
    TierGame,
};
use std::sync::Arc;

/// Solves every tier of `scope` in memory with the reference (1 thread) and with
/// the hint used and ignored (1 thread), and used with 2 threads; panics on the
/// first differing tier. Returns the tiers solved, the classes counted, and the
/// levels split and slots spilled by the solver (the crate's tests give its
/// lists a tiny budget, so that small tiers take those paths).
fn same_records<G: Solvable>(game: &G, scope: &Scope) -> (usize, u64, ListReport) {
    let pool = |n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap()
    };
    let (one, two) = (pool(1), pool(2));
    let plan = plan(game, scope).unwrap();
    let mut children = ChildValues::new();
    // The same records held sparse (as `solve` holds a huge tier's children).
    let mut sparse = ChildValues::new();
    let (mut tiers, mut classes) = (0, 0u64);
    let mut lists = ListReport::default();
    for wave in &plan.waves {
        for &t in wave {
            let want = one
                .install(|| solve_tier_reference(game, t, &children, &NoProgress))
                .unwrap();
            for (mode, threads, kids) in [
                (Absorb::Hint, &one, &children),
                (Absorb::Never, &one, &children),
                (Absorb::Hint, &two, &children),
                (Absorb::Hint, &two, &sparse),
            ] {
                let got = threads
                    .install(|| solve_tier_with(game, t, kids, &NoProgress, mode))
                    .unwrap();
                assert!(
                    got.records == want.records,
                    "{} tier {} ({mode:?}, {} threads, sparse children {}): records differ at slot {:?}",
                    game.rules_string(),
                    game.tier_name(t),
                    threads.current_num_threads(),
                    std::ptr::eq(kids, &sparse),
                    got.records
                        .iter()
                        .zip(&want.records)
                        .position(|(a, b)| a != b)
                );
                assert_eq!(got.stats.outcomes, want.stats.outcomes);
                lists.split_levels += got.lists.split_levels;
                lists.spilled += got.lists.spilled;
            }
            for (kind, threads, kids) in [
                (CompactKind::Counted, &one, &children),
                (CompactKind::Plain, &one, &children),
                (CompactKind::Counted, &two, &children),
                (CompactKind::Plain, &two, &children),
                (CompactKind::Plain, &two, &sparse),
            ] {
                let got = threads.install(|| solve_tier_compact(game, t, kids, kind, &NoProgress));
                // Longer distances than a byte holds are refused, never approximated.
                if want.stats.outcomes.max_distance > MAX_COMPACT_DISTANCE {
                    let err = got.err().expect("a distance past the compact limit");
                    assert!(err.to_string().contains("compact solver's limit"), "{err}");
                    continue;
                }
                let got = got.unwrap();
                let records = got.all_records();
                assert!(
                    records == want.records,
                    "{} tier {} (compact {kind:?}, {} threads): records differ at slot {:?}",
                    game.rules_string(),
                    game.tier_name(t),
                    threads.current_num_threads(),
                    records.iter().zip(&want.records).position(|(a, b)| a != b)
                );
                assert_eq!(got.stats.outcomes, want.stats.outcomes);
            }
            tiers += 1;
            classes += want.stats.outcomes.classes;
            let held = SparseRecords::from_records(&want.records);
            sparse.insert_records(t, ChildRecords::Sparse(Arc::new(held)));
            children.insert(t, Arc::new(want.records));
        }
    }
    (tiers, classes, lists)
}

/// [`same_records`] on each case; the cases together must have split levels
/// and spilled slots.
fn check_hunt(cases: &[(&str, Scope)]) {
    let mut lists = ListReport::default();
    for (spec, scope) in cases {
        let g = crate::hunt::from_spec(spec).unwrap();
        let (tiers, classes, l) = same_records(&g, scope);
        assert!(tiers > 1 && classes > 0, "{spec}");
        lists.split_levels += l.split_levels;
        lists.spilled += l.spilled;
    }
    assert!(lists.split_levels > 0 && lists.spilled > 0, "{lists:?}");
}

#[test]
fn hunt_games_same_records_as_the_reference_solver() {
    check_hunt(&[
        ("kaooa-6", Scope::Whole),
        ("kaooa", Scope::Whole),
        // Bagh-Chal's board, tigers dropped too, goats drop first, chains, compulsory
        // captures: placement tiers of both sides, absorbed.
        (
            "bagh-chal,hunters=2,hunter_start=hand,prey=3,hunter_win=captures>=2,chain=continue,capture_compulsory=true",
            Scope::Whole,
        ),
        // The seed boards' movement endgames (the fast paths of `pred_ranks` and
        // `child_indices`): single compulsory captures on the 37-point board,
        // optional chains on the 49-point board.
        ("cows-leopards-mogol,hunter_win=captures>=23", Scope::MaxPrey(3)),
        ("diviyan-keliya", Scope::MaxPrey(2)),
        ("cows-leopards-peralikatuma,hunter_win=captures>=24", Scope::MaxPrey(2)),
        // Atlas games: a tiger on the apex with the prey dropped (10-point triangle),
        // and the prey on fixed points (`prey_start`, nothing in hand).
        ("huli-mane-ata", Scope::Whole),
        ("mysore-tiger,prey_start=a1+e1+b3,hunter_win=2", Scope::Whole),
    ]);
}

/// Larger cases (a minute or more in the test profile): `cargo test --release -- --ignored`.
#[test]
#[ignore]
fn larger_hunt_games_same_records_as_the_reference_solver() {
    check_hunt(&[
        ("bagh-chal,prey=3,hunter_win=captures>=2", Scope::Whole),
        (
            "bagh-chal,hunters=2,hunter_start=hand,prey=4,hunter_win=captures>=2,chain=continue",
            Scope::Whole,
        ),
        ("diviyan-keliya", Scope::MaxPrey(2)),
    ]);
    let g = crate::tafl::from_spec("brandubh").unwrap();
    let scope = Scope::Material {
        attackers: 2,
        defenders: 1,
    };
    assert!(same_records(&g, &scope).0 > 1);
}

#[test]
fn tafl_game_same_records_as_the_reference_solver() {
    let g = crate::tafl::from_spec("caikaboroda").unwrap();
    let scope = Scope::Material {
        attackers: 2,
        defenders: 0,
    };
    let (tiers, classes, lists) = same_records(&g, &scope);
    assert!(tiers > 1 && classes > 0);
    assert!(lists.split_levels > 0 && lists.spilled > 0, "{lists:?}");
    // Men of both sides (a defender's and the attackers' un-moves pass each
    // other in the index's order), the hostile reading's armed king.
    let g = crate::tafl::from_spec("caikaboroda-hostile").unwrap();
    let scope = Scope::Material {
        attackers: 1,
        defenders: 1,
    };
    let (tiers, classes, _) = same_records(&g, &scope);
    assert!(tiers > 3 && classes > 0);
}

/// Forward check of the hint: from every position of every tier, each in-tier
/// move lands in a slot the hint allows predecessors for; and the hint does rule
/// out slots in placement tiers (else it is not tested at all).
#[test]
fn may_have_unmoves_never_rules_out_a_reachable_slot() {
    for spec in [
        "kaooa",
        "bagh-chal,hunters=2,hunter_start=hand,prey=3,hunter_win=captures>=2",
    ] {
        let g = crate::hunt::from_spec(spec).unwrap();
        let mut moves = Vec::new();
        let mut ruled_out = 0u64;
        for t in g.scope_tiers(&Scope::Whole).unwrap() {
            if g.tier_is_terminal(t) {
                continue;
            }
            for i in 0..g.tier_size(t) {
                if !g.may_have_unmoves(t, i) {
                    ruled_out += 1;
                }
                if !g.may_have_inner_moves(t, i) {
                    ruled_out += 1;
                }
                let Some(p) = g.unrank(t, i) else { continue };
                if g.outcome(&p).is_some() {
                    continue;
                }
                g.legal_moves(&p, &mut moves);
                for &m in &moves {
                    let c = g.play(&p, m);
                    if g.tier_of(&c) == t {
                        assert!(
                            g.may_have_inner_moves(t, i),
                            "{spec}: {} has an in-tier move, ruled out",
                            crate::game::Notation::format_position(&g, &p),
                        );
                        let ci = g.rank(t, &c);
                        assert!(
                            g.may_have_unmoves(t, ci),
                            "{spec}: {} reaches slot {ci} of tier {}, ruled out",
                            crate::game::Notation::format_position(&g, &p),
                            g.tier_name(t)
                        );
                    }
                }
            }
        }
        assert!(ruled_out > 0, "{spec}: the hint ruled out nothing");
    }
}

/// Checks a game's `slot_pred_edges` for slot `index` of `tier` against `want`, the
/// (rank, order) of every in-tier un-move of its representative `rep` (sorted),
/// `stab` being the representative's order: a child only the identity fixes gets
/// exactly those pairs, any other child nothing (the solver then takes
/// `slot_pred_ranks`). Shared by the hunt and tafl tests of their fast paths.
pub(super) fn assert_slot_pred_edges<G: TierGame + crate::game::Notation>(
    game: &G,
    tier: G::Tier,
    index: u64,
    (rep, stab): (&G::Pos, Option<u32>),
    want: &[(u64, Option<u32>)],
) {
    let (mut buf, mut edges) = (Vec::new(), Vec::new());
    let direct = game.slot_pred_edges(tier, index, &mut buf, &mut edges);
    assert_eq!(direct, stab == Some(1), "slot {index}");
    if direct {
        edges.sort_unstable();
        let want: Vec<(u64, u16)> = want.iter().map(|&(q, s)| (q, s.unwrap() as u16)).collect();
        assert_eq!(edges, want, "{}", game.format_position(rep));
    } else {
        assert!(edges.is_empty());
    }
}
