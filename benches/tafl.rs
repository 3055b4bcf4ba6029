//! Tafl engine benches: perft (node counts asserted next to the timing) and
//! random playouts compared in one run with the `hnefatafl` crate 0.0.2 on
//! Tablut and Brandubh. Throughput is in plies, so criterion prints plies/s for
//! both engines and the ratio can be read off one report.
//!
//! `cargo bench -p huntsolve-benches --bench tafl`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hnefatafl::board::state::BoardState;
use hnefatafl::game::logic::GameLogic;
use hnefatafl::game::state::GameState;
use hnefatafl::game::GameStatus;
use hnefatafl::preset::{boards, rules};
use hnefatafl::rules::Ruleset;
use huntsolve::game::Game;
use huntsolve::tafl::{from_spec, TaflGame};
use huntsolve::Rng;
use std::hint::black_box;

const MAX_PLIES: u32 = 1000;

/// Plays `games` random games with our engine; returns the plies played.
fn ours(g: &TaflGame, seed: u64, games: u32) -> u64 {
    let mut rng = Rng::new(seed);
    let mut moves = Vec::with_capacity(128);
    let mut plies = 0;
    for _ in 0..games {
        let mut p = g.start();
        for _ in 0..MAX_PLIES {
            if g.outcome(&p).is_some() {
                break;
            }
            g.legal_moves(&p, &mut moves);
            p = g.play(&p, moves[rng.below(moves.len())]);
            plies += 1;
        }
        black_box(&p);
    }
    plies
}

/// The same with the list-free random move of the engine (the playout path).
fn ours_fast(g: &TaflGame, seed: u64, games: u32) -> u64 {
    let mut rng = Rng::new(seed);
    let mut plies = 0;
    for _ in 0..games {
        let mut p = g.start();
        for _ in 0..MAX_PLIES {
            match g.random_move(&p, &mut rng) {
                Some(m) => p = g.play(&p, m),
                None => break,
            }
            plies += 1;
        }
        black_box(g.outcome(&p));
    }
    plies
}

/// Plays `games` random games with the crate's own move generator and rules.
fn theirs<B: BoardState>(ruleset: Ruleset, board: &str, seed: u64, games: u32) -> u64 {
    let mut rng = Rng::new(seed);
    let logic: GameLogic<B> = GameLogic::new(ruleset, board.split('/').count() as u8);
    let mut plays = Vec::with_capacity(128);
    let mut plies = 0;
    for _ in 0..games {
        let mut s: GameState<B> = GameState::new(board, ruleset.starting_side).unwrap();
        for _ in 0..MAX_PLIES {
            if s.status != GameStatus::Ongoing {
                break;
            }
            plays.clear();
            for tile in s.board.occupied_by_side(s.side_to_play) {
                plays.extend(logic.iter_plays(tile, &s).unwrap());
            }
            let vp = plays[rng.below(plays.len())];
            s = logic.do_valid_play(vp, s).new_state;
            plies += 1;
        }
        black_box(&s);
    }
    plies
}

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("tafl_perft");
    group.sample_size(10);
    for (spec, depth, leaves) in [
        ("tablut-hnefatafl", 3, 353_200u64),
        ("tablut-ludii", 3, 353_200),
        ("brandubh-hnefatafl", 4, 1_007_392),
    ] {
        let g = from_spec(spec).unwrap();
        let s = g.start();
        assert_eq!(g.perft_fast(&s, depth), leaves);
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(format!("{spec}_d{depth}_bulk"), |b| {
            b.iter(|| g.perft_fast(black_box(&s), depth))
        });
    }
    // Without bulk counting: every leaf is played.
    let g = from_spec("tablut-hnefatafl").unwrap();
    let s = g.start();
    assert_eq!(huntsolve::game::perft(&g, &s, 3), 353_200);
    group.throughput(Throughput::Elements(353_200));
    group.bench_function("tablut-hnefatafl_d3_generic", |b| {
        b.iter(|| huntsolve::game::perft(&g, black_box(&s), 3))
    });
    group.finish();
}

fn playouts(c: &mut Criterion) {
    const GAMES: u32 = 20;
    const SEED: u64 = 2024;
    for (name, spec) in [
        ("tablut", "tablut-hnefatafl"),
        ("brandubh", "brandubh-hnefatafl"),
    ] {
        let g = from_spec(spec).unwrap();
        let mut group = c.benchmark_group(format!("random_games_{name}"));
        group.sample_size(10);
        let n_ours = ours(&g, SEED, GAMES);
        group.throughput(Throughput::Elements(n_ours));
        group.bench_function("huntsolve", |b| b.iter(|| ours(&g, SEED, GAMES)));
        group.throughput(Throughput::Elements(ours_fast(&g, SEED, GAMES)));
        group.bench_function("huntsolve_random_move", |b| {
            b.iter(|| ours_fast(&g, SEED, GAMES))
        });
        let n_theirs = if name == "tablut" {
            theirs::<hnefatafl::aliases::MediumBasicBoardState>(
                rules::TABLUT,
                boards::TABLUT,
                SEED,
                GAMES,
            )
        } else {
            theirs::<hnefatafl::aliases::SmallBasicBoardState>(
                rules::BRANDUBH,
                boards::BRANDUBH,
                SEED,
                GAMES,
            )
        };
        group.throughput(Throughput::Elements(n_theirs));
        group.bench_function("hnefatafl_crate", |b| {
            b.iter(|| {
                if name == "tablut" {
                    theirs::<hnefatafl::aliases::MediumBasicBoardState>(
                        rules::TABLUT,
                        boards::TABLUT,
                        SEED,
                        GAMES,
                    )
                } else {
                    theirs::<hnefatafl::aliases::SmallBasicBoardState>(
                        rules::BRANDUBH,
                        boards::BRANDUBH,
                        SEED,
                        GAMES,
                    )
                }
            })
        });
        group.finish();
    }
    let g = from_spec("caikaboroda").unwrap();
    let mut group = c.benchmark_group("random_games_caikaboroda");
    group.sample_size(10);
    group.throughput(Throughput::Elements(ours(&g, SEED, GAMES)));
    group.bench_function("huntsolve", |b| b.iter(|| ours(&g, SEED, GAMES)));
    group.finish();
}

fn movegen(c: &mut Criterion) {
    let g = from_spec("caikaboroda").unwrap();
    let s = g.start();
    let mut v = Vec::with_capacity(128);
    c.bench_function("caikaboroda_legal_moves_start", |b| {
        b.iter(|| {
            g.legal_moves(black_box(&s), &mut v);
            v.len()
        })
    });
}

criterion_group!(benches, perft, playouts, movegen);
criterion_main!(benches);
