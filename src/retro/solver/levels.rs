//! Propagation of the full solver by distance: the scan's share of a level, deciding and decrementing words, the levels.

use super::{
    check_distance, pred_classes, pred_edges, swept_distance, CheckpointReport, PredScratch, Saver,
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

/// The chunks (`from..to`, slot numbers) of the segments `segs` of the words.
fn chunks_of(words: &Words, segs: Vec<usize>) -> Vec<(usize, usize)> {
    segs.into_iter()
        .flat_map(|seg| {
            let base = seg << SEG_BITS;
            let len = words.segs.get(seg).map_or(0, Vec::len);
            (0..len.div_ceil(CHUNK))
                .map(move |c| (base + c * CHUNK, base + ((c + 1) * CHUNK).min(len)))
        })
        .collect()
}

/// The fewest slots past its own level a sweep may collect; otherwise a
/// sixty-fourth of the tier's slots, which the sweep holds as (distance, slot)
/// pairs of at most 16 bytes and then in the levels' lists (8): at most 3/8 of
/// a byte a slot beside the words' 4. Tiny in the crate's tests, so that their
/// small tiers sweep in several windows.
const MIN_BUDGET: u64 = if cfg!(test) { 8 } else { 1 << 16 };

/// Distances from this one on share a bit of [`ScanLevels`]: swept one at a time.
const SHARED: u32 = 255;

/// How many of the scan's slots each distance at or above `from` holds
/// ([`swept_distance`]; an upper bound for what a sweep finds later, as a pending
/// win may be decided sooner), distances past [`SHARED`] counted at it. One pass
/// over the segments that have some.
fn level_counts(words: &Words, scan: &ScanLevels, from: u32) -> Vec<u64> {
    let width = SHARED as usize + 1;
    chunks_of(words, scan.segments(from.min(SHARED), SHARED + 1))
        .into_par_iter()
        .fold(
            || vec![0u64; width],
            |mut counts, (a, b)| {
                for i in a..b {
                    if let Some(x) = swept_distance(words.load(i)).filter(|&x| x >= from) {
                        counts[x.min(SHARED) as usize] += 1;
                    }
                }
                counts
            },
        )
        .reduce(
            || vec![0u64; width],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        )
}

/// The end (exclusive) of the distances one sweep from `d` collects: as many
/// as `counts` says fit `budget` slots past level `d` itself (at least `d + 1`).
fn window_end(counts: &[u64], d: u32, budget: u64) -> u32 {
    let mut hi = d + 1;
    let mut extra = 0;
    while hi < SHARED && extra + counts[hi as usize] <= budget {
        extra += counts[hi as usize];
        hi += 1;
    }
    hi
}

/// Slots at one distance, then slots at later distances as (distance, slot): a
/// chunk's swept slots (its first level's, then the later levels'), a batch's
/// decided predecessors (at the next distance, then the later losses).
type ByLevel<S> = (Vec<S>, Vec<(u32, S)>);

/// The scan's share of levels `d..hi`: every slot whose [`swept_distance`] is
/// in that range, from the segments that have some, one list a level (level
/// `d`'s first); each is cleared of [`SWEPT`] (a decided slot is propagated
/// once).
///
/// One sweep serves several levels: a tier whose scan leaves slots at many
/// distances (diviyan-keliya's chains: the exits' distances spread) swept the
/// whole tier once per level.
fn sweep_levels<S: Slot>(words: &Words, scan: &ScanLevels, d: u32, hi: u32) -> Vec<Vec<S>> {
    let parts: Vec<ByLevel<S>> = chunks_of(words, scan.segments(d, hi))
        .into_par_iter()
        .map(|(a, b)| {
            let (mut level, mut later) = (Vec::new(), Vec::new());
            for i in a..b {
                let w = words.load(i);
                let Some(x) = swept_distance(w).filter(|x| (d..hi).contains(x)) else {
                    continue;
                };
                if w & U == 0 {
                    words.store(i, w & !SWEPT);
                }
                if x == d {
                    level.push(S::of(i as u64));
                } else {
                    later.push((x, S::of(i as u64)));
                }
            }
            (level, later)
        })
        .collect();
    // Each chunk's lists are freed once distributed.
    let mut levels: Vec<Vec<S>> = (d..hi).map(|_| Vec::new()).collect();
    for (level, later) in parts {
        levels[0].extend(level);
        for (x, q) in later {
            levels[(x - d) as usize].push(q);
        }
    }
    levels
}

/// The lists of `parts` in one list, allocated once at its length and each
/// part freed as it is copied: at most one part beyond the result is held
/// (collecting a parallel iterator of items held the items twice, and a list
/// grown by doubling up to twice its length; with a level of 500 M slots that
/// was gigabytes past the plan).
fn concat<T>(parts: Vec<Vec<T>>) -> Vec<T> {
    let mut out = Vec::with_capacity(parts.iter().map(Vec::len).sum());
    for p in parts {
        out.extend(p);
    }
    out
}

/// Adds `slots` to the listed frontier at distance `d` (moved in whole when the
/// level has no list yet; nothing for an empty list).
fn file_level<S>(buckets: &mut BTreeMap<u32, Vec<S>>, d: u32, slots: Vec<S>) {
    if slots.is_empty() {
        return;
    }
    match buckets.entry(d) {
        Entry::Vacant(e) => {
            e.insert(slots);
        }
        Entry::Occupied(mut e) => e.get_mut().extend(slots),
    }
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
    // Levels below `swept_to` have had their sweep; `counts` is taken at the first.
    let mut swept_to = 0;
    let mut counts: Option<Vec<u64>> = None;
    let budget = (words.len as u64 / 64).max(MIN_BUDGET);
    loop {
        let listed = buckets.first_key_value().map(|(&d, _)| d);
        let swept = scan.next_from(from.max(swept_to));
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
            let counts = counts.get_or_insert_with(|| level_counts(words, scan, d));
            let hi = if d < SHARED {
                window_end(counts, d, budget)
            } else {
                d + 1
            };
            let mut found = sweep_levels::<S>(words, scan, d, hi).into_iter();
            frontier.extend(found.next().unwrap_or_default());
            for (x, slots) in (d + 1..).zip(found) {
                file_level(buckets, x, slots);
            }
            swept_to = hi;
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
        let (at_next, later) = level_predecessors(game, tier, words, (&losses, &wins), next);
        drop((losses, wins));
        file_level(buckets, next, at_next);
        for (l, q) in later {
            buckets.entry(l).or_default().push(q);
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
) -> Result<(Vec<S>, Vec<S>)> {
    let win_d = encode(Value::Win, check_distance(d)?);
    // In parallel (each slot is listed once after the dedup): on a movement
    // tier most slots pass through here, and a serial pass kept 2 threads
    // below 1.8 times 1.
    // Entries of the frontier's width (`S`: 4 bytes in tiers below 2^32
    // slots): a movement tier's early levels hold most of its slots, and 8-byte
    // entries here took Caikabōraḍa's a4d1 (2.6 G slots) 5 GiB past its plan.
    let parts: Vec<(Vec<S>, Vec<S>)> = frontier
        .par_chunks(CHUNK)
        .map(|part| {
            let (mut losses, mut wins) = (Vec::new(), Vec::new());
            for &slot in part {
                let i = slot.get() as usize;
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
                    Some((Value::Loss, x)) if x == d => losses.push(slot),
                    Some((Value::Win, x)) if x == d => wins.push(slot),
                    _ => {} // superseded pending entry
                }
            }
            (losses, wins)
        })
        .collect();
    drop(frontier);
    let (losses, wins): (Vec<Vec<S>>, Vec<Vec<S>>) = parts.into_iter().unzip();
    Ok((concat(losses), concat(wins)))
}

/// The predecessors of a level's losses made wins at `next`, then the
/// predecessors of its wins decremented, those reaching zero without an
/// escape made losses. Returns the slots decided at `next` (wins and losses),
/// and the losses at a later distance with it (a pending win's own distance).
fn level_predecessors<G: TierGame, S: Slot>(
    game: &G,
    tier: G::Tier,
    words: &Words,
    (losses, wins): (&[S], &[S]),
    next: u32,
) -> ByLevel<S> {
    let win_next = encode(Value::Win, next);
    let jobs = |len: usize| (MIN_LEVEL_JOB / LEVEL_BATCH).max(len / (LEVEL_BATCH * 64));
    // Losses first: their predecessors are wins at d + 1.
    let new_wins: Vec<Vec<S>> = losses
        .par_chunks(LEVEL_BATCH)
        .with_min_len(jobs(losses.len()))
        .map_init(
            || (PredScratch::new(), Vec::new()),
            |(scratch, all), batch| {
                all.clear();
                for &c in batch {
                    pred_classes(game, tier, c.get(), scratch, all);
                }
                all.retain(|&q| words.load(q as usize) & U != 0);
                all.iter()
                    .filter(|&&q| decide(words.at(q as usize), win_next))
                    .map(|&q| S::of(q))
                    .collect::<Vec<S>>()
            },
        )
        .collect::<Vec<Vec<S>>>();
    // Then wins: decrement predecessors; zero without escape is a loss, most
    // at `next` (listed as slots alone, 4 bytes below 2^32 slots).
    let new_losses: Vec<ByLevel<S>> = wins
        .par_chunks(LEVEL_BATCH)
        .with_min_len(jobs(wins.len()))
        .map_init(
            || (PredScratch::new(), Vec::new()),
            |(scratch, all), batch| {
                all.clear();
                for &c in batch {
                    pred_edges(game, tier, c.get(), scratch, all);
                }
                all.retain(|&(q, _)| words.load(q as usize) & U != 0);
                let (mut at_next, mut later) = (Vec::new(), Vec::new());
                for &(q, e) in all.iter() {
                    if let Some(r) = decrement(words.at(q as usize), u32::from(e), next) {
                        match decode(r).map_or(next, |x| x.1) {
                            l if l == next => at_next.push(S::of(q)),
                            l => later.push((l, S::of(q))),
                        }
                    }
                }
                (at_next, later)
            },
        )
        .collect();
    let mut parts = new_wins;
    let mut later = Vec::new();
    for (at_next, l) in new_losses {
        parts.push(at_next);
        later.extend(l);
    }
    (concat(parts), later)
}

#[cfg(test)]
mod tests {
    use super::super::{CNT_SHIFT, W};
    use super::*;
    use crate::tier::encode;

    /// Words of a tier with scan slots at known distances: pending wins (still
    /// undecided) and records the second sweep decided.
    fn words_with(n: usize, slots: &[(usize, u32, bool)]) -> (Words, ScanLevels) {
        let words = Words::new(n, "test").unwrap();
        let mut scan = ScanLevels::default();
        for &(i, d, pending) in slots {
            let w = if pending {
                U | E | W | (1 << CNT_SHIFT) | d
            } else {
                LATE | SWEPT | u32::from(encode(Value::Loss, d))
            };
            words.store(i, w);
            scan.add(i, d);
        }
        (words, scan)
    }

    #[test]
    fn one_sweep_collects_a_window_of_levels_and_each_decided_slot_once() {
        let slots = [
            (3, 2, true),
            (9, 2, false),
            (1, 3, false),
            (20, 3, true),
            (7, 4, false),
            (5, 6, true),
            (30, 9, false),
        ];
        let (words, scan) = words_with(40, &slots);
        let counts = level_counts(&words, &scan, 3);
        assert_eq!(&counts[..10], &[0, 0, 0, 2, 1, 0, 1, 0, 0, 1]);
        // From 2: levels 3, 4 and the empty 5 fit a budget of 3 (level 2 itself is
        // not counted), level 6 does not.
        assert_eq!(window_end(&counts, 2, 3), 6);
        assert_eq!(window_end(&counts, 2, 0), 3);
        assert_eq!(window_end(&counts, 2, 100), SHARED);
        let found = sweep_levels::<u32>(&words, &scan, 2, 5);
        assert_eq!(found, vec![vec![3, 9], vec![1, 20], vec![7]]);
        // Decided slots lose SWEPT (propagated once), pending wins stay undecided.
        assert_eq!(swept_distance(words.load(9)), None);
        assert_eq!(swept_distance(words.load(3)), Some(2));
        let found = sweep_levels::<u32>(&words, &scan, 2, 7);
        assert_eq!(found, vec![vec![3], vec![20], vec![], vec![], vec![5]]);
    }
}
