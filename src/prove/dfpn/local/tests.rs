//! The local walk's index bound: the graph is indexed by `u32`, and the walk
//! stops growing at its cap as it does at the end of the memory budget.

use super::MAX_LOCAL_INDEX;
use crate::game::{Game, NoOracle};
use crate::hunt::from_spec;
use crate::prove::tt::INF;
use crate::prove::{ProofTable, ProveConfig, Prover};

/// With a cap of 40 or 1,000 the walk holds at most that many positions and
/// moves (without the guard it walks on: the uncapped walk of the kaooa-6
/// start is larger than both), and what a capped walk settles is still true:
/// the kaooa-6 start is a draw, so no side's walk proves a win there.
#[test]
fn the_walk_stops_growing_at_its_index_cap() {
    let g = from_spec("kaooa-6").unwrap();
    let start = g.start();
    let tt = ProofTable::new(64);
    let p = Prover::new(&g, &NoOracle, &tt, ProveConfig::default());
    let mut sizes = Vec::new();
    for cap in [40, 1000, MAX_LOCAL_INDEX] {
        let mut w = p.worker(0, 0);
        w.soft_memory = true;
        let h = w.key(&start);
        let mut charged = 0;
        let graph = w.local_graph(&start, h, &mut charged, cap).unwrap();
        w.acct.release(charged);
        let (n, m) = (graph.hashes.len(), graph.kids.len());
        assert!(n <= cap && m <= cap, "cap {cap}: {n} positions, {m} moves");
        sizes.push((n, m));
    }
    let (n, m) = sizes[2];
    assert!(n > 1000 && m > 1000, "uncapped: {n} positions, {m} moves");
    for side in 0..2 {
        let mut w = p.worker(side, 0);
        w.soft_memory = true;
        let h = w.key(&start);
        let mut charged = 0;
        let r = w.local_walk(&start, h, &mut charged, 40);
        w.acct.release(charged);
        assert!(r.is_none_or(|(pn, dn, _)| pn == INF && dn == 0), "{r:?}");
    }
}
