//! The alpha-beta engine of [`crate::search`] as a self-play agent.

use crate::error::{Error, Result};
use crate::game::{FullGame, NoOracle, Oracle, Value};
use crate::random::Rng;
use crate::search::{search_fresh, Limit, SearchConfig};
use crate::stats::agent::{Agent, SharedOracle};
use std::time::Duration;

/// Transposition table per move, in MiB. A fresh table per move keeps every
/// game independent of the others played on the same thread (reproducible).
const HASH_MIB: usize = 4;

/// Search to a fixed depth or for a fixed time per move, one thread per game
/// (games run in parallel instead). Opening plies may be sampled from a
/// softmax over the root moves' scores.
#[derive(Clone, Debug)]
pub(crate) struct SearchAgent {
    /// Depth or time per move.
    pub limit: Limit,
    /// Softmax temperature in evaluation units (centi-pieces) for opening
    /// plies; `None`: uniform random opening plies.
    pub softmax: Option<f64>,
}

impl SearchAgent {
    /// Fixed depth in plies.
    pub(crate) fn depth(d: u32) -> Self {
        SearchAgent {
            limit: Limit::Depth(d),
            softmax: None,
        }
    }

    /// Fixed time per move in seconds.
    pub(crate) fn time(seconds: f64) -> Self {
        SearchAgent {
            limit: Limit::Time(Duration::from_secs_f64(seconds)),
            softmax: None,
        }
    }

    fn config(&self, history: &[u64], all_moves: bool) -> SearchConfig {
        SearchConfig {
            limits: vec![self.limit],
            threads: 1,
            all_moves,
            history: history.to_vec(),
            ..Default::default()
        }
    }
}

impl SearchAgent {
    fn describe_limit(&self) -> String {
        match self.limit {
            Limit::Depth(d) => format!("depth={d}"),
            Limit::Time(t) => format!("time={}", t.as_secs_f64()),
            Limit::Nodes(n) => format!("nodes={n}"),
        }
    }

    /// The best move of `pos`, with `oracle`'s exact values as leaves.
    fn choose_with<G: FullGame, O: Oracle<G>>(
        &self,
        game: &G,
        pos: &G::Pos,
        history: &[u64],
        oracle: &O,
    ) -> Result<G::Move> {
        let r = search_fresh(game, pos, oracle, &self.config(history, false), HASH_MIB)?;
        r.best.ok_or_else(|| {
            Error::Internal(format!(
                "{}: search found no move in {}",
                game.rules_string(),
                game.format_position(pos)
            ))
        })
    }

    /// An opening move: uniform, or sampled from a softmax over the root
    /// scores (searched with `oracle`'s exact values as leaves).
    fn opening_with<G: FullGame, O: Oracle<G>>(
        &self,
        game: &G,
        pos: &G::Pos,
        history: &[u64],
        rng: &mut Rng,
        oracle: &O,
    ) -> Result<G::Move> {
        let Some(temp) = self.softmax else {
            return crate::stats::agent::uniform_move(game, pos, rng);
        };
        let r = search_fresh(game, pos, oracle, &self.config(history, true), HASH_MIB)?;
        let mut roots = r.root_moves;
        if roots.is_empty() {
            return crate::stats::agent::uniform_move(game, pos, rng);
        }
        // Legal-move order makes the draw below reproducible; subtracting the
        // best score keeps exp() in range.
        roots.sort_by_key(|m| m.index);
        let best = roots.iter().map(|m| m.score).max().unwrap_or(0) as f64;
        let weights: Vec<f64> = roots
            .iter()
            .map(|m| ((m.score as f64 - best) / temp.max(1e-9)).exp())
            .collect();
        let total: f64 = weights.iter().sum();
        let mut x = rng.unit() * total;
        for (m, w) in roots.iter().zip(&weights) {
            if x < *w {
                return Ok(m.mv);
            }
            x -= w;
        }
        Ok(roots[roots.len() - 1].mv)
    }
}

impl<G: FullGame> Agent<G> for SearchAgent {
    fn describe(&self) -> String {
        self.describe_limit()
    }

    fn choose(&self, game: &G, pos: &G::Pos, history: &[u64], _rng: &mut Rng) -> Result<G::Move> {
        self.choose_with(game, pos, history, &NoOracle)
    }

    fn opening_move(
        &self,
        game: &G,
        pos: &G::Pos,
        history: &[u64],
        rng: &mut Rng,
    ) -> Result<G::Move> {
        self.opening_with(game, pos, history, rng, &NoOracle)
    }
}

/// A shared oracle as a sized [`Oracle`] for the search.
struct Leaves<'a, G: FullGame>(&'a (dyn Oracle<G> + Send));

impl<G: FullGame> Oracle<G> for Leaves<'_, G> {
    fn probe(&self, game: &G, pos: &G::Pos) -> Option<(Value, u32)> {
        self.0.probe(game, pos)
    }

    fn failed(&self) -> bool {
        self.0.failed()
    }
}

/// [`SearchAgent`] whose search ends a line in a position the solved tables
/// cover, with its exact value (the engines `depth=D:tables` and
/// `time=S:tables`). Elsewhere it searches as [`SearchAgent`] does.
pub(crate) struct TableSearchAgent<G: FullGame> {
    /// The search (depth or time per move, opening softmax).
    pub search: SearchAgent,
    /// The exact values used as leaves.
    pub oracle: SharedOracle<G>,
}

impl<G: FullGame> Agent<G> for TableSearchAgent<G> {
    fn describe(&self) -> String {
        format!("{}:tables", self.search.describe_limit())
    }

    fn choose(&self, game: &G, pos: &G::Pos, history: &[u64], _rng: &mut Rng) -> Result<G::Move> {
        self.search
            .choose_with(game, pos, history, &Leaves(self.oracle.as_ref()))
    }

    fn opening_move(
        &self,
        game: &G,
        pos: &G::Pos,
        history: &[u64],
        rng: &mut Rng,
    ) -> Result<G::Move> {
        self.search
            .opening_with(game, pos, history, rng, &Leaves(self.oracle.as_ref()))
    }
}
