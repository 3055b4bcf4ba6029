//! Exact values of small games by retrograde analysis over the positions
//! reachable from the start, held in memory.
//!
//! A test oracle (it was `huntsolve::stats::exact`): the independent, generic
//! solver kept as a cross-check of the tiered solver in `huntsolve::retro` (which `sweep` uses): it needs only
//! the `Game` trait (no tiers, no un-move generator), at the price of storing
//! every reachable position and edge. Cycle semantics are those of the rules'
//! `repetition=draw`: a position that is neither proven won nor lost is a draw.
//!
//! Distances are plies to the end under optimal play: the winner hurries, the
//! loser delays.

use huntsolve::game::{FullGame, Value};
use huntsolve::{stop_requested, Progress};
use huntsolve::{Error, Result};
use std::collections::{HashMap, VecDeque};

/// The solution of a game's reachable position graph.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactSolution {
    /// Value of the start position for the side to move there.
    pub start_value: Value,
    /// Side to move at the start.
    pub start_side: u8,
    /// Distance of the start in plies (0 for a draw).
    pub start_distance: u32,
    /// Reachable positions.
    pub positions: u64,
    /// Moves (edges) between them.
    pub moves: u64,
    /// Reachable terminal positions.
    pub terminal: u64,
    /// Reachable positions won, lost and drawn for the side to move.
    pub wins: u64,
    /// See `wins`.
    pub losses: u64,
    /// See `wins`.
    pub draws: u64,
    /// Longest distance of any decided position.
    pub max_distance: u32,
}

impl ExactSolution {
    /// Value of the start for `side` (0 or 1).
    pub fn value_for(&self, side: u8) -> Value {
        if side == self.start_side {
            self.start_value
        } else {
            self.start_value.flip()
        }
    }
}

const UNKNOWN: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;
const DRAW: u8 = 3;

/// Solves `game` from its start position. Refuses (with [`Error::Memory`])
/// when more than `max_positions` positions are reachable.
pub fn solve_reachable<G: FullGame>(
    game: &G,
    max_positions: usize,
    progress: &dyn Progress,
) -> Result<ExactSolution> {
    huntsolve::prove::check_repetition_rule(game)?;
    // 1. Enumerate the reachable graph breadth-first.
    progress.stage("enumerate", 0);
    let start = game.start();
    let mut index: HashMap<G::Pos, u32> = HashMap::new();
    let mut positions: Vec<G::Pos> = vec![start.clone()];
    index.insert(start, 0);
    let mut first_child: Vec<u64> = Vec::new();
    let mut children: Vec<u32> = Vec::new();
    let mut value: Vec<u8> = Vec::new();
    let mut moves = Vec::new();
    let mut next = 0usize;
    while next < positions.len() {
        if next.is_multiple_of(65_536) {
            if stop_requested() {
                return Err(Error::Interrupted);
            }
            progress.advance(65_536.min(positions.len() - next) as u64);
        }
        let pos = positions[next].clone();
        first_child.push(children.len() as u64);
        match game.outcome(&pos) {
            Some(Value::Win) => value.push(WIN),
            Some(Value::Loss) => value.push(LOSS),
            Some(Value::Draw) => value.push(DRAW),
            None => {
                value.push(UNKNOWN);
                game.legal_moves(&pos, &mut moves);
                if moves.is_empty() {
                    return Err(Error::Internal(format!(
                        "{}: position has no legal move but is not terminal: {}",
                        game.rules_string(),
                        game.format_position(&pos)
                    )));
                }
                for &mv in &moves {
                    let child = game.play(&pos, mv);
                    let id = match index.get(&child) {
                        Some(&id) => id,
                        None => {
                            if positions.len() >= max_positions {
                                return Err(Error::Memory(format!(
                                    "{}: more than {max_positions} reachable positions; use the tiered solver (huntsolve solve) or raise the limit",
                                    game.rules_string()
                                )));
                            }
                            let id = positions.len() as u32;
                            positions.push(child.clone());
                            index.insert(child, id);
                            id
                        }
                    };
                    children.push(id);
                }
            }
        }
        next += 1;
    }
    first_child.push(children.len() as u64);
    let n = positions.len();
    let start_side = game.side_to_move(&positions[0]) as u8;
    drop(index);
    drop(positions);
    progress.finish_stage();

    // 2. Predecessor lists (one entry per edge, so duplicate moves count twice
    //    both in the counters and in the decrements).
    let mut pred_count = vec![0u64; n + 1];
    for &c in &children {
        pred_count[c as usize + 1] += 1;
    }
    for i in 0..n {
        pred_count[i + 1] += pred_count[i];
    }
    let mut fill = pred_count.clone();
    let mut preds = vec![0u32; children.len()];
    for p in 0..n {
        for &c in &children[first_child[p] as usize..first_child[p + 1] as usize] {
            preds[fill[c as usize] as usize] = p as u32;
            fill[c as usize] += 1;
        }
    }

    // 3. Propagate from decided terminals in order of distance.
    progress.stage("propagate", n as u64);
    let mut remaining: Vec<u32> = (0..n)
        .map(|p| (first_child[p + 1] - first_child[p]) as u32)
        .collect();
    let mut dist = vec![0u32; n];
    let mut queue: VecDeque<u32> = (0..n as u32)
        .filter(|&p| value[p as usize] == WIN || value[p as usize] == LOSS)
        .collect();
    let mut done = 0u64;
    while let Some(c) = queue.pop_front() {
        done += 1;
        if done.is_multiple_of(65_536) {
            progress.advance(65_536);
            if stop_requested() {
                return Err(Error::Interrupted);
            }
        }
        let c = c as usize;
        let d = dist[c] + 1;
        for &p in &preds[pred_count[c] as usize..pred_count[c + 1] as usize] {
            let p = p as usize;
            if value[p] != UNKNOWN {
                continue;
            }
            if value[c] == LOSS {
                value[p] = WIN;
                dist[p] = d;
                queue.push_back(p as u32);
            } else {
                remaining[p] -= 1;
                if remaining[p] == 0 {
                    // Children are resolved in order of distance, so the last
                    // one is the longest defence.
                    value[p] = LOSS;
                    dist[p] = d;
                    queue.push_back(p as u32);
                }
            }
        }
    }
    for v in value.iter_mut() {
        if *v == UNKNOWN {
            *v = DRAW;
        }
    }
    progress.finish_stage();
    let count = |x: u8| value.iter().filter(|&&v| v == x).count() as u64;
    let terminal = (0..n)
        .filter(|&p| first_child[p + 1] == first_child[p])
        .count() as u64;
    Ok(ExactSolution {
        start_value: match value[0] {
            WIN => Value::Win,
            LOSS => Value::Loss,
            _ => Value::Draw,
        },
        start_side,
        start_distance: if value[0] == DRAW { 0 } else { dist[0] },
        positions: n as u64,
        moves: children.len() as u64,
        terminal,
        wins: count(WIN),
        losses: count(LOSS),
        draws: count(DRAW),
        max_distance: (0..n)
            .filter(|&p| value[p] != DRAW)
            .map(|p| dist[p])
            .max()
            .unwrap_or(0),
    })
}
