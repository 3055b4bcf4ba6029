//! Ranking of opening moves (first placements of a hunt game) by search.
//!
//! Openings are reduced up to symmetry by a caller-supplied canonical key of the
//! position after the move (for hunt games: the least image of the piece masks
//! under the board's symmetry group), so the library stays generic.

use super::{proven_of, search, Limit, SearchConfig, TransTable};
use crate::error::{Error, Result};
use crate::game::{FullGame, Oracle, Value};
use crate::progress::{stop_requested, Progress};
use std::collections::BTreeMap;

/// One ranked opening line.
#[derive(Clone, Debug)]
pub struct OpeningLine<G: FullGame> {
    /// The moves of the line from the start (one or two).
    pub moves: Vec<G::Move>,
    /// The line in notation, space-separated.
    pub text: String,
    /// Number of lines equivalent to this one under symmetry (itself included).
    pub class_size: usize,
    /// Score from the first mover's view (the side to move at the start).
    pub score: i32,
    /// Proven value and distance from the start, first mover's view.
    pub proven: Option<(Value, u32)>,
    /// Principal variation after the line.
    pub pv: String,
    /// Nodes spent on this line.
    pub nodes: u64,
}

/// Settings of [`rank_openings`].
#[derive(Clone, Debug)]
pub struct OpeningsConfig {
    /// Total depth from the start position (at least `plies + 1`).
    pub depth: u32,
    /// Plies of the opening lines: 1 (first moves) or 2 (first moves and replies).
    pub plies: u32,
    /// Search threads.
    pub threads: usize,
    /// Transposition table size in MiB (shared by all lines).
    pub hash_mib: usize,
}

/// Moves of `pos` reduced up to symmetry: `(move, class size)` for the first
/// move (in generator order) of each class of equal canonical keys.
pub(crate) fn distinct_moves<G: FullGame, K: Ord>(
    game: &G,
    pos: &G::Pos,
    canon: &impl Fn(&G::Pos) -> K,
) -> Vec<(G::Move, usize)> {
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    let mut classes: BTreeMap<K, (usize, G::Move, usize)> = BTreeMap::new();
    for (i, &m) in moves.iter().enumerate() {
        let e = classes
            .entry(canon(&game.play(pos, m)))
            .or_insert((i, m, 0));
        e.2 += 1;
    }
    let mut reps: Vec<(usize, G::Move, usize)> = classes.into_values().collect();
    reps.sort_by_key(|r| r.0);
    reps.into_iter().map(|(_, m, n)| (m, n)).collect()
}

/// Searches every opening line up to symmetry and returns them best first for
/// the first mover. Each line is searched to `depth - plies` from its end
/// position (with a table shared by all lines); a stop request gives
/// [`Error::Interrupted`].
pub fn rank_openings<G: FullGame, O: Oracle<G>, K: Ord>(
    game: &G,
    oracle: &O,
    cfg: &OpeningsConfig,
    canon: impl Fn(&G::Pos) -> K,
    progress: &dyn Progress,
) -> Result<Vec<OpeningLine<G>>> {
    if !(1..=2).contains(&cfg.plies) {
        return Err(Error::Usage(format!(
            "--plies {}: accepted values are 1 and 2",
            cfg.plies
        )));
    }
    if cfg.depth <= cfg.plies {
        return Err(Error::Usage(format!(
            "--depth {} must exceed --plies {}",
            cfg.depth, cfg.plies
        )));
    }
    let start = game.start();
    let mut lines: Vec<(Vec<G::Move>, usize, G::Pos)> = Vec::new();
    for (m, n) in distinct_moves(game, &start, &canon) {
        let child = game.play(&start, m);
        if cfg.plies == 1 || game.outcome(&child).is_some() {
            lines.push((vec![m], n, child));
        } else {
            for (r, k) in distinct_moves(game, &child, &canon) {
                lines.push((vec![m, r], n * k, game.play(&child, r)));
            }
        }
    }
    let tt = TransTable::new(cfg.hash_mib)?;
    progress.stage("openings", lines.len() as u64);
    let mut out = Vec::with_capacity(lines.len());
    for (moves, class_size, pos) in lines {
        if stop_requested() {
            progress.finish_stage();
            return Err(Error::Interrupted);
        }
        let mut text = Vec::new();
        let mut p = start.clone();
        for &m in &moves {
            text.push(game.format_move(&p, m));
            p = game.play(&p, m);
        }
        let scfg = SearchConfig {
            limits: vec![Limit::Depth(cfg.depth - moves.len() as u32)],
            threads: cfg.threads,
            history: {
                let mut h = vec![game.hash(&start)];
                if moves.len() == 2 {
                    h.push(game.hash(&game.play(&start, moves[0])));
                }
                h
            },
            ..Default::default()
        };
        let r = search(game, &pos, oracle, &scfg, &tt);
        if r.interrupted && stop_requested() {
            progress.finish_stage();
            return Err(Error::Interrupted);
        }
        // Even line length: the end position has the first mover to move.
        let sign = if moves.len() % 2 == 0 { 1 } else { -1 };
        let score = sign * r.score;
        let proven = proven_of(score)
            .map(|(v, d)| (v, d + moves.len() as u32))
            .or(match r.proven {
                Some((Value::Draw, _)) => Some((Value::Draw, 0)),
                _ => None,
            });
        let mut pv = Vec::new();
        let mut q = pos.clone();
        for &m in &r.pv {
            pv.push(game.format_move(&q, m));
            q = game.play(&q, m);
        }
        progress.advance(1);
        progress.message(&format!("{} {}", text.join(" "), super::score_text(score)));
        out.push(OpeningLine {
            moves,
            text: text.join(" "),
            class_size,
            score,
            proven,
            pv: pv.join(" "),
            nodes: r.nodes,
        });
    }
    progress.finish_stage();
    // Stable: equal scores stay in generator order.
    out.sort_by_key(|l| std::cmp::Reverse(l.score));
    Ok(out)
}
