//! The search side of `query`: a position answered by search, with the keys of
//! the table answer (`value`, `distance`, `best`, `moves`) plus `score`, `pv`,
//! `depth`, `nodes`, so that the command can fall back to search where no table
//! knows the position and print both the same way.

use super::{search, SearchConfig, TransTable};
use crate::game::{Game, Oracle};
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

/// A position answered by search.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SearchAnswer {
    /// Canonical position text.
    pub position: String,
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
}

/// Searches `pos` with every root move scored exactly ([`SearchConfig::all_moves`]
/// is forced on) and answers it.
pub fn answer<G: Game, O: Oracle<G>>(
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
    let r = search(game, pos, oracle, &cfg, tt);
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
    }
}
