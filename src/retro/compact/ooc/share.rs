//! One process's share of a tier split across processes: the
//! compact solver's counted bytes (two a slot) of one index range, propagated
//! level by level as the out-of-core passes propagate a part ([`super`]),
//! with the update records for the other shares handed back in memory for
//! the caller to exchange (`crate::retro::split` does, over its transport).
//!
//! The caller agrees with the other shares on each level `d`, propagates its
//! chunks at `d` in rounds ([`Share::propagate`]), exchanges the records of
//! each round and applies what it receives at once ([`Share::apply`]): every
//! effect of a level-`d` record is at `d + 1` or later, the losses of a level
//! commute with its wins, so the order of the rounds does not change the
//! records, which equal the one-process solvers'. A checkpoint is one part
//! file of the out-of-core store ([`super::store`]) at a level boundary.

use super::pass::{apply, level_chunk, Job};
use super::store::{self, Dirty};
use super::{count_outcomes, scan_chunks, Ctx, Owner, Sink};
use crate::error::{Error, Result};
use crate::progress::Progress;
use crate::retro::compact::{records_of, Boundary, Bytes, CompactKind, CHUNK};
use crate::retro::solver::checkpoint::Identity;
use crate::retro::solver::{ChildValues, Scratch};
use crate::tier::{Outcomes, TierGame};
use rayon::prelude::*;
use std::ops::Range;
use std::path::Path;
use std::sync::Mutex;

/// Bytes of a share of `slots` slots: two a slot and the distance sets.
pub(crate) fn share_bytes(slots: u64) -> u64 {
    slots.div_ceil(CHUNK as u64) * CHUNK as u64 * 2 + slots / 256
}

/// A checkpoint's `from` marking a scan under way (its `levels`: the chunks
/// scanned).
const SCANNING: u32 = u32::MAX;

/// The records of one round for the other shares, by share.
struct Memory(Vec<Mutex<Vec<u64>>>);

impl Sink for Memory {
    fn put(&self, dest: usize, recs: &[u64]) -> Result<()> {
        if recs.is_empty() {
            return Ok(());
        }
        self.0[dest]
            .lock()
            .map_err(|_| Error::Internal("a split share's outbox lock is poisoned".into()))?
            .extend_from_slice(recs);
        Ok(())
    }
}

/// A share of a tier: slots `lo..lo + len` of the tier's `size`, share `k` of
/// `parts` (even ranges, as `crate::retro::split` partitions a tier).
pub(crate) struct Share<'a, G: TierGame> {
    ctx: Ctx<'a, G>,
    bytes: Bytes,
    lo: usize,
    k: usize,
    parts: usize,
    /// Which frames changed (the passes' bookkeeping; a share's checkpoint
    /// is written whole).
    dirty: Dirty,
    rules: String,
}

impl<'a, G: TierGame> Share<'a, G> {
    /// Share `k` of `parts`, the slots `range` of `tier`, undecided (not scanned).
    pub(crate) fn new(
        game: &'a G,
        tier: G::Tier,
        children: &'a ChildValues<G::Tier>,
        range: Range<u64>,
        (k, parts): (usize, usize),
    ) -> Result<Self> {
        let name = game.tier_name(tier);
        let len = usize::try_from(range.end - range.start).map_err(|_| {
            Error::Memory(format!(
                "tier {name}: a share of {} slots is more than this machine addresses",
                range.end - range.start
            ))
        })?;
        let bytes = Bytes::new(len, &name, CompactKind::Counted)?;
        Ok(Self::with_bytes(
            game,
            tier,
            children,
            range,
            (k, parts),
            bytes,
        ))
    }

    fn with_bytes(
        game: &'a G,
        tier: G::Tier,
        children: &'a ChildValues<G::Tier>,
        range: Range<u64>,
        (k, parts): (usize, usize),
        bytes: Bytes,
    ) -> Self {
        let size = game.tier_size(tier);
        let dirty = Dirty::new(&bytes);
        Share {
            ctx: Ctx {
                game,
                tier,
                children,
                name: game.tier_name(tier),
                owner: Owner::Even { size, parts },
            },
            bytes,
            lo: range.start as usize,
            k,
            parts,
            dirty,
            rules: game.rules_string(),
        }
    }

    /// Slots of this share.
    pub(crate) fn len(&self) -> usize {
        self.bytes.len
    }

    /// Scans the share's chunks `chunks` (exits from the children), in
    /// parallel. A position whose in-tier moves a counter byte cannot hold,
    /// or a distance past the compact solver's, is refused ([`Error::Memory`]).
    pub(crate) fn scan(&self, chunks: Range<usize>, progress: &dyn Progress) -> Result<()> {
        scan_chunks(&self.ctx, &self.bytes, self.lo, chunks, progress)
    }

    /// Chunks of the share (of [`CHUNK`] slots: the unit of [`Share::scan`]).
    pub(crate) fn chunks(&self) -> usize {
        self.bytes.len.div_ceil(CHUNK)
    }

    /// The smallest distance at or above `from` this share holds.
    pub(crate) fn next_level(&self, from: u32) -> Option<u32> {
        self.bytes.next_level(from)
    }

