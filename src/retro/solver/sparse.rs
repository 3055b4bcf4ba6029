//! A solved child tier's records held sparsely: a bit a slot for "decided", and
//! only the decided slots' records.
//!
//! The seed games' large endgame tiers are almost all draws (the 49-point
//! boards' 6-cow tier: 5.1 M decided classes among 3.16 G), and their records,
//! two bytes a slot, were what kept the 7-cow tier (21.6 G slots, one byte a
//! slot compact) out of 24 GiB: 7.4 GB of 6-cow records. Held sparse they take
//! 9/64 byte a slot (the bits, and a count of the set bits before each group of
//! 512 slots) plus one byte a decided slot while every decided distance is below
//! 128 plies (the record less 2: [`Recs::Narrow`]), two bytes otherwise; a lookup
//! reads a bit word and, for a decided slot, a count and up to seven more words
//! of the same cache lines' neighbourhood, then the record.
//!
//! One byte matters on decisive children: the 7-cow tier of the
//! `captures>=18` Mogol variant (2.56 G slots, nearly all won or lost) takes
//! 2.9 GB instead of 5.5 GB, which is what lets its 8-cow parent (8.94 G slots)
//! run the counted compact solver (17.9 GB) under 20 GiB.
//!
//! An empty slot ([`REC_NONE`]) reads as a draw here: the dense records
//! report a rank/unrank mismatch when an exit lands on an empty slot, and held
//! sparse that check is lost (the tests run both and compare the records).

use crate::error::{Error, Result};
use crate::progress::{stop_requested, Progress};
use crate::table::Table;
use crate::tier::{decode, REC_DRAW, REC_NONE};
use rayon::prelude::*;

/// Slots per counted group (8 bit words).
const GROUP: u64 = 512;

/// Bytes a slot of the bits and group counts (9/64): the part of a sparse
/// child's size known before its records are read.
pub(crate) const SPARSE_BYTES_PER_64_SLOTS: u64 = 9;

/// Records of one tier: a bit per slot set where the record is a win or a
/// loss, and those records in slot order.
#[derive(Debug)]
pub struct SparseRecords {
    /// Number of slots.
    len: u64,
    /// Bit `i % 64` of word `i / 64`: slot `i` holds a win or a loss.
    bits: Vec<u64>,
    /// Set bits before each group of [`GROUP`] slots.
    counts: Vec<u64>,
    /// The decided slots' records, in slot order.
    recs: Recs,
}

/// The decided slots' records: one byte each while they fit, else two.
#[derive(Debug, PartialEq, Eq)]
enum Recs {
    /// Each record less 2 (a win or loss of distance below 128: records 2..=257).
    Narrow(Vec<u8>),
    /// The records as they are.
    Wide(Vec<u16>),
}

/// Offset of the narrow form: the smallest decided record (a win in 0).
const NARROW_BASE: u16 = 2;

impl Recs {
    fn len(&self) -> usize {
        match self {
            Recs::Narrow(v) => v.len(),
            Recs::Wide(v) => v.len(),
        }
    }

    #[inline]
    fn get(&self, k: usize) -> u16 {
        match self {
            Recs::Narrow(v) => u16::from(v[k]) + NARROW_BASE,
            Recs::Wide(v) => v[k],
        }
    }

    fn push(&mut self, r: u16) {
        match self {
            Recs::Narrow(v) => match u8::try_from(r - NARROW_BASE) {
                Ok(b) => v.push(b),
                Err(_) => {
                    let mut wide: Vec<u16> = Vec::with_capacity(v.capacity().max(v.len() + 1));
                    wide.extend(v.iter().map(|&b| u16::from(b) + NARROW_BASE));
                    wide.push(r);
                    *self = Recs::Wide(wide);
                }
            },
            Recs::Wide(v) => v.push(r),
        }
    }

    fn shrink_to_fit(&mut self) {
        match self {
            Recs::Narrow(v) => v.shrink_to_fit(),
            Recs::Wide(v) => v.shrink_to_fit(),
        }
    }

