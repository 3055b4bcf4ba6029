//! One tier solved in parts: the slots of a tier partitioned into index ranges,
//! one per *part* (an MPI rank, or a thread in tests), each part holding only
//! its range's state, the parts exchanging predecessor updates through a
//! [`Transport`].
//!
//! This module knows nothing of MPI: a [`Transport`] is one collective
//! operation, an all-to-all exchange of byte buffers, which every part calls
//! the same number of times in the same order. [`Threads`] is the in-process
//! transport (the parts as threads of one process, for `cargo test`);
//! `crate::cluster` implements it over MPI. Everything else (the algorithm, the
//! agreement on levels, the failure protocol, the part files and their join
//! into the usual table) is here and tested without MPI.
//!
//! # The algorithm
//! That of [`super::reference`] (scan, then propagation by distance, then draws),
//! with the state of slot `i` held by the part that owns `i`
//! (`Partition::owner`):
//! 1. **Scan.** Each part scans its own slots ([`TierGame::for_each_slot`](crate::tier::TierGame::for_each_slot)):
//!    terminal positions, exits resolved from the child tiers' records (every
//!    part holds them whole), in-tier moves counted. Decided slots and pending
//!    exit wins go into the part's frontier by distance.
//! 2. **Levels.** The parts agree on the smallest distance `d` any of them
//!    holds (one exchange). Each part finalises its pending wins at `d`, then
//!    the *loss phase*: for each of its losses at `d` it ranks the
//!    predecessors ([`TierGame::pred_ranks`](crate::tier::TierGame::pred_ranks)); a predecessor it owns becomes a
//!    win at `d + 1` at once, one another part owns is sent to that part (4
//!    bytes: its offset in the owner's range), buffers combined per
//!    destination and exchanged in rounds of at most [`SplitOptions::batch`]
//!    children per part. Then the *win phase*: for each win at `d`, each
//!    predecessor's counter is decremented by the number of its
//!    representative's moves into the child's class (6 bytes when remote); a
//!    counter reaching zero without an escape is a loss at
//!    `max(d + 1, worst exit loss)`. The loss phase ends everywhere before the
//!    win phase starts, as in the one-process solver, so the records are the
//!    same: a position's value and distance are a function of the game graph.
//! 3. **Draws.** What is left undecided is a draw.
//!
//! State per part: 6 bytes a slot of its range (record, counter, exit bits:
//! [`SPLIT_STATE_BYTES_PER_SLOT`]), its frontier lists (4 bytes an entry), the
//! exchange buffers of one round, and the child tiers' records whole (2 bytes a
//! child slot). [`part_memory`] is the estimate a solve checks against the
//! limit.
//!
//! # On the compact encoding
//! By default ([`SplitOptions::compact`]) a tier is split on the compact
//! solver's counted bytes instead (`compact.rs`): two bytes a slot
//! of the part's range, the children's records held sparse, update records of
//! 8 bytes exchanged in rounds (a 256th of a part's share each), applied on
//! receipt; the levels are the out-of-core passes' (`crate::retro::compact::ooc`),
//! with the same records. Each part checkpoints its bytes at level boundaries
//! ([`SplitOptions::checkpoint_every`], files `DIR/<tier>.p<k>of<n>.c<d>`), and a
//! rerun resumes from the latest boundary every part holds; during its scan
//! (which exchanges nothing) each part checkpoints on its own
//! (`DIR/<tier>.p<k>of<n>.cscan`) and goes on from it.
//! [`part_memory`] with `compact` is its estimate. A tier the encoding cannot hold (a
//! position with more than 254 in-tier moves, a distance past 83) is given up
//! by every part together and solved by the full split solver.
//!
//! # Failures
//! Every message starts with a status byte. A part whose own work fails
//! (a bad position, a file it cannot write, a stop request) takes part in the
//! next exchange with a failure message instead of its data, then returns its
//! error; the other parts, receiving it, return [`Error::Cluster`] naming the
//! part and its error. A part that dies outright is the transport's business
//! (under MPI, `mpirun` ends the job).
//!
//! # Files
//! [`solve_split`] solves a scope tier after tier in plan order, every tier in
//! parts. Each part writes its range's records to `DIR/<tier>.p<k>of<n>`
//! (`part_path`: a small header, then the records; temporary file and
//! rename); once every part's file is there, part 0 joins them into
//! `DIR/<tier>.hst` block by block (`crate::table::write_table_from`, so no
//! part holds the whole tier's records) and removes the part files. A rerun
//! keeps every whole table (as [`super::driver::solve`] does) and, for a tier
//! whose part files are all present and valid, only joins them again.

