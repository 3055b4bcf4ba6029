//! Propagation of the full solver by distance: the scan's share of a level, deciding and decrementing words, the levels.

use super::checkpoint;
use super::{
    check_distance, pred_classes, pred_edges, swept_distance, CheckpointReport, ListReport,
    PredScratch, Saver, ScanLevels, Slot, Words, CHUNK, CNT_MAX, CNT_SHIFT, DIST, E, LATE,
    LEVEL_BATCH, MIN_LEVEL_JOB, SEG_BITS, SPILL, SWEPT, U, W,
};
use crate::error::{Error, Result};
use crate::game::Value;
use crate::progress::{stop_requested, Progress};
use crate::tier::{decode, encode, TierGame};
use rayon::prelude::*;
use std::collections::btree_map::Entry;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicI64, AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// The chunks (`from..to`, slot numbers) of the segments `segs` of the words,
/// within the slots `range`.
fn chunks_in(
    words: &Words,
    segs: Vec<usize>,
    range: std::ops::Range<usize>,
) -> Vec<(usize, usize)> {
    segs.into_iter()
        .flat_map(|seg| {
            let base = seg << SEG_BITS;
            let len = words.segs.get(seg).map_or(0, Vec::len);
            let (a, b) = (base.max(range.start), (base + len).min(range.end));
            (a..b).step_by(CHUNK).map(move |c| (c, (c + CHUNK).min(b)))
        })
        .collect()
}

