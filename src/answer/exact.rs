//! `query --exact`: the value from the prover (no depth cap), then the exact
//! distance from an exact alpha-beta whose depth is bounded by the proof.
//!
//! The prover proves the value; the length of the stored proof (the winner's
//! shortest known line, the loser's longest reply) bounds the distance from
//! above, so the exact (proofs-only) alpha-beta of [`crate::search`] is run to
//! that depth at most: its first proving depth is the distance under optimal
//! play (the winner hurries, the loser delays), and it stops there. Only the
//! root's distance is searched for (not every root move's, which would take
//! the iterations on to the longest move's distance: 81.9 M nodes instead of
//! a few M on the kaooa start); the other moves' values come from the prover
//! (same proof table), their distances are not given. When the time runs out
//! first, the answer keeps the proven value and says the distance is at most
//! the proof's length.
//!
//! The best move is never a guess. When the distance search finished, its
//! best move is proven optimal. Otherwise the best move is the proof's first
//! move, read from the proof table: for a win, the winning reply the proof
//! stores with the shortest proof (and the principal variation follows the
//! proof); for a draw, the move the disproof of the opponent's win stores;
//! failing those, a move the prover proved to keep the value. A loss has no
//! proof move (every move loses; which delays longest is what the
//! unfinished distance search would have said), and neither has a value whose
//! proof entries were overwritten: the answer then names no best move.

use super::query::{from_search, ProofSummary, SearchAnswer};
use crate::game::{FullGame, Oracle, Value};
use crate::progress::{NoProgress, Progress};
use crate::prove::dfpn::{Known, ProveConfig, Prover, Worker};
use crate::prove::tt::ProofTable;
use crate::search::{search, Limit, SearchConfig, TransTable};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Answers `pos` exactly: prover value, then the bounded distance search;
/// `time` bounds the whole answer (prover, distance search and the moves'
/// values share it), and setting `stop` ends it early (an explorer request
/// whose client left). Stages are reported to `progress`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn exact_answer<G: FullGame, O: Oracle<G>>(
    game: &G,
    pos: &G::Pos,
    oracle: &O,
    hash_mib: usize,
    threads: usize,
    time: Option<Duration>,
    tt: &TransTable,
    stop: &Arc<AtomicBool>,
    progress: &dyn Progress,
) -> SearchAnswer {
    let t0 = Instant::now();
    let ptt = ProofTable::new(hash_mib.max(1));
    let prover = Prover::new(
        game,
        oracle,
        &ptt,
        ProveConfig {
            threads,
            time,
            stop: stop.clone(),
            ..Default::default()
        },
    );
    progress.stage("proving the value", 0);
    let (value, runs) = prover.value(pos, progress);
    progress.finish_stage();
    let last = runs.last().expect("a value takes at least one run");
    let bound = runs.iter().find_map(|r| r.proof_plies);
    let mut summary = ProofSummary {
        pn: last.pn,
        dn: last.dn,
        nodes: runs.iter().map(|r| r.nodes).sum(),
        seconds: runs.iter().map(|r| r.seconds).sum(),
        plies_at_most: bound,
        distance_exact: false,
        stopped: last.stopped,
    };
    // The proof's own line, read before other searches share the proof table.
    let mover = game.side_to_move(pos);
    let proof_line = match value {
        Some(Value::Win) => win_line(&prover, pos, mover, bound.unwrap_or(0)),
        Some(Value::Draw) => draw_move(&prover, pos, mover).into_iter().collect(),
        _ => Vec::new(),
    };
    let left = time.map(|t| t.saturating_sub(t0.elapsed()));
    let depth = match value {
        Some(Value::Win) | Some(Value::Loss) => bound.unwrap_or(1).max(1),
        _ => 1,
    };
    let mut limits = vec![Limit::Depth(depth)];
    // Half of what is left for the distance, the rest for the moves' values.
    if let Some(l) = left {
        limits.push(Limit::Time((l / 2).max(Duration::from_millis(1))));
    }
    let cfg = SearchConfig {
        exact: true,
        threads,
        limits,
        all_moves: false,
        stop: stop.clone(),
        ..Default::default()
    };
    tt.clear();
    progress.stage("searching the distance", 0);
    let mut a = from_search(game, pos, &search(game, pos, oracle, &cfg, tt));
    progress.finish_stage();
    // Values of the moves the search did not prove, from the prover.
    if value.is_some() {
        let mut moves = Vec::new();
        game.legal_moves(pos, &mut moves);
        let open = a.moves.iter().filter(|m| m.value.is_none()).count() as u64;
        progress.stage("proving the moves' values", open);
        for am in a.moves.iter_mut().filter(|m| m.value.is_none()) {
            progress.advance(1);
            if time.is_some_and(|t| t0.elapsed() >= t) || stop.load(Ordering::Relaxed) {
                break;
            }
            let Some(&m) = moves.iter().find(|&&m| game.format_move(pos, m) == am.mv) else {
                continue;
            };
            let child = game.play(pos, m);
            if let (Some(v), _) = prover.value(&child, &NoProgress) {
                am.value = Some(v.flip().name());
            }
        }
        progress.finish_stage();
    }
    let name = value.map(|v| v.name());
    let searched_best = a.best.take();
    match value {
        Some(Value::Draw) => {
            a.distance = Some(0);
            summary.distance_exact = true;
        }
        Some(_) if a.value == name => summary.distance_exact = true,
        _ => a.distance = None,
    }
    if value.is_some() && a.value == name && value != Some(Value::Draw) {
        // The distance search proved the value: its move and line are optimal.
        a.best = searched_best;
    } else {
        a.best = proof_line.first().map(|&m| game.format_move(pos, m));
        a.pv = line_text(game, pos, &proof_line);
    }
    // No proof entry named a move (overwritten, or a draw proven without a
    // stored drawing child): a move the prover proved to keep the value.
    if a.best.is_none() && matches!(value, Some(Value::Win | Value::Draw)) {
        if let Some(m) = a.moves.iter().find(|m| m.value == name) {
            a.best = Some(m.mv.clone());
            a.pv = vec![m.mv.clone()];
        }
    }
    // A move named best is one whose value is the position's.
    if let (Some(best), Some(v)) = (&a.best, name) {
        if let Some(m) = a.moves.iter_mut().find(|m| &m.mv == best) {
            m.value = Some(v);
        }
    }
    a.value = name;
    order_moves(&mut a);
    a.source = if depth > 1 { "prover+search" } else { "prover" };
    a.seconds = t0.elapsed().as_secs_f64();
    a.proof = Some(summary);
    a
}

