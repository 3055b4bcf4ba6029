//! The prover's memory budget (`--hash MiB`): one account that everything the
//! prover keeps is charged to before it is allocated, so that the total stays
//! within the bound.
//!
//! What is charged:
//! - the transposition table's slots and its repetition-set map, once, when
//!   the table is made ([`super::tt::ProofTable::new`]: both are allocated at
//!   their full size then and never grow);
//! - each search frame of a worker (df-pn's `mid`, the closure search's
//!   `close`, the certificate builder's recursion): its list of children, its
//!   move list and a fixed allowance for the native stack frame
//!   (`FRAME_BYTES`, `SMALL_FRAME_BYTES`), charged on entry and released on exit; a worker's
//!   path map at its largest size so far (`PATH_ENTRY_BYTES`);
//! - with several threads, the prover's busy counters (256 KiB);
//! - each position of the closure search's set (`CLOSURE_ENTRY_BYTES`),
//!   released when an attempt is rolled back and when the search ends;
//! - each node of a certificate being built, with its memo entry, and the
//!   renumbered copy made at the end.
//!
//! Sizes of hash maps and vectors are charged with their growth slack (a
//! vector may hold twice its length, a hash map about 2.3 times its entries),
//! so the figures are upper bounds of what the allocator is asked for. A move
//! list is charged `MOVES_RESERVE` before it is generated, and any excess
//! after; the only allocation not charged beforehand is a move list longer
//! than that reserve, and it is charged (or the frame refused) at once.
//!
//! When a charge does not fit, the search stops with the result "out of
//! memory budget" (a run's [`super::dfpn::StopReason::Memory`]); the
//! certificate builder returns [`crate::error::Error::Memory`]. Nothing is
//! allocated past the bound first.
//!
//! Workers take the budget in chunks (`Account`), so that two threads do
//! not contend on one counter at every node; what a worker holds but has not
//! used is part of the reported peak, which therefore never understates.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Allowance per df-pn frame (`mid`) for its native stack frame: 912 bytes
/// measured per level in a dev build (opt-level 1), with a margin.
pub(crate) const FRAME_BYTES: usize = 1536;
/// Allowance per closure-search or certificate-builder frame for its native
/// stack frame: 431 bytes measured per level of the closure search in a dev
/// build, with a margin.
pub(crate) const SMALL_FRAME_BYTES: usize = 768;
/// Stack of each prover thread: the recursion is as deep as the longest
/// repetition-free line searched.
pub(crate) const STACK_BYTES: usize = 512 << 20;
/// Deepest recursion of df-pn (`mid`) on a prover thread: its stack
/// ([`STACK_BYTES`]) over [`FRAME_BYTES`]. The budget alone
/// does not bound the depth below that: with `--hash 12288`, the closure search
/// recursed past the 512 MiB stack and the process aborted.
pub(crate) const MAX_FRAME_DEPTH: usize = STACK_BYTES / FRAME_BYTES;
/// Deepest recursion of the closure search and the certificate builder:
/// the stack over [`SMALL_FRAME_BYTES`].
pub(crate) const MAX_SMALL_FRAME_DEPTH: usize = STACK_BYTES / SMALL_FRAME_BYTES;
/// Bytes per entry of a worker's path map (hash map with slack), charged at
/// its high-water mark: a hash map keeps its capacity when emptied.
pub(crate) const PATH_ENTRY_BYTES: usize = 40;
/// Move-list bytes charged before the moves of a frame are generated.
pub(crate) const MOVES_RESERVE: usize = 2048;
/// Bytes per position of the closure search's set (journal entry and map
/// entry with their growth slack).
pub(crate) const CLOSURE_ENTRY_BYTES: usize = 48;
/// Bytes per memo entry of the certificate builder (hash map with slack).
pub(crate) const MEMO_ENTRY_BYTES: usize = 40;
/// Size of the chunks a worker takes from the shared budget.
const CHUNK: usize = 256 << 10;

