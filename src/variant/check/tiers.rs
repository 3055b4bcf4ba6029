//! The checks every [`TierGame`] gets: the tier graph, the index, moves against
//! un-moves, the orbit counts the solver relies on, the solver's fast paths, and
//! the symmetry classes of children. Each compares two parts of the engine that
//! the retrograde solver trusts to agree.

use super::report::{CheckOptions, Tally};
use crate::error::Result;
use crate::progress::{stop_requested, Progress};
use crate::random::Rng;
use crate::tier::TierGame;
use std::collections::{BTreeMap, HashMap, HashSet};

/// Family checks of each position (board symmetries, piece counts), run beside
/// the generic ones.
pub(crate) trait PositionHook<G: TierGame> {
    /// Checks one position of tier `t` (the representative of slot `index`).
    fn position(&mut self, g: &G, t: G::Tier, index: u64, pos: &G::Pos);
}

/// The generic checks' tallies and counts.
pub(crate) struct TierChecks<T> {
    /// The tiers reached, children first.
    pub(crate) order: Vec<T>,
    pub(crate) tiers: Tally,
    pub(crate) index: Tally,
    pub(crate) unmoves: Tally,
    pub(crate) parents: Tally,
    pub(crate) orbits: Tally,
    pub(crate) paths: Tally,
    pub(crate) classes: Tally,
    pub(crate) tier_count: usize,
    pub(crate) whole: usize,
    pub(crate) positions: u64,
}

fn text<G: TierGame>(g: &G, p: &G::Pos) -> String {
    g.format_position(p)
}

/// The tiers reached from the start's tier through `tier_children`, children
/// first, and the first cycle found (a tier reachable from itself), if any.
fn tier_order<G: TierGame>(g: &G) -> (Vec<G::Tier>, Option<Vec<G::Tier>>) {
    let root = g.tier_of(&g.start());
    let mut order = Vec::new();
    let mut state: HashMap<G::Tier, u8> = HashMap::new(); // 1 open, 2 done
    let mut cycle = None;
    // Iterative depth-first search: (tier, its children, next child).
    let mut stack: Vec<(G::Tier, Vec<G::Tier>, usize)> = vec![(root, g.tier_children(root), 0)];
    state.insert(root, 1);
    while let Some((t, children, next)) = stack.last_mut() {
        if let Some(&c) = children.get(*next) {
            *next += 1;
            match state.get(&c) {
                None => {
                    state.insert(c, 1);
                    let cc = g.tier_children(c);
                    stack.push((c, cc, 0));
                }
                Some(1) if cycle.is_none() => {
                    let at = stack.iter().position(|s| s.0 == c).unwrap_or(0);
                    let mut path: Vec<G::Tier> = stack[at..].iter().map(|s| s.0).collect();
                    path.push(c);
                    cycle = Some(path);
                }
                _ => {}
            }
        } else {
            let t = *t;
            state.insert(t, 2);
            order.push(t);
            stack.pop();
        }
    }
    (order, cycle)
}

/// The slots checked in tier `t`: all of a tier of at most `n` slots, else `n`
/// drawn at random (up to `8n` draws, for tiers with many empty slots). Returns
/// whether the tier was taken whole.
fn sample<G: TierGame>(g: &G, t: G::Tier, n: u64, rng: &mut Rng) -> (Vec<(u64, G::Pos)>, bool) {
    let size = g.tier_size(t);
    if size <= n {
        let all = (0..size).filter_map(|i| g.unrank(t, i).map(|p| (i, p)));
        return (all.collect(), true);
    }
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for _ in 0..n.saturating_mul(8) {
        if out.len() as u64 >= n {
            break;
        }
        let i = ((rng.next_u64() as u128 * size as u128) >> 64) as u64;
        if seen.insert(i) {
            if let Some(p) = g.unrank(t, i) {
                out.push((i, p));
            }
        }
    }
    out.sort_by_key(|s| s.0);
    (out, false)
}