/// Moves best first by proven value (wins, draws, unknown, losses), the best
/// move first among its equals, the search's order otherwise kept.
fn order_moves(a: &mut SearchAnswer) {
    let rank = |v: Option<&str>| match v {
        Some("win") => 0,
        Some("draw") => 1,
        None => 2,
        _ => 3,
    };
    let best = a.best.clone();
    a.moves
        .sort_by_key(|m| (rank(m.value), Some(&m.mv) != best.as_ref()));
}

fn line_text<G: FullGame>(game: &G, pos: &G::Pos, line: &[G::Move]) -> Vec<String> {
    let mut p = pos.clone();
    line.iter()
        .map(|&m| {
            let s = game.format_move(&p, m);
            p = game.play(&p, m);
            s
        })
        .collect()
}

/// The proof's value of a child for `worker`'s goal side, from the proof
/// table (no search).
fn known<G: FullGame, O: Oracle<G>>(w: &mut Worker<'_, G, O>, child: &G::Pos) -> Known {
    let key = w.key(child);
    w.known(child, key)
}

/// The winner's line of a stored win proof for `side` from `pos`: at the
/// winner's turns the child with the shortest stored proof, at the loser's the
/// reply with the longest; it stops at the game's end, at an entry the table
/// no longer holds, or after `max_plies` (the proof's length) plies.
fn win_line<G: FullGame, O: Oracle<G>>(
    prover: &Prover<'_, G, O>,
    pos: &G::Pos,
    side: usize,
    max_plies: u32,
) -> Vec<G::Move> {
    let mut w = prover.worker(side, 0);
    let mut line = Vec::new();
    let mut p = pos.clone();
    let mut moves = Vec::new();
    while (line.len() as u32) < max_plies.max(1) && prover.game.outcome(&p).is_none() {
        let winner = prover.game.side_to_move(&p) == side;
        prover.game.legal_moves(&p, &mut moves);
        let mut pick: Option<(G::Move, u32)> = None;
        for &m in &moves {
            let child = prover.game.play(&p, m);
            match known(&mut w, &child) {
                Known::Win(d) => {
                    let better = pick.is_none_or(|(_, b)| if winner { d < b } else { d > b });
                    if better {
                        pick = Some((m, d));
                    }
                }
                // At the loser's turn every reply must be a stored win.
                _ if !winner => return line,
                _ => {}
            }
        }
        let Some((m, _)) = pick else { break };
        line.push(m);
        p = prover.game.play(&p, m);
    }
    line
}

/// The drawing move of a drawn `pos`: the child where the stored disproof of
/// the opponent's win goes (a final entry, not one that holds only on a path).
fn draw_move<G: FullGame, O: Oracle<G>>(
    prover: &Prover<'_, G, O>,
    pos: &G::Pos,
    mover: usize,
) -> Option<G::Move> {
    let mut w = prover.worker(1 - mover, 0);
    let mut moves = Vec::new();
    prover.game.legal_moves(pos, &mut moves);
    moves.into_iter().find(|&m| {
        let child = prover.game.play(pos, m);
        matches!(known(&mut w, &child), Known::NoWin)
    })
}
