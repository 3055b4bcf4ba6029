//! Hunt engine benchmarks: move generation on fixed mid-game positions and
//! perft from the start. Each bench checks the count it measures, so a faster
//! but wrong generator cannot pass unnoticed.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use huntsolve::game::{perft, Game};
use huntsolve::hunt::{from_spec, HuntGame, HuntPos};
use huntsolve::Rng;

/// Positions from seeded random games (plies 10..60), for move generation.
fn sample(g: &HuntGame, n: usize) -> Vec<HuntPos> {
    let mut out = Vec::new();
    let mut moves = Vec::new();
    let mut seed = 0;
    while out.len() < n {
        let mut rng = Rng::new(seed);
        seed += 1;
        let mut p = g.start();
        for ply in 0..60 {
            if g.outcome(&p).is_some() {
                break;
            }
            if ply >= 10 {
                out.push(p);
            }
            g.legal_moves(&p, &mut moves);
            p = g.play(&p, moves[rng.below(moves.len())]);
        }
    }
    out.truncate(n);
    out
}

fn movegen(c: &mut Criterion) {
    for spec in ["diviyan-keliya-ludii", "diviyan-keliya", "bagh-chal"] {
        let g = from_spec(spec).unwrap();
        let positions = sample(&g, 1000);
        let mut moves = Vec::new();
        let total: usize = positions
            .iter()
            .map(|p| {
                g.legal_moves(p, &mut moves);
                moves.len()
            })
            .sum();
        assert!(total > 0);
        c.bench_function(&format!("movegen/{spec} (1000 positions)"), |b| {
            b.iter(|| {
                let mut n = 0;
                for p in &positions {
                    g.legal_moves(black_box(p), &mut moves);
                    n += moves.len();
                }
                assert_eq!(n, total);
                n
            })
        });
    }
}

fn perft_bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (spec, depth, leaves) in [
        ("diviyan-keliya-ludii", 4, 5_085_024u64),
        ("diviyan-keliya-ludii,board=mogol37", 4, 1_585_080),
        ("bagh-chal", 5, 1_304_788),
    ] {
        let g = from_spec(spec).unwrap();
        let start = g.start();
        group.bench_function(format!("{spec} depth {depth}"), |b| {
            b.iter(|| {
                let n = perft(&g, black_box(&start), depth);
                assert_eq!(n, leaves);
                n
            })
        });
    }
    group.finish();
}

criterion_group!(benches, movegen, perft_bench);
criterion_main!(benches);