    fn bytes(&self) -> u64 {
        match self {
            Recs::Narrow(v) => v.len() as u64,
            Recs::Wide(v) => v.len() as u64 * 2,
        }
    }
}

impl SparseRecords {
    /// From records in memory.
    pub(crate) fn from_records(records: &[u16]) -> Self {
        let mut b = Builder::new(records.len() as u64);
        b.extend(0, records);
        b.finish()
    }

    /// From a table, block by block (blocks decoded in parallel, a window at a
    /// time, so the table is never whole in memory).
    pub(crate) fn from_table(table: &Table, progress: &dyn Progress) -> Result<Self> {
        let n = table.records();
        let per = u64::from(table.block_records().max(1));
        let mut b = Builder::new(n);
        // Windows of about 64 M slots: their blocks are decoded in parallel, and
        // only each block's wins and losses are kept until the window is added.
        let window = (64 * 1024 * 1024 / per).max(1) as usize;
        progress.stage("sparse child records", n);
        for first in (0..table.blocks()).step_by(window) {
            if stop_requested() {
                return Err(Error::Interrupted);
            }
            let last = (first + window).min(table.blocks());
            let decided: Vec<Vec<(u64, u16)>> = (first..last)
                .into_par_iter()
                .map(|k| {
                    let block = table.load_block(k)?;
                    let base = k as u64 * per;
                    Ok(block
                        .iter()
                        .enumerate()
                        .filter(|(_, &r)| is_decided(r))
                        .map(|(i, &r)| (base + i as u64, r))
                        .collect())
                })
                .collect::<Result<_>>()?;
            for (i, r) in decided.into_iter().flatten() {
                b.push(i, r);
            }
            progress.advance(((last as u64) * per).min(n) - (first as u64 * per).min(n));
        }
        progress.finish_stage();
        Ok(b.finish())
    }

    /// Record of slot `index`: a draw where no win or loss is held, [`REC_NONE`]
    /// past the end.
    #[inline]
    pub(crate) fn get(&self, index: u64) -> u16 {
        if index >= self.len {
            return REC_NONE;
        }
        let w = (index >> 6) as usize;
        let bit = 1u64 << (index & 63);
        let word = self.bits[w];
        if word & bit == 0 {
            return REC_DRAW;
        }
        let g = (index / GROUP) as usize;
        let first = g * (GROUP as usize / 64);
        let before: u64 = self.bits[first..w]
            .iter()
            .map(|x| u64::from(x.count_ones()))
            .sum();
        let k = self.counts[g] + before + u64::from((word & (bit - 1)).count_ones());
        self.recs.get(k as usize)
    }

    /// Number of slots (read by the tests).
    #[cfg(test)]
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// Slots holding a win or a loss (read by the tests).
    #[cfg(test)]
    pub(crate) fn decided(&self) -> u64 {
        self.recs.len() as u64
    }

    /// Bytes held.
    pub(crate) fn bytes(&self) -> u64 {
        (self.bits.len() as u64 + self.counts.len() as u64) * 8 + self.recs.bytes()
    }

    /// Whether the decided records are held one byte each (read by the tests).
    #[cfg(test)]
    pub(crate) fn narrow(&self) -> bool {
        matches!(self.recs, Recs::Narrow(_))
    }
}

/// A win or a loss (not a draw, not an empty slot): a record of at least
/// [`NARROW_BASE`].
fn is_decided(r: u16) -> bool {
    r != REC_DRAW && decode(r).is_some()
}

/// Builds [`SparseRecords`] from records given in increasing slot order.
struct Builder {
    len: u64,
    bits: Vec<u64>,
    recs: Recs,
}

impl Builder {
    fn new(len: u64) -> Self {
        Builder {
            len,
            bits: vec![0; len.div_ceil(64) as usize],
            recs: Recs::Narrow(Vec::new()),
        }
    }

    /// Slot `index` holds `r` (a win or a loss; indices increasing).
    fn push(&mut self, index: u64, r: u16) {
        self.bits[(index >> 6) as usize] |= 1u64 << (index & 63);
        self.recs.push(r);
    }