mod compact;
mod files;
mod part;
mod solve;
mod threads;

pub use crate::retro::driver::part_memory;
pub(crate) use crate::retro::driver::{
    plan_part_memory, round_records, SPLIT_FRONTIER_BYTES_PER_SLOT, SPLIT_STATE_BYTES_PER_SLOT,
};
pub use crate::retro::lock::UNFINISHED_MARK;
pub(crate) use compact::split_tier_in_process;
pub(crate) use files::part_path;
pub use part::solve_part;
pub use solve::{solve_split, SplitEvent, SplitSolveOptions};
pub use threads::{run_parts, Threads};

use super::solver::TierStats;
use crate::error::{Error, Result};
use std::ops::Range;
use std::sync::Arc;

// `aux` bits: an escaping exit, the slowest loss through an exit.
use super::kernel::{AUX_ESCAPE, AUX_LOSS};

/// Slots per scanning job.
const CHUNK: usize = 1 << 12;
/// Slots per window of the scan (see `solve_part_in`).
const SCAN_WINDOW: usize = 1 << 20;

/// Message status: data follows.
const MSG_OK: u8 = 0;
/// Message status: the sending part failed; its error text follows.
const MSG_FAILED: u8 = 1;

/// The collective operation the parts of a split solve communicate by.
pub trait Transport {
    /// This part's number, `0..parts()`.
    fn part(&self) -> usize;
    /// Number of parts.
    fn parts(&self) -> usize;
    /// All-to-all: `out[k]` goes to part `k` (`out.len() == parts()`, the
    /// buffer to this part itself included); returns what every part sent to
    /// this one, by sender. Every part calls it the same number of times.
    fn exchange(&mut self, out: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>>;
}

/// The slots of a tier in `parts` consecutive index ranges of equal size (±1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Partition {
    size: u64,
    parts: usize,
}

impl Partition {
    /// `size` slots in `parts` ranges; refuses a range of 2^32 slots or more (a
    /// part's frontier entries and messages are 32-bit offsets).
    pub(crate) fn new(size: u64, parts: usize) -> Result<Partition> {
        if parts == 0 {
            return Err(Error::Usage("a split solve needs at least one part".into()));
        }
        let p = Partition { size, parts };
        let share = size.div_ceil(parts as u64);
        if share >= u32::MAX as u64 {
            return Err(Error::Memory(format!(
                "{size} slots in {parts} parts is {share} slots a part; a part holds at most 2^32 - 1: use more ranks"
            )));
        }
        Ok(p)
    }

    /// First slot of part `k` (`k == parts`: the tier's size).
    fn start(&self, k: usize) -> u64 {
        (k as u128 * self.size as u128 / self.parts as u128) as u64
    }

    /// `size` slots in `parts` ranges of any size (the compact split's
    /// records and the part files hold 64-bit slots).
    pub(crate) fn wide(size: u64, parts: usize) -> Result<Partition> {
        if parts == 0 {
            return Err(Error::Usage("a split solve needs at least one part".into()));
        }
        Ok(Partition { size, parts })
    }

    /// The slots of part `k`.
    pub(crate) fn range(&self, k: usize) -> Range<u64> {
        self.start(k)..self.start(k + 1)
    }

    /// The part that owns slot `i` (`i < size`).
    pub(crate) fn owner(&self, i: u64) -> usize {
        // The largest k with start(k) <= i: k·size < (i + 1)·parts.
        ((((i as u128 + 1) * self.parts as u128) - 1) / self.size as u128) as usize
    }
}

/// Options of a split solve.
#[derive(Clone, Debug)]
pub struct SplitOptions {
    /// Children of a level each part handles per exchange round (bounds the
    /// exchange buffers: about 10 predecessors of 4-6 bytes each per child).
    pub batch: usize,
    /// The threads of this part's sweeps (`None`: the current rayon pool). The
    /// exchanges run on the calling thread, never inside the pool, so a
    /// transport need not be `Send` (an MPI communicator is not).
    pub pool: Option<Arc<rayon::ThreadPool>>,
    /// Tiers on the compact encoding (two bytes a slot, children held
    /// sparse, checkpoints) where it holds them; `false`: every tier by the
    /// full split solver (six bytes a slot, children whole).
    pub compact: bool,
    /// Least time between two checkpoints of a compact split tier (zero: at
    /// every level; `None`: none).
    pub checkpoint_every: Option<std::time::Duration>,
    /// Test hook: a compact split tier checkpoints and stops
    /// ([`Error::Interrupted`]) at the first level boundary at or past this
    /// distance, as a killed job's rerun would find it.
    pub stop_at: Option<u32>,
    /// Test hook: a compact split tier's scan stops ([`Error::Interrupted`],
    /// its own checkpoint written) once this many chunks of the part are
    /// scanned, as a job killed during the scan would leave it.
    pub stop_scan_after: Option<usize>,
}

