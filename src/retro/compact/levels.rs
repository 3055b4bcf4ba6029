//! Phase 2 of the compact solver: the levels in increasing distance. At each,
//! a chunk's losses make their undecided predecessors wins at `d + 1`, and its
//! wins have their predecessors re-checked from their moves (plain kind) or
//! taken off their counters, re-checked at zero (counted kind).

use super::{loss, state, win, Boundary, Bytes, Saver, St, CHUNK, SATURATED, UNKNOWN};
use crate::error::{Error, Result};
use crate::game::Value;
use crate::progress::{stop_requested, Progress};
use crate::retro::solver::TierAt;
use crate::retro::solver::{pred_classes, pred_edges, CheckpointReport, PredScratch};
use crate::tier::{decode, TierGame};
use rayon::prelude::*;
use std::sync::atomic::Ordering;

/// Buffers of one propagation job.
struct Job<G: TierGame> {
    pred: PredScratch<G>,
    all: Vec<u64>,
    losses: Vec<u64>,
    wins: Vec<u64>,
    moves: Vec<G::Move>,
    indices: Vec<(G::Tier, u64)>,
    /// (predecessor class, edges) of a won child ([`CompactKind::Counted`]).
    edges: Vec<(u64, u16)>,
}

impl<G: TierGame> Job<G> {
    fn new() -> Self {
        Job {
            pred: PredScratch::new(),
            all: Vec::new(),
            losses: Vec::new(),
            wins: Vec::new(),
            moves: Vec::new(),
            indices: Vec::new(),
            edges: Vec::new(),
        }
    }
}

/// Phase 2: the levels in increasing distance; returns how many held slots.
pub(super) fn propagate<G: TierGame>(
    tier_at: TierAt<G>,
    bytes: &Bytes,
    (mut from, mut levels): (u32, u32),
    mut saver: Option<Saver>,
    report: &mut CheckpointReport,
    progress: &dyn Progress,
) -> Result<u32> {
    let scanned = bytes.len as u64;
    while let Some(d) = bytes.next_level(from) {
        match saver.as_mut() {
            Some(s) => {
                let stop =
                    stop_requested() || s.config.stop_after_levels.is_some_and(|k| levels >= k);
                let at = Boundary {
                    scanned,
                    from,
                    levels,
                };
                s.boundary(bytes, at, stop, report, progress)?;
            }
            None if stop_requested() => return Err(Error::Interrupted),
            None => {}
        }
        from = d + 1;
        let chunks = bytes.chunks_at(d);
        let found: usize = chunks
            .par_iter()
            .map_init(Job::new, |job, &c| level_chunk(tier_at, bytes, c, d, job))
            .try_reduce(|| 0, |a, b| Ok(a + b))?;
        if found > 0 {
            levels += 1;
        }
        progress.advance(1);
        progress.message(&format!("distance {d}: {found} positions (compact)"));
    }
    Ok(levels)
}

/// The slots of chunk `c` at level `d`: pending wins made final, then losses
/// and wins propagated. Returns how many slots the chunk held at `d`.
fn level_chunk<G: TierGame>(
    tier_at: TierAt<G>,
    bytes: &Bytes,
    c: usize,
    d: u32,
    job: &mut Job<G>,
) -> Result<usize> {
    let (game, tier) = (tier_at.game, tier_at.tier);
    let found = level_slots(
        bytes,
        (c, d, 0),
        |i| game.may_have_unmoves(tier, i),
        |_| {},
        (&mut job.losses, &mut job.wins),
    )?;
    // Losses: every undecided predecessor wins at d + 1.
    predecessors(game, tier, &job.losses, &mut job.pred, &mut job.all);
    for &q in &job.all {
        win_if_open(bytes, q as usize, d + 1)?;
    }
    // Wins: an undecided predecessor that may lose is re-checked from its moves,
    // with counters only once they reach zero (or saturated ones).
    if bytes.counts.is_some() {
        counted_wins(tier_at, bytes, job)?;
        return Ok(found);
    }
    predecessors(game, tier, &job.wins, &mut job.pred, &mut job.all);
    let all = std::mem::take(&mut job.all);
    for &q in &all {
        if bytes.load(q as usize) != UNKNOWN {
            continue;
        }
        lose_if_lost(tier_at, bytes, q, job, false)?;
    }
    job.all = all;
    Ok(found)
}

