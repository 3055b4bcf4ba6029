//! The prover's transposition table: proof and disproof numbers of positions,
//! shared by every worker thread, in a fixed amount of memory.
//!
//! Each entry is three `AtomicU64` words: `check = key ^ numbers ^ aux`,
//! `numbers = pn | dn << 32` and `aux = work | dist << 40 | final << 63`.
//! A reader recomputes the key from the three words and accepts the entry only
//! when it matches, so two threads writing one slot at once leave a miss, never
//! a wrong entry (lockless hashing, as in [`crate::search::tt`]). The key is the
//! position's Zobrist hash mixed with the goal side, so the two one-sided runs
//! of a value can share one table.
//!
//! Slots come in buckets of `WAYS`. A store replaces the slot holding the same
//! key, else the slot with the least work done below it (the number of nodes
//! the prover expanded to reach the stored numbers), so the results that cost
//! the most survive. A final entry (proven or disproven) is never overwritten
//! by a non-final one for the same key: finals are facts, the rest heuristics.
//!
//! Entries also carry the table's *generation* when stored (8 bits). A driver
//! that runs many searches on one table (the frontier) starts a new generation
//! for each batch of runs (`ProofTable::new_generation`); a store then
//! replaces an older generation's heuristic entries first, then its finals,
//! and only then the current generation's by work. Without it a long run's
//! table filled with old searches' costly heuristics, which no new search could
//! displace: each new run had one slot a bucket to work in. (The generation
//! wraps at 256: an entry that old looks current again and is weighed by its
//! work, as every entry was before generations.)
//!
//! Beside the slots, a small map keeps the *repetition sets* of path-dependent
//! disproofs (see [`crate::prove`]): the ancestors whose presence on the path
//! the disproof needs. It is consulted only for entries marked as such hints.
//! When the map is full, a new generation's first store drops the sets whose
//! entries are gone from the slots or belong to an older generation.
//!
//! Memory: `--hash MiB` is the prover's whole budget ([`MemoryBudget`], see
//! [`super::budget`]). The table takes 1/2 of it for the slots (24 bytes
//! each) and 1/8 for the repetition sets (a hash map allocated at its full
//! capacity up front, never grown), both charged when the table is made; the
//! rest (3/8) is the working memory of the searches and the certificate
//! builder: the closure search's line can be thousands of frames deep in a
//! movement phase (8,415 in a 2-leopard alquerque25 position, about 10 MB).

use super::budget::MemoryBudget;
use hashbrown::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Most ancestors a stored repetition set names.
pub(crate) const MAX_REPS: usize = 16;
/// Bytes per bucket of the repetition-set map (key, set, control byte).
pub(crate) const REP_BUCKET_BYTES: usize = std::mem::size_of::<(u64, Reps)>() + 1;

/// The ancestors a path-dependent disproof repeats (hashes), or "too many".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Reps {
    h: [u64; MAX_REPS],
    n: u8,
    /// More than `MAX_REPS` ancestors: usable on this path only.
    pub overflow: bool,
}

impl Reps {
    /// The set of one ancestor.
    pub(crate) fn one(h: u64) -> Reps {
        let mut r = Reps::default();
        r.h[0] = h;
        r.n = 1;
        r
    }
    /// The hashes.
    pub(crate) fn hashes(&self) -> &[u64] {
        &self.h[..self.n as usize]
    }
    /// Adds the ancestors of `other`.
    pub(crate) fn union(&mut self, other: &Reps) {
        self.overflow |= other.overflow;
        for &h in other.hashes() {
            if !self.hashes().contains(&h) {
                if (self.n as usize) < MAX_REPS {
                    self.h[self.n as usize] = h;
                    self.n += 1;
                } else {
                    self.overflow = true;
                }
            }
        }
    }
    /// Keeps the ancestors for which `keep` holds.
    pub(crate) fn retain(&mut self, keep: impl Fn(u64) -> bool) {
        let mut k = 0;
        for i in 0..self.n as usize {
            if keep(self.h[i]) {
                self.h[k] = self.h[i];
                k += 1;
            }
        }
        self.n = k as u8;
    }
}

