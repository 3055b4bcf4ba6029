//! Tests of the hunt tiers' index: ranking, unranking and tier names.

use super::index::Index;
use super::*;
use crate::game::Game;

#[test]
fn chunked_prey_rank_equals_the_definition() {
    for spec in [
        "bagh-chal",
        "diviyan-keliya",
        "cows-leopards-mogol",
        "kaooa",
    ] {
        let g = crate::hunt::from_spec(spec).unwrap();
        let idx = shared(&g);
        let n = g.board().len();
        let mut rng = crate::random::Rng::new(5);
        for _ in 0..20_000 {
            let mut hunters = 0u64;
            for _ in 0..rng.below(5) {
                hunters |= 1u64 << rng.below(n);
            }
            let mut prey = 0u64;
            for _ in 0..rng.below(n + 1) {
                prey |= 1u64 << rng.below(n);
            }
            prey &= !hunters;
            assert_eq!(
                idx.prey_rank(hunters, prey),
                idx.prey_rank_plain(hunters, prey),
                "{spec} {hunters:x} {prey:x}"
            );
            let count = prey.count_ones() as usize;
            assert_eq!(
                idx.prey_unrank(hunters, count, idx.prey_rank(hunters, prey)),
                prey,
                "unrank {spec} {hunters:x} {prey:x}"
            );
        }
    }
}

/// The incremental rank of one piece's step equals ranking the new mask.
#[test]
fn step_rank_equals_ranking_the_stepped_mask() {
    for spec in ["cows-leopards-peralikatuma", "cows-leopards-mogol", "kaooa"] {
        let g = crate::hunt::from_spec(spec).unwrap();
        let idx = shared(&g);
        let n = g.board().len();
        let mut rng = crate::random::Rng::new(9);
        for _ in 0..20_000 {
            let mut x = 0u64;
            for _ in 0..rng.below(n) {
                x |= 1u64 << rng.below(n);
            }
            let (a, b) = (rng.below(n) as u32, rng.below(n) as u32);
            x = (x | 1u64 << a) & !(1u64 << b);
            if a == b {
                continue;
            }
            let stepped = x & !(1u64 << a) | 1u64 << b;
            assert_eq!(
                idx.step_rank(x, idx.compressed_rank(x), a, b),
                idx.compressed_rank(stepped),
                "{spec} {x:x} {a} -> {b}"
            );
        }
    }
}

fn shared(g: &HuntGame) -> std::sync::Arc<Index> {
    std::sync::Arc::new(Index::build(g))
}

#[test]
fn tier_names_round_trip() {
    let g = crate::hunt::from_spec("kaooa").unwrap();
    let t = g.tier_of(&g.start());
    assert_eq!(g.parse_tier(&g.tier_name(t)).unwrap(), t);
    assert!(g.parse_tier("h9p9c9").is_err());
    assert!(g.parse_tier("x").is_err());
}

/// Unranking a sorted run from the thread's last set equals unranking each rank
/// from scratch, whatever came before (other shapes, a larger rank, repeats).
#[test]
fn sorted_unranking_equals_unranking() {
    let g = crate::hunt::from_spec("cows-leopards-peralikatuma").unwrap();
    let idx = shared(&g);
    let mut rng = crate::random::Rng::new(5);
    for _ in 0..400 {
        let free = 30 + rng.below(18);
        let count = rng.below(9);
        let total = idx.binom[free][count];
        let mut ranks: Vec<u64> = (0..rng.below(60))
            .map(|_| rng.below(total as usize) as u64)
            .collect();
        // Mostly increasing runs with repeats; now and then out of order.
        if rng.below(4) != 0 {
            ranks.sort_unstable();
        }
        for r in ranks {
            assert_eq!(
                idx.compressed_unrank_sorted(free, count, r),
                idx.compressed_unrank(free, count, r),
                "free {free}, count {count}, rank {r}"
            );
        }
    }
}
