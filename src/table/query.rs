//! Answering a position from exact values: its value and distance, and every
//! legal move with the value it leads to, best first.
//!
//! [`query_with`] takes any source of exact values (a closure), so the command can
//! chain tables with a search fallback; [`query_tables`] is the table-only case.

use super::probe::TableOracle;
use crate::error::Result;
use crate::game::{Notation, Value};
use crate::tier::TierGame;
use serde::Serialize;
use std::cmp::Ordering;

/// One legal move and its result, from the side to move's view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveResult {
    /// The move in the family's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Value for the side to move after playing it (`None`: unknown).
    #[serde(serialize_with = "serialize_value")]
    pub value: Option<Value>,
    /// Plies to the end after playing it, counting the move itself.
    pub distance: Option<u32>,
}

/// Answer for one position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QueryResult {
    /// Canonical position text.
    pub position: String,
    /// Value for the side to move (`None`: unknown).
    #[serde(serialize_with = "serialize_value")]
    pub value: Option<Value>,
    /// Plies to the end under optimal play.
    pub distance: Option<u32>,
    /// The best move (first of `moves`), when known.
    pub best: Option<String>,
    /// Every legal move, best first: wins by shortest, draws, losses by longest, unknown last.
    pub moves: Vec<MoveResult>,
}

/// Serialises an optional value as `"win"`/`"loss"`/`"draw"` or `null` (a local
/// function rather than an impl on [`Value`], which other modules may also want).
pub(crate) fn serialize_value<S: serde::Serializer>(
    v: &Option<Value>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    match v {
        Some(v) => s.serialize_str(v.name()),
        None => s.serialize_none(),
    }
}

/// An exact (value, distance), or `None` when unknown.
pub type Exact = Option<(Value, u32)>;

/// Sort key of a result: smaller is better for the side choosing it.
fn badness(value: Option<Value>, distance: Option<u32>) -> (u8, i64) {
    let d = distance.unwrap_or(0) as i64;
    match value {
        Some(Value::Win) => (0, d),
        Some(Value::Draw) => (1, 0),
        Some(Value::Loss) => (2, -d),
        None => (3, 0),
    }
}

/// Orders two (value, distance) results, best for the side to move first.
pub(crate) fn compare_results(
    a: (Option<Value>, Option<u32>),
    b: (Option<Value>, Option<u32>),
) -> Ordering {
    badness(a.0, a.1).cmp(&badness(b.0, b.1))
}

/// Answers `pos` with `exact` giving (value, distance) of positions it knows.
///
/// The position's own value comes from `exact`; when it is unknown but every move's
/// result is known, it is derived from them (the same rule as the solver's).
/// Terminal positions get their outcome with distance 0 and no moves.
pub fn query_with<G: Notation>(
    game: &G,
    pos: &G::Pos,
    exact: &dyn Fn(&G::Pos) -> Result<Exact>,
) -> Result<QueryResult> {
    let position = game.format_position(pos);
    if let Some(v) = game.outcome(pos) {
        return Ok(QueryResult {
            position,
            value: Some(v),
            distance: Some(0),
            best: None,
            moves: Vec::new(),
        });
    }
    let mut legal = Vec::new();
    game.legal_moves(pos, &mut legal);
    let mut moves = Vec::with_capacity(legal.len());
    for &m in &legal {
        let child = game.play(pos, m);
        let known = match game.outcome(&child) {
            Some(v) => Some((v, 0)),
            None => exact(&child)?,
        };
        moves.push(MoveResult {
            mv: game.format_move(pos, m),
            value: known.map(|(v, _)| v.flip()),
            distance: known.map(|(_, d)| d + 1),
        });
    }
    // Stable sort: equal moves keep the generator's order, so output is deterministic.
    moves.sort_by(|a, b| compare_results((a.value, a.distance), (b.value, b.distance)));
    let (mut value, mut distance) = match exact(pos)? {
        Some((v, d)) => (Some(v), Some(d)),
        None => (None, None),
    };
    if value.is_none() && !moves.is_empty() && moves.iter().all(|m| m.value.is_some()) {
        value = moves[0].value;
        distance = if value == Some(Value::Draw) {
            Some(0)
        } else {
            moves[0].distance
        };
    }
    let best = moves
        .first()
        .filter(|m| m.value.is_some())
        .map(|m| m.mv.clone());
    Ok(QueryResult {
        position,
        value,
        distance,
        best,
        moves,
    })
}

/// Answers `pos` from the tables of `oracle`.
pub fn query_tables<G: TierGame>(oracle: &TableOracle<G>, pos: &G::Pos) -> Result<QueryResult> {
    query_with(oracle.game(), pos, &|p| oracle.try_probe(p))
}

impl QueryResult {}
