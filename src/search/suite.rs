//! Benchmark and test positions built from seeded random playouts, so that no
//! position has to be typed by hand and any game family works.

use crate::game::Game;
use crate::random::Rng;

/// `count` non-terminal positions reached by uniform random playouts from the
/// start: playout `i` stops after `plies + i % (plies + 1)` plies (or earlier
/// when the next position would be terminal). Deterministic for a seed.
pub fn random_positions<G: Game>(game: &G, count: usize, plies: usize, seed: u64) -> Vec<G::Pos> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(count);
    let mut moves = Vec::new();
    for i in 0..count {
        let target = plies + i % (plies + 1);
        let mut pos = game.start();
        for _ in 0..target {
            game.legal_moves(&pos, &mut moves);
            if moves.is_empty() {
                break;
            }
            let next = game.play(&pos, moves[rng.below(moves.len())]);
            if game.outcome(&next).is_some() {
                break;
            }
            pos = next;
        }
        out.push(pos);
    }
    out
}
