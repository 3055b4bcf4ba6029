//! Exact search against the retrograde tables of Kaooa: on hundreds of positions
//! sampled by seeded random playouts, every proof of exact mode (no oracle)
//! must equal the table's value and distance, table wins/losses within reach
//! must be proven, and table draws must never be proven won or lost.

use huntsolve::game::Notation;
use huntsolve::game::{Game, NoOracle, Oracle, Value};
use huntsolve::search::{self, Limit, SearchConfig, TransTable};
use huntsolve::table::TableOracle;
use huntsolve::Rng;

fn check(spec: &str, samples: usize, reach: u32) {
    let (g, dir) = crate::common::retro::solved_whole(spec, &format!("search-{spec}"));
    let oracle = TableOracle::new(&g, &dir).unwrap();
    let mut rng = Rng::new(7);
    let tt = TransTable::new(8).unwrap();
    let (mut proven, mut draws) = (0, 0);
    let mut moves = Vec::new();
    for i in 0..samples {
        let mut pos = g.start();
        for _ in 0..(i % 40) {
            g.legal_moves(&pos, &mut moves);
            if moves.is_empty() {
                break;
            }
            pos = g.play(&pos, moves[rng.below(moves.len())]);
        }
        if g.outcome(&pos).is_some() {
            continue;
        }
        let want = oracle
            .probe(&g, &pos)
            .expect("every position is in the tables");
        let cfg = SearchConfig {
            exact: true,
            limits: vec![Limit::Depth(reach)],
            ..Default::default()
        };
        tt.clear();
        let r = search::search(&g, &pos, &NoOracle, &cfg, &tt);
        let text = g.format_position(&pos);
        match r.proven {
            Some(got) => {
                assert_eq!(got, want, "{spec} {text}");
                proven += 1;
            }
            None => assert!(
                want.0 == Value::Draw || want.1 > reach,
                "{spec} {text}: table {want:?} within depth {reach} but not proven"
            ),
        }
        if want.0 == Value::Draw {
            draws += 1;
        }
        // With the tables as oracle the search is exact at once.
        let r = search::search_fresh(&g, &pos, &oracle, &SearchConfig::depth(1), 1).unwrap();
        if want.0 != Value::Draw {
            assert_eq!(r.proven, Some(want), "{spec} {text} with oracle");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    // Most sampled positions are draws or far from the end; some must be proofs.
    assert!(proven >= 5, "{spec}: only {proven} proofs");
    assert!(draws > 0 || proven == samples, "{spec}: no draw sampled");
}

#[test]
fn exact_search_agrees_with_kaooa_6_tables() {
    check("kaooa-6", 200, 10);
}

/// About 55 s in the test profile on a loaded 2-core machine.
#[test]
fn exact_search_agrees_with_kaooa_tables() {
    check("kaooa", 300, 16);
}
