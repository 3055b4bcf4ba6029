//! Search benchmarks: fixed-depth searches of seeded playout positions of every
//! bench preset that exists (see `huntsolve bench`), plus tic-tac-toe exact
//! mode, so the bench runs whichever families are built.

use criterion::{criterion_group, criterion_main, Criterion};
use huntsolve::game::{Evaluate, Game, NoOracle};
use huntsolve::search::{self, SearchConfig, TransTable};
use huntsolve::AnyGame;
use std::hint::black_box;

const PRESETS: &[(&str, usize, u32)] = &[
    ("diviyan-keliya", 40, 6),
    ("bagh-chal", 30, 6),
    ("kaooa", 12, 6),
    ("tablut-hnefatafl", 16, 4),
    ("brandubh", 10, 4),
];

fn run_suite<G: Evaluate>(g: &G, positions: &[G::Pos], depth: u32, tt: &TransTable) -> u64 {
    let mut nodes = 0;
    for pos in positions {
        tt.clear();
        let r = search::search(g, pos, &NoOracle, &SearchConfig::depth(depth), tt);
        nodes += r.nodes;
    }
    nodes
}

fn bench(c: &mut Criterion) {
    let tt = TransTable::new(16).expect("a 16 MiB table");
    let ttt = huntsolve::TicTacToe::default();
    let exact = SearchConfig {
        exact: true,
        ..Default::default()
    };
    c.bench_function("tictactoe exact start", |b| {
        b.iter(|| {
            tt.clear();
            black_box(search::search(&ttt, &ttt.start(), &NoOracle, &exact, &tt).nodes)
        })
    });
    let known: Vec<&str> = huntsolve::all_presets().iter().map(|p| p.1).collect();
    for &(name, plies, depth) in PRESETS {
        if !known.contains(&name) {
            continue;
        }
        let Ok(any) = AnyGame::parse(name) else {
            continue;
        };
        huntsolve::with_game!(&any, g => {
            let positions = search::random_positions(g, 2, plies, 1);
            c.bench_function(&format!("{name} depth {depth}"), |b| {
                b.iter(|| black_box(run_suite(g, &positions, depth, &tt)))
            });
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
