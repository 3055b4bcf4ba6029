//! Play and values from solved tables: the `perfect` engine and the exact
//! value of the ladder's random openings.
//!
//! `PerfectAgent` plays, where the tables cover every move's result, a
//! move of the best exact value for the side to move (the quickest win, else
//! a draw, else the slowest loss; ties broken by the game's seeded
//! generator), and falls back to alpha-beta at a fixed depth where they do
//! not. Two perfect players from a position therefore reach its exact value.
//!
//! `opening_value` is what a ladder with perfect players measures: the
//! expected outcome, under optimal play from there, of the position after the
//! uniformly random opening plies of a tournament (the same plies in every
//! rung, since game `i` draws them from the generator seeded with `seed + i`).
//! It walks the distribution of positions ply by ply, merging equal
//! positions, and reads each final position's value from the tables.
//!
//! `sampled_openings` is what the ladder's perfect players actually reach:
//! the same exact values averaged over the openings its games drew (game `i`
//! from `seed + i`, uniform plies), not over every opening. A calibration is
//! scored against it: with 100 games a variant the sampled openings can be
//! worth noticeably less or more than all of them (kaooa, 4 plies: 0.045
//! against 0.086), and that sampling is no error of the players.

use crate::error::{Error, Result};
use crate::game::{FullGame, Oracle, Value};
use crate::random::Rng;
use crate::stats::agent::{Agent, SharedOracle};
use crate::stats::search_agent::SearchAgent;
use std::collections::HashMap;

/// Depth of the search used where the tables do not cover a move.
pub(crate) const FALLBACK_DEPTH: u32 = 4;

/// Plays from the tables (see the module docs).
pub(crate) struct PerfectAgent<G: FullGame> {
    /// The exact values.
    pub oracle: SharedOracle<G>,
    /// The engine for positions the tables do not cover.
    pub fallback: SearchAgent,
}

/// Rank of an exact value for the side that moves into it: higher is better.
/// `value` is the child's value for its own side to move.
fn rank_for_mover(value: Value, distance: u32) -> i64 {
    match value.flip() {
        Value::Win => 1_000_000 - distance as i64,
        Value::Draw => 0,
        Value::Loss => -1_000_000 + distance as i64,
    }
}

/// The exact value and distance of `pos` for its side to move: the rules'
/// outcome when it is over, else the tables'.
pub(crate) fn exact_value<G: FullGame>(
    game: &G,
    oracle: &dyn Oracle<G>,
    pos: &G::Pos,
) -> Option<(Value, u32)> {
    match game.outcome(pos) {
        Some(v) => Some((v, 0)),
        None => oracle.probe(game, pos),
    }
}

impl<G: FullGame> Agent<G> for PerfectAgent<G> {
    fn describe(&self) -> String {
        "perfect".into()
    }

    fn choose(&self, game: &G, pos: &G::Pos, history: &[u64], rng: &mut Rng) -> Result<G::Move> {
        let mut moves = Vec::new();
        game.legal_moves(pos, &mut moves);
        let mut best: Vec<G::Move> = Vec::new();
        let mut best_rank = i64::MIN;
        for &mv in &moves {
            let child = game.play(pos, mv);
            let Some((v, d)) = exact_value(game, self.oracle.as_ref(), &child) else {
                return self.fallback.choose(game, pos, history, rng);
            };
            let r = rank_for_mover(v, d);
            if r > best_rank {
                best_rank = r;
                best.clear();
            }
            if r == best_rank {
                best.push(mv);
            }
        }
        if best.is_empty() {
            return Err(Error::Internal(format!(
                "{}: no legal move in {}",
                game.rules_string(),
                game.format_position(pos)
            )));
        }
        Ok(best[rng.below(best.len())])
    }
}

/// Exact outcome shares of the positions after a tournament's random opening.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct OpeningValue {
    /// Random opening plies.
    pub random_plies: u32,
    /// Probability that side 0 and side 1 win under optimal play from there.
    pub wins: [f64; 2],
    /// Probability of a draw.
    pub draws: f64,
    /// Side 0's expected score (win 1, draw ½).
    pub score0: f64,
    /// Distinct positions after the opening.
    pub positions: u64,
    /// Exact value of the start position for side 0 (`win`, `draw`, `loss`).
    pub start0: String,
    /// Side 0's score at the start under optimal play (1, ½ or 0).
    pub start_score0: f64,
    /// The same exact values over the openings the games drew (`None`: not
    /// computed, as for openings sampled from a softmax, which differ by rung).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampled: Option<SampledOpenings>,
}

impl OpeningValue {
    /// Side 0's exact score a ladder's scores are checked against: over the
    /// sampled openings where they are known, else over every opening.
    pub(crate) fn truth0(&self) -> f64 {
        self.sampled.as_ref().map_or(self.score0, |s| s.score0)
    }
}

/// Exact outcomes of the openings a tournament's games drew.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SampledOpenings {
    /// Games (game `i` draws its opening from the generator seeded `seed + i`).
    pub games: u64,
    /// Base seed.
    pub seed: u64,
    /// Games whose opening side 0 and side 1 win under optimal play from there.
    pub wins: [u64; 2],
    /// Games whose opening is a draw under optimal play (or ended drawn in the opening).
    pub draws: u64,
    /// Side 0's mean exact score over these games (win 1, draw ½).
    pub score0: f64,
}