/// The won children of a level (`job.wins`) with counters: each edge from an
/// undecided predecessor is taken off its counter, and a predecessor whose
/// counter reaches zero is re-checked for its loss distance (its every
/// in-tier child is a decided win; the exits give the longest distance).
fn counted_wins<G: TierGame>(tier_at: TierAt<G>, bytes: &Bytes, job: &mut Job<G>) -> Result<()> {
    let (game, tier) = (tier_at.game, tier_at.tier);
    let mut edges = std::mem::take(&mut job.edges);
    for k in 0..job.wins.len() {
        edges.clear();
        pred_edges(game, tier, job.wins[k], &mut job.pred, &mut edges);
        for &(q, e) in &edges {
            let i = q as usize;
            if bytes.load(i) != UNKNOWN {
                continue;
            }
            let Some(counter) = bytes.count_at(i) else {
                continue;
            };
            let e = u8::try_from(e).unwrap_or(SATURATED);
            let before = counter.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |c| {
                (c != SATURATED).then(|| c.saturating_sub(e))
            });
            match before {
                // Saturated: no count to trust, re-checked as in plain mode.
                Err(_) => lose_if_lost(tier_at, bytes, q, job, false)?,
                Ok(c) if c < e => {
                    return Err(Error::Internal(format!(
                        "compact counter of slot {q} of tier {} below its edges ({c} < {e})",
                        game.tier_name(tier)
                    )))
                }
                Ok(c) if c == e => lose_if_lost(tier_at, bytes, q, job, true)?,
                Ok(_) => {}
            }
        }
    }
    job.edges = edges;
    Ok(())
}

/// Re-checks slot `q` and makes it a loss when every move leads to a decided
/// win; `must` says its counter reached zero, so a re-check that finds an
/// undecided child is a fault of the counting.
fn lose_if_lost<G: TierGame>(
    tier_at: TierAt<G>,
    bytes: &Bytes,
    q: u64,
    job: &mut Job<G>,
    must: bool,
) -> Result<()> {
    let (game, tier) = (tier_at.game, tier_at.tier);
    match recheck(tier_at, bytes, q, &mut job.moves, &mut job.indices)? {
        Some(m) if bytes.swap(q as usize, UNKNOWN, loss(m)?) => bytes.mark(q as usize, m),
        Some(_) => {}
        None if must && bytes.load(q as usize) == UNKNOWN => {
            return Err(Error::Internal(format!(
                "slot {q} of tier {}: its counter reached zero with a child undecided",
                game.tier_name(tier)
            )))
        }
        None => {}
    }
    Ok(())
}

/// Slot `i` becomes a win at `next` unless it is decided or pending a win at
/// `next` or sooner; whether it changed. The byte of a win at `next` is made
/// only for a slot that takes it, so a tier whose longest distance is exactly
/// [`MAX_COMPACT_DISTANCE`](super::MAX_COMPACT_DISTANCE) is solved (its
/// losses at that distance have no open predecessor), and one a ply longer
/// is refused.
pub(super) fn win_if_open(bytes: &Bytes, i: usize, next: u32) -> Result<bool> {
    loop {
        let b = bytes.load(i);
        let open = match state(b) {
            St::Unknown | St::Escape => true,
            St::Pending(p) => p > next,
            _ => false,
        };
        if !open {
            return Ok(false);
        }
        if bytes.swap(i, b, win(next)?) {
            bytes.mark(i, next);
            return Ok(true);
        }
    }
}