/// The chunks of the segments `segs` (all their slots).
fn chunks_of(words: &Words, segs: Vec<usize>) -> Vec<(usize, usize)> {
    chunks_in(words, segs, 0..usize::MAX)
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

/// What a level's sweep of one part of the tier collects: the level's slots
/// (in slot order), then the scan's share of each later level of its window.
type Swept<S> = (Vec<S>, Vec<Vec<S>>);

/// The slots of level `d` within `range` that are not listed, from the
/// segments `segs`: the scan's share (with `hi`, that of levels `d + 1..hi` as
/// well) and, with `spilled`, the slots propagation decided at `d` when the
/// lists were full ([`SPILL`]). What it collects loses [`SWEPT`] or [`SPILL`]
/// (a decided slot is propagated once); pending wins stay undecided.
///
/// One sweep serves several levels: a tier whose scan leaves slots at many
/// distances (diviyan-keliya's chains: the exits' distances spread) swept the
/// whole tier once per level.
fn sweep_part<S: Slot>(
    words: &Words,
    segs: Vec<usize>,
    range: std::ops::Range<usize>,
    d: u32,
    (hi, spilled): (Option<u32>, bool),
) -> Swept<S> {
    let scan_hi = hi.unwrap_or(d);
    let parts: Vec<ByLevel<S>> = chunks_in(words, segs, range)
        .into_par_iter()
        .map(|(a, b)| {
            let (mut level, mut later) = (Vec::new(), Vec::new());
            for i in a..b {
                let w = words.load(i);
                if spilled && w & (U | SPILL) == SPILL {
                    if decode(w as u16).is_some_and(|x| x.1 == d) {
                        words.store(i, w & !SPILL);
                        level.push(S::of(i as u64));
                    }
                    continue;
                }
                let Some(x) = swept_distance(w).filter(|x| (d..scan_hi).contains(x)) else {
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
    let width = scan_hi.saturating_sub(d + 1) as usize;
    let mut later_levels: Vec<Vec<S>> = (0..width).map(|_| Vec::new()).collect();
    let mut level = Vec::with_capacity(parts.iter().map(|p| p.0.len()).sum());
    for (own, later) in parts {
        level.extend(own);
        for (x, q) in later {
            later_levels[(x - d - 1) as usize].push(q);
        }
    }
    (level, later_levels)
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

/// Sets an undecided word to a decided record; `false` if it was decided
/// already, or if it is a pending win at a distance below `below` (a slot of
/// the level being processed, in a part not yet reached: its own part makes it
/// a win at its distance, as when the level is processed whole).
fn decide(word: &AtomicU32, record: u16, below: u32) -> bool {
    let mut cur = word.load(Ordering::Relaxed);
    loop {
        if cur & U == 0 || (cur & W != 0 && cur & DIST < below) {
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

/// The slots propagation decided and did not list, because the lists were at
/// their budget: each word carries [`SPILL`], and this notes per distance how
/// many there are and which segments hold them; their level sweeps them back.
#[derive(Debug, Default)]
struct Spills(BTreeMap<u32, (u64, Vec<u64>)>);

impl Spills {
    /// Notes `k` slots at distance `d` in segment `seg`.
    fn add(&mut self, d: u32, seg: usize, k: u64) {
        let (count, segs) = self.0.entry(d).or_default();
        *count += k;
        if segs.len() <= seg / 64 {
            segs.resize(seg / 64 + 1, 0);
        }
        segs[seg / 64] |= 1 << (seg % 64);
    }

    /// How many spilled slots are noted, at every distance.
    fn total(&self) -> u64 {
        self.0.values().map(|(count, _)| count).sum()
    }

    /// The smallest distance at or above `from` with spilled slots.
    fn first_from(&self, from: u32) -> Option<u32> {
        self.0.range(from..).next().map(|(&d, _)| d)
    }

    /// Removes distance `d`: how many slots it had, and their segments.
    fn take(&mut self, d: u32) -> (u64, Vec<usize>) {
        let (count, bits) = self.0.remove(&d).unwrap_or_default();
        let segs = (0..bits.len() * 64)
            .filter(|&s| bits[s / 64] >> (s % 64) & 1 != 0)
            .collect();
        (count, segs)
    }

    /// The spilled slots the words hold (a run resumed from a checkpoint: the
    /// words are all a checkpoint keeps of them).
    fn of_words(words: &Words) -> Spills {
        let marks: Vec<(u32, usize, u64)> = chunks_of(words, (0..words.segs.len()).collect())
            .into_par_iter()
            .flat_map_iter(|(a, b)| {
                let mut found: BTreeMap<u32, u64> = BTreeMap::new();
                for i in a..b {
                    let w = words.load(i);
                    if w & (U | SPILL) == SPILL {
                        if let Some((_, x)) = decode(w as u16) {
                            *found.entry(x).or_default() += 1;
                        }
                    }
                }
                found.into_iter().map(move |(x, k)| (x, a >> SEG_BITS, k))
            })
            .collect();
        let mut spills = Spills::default();
        for (x, seg, k) in marks {
            spills.add(x, seg, k);
        }
        spills
    }
}

/// Entries the listed frontier may hold at once, and the most slots a part of
/// a level may take, for a tier of `n` slots and entries of `S`: the lists
/// stay within the 2 bytes a slot the plan gives them beside the words
/// ([`crate::retro::driver::WORK_BYTES_PER_SLOT`]). At its peak a level
/// holds the listed frontier, and of one part the slots swept, those merged
/// with the listed ones (at most a part's slots beyond the listed), and its
/// losses and wins: `list + 3 · part` entries, `n / 4 + 3 n / 16` of 4 bytes
/// (`7 n / 4` bytes), half as many of 8. Tiny in the crate's tests, so that
/// their small tiers spill and split.
fn budgets<S>(n: usize) -> (u64, u64) {
    let entry = std::mem::size_of::<S>() as u64;
    let n = n as u64;
    if cfg!(test) {
        ((n / 256).max(4), (n / 512).max(2))
    } else {
        (
            (n / entry).max(MIN_BUDGET),
            (n / (4 * entry)).max(MIN_BUDGET),
        )
    }
}

/// Phase 2: processes the frontier level by level from `(from, levels)` (the
/// next distance, the levels done); returns the number of levels, and how the
/// lists kept to their budget.
///
/// A level is the listed slots at its distance, and the slots it sweeps from
/// the words: the scan's share ([`ScanLevels`]), and those decided at its
/// distance when the lists were at their budget ([`Spills`]). A level larger
/// than a part ([`budgets`]) is processed in parts, each a range of slots:
/// its share of the listed slots and of the swept ones, decided and
/// propagated before the next part is swept. The records are those of a level
/// processed whole: a predecessor of a part's loss that is a pending win of
/// the level is left to its own part ([`decide`]), and a slot whose counter a
/// part's win brings to zero has no lost child, in any part.
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
) -> Result<(u32, ListReport)> {
    let mut report_lists = ListReport::default();
    // Levels below `swept_to` have had their scan sweep; `counts` is taken at the first.
    let mut swept_to = 0;
    let mut counts: Option<Vec<u64>> = None;
    let window_budget = (words.len as u64 / 64).max(MIN_BUDGET);
    let (list_budget, part) = budgets::<S>(words.len);
    // Spilled slots are marked in the words only: found again after a resume.
    let mut spills = if levels > 0 {
        Spills::of_words(words)
    } else {
        Spills::default()
    };
    loop {
        let listed = buckets.first_key_value().map(|(&d, _)| d);
        let swept = scan.next_from(from.max(swept_to));
        let spilled = spills.first_from(from);
        let Some(d) = [listed, swept, spilled].into_iter().flatten().min() else {
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
        let mut own = buckets.remove(&d).unwrap_or_default();
        own.par_sort_unstable();
        own.dedup();
        let held = own.len() as u64 + buckets.values().map(|b| b.len() as u64).sum::<u64>();
        // The scan's share: this level's, and a window of later levels' that
        // fits what the lists have left.
        let mut scan_share = 0;
        let window = if swept == Some(d) {
            let counts = counts.get_or_insert_with(|| level_counts(words, scan, d));
            scan_share = counts[d.min(SHARED) as usize];
            let hi = if d < SHARED {
                window_end(
                    counts,
                    d,
                    window_budget.min(list_budget.saturating_sub(held)),
                )
            } else {
                d + 1
            };
            swept_to = hi;
            Some(hi)
        } else {
            None
        };
        let reserved: u64 = window.map_or(0, |hi| {
            let counts = counts.as_deref().unwrap_or_default();
            (d + 1..hi).map(|x| counts[x as usize]).sum()
        });
        let (spilled_here, spill_segs) = spills.take(d);
        let mut segs = window.map_or_else(Vec::new, |hi| scan.segments(d, hi));
        segs.extend(spill_segs);
        segs.sort_unstable();
        segs.dedup();
        let room = AtomicI64::new(
            i64::try_from(list_budget.saturating_sub(held + reserved)).unwrap_or(i64::MAX),
        );
        // The level's jobs note what they spill in `spills` itself (at `next`
        // or later, never `d`); what it held before tells how many they added.
        let spilled_before = spills.total();
        let spill_marks = Mutex::new(std::mem::take(&mut spills));
        // One part unless the level may exceed one: then ranges of `part` slots.
        let n = words.len;
        let whole = own.len() as u64 + scan_share + spilled_here <= part;
        let step = if whole { n.max(1) } else { part as usize };
        let next = check_distance(d + 1)?;
        let mut any = false;
        for a in (0..n.max(1)).step_by(step) {
            let range = a..(a + step).min(n);
            let (found, later) = if segs.is_empty() {
                (Vec::new(), Vec::new())
            } else {
                sweep_part::<S>(
                    words,
                    segs.clone(),
                    range.clone(),
                    d,
                    (window, spilled_here > 0),
                )
            };
            for (x, slots) in (d + 1..).zip(later) {
                file_level(buckets, x, slots);
            }
            let lo = own.partition_point(|s| s.get() < range.start as u64);
            let up = own.partition_point(|s| s.get() < range.end as u64);
            let frontier = merge_sorted(&own[lo..up], found);
            if frontier.is_empty() {
                continue;
            }
            any = true;
            let (losses, wins) = level_slots(game, tier, words, frontier, d)?;
            let (at_next, later) = level_predecessors(
                game,
                tier,
                words,
                (&losses, &wins),
                next,
                (&room, &spill_marks),
            );
            drop((losses, wins));
            file_level(buckets, next, at_next);
            for (l, q) in later {
                buckets.entry(l).or_default().push(q);
            }
        }
        drop(own);
        spills = spill_marks.into_inner().unwrap_or_else(|e| e.into_inner());
        report_lists.spilled += spills.total() - spilled_before;
        if !whole {
            report_lists.split_levels += 1;
        }
        if any {
            levels += 1;
            progress.advance(1);
            progress.message(&format!("distance {d}"));
        }
    }
    Ok((levels, report_lists))
}

/// The sorted lists `a` and `b` in one sorted list, each slot once.
fn merge_sorted<S: Slot>(a: &[S], b: Vec<S>) -> Vec<S> {
    if a.is_empty() {
        let mut b = b;
        b.dedup();
        return b;
    }
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    loop {
        let x = match (a.get(i), b.get(j)) {
            (Some(&x), Some(&y)) if y < x => {
                j += 1;
                y
            }
            (Some(&x), Some(&y)) => {
                i += 1;
                j += usize::from(x == y);
                x
            }
            (Some(&x), None) => {
                i += 1;
                x
            }
            (None, Some(&y)) => {
                j += 1;
                y
            }
            (None, None) => break,
        };
        if out.last() != Some(&x) {
            out.push(x);
        }
    }
    out
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
                    decide(words.at(i), win_d, 0);
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

/// Slots decided at one distance, then slots decided at later distances as
/// (distance, slot).
type ByLevel<S> = (Vec<S>, Vec<(u32, S)>);

/// The predecessors of a level's losses made wins at `next`, then the
/// predecessors of its wins decremented, those reaching zero without an
/// escape made losses. Returns the slots decided at `next` (wins and losses),
/// and the losses at a later distance with it (a pending win's own distance).
///
/// A job lists what it decided while `room` (entries the lists may still
/// take) allows; past it, the slots are marked [`SPILL`] in the words and
/// noted in `spilled`, for their level to sweep.
fn level_predecessors<G: TierGame, S: Slot>(
    game: &G,
    tier: G::Tier,
    words: &Words,
    (losses, wins): (&[S], &[S]),
    next: u32,
    (room, spilled): (&AtomicI64, &Mutex<Spills>),
) -> ByLevel<S> {
    let win_next = encode(Value::Win, next);
    let jobs = |len: usize| (MIN_LEVEL_JOB / LEVEL_BATCH).max(len / (LEVEL_BATCH * 64));
    // What one job decided, listed or spilled.
    let keep = |at_next: Vec<S>, later: Vec<(u32, S)>| -> ByLevel<S> {
        let k = (at_next.len() + later.len()) as i64;
        if k == 0 || room.fetch_sub(k, Ordering::Relaxed) >= k {
            return (at_next, later);
        }
        room.fetch_add(k, Ordering::Relaxed);
        let mut marks: Vec<(u32, usize)> = at_next
            .iter()
            .map(|&q| (next, q))
            .chain(later)
            .map(|(x, q)| {
                words
                    .at(q.get() as usize)
                    .fetch_or(SPILL, Ordering::Relaxed);
                (x, (q.get() >> SEG_BITS) as usize)
            })
            .collect();
        marks.sort_unstable();
        let mut spills = spilled.lock().unwrap_or_else(|e| e.into_inner());
        for run in marks.chunk_by(|a, b| a == b) {
            spills.add(run[0].0, run[0].1, run.len() as u64);
        }
        (Vec::new(), Vec::new())
    };
    // Losses first: their predecessors are wins at d + 1.
    let new_wins: Vec<ByLevel<S>> = losses
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
                let won = all
                    .iter()
                    .filter(|&&q| decide(words.at(q as usize), win_next, next))
                    .map(|&q| S::of(q))
                    .collect();
                keep(won, Vec::new())
            },
        )
        .collect();
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
                keep(at_next, later)
            },
        )
        .collect();
    let mut parts = Vec::new();
    let mut later = Vec::new();
    for (at_next, l) in new_wins.into_iter().chain(new_losses) {
        parts.push(at_next);
        later.extend(l);
    }
    (concat(parts), later)
}

#[cfg(test)]
mod tests {
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
    fn merging_keeps_order_and_each_slot_once() {
        assert_eq!(merge_sorted::<u32>(&[], vec![2, 5, 9]), vec![2, 5, 9]);
        assert_eq!(merge_sorted::<u32>(&[1, 5, 7], vec![]), vec![1, 5, 7]);
        assert_eq!(
            merge_sorted::<u32>(&[1, 5, 7, 12], vec![2, 5, 9, 12, 13]),
            vec![1, 2, 5, 7, 9, 12, 13]
        );
    }

    #[test]
    fn spilled_slots_are_found_from_the_words_and_swept_once_at_their_level() {
        let n = (1 << SEG_BITS) + 100;
        let words = Words::new(n, "test").unwrap();
        // Spilled at 3 in both segments, at 5 in the second; a decided slot
        // without the mark and a pending win are not spilled.
        let spilled = [(7, 3), (1 << SEG_BITS, 3), ((1 << SEG_BITS) + 9, 5)];
        for &(i, d) in &spilled {
            words.store(i, LATE | SPILL | u32::from(encode(Value::Win, d)));
        }
        words.store(8, LATE | u32::from(encode(Value::Win, 3)));
        words.store(9, U | E | W | (1 << CNT_SHIFT) | 3);
        let mut spills = Spills::of_words(&words);
        assert_eq!(spills.first_from(0), Some(3));
        assert_eq!(spills.first_from(4), Some(5));
        assert_eq!(spills.take(3), (2, vec![0, 1]));
        assert_eq!(spills.first_from(0), Some(5));
        // Level 3 in two ranges: each finds its own slot and clears the mark.
        let sweep = |range| sweep_part::<u32>(&words, vec![0, 1], range, 3, (None, true));
        assert_eq!(sweep(0..(1 << SEG_BITS)), (vec![7], vec![]));
        assert_eq!(sweep((1 << SEG_BITS)..n), (vec![1 << SEG_BITS], vec![]));
        assert_eq!(sweep(0..n), (vec![], vec![]));
        assert_eq!(Spills::of_words(&words).take(5), (1, vec![1]));
        assert_eq!(words.load(7) & SPILL, 0);
    }

    #[test]
    fn a_pending_win_of_the_level_is_left_to_its_own_part() {
        let pending = AtomicU32::new(U | E | W | (1 << CNT_SHIFT) | 3);
        // Level 3's losses make predecessors wins at 4: not this one, a win at 3.
        assert!(!decide(&pending, encode(Value::Win, 4), 4));
        // A pending win at a later distance is beaten by the faster win.
        let later = AtomicU32::new(U | E | W | (1 << CNT_SHIFT) | 6);
        assert!(decide(&later, encode(Value::Win, 4), 4));
        assert_eq!(later.load(Ordering::Relaxed) as u16, encode(Value::Win, 4));
        // Its own part decides it at its distance.
        assert!(decide(&pending, encode(Value::Win, 3), 0));
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
        let sweep =
            |hi| sweep_part::<u32>(&words, scan.segments(2, hi), 0..40, 2, (Some(hi), false));
        assert_eq!(sweep(5), (vec![3, 9], vec![vec![1, 20], vec![7]]));
        // Decided slots lose SWEPT (propagated once), pending wins stay undecided.
        assert_eq!(swept_distance(words.load(9)), None);
        assert_eq!(swept_distance(words.load(3)), Some(2));
        assert_eq!(sweep(7), (vec![3], vec![vec![20], vec![], vec![], vec![5]]));
    }
}
