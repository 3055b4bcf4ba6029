//! Retrograde solver benchmarks: a whole small game solved in memory (kaooa-6,
//! every tier in order, no files), and rank / unrank throughput of the hunt
//! tier index on the 49-point Peralikatuma board. The unrank → rank round trip
//! is measured next to a plain `unrank` sweep of the same slots, the in-run
//! baseline it is compared with.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use huntsolve::retro::plan;
use huntsolve::retro::{solve_tier, ChildValues, Scope, TierGame};
use huntsolve::NoProgress;
use std::sync::Arc;

/// Solves every tier of `scope` in order, keeping records in memory.
fn solve_in_memory(game: &huntsolve::hunt::HuntGame, scope: &Scope) -> u64 {
    let plan = plan(game, scope).expect("plan");
    let mut children = ChildValues::new();
    let mut classes = 0;
    for wave in &plan.waves {
        for &t in wave {
            let r = solve_tier(game, t, &children, &NoProgress).expect("solve");
            classes += r.stats.outcomes.classes;
            children.insert(t, Arc::new(r.records));
        }
    }
    classes
}

fn bench_solve(c: &mut Criterion) {
    let game = huntsolve::hunt::from_spec("kaooa-6").expect("kaooa-6");
    let scope = Scope::Whole;
    let slots = plan(&game, &scope).expect("plan").slots;
    let mut g = c.benchmark_group("retro_solve");
    g.sample_size(10);
    g.throughput(Throughput::Elements(slots));
    g.bench_function("kaooa-6 whole", |b| {
        b.iter(|| black_box(solve_in_memory(&game, &scope)))
    });
    g.finish();
}

fn bench_rank(c: &mut Criterion) {
    let game = huntsolve::hunt::from_spec("diviyan-keliya").expect("diviyan-keliya");
    // Movement tier with 3 cows on board: 2 leopards + 3 cows on 49 points.
    let tier = game.parse_tier("h0p0c21").expect("tier");
    let slots: u64 = 1 << 16;
    let positions: Vec<_> = (0..slots).filter_map(|i| game.unrank(tier, i)).collect();
    let mut g = c.benchmark_group("retro_index");
    g.throughput(Throughput::Elements(slots));
    g.bench_function("unrank 65536 slots", |b| {
        b.iter(|| {
            let mut n = 0u64;
            for i in 0..slots {
                n += game.unrank(tier, black_box(i)).is_some() as u64;
            }
            n
        })
    });
    g.throughput(Throughput::Elements(positions.len() as u64));
    g.bench_function("rank representatives", |b| {
        b.iter(|| {
            let mut s = 0u64;
            for p in &positions {
                s = s.wrapping_add(game.rank(tier, black_box(p)));
            }
            s
        })
    });
    g.finish();
}

criterion_group!(benches, bench_solve, bench_rank);
criterion_main!(benches);
