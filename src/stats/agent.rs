//! Players for self-play tournaments.
//!
//! An [`Agent`] picks a move given the game, the position, the hashes of the
//! positions played so far in this game (for repetition) and a seeded random
//! generator (for tie-breaking and randomised openings). Agents hold no
//! per-game state, so one agent serves every game of a tournament in parallel.
//! The engines by name are in `stats::engine`, above every agent.

use crate::error::{Error, Result};
use crate::game::{FullGame, Value};
use crate::random::Rng;

/// A player in self-play.
pub trait Agent<G: FullGame>: Sync + Send {
    /// Short description of the engine and its settings (`greedy`, `depth=4`).
    fn describe(&self) -> String;

    /// Chooses a move in `pos` (which is not terminal and has legal moves).
    /// `history` holds the hashes of every earlier position of this game,
    /// oldest first, not including `pos`.
    fn choose(&self, game: &G, pos: &G::Pos, history: &[u64], rng: &mut Rng) -> Result<G::Move>;

    /// Chooses a move during the randomised opening plies. The default is a
    /// uniformly random legal move; a searching agent may sample from a
    /// softmax over its root scores instead.
    fn opening_move(
        &self,
        game: &G,
        pos: &G::Pos,
        _history: &[u64],
        rng: &mut Rng,
    ) -> Result<G::Move> {
        uniform_move(game, pos, rng)
    }
}

/// A uniformly random legal move of `pos` (an error if there is none).
pub(crate) fn uniform_move<G: FullGame>(game: &G, pos: &G::Pos, rng: &mut Rng) -> Result<G::Move> {
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    if moves.is_empty() {
        return Err(no_moves(game, pos));
    }
    Ok(moves[rng.below(moves.len())])
}

/// Exact values shared by the agents and the referee of a tournament.
pub(crate) type SharedOracle<G> = std::sync::Arc<dyn crate::game::Oracle<G> + Send>;

/// Winner when a position occurs for the third time: nobody (a draw), except
/// under `repetition=defenders_lose` (Copenhagen), where the side named
/// `defenders` loses. `repetition=forbid` is not enforced move by move in
/// self-play; a threefold repetition then also counts as a draw.
pub fn repetition_winner<G: FullGame>(game: &G) -> Option<u8> {
    if game.repetition() != crate::game::Repetition::DefendersLose {
        return None;
    }
    (0..2u8)
        .find(|&s| game.side_name(s as usize) == "defenders")
        .map(|d| 1 - d)
}

/// Plays a uniformly random legal move.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomAgent;

impl<G: FullGame> Agent<G> for RandomAgent {
    fn describe(&self) -> String {
        "random".into()
    }
    fn choose(&self, game: &G, pos: &G::Pos, _history: &[u64], rng: &mut Rng) -> Result<G::Move> {
        uniform_move(game, pos, rng)
    }
}

/// One-ply greedy player: takes an immediate win, avoids an immediate loss,
/// scores a position repeated twice before as a draw, and otherwise maximises
/// the static evaluation after its move; ties are broken at random so that
/// games between two greedy players differ.
#[derive(Clone, Copy, Debug, Default)]
pub struct GreedyAgent;

/// Score of a won position for the greedy player, far above any evaluation.
const WIN_SCORE: i64 = 1_000_000;

impl<G: FullGame> Agent<G> for GreedyAgent {
    fn describe(&self) -> String {
        "greedy".into()
    }
    fn choose(&self, game: &G, pos: &G::Pos, history: &[u64], rng: &mut Rng) -> Result<G::Move> {
        let mut moves = Vec::new();
        game.legal_moves(pos, &mut moves);
        if moves.is_empty() {
            return Err(no_moves(game, pos));
        }
        let mut best: Vec<G::Move> = Vec::new();
        let mut best_score = i64::MIN;
        for &mv in &moves {
            let child = game.play(pos, mv);
            // Scores are from the mover's view; the child is seen by the opponent.
            let score = match game.outcome(&child) {
                Some(v) => match v.flip() {
                    Value::Win => WIN_SCORE,
                    Value::Draw => 0,
                    Value::Loss => -WIN_SCORE,
                },
                None => {
                    let h = game.hash(&child);
                    // A third occurrence ends the game as a draw.
                    if history.iter().filter(|&&x| x == h).count() >= 2 {
                        0
                    } else {
                        -(game.evaluate(&child) as i64)
                    }
                }
            };
            if score > best_score {
                best_score = score;
                best.clear();
                best.push(mv);
            } else if score == best_score {
                best.push(mv);
            }
        }
        Ok(best[rng.below(best.len())])
    }
}

fn no_moves<G: FullGame>(game: &G, pos: &G::Pos) -> Error {
    Error::Internal(format!(
        "{}: position has no legal move but is not terminal: {}",
        game.rules_string(),
        game.format_position(pos)
    ))
}
