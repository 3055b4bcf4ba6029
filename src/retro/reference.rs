//! The previous per-tier retrograde solver (commit f002e8a; its algorithm unchanged;
//! its own predecessor enumeration from [`TierGame::unmoves`] and
//! [`TierGame::rank_orbit`], one un-move at a time, independent of the current
//! solver's [`TierGame::pred_ranks`]), kept as
//! the baseline of `huntsolve bench --retro` (speed ratios measured in one run)
//! and as a second implementation the tests compare [`super::solver::solve_tier`]
//! with: their records must be identical, since retrograde values and distances
//! are a function of the game graph, not of the algorithm.
//!
//! Phases: every slot is scanned (terminal, exits resolved from child tiers,
//! in-tier moves counted); then propagation by distance from *every* decided
//! slot through [`TierGame::unmoves`] (losses make predecessors wins, wins
//! decrement predecessors' counters); what is left is a draw. State lives in
//! three arrays (record, counter, flags: 6 bytes a slot).

use super::kernel::{
    check_distance, class_edges, final_records, settled_aux, Exits, Scanned, AUX_ESCAPE, AUX_LOSS,
};
use super::solver::{ChildValues, TierResult};
use crate::error::{Error, Result};
use crate::game::Value;
use crate::progress::{stop_requested, Progress};
use crate::tier::{decode, encode, TierGame, REC_DRAW, REC_NONE};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU16, Ordering};
use std::time::Instant;

/// Tiers below this many slots are solved as one job (no rayon splitting):
/// the overhead of splitting would exceed the work.
const SMALL_TIER: usize = 1 << 14;
/// Minimum number of slots per rayon job in large tiers.
const MIN_JOB: usize = 1 << 10;

/// Shared state of one tier during solving.
struct Work<'a, G: TierGame> {
    game: &'a G,
    tier: G::Tier,
    rec: Vec<AtomicU16>,
    cnt: Vec<AtomicU16>,
    aux: Vec<u16>,
}

impl<G: TierGame> Work<'_, G> {
    fn scan_slot(
        &self,
        index: u64,
        children: &ChildValues<G::Tier>,
        moves: &mut Vec<G::Move>,
    ) -> Result<Option<Scanned>> {
        let game = self.game;
        let Some(pos) = game.unrank(self.tier, index) else {
            return Ok(None);
        };
        if let Some(v) = game.outcome(&pos) {
            return Ok(Some(Scanned::Final(encode(v, 0))));
        }
        game.legal_moves(&pos, moves);
        let (mut inner, mut exits) = (0u32, Exits::default());
        for &m in moves.iter() {
            let child = game.play(&pos, m);
            let ct = game.tier_of(&child);
            if ct == self.tier {
                inner += 1;
                continue;
            }
            // A terminal tier is not stored: its positions' values are their outcomes
            // (asked only when the child tier is not loaded, off the common path).
            let value = if !children.has(ct) && game.tier_is_terminal(ct) {
                let v = game.outcome(&child).ok_or_else(|| {
                    Error::Internal(format!(
                        "position {} lies in terminal tier {} but is not terminal",
                        game.format_position(&child),
                        game.tier_name(ct)
                    ))
                })?;
                (v, 0)
            } else {
                children.probe(game, ct, &child)?
            };
            exits.add(value.0, value.1);
        }
        exits.scanned(game, &pos, inner).map(Some)
    }
}

/// Solves one tier whose child tiers are solved (their records in `children`).
///
/// Runs on the current rayon pool; tiers below a few thousand slots run as one job.
/// Returns [`Error::Interrupted`] when a stop is requested.
pub(crate) fn solve_tier_reference<G: TierGame>(
    game: &G,
    tier: G::Tier,
    children: &ChildValues<G::Tier>,
    progress: &dyn Progress,
) -> Result<TierResult> {
    let started = Instant::now();
    let size = game.tier_size(tier);
    if size >= u32::MAX as u64 {
        return Err(Error::Memory(format!(
            "tier {} has {size} slots; the solver indexes at most 2^32 - 1",
            game.tier_name(tier)
        )));
    }
    let n = size as usize;
    let min_len = if n < SMALL_TIER { n.max(1) } else { MIN_JOB };
    let name = game.tier_name(tier);

    // Phase 1: scan.
    progress.stage_in(&format!("{name} scan"), size, "slots");
    let mut work = Work {
        game,
        tier,
        rec: (0..n).map(|_| AtomicU16::new(REC_NONE)).collect(),
        cnt: (0..n).map(|_| AtomicU16::new(0)).collect(),
        aux: Vec::new(),
    };
    let buckets = work.scan(children, progress)?;
    progress.finish_stage();

    // Phase 2: propagation by distance.
    progress.stage_in(&format!("{name} propagate"), 0, "levels");
    let levels = work.propagate(buckets, min_len, progress)?;
    progress.finish_stage();

    // Phase 3: what is left is a draw.
    let records = work.into_records(min_len);
    Ok(TierResult::of(records, levels, started))
}

