//! Tic-tac-toe solved tier by tier and checked against exhaustive search.

use huntsolve::decode;
use huntsolve::game::Notation;
use huntsolve::game::{Game, Value};
use huntsolve::retro::{load_records, solve, summary_path, Summary};
use huntsolve::retro::{Scope, SolveOptions, TierGame};
use huntsolve::NoProgress;
use huntsolve::{TicTacToe, TttPos};

fn tmpdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("huntsolve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Every placement with legal counts (not only those reachable from the start).
fn all_positions() -> Vec<TttPos> {
    let mut v = Vec::new();
    for code in 0..19683u32 {
        let (mut p, mut c) = (TttPos::default(), code);
        for i in 0..9 {
            match c % 3 {
                1 => p.x |= 1 << i,
                2 => p.o |= 1 << i,
                _ => {}
            }
            c /= 3;
        }
        let (nx, no) = (p.x.count_ones(), p.o.count_ones());
        if nx == no || nx == no + 1 {
            v.push(p);
        }
    }
    v
}

#[test]
fn tictactoe_matches_exhaustive_search() {
    let g = TicTacToe::default();
    let dir = tmpdir("ttt");
    let opts = SolveOptions {
        threads: 2,
        memory_limit: None,
        ..Default::default()
    };
    let report = solve(&g, &Scope::Whole, &dir, &opts, &NoProgress).unwrap();
    let start = report.summary.start.clone().unwrap();
    assert_eq!(start.value, "draw");
    assert_eq!(report.summary.tiers.len(), 10);
    let placements: u64 = report.summary.tiers.iter().map(|t| t.positions).sum();
    assert_eq!(placements, 6046);

    let all = all_positions();
    let reference = crate::common::retro::exhaustive(&g, &all);
    let mut records = std::collections::HashMap::new();
    let mut checked = 0;
    for p in &all {
        let t = g.tier_of(p);
        let recs = records
            .entry(t)
            .or_insert_with(|| load_records(&g, &dir, t).unwrap());
        let got = decode(recs[g.rank(t, p) as usize]).unwrap();
        assert_eq!(got, reference[p], "{}", g.format_position(p));
        checked += 1;
    }
    assert_eq!(checked, 6046);
    assert_eq!(reference[&g.start()], (Value::Draw, 0));

    let text = std::fs::read_to_string(summary_path(&dir)).unwrap();
    let s: Summary = serde_json::from_str(&text).unwrap();
    assert_eq!(s, report.summary);
    let _ = std::fs::remove_dir_all(&dir);
}