    /// The share's chunks holding slots at `d` (indices for [`Share::propagate`]).
    pub(crate) fn chunks_at(&self, d: u32) -> Vec<usize> {
        self.bytes.chunks_at(d)
    }

    /// Propagates the slots at `d` of `chunks` (those at `d` were all decided
    /// before this level started): returns how many slots were found and the
    /// update records for every share, by share (this one's always empty).
    pub(crate) fn propagate(&self, chunks: &[usize], d: u32) -> Result<(usize, Vec<Vec<u64>>)> {
        let out = Memory((0..self.parts).map(|_| Mutex::new(Vec::new())).collect());
        let found = chunks
            .par_iter()
            .map_init(
                || Job::new(self.parts),
                |job, &c| -> Result<usize> {
                    let f = level_chunk(
                        &self.ctx,
                        &self.bytes,
                        &self.dirty,
                        &out,
                        self.lo,
                        c,
                        d,
                        job,
                    )?;
                    job.flush(&out)?;
                    Ok(f)
                },
            )
            .try_reduce(|| 0, |a, b| Ok(a + b))?;
        let recs = out
            .0
            .into_iter()
            .map(|m| m.into_inner().unwrap_or_default())
            .collect();
        Ok((found, recs))
    }

    /// Applies update records another share made at `level` for this one.
    pub(crate) fn apply(&self, recs: &[u64], level: u32) -> Result<()> {
        recs.par_iter()
            .with_min_len(1 << 10)
            .try_for_each_init(Scratch::new, |scan, &rec| {
                apply(
                    &self.ctx,
                    &self.bytes,
                    &self.dirty,
                    self.lo,
                    rec,
                    level,
                    scan,
                )
            })
    }

    /// The records of the share's slots `local` (indices within the share).
    pub(crate) fn records(&self, local: Range<usize>) -> Vec<u16> {
        let lo = local.start;
        records_of(local.len(), |i| self.bytes.load(lo + i))
    }

    /// Outcome counts of the share's records.
    pub(crate) fn outcomes(&self) -> Outcomes {
        count_outcomes(&self.bytes)
    }

    fn id_text(&self) -> String {
        share_tier(&self.ctx.name, self.k, self.parts, self.lo, self.bytes.len)
    }

    /// Writes the share to `path` (temporary file and rename): scanned to
    /// `scanned` chunks when the scan is under way (`Some`), else at the
    /// boundary before level `from` with `levels` propagated with some slot;
    /// returns the bytes written.
    pub(crate) fn save(
        &self,
        path: &Path,
        scanned: Option<usize>,
        (from, levels): (u32, u32),
    ) -> Result<u64> {
        let tier = self.id_text();
        let id = Identity {
            rules: &self.rules,
            fingerprint: self.ctx.game.fingerprint(),
            tier: &tier,
            size: self.bytes.len as u64,
        };
        // The part format keeps a boundary's `from` and `levels`, not the
        // slots scanned: a scan under way is marked by `from` = SCANNING, its
        // chunks scanned in `levels`.
        let at = match scanned {
            Some(c) => Boundary {
                scanned: self.bytes.len as u64,
                from: SCANNING,
                levels: u32::try_from(c).map_err(|_| {
                    Error::Internal(format!("{c} chunks scanned do not fit a checkpoint"))
                })?,
            },
            None => Boundary {
                scanned: self.bytes.len as u64,
                from,
                levels,
            },
        };
        store::write(path, &id, &self.bytes, at, None)
    }

    /// The share saved at `path` with where it was: the chunks scanned (all
    /// of them once the scan is done), the boundary's `from` and `levels`;
    /// `None` when there is no file. A file of another share, rules or tier,
    /// or damaged, is an error.
    pub(crate) fn load(
        game: &'a G,
        tier: G::Tier,
        children: &'a ChildValues<G::Tier>,
        range: Range<u64>,
        (k, parts): (usize, usize),
        path: &Path,
    ) -> Result<Option<(Self, usize, u32, u32)>> {
        let (rules, name) = (game.rules_string(), game.tier_name(tier));
        let len = (range.end - range.start) as usize;
        let tier_text = share_tier(&name, k, parts, range.start as usize, len);
        let id = Identity {
            rules: &rules,
            fingerprint: game.fingerprint(),
            tier: &tier_text,
            size: len as u64,
        };
        let Some(part) = store::read(path, &id, CompactKind::Counted, None)? else {
            return Ok(None);
        };
        let (scanned, from, levels) = match part.at.from {
            SCANNING => (part.at.levels as usize, 0, 0),
            from => (len.div_ceil(CHUNK), from, part.at.levels),
        };
        let share = Self::with_bytes(game, tier, children, range, (k, parts), part.bytes);
        Ok(Some((share, scanned, from, levels)))
    }
}

/// The identity of a share in its checkpoint.
fn share_tier(name: &str, k: usize, parts: usize, lo: usize, len: usize) -> String {
    format!("{name} share {k} of {parts} (slots {lo}..{})", lo + len)
}
