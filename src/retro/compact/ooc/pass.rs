//! One pass of an out-of-core tier for one part: its waiting updates applied,
//! its slots at the pass's distance propagated, its updates for the other
//! parts written ([`super`] describes the algorithm).

use super::super::levels::{level_slots, predecessors, win_if_open as shared_win_if_open};
use super::files::{
    read_updates, remove_update, Outboxes, JOB_RECORDS, LOST_CHILD, SLOT_BITS, SLOT_MASK,
};
use super::store::Dirty;
use super::{missing, Ctx, Run, Sink};
use crate::error::{Error, Result};
use crate::progress::Progress;
use crate::retro::compact::{loss, Boundary, Bytes, CompactKind, UNKNOWN};
use crate::retro::solver::{pred_edges, scan_position, PredScratch, Scanned, Scratch};
use crate::tier::TierGame;
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::Ordering;

/// Buffers of one propagation job.
pub(super) struct Job<G: TierGame> {
    pred: PredScratch<G>,
    scan: Scratch<G>,
    all: Vec<u64>,
    losses: Vec<u64>,
    wins: Vec<u64>,
    edges: Vec<(u64, u16)>,
    /// Update records for other parts, by part.
    out: Vec<Vec<u64>>,
}

impl<G: TierGame> Job<G> {
    pub(super) fn new(parts: usize) -> Self {
        Job {
            pred: PredScratch::new(),
            scan: Scratch::new(),
            all: Vec::new(),
            losses: Vec::new(),
            wins: Vec::new(),
            edges: Vec::new(),
            out: vec![Vec::new(); parts],
        }
    }

    pub(super) fn flush(&mut self, boxes: &dyn Sink) -> Result<()> {
        for (dest, recs) in self.out.iter_mut().enumerate() {
            boxes.put(dest, recs)?;
            recs.clear();
        }
        Ok(())
    }
}

/// One part in pass `d`: read, its waiting updates applied, its slots at `d`
/// propagated, its updates for the other parts written, written back.
pub(super) fn pass_part<G: TierGame>(
    run: &mut Run<G>,
    k: usize,
    d: u32,
    waiting: &[(usize, u32, usize)],
    progress: &dyn Progress,
) -> Result<()> {
    let parts = run.layout.parts;
    let part = run
        .read(k, CompactKind::Counted)?
        .ok_or_else(|| missing(run.dir, k, parts))?;
    let bytes = &part.bytes;
    let dirty = Dirty::new(bytes);
    if bytes.kind() != CompactKind::Counted {
        return Err(Error::Internal(format!(
            "part {k} of the out-of-core tier {} has no counters",
            run.ctx.name
        )));
    }
    let lo = run.layout.range(k).start;
    for &u in waiting {
        let level = u.1;
        let want = run.listed(u)?;
        let (dir, ctx) = (run.dir, &run.ctx);
        read_updates(dir, run.run_id, u, &want, &mut |recs| {
            recs.par_iter()
                .try_for_each_init(Scratch::new, |scan, &rec| {
                    apply(ctx, bytes, &dirty, lo, rec, level, scan)
                })
        })?;
    }
    let boxes = Outboxes::new(run.dir, run.run_id, d, k, parts);
    let chunks = bytes.chunks_at(d);
    let found: usize = {
        let ctx = &run.ctx;
        chunks
            .par_iter()
            .map_init(
                || Job::new(parts),
                |job, &c| -> Result<usize> {
                    let f = level_chunk(ctx, bytes, &dirty, &boxes, lo, c, d, job)?;
                    job.flush(&boxes)?;
                    Ok(f)
                },
            )
            .try_reduce(|| 0, |a, b| Ok(a + b))?
    };
    let (made, update_bytes) = boxes.finish()?;
    run.report.update_bytes += update_bytes;
    run.updates.extend(made.iter().map(|&(u, _)| u));
    run.lists
        .insert((d, k), made.iter().map(|&(_, w)| w).collect());
    let at = Boundary {
        scanned: bytes.len as u64,
        from: d + 1,
        levels: u32::from(found > 0),
    };
    // The test hook's stop comes right after the write, as a kill would:
    // the updates applied are then still on disk (`resume` removes them).
    run.write(k, bytes, at, Some((&dirty, &part.frames)))?;
    // Their lists stay until the pass ends (the state then stops naming them).
    for &u in waiting {
        remove_update(run.dir, u)?;
        run.updates.remove(&u);
    }
    // The next part read reuses these bytes (no fresh pages to zero and fill).
    run.spare = Some(part.bytes);
    progress.message(&format!(
        "distance {d}: part {k} of {parts}, {found} positions (out of core)"
    ));
    Ok(())
}

