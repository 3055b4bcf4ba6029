//! Depth-first proof-number search (Nagai 2002) with the 1+ε trick
//! (Pawlewicz & Lew 2007) for one goal: "side S forces a win". See the module
//! docs of [`crate::prove`] for how repetition and the graph-history
//! interaction are handled.

mod closure;
mod extract;
mod local;
mod runs;
pub(crate) use super::budget::STACK_BYTES;
use super::budget::{
    vec_bytes, Account, FRAME_BYTES, MAX_FRAME_DEPTH, MOVES_RESERVE, PATH_ENTRY_BYTES,
};
use super::tt::{Entry, ProofTable, Reps, INF, MAX_FINITE};
use crate::game::{Game, Oracle, Value};
use crate::progress::{stop_requested, Progress};
pub use extract::{extract, LeafTable};
use hashbrown::HashMap;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// "No repetition": a disproof that depends on no position above it.
pub(crate) const NO_REP: u32 = u32::MAX;
/// Proof number stored for a path-dependent disproof (with disproof number 1):
/// a hint that steers the search, never a result.
const PATH_DISPROOF_PN: u32 = 1;
const PATH_DISPROOF_DN: u32 = 1;

/// How to prove.
#[derive(Clone, Debug)]
pub struct ProveConfig {
    /// Worker threads sharing the table (at least 1).
    pub threads: usize,
    /// Wall-clock limit (`None`: until proven or stopped).
    pub time: Option<Duration>,
    /// Node limit over all threads (`None`: none).
    pub nodes: Option<u64>,
    /// ε of the 1+ε threshold trick.
    pub epsilon: f64,
    /// External stop flag.
    pub stop: Arc<AtomicBool>,
    /// Nodes of the first df-pn phase (later phases double).
    pub phase_nodes: u64,
    /// Alternate df-pn with the closure search (see [`crate::prove`]).
    pub closure: bool,
    /// Alternate df-pn with the local retrograde analysis (see
    /// [`crate::prove`]).
    pub local: bool,
    /// With several threads: plies from the root within which a child another
    /// thread is in counts as harder (virtual proof numbers); below them the
    /// threads follow the plain df-pn choice and share results through the table.
    pub spread_plies: u32,
    /// Key the proof table by [`Game::canonical_hash`] (one entry per symmetry
    /// class of the board) instead of [`Game::hash`].
    pub symmetry: bool,
    /// Initial proof and disproof numbers of new nodes.
    pub init: Init,
    /// At a new node, ask [`Game::wins_at_once`] (a cheap test for a win in
    /// one move of the side to move) before counting it open.
    pub quick_check: bool,
}

/// Initial numbers of a new node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Init {
    /// (1, 1), plain df-pn.
    Plain,
    /// [`Game::proof_hint`] (df-pn+): from the position.
    #[default]
    Heuristic,
}

impl std::str::FromStr for Init {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Init, String> {
        match s {
            "plain" => Ok(Init::Plain),
            "heuristic" => Ok(Init::Heuristic),
            _ => Err(format!("{s}: expected plain or heuristic")),
        }
    }
}

impl Default for ProveConfig {
    fn default() -> Self {
        ProveConfig {
            threads: 1,
            time: None,
            nodes: None,
            epsilon: 0.25,
            stop: Arc::new(AtomicBool::new(false)),
            phase_nodes: 1 << 18,
            closure: true,
            local: true,
            spread_plies: DEFAULT_SPREAD_PLIES,
            symmetry: true,
            init: Init::Heuristic,
            quick_check: true,
        }
    }
}

/// Result of one run for one goal side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RunOutcome {
    /// The goal side forces a win.
    Proven,
    /// The goal side cannot force a win (the other side holds at least a draw).
    Disproven,
    /// Stopped before either (time, node limit or interrupt).
    Unknown,
}

