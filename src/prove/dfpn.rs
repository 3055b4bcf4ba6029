//! Depth-first proof-number search (Nagai 2002) with the 1+ε trick
//! (Pawlewicz & Lew 2007) for one goal: "side S forces a win". See the module
//! docs of [`crate::prove`] for how repetition and the graph-history
//! interaction are handled.

mod closure;
mod config;
mod extract;
mod local;
mod runs;
mod search;
pub(crate) use super::budget::STACK_BYTES;
use super::budget::{vec_bytes, Account, MOVES_RESERVE, PATH_ENTRY_BYTES};
use super::tt::{ProofTable, Reps, INF};
use crate::game::{Game, Oracle, Value};
use crate::progress::{stop_requested, Progress};
pub use config::{Init, ProveConfig, RunOutcome, RunReport, StopReason, DEFAULT_SPREAD_PLIES};
pub use extract::{extract, LeafTable};
use hashbrown::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// "No repetition": a disproof that depends on no position above it.
pub(crate) const NO_REP: u32 = u32::MAX;
/// Proof number stored for a path-dependent disproof (with disproof number 1):
/// a hint that steers the search, never a result.
const PATH_DISPROOF_PN: u32 = 1;
const PATH_DISPROOF_DN: u32 = 1;

/// Whether `v` (from the view of the side to move, `mover`) is a win for `side`.
pub fn wins_for(v: Value, mover: usize, side: usize) -> bool {
    (v == Value::Win && mover == side) || (v == Value::Loss && mover != side)
}

/// Key of a position in the table for goal side `side`.
pub(crate) fn key_of(hash: u64, side: usize) -> u64 {
    if side == 0 {
        hash
    } else {
        hash ^ 0x5bd1_e995_9e37_79b9
    }
}

/// What every thread of a prover shares (counters, limits, stop flags, the
/// busy marks); a [`Worker`] holds a reference.
struct Shared {
    stop: AtomicBool,
    external: Arc<AtomicBool>,
    nodes: AtomicU64,
    table_hits: AtomicU64,
    positions: AtomicU64,
    root_pn: AtomicU32,
    root_dn: AtomicU32,
    start: Instant,
    deadline: Option<Duration>,
    node_limit: Option<u64>,
    /// Threads currently inside a node, by hash bits (virtual proof numbers).
    busy: Vec<AtomicU32>,
    /// Total node count at which the current phase ends.
    phase_end: AtomicU64,
    /// A worker could not charge the memory budget: every run stops.
    memory_out: AtomicBool,
    /// A df-pn line reached the deepest ply a thread's stack holds: every run stops.
    depth_out: AtomicBool,
    /// Plies from the root within which busy children count as harder.
    spread_plies: u32,
}

impl Shared {
    fn should_stop(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.external.load(Ordering::Relaxed)
            || self.memory_out.load(Ordering::Relaxed)
            || self.depth_out.load(Ordering::Relaxed)
            || stop_requested()
    }
}

const BUSY_SLOTS: usize = 1 << 16;

/// One prover thread: the state each phase of a run receives, as `&mut self`
/// (df-pn here; the closure search in `closure.rs`, the local analysis in
/// `local.rs`, the certificate extraction in `extract.rs`; each names what it
/// uses of this module in its imports).
pub(crate) struct Worker<'a, G: Game, O: Oracle<G>> {
    game: &'a G,
    oracle: &'a O,
    tt: &'a ProofTable,
    shared: &'a Shared,
    side: usize,
    id: usize,
    eps: f64,
    symmetry: bool,
    init: Init,
    quick_check: bool,
    path: HashMap<u64, u32>,
    nodes: u64,
    flushed: u64,
    hits: u64,
    /// Positions looked up since the last flush.
    looks: u64,
    stopped: bool,
    progress: Option<&'a dyn Progress>,
    /// This worker's share of the memory budget.
    pub(crate) acct: Account<'a>,
    /// Path-map entries charged (the map's largest size so far).
    path_charged: usize,
    /// A charge that does not fit only ends this worker's phase (the closure
    /// search and the local analysis), instead of stopping the run.
    pub(crate) soft_memory: bool,
    /// A soft charge did not fit: the phase was cut short by the budget.
    pub(crate) memory_hit: bool,
}

