//! The search side of `query`: a position answered by search, with the keys of
//! the table answer (`value`, `distance`, `best`, `moves`) plus `score`, `pv`,
//! `depth`, `nodes`, so that the command can fall back to search where no table
//! knows the position and print both the same way.

use crate::game::{FullGame, Oracle, Value};
use crate::search::{search, SearchConfig, SearchResult, TransTable, MATE};
use crate::table::query::QueryResult;
use serde::Serialize;

/// One legal move answered by search, from the side to move's view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AnswerMove {
    /// The move in the family's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Proven value after the move (`win`/`loss`/`draw`), `null` when unproven.
    pub value: Option<&'static str>,
    /// Plies to the end after playing it, counting the move itself, when proven.
    pub distance: Option<u32>,
    /// Search score of the move (centi-pieces; proven scores are `±(30000 - d)`).
    pub score: i32,
}

/// A position answered by search (or by tables, see `from_table`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SearchAnswer {
    /// Canonical position text.
    pub position: String,
    /// Where the answer comes from: `"search"`, `"tables"` (every move known
    /// from the tables) or `"tables+search"` (the position's value from the
    /// tables, some moves lead outside them and were scored by search).
    pub source: &'static str,
    /// Proven value for the side to move, `null` when unproven.
    pub value: Option<&'static str>,
    /// Plies to the end under optimal play, when proven.
    pub distance: Option<u32>,
    /// Best move.
    pub best: Option<String>,
    /// Every legal move, best first by score.
    pub moves: Vec<AnswerMove>,
    /// Score of the position.
    pub score: i32,
    /// Principal variation.
    pub pv: Vec<String>,
    /// Completed depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Set when the df-pn prover answered (`query --exact`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof: Option<ProofSummary>,
}

/// What the df-pn prover found for `query --exact`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProofSummary {
    /// Root proof number of the last run (0: proven).
    pub pn: u32,
    /// Root disproof number of the last run (0: disproven).
    pub dn: u32,
    /// Prover nodes over all runs.
    pub nodes: u64,
    /// Prover seconds over all runs.
    pub seconds: f64,
    /// For a win or loss: the plies the stored proof needs at most (an upper
    /// bound on the distance, used when the distance search did not finish).
    pub plies_at_most: Option<u32>,
    /// Whether `distance` is exact (from the bounded alpha-beta).
    pub distance_exact: bool,
    /// Why the prover stopped when the value is unknown (`time`, `nodes`,
    /// `memory`: out of the `--hash` budget, `interrupt`).
    pub stopped: Option<crate::prove::StopReason>,
}

/// Searches `pos` with every root move scored exactly ([`SearchConfig::all_moves`]
/// is forced on) and answers it.
pub fn answer<G: FullGame, O: Oracle<G>>(
    game: &G,
    pos: &G::Pos,
    oracle: &O,
    cfg: &SearchConfig,
    tt: &TransTable,
) -> SearchAnswer {
    let cfg = SearchConfig {
        all_moves: true,
        ..cfg.clone()
    };
    from_search(game, pos, &search(game, pos, oracle, &cfg, tt))
}

/// The answer a search `r` of `pos` gives: without [`SearchConfig::all_moves`]
/// in its configuration, only the best move's score is exact (the others are
/// bounds, and their values are given only where proven).
pub(crate) fn from_search<G: FullGame>(
    game: &G,
    pos: &G::Pos,
    r: &SearchResult<G>,
) -> SearchAnswer {
    let mut pv = Vec::new();
    let mut p = pos.clone();
    for &m in &r.pv {
        pv.push(game.format_move(&p, m));
        p = game.play(&p, m);
    }
    let moves = r
        .root_moves
        .iter()
        .map(|rm| AnswerMove {
            mv: game.format_move(pos, rm.mv),
            value: rm.proven.map(|p| p.0.name()),
            distance: rm.proven.map(|p| p.1),
            score: rm.score,
        })
        .collect();
    SearchAnswer {
        position: game.format_position(pos),
        source: "search",
        value: r.proven.map(|p| p.0.name()),
        distance: r.proven.map(|p| p.1),
        best: r.best.map(|m| game.format_move(pos, m)),
        moves,
        score: r.score,
        pv,
        depth: r.depth,
        nodes: r.nodes,
        nps: r.nps() as u64,
        seconds: r.time.as_secs_f64(),
        proof: None,
    }
}

/// Search score of an exact value: a win in `d` plies is `MATE - d`, a loss
/// `-(MATE - d)`, a draw 0 (the scale of the search's proven scores).
pub(crate) fn exact_score(value: Value, distance: u32) -> i32 {
    let d = distance.min(MATE as u32) as i32;
    match value {
        Value::Win => MATE - d,
        Value::Loss => -(MATE - d),
        Value::Draw => 0,
    }
}

/// Turns a table answer into a [`SearchAnswer`]: scores derived from the exact
/// values, `pv` as given (see [`exact_pv`](super::exact_pv)). Moves the tables do not know take
/// their value and score from `searched` (a search of the same position), and
/// the answer then reports that search's depth, nodes and time.
pub(crate) fn from_table(
    q: &QueryResult,
    pv: Vec<String>,
    searched: Option<&SearchAnswer>,
) -> SearchAnswer {
    let moves = q
        .moves
        .iter()
        .map(|m| match (m.value, m.distance) {
            (Some(v), d) => AnswerMove {
                mv: m.mv.clone(),
                value: Some(v.name()),
                distance: d,
                score: exact_score(v, d.unwrap_or(0)),
            },
            (None, _) => {
                let s = searched.and_then(|a| a.moves.iter().find(|x| x.mv == m.mv));
                AnswerMove {
                    mv: m.mv.clone(),
                    value: s.and_then(|s| s.value),
                    distance: s.and_then(|s| s.distance),
                    score: s.map_or(0, |s| s.score),
                }
            }
        })
        .collect();
    let score = q
        .value
        .map_or(0, |v| exact_score(v, q.distance.unwrap_or(0)));
    // The best known move is best only if it reaches the position's value; when
    // the optimal move leads outside the tables, search's choice stands in.
    let reaches = q.moves.first().is_some_and(|m| m.value == q.value);
    // The search's choice counts only where it proved the position's value.
    let best = match searched {
        Some(a) if !reaches => a.best.clone().filter(|b| {
            let value = q.value.map(|v| v.name());
            value.is_some() && a.moves.iter().any(|m| &m.mv == b && m.value == value)
        }),
        _ => q.best.clone(),
    };
    SearchAnswer {
        position: q.position.clone(),
        source: if searched.is_some() {
            "tables+search"
        } else {
            "tables"
        },
        value: q.value.map(|v| v.name()),
        distance: q.distance,
        best,
        moves,
        score,
        pv,
        depth: searched.map_or(0, |a| a.depth),
        nodes: searched.map_or(0, |a| a.nodes),
        nps: searched.map_or(0, |a| a.nps),
        seconds: searched.map_or(0.0, |a| a.seconds),
        proof: None,
    }
}
