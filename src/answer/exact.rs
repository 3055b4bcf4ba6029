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

use super::query::{answer_as_configured, ProofSummary, SearchAnswer};
use crate::game::{FullGame, Oracle, Value};
use crate::progress::NoProgress;
use crate::prove::dfpn::{ProveConfig, Prover};
use crate::prove::tt::ProofTable;
use crate::search::{Limit, SearchConfig, TransTable};
use std::time::{Duration, Instant};

/// Answers `pos` exactly: prover value, then the bounded distance search.
pub(crate) fn exact_answer<G: FullGame, O: Oracle<G>>(
    game: &G,
    pos: &G::Pos,
    oracle: &O,
    hash_mib: usize,
    threads: usize,
    time: Option<Duration>,
    tt: &TransTable,
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
            ..Default::default()
        },
    );
    let (value, runs) = prover.value(pos, &NoProgress);
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
    let left = time.map(|t| t.saturating_sub(t0.elapsed()));
    let depth = match value {
        Some(Value::Win) | Some(Value::Loss) => bound.unwrap_or(1).max(1),
        _ => 1,
    };
    let mut limits = vec![Limit::Depth(depth)];
    if let Some(l) = left {
        limits.push(Limit::Time(l.max(Duration::from_millis(1))));
    }
    let cfg = SearchConfig {
        exact: true,
        threads,
        limits,
        all_moves: false,
        ..Default::default()
    };
    tt.clear();
    let mut a = answer_as_configured(game, pos, oracle, &cfg, tt);
    // Values of the moves the search did not prove, from the prover.
    if value.is_some() {
        let mut moves = Vec::new();
        game.legal_moves(pos, &mut moves);
        for am in a.moves.iter_mut().filter(|m| m.value.is_none()) {
            let Some(&m) = moves.iter().find(|&&m| game.format_move(pos, m) == am.mv) else {
                continue;
            };
            let child = game.play(pos, m);
            if let (Some(v), _) = prover.value(&child, &NoProgress) {
                am.value = Some(v.flip().name());
            }
        }
    }
    let name = value.map(|v| v.name());
    match value {
        Some(Value::Draw) => {
            a.distance = Some(0);
            summary.distance_exact = true;
        }
        Some(_) if a.value == name => summary.distance_exact = true,
        _ => a.distance = None,
    }
    a.value = name;
    a.source = if depth > 1 { "prover+search" } else { "prover" };
    a.seconds = t0.elapsed().as_secs_f64();
    a.proof = Some(summary);
    a
}