/// What the closure search and the local analysis know of a position
/// without searching it: a final win of the goal side (with its distance),
/// a final non-win, or nothing yet.
pub(crate) enum Known {
    Win(u32),
    NoWin,
    Open,
}

/// What a worker knows about a position without expanding it.
pub(crate) struct Look {
    pub pn: u32,
    pub dn: u32,
    pub dist: u32,
    pub fixed: bool,
    pub rep: u32,
    pub reps: Reps,
}

impl Look {
    /// The (pn, dn, dist) of a final result that holds on any path (not a
    /// repetition or a path-dependent disproof), as a root's answer.
    pub(crate) fn settled(&self) -> Option<(u32, u32, u32)> {
        (self.fixed && self.rep == NO_REP && (self.pn == 0 || self.dn == 0))
            .then_some((self.pn, self.dn, self.dist))
    }
}

impl<'a, G: Game, O: Oracle<G>> Worker<'a, G, O> {
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            let total = self.flush();
            if self.shared.node_limit.is_some_and(|n| total >= n)
                || self
                    .shared
                    .deadline
                    .is_some_and(|d| self.shared.start.elapsed() >= d)
            {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
            if self.oracle.failed() {
                // A damaged table: stop every run, the caller reports the error.
                self.shared.stop.store(true, Ordering::Relaxed);
            }
            if self.shared.should_stop() || total >= self.shared.phase_end.load(Ordering::Relaxed) {
                self.stopped = true;
            }
            if self.id == 0 && self.nodes & 0xffff == 0 {
                if let Some(p) = self.progress {
                    let (pn, dn) = (
                        self.shared.root_pn.load(Ordering::Relaxed),
                        self.shared.root_dn.load(Ordering::Relaxed),
                    );
                    let secs = self.shared.start.elapsed().as_secs_f64().max(1e-9);
                    p.message(&format!(
                        "{} wins? root pn {} dn {}, {} nodes, {:.0} nodes/s, table {}‰",
                        self.game.side_name(self.side),
                        num(pn),
                        num(dn),
                        total,
                        total as f64 / secs,
                        self.tt.hashfull()
                    ));
                }
            }
        }
        self.stopped
    }

    /// Charges `n` bytes to the memory budget; when they do not fit, marks
    /// the prover out of memory and stops this worker.
    pub(crate) fn charge(&mut self, n: usize) -> bool {
        if self.acct.charge(n) {
            return true;
        }
        if self.soft_memory {
            self.memory_hit = true;
            self.stopped = true;
            return false;
        }
        self.shared.memory_out.store(true, Ordering::Relaxed);
        self.shared.stop.store(true, Ordering::Relaxed);
        self.stopped = true;
        false
    }

    /// The moves of `pos` with the frame's charge (move list, `T` per child
    /// and `native` bytes of stack); `None` when the budget is spent. The move
    /// list is charged [`MOVES_RESERVE`] before it is generated, then its size.
    pub(crate) fn frame_moves<T>(
        &mut self,
        pos: &G::Pos,
        native: usize,
    ) -> Option<(Vec<G::Move>, usize)> {
        let before = native + MOVES_RESERVE;
        if !self.charge(before) {
            return None;
        }
        let mut moves = Vec::new();
        self.game.legal_moves(pos, &mut moves);
        let list = vec_bytes::<G::Move>(moves.capacity());
        let frame = native + list + vec_bytes::<T>(moves.len());
        if frame > before {
            if !self.charge(frame - before) {
                self.acct.release(before);
                return None;
            }
        } else {
            self.acct.release(before - frame);
        }
        Some((moves, frame))
    }

    /// Makes room for one more path entry; `false` when the budget is spent.
    fn charge_path(&mut self) -> bool {
        if self.path.len() < self.path_charged {
            return true;
        }
        if !self.charge(PATH_ENTRY_BYTES) {
            return false;
        }
        self.path_charged += 1;
        true
    }

    /// Adds this thread's counts to the shared ones; returns the nodes of all
    /// threads so far.
    fn flush(&mut self) -> u64 {
        let new = self.nodes - self.flushed;
        let total = self.shared.nodes.fetch_add(new, Ordering::Relaxed) + new;
        self.shared
            .table_hits
            .fetch_add(std::mem::take(&mut self.hits), Ordering::Relaxed);
        self.shared
            .positions
            .fetch_add(std::mem::take(&mut self.looks), Ordering::Relaxed);
        self.flushed = self.nodes;
        total
    }
}

