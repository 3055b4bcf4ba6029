//! Propagation of the full solver by distance: the scan's share of a level, deciding and decrementing words, the levels.

use super::{
    check_distance, pred_classes, pred_edges, swept_at, CheckpointReport, PredScratch, Saver,
    ScanLevels, Slot, Words, CHUNK, CNT_MAX, CNT_SHIFT, DIST, E, LATE, LEVEL_BATCH, MIN_LEVEL_JOB,
    SEG_BITS, SWEPT, U,
};
use crate::error::{Error, Result};
use crate::game::Value;
use crate::progress::{stop_requested, Progress};
use crate::retro::checkpoint::{self};
use crate::tier::{decode, encode, TierGame};
use rayon::prelude::*;
use std::collections::btree_map::Entry;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Instant;

/// The scan's share of level `d`: every slot [`swept_at`] `d`, in increasing
/// order, from the segments that have some; each is cleared of [`SWEPT`] (a
/// decided slot is propagated once).
fn sweep_level<S: Slot>(words: &Words, scan: &ScanLevels, d: u32) -> Vec<S> {
    let parts: Vec<Vec<S>> = scan
        .segments(d)
        .into_par_iter()
        .flat_map_iter(|seg| {
            let base = seg << SEG_BITS;
            let len = words.segs.get(seg).map_or(0, Vec::len);
            (0..len.div_ceil(CHUNK)).map(move |c| (base, c * CHUNK, ((c + 1) * CHUNK).min(len)))
        })
        .map(|(base, from, to)| {
            let mut out = Vec::new();
            for k in from..to {
                let i = base + k;
                let w = words.load(i);
                if swept_at(w, d) {
                    if w & U == 0 {
                        words.store(i, w & !SWEPT);
                    }
                    out.push(S::of(i as u64));
                }
            }
            out
        })
        .collect();
    parts.concat()
}

/// Sets an undecided word to a decided record; `false` if it was decided already.
fn decide(word: &AtomicU32, record: u16) -> bool {
    let mut cur = word.load(Ordering::Relaxed);
    loop {
        if cur & U == 0 {
            return false;
        }
        match word.compare_exchange_weak(
            cur,
            LATE | u32::from(record),
            Ordering::Relaxed,
            Ordering::Relaxed,
        ) {
            Ok(_) => return true,
            Err(now) => cur = now,
        }
    }
}

/// Removes `e` in-tier moves from an undecided word; returns the loss record
/// it was decided with when its counter reaches zero without an escape.
fn decrement(word: &AtomicU32, e: u32, next: u32) -> Option<u16> {
    let mut cur = word.load(Ordering::Relaxed);
    loop {
        if cur & U == 0 {
            return None;
        }
        let count = cur >> CNT_SHIFT & CNT_MAX;
        debug_assert!(count >= e, "counter underflow");
        let left = count.saturating_sub(e);
        let (new, loss) = if left == 0 && cur & E == 0 {
            let r = encode(Value::Loss, next.max(cur & DIST));
            (LATE | u32::from(r), Some(r))
        } else {
            (cur & !(CNT_MAX << CNT_SHIFT) | left << CNT_SHIFT, None)
        };
        match word.compare_exchange_weak(cur, new, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return loss,
            Err(now) => cur = now,
        }
    }
}

/// Phase 2: processes the frontier level by level from `(from, levels)` (the
/// next distance, the levels done); returns the number of levels.
///
/// At each level boundary, with a `saver`, a checkpoint is written when one is
/// due, and on a stop request when the state changed since the last one.
#[allow(clippy::too_many_arguments)]
pub(super) fn propagate<G: TierGame, S: Slot>(
    game: &G,
    tier: G::Tier,
    words: &Words,
    scan: &ScanLevels,
    buckets: &mut BTreeMap<u32, Vec<S>>,
    (mut from, mut levels): (u32, u32),
    mut saver: Option<Saver>,
    report: &mut CheckpointReport,
    progress: &dyn Progress,
) -> Result<u32> {
    loop {
        let listed = buckets.first_key_value().map(|(&d, _)| d);
        let swept = scan.next_from(from);
        let Some(d) = listed.into_iter().chain(swept).min() else {
            break;
        };
        let stop = stop_requested()
            || saver
                .as_ref()
                .and_then(|s| s.config.stop_after_levels)
                .is_some_and(|k| levels >= k);
        if let Some(s) = saver.as_mut() {
            let due = s.last.elapsed() >= s.config.every;
            if s.dirty && (due || stop) {
                let t = Instant::now();
                report.bytes =
                    checkpoint::write(&s.config.path, s.id, words, scan, buckets, from, levels)?;
                report.written += 1;
                report.write_seconds += t.elapsed().as_secs_f64();
                s.last = Instant::now();
                s.dirty = false;
            }
        }
        if stop {
            return Err(Error::Interrupted);
        }
        if let Some(s) = saver.as_mut() {
            s.dirty = true;
        }
        from = d + 1;
        let mut frontier = buckets.remove(&d).unwrap_or_default();
        if swept == Some(d) {
            frontier.extend(sweep_level::<S>(words, scan, d));
        }
        if frontier.is_empty() {
            continue;
        }
        levels += 1;
        // Pending wins not beaten by a faster in-tier win become final now.
        frontier.par_sort_unstable();
        frontier.dedup();
        let (losses, wins) = level_slots(game, tier, words, frontier, d)?;
        let next = check_distance(d + 1)?;
        let (new_wins, new_losses): (Vec<S>, Vec<(u32, S)>) =
            level_predecessors(game, tier, words, (&losses, &wins), next);
        // Most new losses are at `next` too: one bucket lookup for those.
        let mut at_next = new_wins;
        for (l, q) in new_losses {
            if l == next {
                at_next.push(q);
            } else {
                buckets.entry(l).or_default().push(q);
            }
        }
        if !at_next.is_empty() {
            match buckets.entry(next) {
                Entry::Vacant(e) => {
                    e.insert(at_next);
                }
                Entry::Occupied(mut e) => e.get_mut().extend(at_next),
            }
        }
        progress.advance(1);
        progress.message(&format!("distance {d}"));
    }
    Ok(levels)
}

