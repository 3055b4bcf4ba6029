//! The compact kind and the refusal decided on the children's real size once
//! they are loaded sparse (`check_loaded`, `compact_kind_loaded`): the plan
//! counts a sparse child before its wins and losses, so a decisive child can
//! push a tier from the counted kind to the plain one, or past the limit.

use super::plan::sparse_children;
use super::*;
use crate::hunt::{from_spec, HuntGame};
use crate::progress::NoProgress;
use crate::retro::solver::SparseRecords;
use crate::tier::{encode, REC_DRAW};

type Tier = <HuntGame as TierGame>::Tier;

/// A tier of cows-leopards-mogol with 4 cows and its stored children, their
/// records all decided (`decisive`) or all draws, held sparse; the children's slots.
fn tier_and_children(decisive: bool) -> (HuntGame, Tier, ChildValues<Tier>, u64) {
    let g = from_spec("cows-leopards-mogol,prey=4,hunter_win=captures>=4").unwrap();
    let t = g.parse_tier("h0p0c0").unwrap();
    let kids = g.stored_children(t);
    assert!(!kids.is_empty(), "h0p0c0 has a stored child");
    let mut children = ChildValues::new();
    let mut slots = 0;
    for c in kids {
        let n = g.tier_size(c) as usize;
        slots += n as u64;
        let rec = if decisive {
            encode(crate::game::Value::Win, 3)
        } else {
            REC_DRAW
        };
        let held = SparseRecords::from_records(&vec![rec; n]);
        children.insert_records(c, ChildRecords::Sparse(Arc::new(held)));
    }
    (g, t, children, slots)
}

#[test]
fn decisive_sparse_children_choose_the_kind_and_the_refusal() {
    let (g, t, draws, kid_slots) = tier_and_children(false);
    let (_, _, wins, _) = tier_and_children(true);
    let slots = g.tier_size(t);
    // A decided record is one byte held sparse (distance below 128).
    assert_eq!(wins.bytes() - draws.bytes(), kid_slots);
    let counted_draws = compact_bytes(slots, CompactKind::Counted, draws.bytes()).unwrap();
    let counted_wins = compact_bytes(slots, CompactKind::Counted, wins.bytes()).unwrap();
    let plain_wins = compact_bytes(slots, CompactKind::Plain, wins.bytes()).unwrap();
    assert!(plain_wins < counted_draws && counted_draws < counted_wins);
    // Where the plan's sparse estimate (draw-like children) fits counted, the
    // decided children leave only the plain kind...
    let limit = Some(counted_draws);
    assert_eq!(
        compact_kind_loaded(&g, t, limit, draws.bytes()),
        Some(CompactKind::Counted)
    );
    assert_eq!(
        compact_kind_loaded(&g, t, limit, wins.bytes()),
        Some(CompactKind::Plain)
    );
    assert!(check_loaded(&g, &[t], &wins, limit, &NoProgress).is_ok());
    assert_eq!(
        compact_kind_loaded(&g, t, None, wins.bytes()),
        Some(CompactKind::Counted)
    );
    // ... and one byte below the plain kind's need, the tier is refused before
    // its state is allocated, naming what was more than planned.
    let limit = Some(plain_wins - 1);
    assert_eq!(compact_kind_loaded(&g, t, limit, wins.bytes()), None);
    let err = check_loaded(&g, &[t], &wins, limit, &NoProgress).unwrap_err();
    assert!(matches!(err, Error::Memory(_)), "{err}");
    assert!(err.to_string().contains("more than planned"), "{err}");
    assert!(check_loaded(&g, &[t], &draws, limit, &NoProgress).is_ok());
    assert!(check_loaded(&g, &[t], &wins, Some(plain_wins), &NoProgress).is_ok());
}

/// Below the plain compact solver's need with every child record, the
/// children are held sparse (a child solved in this run and kept whole is
/// converted), and they take a bit a slot plus a byte a decided slot.
#[test]
fn children_are_held_sparse_where_dense_ones_exceed_the_limit() {
    let (g, t, wins, _) = tier_and_children(true);
    let dense_plain = plan::compact_memory(&g, t, CompactKind::Plain, false).unwrap();
    let options = SolveOptions {
        memory_limit: Some(dense_plain - 1),
        compact: Compact::Auto,
        ..Default::default()
    };
    assert!(sparse_children(
        &g,
        t,
        options.compact,
        options.memory_limit
    ));
    let dense = || -> HashMap<Tier, ChildRecords> {
        g.stored_children(t)
            .into_iter()
            .map(|c| {
                let rec = encode(crate::game::Value::Win, 3);
                let n = g.tier_size(c) as usize;
                (c, ChildRecords::Dense(Arc::new(vec![rec; n])))
            })
            .collect()
    };
    let mut loaded = dense();
    let dir = std::env::temp_dir().join(format!("huntsolve-loaded-{}", std::process::id()));
    let children = wave_children(&g, &[t], &dir, &options, &mut loaded, &NoProgress).unwrap();
    assert_eq!(children.bytes(), wins.bytes());
    assert!(loaded.values().all(ChildRecords::is_sparse));
    // With room for every record, they stay whole.
    let roomy = SolveOptions {
        memory_limit: Some(dense_plain),
        ..options
    };
    assert!(!sparse_children(&g, t, roomy.compact, roomy.memory_limit));
    let mut loaded = dense();
    let children = wave_children(&g, &[t], &dir, &roomy, &mut loaded, &NoProgress).unwrap();
    assert!(children.bytes() > wins.bytes());
}
