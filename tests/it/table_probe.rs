//! Probing: random probes equal full reads, the oracle equals exhaustive search,
//! rules and size checks, and query ordering.

use crate::common::table::{minimax, solved_dir, TierTtt};
use huntsolve::game::Notation;
use huntsolve::game::{Game, Oracle, Value};
use huntsolve::table::{query_tables, table_path, Table, TableOracle, TableSet};
use huntsolve::Rng;
use huntsolve::{decode, TierGame};
use std::collections::HashMap;

#[test]
fn probes_equal_full_reads_across_threads() {
    let dir = solved_dir("probe-eq");
    let set = TableSet::new(&dir, 64 << 10).unwrap(); // small cache: evictions happen
    let names = set.tier_names().unwrap();
    assert_eq!(names.len(), 10);
    let full: Vec<Vec<u16>> = names
        .iter()
        .map(|n| {
            Table::open(&table_path(&dir, n))
                .unwrap()
                .read_all()
                .unwrap()
        })
        .collect();
    std::thread::scope(|s| {
        for t in 0..4u64 {
            let (set, names, full) = (&set, &names, &full);
            s.spawn(move || {
                let mut rng = Rng::new(t);
                for _ in 0..20_000 {
                    let k = rng.below(names.len());
                    let i = rng.below(full[k].len());
                    let table = set.table(&names[k]).unwrap().unwrap();
                    assert_eq!(table.get(i as u64).unwrap(), full[k][i]);
                }
            });
        }
    });
    let (hits, misses) = set.cache().stats();
    assert!(hits > 0 && misses > 0, "hits {hits} misses {misses}");
    assert!(set.table("p42").unwrap().is_none());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn oracle_matches_exhaustive_search() {
    let dir = solved_dir("oracle");
    let g = TierTtt::default();
    let oracle = TableOracle::new(&g, &dir).unwrap();
    let mut memo = HashMap::new();
    let mut rng = Rng::new(5);
    // Random playouts: every position on the way.
    for _ in 0..300 {
        let mut pos = g.start();
        loop {
            let want = minimax(&g, &pos, &mut memo);
            assert_eq!(
                oracle.probe(&g, &pos),
                Some(want),
                "{}",
                g.format_position(&pos)
            );
            if g.outcome(&pos).is_some() {
                break;
            }
            let mut moves = Vec::new();
            g.legal_moves(&pos, &mut moves);
            pos = g.play(&pos, moves[rng.below(moves.len())]);
        }
    }
    assert!(oracle.take_error().is_none());
    assert_eq!(oracle.probe(&g, &g.start()), Some((Value::Draw, 0)));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn oracle_refuses_other_rules_and_sizes() {
    let dir = solved_dir("oracle-rules");
    let g = TierTtt::default();
    // A table of the right tier written for other rules.
    let recs = Table::open(&table_path(&dir, "p0"))
        .unwrap()
        .read_all()
        .unwrap();
    let mut meta = crate::common::table::meta(&g, 0);
    meta.fingerprint ^= 1;
    huntsolve::table::write_table(&table_path(&dir, "p0"), &meta, &recs).unwrap();
    let oracle = TableOracle::new(&g, &dir).unwrap();
    let e = oracle.try_probe(&g.start()).unwrap_err().to_string();
    assert!(e.contains("wrong rules"), "{e}");
    assert_eq!(oracle.probe(&g, &g.start()), None);
    assert!(oracle.take_error().is_some());
    // A table with the wrong number of records.
    huntsolve::table::write_table(
        &table_path(&dir, "p1"),
        &crate::common::table::meta(&g, 1),
        &recs[..100],
    )
    .unwrap();
    let p1 = g.play(&g.start(), 4);
    let e = oracle.try_probe(&p1).unwrap_err().to_string();
    assert!(e.contains("records but tier p1 has 19683 slots"), "{e}");
    // A table whose header names another tier than its file.
    std::fs::copy(table_path(&dir, "p3"), table_path(&dir, "p2")).unwrap();
    let p2 = g.play(&p1, 0);
    assert!(oracle
        .try_probe(&p2)
        .unwrap_err()
        .to_string()
        .contains("header says tier"));
    // No table for a tier: unknown, not an error.
    std::fs::remove_file(table_path(&dir, "p5")).unwrap();
    let p5 = huntsolve::game::play_line(&g, &g.start(), "a1 a2 a3 b1 c3").unwrap();
    assert_eq!(oracle.try_probe(&p5).unwrap(), None);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn query_orders_moves_and_agrees_with_the_tables() {
    let dir = solved_dir("query");
    let g = TierTtt::default();
    let oracle = TableOracle::new(&g, &dir).unwrap();
    // X has a1 and b1 (c1 wins at once); O threatens nothing yet.
    let pos = g.parse_position("XX.O.O...").unwrap();
    let q = query_tables(&oracle, &pos).unwrap();
    assert_eq!(q.value, Some(Value::Win));
    assert_eq!(q.distance, Some(1));
    assert_eq!(q.best.as_deref(), Some("c1"));
    assert_eq!(q.moves.len(), 5);
    // Best first: wins by shortest, then draws, then losses by longest.
    let rank = |v: Option<Value>| match v {
        Some(Value::Win) => 0,
        Some(Value::Draw) => 1,
        _ => 2,
    };
    for w in q.moves.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        assert!(rank(a.value) <= rank(b.value));
        if a.value == b.value && a.value == Some(Value::Win) {
            assert!(a.distance <= b.distance);
        }
        if a.value == b.value && a.value == Some(Value::Loss) {
            assert!(a.distance >= b.distance);
        }
    }
    // Every move's value is the flipped table value of its child, one ply further.
    for m in &q.moves {
        let mv = g.parse_move(&pos, &m.mv).unwrap();
        let child = g.play(&pos, mv);
        let (v, d) = oracle.try_probe(&child).unwrap().unwrap();
        assert_eq!((m.value, m.distance), (Some(v.flip()), Some(d + 1)));
    }
    let json = serde_json::to_value(&q).unwrap();
    assert_eq!(json["value"], "win");
    assert_eq!(json["best"], "c1");
    assert_eq!(json["moves"][0]["move"], "c1");
    assert_eq!(json["moves"][0]["distance"], 1);
    // Terminal positions: outcome, distance 0, no moves.
    let done = g.parse_position("XXXOO....").unwrap();
    let q = query_tables(&oracle, &done).unwrap();
    assert_eq!(
        (q.value, q.distance, q.moves.len()),
        (Some(Value::Loss), Some(0), 0)
    );
    // Records agree with decode of the raw record.
    let r = oracle.record(&pos).unwrap().unwrap();
    assert_eq!(decode(r), Some((Value::Win, 1)));
    assert_eq!(g.tier_of(&pos), 4);
    std::fs::remove_dir_all(&dir).unwrap();
}
