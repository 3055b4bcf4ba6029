//! Search on the real families: determinism with one thread, legal moves and
//! consistent proofs with two threads, on seeded playout positions of presets.

use huntsolve::game::NoOracle;
use huntsolve::search::{self, Limit, SearchConfig};
use huntsolve::AnyGame;

fn check<G: huntsolve::FullGame>(g: &G, depth: u32) {
    for pos in search::random_positions(g, 3, 8, 11) {
        let run = |threads: usize| {
            let cfg = SearchConfig {
                limits: vec![Limit::Depth(depth)],
                threads,
                ..Default::default()
            };
            search::search_fresh(g, &pos, &NoOracle, &cfg, 4).unwrap()
        };
        let a = run(1);
        let b = run(1);
        assert_eq!(
            (a.nodes, a.best, a.score, &a.pv),
            (b.nodes, b.best, b.score, &b.pv)
        );
        let mut legal = Vec::new();
        g.legal_moves(&pos, &mut legal);
        let two = run(2);
        assert!(legal.contains(&two.best.unwrap()));
        // The PV replays legally.
        let mut p = pos.clone();
        for &m in &two.pv {
            g.legal_moves(&p, &mut legal);
            assert!(
                legal.contains(&m),
                "illegal PV move in {}",
                g.rules_string()
            );
            p = g.play(&p, m);
        }
        // A proof found by one thread is not contradicted by two threads.
        if let (Some(x), Some(y)) = (a.proven, two.proven) {
            assert_eq!(x.0, y.0, "{}", g.format_position(&pos));
        }
    }
}

#[test]
fn presets_search_deterministically_and_legally() {
    for (name, depth) in [
        ("kaooa", 5),
        ("bagh-chal", 3),
        ("diviyan-keliya", 3),
        ("cows-leopards-mogol", 3),
        ("brandubh", 3),
        ("tablut-hnefatafl", 2),
        ("caikaboroda", 2),
    ] {
        let any = AnyGame::parse(name).unwrap();
        huntsolve::with_game!(&any, g => check(g, depth));
    }
}