/// Runs the generic checks over every tier reached from the start.
pub(crate) fn check_tiers<G: TierGame>(
    g: &G,
    opts: &CheckOptions,
    hook: &mut dyn PositionHook<G>,
    progress: &dyn Progress,
    class_hash: bool,
) -> Result<TierChecks<G::Tier>> {
    let mut c = TierChecks {
        tiers: Tally::new(
            "tiers",
            "tier graph: moves leave only to listed child tiers, no cycle",
        ),
        index: Tally::new(
            "index",
            "rank(unrank(i)) = i, text and slot sweeps round trip",
        ),
        unmoves: Tally::new(
            "unmoves",
            "every in-tier child's un-moves give its parent back",
        ),
        parents: Tally::new(
            "parents",
            "every un-move's parent has the position as a child",
        ),
        orbits: Tally::new(
            "orbits",
            "moves into a class = un-moves x stabiliser orders",
        ),
        paths: Tally::new("paths", "the solver's fast paths equal moves and un-moves"),
        classes: Tally::new(
            "classes",
            "a child and its class's representative: one value class",
        ),
        order: Vec::new(),
        tier_count: 0,
        whole: 0,
        positions: 0,
    };
    let (order, cycle) = tier_order(g);
    c.tier_count = order.len();
    let name = |t: G::Tier| g.tier_name(t);
    c.tiers.case(cycle.is_none(), || {
        let path: Vec<String> = cycle.iter().flatten().map(|&t| name(t)).collect();
        format!("the tier graph has a cycle: {}", path.join(" -> "))
    });
    let mut rng = Rng::new(opts.seed);
    let mut too_large = 0usize;
    progress.stage_in("checking tiers", order.len() as u64, "tiers");
    for &t in &order {
        if stop_requested() {
            return Err(crate::error::Error::Interrupted);
        }
        let back = g.parse_tier(&name(t));
        c.tiers.case(back.as_ref().ok() == Some(&t), || {
            format!("tier {} is not read back from its name", name(t))
        });
        if g.tier_size(t) == u64::MAX {
            // Too large to index (the solver's plan refuses it): nothing to rank.
            too_large += 1;
            progress.advance(1);
            continue;
        }
        let (slots, whole) = sample(g, t, opts.samples, &mut rng);
        c.whole += whole as usize;
        c.positions += slots.len() as u64;
        let terminal = g.tier_is_terminal(t);
        if !terminal {
            sweep_check(g, t, &slots, whole, &mut c.index);
        }
        for (i, pos) in &slots {
            if terminal {
                c.tiers.case(g.outcome(pos).is_some(), || {
                    format!(
                        "tier {} is terminal, but {} is not over",
                        name(t),
                        text(g, pos)
                    )
                });
                continue;
            }
            check_index(g, t, *i, pos, &mut c.index);
            check_children(g, t, *i, pos, &mut c, class_hash);
            check_parents(g, t, *i, pos, &mut c);
            hook.position(g, t, *i, pos);
        }
        progress.advance(1);
    }
    progress.finish_stage();
    if too_large > 0 {
        c.index.note(format!(
            "{too_large} tiers too large to index (more than 2^64 slots) are not sampled"
        ));
    }
    c.order = order;
    Ok(c)
}