impl Default for SplitOptions {
    fn default() -> Self {
        SplitOptions {
            batch: 1 << 16,
            pool: None,
            compact: true,
            checkpoint_every: Some(crate::retro::driver::DEFAULT_CHECKPOINT_EVERY),
            stop_at: None,
            stop_scan_after: None,
        }
    }
}

impl SplitOptions {
    /// Runs `f` on this part's pool.
    fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        match &self.pool {
            Some(p) => p.install(f),
            None => f(),
        }
    }
}

/// What a part sent and applied during one split tier.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Traffic {
    /// Predecessor updates to slots of this part (applied without a message).
    pub local_updates: u64,
    /// Predecessor updates sent to other parts.
    pub remote_updates: u64,
    /// Bytes sent to other parts (status bytes and agreement messages included).
    pub bytes_sent: u64,
    /// Exchanges this part took part in.
    pub exchanges: u64,
    /// Most frontier entries this part held at once.
    pub peak_frontier: u64,
}

impl Traffic {
    /// Adds another part's counts (sums; the larger peak).
    pub(crate) fn merge(&mut self, o: &Traffic) {
        self.local_updates += o.local_updates;
        self.remote_updates += o.remote_updates;
        self.bytes_sent += o.bytes_sent;
        self.exchanges = self.exchanges.max(o.exchanges);
        self.peak_frontier = self.peak_frontier.max(o.peak_frontier);
    }
}

/// One part's share of a solved tier.
#[derive(Clone, Debug)]
pub struct PartResult {
    /// The slots of this part.
    pub range: Range<u64>,
    /// Their records.
    pub records: Vec<u16>,
    /// The whole tier's statistics (every part's counts, gathered).
    pub stats: TierStats,
    /// This part's traffic.
    pub traffic: Traffic,
    /// Every part's traffic, summed.
    pub total_traffic: Traffic,
    /// Seconds this part spent.
    pub seconds: f64,
}

/// A transport with the status protocol of this module on top.
struct Net<'a, T: Transport> {
    t: &'a mut T,
    /// An exchange failed (a part reported a failure, or the transport itself):
    /// no failure message is sent after it.
    broken: bool,
    traffic: Traffic,
}

impl<'a, T: Transport> Net<'a, T> {
    fn new(t: &'a mut T) -> Self {
        Net {
            t,
            broken: false,
            traffic: Traffic::default(),
        }
    }

    fn me(&self) -> usize {
        self.t.part()
    }

    fn parts(&self) -> usize {
        self.t.parts()
    }

