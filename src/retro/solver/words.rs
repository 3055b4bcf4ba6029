//! The solver's state: one word a slot in segments ([`Words`]), the frontier
//! entry's width ([`Slot`]), and which distances the scan left in each segment
//! ([`ScanLevels`]). The meaning of a word's bits is the solver's (`super`'s
//! constants `U`, `E`, `W`, ...); here the words are allocated, read, written
//! and turned into records.

use super::{CHUNK, U};
use crate::error::{Error, Result};
use crate::retro::kernel::{final_records, Settled};
use crate::tier::REC_NONE;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering};

/// A frontier entry: a slot index, 4 bytes in tiers below 2^32 slots (most), 8
/// above. The solver is compiled for both and picks by the tier's size, so the
/// frontiers of the common tiers stay half the size.
pub(in crate::retro) trait Slot:
    Copy + Ord + Send + Sync + std::fmt::Debug + 'static
{
    /// The largest tier this width indexes.
    const MAX_SLOTS: u64;
    fn of(i: u64) -> Self;
    fn get(self) -> u64;
}

impl Slot for u32 {
    const MAX_SLOTS: u64 = u32::MAX as u64;
    #[inline]
    fn of(i: u64) -> Self {
        debug_assert!(i <= u32::MAX as u64);
        i as u32
    }
    #[inline]
    fn get(self) -> u64 {
        u64::from(self)
    }
}

impl Slot for u64 {
    const MAX_SLOTS: u64 = u64::MAX;
    #[inline]
    fn of(i: u64) -> Self {
        i
    }
    #[inline]
    fn get(self) -> u64 {
        self
    }
}

/// Slots per segment of the solver's state ([`Words`]): 64 MiB of words.
pub(super) const SEG_BITS: u32 = 24;

/// The solver's state, one word a slot, in segments of 2^[`SEG_BITS`] slots, so
/// that the last phase frees each segment as soon as its records are out: the
/// peak is the words (4 bytes a slot), not the words and the records (6).
pub(in crate::retro) struct Words {
    pub(in crate::retro) segs: Vec<Vec<AtomicU32>>,
    pub(super) len: usize,
}

impl Words {
    /// Number of segments of a tier of `n` slots.
    pub(in crate::retro) fn segments_for(n: usize) -> usize {
        n.div_ceil(1 << SEG_BITS)
    }

    /// `n` undecided words, or a memory error. The segments are allocated and
    /// filled in parallel: the first touch of each page is a page fault, and a
    /// serial fill was the one serial pass over the whole state of a tier.
    pub(in crate::retro) fn new(n: usize, name: &str) -> Result<Words> {
        let seg = 1usize << SEG_BITS;
        let segs = (0..n.div_ceil(seg))
            .into_par_iter()
            .map(|s| {
                let k = (n - s * seg).min(seg);
                let mut v: Vec<AtomicU32> = Vec::new();
                v.try_reserve_exact(k).map_err(|_| {
                    Error::Memory(format!(
                        "tier {name}: cannot allocate {n} words of solver state"
                    ))
                })?;
                v.par_extend((0..k).into_par_iter().map(|_| AtomicU32::new(U)));
                Ok(v)
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Words { segs, len: n })
    }

    #[inline]
    pub(super) fn at(&self, i: usize) -> &AtomicU32 {
        &self.segs[i >> SEG_BITS][i & ((1 << SEG_BITS) - 1)]
    }

    #[inline]
    pub(super) fn load(&self, i: usize) -> u32 {
        self.at(i).load(Ordering::Relaxed)
    }

    #[inline]
    pub(super) fn store(&self, i: usize, w: u32) {
        self.at(i).store(w, Ordering::Relaxed)
    }

    /// The word of slot `i`, or `None` past the end.
    #[inline]
    pub(super) fn get(&self, i: u64) -> Option<u32> {
        (i < self.len as u64).then(|| self.load(i as usize))
    }

    /// The final records (undecided words are draws), segment by segment, each
    /// segment freed once converted.
    pub(super) fn into_records(self, name: &str) -> Result<Vec<u16>> {
        let mut records: Vec<u16> = Vec::new();
        records.try_reserve_exact(self.len).map_err(|_| {
            Error::Memory(format!("tier {name}: cannot allocate {} records", self.len))
        })?;
        for seg in self.segs {
            let part = final_records(0..seg.len(), CHUNK, |i| {
                let w = seg[i].load(Ordering::Relaxed);
                match w as u16 {
                    _ if w & U != 0 => Settled::Undecided,
                    REC_NONE => Settled::Empty,
                    r => Settled::Decided(r),
                }
            });
            drop(seg);
            records.extend_from_slice(&part);
        }
        Ok(records)
    }
}

/// Which distances have slots the scan left for propagation (pending wins, and
/// non-draws decided in the second sweep), per segment of the words: a level
/// sweeps only the segments that have some. Distances past 255 share bit 255.
#[derive(Clone, Default)]
pub(in crate::retro) struct ScanLevels {
    /// Per segment, a 256-bit set of distances.
    pub(in crate::retro) segs: Vec<[u64; 4]>,
    /// The largest distance added.
    pub(in crate::retro) max: Option<u32>,
}

impl ScanLevels {
    fn bit(d: u32) -> (usize, u64) {
        let d = d.min(255) as usize;
        (d / 64, 1u64 << (d % 64))
    }

    pub(super) fn add(&mut self, slot: usize, d: u32) {
        let seg = slot >> SEG_BITS;
        if self.segs.len() <= seg {
            self.segs.resize(seg + 1, [0; 4]);
        }
        let (k, b) = Self::bit(d);
        self.segs[seg][k] |= b;
        self.max = self.max.max(Some(d));
    }

    pub(super) fn merge(&mut self, other: &ScanLevels) {
        if self.segs.len() < other.segs.len() {
            self.segs.resize(other.segs.len(), [0; 4]);
        }
        for (a, b) in self.segs.iter_mut().zip(&other.segs) {
            for k in 0..4 {
                a[k] |= b[k];
            }
        }
        self.max = self.max.max(other.max);
    }

    /// Segments that may hold slots of a distance in `d..hi`.
    pub(super) fn segments(&self, d: u32, hi: u32) -> Vec<usize> {
        let bits: Vec<(usize, u64)> = (d..hi.max(d + 1)).map(Self::bit).collect();
        (0..self.segs.len())
            .filter(|&s| bits.iter().any(|&(k, b)| self.segs[s][k] & b != 0))
            .collect()
    }

    /// The smallest distance at or above `from` that some segment may have
    /// (past 255, every distance up to the largest added).
    pub(super) fn next_from(&self, from: u32) -> Option<u32> {
        if self.max.is_none_or(|m| from > m) {
            return None;
        }
        let mut all = [0u64; 4];
        for s in &self.segs {
            for k in 0..4 {
                all[k] |= s[k];
            }
        }
        (from.min(255)..=255)
            .find(|&d| {
                let (k, b) = Self::bit(d);
                all[k] & b != 0
            })
            .map(|d| if d == 255 { from.max(255) } else { d })
    }
}