/// `for_each_slot` yields exactly the slots `unrank` fills, with the same positions.
fn sweep_check<G: TierGame>(
    g: &G,
    t: G::Tier,
    slots: &[(u64, G::Pos)],
    whole: bool,
    tally: &mut Tally,
) {
    let size = g.tier_size(t);
    let windows: Vec<std::ops::Range<u64>> = if whole {
        std::iter::once(0..size).collect()
    } else {
        slots
            .iter()
            .take(4)
            .map(|s| s.0..(s.0 + 32).min(size))
            .collect()
    };
    for range in windows {
        let want: Vec<(u64, String)> = range
            .clone()
            .filter_map(|i| g.unrank(t, i).map(|p| (i, text(g, &p))))
            .collect();
        let mut got = Vec::new();
        let swept = g.for_each_slot(t, range.clone(), None, &mut |i, p| {
            got.push((i, text(g, p)));
            Ok(())
        });
        tally.case(swept.is_ok() && got == want, || {
            let first = want
                .iter()
                .zip(&got)
                .find(|(a, b)| a != b)
                .map(|(a, b)| {
                    format!(
                        ": slot {} holds {} by unrank, {} by the sweep",
                        a.0, a.1, b.1
                    )
                })
                .unwrap_or_default();
            format!(
                "tier {} slots {}..{}: the sweep gives {} positions, unrank {}{first}",
                g.tier_name(t),
                range.start,
                range.end,
                got.len(),
                want.len()
            )
        });
    }
}

fn check_index<G: TierGame>(g: &G, t: G::Tier, i: u64, pos: &G::Pos, tally: &mut Tally) {
    let tn = || g.tier_name(t);
    let p = text(g, pos);
    tally.case(g.tier_of(pos) == t, || {
        format!(
            "slot {i} of tier {} unranks to {p}, of tier {}",
            tn(),
            g.tier_name(g.tier_of(pos))
        )
    });
    let r = g.rank(t, pos);
    tally.case(r == i, || {
        format!(
            "slot {i} of tier {} unranks to {p}, which ranks to {r}",
            tn()
        )
    });
    let (ro, stab) = g.rank_orbit(t, pos);
    tally.case(ro == r, || {
        format!("{p}: rank_orbit gives {ro}, rank {r} (tier {})", tn())
    });
    let uo = g.unrank_orbit(t, i);
    tally.case(
        uo.as_ref()
            .is_some_and(|(q, s)| text(g, q) == p && *s == stab),
        || {
            format!(
                "slot {i} of tier {}: unrank_orbit disagrees with unrank and rank_orbit ({p})",
                tn()
            )
        },
    );
    let back = g.parse_position(&p).map(|q| text(g, &q));
    tally.case(back.as_ref().ok() == Some(&p), || {
        format!("{p} is not read back from its text ({back:?})")
    });
}