/// Why a run stopped before a proof or disproof.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StopReason {
    /// The time limit.
    Time,
    /// The node limit.
    Nodes,
    /// The memory budget (`--hash`): "out of memory budget".
    Memory,
    /// A line deeper than a prover thread's stack holds
    /// (`crate::prove::budget::MAX_FRAME_DEPTH` plies).
    Depth,
    /// A stop request (Ctrl-C or the caller's flag).
    Interrupt,
}

impl StopReason {
    /// Text for people.
    pub fn text(self) -> &'static str {
        match self {
            StopReason::Time => "time limit",
            StopReason::Nodes => "node limit",
            StopReason::Memory => "out of memory budget",
            StopReason::Depth => "line deeper than the thread's stack holds",
            StopReason::Interrupt => "interrupted",
        }
    }
}

/// Figures of one run.
#[derive(Clone, Debug, Serialize)]
pub struct RunReport {
    /// Index of the goal side.
    pub side: usize,
    /// Name of the goal side.
    pub side_name: &'static str,
    /// What was established.
    pub outcome: RunOutcome,
    /// Root proof number at the end (0: proven).
    pub pn: u32,
    /// Root disproof number at the end (0: disproven).
    pub dn: u32,
    /// Nodes expanded (all threads).
    pub nodes: u64,
    /// Positions generated and looked up (the children of every expansion,
    /// and the positions the closure search and local analysis met): the
    /// unit of an alpha-beta node count.
    pub positions: u64,
    /// Leaves answered by the tables.
    pub table_hits: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// For a proof: the plies the stored proof needs at most (from the table).
    pub proof_plies: Option<u32>,
    /// Why the run stopped, when its outcome is unknown.
    pub stopped: Option<StopReason>,
    /// Most bytes of the memory budget in use at once (the table included),
    /// over the prover's life so far.
    pub memory_peak_bytes: usize,
}

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

/// Default of [`ProveConfig::spread_plies`], measured with `bench --prove` (see
/// results/proofs.md): a penalty at every ply was 16x slower on 2 threads; none at
/// all measured the same as 3 (1.77x vs 1.76x over 1 thread), and 3 is kept so that
/// threads still start in different subtrees of the root.
pub const DEFAULT_SPREAD_PLIES: u32 = 3;

#[derive(Clone, Debug)]
struct Child<P> {
    pos: P,
    hash: u64,
    pn: u32,
    dn: u32,
    dist: u32,
    /// Numbers that cannot change while this frame lives (a leaf, a final
    /// table entry, a repetition or a path-dependent disproof).
    fixed: bool,
    /// For a disproof: the ply of the highest ancestor it repeats.
    rep: u32,
    /// For a path-dependent disproof: the ancestors it repeats.
    reps: Reps,
}

/// Result of a node search.
#[derive(Clone, Copy, Debug)]
struct Res {
    pn: u32,
    dn: u32,
    dist: u32,
    rep: u32,
    reps: Reps,
}

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

impl Res {
    /// Numbers of a node left open (its search was stopped).
    fn open() -> Res {
        Res {
            pn: 1,
            dn: 1,
            dist: 0,
            rep: NO_REP,
            reps: Reps::default(),
        }
    }
}