    /// The records of slots `base..`, whatever they are.
    fn extend(&mut self, base: u64, records: &[u16]) {
        for (i, &r) in records.iter().enumerate() {
            if is_decided(r) {
                self.push(base + i as u64, r);
            }
        }
    }

    fn finish(self) -> SparseRecords {
        let words_per = (GROUP / 64) as usize;
        let mut counts = Vec::with_capacity(self.bits.len().div_ceil(words_per));
        let mut sum = 0u64;
        for group in self.bits.chunks(words_per) {
            counts.push(sum);
            sum += group.iter().map(|x| u64::from(x.count_ones())).sum::<u64>();
        }
        debug_assert_eq!(sum, self.recs.len() as u64);
        let mut recs = self.recs;
        recs.shrink_to_fit();
        SparseRecords {
            len: self.len,
            bits: self.bits,
            counts,
            recs,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Value;
    use crate::tier::encode;

    #[test]
    fn sparse_reads_what_dense_holds() {
        let mut rng = crate::random::Rng::new(3);
        // (slots, longest distance, where longer distances begin): below 128
        // plies the records are held a byte each, from the first longer one on
        // (at the start, midway, at the end) two bytes each.
        let cases = [0usize, 1, 63, 64, 65, 511, 512, 513, 5000]
            .map(|len| (len, 128, len))
            .into_iter()
            .chain([
                (5000, 2000, 2500),
                (5000, 2000, 0),
                (600, 2000, 599),
                (600, 128, 300),
            ]);
        for (len, far, from) in cases {
            let records: Vec<u16> = (0..len)
                .map(|i| {
                    let most = if i >= from { far } else { 128 };
                    match rng.below(10) {
                        0 => encode(Value::Win, rng.below(most) as u32),
                        1 => encode(Value::Loss, rng.below(most) as u32),
                        2 if i + 1 == from => encode(Value::Loss, 127),
                        2 if i == from && far > 128 => encode(Value::Win, 128),
                        2 => REC_NONE,
                        _ => REC_DRAW,
                    }
                })
                .collect();
            let s = SparseRecords::from_records(&records);
            let longest = records
                .iter()
                .filter(|&&r| is_decided(r))
                .map(|&r| decode(r).unwrap().1)
                .max()
                .unwrap_or(0);
            assert_eq!(s.narrow(), longest < 128, "len {len} from {from}");
            let per = if s.narrow() { 1 } else { 2 };
            assert_eq!(
                s.bytes(),
                (s.bits.len() + s.counts.len()) as u64 * 8 + s.decided() * per
            );
            assert_eq!(s.len(), len as u64);
            let decided = records.iter().filter(|&&r| is_decided(r)).count();
            assert_eq!(s.decided(), decided as u64);
            for (i, &r) in records.iter().enumerate() {
                let want = if r == REC_NONE { REC_DRAW } else { r };
                assert_eq!(s.get(i as u64), want, "len {len} from {from} slot {i}");
            }
            assert_eq!(s.get(len as u64), REC_NONE);
            assert_eq!(s.get(u64::MAX), REC_NONE);
            // The same from a table file, blocks not a multiple of the groups.
            let dir = std::env::temp_dir().join(format!(
                "huntsolve-sparse-{}-{len}-{from}",
                std::process::id()
            ));
            std::fs::create_dir_all(&dir).unwrap();
            let path = dir.join("t.hst");
            let meta = crate::table::format::TableMeta {
                rules: "test".into(),
                fingerprint: 1,
                tier: "t".into(),
                index_version: 1,
                encoding: crate::tier::RECORD_ENCODING,
                positions: len as u64,
                extra: String::new(),
            };
            let opts = crate::table::format::WriteOptions {
                block_records: 100,
                level: 1,
            };
            crate::table::format::write_table_with(&path, &meta, &records, &opts).unwrap();
            let table = Table::open(&path).unwrap();
            let t = SparseRecords::from_table(&table, &crate::progress::NoProgress).unwrap();
            assert_eq!(
                (t.len, &t.bits, &t.counts, &t.recs),
                (s.len, &s.bits, &s.counts, &s.recs)
            );
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}