/// The shared budget: a cap and the bytes charged against it.
#[derive(Debug)]
pub struct MemoryBudget {
    cap: usize,
    used: AtomicUsize,
    peak: AtomicUsize,
}

impl MemoryBudget {
    /// A budget of `cap` bytes, none used.
    pub(crate) fn new(cap: usize) -> MemoryBudget {
        MemoryBudget {
            cap,
            used: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
        }
    }

    /// The bound in bytes.
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// Bytes charged now.
    #[cfg(test)]
    pub(crate) fn used(&self) -> usize {
        self.used.load(Ordering::Relaxed)
    }

    /// Most bytes charged at once so far.
    pub fn peak(&self) -> usize {
        self.peak.load(Ordering::Relaxed)
    }

    /// Charges `n` bytes if they fit under the cap.
    pub(crate) fn try_charge(&self, n: usize) -> bool {
        let mut cur = self.used.load(Ordering::Relaxed);
        loop {
            let Some(next) = cur.checked_add(n).filter(|&x| x <= self.cap) else {
                return false;
            };
            match self
                .used
                .compare_exchange_weak(cur, next, Ordering::Relaxed, Ordering::Relaxed)
            {
                Ok(_) => {
                    self.peak.fetch_max(next, Ordering::Relaxed);
                    return true;
                }
                Err(x) => cur = x,
            }
        }
    }

    /// Returns `n` charged bytes.
    pub(crate) fn release(&self, n: usize) {
        let prev = self.used.fetch_sub(n, Ordering::Relaxed);
        debug_assert!(prev >= n, "released more than was charged");
    }
}

/// One worker's account: takes the shared budget in chunks, gives back what
/// it holds when dropped.
#[derive(Debug)]
pub(crate) struct Account<'a> {
    budget: &'a MemoryBudget,
    held: usize,
    used: usize,
}

impl<'a> Account<'a> {
    /// An empty account on `budget`.
    pub(crate) fn new(budget: &'a MemoryBudget) -> Account<'a> {
        Account {
            budget,
            held: 0,
            used: 0,
        }
    }

    /// Charges `n` bytes; `false` (and nothing charged) when the budget is spent.
    pub(crate) fn charge(&mut self, n: usize) -> bool {
        let need = (self.used + n).saturating_sub(self.held);
        if need > 0 {
            let take = need.max(CHUNK);
            if self.budget.try_charge(take) {
                self.held += take;
            } else if self.budget.try_charge(need) {
                self.held += need;
            } else {
                return false;
            }
        }
        self.used += n;
        true
    }

    /// Returns `n` bytes charged by [`Account::charge`]; gives chunks back to
    /// the shared budget when more than two are idle.
    pub(crate) fn release(&mut self, n: usize) {
        debug_assert!(n <= self.used);
        self.used -= n.min(self.used);
        let idle = self.held - self.used;
        if idle > 2 * CHUNK {
            let give = idle - CHUNK;
            self.budget.release(give);
            self.held -= give;
        }
    }
}

impl Drop for Account<'_> {
    fn drop(&mut self) {
        self.budget.release(self.held);
    }
}

/// Bytes a vector of `cap` elements of `T` may occupy (its capacity as given).
pub(crate) fn vec_bytes<T>(cap: usize) -> usize {
    cap.saturating_mul(std::mem::size_of::<T>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charges_stay_under_the_cap_and_are_returned() {
        let b = MemoryBudget::new(CHUNK + 100);
        {
            let mut a = Account::new(&b);
            assert!(a.charge(10));
            assert_eq!(b.used(), CHUNK);
            assert!(a.charge(CHUNK - 10));
            // The chunk is gone; only 100 bytes are left for an exact charge.
            assert!(a.charge(100));
            assert!(!a.charge(1));
            assert_eq!(b.used(), CHUNK + 100);
            let mut other = Account::new(&b);
            assert!(!other.charge(1));
            a.release(CHUNK + 100);
            assert!(a.charge(50));
        }
        assert_eq!(b.used(), 0);
        assert_eq!(b.peak(), CHUNK + 100);
        assert!(!b.try_charge(CHUNK + 101));
    }
}