/// Slots waiting for propagation, by distance.
type Buckets = BTreeMap<u32, Vec<u32>>;

impl<G: TierGame> Work<'_, G> {
    /// Phase 1: scans every slot, storing final records, counters and aux
    /// bits. Returns the frontier: decided slots and pending exit wins.
    fn scan(
        &mut self,
        children: &ChildValues<G::Tier>,
        progress: &dyn Progress,
    ) -> Result<Buckets> {
        let n = self.rec.len();
        let chunk = if n < SMALL_TIER { n.max(1) } else { 1 << 12 };
        let mut aux = vec![0u16; n];
        let work: &Self = self;
        // Each chunk returns its frontier entries (distance, index), merged in chunk order.
        let found: Vec<Result<Vec<(u32, u32)>>> = aux
            .par_chunks_mut(chunk)
            .enumerate()
            .map(|(ci, aux_chunk)| {
                if stop_requested() {
                    return Err(Error::Interrupted);
                }
                let mut moves = Vec::new();
                let mut out = Vec::new();
                let base = ci * chunk;
                for (k, a) in aux_chunk.iter_mut().enumerate() {
                    let i = base + k;
                    match work.scan_slot(i as u64, children, &mut moves)? {
                        None => {}
                        Some(Scanned::Final(r)) => {
                            work.rec[i].store(r, Ordering::Relaxed);
                            if r != REC_DRAW {
                                out.push((decode(r).map_or(0, |x| x.1), i as u32));
                            }
                        }
                        Some(Scanned::Inner(c, exits)) => {
                            let (c, bits) = exits.aux(c).ok_or_else(|| {
                                Error::Internal(format!(
                                    "slot {i} of tier {}: more than 65535 in-tier moves",
                                    work.game.tier_name(work.tier)
                                ))
                            })?;
                            work.cnt[i].store(c, Ordering::Relaxed);
                            *a = bits;
                            if let Some(w) = exits.win {
                                out.push((w, i as u32));
                            }
                        }
                    }
                }
                progress.advance(aux_chunk.len() as u64);
                Ok(out)
            })
            .collect();
        self.aux = aux;
        let mut buckets = Buckets::new();
        for part in found {
            for (d, i) in part? {
                buckets.entry(d).or_default().push(i);
            }
        }
        Ok(buckets)
    }

    /// Phase 2: propagation by distance from every decided slot. Returns the
    /// number of levels.
    fn propagate(
        &self,
        mut buckets: Buckets,
        min_len: usize,
        progress: &dyn Progress,
    ) -> Result<u32> {
        let mut levels = 0u32;
        while let Some((d, mut frontier)) = buckets.pop_first() {
            if stop_requested() {
                return Err(Error::Interrupted);
            }
            levels += 1;
            let rec = &self.rec;
            // Pending exit wins not beaten by a faster in-tier win become final now.
            frontier.sort_unstable();
            frontier.dedup();
            for &i in &frontier {
                let _ = rec[i as usize].compare_exchange(
                    REC_NONE,
                    encode(Value::Win, d),
                    Ordering::Relaxed,
                    Ordering::Relaxed,
                );
            }
            let (mut losses, mut wins) = (Vec::new(), Vec::new());
            for &i in &frontier {
                match decode(rec[i as usize].load(Ordering::Relaxed)) {
                    Some((Value::Loss, x)) if x == d => losses.push(i),
                    Some((Value::Win, x)) if x == d => wins.push(i),
                    _ => {} // superseded pending entry
                }
            }
            let next = check_distance(d + 1)?;
            // Losses first: their predecessors are wins at d + 1.
            let new_wins = self.loss_phase(&losses, next, min_len);
            if !new_wins.is_empty() {
                buckets.entry(next).or_default().extend(new_wins);
            }
            // Then wins: decrement predecessors; zero without escape is a loss.
            for (l, q) in self.win_phase(&wins, next, min_len) {
                buckets.entry(l).or_default().push(q);
            }
            progress.advance(1);
            progress.message(&format!("distance {d}"));
        }
        Ok(levels)
    }

    /// The undecided predecessors of `losses` become wins at `next`; returns them.
    fn loss_phase(&self, losses: &[u32], next: u32, min_len: usize) -> Vec<u32> {
        let (game, tier, rec) = (self.game, self.tier, &self.rec);
        losses
            .par_iter()
            .with_min_len(min_len.min(256))
            .map_init(
                || (Vec::new(), Vec::new()),
                |(buf, preds), &c| {
                    let mut out = Vec::new();
                    pred_classes(game, tier, c as u64, buf, preds);
                    for &q in preds.iter() {
                        if rec[q as usize]
                            .compare_exchange(
                                REC_NONE,
                                encode(Value::Win, next),
                                Ordering::Relaxed,
                                Ordering::Relaxed,
                            )
                            .is_ok()
                        {
                            out.push(q as u32);
                        }
                    }
                    out
                },
            )
            .flatten_iter()
            .collect()
    }

    /// The counters of the undecided predecessors of `wins` lose their edges
    /// to them; one at zero without an escape is a loss (at `next` or its
    /// worst exit loss). Returns the new losses: (distance, slot).
    fn win_phase(&self, wins: &[u32], next: u32, min_len: usize) -> Vec<(u32, u32)> {
        let (game, tier, rec) = (self.game, self.tier, &self.rec);
        wins.par_iter()
            .with_min_len(min_len.min(256))
            .map_init(
                || (Vec::new(), Vec::new(), Vec::new(), Vec::new()),
                |(buf, classes, moves, preds), &c| {
                    let mut out = Vec::new();
                    pred_edges(game, tier, c as u64, buf, classes, moves, preds);
                    for &(q, e) in preds.iter() {
                        let qi = q as usize;
                        if rec[qi].load(Ordering::Relaxed) != REC_NONE {
                            continue;
                        }
                        let old = self.cnt[qi].fetch_sub(e, Ordering::Relaxed);
                        debug_assert!(old >= e, "counter underflow");
                        let aux = self.aux[qi];
                        if old == e && aux & AUX_ESCAPE == 0 {
                            let l = next.max((aux & AUX_LOSS) as u32);
                            rec[qi].store(encode(Value::Loss, l), Ordering::Relaxed);
                            out.push((l, q as u32));
                        }
                    }
                    out
                },
            )
            .flatten_iter()
            .collect()
    }

    /// Phase 3: the records, an in-tier slot still undecided being a draw.
    fn into_records(self, min_len: usize) -> Vec<u16> {
        let (rec, aux) = (&self.rec, &self.aux);
        final_records(0..rec.len(), min_len, |i| {
            settled_aux(rec[i].load(Ordering::Relaxed), aux[i])
        })
    }
}