/// "Infinite" proof or disproof number.
pub(crate) const INF: u32 = u32::MAX;
/// Largest finite number (sums saturate here).
pub(crate) const MAX_FINITE: u32 = u32::MAX - 1;
/// Slots per bucket.
pub(crate) const WAYS: usize = 4;
/// Bytes per slot.
pub(crate) const SLOT_BYTES: usize = 24;

const WORK_MASK: u64 = (1 << 32) - 1;
const GEN_SHIFT: u32 = 32;
const GEN_MASK: u64 = 0xff;
const DIST_SHIFT: u32 = 40;
const DIST_MASK: u64 = (1 << 21) - 1;
const FINAL_BIT: u64 = 1 << 63;
const HINT_BIT: u64 = 1 << 62;

/// A decoded entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// Proof number (0: proven, `INF`: disproven).
    pub pn: u32,
    /// Disproof number (0: disproven, `INF`: proven).
    pub dn: u32,
    /// Nodes expanded below this position to reach these numbers (saturating).
    pub work: u64,
    /// For a proven entry, an upper bound on the plies the proof needs
    /// (used to extract an acyclic certificate); 0 otherwise.
    pub dist: u32,
    /// A path-dependent disproof: its repetition set may be in the table.
    pub hint: bool,
}

impl Entry {
    /// A final disproof whose repetition set does not matter (the closure
    /// search's and the local analysis's verdict on a position they settle).
    pub(crate) const DISPROVEN: Entry = Entry {
        pn: INF,
        dn: 0,
        work: 1 << 30,
        dist: 0,
        hint: false,
    };

    /// Proven (the goal side wins) or disproven (it does not).
    pub(crate) fn is_final(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

/// The first bytes of a saved table ([`ProofTable::save`]).
const TABLE_MAGIC: &[u8; 8] = b"HSPTAB01";

/// A writer that keeps the crc32 of what passed through it.
struct CrcWriter<'a> {
    inner: &'a mut dyn std::io::Write,
    crc: crc32fast::Hasher,
}

impl CrcWriter<'_> {
    fn write_all(&mut self, b: &[u8]) -> std::io::Result<()> {
        self.crc.update(b);
        self.inner.write_all(b)
    }
}

/// A reader that keeps the crc32 of what passed through it.
struct CrcReader<'a> {
    inner: &'a mut dyn std::io::Read,
    crc: crc32fast::Hasher,
}

impl CrcReader<'_> {
    fn read_exact(&mut self, b: &mut [u8]) -> std::io::Result<()> {
        self.inner.read_exact(b)?;
        self.crc.update(b);
        Ok(())
    }
}

/// The shared table.
#[derive(Debug)]
pub struct ProofTable {
    slots: Vec<[AtomicU64; 3]>,
    buckets: usize,
    reps: Mutex<HashMap<u64, Reps>>,
    reps_cap: usize,
    fixed_bytes: usize,
    budget: MemoryBudget,
    /// The current generation (its low 8 bits are stored in each entry).
    generation: AtomicU64,
    /// The generation whose stale repetition sets were last dropped.
    purged: AtomicU64,
}