/// Moves of the representative: in-tier children's un-moves lead back, other
/// children lie in listed child tiers, the children's classes, the fast paths.
fn check_children<G: TierGame>(
    g: &G,
    t: G::Tier,
    i: u64,
    pos: &G::Pos,
    c: &mut TierChecks<G::Tier>,
    class_hash: bool,
) {
    let p = text(g, pos);
    let tn = g.tier_name(t);
    let mut moves = Vec::new();
    let over = g.outcome(pos).is_some();
    if !over {
        g.legal_moves(pos, &mut moves);
    }
    let children_tiers = g.tier_children(t);
    let mut buf = Vec::new();
    let mut expected: Vec<(G::Tier, Option<u64>)> = Vec::new();
    let mut inner = 0u32;
    let mut huge = false;
    let mut exits_want: Vec<String> = Vec::new();
    for &m in &moves {
        let mv = g.format_move(pos, m);
        let child = g.play(pos, m);
        let ct = g.tier_of(&child);
        let ctext = text(g, &child);
        if ct == t {
            inner += 1;
            g.unmoves(&child, &mut buf);
            let back = buf.iter().any(|q| text(g, q) == p);
            c.unmoves.case(back, || {
                format!(
                    "{p}: the move {mv} leads to {ctext} in the same tier {tn}, whose un-moves do not give {p} back"
                )
            });
        } else {
            exits_want.push(mv.clone());
            c.tiers.case(children_tiers.contains(&ct), || {
                format!(
                    "{p}: the move {mv} leads to tier {}, which is not a child of tier {tn}",
                    g.tier_name(ct)
                )
            });
        }
        if g.tier_size(ct) == u64::MAX {
            huge = true;
            expected.push((ct, None));
            continue;
        }
        if g.tier_is_terminal(ct) {
            let out = g.outcome(&child);
            c.tiers.case(out.is_some(), || {
                format!(
                    "{p}: the move {mv} leads to {ctext}, in terminal tier {}, not over",
                    g.tier_name(ct)
                )
            });
            if let Some(v) = g.terminal_child_value(pos, m, ct) {
                c.tiers.case(out == Some(v), || {
                    format!("{p}: the move {mv} leads to {ctext}: terminal value {v} is said, the position says {out:?}")
                });
            }
            expected.push((ct, None));
            continue;
        }
        let r = g.rank(ct, &child);
        expected.push((ct, Some(r)));
        let rep = (r < g.tier_size(ct)).then(|| g.unrank(ct, r)).flatten();
        let same = rep.as_ref().is_some_and(|q| {
            let mut a = Vec::new();
            let mut b = Vec::new();
            if g.outcome(q).is_none() {
                g.legal_moves(q, &mut a);
            }
            if g.outcome(&child).is_none() {
                g.legal_moves(&child, &mut b);
            }
            g.rank(ct, q) == r
                && (!class_hash || g.canonical_hash(q) == g.canonical_hash(&child))
                && g.outcome(q) == g.outcome(&child)
                && a.len() == b.len()
        });
        c.classes.case(same, || match &rep {
            None => format!("{ctext} (after {mv} from {p}) ranks to slot {r} of tier {}, which holds no position", g.tier_name(ct)),
            Some(q) => format!(
                "{ctext} (after {mv} from {p}) and {}, the representative of its class (slot {r} of tier {}), differ in rank, class hash, outcome or number of moves",
                text(g, q),
                g.tier_name(ct)
            ),
        });
    }
    // The solver's fast paths for the children.
    let mut out = Vec::new();
    for inner_too in [true, false].into_iter().filter(|_| !huge) {
        g.child_indices(t, pos, &moves, inner_too, &mut out);
        let agree = out.len() == expected.len()
            && out.iter().zip(&expected).all(|(&(ot, oi), &(et, ei))| {
                ot == et
                    && match ei {
                        None => true,
                        Some(_) if et == t && !inner_too => oi == 0,
                        Some(e) => oi == e,
                    }
            });
        c.paths.case(agree, || {
            format!("{p}: child_indices (inner {inner_too}) disagrees with playing each move and ranking the child")
        });
    }
    let mut exits = Vec::new();
    if let Some(k) = g.count_inner_moves(t, pos, &mut exits) {
        let mut got: Vec<String> = exits.iter().map(|&m| g.format_move(pos, m)).collect();
        got.sort();
        exits_want.sort();
        c.paths.case(over || k == inner && got == exits_want, || {
            format!("{p}: count_inner_moves gives {k} in-tier moves and exits {got:?}; the moves give {inner} and {exits_want:?}")
        });
    }
    if !g.may_have_inner_moves(t, i) {
        c.paths.case(inner == 0, || {
            format!("{p}: slot {i} of tier {tn} is said to have no in-tier move, but has {inner}")
        });
    }
    if !g.tier_has_moveless_slots(t) {
        c.paths.case(g.may_have_inner_moves(t, i), || {
            format!("tier {tn} is said to have no moveless slot, but slot {i} ({p}) is one")
        });
    }
}

