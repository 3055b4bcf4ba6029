//! Lock-free shared transposition table.
//!
//! Each entry is a pair of `AtomicU64`: `check = key ^ data` and `data`. Two
//! threads may write the same slot at once and leave one word from each; the
//! reader recomputes `check ^ data` and only accepts the entry when it equals
//! the probing key, so a torn entry reads as a miss (the classic "lockless
//! hashing" of Hyatt and Mann). Relaxed ordering is enough for that check.
//!
//! Slots come in pairs (a bucket): the first prefers deeper results, the second
//! is always replaced, so deep results survive while recent shallow ones are
//! still cached.

use crate::error::{Error, Result};
use std::sync::atomic::{AtomicU64, Ordering};

/// Bytes of one entry (two `AtomicU64`).
const ENTRY_BYTES: usize = 16;

/// Kind of bound a stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Bound {
    /// The score is exact (a PV node).
    Exact,
    /// The true score is at least the stored score (fail high).
    Lower,
    /// The true score is at most the stored score (fail low).
    Upper,
}

impl Bound {
    /// The bound a search result `best` is for a window that began as
    /// `(alpha0, beta)`.
    pub(crate) fn of(best: i32, alpha0: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// Best-move index meaning "no move stored".
pub const NO_MOVE: u16 = u16::MAX;

/// A decoded table entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Score, with mate scores relative to the stored node (see the search).
    pub score: i32,
    /// Remaining depth the score was searched to.
    pub depth: u8,
    /// Bound kind of `score`.
    pub bound: Bound,
    /// Index of the best move in the node's legal move list, or [`NO_MOVE`].
    pub best: u16,
}

impl Entry {
    fn pack(&self, age: u8) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 1u64,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        (self.score as i16 as u16 as u64)
            | (self.depth as u64) << 16
            | bound << 24
            | (self.best as u64) << 32
            | (age as u64) << 48
    }

    fn unpack(data: u64) -> Option<(Entry, u8)> {
        let bound = match (data >> 24) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        Some((
            Entry {
                score: data as u16 as i16 as i32,
                depth: (data >> 16) as u8,
                bound,
                best: (data >> 32) as u16,
            },
            (data >> 48) as u8,
        ))
    }
}

/// The shared table: a power-of-two number of two-slot buckets.
pub struct TransTable {
    slots: Vec<[AtomicU64; 2]>,
    mask: usize,
    age: AtomicU64,
}

impl std::fmt::Debug for TransTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TransTable({} entries)", self.slots.len())
    }
}

impl TransTable {
    /// A table of at most `mib` MiB (rounded down to a power of two entries,
    /// at least 1024 entries). The memory is reserved fallibly: a size the
    /// machine cannot give (or whose byte count overflows) is
    /// [`Error::Memory`], not an abort.
    pub fn new(mib: usize) -> Result<TransTable> {
        let too_big = || Error::Memory(format!("a transposition table of {mib} MiB"));
        let bytes = mib.max(1).checked_mul(1024 * 1024).ok_or_else(too_big)?;
        let mut entries = 1024usize;
        while entries
            .checked_mul(2 * ENTRY_BYTES)
            .is_some_and(|b| b <= bytes)
        {
            entries *= 2;
        }
        let mut slots: Vec<[AtomicU64; 2]> = Vec::new();
        slots.try_reserve_exact(entries).map_err(|e| {
            Error::Memory(format!(
                "a transposition table of {mib} MiB ({entries} entries): {e}"
            ))
        })?;
        slots.extend((0..entries).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]));
        Ok(TransTable {
            slots,
            mask: entries - 1,
            age: AtomicU64::new(0),
        })
    }

    /// Number of entries.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.slots.len()
    }

    /// Starts a new search generation: older entries become preferred victims.
    pub(crate) fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    /// Empties the table.
    pub fn clear(&self) {
        for s in &self.slots {
            s[0].store(0, Ordering::Relaxed);
            s[1].store(0, Ordering::Relaxed);
        }
    }

    fn bucket(&self, key: u64) -> usize {
        // Use the high bits for the bucket so the low bits of simple hashes still spread.
        ((key >> 32) ^ key) as usize & self.mask & !1
    }

    /// The entry stored for `key`, if any (a torn write reads as a miss).
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        for i in 0..2 {
            let slot = &self.slots[b + i];
            let data = slot[1].load(Ordering::Relaxed);
            let check = slot[0].load(Ordering::Relaxed);
            if check ^ data == key {
                if let Some((e, _)) = Entry::unpack(data) {
                    return Some(e);
                }
            }
        }
        None
    }

    /// Stores an entry for `key`.
    pub(crate) fn store(&self, key: u64, entry: Entry) {
        let age = self.age.load(Ordering::Relaxed) as u8;
        let b = self.bucket(key);
        let first = &self.slots[b];
        let data0 = first[1].load(Ordering::Relaxed);
        let same0 = first[0].load(Ordering::Relaxed) ^ data0 == key;
        let old = Entry::unpack(data0);
        // Depth-preferred slot: take it when empty, same position, stale, or not deeper.
        let take_first = match old {
            None => true,
            Some((e, a)) => same0 || a != age || entry.depth >= e.depth,
        };
        let mut entry = entry;
        if same0 && entry.best == NO_MOVE {
            // Keep the old best move for ordering when the new result has none.
            if let Some((e, _)) = old {
                entry.best = e.best;
            }
        }
        let slot = if take_first {
            first
        } else {
            &self.slots[b + 1]
        };
        let data = entry.pack(age);
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_miss() {
        let tt = TransTable::new(1).unwrap();
        let e = Entry {
            score: -29_990,
            depth: 17,
            bound: Bound::Upper,
            best: 42,
        };
        tt.store(0xdead_beef_1234_5678, e);
        assert_eq!(tt.probe(0xdead_beef_1234_5678), Some(e));
        assert_eq!(tt.probe(0xdead_beef_1234_5679), None);
    }

    #[test]
    fn torn_entry_is_a_miss() {
        let tt = TransTable::new(1).unwrap();
        let a = Entry {
            score: 5,
            depth: 3,
            bound: Bound::Exact,
            best: 1,
        };
        let b = Entry {
            score: -7,
            depth: 9,
            bound: Bound::Lower,
            best: 2,
        };
        let (ka, kb) = (0x1111_0000_0000_0000u64, 0x1111_0000_0000_0000u64 ^ 0x10);
        tt.store(ka, a);
        // Simulate a torn write: check word of `a`, data word of `b`.
        let bucket = tt.bucket(ka);
        let data_b = b.pack(0);
        tt.slots[bucket][1].store(data_b, Ordering::Relaxed);
        assert_eq!(tt.probe(ka), None);
        assert_eq!(tt.probe(kb), None);
    }

    #[test]
    fn sizes_the_machine_cannot_give_are_memory_errors() {
        // A byte count that overflows, and one no machine has (2^60 bytes, reserved
        // without touching it): both refused, neither aborts.
        for mib in [usize::MAX, 1 << 40] {
            match TransTable::new(mib) {
                Err(Error::Memory(m)) => assert!(m.contains(&format!("{mib} MiB")), "{m}"),
                other => panic!("{mib} MiB: {other:?}"),
            }
        }
        assert_eq!(TransTable::new(1).unwrap().len(), 1 << 16);
    }
}