    /// One exchange of data (`out[k]` for part `k`, without status bytes).
    fn round(&mut self, mut out: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>> {
        let me = self.me();
        for (k, o) in out.iter_mut().enumerate() {
            o.insert(0, MSG_OK);
            if k != me {
                self.traffic.bytes_sent += o.len() as u64;
            }
        }
        self.traffic.exchanges += 1;
        let got = match self.t.exchange(out) {
            Ok(g) => g,
            Err(e) => {
                self.broken = true;
                return Err(e);
            }
        };
        let mut data = Vec::with_capacity(got.len());
        for (k, mut m) in got.into_iter().enumerate() {
            match m.first() {
                Some(&MSG_OK) => {
                    m.remove(0);
                    data.push(m);
                }
                Some(&MSG_FAILED) => {
                    self.broken = true;
                    let text = String::from_utf8_lossy(&m[1..]).into_owned();
                    return Err(Error::Cluster(format!(
                        "part {k} of the split solve failed: {text}"
                    )));
                }
                _ => {
                    self.broken = true;
                    return Err(Error::Internal(format!(
                        "a split-solve message from part {k} has no status byte"
                    )));
                }
            }
        }
        Ok(data)
    }

    /// The same bytes to every part; what every part sent.
    fn gather(&mut self, mine: Vec<u8>) -> Result<Vec<Vec<u8>>> {
        let out = vec![mine; self.parts()];
        self.round(out)
    }

    /// The smallest of every part's `x`.
    fn min(&mut self, x: u64) -> Result<u64> {
        Ok(self
            .gather(x.to_le_bytes().to_vec())?
            .iter()
            .map(|b| msg_u64(b, 0))
            .collect::<Result<Vec<_>>>()?
            .into_iter()
            .min()
            .unwrap_or(x))
    }

    /// The largest of every part's `x`.
    fn max(&mut self, x: u64) -> Result<u64> {
        Ok(self
            .gather(x.to_le_bytes().to_vec())?
            .iter()
            .map(|b| msg_u64(b, 0))
            .collect::<Result<Vec<_>>>()?
            .into_iter()
            .max()
            .unwrap_or(x))
    }

    /// Every part's `Ok`, or the first failure. A local error is told to the
    /// others (one failure message) and returned; a part that learns of another's
    /// failure returns [`Error::Cluster`].
    fn agree(&mut self, local: Result<Vec<u8>>) -> Result<Vec<Vec<u8>>> {
        match local {
            Ok(bytes) => self.gather(bytes),
            Err(e) => Err(self.fail(e)),
        }
    }

    /// Tells the other parts that this one failed with `e` (unless an exchange
    /// already broke), and returns `e`.
    fn fail(&mut self, e: Error) -> Error {
        if !self.broken {
            self.broken = true;
            let mut msg = vec![MSG_FAILED];
            msg.extend_from_slice(e.to_string().as_bytes());
            let _ = self.t.exchange(vec![msg; self.t.parts()]);
        }
        e
    }
}

/// The little-endian u64 at `at` of a slice whose length the caller checked
/// (an exact chunk, a file of the checked length).
fn u64_at(b: &[u8], at: usize) -> u64 {
    debug_assert!(b.len() >= at + 8, "u64_at past the end");
    let mut x = [0u8; 8];
    if let Some(s) = b.get(at..at + 8) {
        x.copy_from_slice(s);
    }
    u64::from_le_bytes(x)
}

/// The little-endian u32 at `at` of a slice whose length the caller checked.
fn u32_at(b: &[u8], at: usize) -> u32 {
    debug_assert!(b.len() >= at + 4, "u32_at past the end");
    let mut x = [0u8; 4];
    if let Some(s) = b.get(at..at + 4) {
        x.copy_from_slice(s);
    }
    u32::from_le_bytes(x)
}

/// The little-endian u64 at `at` of a message from another part: a message
/// too short is an error naming its length, never read as zeros.
fn msg_u64(b: &[u8], at: usize) -> Result<u64> {
    match b.get(at..at + 8) {
        Some(s) => Ok(u64_at(s, 0)),
        None => Err(short_message(b.len(), at + 8)),
    }
}

/// The little-endian u32 at `at` of a message from another part (see [`msg_u64`]).
fn msg_u32(b: &[u8], at: usize) -> Result<u32> {
    match b.get(at..at + 4) {
        Some(s) => Ok(u32_at(s, 0)),
        None => Err(short_message(b.len(), at + 4)),
    }
}

fn short_message(len: usize, want: usize) -> Error {
    Error::Internal(format!(
        "split: a message from another part has {len} bytes where at least {want} were expected"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partition_owner_matches_ranges() {
        for size in [1u64, 2, 3, 7, 100, 1001] {
            for parts in 1..6 {
                let p = Partition::new(size, parts).unwrap();
                assert_eq!(p.range(0).start, 0);
                assert_eq!(p.range(parts - 1).end, size);
                for k in 0..parts {
                    for i in p.range(k) {
                        assert_eq!(p.owner(i), k, "size {size} parts {parts} slot {i}");
                    }
                }
            }
        }
    }

    #[test]
    fn threads_exchange_all_to_all() {
        let got = run_parts(3, 1, &|t: &mut Threads| {
            let me = t.part() as u8;
            let mut seen = Vec::new();
            for round in 0..5u8 {
                let out = (0..3u8).map(|k| vec![me, k, round]).collect();
                seen.push(t.exchange(out)?);
            }
            Ok(seen)
        });
        for (me, r) in got.into_iter().enumerate() {
            for (round, msgs) in r.unwrap().into_iter().enumerate() {
                for (from, m) in msgs.into_iter().enumerate() {
                    assert_eq!(m, vec![from as u8, me as u8, round as u8]);
                }
            }
        }
    }

    #[test]
    fn a_failing_part_stops_the_others() {
        let got = run_parts(3, 1, &|t: &mut Threads| {
            let mut net = Net::new(t);
            let me = net.me();
            net.min(me as u64)?;
            let local = if me == 1 {
                Err(Error::Usage("part one cannot".into()))
            } else {
                Ok(Vec::new())
            };
            net.agree(local)?;
            Ok(())
        });
        assert!(matches!(&got[1], Err(Error::Usage(_))));
        for k in [0, 2] {
            let e = got[k].as_ref().unwrap_err().to_string();
            assert!(e.contains("part 1") && e.contains("part one cannot"), "{e}");
        }
    }
}