/// Formats a proof number (`inf` for infinity).
pub fn num(n: u32) -> String {
    if n == INF {
        "inf".into()
    } else {
        n.to_string()
    }
}

/// A prover bound to a game, leaves and table: runs workers for one goal.
pub struct Prover<'a, G: Game, O: Oracle<G>> {
    /// The game.
    pub game: &'a G,
    /// Exact values of positions (tables), used as leaves.
    pub oracle: &'a O,
    /// The shared proof table.
    pub tt: &'a ProofTable,
    /// Configuration.
    pub cfg: ProveConfig,
    shared: Shared,
    /// Bytes of the busy counters charged to the budget.
    busy_bytes: usize,
}

impl<G: Game, O: Oracle<G>> Drop for Prover<'_, G, O> {
    fn drop(&mut self) {
        self.tt.budget().release(self.busy_bytes);
    }
}

impl<'a, G: Game, O: Oracle<G>> Prover<'a, G, O> {
    /// A prover; the clock of `cfg.time` starts now and covers every run.
    pub fn new(game: &'a G, oracle: &'a O, tt: &'a ProofTable, cfg: ProveConfig) -> Self {
        let threads = cfg.threads.max(1);
        let slots = if threads > 1 { BUSY_SLOTS } else { 1 };
        let busy_bytes = vec_bytes::<AtomicU32>(slots);
        // Charged before they are made; without room, every run stops at once.
        let charged = tt.budget().try_charge(busy_bytes);
        let shared = Shared {
            stop: AtomicBool::new(false),
            external: cfg.stop.clone(),
            nodes: AtomicU64::new(0),
            table_hits: AtomicU64::new(0),
            positions: AtomicU64::new(0),
            root_pn: AtomicU32::new(1),
            root_dn: AtomicU32::new(1),
            start: Instant::now(),
            deadline: cfg.time,
            node_limit: cfg.nodes,
            busy: (0..if charged { slots } else { 1 })
                .map(|_| AtomicU32::new(0))
                .collect(),
            phase_end: AtomicU64::new(u64::MAX),
            memory_out: AtomicBool::new(!charged),
            depth_out: AtomicBool::new(false),
            spread_plies: cfg.spread_plies,
        };
        Prover {
            game,
            oracle,
            tt,
            cfg,
            shared,
            busy_bytes: if charged { busy_bytes } else { 0 },
        }
    }

    pub(crate) fn worker(&'a self, side: usize, id: usize) -> Worker<'a, G, O> {
        Worker {
            game: self.game,
            oracle: self.oracle,
            tt: self.tt,
            shared: &self.shared,
            side,
            id,
            eps: self.cfg.epsilon,
            symmetry: self.cfg.symmetry,
            init: self.cfg.init,
            quick_check: self.cfg.quick_check,
            path: HashMap::new(),
            nodes: 0,
            flushed: 0,
            hits: 0,
            looks: 0,
            stopped: false,
            progress: None,
            acct: Account::new(self.tt.budget()),
            path_charged: 0,
            soft_memory: false,
            memory_hit: false,
        }
    }

    /// The proof-table key of `pos` (see [`ProveConfig::symmetry`]).
    pub(crate) fn key(&self, pos: &G::Pos) -> u64 {
        if self.cfg.symmetry {
            self.game.canonical_hash(pos)
        } else {
            self.game.hash(pos)
        }
    }

    /// Whether a run stopped because the memory budget was spent.
    pub(crate) fn out_of_memory(&self) -> bool {
        self.shared.memory_out.load(Ordering::Relaxed)
    }
}