/// The predecessor classes of `of` into `all`, sorted, each once.
pub(super) fn predecessors<G: TierGame>(
    game: &G,
    tier: G::Tier,
    of: &[u64],
    scratch: &mut PredScratch<G>,
    all: &mut Vec<u64>,
) {
    all.clear();
    for &c in of {
        pred_classes(game, tier, c, scratch, all);
    }
    all.sort_unstable();
    all.dedup();
}

/// Whether the position of slot `q` is lost: every move leads to a decided win
/// (for the child's side to move). `Some(distance)` of the loss, 1 + the longest
/// child distance; `None` while some child is not a decided win.
fn recheck<G: TierGame>(
    tier_at: TierAt<G>,
    bytes: &Bytes,
    q: u64,
    moves: &mut Vec<G::Move>,
    indices: &mut Vec<(G::Tier, u64)>,
) -> Result<Option<u32>> {
    let (game, tier, children) = (tier_at.game, tier_at.tier, tier_at.children);
    let Some(pos) = game.unrank(tier, q) else {
        return Ok(None);
    };
    game.legal_moves(&pos, moves);
    game.child_indices(tier, &pos, moves, true, indices);
    if indices.is_empty() {
        return Ok(None);
    }
    let mismatch = |what: &str| {
        Error::Internal(format!(
            "a move of {} leads to {what} (rank/unrank mismatch)",
            game.format_position(&pos)
        ))
    };
    let mut worst = 0;
    // In-tier children first: an undecided one ends the check before any exit is read.
    for &(ct, r) in indices.iter() {
        if ct != tier {
            continue;
        }
        match bytes.get(r).map(state) {
            Some(St::Win(x)) => worst = worst.max(x + 1),
            Some(St::Empty) | None => return Err(mismatch("an empty slot of its own tier")),
            Some(_) => return Ok(None),
        }
    }
    for (&(ct, r), &m) in indices.iter().zip(moves.iter()) {
        if ct == tier {
            continue;
        }
        let x = if let Some(k) = children.slot(ct) {
            match decode(children.record(k, r)) {
                Some((Value::Win, x)) => x,
                Some(_) => return Ok(None),
                None => return Err(mismatch("an empty slot of a child tier")),
            }
        } else if game.tier_is_terminal(ct) {
            match game.outcome(&game.play(&pos, m)) {
                Some(Value::Win) => 0,
                Some(_) => return Ok(None),
                None => return Err(mismatch("a non-terminal position of a terminal tier")),
            }
        } else {
            return Err(Error::Internal(format!(
                "child tier {} is not solved (needed by a move of {})",
                game.tier_name(ct),
                game.format_position(&pos)
            )));
        };
        worst = worst.max(x + 1);
    }
    Ok(Some(worst))
}

/// The slots of chunk `c` of `bytes` at level `d`, as indices of the tier
/// (`bytes` from slot `lo`): pending wins made final (each reported to
/// `changed`, by its index in `bytes`; only the job of its chunk writes a
/// pending byte at its own level), then the losses and the wins that may have
/// predecessors (`keep`) into the two lists. Returns how many they are.
pub(super) fn level_slots(
    bytes: &Bytes,
    (c, d, lo): (usize, u32, usize),
    keep: impl Fn(u64) -> bool,
    changed: impl Fn(usize),
    (losses, wins): (&mut Vec<u64>, &mut Vec<u64>),
) -> Result<usize> {
    let (start, end) = (c * CHUNK, ((c + 1) * CHUNK).min(bytes.len));
    losses.clear();
    wins.clear();
    let win_d = win(d)?;
    for i in start..end {
        let to = match state(bytes.load(i)) {
            St::Loss(x) if x == d => &mut *losses,
            St::Win(x) if x == d => &mut *wins,
            St::Pending(x) if x == d => {
                // Nothing faster came: the exit's win is final.
                bytes.at(i).store(win_d, Ordering::Relaxed);
                changed(i);
                &mut *wins
            }
            _ => continue,
        };
        let g = (lo + i) as u64;
        if keep(g) {
            to.push(g);
        }
    }
    Ok(losses.len() + wins.len())
}