impl<'a, G: Game, O: Oracle<G>> Worker<'a, G, O> {
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            let total = self
                .shared
                .nodes
                .fetch_add(self.nodes - self.flushed, Ordering::Relaxed)
                + (self.nodes - self.flushed);
            self.shared
                .table_hits
                .fetch_add(std::mem::take(&mut self.hits), Ordering::Relaxed);
            self.shared
                .positions
                .fetch_add(std::mem::take(&mut self.looks), Ordering::Relaxed);
            self.flushed = self.nodes;
            if self.shared.node_limit.is_some_and(|n| total >= n)
                || self
                    .shared
                    .deadline
                    .is_some_and(|d| self.shared.start.elapsed() >= d)
            {
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

    fn flush(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.shared
            .table_hits
            .fetch_add(std::mem::take(&mut self.hits), Ordering::Relaxed);
        self.shared
            .positions
            .fetch_add(std::mem::take(&mut self.looks), Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    fn leaf(&self, v: Value, mover: usize, dist: u32) -> Look {
        let (pn, dn) = if wins_for(v, mover, self.side) {
            (0, INF)
        } else {
            (INF, 0)
        };
        Look {
            pn,
            dn,
            dist,
            fixed: true,
            rep: NO_REP,
            reps: Reps::default(),
        }
    }

    /// The key of `pos` in the proof table and on the path: its hash, or with
    /// [`ProveConfig::symmetry`] the hash shared by its symmetric images (the
    /// search is then df-pn on the game's quotient by the symmetries, whose
    /// values are the game's; see [`crate::prove`]).
    pub(crate) fn key(&self, pos: &G::Pos) -> u64 {
        if self.symmetry {
            self.game.canonical_hash(pos)
        } else {
            self.game.hash(pos)
        }
    }

    /// The numbers of a position seen from a parent: a terminal or table leaf,
    /// a repetition of the current path, a table entry, or a new leaf (a win
    /// in one move found by [`Game::wins_at_once`], else the initial numbers
    /// of [`ProveConfig::init`]). `hash` is the position's [`Worker::key`].
    pub(crate) fn look(&mut self, pos: &G::Pos, hash: u64) -> Look {
        self.looks += 1;
        if let Some(v) = self.game.outcome(pos) {
            return self.leaf(v, self.game.side_to_move(pos), 0);
        }
        if let Some((v, d)) = self.oracle.probe(self.game, pos) {
            self.hits += 1;
            return self.leaf(v, self.game.side_to_move(pos), d);
        }
        if let Some(&q) = self.path.get(&hash) {
            // A repetition is a draw: never a win for the goal side.
            return Look {
                pn: INF,
                dn: 0,
                dist: 0,
                fixed: true,
                rep: q,
                reps: Reps::one(hash),
            };
        }
        let key = key_of(hash, self.side);
        match self.tt.probe(key) {
            Some(e) if e.hint => {
                // A path-dependent disproof: it holds if every ancestor it
                // repeats is on the current path.
                if let Some(r) = self.tt.reps(key) {
                    let plies: Option<Vec<u32>> = r
                        .hashes()
                        .iter()
                        .map(|h| self.path.get(h).copied())
                        .collect();
                    if let Some(min) = plies.and_then(|p| p.into_iter().min()) {
                        return Look {
                            pn: INF,
                            dn: 0,
                            dist: 0,
                            fixed: true,
                            rep: min,
                            reps: r,
                        };
                    }
                }
                Look {
                    pn: e.pn,
                    dn: e.dn,
                    dist: 0,
                    fixed: false,
                    rep: NO_REP,
                    reps: Reps::default(),
                }
            }
            Some(e) => Look {
                pn: e.pn,
                dn: e.dn,
                dist: e.dist,
                fixed: e.is_final(),
                rep: NO_REP,
                reps: Reps::default(),
            },
            None => self.new_leaf(pos),
        }
    }

    /// The numbers of a position neither terminal, known, repeated nor in the table.
    fn new_leaf(&mut self, pos: &G::Pos) -> Look {
        if self.quick_check && self.game.wins_at_once(pos) {
            // The winning move's child is terminal: a result in one ply.
            return self.leaf(Value::Win, self.game.side_to_move(pos), 1);
        }
        let (pn, dn) = match self.init {
            Init::Plain => (1, 1),
            Init::Heuristic => {
                let (p, d) = self.game.proof_hint(pos, self.side);
                (p.clamp(1, MAX_FINITE), d.clamp(1, MAX_FINITE))
            }
        };
        Look {
            pn,
            dn,
            dist: 0,
            fixed: false,
            rep: NO_REP,
            reps: Reps::default(),
        }
    }

    fn busy_slot(&self, hash: u64) -> usize {
        (hash >> 48) as usize & (self.shared.busy.len() - 1)
    }

    /// Combines the children's numbers into the node's.
    fn combine(or: bool, ch: &[Child<G::Pos>]) -> Res {
        if or {
            if let Some(d) = ch.iter().filter(|c| c.pn == 0).map(|c| c.dist).min() {
                return Res {
                    pn: 0,
                    dn: INF,
                    dist: d.saturating_add(1),
                    rep: NO_REP,
                    reps: Reps::default(),
                };
            }
            if ch.iter().all(|c| c.dn == 0) {
                let rep = ch.iter().map(|c| c.rep).min().unwrap_or(NO_REP);
                let mut reps = Reps::default();
                for c in ch {
                    reps.union(&c.reps);
                }
                return Res {
                    pn: INF,
                    dn: 0,
                    dist: 0,
                    rep,
                    reps,
                };
            }
            let pn = ch.iter().map(|c| c.pn).min().unwrap_or(INF);
            let dn = weak_sum(ch.iter().filter(|c| c.dn != 0).map(|c| c.dn));
            Res {
                pn,
                dn,
                dist: 0,
                rep: NO_REP,
                reps: Reps::default(),
            }
        } else {
            if let Some(c) = ch.iter().filter(|c| c.dn == 0).max_by_key(|c| c.rep) {
                return Res {
                    pn: INF,
                    dn: 0,
                    dist: 0,
                    rep: c.rep,
                    reps: c.reps,
                };
            }
            if ch.iter().all(|c| c.pn == 0) {
                let d = ch.iter().map(|c| c.dist).max().unwrap_or(0);
                return Res {
                    pn: 0,
                    dn: INF,
                    dist: d.saturating_add(1),
                    rep: NO_REP,
                    reps: Reps::default(),
                };
            }
            let pn = weak_sum(ch.iter().filter(|c| c.pn != 0).map(|c| c.pn));
            let dn = ch.iter().map(|c| c.dn).min().unwrap_or(INF);
            Res {
                pn,
                dn,
                dist: 0,
                rep: NO_REP,
                reps: Reps::default(),
            }
        }
    }

    /// Searches the non-terminal position `pos` (on the path at `ply`) until its
    /// numbers reach a threshold or become final.
    fn mid(&mut self, pos: &G::Pos, hash: u64, ply: u32, thpn: u32, thdn: u32) -> Res {
        let start_nodes = self.nodes;
        self.tick();
        if ply as usize >= MAX_FRAME_DEPTH {
            // One more frame could overflow the thread's stack.
            self.shared.depth_out.store(true, Ordering::Relaxed);
            self.shared.stop.store(true, Ordering::Relaxed);
            self.stopped = true;
            return Res::open();
        }
        let or = self.game.side_to_move(pos) == self.side;
        let Some((moves, frame)) = self.frame_moves::<Child<G::Pos>>(pos, FRAME_BYTES) else {
            return Res::open();
        };
        let mut ch: Vec<Child<G::Pos>> = Vec::with_capacity(moves.len());
        for &m in moves.iter() {
            let p = self.game.play(pos, m);
            let h = self.key(&p);
            let l = self.look(&p, h);
            ch.push(Child {
                pos: p,
                hash: h,
                pn: l.pn,
                dn: l.dn,
                dist: l.dist,
                fixed: l.fixed,
                rep: l.rep,
                reps: l.reps,
            });
        }
        let shared = self.shared;
        let busy = &shared.busy[self.busy_slot(hash)];
        busy.fetch_add(1, Ordering::Relaxed);
        let mut r = if ch.is_empty() {
            // The rules engine ends a game without moves in `outcome`; a
            // position without moves that is not over cannot be won.
            Res {
                pn: INF,
                dn: 0,
                dist: 0,
                rep: NO_REP,
                reps: Reps::default(),
            }
        } else {
            Self::combine(or, &ch)
        };
        // Virtual proof numbers near the root only: deeper, steering threads away
        // from each other's lines misled the search (13x the nodes on cyclic games).
        let threads = shared.busy.len() > 1 && ply < shared.spread_plies;
        let eps = self.eps;
        while r.pn != 0 && r.dn != 0 && r.pn < thpn && r.dn < thdn && !self.stopped {
            if ply == 0 {
                shared.root_pn.store(r.pn, Ordering::Relaxed);
                shared.root_dn.store(r.dn, Ordering::Relaxed);
            }
            // Best and second-best child by the number that matters here; with
            // several threads, a child another thread is in counts as harder.
            let value = |c: &Child<G::Pos>| -> u64 {
                let v = if or { c.pn } else { c.dn } as u64;
                if threads && !c.fixed {
                    let b = shared.busy[(c.hash >> 48) as usize & (shared.busy.len() - 1)]
                        .load(Ordering::Relaxed) as u64;
                    v + b * v.max(1)
                } else {
                    v
                }
            };
            let mut best = usize::MAX;
            let (mut b1, mut b2) = (u64::MAX, u64::MAX);
            for (i, c) in ch.iter().enumerate() {
                if c.pn == 0 || c.dn == 0 {
                    continue;
                }
                let v = value(c);
                if v < b1 {
                    b2 = b1;
                    b1 = v;
                    best = i;
                } else if v < b2 {
                    b2 = v;
                }
            }
            if best == usize::MAX {
                break;
            }
            let c = &ch[best];
            let grow = |second: u64, own: u32| -> u32 {
                let g = if second >= INF as u64 {
                    INF as u64
                } else {
                    ((second as f64) * (1.0 + eps)).ceil() as u64
                };
                g.max(own as u64 + 1).min(INF as u64) as u32
            };
            let rest = |th: u32, node: u32, own: u32| -> u32 {
                if th == INF {
                    INF
                } else {
                    (th as u64 - node as u64 + own as u64).min(INF as u64) as u32
                }
            };
            let (cpn, cdn) = if or {
                (thpn.min(grow(b2, c.pn)), rest(thdn, r.dn, c.dn))
            } else {
                (rest(thpn, r.pn, c.pn), thdn.min(grow(b2, c.dn)))
            };
            let (cpos, chash) = (c.pos.clone(), c.hash);
            if !self.charge_path() {
                break;
            }
            self.path.insert(chash, ply + 1);
            let cr = self.mid(&cpos, chash, ply + 1, cpn, cdn);
            self.path.remove(&chash);
            let c = &mut ch[best];
            c.pn = cr.pn;
            c.dn = cr.dn;
            c.dist = cr.dist;
            c.rep = cr.rep;
            c.reps = cr.reps;
            // A disproof that depends on this path holds as long as this frame.
            c.fixed = cr.pn == 0 || cr.dn == 0;
            // Transpositions: children searched elsewhere meanwhile.
            for (j, c) in ch.iter_mut().enumerate() {
                if j == best || c.fixed {
                    continue;
                }
                if let Some(e) = self.tt.probe(key_of(c.hash, self.side)) {
                    c.pn = e.pn;
                    c.dn = e.dn;
                    c.dist = e.dist;
                    c.fixed = e.is_final();
                }
            }
            r = Self::combine(or, &ch);
        }
        busy.fetch_sub(1, Ordering::Relaxed);
        drop(ch);
        drop(moves);
        self.acct.release(frame);
        if r.dn == 0 && r.rep != NO_REP {
            if r.rep >= ply {
                // Only repetitions of this node or below: holds on any path.
                r.rep = NO_REP;
                r.reps = Reps::default();
            } else {
                // Ancestors at this node or below are inside its strategy.
                let path = &self.path;
                r.reps.retain(|h| path.get(&h).is_some_and(|&q| q < ply));
            }
        }
        // A disproof that depends on the path above is stored only as a hint
        // (non-final numbers that say "nearly disproven"), never as final.
        let (pn, dn) = if r.dn == 0 && r.rep != NO_REP {
            if !r.reps.overflow {
                self.tt.store_reps(key_of(hash, self.side), r.reps);
            }
            (PATH_DISPROOF_PN, PATH_DISPROOF_DN)
        } else {
            (r.pn, r.dn)
        };
        self.tt.store(
            key_of(hash, self.side),
            Entry {
                pn,
                dn,
                work: self.nodes - start_nodes,
                dist: if r.pn == 0 { r.dist } else { 0 },
                hint: r.dn == 0 && r.rep != NO_REP,
            },
        );
        if ply == 0 {
            self.shared.root_pn.store(r.pn, Ordering::Relaxed);
            self.shared.root_dn.store(r.dn, Ordering::Relaxed);
        }
        r
    }

    /// A position's final value for the goal side if known without search:
    /// terminal, in the tables, or a final (path-independent) table entry.
    pub(crate) fn known(&mut self, pos: &G::Pos, hash: u64) -> Known {
        let mover = self.game.side_to_move(pos);
        if let Some(v) = self.game.outcome(pos) {
            return if wins_for(v, mover, self.side) {
                Known::Win(0)
            } else {
                Known::NoWin
            };
        }
        if let Some((v, d)) = self.oracle.probe(self.game, pos) {
            self.hits += 1;
            return if wins_for(v, mover, self.side) {
                Known::Win(d)
            } else {
                Known::NoWin
            };
        }
        match self.tt.probe(key_of(hash, self.side)) {
            Some(e) if e.pn == 0 => Known::Win(e.dist),
            Some(e) if e.dn == 0 && !e.hint => Known::NoWin,
            _ => Known::Open,
        }
    }

    fn store_win(&self, key: u64, dist: u32) {
        self.tt.store(
            key,
            Entry {
                pn: 0,
                dn: INF,
                work: 1 << 20,
                dist,
                hint: false,
            },
        );
    }

    /// Proves or disproves `pos` as a root (empty path above it), until final
    /// or stopped. Returns (pn, dn, dist).
    pub(crate) fn run_root(&mut self, pos: &G::Pos) -> (u32, u32, u32) {
        let hash = self.key(pos);
        let l = self.look(pos, hash);
        if let Some(r) = l.settled() {
            return r;
        }
        self.path.clear();
        if !self.charge_path() {
            return (l.pn, l.dn, l.dist);
        }
        self.path.insert(hash, 0);
        let r = self.mid(pos, hash, 0, INF, INF);
        self.path.clear();
        self.flush();
        (r.pn, r.dn, r.dist)
    }
}

/// The additive number of a node from its open children: the largest plus one
/// per other child (weak proof-number search, Ueda et al. 2008), which does
/// not count a transposition or a cycle twice the way a plain sum does.
fn weak_sum(it: impl Iterator<Item = u32>) -> u32 {
    let (mut max, mut k) = (0u64, 0u64);
    for v in it {
        max = max.max(v as u64);
        k += 1;
    }
    (max + k.saturating_sub(1)).min(MAX_FINITE as u64) as u32
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
    pub fn key(&self, pos: &G::Pos) -> u64 {
        if self.cfg.symmetry {
            self.game.canonical_hash(pos)
        } else {
            self.game.hash(pos)
        }
    }

    /// Whether the time or node budget is spent or a stop was requested.
    pub fn stopped(&self) -> bool {
        self.shared.should_stop()
    }

    /// Total nodes so far (all runs).
    pub fn nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed)
    }

    /// Whether a run stopped because the memory budget was spent.
    pub fn out_of_memory(&self) -> bool {
        self.shared.memory_out.load(Ordering::Relaxed)
    }

    /// Seconds since the prover was made.
    pub fn elapsed(&self) -> f64 {
        self.shared.start.elapsed().as_secs_f64()
    }
}