/// Un-moves of the representative: each parent has it as a child (as many times
/// as the un-moves list the parent), the orbit counts, the fast paths.
fn check_parents<G: TierGame>(
    g: &G,
    t: G::Tier,
    i: u64,
    pos: &G::Pos,
    c: &mut TierChecks<G::Tier>,
) {
    let p = text(g, pos);
    let tn = g.tier_name(t);
    let mut preds = Vec::new();
    g.unmoves(pos, &mut preds);
    let (_, stab_c) = g.rank_orbit(t, pos);
    let exact = stab_c.is_some();
    let mut listed: BTreeMap<String, u32> = BTreeMap::new();
    for q in &preds {
        *listed.entry(text(g, q)).or_default() += 1;
    }
    let mut moves = Vec::new();
    for (qt, n) in &listed {
        let Some(q) = preds.iter().find(|q| &text(g, q) == qt) else {
            continue;
        };
        c.parents.case(g.tier_of(q) == t, || {
            format!(
                "{p}: the un-move parent {qt} lies in tier {}, not {tn}",
                g.tier_name(g.tier_of(q))
            )
        });
        moves.clear();
        if g.outcome(q).is_none() {
            g.legal_moves(q, &mut moves);
        }
        let k = moves
            .iter()
            .filter(|&&m| text(g, &g.play(q, m)) == p)
            .count() as u32;
        c.parents.case(if exact { k == *n } else { k > 0 }, || {
            format!(
                "{p}: the un-moves give the parent {qt} {n} times, but {qt} has {k} moves to {p}"
            )
        });
    }
    if !g.may_have_unmoves(t, i) {
        c.parents.case(preds.iter().all(|q| g.tier_of(q) != t), || {
            format!(
                "{p}: slot {i} of tier {tn} is said to have no un-move, but has {}",
                preds.len()
            )
        });
    }
    let in_tier: Vec<&G::Pos> = preds.iter().filter(|q| g.tier_of(q) == t).collect();
    let mut want: Vec<(u64, Option<u32>)> = in_tier.iter().map(|q| g.rank_orbit(t, q)).collect();
    want.sort_unstable();
    // Orbit counts: in-tier moves from class q into this class = u(q) |Stab(q)| / |Stab(c)|.
    if let Some(sc) = stab_c {
        let mut by_class: BTreeMap<u64, u32> = BTreeMap::new();
        for &(r, _) in &want {
            *by_class.entry(r).or_default() += 1;
        }
        for (&q, &u) in &by_class {
            let Some((rep, Some(sq))) = g.unrank_orbit(t, q) else {
                c.orbits.case(false, || {
                    format!("{p}: an un-move parent ranks to slot {q} of tier {tn}, which holds no position or no stabiliser order")
                });
                continue;
            };
            moves.clear();
            if g.outcome(&rep).is_none() {
                g.legal_moves(&rep, &mut moves);
            }
            let k = moves
                .iter()
                .filter(|&&m| {
                    let ch = g.play(&rep, m);
                    g.tier_of(&ch) == t && g.rank(t, &ch) == i
                })
                .count() as u64;
            c.orbits.case(k * sc as u64 == u as u64 * sq as u64, || {
                format!(
                    "{p} (stabiliser {sc}): {u} un-moves into class {q} ({}, stabiliser {sq}), but it has {k} moves into this class",
                    text(g, &rep)
                )
            });
        }
    }
    // The solver's paths for the predecessors.
    let mut buf = Vec::new();
    let mut got = Vec::new();
    g.pred_ranks(t, pos, &mut buf, &mut got);
    got.sort_unstable();
    c.paths.case(got == want, || {
        format!("{p}: pred_ranks gives {got:?}, the un-moves ranked give {want:?}")
    });
    let stab = g.slot_pred_ranks(t, i, &mut buf, &mut got);
    got.sort_unstable();
    c.paths.case(stab == Some(stab_c) && got == want, || {
        format!("{p}: slot_pred_ranks of slot {i} gives {got:?} (stabiliser {stab:?}), the un-moves ranked give {want:?} ({stab_c:?})")
    });
    let mut edges = Vec::new();
    if g.slot_pred_edges(t, i, &mut buf, &mut edges) {
        edges.sort_unstable();
        let mut w: Vec<(u64, u16)> = want
            .iter()
            .map(|&(r, s)| (r, s.unwrap_or(0) as u16))
            .collect();
        w.sort_unstable();
        c.paths.case(stab_c == Some(1) && edges == w, || {
            format!(
                "{p}: slot_pred_edges of slot {i} gives {edges:?}, the un-moves ranked give {w:?}"
            )
        });
    }
}
