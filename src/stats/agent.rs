//! Players for self-play tournaments.
//!
//! An [`Agent`] picks a move given the game, the position, the hashes of the
//! positions played so far in this game (for repetition) and a seeded random
//! generator (for tie-breaking and randomised openings). Agents hold no
//! per-game state, so one agent serves every game of a tournament in parallel.

use crate::error::{quote, Error, Result};
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
pub fn uniform_move<G: FullGame>(game: &G, pos: &G::Pos, rng: &mut Rng) -> Result<G::Move> {
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    if moves.is_empty() {
        return Err(no_moves(game, pos));
    }
    Ok(moves[rng.below(moves.len())])
}

/// Which engine plays both sides of every game.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum EngineSpec {
    /// Uniformly random legal moves.
    Random,
    /// One-ply greedy on [`Evaluate::evaluate`](crate::game::Evaluate::evaluate) (wins first, random tie-break).
    Greedy,
    /// Alpha-beta search to a fixed depth in plies.
    Depth(u32),
    /// Alpha-beta search for a fixed time per move, in seconds.
    Time(f64),
    /// Monte Carlo tree search (UCT with MCTS-Solver), see [`crate::stats::mcts`].
    Mcts(crate::stats::mcts::MctsSpec),
    /// Plays from solved tables where they cover the position, alpha-beta at
    /// a fixed depth elsewhere (see [`crate::stats::perfect`]); needs `--tables`.
    Perfect,
}

impl EngineSpec {
    /// Parses `random`, `greedy`, `depth=D`, `time=S`, `mcts=N` or
    /// `mcts-time=S` (the last two with optional `:cutoff=K` and `:c=X`).
    pub fn parse(text: &str) -> Result<EngineSpec> {
        let t = text.trim();
        if let Some(m) = crate::stats::mcts::MctsSpec::parse(t) {
            return m.map(EngineSpec::Mcts).map_err(Error::Input);
        }
        let bad = || {
            Error::Input(format!(
                "engine {}: expected random, greedy, depth=D (plies, 1..=64), time=S (seconds, 0 < S <= 1000000), mcts=N (iterations), mcts-time=S or perfect (from --tables)",
                quote(t)
            ))
        };
        match t {
            "random" => return Ok(EngineSpec::Random),
            "greedy" => return Ok(EngineSpec::Greedy),
            "perfect" => return Ok(EngineSpec::Perfect),
            _ => {}
        }
        if let Some(d) = t.strip_prefix("depth=") {
            let d: u32 = d.parse().map_err(|_| bad())?;
            if (1..=64).contains(&d) {
                return Ok(EngineSpec::Depth(d));
            }
        } else if let Some(s) = t.strip_prefix("time=") {
            let s: f64 = s.parse().map_err(|_| bad())?;
            if crate::progress::valid_seconds(s) {
                return Ok(EngineSpec::Time(s));
            }
        }
        Err(bad())
    }

    /// Canonical text form (the inverse of [`EngineSpec::parse`]).
    pub fn text(&self) -> String {
        match self {
            EngineSpec::Random => "random".into(),
            EngineSpec::Greedy => "greedy".into(),
            EngineSpec::Depth(d) => format!("depth={d}"),
            EngineSpec::Time(s) => format!("time={s}"),
            EngineSpec::Mcts(m) => m.text(),
            EngineSpec::Perfect => "perfect".into(),
        }
    }

    /// Whether games played with this engine are reproducible from the seed
    /// (time-limited search depends on machine speed and load).
    pub fn deterministic(&self) -> bool {
        match self {
            EngineSpec::Time(_) => false,
            EngineSpec::Mcts(m) => m.seconds.is_none(),
            _ => true,
        }
    }
}

/// Builds the agent for `spec`. `softmax` (a temperature in evaluation units)
/// makes a searching agent sample its opening plies from a softmax over root
/// scores; other agents ignore it (their opening plies are uniform).
pub fn make_agent<G: FullGame>(
    spec: &EngineSpec,
    softmax: Option<f64>,
) -> Result<Box<dyn Agent<G>>> {
    make_agent_with(spec, softmax, None)
}

/// Exact values shared by the agents and the referee of a tournament.
pub type SharedOracle<G> = std::sync::Arc<dyn crate::game::Oracle<G> + Send>;

/// [`make_agent`] with an oracle of exact values (solved tables) that MCTS
/// uses as proven leaves; the other engines ignore it.
pub fn make_agent_with<G: FullGame>(
    spec: &EngineSpec,
    softmax: Option<f64>,
    oracle: Option<SharedOracle<G>>,
) -> Result<Box<dyn Agent<G>>> {
    use crate::stats::search_agent::SearchAgent;
    match spec {
        EngineSpec::Random => Ok(Box::new(RandomAgent)),
        EngineSpec::Greedy => Ok(Box::new(GreedyAgent)),
        EngineSpec::Depth(d) => Ok(Box::new(SearchAgent {
            softmax,
            ..SearchAgent::depth(*d)
        })),
        EngineSpec::Time(s) => Ok(Box::new(SearchAgent {
            softmax,
            ..SearchAgent::time(*s)
        })),
        EngineSpec::Mcts(m) => Ok(Box::new(crate::stats::mcts::MctsAgent {
            spec: m.clone(),
            oracle,
        })),
        EngineSpec::Perfect => match oracle {
            Some(oracle) => Ok(Box::new(crate::stats::perfect::PerfectAgent {
                oracle,
                fallback: SearchAgent::depth(crate::stats::perfect::FALLBACK_DEPTH),
            })),
            None => Err(Error::Input(
                "engine perfect plays from solved tables: give --tables with tables of this variant"
                    .into(),
            )),
        },
    }
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