/// The slots of level `d` (`frontier`, sorted and each once) that have
/// predecessors, as (losses, wins); a pending win not beaten by a faster
/// in-tier win becomes final here.
fn level_slots<G: TierGame, S: Slot>(
    game: &G,
    tier: G::Tier,
    words: &Words,
    frontier: Vec<S>,
    d: u32,
) -> Result<(Vec<u64>, Vec<u64>)> {
    let win_d = encode(Value::Win, check_distance(d)?);
    // In parallel (each slot is listed once after the dedup): on a movement
    // tier most slots pass through here, and a serial pass kept 2 threads
    // below 1.8 times 1.
    let parts: Vec<(Vec<u64>, Vec<u64>)> = frontier
        .par_chunks(CHUNK)
        .map(|part| {
            let (mut losses, mut wins) = (Vec::new(), Vec::new());
            for &i in part {
                let i = i.get() as usize;
                let w = words.load(i);
                let w = if w & U != 0 {
                    decide(words.at(i), win_d);
                    words.load(i)
                } else {
                    w
                };
                if !game.may_have_unmoves(tier, i as u64) {
                    continue;
                }
                match decode(w as u16) {
                    Some((Value::Loss, x)) if x == d => losses.push(i as u64),
                    Some((Value::Win, x)) if x == d => wins.push(i as u64),
                    _ => {} // superseded pending entry
                }
            }
            (losses, wins)
        })
        .collect();
    drop(frontier);
    let (mut losses, mut wins) = (Vec::new(), Vec::new());
    for (l, w) in parts {
        losses.extend(l);
        wins.extend(w);
    }
    Ok((losses, wins))
}

/// The predecessors of a level's losses made wins at `next` (returned), then
/// the predecessors of its wins decremented, those reaching zero without an
/// escape returned as losses with their distance.
fn level_predecessors<G: TierGame, S: Slot>(
    game: &G,
    tier: G::Tier,
    words: &Words,
    (losses, wins): (&[u64], &[u64]),
    next: u32,
) -> (Vec<S>, Vec<(u32, S)>) {
    let win_next = encode(Value::Win, next);
    let jobs = |len: usize| (MIN_LEVEL_JOB / LEVEL_BATCH).max(len / (LEVEL_BATCH * 64));
    // Losses first: their predecessors are wins at d + 1.
    let new_wins: Vec<S> = losses
        .par_chunks(LEVEL_BATCH)
        .with_min_len(jobs(losses.len()))
        .map_init(
            || (PredScratch::new(), Vec::new()),
            |(scratch, all), batch| {
                all.clear();
                for &c in batch {
                    pred_classes(game, tier, c, scratch, all);
                }
                all.retain(|&q| words.load(q as usize) & U != 0);
                all.iter()
                    .filter(|&&q| decide(words.at(q as usize), win_next))
                    .map(|&q| S::of(q))
                    .collect::<Vec<S>>()
            },
        )
        .flatten_iter()
        .collect();
    // Then wins: decrement predecessors; zero without escape is a loss.
    let new_losses: Vec<(u32, S)> = wins
        .par_chunks(LEVEL_BATCH)
        .with_min_len(jobs(wins.len()))
        .map_init(
            || (PredScratch::new(), Vec::new()),
            |(scratch, all), batch| {
                all.clear();
                for &c in batch {
                    pred_edges(game, tier, c, scratch, all);
                }
                all.retain(|&(q, _)| words.load(q as usize) & U != 0);
                all.iter()
                    .filter_map(|&(q, e)| {
                        decrement(words.at(q as usize), u32::from(e), next)
                            .map(|r| (decode(r).map_or(next, |x| x.1), S::of(q)))
                    })
                    .collect::<Vec<(u32, S)>>()
            },
        )
        .flatten_iter()
        .collect();
    (new_wins, new_losses)
}