impl ProofTable {
    /// A table within a budget of `mib` MiB (see the module docs); with a
    /// budget too small for one bucket (`mib` 0), one bucket and no
    /// repetition sets, and the budget still `mib` MiB.
    pub fn new(mib: usize) -> ProofTable {
        let bytes = mib.saturating_mul(1 << 20);
        let buckets = (bytes / 2 / (SLOT_BYTES * WAYS)).max(1);
        let slots: Vec<[AtomicU64; 3]> = (0..buckets * WAYS)
            .map(|_| [AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)])
            .collect();
        // The largest power-of-two bucket count whose map fits in 1/8: the
        // map is then made with exactly that many buckets (7/8 usable) and
        // never grows, since a store beyond its capacity is dropped.
        let share = bytes / 8;
        let mut rep_buckets = 0usize;
        if share >= 8 * REP_BUCKET_BYTES + 16 {
            rep_buckets = 8;
            while (rep_buckets * 2) * REP_BUCKET_BYTES + 16 <= share {
                rep_buckets *= 2;
            }
        }
        let reps_cap = rep_buckets / 8 * 7;
        let reps = HashMap::with_capacity(reps_cap);
        let fixed_bytes = slots.len() * SLOT_BYTES
            + if rep_buckets > 0 {
                rep_buckets * REP_BUCKET_BYTES + 16
            } else {
                0
            };
        let budget = MemoryBudget::new(bytes.max(fixed_bytes));
        let charged = budget.try_charge(fixed_bytes);
        debug_assert!(charged);
        ProofTable {
            slots,
            buckets,
            reps: Mutex::new(reps),
            reps_cap,
            fixed_bytes,
            budget,
            generation: AtomicU64::new(0),
            purged: AtomicU64::new(0),
        }
    }

    /// Starts a new generation: the entries stored so far become the first
    /// to be replaced (see the module docs).
    pub(crate) fn new_generation(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn current(&self) -> u64 {
        self.generation.load(Ordering::Relaxed) & GEN_MASK
    }

    /// Per mille of the repetition-set map's capacity in use.
    pub(crate) fn reps_full(&self) -> u32 {
        let m = self.reps.lock().unwrap_or_else(|p| p.into_inner());
        (m.len() * 1000 / self.reps_cap.max(1)) as u32
    }

    /// Number of slots (the unit test's view).
    #[cfg(test)]
    fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Bytes of the slots and the repetition-set map (allocated once).
    pub fn bytes(&self) -> usize {
        self.fixed_bytes
    }

    /// The prover's memory budget (`--hash`), the table's own bytes charged.
    pub fn budget(&self) -> &MemoryBudget {
        &self.budget
    }

    /// The repetition set stored for `key`.
    pub(crate) fn reps(&self, key: u64) -> Option<Reps> {
        self.reps
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&key)
            .copied()
    }

    /// Stores the repetition set of `key` (dropped when the map is full).
    pub(crate) fn store_reps(&self, key: u64, r: Reps) {
        let mut m = self.reps.lock().unwrap_or_else(|p| p.into_inner());
        let cap = self.reps_cap.min(m.capacity());
        let gen = self.generation.load(Ordering::Relaxed);
        if m.len() >= cap && self.purged.swap(gen, Ordering::Relaxed) != gen {
            // Full, for the first time in this generation: keep only the sets
            // of the current generation's hint entries.
            let now = gen & GEN_MASK;
            m.retain(|&k, _| self.generation_of(k) == Some(now));
        }
        // Below the capacity the map was made with, so it never reallocates.
        if m.len() < cap || m.contains_key(&key) {
            m.insert(key, r);
        }
    }

    /// Writes the whole table (slots, repetition sets, generation) to `w` for
    /// [`ProofTable::load`]: a reproducible frontier run resumes from it to
    /// the same results. Returns the crc32 of the bytes written, which end
    /// with it. The table must not be in use.
    pub(crate) fn save(&self, w: &mut dyn std::io::Write) -> std::io::Result<u32> {
        let mut out = CrcWriter {
            inner: w,
            crc: crc32fast::Hasher::new(),
        };
        let reps = self.reps.lock().unwrap_or_else(|p| p.into_inner());
        let mut head = Vec::with_capacity(48);
        head.extend_from_slice(TABLE_MAGIC);
        for v in [
            self.buckets as u64,
            self.generation.load(Ordering::Relaxed),
            self.purged.load(Ordering::Relaxed),
            reps.len() as u64,
        ] {
            head.extend_from_slice(&v.to_le_bytes());
        }
        out.write_all(&head)?;
        let mut buf = Vec::with_capacity(1 << 20);
        for s in &self.slots {
            for x in s {
                buf.extend_from_slice(&x.load(Ordering::Relaxed).to_le_bytes());
            }
            if buf.len() >= (1 << 20) - SLOT_BYTES {
                out.write_all(&buf)?;
                buf.clear();
            }
        }
        // Sorted, so that the bytes depend on the sets only.
        let mut sets: Vec<(&u64, &Reps)> = reps.iter().collect();
        sets.sort_unstable_by_key(|s| *s.0);
        for (&k, r) in sets {
            buf.extend_from_slice(&k.to_le_bytes());
            buf.extend_from_slice(&[r.n, r.overflow as u8]);
            for h in r.hashes() {
                buf.extend_from_slice(&h.to_le_bytes());
            }
            if buf.len() >= 1 << 20 {
                out.write_all(&buf)?;
                buf.clear();
            }
        }
        out.write_all(&buf)?;
        let crc = out.crc.clone().finalize();
        out.inner.write_all(&crc.to_le_bytes())?;
        Ok(crc)
    }

    /// Fills this new table (of the size the saved one had) from `r`, written
    /// by [`ProofTable::save`]; the crc32 it ended with. A table of another
    /// size, or bytes that do not check, are `InvalidData`.
    pub(crate) fn load(&self, r: &mut dyn std::io::Read) -> std::io::Result<u32> {
        let bad = |why: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, why.to_string());
        let mut input = CrcReader {
            inner: r,
            crc: crc32fast::Hasher::new(),
        };
        let mut head = [0u8; 8 + 32];
        input.read_exact(&mut head)?;
        if &head[..8] != TABLE_MAGIC {
            return Err(bad("not a saved proof table"));
        }
        let word = |i: usize| u64::from_le_bytes(head[8 + 8 * i..16 + 8 * i].try_into().unwrap());
        if word(0) != self.buckets as u64 {
            return Err(bad(&format!(
                "a table of {} buckets, not {} (another --hash)",
                word(0),
                self.buckets
            )));
        }
        // A megabyte at a time: a read a slot cost a zstd stream call and a
        // crc32 update each 24 bytes (half the load time of a 4 GiB table).
        let mut buf = vec![0u8; SLOT_BYTES << 15];
        for chunk in self.slots.chunks(1 << 15) {
            let bytes = &mut buf[..chunk.len() * SLOT_BYTES];
            input.read_exact(bytes)?;
            for (s, slot) in chunk.iter().zip(bytes.chunks_exact(SLOT_BYTES)) {
                for (x, w) in s.iter().zip(slot.chunks_exact(8)) {
                    x.store(u64::from_le_bytes(w.try_into().unwrap()), Ordering::Relaxed);
                }
            }
        }
        let mut reps = self.reps.lock().unwrap_or_else(|p| p.into_inner());
        reps.clear();
        let n_sets = word(3);
        if n_sets > self.reps_cap.min(reps.capacity()) as u64 {
            return Err(bad("more repetition sets than the table holds"));
        }
        for _ in 0..n_sets {
            let mut kb = [0u8; 10];
            input.read_exact(&mut kb)?;
            let n = kb[8] as usize;
            if n > MAX_REPS || kb[9] > 1 {
                return Err(bad("a damaged repetition set"));
            }
            let mut set = Reps {
                n: n as u8,
                overflow: kb[9] == 1,
                ..Reps::default()
            };
            let mut hb = [0u8; 8];
            for h in set.h.iter_mut().take(n) {
                input.read_exact(&mut hb)?;
                *h = u64::from_le_bytes(hb);
            }
            reps.insert(u64::from_le_bytes(kb[..8].try_into().unwrap()), set);
        }
        let crc = input.crc.clone().finalize();
        let mut tail = [0u8; 4];
        input.inner.read_exact(&mut tail)?;
        if u32::from_le_bytes(tail) != crc {
            return Err(bad("checksum mismatch"));
        }
        self.generation.store(word(1), Ordering::Relaxed);
        self.purged.store(word(2), Ordering::Relaxed);
        Ok(crc)
    }

    /// Empties the table.
    pub fn clear(&self) {
        self.reps.lock().unwrap_or_else(|p| p.into_inner()).clear();
        for s in &self.slots {
            for w in s {
                w.store(0, Ordering::Relaxed);
            }
        }
    }

    fn bucket(&self, key: u64) -> usize {
        // The high bits pick the bucket; the key check uses all 64.
        ((key as u128 * self.buckets as u128) >> 64) as usize * WAYS
    }

    fn read(&self, i: usize) -> (u64, u64, u64) {
        let s = &self.slots[i];
        let c = s[0].load(Ordering::Relaxed);
        let n = s[1].load(Ordering::Relaxed);
        let a = s[2].load(Ordering::Relaxed);
        (c ^ n ^ a, n, a)
    }

    fn decode(n: u64, a: u64) -> Entry {
        Entry {
            pn: n as u32,
            dn: (n >> 32) as u32,
            work: a & WORK_MASK,
            dist: ((a >> DIST_SHIFT) & DIST_MASK) as u32,
            hint: a & HINT_BIT != 0,
        }
    }

    /// The generation of `key`'s entry, if present.
    fn generation_of(&self, key: u64) -> Option<u64> {
        let key = key.max(1);
        let b = self.bucket(key);
        (b..b + WAYS).find_map(|i| {
            let (k, n, a) = self.read(i);
            (k == key && n != 0).then_some((a >> GEN_SHIFT) & GEN_MASK)
        })
    }

    /// The entry of `key`, if present. Key 0 is never stored (an empty slot).
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        let key = key.max(1);
        let b = self.bucket(key);
        for i in b..b + WAYS {
            let (k, n, a) = self.read(i);
            if k == key && n != 0 {
                return Some(Self::decode(n, a));
            }
        }
        None
    }

    /// Stores `e` under `key` (see the module docs for the replacement rule).
    pub(crate) fn store(&self, key: u64, e: Entry) {
        let key = key.max(1);
        let b = self.bucket(key);
        let mut victim = b;
        let mut least = u64::MAX;
        let now = self.current();
        for i in b..b + WAYS {
            let (k, n, a) = self.read(i);
            if k == key && n != 0 {
                if a & FINAL_BIT != 0 && !e.is_final() {
                    return;
                }
                victim = i;
                break;
            }
            // Empty or torn slots go first; then an older generation's
            // heuristics, then its finals, then the least work, finals
            // weighed double (work is below 2^32, so the classes never mix).
            let work = a & WORK_MASK;
            let stale = (a >> GEN_SHIFT) & GEN_MASK != now;
            let fin = a & FINAL_BIT != 0;
            let cost = if n == 0 || k != (self.slots[i][0].load(Ordering::Relaxed) ^ n ^ a) {
                0
            } else if stale && !fin {
                1 + work
            } else if stale {
                (1 << 34) + work
            } else if fin {
                (2 << 34) + work * 2
            } else {
                (2 << 34) + work
            };
            if cost < least {
                least = cost;
                victim = i;
            }
        }
        let n = e.pn as u64 | (e.dn as u64) << 32;
        // `n` is never 0 for a stored entry: a (0, 0) pair cannot occur.
        debug_assert!(n != 0);
        let a = e.work.min(WORK_MASK)
            | now << GEN_SHIFT
            | (e.dist as u64).min(DIST_MASK) << DIST_SHIFT
            | if e.is_final() { FINAL_BIT } else { 0 }
            | if e.hint { HINT_BIT } else { 0 };
        let s = &self.slots[victim];
        s[0].store(key ^ n ^ a, Ordering::Relaxed);
        s[1].store(n, Ordering::Relaxed);
        s[2].store(a, Ordering::Relaxed);
    }

    /// Removes the entry of `key` (certificate extraction re-proves a position
    /// whose proof was partly overwritten).
    #[cfg(test)]
    pub(crate) fn remove(&self, key: u64) {
        let key = key.max(1);
        let b = self.bucket(key);
        for i in b..b + WAYS {
            let (k, n, _) = self.read(i);
            if k == key && n != 0 {
                for w in &self.slots[i] {
                    w.store(0, Ordering::Relaxed);
                }
            }
        }
    }

    /// Per mille of the first 4000 slots in use.
    pub(crate) fn hashfull(&self) -> u32 {
        let n = self.slots.len().min(4000);
        let used = (0..n)
            .filter(|&i| self.slots[i][1].load(Ordering::Relaxed) != 0)
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plain entry (no distance, no hint).
    fn e(pn: u32, dn: u32, work: u64) -> Entry {
        Entry {
            pn,
            dn,
            work,
            dist: 0,
            hint: false,
        }
    }

    #[test]
    fn store_probe_and_replacement() {
        let t = ProofTable::new(0); // one bucket
        let mut r = Reps::one(5);
        r.union(&Reps::one(6));
        r.retain(|h| h != 5);
        assert_eq!(r.hashes(), &[6]);
        assert_eq!(t.capacity(), WAYS);
        for k in 1..=WAYS as u64 {
            t.store(k, e(1, 2, k * 10));
        }
        assert_eq!(t.probe(3), Some(e(1, 2, 30)));
        // A fifth key evicts the least work (key 1).
        t.store(99, e(5, 5, 1000));
        assert_eq!(t.probe(1), None);
        assert_eq!(t.probe(99).map(|x| x.pn), Some(5));
        // A final entry is not overwritten by a heuristic one.
        t.store(2, e(0, INF, 20));
        t.store(2, e(7, 7, 500));
        assert_eq!(t.probe(2).map(|x| x.pn), Some(0));
        t.remove(2);
        assert_eq!(t.probe(2), None);
    }

    #[test]
    fn older_generations_are_replaced_first() {
        let t = ProofTable::new(0); // one bucket
        t.store(1, e(1, 2, 1_000_000));
        t.store(2, e(0, INF, 1_000_000));
        t.store(3, e(1, 2, 2_000_000));
        t.store(4, e(1, 2, 3_000_000));
        t.new_generation();
        // The old heuristics go first, least work first, then the old final,
        // although every new entry has done less work than any of them.
        for (k, gone) in [(10, 1), (11, 3), (12, 4), (13, 2)] {
            t.store(k, e(1, 1, 1));
            assert_eq!(t.probe(gone), None, "key {gone} stays after {k}");
            assert!(t.probe(10).is_some(), "a new entry went before an old one");
        }
        // All current now: the least work goes.
        t.store(14, e(1, 1, 7));
        assert_eq!(t.probe(10), None);
        assert!(t.probe(14).is_some());
        // Without a new generation, nothing changes: the least work goes
        // (one of the three entries of work 1), never the entry of work 7.
        t.store(15, e(1, 1, 9));
        assert!(t.probe(14).is_some());
        let gone = [11, 12, 13].iter().filter(|&&k| t.probe(k).is_none());
        assert_eq!(gone.count(), 1);
    }

    #[test]
    fn a_full_repetition_map_drops_older_generations_sets() {
        let t = ProofTable::new(1);
        let hint = Entry {
            pn: 1,
            dn: 1,
            work: 1,
            dist: 0,
            hint: true,
        };
        let mut k = 1u64;
        while t.reps_full() < 1000 {
            k += 1;
            t.store(k, hint);
            t.store_reps(k, Reps::one(k));
        }
        // Full: within the generation a new set is dropped.
        t.store(u64::MAX, hint);
        t.store_reps(u64::MAX, Reps::one(7));
        assert_eq!(t.reps(u64::MAX), None);
        t.new_generation();
        t.store(u64::MAX - 1, hint);
        t.store_reps(u64::MAX - 1, Reps::one(8));
        assert_eq!(t.reps(u64::MAX - 1), Some(Reps::one(8)));
        assert_eq!(t.reps(2), None);
        assert!(t.reps_full() < 10);
    }
}