/// Distinct predecessor classes of the class `child` (its representative's un-moves).
fn pred_classes<G: TierGame>(
    game: &G,
    tier: G::Tier,
    child: u64,
    buf: &mut Vec<G::Pos>,
    out: &mut Vec<u64>,
) {
    out.clear();
    let Some(rep) = game.unrank(tier, child) else {
        return;
    };
    game.unmoves(&rep, buf);
    out.extend(
        buf.iter()
            .filter(|p| game.tier_of(p) == tier)
            .map(|p| game.rank(tier, p)),
    );
    out.sort_unstable();
    out.dedup();
}

/// Predecessor classes of the class `child` with the number of in-tier
/// moves of each predecessor's representative that land in class `child`
/// (the edges a decided `child` removes from the predecessor's counter).
///
/// Fast path (the game reports stabiliser orders, see
/// [`TierGame::rank_orbit`]): from the un-moves alone, `u · |Stab(q)| /
/// |Stab(c)|`. Otherwise the moves of every predecessor's representative
/// are regenerated and counted.
fn pred_edges<G: TierGame>(
    game: &G,
    tier: G::Tier,
    child: u64,
    buf: &mut Vec<G::Pos>,
    classes: &mut Vec<(u64, Option<u32>)>,
    moves: &mut Vec<G::Move>,
    out: &mut Vec<(u64, u16)>,
) {
    out.clear();
    let Some(rep) = game.unrank(tier, child) else {
        return;
    };
    let (_, stab_c) = game.rank_orbit(tier, &rep);
    game.unmoves(&rep, buf);
    classes.clear();
    classes.extend(
        buf.iter()
            .filter(|p| game.tier_of(p) == tier)
            .map(|p| game.rank_orbit(tier, p)),
    );
    class_edges(game, tier, child, stab_c, classes, moves, out);
}