/// What of a tournament decides its games' openings (the tournament's
/// config is not named here: the engines' module names this one).
pub(crate) struct Sampling {
    /// Games (game `i` from the generator seeded `seed + i`).
    pub(crate) games: u64,
    /// Base seed.
    pub(crate) seed: u64,
    /// Uniformly random plies at the start of each game.
    pub(crate) random_plies: u32,
    /// The game's ply limit (`TournamentConfig::max_plies_for`).
    pub(crate) max_plies: u32,
}

/// The exact values of the openings that `cfg`'s games draw with uniform
/// opening plies (see the module docs): each game's opening replayed as the
/// tournament plays it (the same generator, the same end checks), and its
/// final position read from the tables. `None` when a position is unknown.
pub(crate) fn sampled_openings<G: FullGame>(
    game: &G,
    oracle: &dyn Oracle<G>,
    cfg: &Sampling,
) -> Result<Option<SampledOpenings>> {
    let max_plies = cfg.max_plies;
    let (mut wins, mut draws) = ([0u64; 2], 0u64);
    for index in 0..cfg.games {
        let mut rng = Rng::new(cfg.seed.wrapping_add(index));
        let mut pos = game.start();
        let mut seen: HashMap<u64, u32> = HashMap::new();
        let mut plies = 0u32;
        // The tournament's loop up to the first move an engine chooses.
        let winner = loop {
            let side = game.side_to_move(&pos);
            if game.outcome(&pos).is_none() {
                let count = seen.entry(game.hash(&pos)).or_insert(0);
                *count += 1;
                if *count >= 3 {
                    break crate::stats::agent::repetition_winner(game);
                }
                if plies >= max_plies {
                    break None;
                }
                if plies < cfg.random_plies {
                    let mv = crate::stats::agent::uniform_move(game, &pos, &mut rng)?;
                    pos = game.play(&pos, mv);
                    plies += 1;
                    continue;
                }
            }
            let Some((v, _)) = exact_value(game, oracle, &pos) else {
                return Ok(None);
            };
            break match v {
                Value::Win => Some(side as u8),
                Value::Loss => Some(1 - side as u8),
                Value::Draw => None,
            };
        };
        match winner {
            Some(w) => wins[usize::from(w)] += 1,
            None => draws += 1,
        }
    }
    let n = cfg.games.max(1) as f64;
    Ok(Some(SampledOpenings {
        games: cfg.games,
        seed: cfg.seed,
        wins,
        draws,
        score0: (wins[0] as f64 + 0.5 * draws as f64) / n,
    }))
}

/// The exact value of the random opening (see the module docs); `None` when
/// the tables leave a position after the opening (or the start) unknown.
/// Refuses more than `max_positions` distinct positions at one ply.
pub(crate) fn opening_value<G: FullGame>(
    game: &G,
    oracle: &dyn Oracle<G>,
    random_plies: u32,
    max_positions: usize,
) -> Result<Option<OpeningValue>> {
    let start = game.start();
    let Some((sv, _)) = exact_value(game, oracle, &start) else {
        return Ok(None);
    };
    let to_side0 = |v: Value, side: usize| if side == 0 { v } else { v.flip() };
    let start0 = to_side0(sv, game.side_to_move(&start));
    let mut layer: HashMap<G::Pos, f64> = HashMap::from([(start, 1.0)]);
    let mut ended: Vec<(G::Pos, f64)> = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..random_plies {
        let mut next: HashMap<G::Pos, f64> = HashMap::new();
        for (pos, p) in layer {
            if game.outcome(&pos).is_some() {
                ended.push((pos, p));
                continue;
            }
            game.legal_moves(&pos, &mut moves);
            if moves.is_empty() {
                return Err(Error::Internal(format!(
                    "{}: a position without moves is not over: {}",
                    game.rules_string(),
                    game.format_position(&pos)
                )));
            }
            let share = p / moves.len() as f64;
            for &mv in &moves {
                *next.entry(game.play(&pos, mv)).or_insert(0.0) += share;
            }
            if next.len() > max_positions {
                return Err(Error::Memory(format!(
                    "{}: more than {max_positions} positions after the random opening; use fewer random plies",
                    game.rules_string()
                )));
            }
        }
        layer = next;
    }
    let positions = layer.len() as u64;
    let (mut wins, mut draws) = ([0.0f64; 2], 0.0f64);
    for (pos, p) in layer.into_iter().chain(ended) {
        let Some((v, _)) = exact_value(game, oracle, &pos) else {
            return Ok(None);
        };
        match to_side0(v, game.side_to_move(&pos)) {
            Value::Win => wins[0] += p,
            Value::Loss => wins[1] += p,
            Value::Draw => draws += p,
        }
    }
    let score = |v: Value| match v {
        Value::Win => 1.0,
        Value::Draw => 0.5,
        Value::Loss => 0.0,
    };
    Ok(Some(OpeningValue {
        random_plies,
        wins,
        draws,
        score0: wins[0] + 0.5 * draws,
        positions,
        start0: start0.name().to_string(),
        start_score0: score(start0),
        sampled: None,
    }))
}