/// One update record made at `level` for this part (slots from `lo`).
pub(super) fn apply<G: TierGame>(
    ctx: &Ctx<G>,
    bytes: &Bytes,
    dirty: &Dirty,
    lo: usize,
    rec: u64,
    level: u32,
    scan: &mut Scratch<G>,
) -> Result<()> {
    let q = (rec & SLOT_MASK) as usize;
    let i = q
        .checked_sub(lo)
        .filter(|&i| i < bytes.len)
        .ok_or_else(|| {
            Error::Internal(format!(
                "an update for slot {q} reached the part of slots {lo}..{} of tier {}",
                lo + bytes.len,
                ctx.name
            ))
        })?;
    if rec & LOST_CHILD != 0 {
        win_if_open(bytes, dirty, i, level + 1)
    } else {
        let e = ((rec >> SLOT_BITS) & 0xff) as u8;
        take_edges(ctx, bytes, dirty, lo, i, e, level, scan)
    }
}

/// Slot `i` wins at `next` unless decided or won sooner
/// ([`levels::win_if_open`](super::super::levels::win_if_open)), noted changed when it does.
fn win_if_open(bytes: &Bytes, dirty: &Dirty, i: usize, next: u32) -> Result<()> {
    if shared_win_if_open(bytes, i, next)? {
        dirty.mark(i);
    }
    Ok(())
}

/// A child of slot `i` won at `level` takes `e` edges off its counter; at zero
/// the slot is lost at `max(level + 1, its slowest exit loss)`.
#[allow(clippy::too_many_arguments)]
fn take_edges<G: TierGame>(
    ctx: &Ctx<G>,
    bytes: &Bytes,
    dirty: &Dirty,
    lo: usize,
    i: usize,
    e: u8,
    level: u32,
    scan: &mut Scratch<G>,
) -> Result<()> {
    if e == 0 || bytes.load(i) != UNKNOWN {
        return Ok(());
    }
    let Some(counter) = bytes.count_at(i) else {
        return Ok(());
    };
    let before = counter
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |c| c.checked_sub(e))
        .map_err(|c| {
            Error::Internal(format!(
                "out-of-core counter of slot {} of tier {} below its edges ({c} < {e})",
                lo + i,
                ctx.name
            ))
        })?;
    dirty.mark(i);
    if before != e {
        return Ok(());
    }
    let q = (lo + i) as u64;
    let pos = ctx.game.unrank(ctx.tier, q).ok_or_else(|| {
        Error::Internal(format!("slot {q} of tier {} holds no position", ctx.name))
    })?;
    let exits = match scan_position(ctx.game, ctx.tier, &pos, ctx.children, scan, None)? {
        Scanned::Inner(_, exits) => exits,
        Scanned::Final(_) => {
            return Err(Error::Internal(format!(
                "slot {q} of tier {} was undecided but its position is final",
                ctx.name
            )))
        }
    };
    let m = (level + 1).max(exits.loss());
    if bytes.swap(i, UNKNOWN, loss(m)?) {
        bytes.mark(i, m);
        dirty.mark(i);
    }
    Ok(())
}

/// The slots of local chunk `c` of a part (from slot `lo`) at level `d`:
/// pending wins made final, losses and wins propagated, updates for other
/// parts through `job.out` into `boxes`.
#[allow(clippy::too_many_arguments)]
pub(super) fn level_chunk<G: TierGame>(
    ctx: &Ctx<G>,
    bytes: &Bytes,
    dirty: &Dirty,
    boxes: &dyn Sink,
    lo: usize,
    c: usize,
    d: u32,
    job: &mut Job<G>,
) -> Result<usize> {
    let (game, tier) = (ctx.game, ctx.tier);
    let found = level_slots(
        bytes,
        (c, d, lo),
        |g| game.may_have_unmoves(tier, g),
        |i| dirty.mark(i),
        (&mut job.losses, &mut job.wins),
    )?;
    let range: Range<usize> = lo..lo + bytes.len;
    predecessors(game, tier, &job.losses, &mut job.pred, &mut job.all);
    for x in 0..job.all.len() {
        let q = job.all[x] as usize;
        if range.contains(&q) {
            win_if_open(bytes, dirty, q - lo, d + 1)?;
        } else {
            job.out[ctx.owner.of(q)].push(q as u64 | LOST_CHILD);
        }
    }
    job.flush(boxes)?;
    for w in 0..job.wins.len() {
        job.edges.clear();
        pred_edges(game, tier, job.wins[w], &mut job.pred, &mut job.edges);
        for x in 0..job.edges.len() {
            let (q, e) = job.edges[x];
            let e = u8::try_from(e).map_err(|_| {
                Error::Internal(format!(
                    "{e} edges into one class from slot {q} of tier {}",
                    ctx.name
                ))
            })?;
            let q = q as usize;
            if range.contains(&q) {
                take_edges(ctx, bytes, dirty, lo, q - lo, e, d, &mut job.scan)?;
            } else if e > 0 {
                job.out[ctx.owner.of(q)].push(q as u64 | u64::from(e) << SLOT_BITS);
            }
        }
        if job.out.iter().map(Vec::len).sum::<usize>() >= JOB_RECORDS {
            job.flush(boxes)?;
        }
    }
    Ok(found)
}
