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
//! ([`Partition::owner`]):
//! 1. **Scan.** Each part scans its own slots ([`TierGame::for_each_slot`]):
//!    terminal positions, exits resolved from the child tiers' records (every
//!    part holds them whole), in-tier moves counted. Decided slots and pending
//!    exit wins go into the part's frontier by distance.
//! 2. **Levels.** The parts agree on the smallest distance `d` any of them
//!    holds (one exchange). Each part finalises its pending wins at `d`, then
//!    the *loss phase*: for each of its losses at `d` it ranks the
//!    predecessors ([`TierGame::pred_ranks`]); a predecessor it owns becomes a
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
//! ([`part_path`]: a small header, then the records; temporary file and
//! rename); once every part's file is there, part 0 joins them into
//! `DIR/<tier>.hst` block by block ([`crate::table::write_table_from`], so no
//! part holds the whole tier's records) and removes the part files. A rerun
//! keeps every whole table (as [`super::driver::solve`] does) and, for a tier
//! whose part files are all present and valid, only joins them again.

use super::driver::{
    check_index, format_bytes, kept_tier, load_records, make_summary, open_out_dir, plan,
    tier_meta, write_summary, Plan, SolveReport, TierSummary,
};
use super::scope::{Scope, Solvable};
use super::solver::{edges, ChildValues, TierStats};
use crate::error::{Error, Result};
use crate::game::Value;
use crate::progress::{stop_requested, Progress};
use crate::tier::{decode, encode, Outcomes, TierGame, MAX_DISTANCE, REC_DRAW, REC_NONE};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// Bytes of state per slot of a part's range: record, counter and exit bits,
/// 2 bytes each.
pub const SPLIT_STATE_BYTES_PER_SLOT: u64 = 6;
/// Bytes per slot of a part's range counted for its frontier lists (4 bytes an
/// entry; not every slot is listed at once) on top of the state.
pub const SPLIT_FRONTIER_BYTES_PER_SLOT: u64 = 2;

/// `aux` bit: the slot holds a position with at least one in-tier move.
const AUX_INNER: u16 = 1 << 15;
/// `aux` bit: some exit leads to a draw or a win, so the position never loses.
const AUX_ESCAPE: u16 = 1 << 14;
/// `aux` bits: worst forced loss distance through an exit (0: no exit).
const AUX_LOSS: u16 = (1 << 14) - 1;

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
pub struct Partition {
    size: u64,
    parts: usize,
}

impl Partition {
    /// `size` slots in `parts` ranges; refuses a range of 2^32 slots or more (a
    /// part's frontier entries and messages are 32-bit offsets).
    pub fn new(size: u64, parts: usize) -> Result<Partition> {
        if parts == 0 {
            return Err(Error::Input("a split solve needs at least one part".into()));
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

    /// Number of parts.
    pub fn parts(&self) -> usize {
        self.parts
    }

    /// First slot of part `k` (`k == parts`: the tier's size).
    fn start(&self, k: usize) -> u64 {
        (k as u128 * self.size as u128 / self.parts as u128) as u64
    }

    /// The slots of part `k`.
    pub fn range(&self, k: usize) -> Range<u64> {
        self.start(k)..self.start(k + 1)
    }

    /// The part that owns slot `i` (`i < size`).
    pub fn owner(&self, i: u64) -> usize {
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
}

impl Default for SplitOptions {
    fn default() -> Self {
        SplitOptions {
            batch: 1 << 16,
            pool: None,
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
    pub fn merge(&mut self, o: &Traffic) {
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
            .map(|b| u64_at(b, 0))
            .min()
            .unwrap_or(x))
    }

    /// The largest of every part's `x`.
    fn max(&mut self, x: u64) -> Result<u64> {
        Ok(self
            .gather(x.to_le_bytes().to_vec())?
            .iter()
            .map(|b| u64_at(b, 0))
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

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut x = [0u8; 8];
    if let Some(s) = b.get(at..at + 8) {
        x.copy_from_slice(s);
    }
    u64::from_le_bytes(x)
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut x = [0u8; 4];
    if let Some(s) = b.get(at..at + 4) {
        x.copy_from_slice(s);
    }
    u32::from_le_bytes(x)
}

fn check_distance(d: u32) -> Result<u32> {
    if d > MAX_DISTANCE || d > AUX_LOSS as u32 {
        return Err(Error::Internal(format!(
            "distance {d} exceeds the record encoding's limit"
        )));
    }
    Ok(d)
}

/// What the scan found for one slot.
enum Scanned {
    /// Final record.
    Final(u16),
    /// In-tier node: counter, aux bits, and a pending exit win distance.
    Inner(u16, u16, Option<u32>),
}

/// Buffers of one scanning job.
struct Scratch<G: TierGame> {
    moves: Vec<G::Move>,
    indices: Vec<(G::Tier, u64)>,
}

fn scan_slot<G: TierGame>(
    game: &G,
    tier: G::Tier,
    pos: &G::Pos,
    children: &ChildValues<G::Tier>,
    s: &mut Scratch<G>,
) -> Result<Scanned> {
    if let Some(v) = game.outcome(pos) {
        return Ok(Scanned::Final(encode(v, 0)));
    }
    let counted = game.count_inner_moves(tier, pos, &mut s.moves);
    if counted.is_none() {
        game.legal_moves(pos, &mut s.moves);
    }
    let mut inner = counted.unwrap_or(0);
    let (mut win, mut draw, mut loss) = (None::<u32>, false, 0u32);
    game.child_indices(tier, pos, &s.moves, false, &mut s.indices);
    for (&(ct, r), &m) in s.indices.iter().zip(s.moves.iter()) {
        if ct == tier {
            inner += 1;
            continue;
        }
        let (v, d) = if let Some(k) = children.slot(ct) {
            decode(children.record(k, r)).ok_or_else(|| {
                Error::Internal(format!(
                    "a move of {} leads to empty slot {r} of tier {} (rank/unrank mismatch)",
                    game.format_position(pos),
                    game.tier_name(ct)
                ))
            })?
        } else if game.tier_is_terminal(ct) {
            let child = game.play(pos, m);
            let v = game.outcome(&child).ok_or_else(|| {
                Error::Internal(format!(
                    "position {} lies in terminal tier {} but is not terminal",
                    game.format_position(&child),
                    game.tier_name(ct)
                ))
            })?;
            (v, 0)
        } else {
            return Err(Error::Internal(format!(
                "child tier {} is not solved (needed by a move of {})",
                game.tier_name(ct),
                game.format_position(pos)
            )));
        };
        match v {
            Value::Loss => win = Some(win.map_or(d + 1, |w| w.min(d + 1))),
            Value::Draw => draw = true,
            Value::Win => loss = loss.max(d + 1),
        }
    }
    if inner == 0 {
        return Ok(Scanned::Final(if let Some(w) = win {
            encode(Value::Win, check_distance(w)?)
        } else if draw {
            REC_DRAW
        } else if loss > 0 {
            encode(Value::Loss, check_distance(loss)?)
        } else {
            return Err(Error::Internal(format!(
                "position {} has no legal move but is not terminal",
                game.format_position(pos)
            )));
        }));
    }
    let inner = u16::try_from(inner).map_err(|_| {
        Error::Internal(format!(
            "position {} has more than 65535 in-tier moves",
            game.format_position(pos)
        ))
    })?;
    let mut aux = AUX_INNER | check_distance(loss)? as u16;
    if win.is_some() || draw {
        aux |= AUX_ESCAPE;
    }
    if let Some(w) = win {
        check_distance(w)?;
    }
    Ok(Scanned::Inner(inner, aux, win))
}

/// Buffers of one propagation job.
struct PredScratch<G: TierGame> {
    buf: Vec<G::Pos>,
    ranks: Vec<(u64, Option<u32>)>,
    moves: Vec<G::Move>,
    edges: Vec<(u64, u16)>,
}

impl<G: TierGame> PredScratch<G> {
    fn new() -> Self {
        PredScratch {
            buf: Vec::new(),
            ranks: Vec::new(),
            moves: Vec::new(),
            edges: Vec::new(),
        }
    }
}

/// Predecessor classes of class `child` into `s.edges`, with (`with_edges`)
/// the number of moves of each predecessor's representative into class
/// `child`, as the one-process solver counts them: from stabiliser orders when
/// the game gives them, else by regenerating the predecessor's moves. Without
/// `with_edges` a class may come more than once (deciding it twice is a no-op).
fn preds<G: TierGame>(
    game: &G,
    tier: G::Tier,
    child: u64,
    with_edges: bool,
    s: &mut PredScratch<G>,
) {
    s.edges.clear();
    let Some((rep, stab_c)) = game.unrank_orbit(tier, child) else {
        return;
    };
    game.pred_ranks(tier, &rep, &mut s.buf, &mut s.ranks);
    if !with_edges {
        s.edges.extend(s.ranks.iter().map(|r| (r.0, 0)));
        return;
    }
    let exact = s.ranks.iter().all(|r| r.1.is_some());
    s.ranks.sort_unstable();
    match stab_c {
        Some(sc) if exact => {
            let mut i = 0;
            while i < s.ranks.len() {
                let (q, sq) = s.ranks[i];
                let sq = sq.unwrap_or(0);
                let mut j = i;
                while j < s.ranks.len() && s.ranks[j].0 == q {
                    j += 1;
                }
                let u = (j - i) as u32;
                s.edges.push((q, (u * sq / sc) as u16));
                i = j;
            }
        }
        _ => {
            s.ranks.dedup_by_key(|x| x.0);
            for &(q, _) in s.ranks.iter() {
                let e = edges(game, tier, q, child, &mut s.moves);
                s.edges.push((q, e));
            }
        }
    }
}

/// One part's state of a split tier.
struct State<'a, G: TierGame> {
    game: &'a G,
    tier: G::Tier,
    part: Partition,
    me: usize,
    lo: u64,
    rec: Vec<AtomicU16>,
    cnt: Vec<AtomicU16>,
    aux: Vec<u16>,
}

impl<G: TierGame> State<'_, G> {
    /// Decides local slot `l` a win at `d` if undecided.
    fn win(&self, l: u32, d: u32) -> bool {
        self.rec.get(l as usize).is_some_and(|r| {
            r.compare_exchange(
                REC_NONE,
                encode(Value::Win, d),
                Ordering::Relaxed,
                Ordering::Relaxed,
            )
            .is_ok()
        })
    }

    /// Removes `e` edges from local slot `l`'s counter; a new loss's distance.
    fn decrement(&self, l: u32, e: u16, next: u32) -> Option<u32> {
        let i = l as usize;
        let rec = self.rec.get(i)?;
        if rec.load(Ordering::Relaxed) != REC_NONE || e == 0 {
            return None;
        }
        let old = self.cnt[i].fetch_sub(e, Ordering::Relaxed);
        let aux = self.aux[i];
        if old == e && aux & AUX_ESCAPE == 0 {
            let d = next.max((aux & AUX_LOSS) as u32);
            rec.store(encode(Value::Loss, d), Ordering::Relaxed);
            return Some(d);
        }
        None
    }
}

/// Solves this part's share of `tier` (the other parts call it at the same
/// time with their transports): see the module documentation. Returns this
/// part's records and the whole tier's statistics.
pub fn solve_part<G: TierGame, T: Transport>(
    game: &G,
    tier: G::Tier,
    children: &ChildValues<G::Tier>,
    transport: &mut T,
    options: &SplitOptions,
    progress: &dyn Progress,
) -> Result<PartResult> {
    let mut net = Net::new(transport);
    match solve_part_in(game, tier, children, &mut net, options, progress) {
        Ok(r) => Ok(r),
        Err(e) => Err(net.fail(e)),
    }
}

fn solve_part_in<G: TierGame, T: Transport>(
    game: &G,
    tier: G::Tier,
    children: &ChildValues<G::Tier>,
    net: &mut Net<'_, T>,
    options: &SplitOptions,
    progress: &dyn Progress,
) -> Result<PartResult> {
    let started = Instant::now();
    let size = game.tier_size(tier);
    let part = Partition::new(size, net.parts())?;
    let me = net.me();
    let range = part.range(me);
    let n = (range.end - range.start) as usize;
    let name = game.tier_name(tier);

    // Phase 1: scan of this part's range.
    progress.stage_in(&format!("{name} scan (part {me})"), n as u64, "slots");
    let mut st = State {
        game,
        tier,
        part,
        me,
        lo: range.start,
        rec: (0..n).map(|_| AtomicU16::new(REC_NONE)).collect(),
        cnt: (0..n).map(|_| AtomicU16::new(0)).collect(),
        aux: Vec::new(),
    };
    let mut aux = vec![0u16; n];
    let mut frontier: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    let mut listed = 0u64;
    let mut scan_error = None;
    // In windows of SCAN_WINDOW slots, so that the jobs' lists of (distance,
    // slot) pairs (8 bytes an entry) never exist for the whole range at once.
    for (wi, window) in aux.chunks_mut(SCAN_WINDOW).enumerate() {
        let wbase = wi * SCAN_WINDOW;
        let found: Vec<Result<Vec<(u32, u32)>>> = options.install(|| {
            window
                .par_chunks_mut(CHUNK)
                .enumerate()
                .map(|(ci, aux_chunk)| {
                    if stop_requested() {
                        return Err(Error::Interrupted);
                    }
                    let mut s = Scratch::<G> {
                        moves: Vec::new(),
                        indices: Vec::new(),
                    };
                    let mut out = Vec::new();
                    let base = wbase + ci * CHUNK;
                    let from = st.lo + base as u64;
                    let stref = &st;
                    game.for_each_slot(
                        tier,
                        from..from + aux_chunk.len() as u64,
                        &|_| true,
                        &mut |i, pos| {
                            let l = (i - stref.lo) as usize;
                            match scan_slot(game, tier, pos, children, &mut s)? {
                                Scanned::Final(r) => {
                                    stref.rec[l].store(r, Ordering::Relaxed);
                                    // A slot nothing in the tier moves to needs no propagation.
                                    if r != REC_DRAW && game.may_have_unmoves(tier, i) {
                                        out.push((decode(r).map_or(0, |x| x.1), l as u32));
                                    }
                                }
                                Scanned::Inner(c, bits, win) => {
                                    stref.cnt[l].store(c, Ordering::Relaxed);
                                    aux_chunk[l - base] = bits;
                                    if let Some(w) = win {
                                        out.push((w, l as u32));
                                    }
                                }
                            }
                            Ok(())
                        },
                    )?;
                    progress.advance(aux_chunk.len() as u64);
                    Ok(out)
                })
                .collect()
        });
        for f in found {
            match f {
                Ok(entries) => {
                    listed += entries.len() as u64;
                    for (d, l) in entries {
                        frontier.entry(d).or_default().push(l);
                    }
                }
                Err(e) => {
                    scan_error.get_or_insert(e);
                }
            }
        }
        if scan_error.is_some() {
            break;
        }
    }
    st.aux = aux;
    if let Some(e) = scan_error {
        return Err(e);
    }
    progress.finish_stage();
    net.traffic.peak_frontier = listed;

    // Phase 2: levels, agreed across parts.
    progress.stage_in(&format!("{name} propagate (part {me})"), 0, "levels");
    let mut levels = 0u32;
    loop {
        if stop_requested() {
            return Err(Error::Interrupted);
        }
        let mine = frontier.keys().next().map_or(u64::MAX, |&d| d as u64);
        let d = net.min(mine)?;
        if d == u64::MAX {
            break;
        }
        let d = d as u32;
        levels += 1;
        let mut list = frontier.remove(&d).unwrap_or_default();
        listed -= list.len() as u64;
        list.sort_unstable();
        list.dedup();
        // Pending exit wins not beaten by a faster in-tier win become final now.
        for &l in &list {
            st.win(l, d);
        }
        let (mut losses, mut wins) = (Vec::new(), Vec::new());
        for &l in &list {
            match decode(st.rec[l as usize].load(Ordering::Relaxed)) {
                Some((Value::Loss, x)) if x == d => losses.push(l),
                Some((Value::Win, x)) if x == d => wins.push(l),
                _ => {} // superseded pending entry
            }
        }
        drop(list);
        let next = check_distance(d + 1)?;
        // Loss phase: predecessors become wins at d + 1.
        let new_wins = phase(&st, net, &losses, options, next, true)?;
        listed += new_wins.len() as u64;
        if !new_wins.is_empty() {
            frontier
                .entry(next)
                .or_default()
                .extend(new_wins.into_iter().map(|x| x.1));
        }
        // Win phase: counters decremented; zero without an escape is a loss.
        let new_losses = phase(&st, net, &wins, options, next, false)?;
        listed += new_losses.len() as u64;
        for (l, q) in new_losses {
            frontier.entry(l).or_default().push(q);
        }
        net.traffic.peak_frontier = net.traffic.peak_frontier.max(listed);
        progress.advance(1);
        progress.message(&format!("distance {d}"));
    }
    progress.finish_stage();

    // Phase 3: what is left is a draw.
    let State { rec, aux, cnt, .. } = st;
    drop(cnt);
    let records: Vec<u16> = options.install(|| {
        rec.into_par_iter()
            .zip(aux.par_iter())
            .with_min_len(CHUNK)
            .map(|(r, &a)| {
                let r = r.into_inner();
                if r == REC_NONE && a & AUX_INNER != 0 {
                    REC_DRAW
                } else {
                    r
                }
            })
            .collect()
    });
    drop(aux);
    // The whole tier's counts and traffic, from every part.
    let mine = Outcomes::of_records(&records);
    let mut payload = serde_json::to_vec(&(mine, net.traffic))
        .map_err(|e| Error::Internal(format!("encoding a part's counts: {e}")))?;
    payload.shrink_to_fit();
    let all = net.gather(payload)?;
    let mut outcomes = Outcomes::default();
    let mut total = Traffic::default();
    for (k, b) in all.iter().enumerate() {
        let (o, t): (Outcomes, Traffic) = serde_json::from_slice(b)
            .map_err(|e| Error::Internal(format!("undecodable counts from part {k}: {e}")))?;
        outcomes.merge(&o);
        total.merge(&t);
    }
    Ok(PartResult {
        range,
        records,
        stats: TierStats { outcomes, levels },
        traffic: net.traffic,
        total_traffic: total,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// What one propagation job gives: buffers by destination part, slots it
/// decided (distance, local offset), local and remote update counts.
type Job = (Vec<Vec<u8>>, Vec<(u32, u32)>, u64, u64);

/// One phase of a level: the predecessors of `children` (local offsets) updated
/// across parts, in exchange rounds of at most `batch` children per part.
/// Loss phase (`loss`): predecessors become wins at `next`; win phase:
/// counters are decremented. Returns the slots it decided: (distance, local offset).
fn phase<G: TierGame, T: Transport>(
    st: &State<'_, G>,
    net: &mut Net<'_, T>,
    children: &[u32],
    options: &SplitOptions,
    next: u32,
    loss: bool,
) -> Result<Vec<(u32, u32)>> {
    let batch = options.batch.max(1);
    let parts = net.parts();
    let rounds = net.max(children.len().div_ceil(batch) as u64)?;
    let mut decided = Vec::new();
    for r in 0..rounds as usize {
        if stop_requested() {
            return Err(Error::Interrupted);
        }
        let from = (r * batch).min(children.len());
        let to = ((r + 1) * batch).min(children.len());
        let mine = &children[from..to];
        // Each job: updates of its own slots applied at once, the others' buffered.
        let jobs: Vec<Job> = options.install(|| {
            mine.par_chunks(256)
                .map(|chunk| {
                    let mut out = vec![Vec::new(); parts];
                    let mut got = Vec::new();
                    let (mut local, mut remote) = (0u64, 0u64);
                    let mut s = PredScratch::<G>::new();
                    for &c in chunk {
                        let child = st.lo + c as u64;
                        preds(st.game, st.tier, child, !loss, &mut s);
                        for &(q, e) in &s.edges {
                            let k = st.part.owner(q);
                            let off = (q - st.part.start(k)) as u32;
                            if k == st.me {
                                local += 1;
                                if loss {
                                    if st.win(off, next) {
                                        got.push((next, off));
                                    }
                                } else if let Some(d) = st.decrement(off, e, next) {
                                    got.push((d, off));
                                }
                            } else {
                                remote += 1;
                                out[k].extend_from_slice(&off.to_le_bytes());
                                if !loss {
                                    out[k].extend_from_slice(&e.to_le_bytes());
                                }
                            }
                        }
                    }
                    (out, got, local, remote)
                })
                .collect()
        });
        let mut out = vec![Vec::new(); parts];
        for (o, got, local, remote) in jobs {
            for (k, b) in o.into_iter().enumerate() {
                out[k].extend_from_slice(&b);
            }
            decided.extend(got);
            net.traffic.local_updates += local;
            net.traffic.remote_updates += remote;
        }
        let incoming = net.round(out)?;
        let width = if loss { 4 } else { 6 };
        for (k, b) in incoming.iter().enumerate() {
            if b.len() % width != 0 {
                return Err(Error::Internal(format!(
                    "an update message from part {k} has {} bytes, not a multiple of {width}",
                    b.len()
                )));
            }
            let got: Vec<(u32, u32)> = options.install(|| {
                b.par_chunks(width * 1024)
                    .flat_map_iter(|chunk| {
                        chunk.chunks_exact(width).filter_map(|m| {
                            let off = u32_at(m, 0);
                            if loss {
                                st.win(off, next).then_some((next, off))
                            } else {
                                let e = u16::from_le_bytes([m[4], m[5]]);
                                st.decrement(off, e, next).map(|d| (d, off))
                            }
                        })
                    })
                    .collect()
            });
            decided.extend(got);
        }
    }
    Ok(decided)
}

/// The in-process transport: `parts` parts as threads of one process, each
/// with its end of a set of channels ([`Threads::new`] gives them all).
pub struct Threads {
    part: usize,
    senders: Vec<mpsc::Sender<(usize, u64, Vec<u8>)>>,
    receiver: mpsc::Receiver<(usize, u64, Vec<u8>)>,
    /// Messages of later exchanges that came early, by sender.
    early: Vec<std::collections::VecDeque<(u64, Vec<u8>)>>,
    round: u64,
    /// Set by a part whose thread ended without finishing (its peers stop waiting).
    gone: Arc<std::sync::atomic::AtomicBool>,
}

impl Threads {
    /// The ends of `parts` connected parts, part `k` at index `k`.
    pub fn new(parts: usize) -> Vec<Threads> {
        let (senders, receivers): (Vec<_>, Vec<_>) = (0..parts).map(|_| mpsc::channel()).unzip();
        let gone = Arc::new(std::sync::atomic::AtomicBool::new(false));
        receivers
            .into_iter()
            .enumerate()
            .map(|(part, receiver)| Threads {
                part,
                senders: senders.clone(),
                receiver,
                early: vec![Default::default(); parts],
                round: 0,
                gone: gone.clone(),
            })
            .collect()
    }

    /// Marks this part as gone (its peers' exchanges fail instead of waiting).
    pub fn leave(&self) {
        self.gone.store(true, Ordering::SeqCst);
    }
}

impl Transport for Threads {
    fn part(&self) -> usize {
        self.part
    }

    fn parts(&self) -> usize {
        self.senders.len()
    }

    fn exchange(&mut self, out: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>> {
        let round = self.round;
        self.round += 1;
        let parts = self.parts();
        if out.len() != parts {
            return Err(Error::Internal(format!(
                "an exchange of {} buffers among {parts} parts",
                out.len()
            )));
        }
        for (k, bytes) in out.into_iter().enumerate() {
            // A part that has ended dropped its receiver: its buffer is lost.
            let _ = self.senders[k].send((self.part, round, bytes));
        }
        let mut got: Vec<Option<Vec<u8>>> = vec![None; parts];
        for (k, q) in self.early.iter_mut().enumerate() {
            if q.front().is_some_and(|m| m.0 == round) {
                got[k] = q.pop_front().map(|m| m.1);
            }
        }
        while got.iter().any(Option::is_none) {
            match self.receiver.recv_timeout(Duration::from_millis(20)) {
                Ok((k, r, bytes)) if r == round && got[k].is_none() => got[k] = Some(bytes),
                Ok((k, r, bytes)) => self.early[k].push_back((r, bytes)),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if self.gone.load(Ordering::SeqCst) {
                        return Err(Error::Cluster(
                            "a part of the split solve ended without finishing".into(),
                        ));
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(Error::Cluster("the split solve's channels closed".into()))
                }
            }
        }
        Ok(got.into_iter().map(Option::unwrap_or_default).collect())
    }
}

/// Runs `f` once per part on `parts` threads of this process, each with its
/// [`Threads`] transport and a rayon pool of `threads_per_part` threads; the
/// results by part.
pub fn run_parts<R: Send>(
    parts: usize,
    threads_per_part: usize,
    f: &(dyn Fn(&mut Threads) -> Result<R> + Sync),
) -> Vec<Result<R>> {
    let ends = Threads::new(parts);
    std::thread::scope(|s| {
        let handles: Vec<_> = ends
            .into_iter()
            .map(|mut t| {
                s.spawn(move || {
                    let pool = rayon::ThreadPoolBuilder::new()
                        .num_threads(threads_per_part.max(1))
                        .build()
                        .map_err(|e| Error::Input(format!("cannot start worker threads: {e}")));
                    let r = pool.and_then(|p| p.install(|| f(&mut t)));
                    if r.is_err() {
                        t.leave();
                    }
                    r
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(Error::Internal("a part's thread panicked".into())))
            })
            .collect()
    })
}

/// Estimated bytes a part needs to solve `tier` split into `parts`: its share of
/// the state and frontier, and the records of the tier's stored children, whole.
pub fn part_memory<G: TierGame>(game: &G, tier: G::Tier, parts: usize) -> Result<u64> {
    let share = game.tier_size(tier).div_ceil(parts.max(1) as u64);
    let kids: u64 = game
        .stored_children(tier)
        .into_iter()
        .map(|c| game.tier_size(c))
        .try_fold(0u64, |a, b| a.checked_add(b))
        .ok_or_else(|| Error::Memory("the memory estimate does not fit in 64 bits".into()))?;
    share
        .checked_mul(SPLIT_STATE_BYTES_PER_SLOT + SPLIT_FRONTIER_BYTES_PER_SLOT)
        .and_then(|w| w.checked_add(kids.checked_mul(2)?))
        .ok_or_else(|| Error::Memory("the memory estimate does not fit in 64 bits".into()))
}

/// The largest [`part_memory`] of the tiers of `plan`.
pub fn plan_part_memory<G: TierGame>(game: &G, plan: &Plan<G::Tier>, parts: usize) -> Result<u64> {
    let mut most = 0;
    for &t in plan.waves.iter().flatten() {
        most = most.max(part_memory(game, t, parts)?);
    }
    Ok(most)
}

/// Path of part `k` of `n` of tier `name`'s records: `DIR/<name>.p<k>of<n>`.
pub fn part_path(out_dir: &Path, name: &str, k: usize, n: usize) -> PathBuf {
    out_dir.join(format!("{name}.p{k}of{n}"))
}

/// Magic of a part file.
const PART_MAGIC: &[u8; 8] = b"HSPART01";
/// Bytes of a part file's header: magic, rules fingerprint, tier size, range
/// start and end, levels, CRC-32 of the records.
const PART_HEADER: usize = 8 + 8 + 8 + 8 + 8 + 4 + 4;

/// Writes part `k`'s records (temporary file, then rename), streamed: no copy
/// of the records is made.
fn write_part(path: &Path, fingerprint: u64, size: u64, p: &PartResult) -> Result<()> {
    use std::io::Write;
    let mut crc = crc32fast::Hasher::new();
    for block in p.records.chunks(1 << 16) {
        let bytes: Vec<u8> = block.iter().flat_map(|r| r.to_le_bytes()).collect();
        crc.update(&bytes);
    }
    let tmp = path.with_file_name(format!(
        "{}.hst.tmp{}",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("part"),
        std::process::id()
    ));
    let io = |e| Error::io(format!("writing {}", tmp.display()), e);
    let file = std::fs::File::create(&tmp).map_err(io)?;
    let mut w = std::io::BufWriter::new(file);
    let mut header = Vec::with_capacity(PART_HEADER);
    header.extend_from_slice(PART_MAGIC);
    header.extend_from_slice(&fingerprint.to_le_bytes());
    header.extend_from_slice(&size.to_le_bytes());
    header.extend_from_slice(&p.range.start.to_le_bytes());
    header.extend_from_slice(&p.range.end.to_le_bytes());
    header.extend_from_slice(&p.stats.levels.to_le_bytes());
    header.extend_from_slice(&crc.finalize().to_le_bytes());
    w.write_all(&header).map_err(io)?;
    for block in p.records.chunks(1 << 16) {
        let bytes: Vec<u8> = block.iter().flat_map(|r| r.to_le_bytes()).collect();
        w.write_all(&bytes).map_err(io)?;
    }
    let file = w.into_inner().map_err(|e| io(e.into_error()))?;
    file.sync_all().map_err(io)?;
    drop(file);
    std::fs::rename(&tmp, path).map_err(|e| Error::io(format!("renaming {}", tmp.display()), e))
}

/// The levels stored in the part file at `path` when it is whole and belongs
/// to these rules, tier size and range; `None` otherwise (absent, damaged, stale).
fn valid_part(path: &Path, fingerprint: u64, size: u64, range: &Range<u64>) -> Option<u32> {
    let bytes = std::fs::read(path).ok()?;
    if bytes.len() != PART_HEADER + 2 * (range.end - range.start) as usize
        || &bytes[..8] != PART_MAGIC
        || u64_at(&bytes, 8) != fingerprint
        || u64_at(&bytes, 16) != size
        || u64_at(&bytes, 24) != range.start
        || u64_at(&bytes, 32) != range.end
    {
        return None;
    }
    let mut crc = crc32fast::Hasher::new();
    crc.update(&bytes[PART_HEADER..]);
    (crc.finalize() == u32_at(&bytes, 44)).then(|| u32_at(&bytes, 40))
}

/// Records `range` of the tier, read from its part files (positioned reads).
fn read_parts(
    files: &[(Range<u64>, std::fs::File)],
    range: Range<usize>,
) -> std::io::Result<Vec<u16>> {
    use std::os::unix::fs::FileExt;
    let mut out = Vec::with_capacity(range.len());
    let (from, to) = (range.start as u64, range.end as u64);
    for (r, f) in files {
        let (a, b) = (from.max(r.start), to.min(r.end));
        if a >= b {
            continue;
        }
        let mut buf = vec![0u8; 2 * (b - a) as usize];
        f.read_exact_at(&mut buf, PART_HEADER as u64 + 2 * (a - r.start))?;
        out.extend(
            buf.chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]])),
        );
    }
    Ok(out)
}

/// Joins the part files of `tier` into its table (part 0's job); the table's
/// statistics are computed from the records as they are read.
fn join_parts<G: Solvable>(
    game: &G,
    tier: G::Tier,
    out_dir: &Path,
    parts: usize,
    levels: u32,
    seconds: f64,
) -> Result<TierSummary> {
    let name = game.tier_name(tier);
    let size = game.tier_size(tier);
    let part = Partition::new(size, parts)?;
    let mut files = Vec::with_capacity(parts);
    for k in 0..parts {
        let path = part_path(out_dir, &name, k, parts);
        let f = std::fs::File::open(&path)
            .map_err(|e| Error::io(format!("opening {}", path.display()), e))?;
        files.push((part.range(k), f));
    }
    let n = usize::try_from(size).map_err(|_| {
        Error::Memory(format!(
            "tier {name} has more slots than this machine indexes"
        ))
    })?;
    // Statistics need the records once; read them block by block.
    let mut outcomes = Outcomes::default();
    let step = 1usize << 22;
    let mut at = 0usize;
    while at < n {
        let to = (at + step).min(n);
        let recs = read_parts(&files, at..to)
            .map_err(|e| Error::io(format!("reading the parts of tier {name}"), e))?;
        outcomes.merge(&Outcomes::of_records(&recs));
        at = to;
    }
    let stats = TierStats { outcomes, levels };
    let placements = game.tier_placements(tier);
    let meta = tier_meta(game, &name, n, &stats, placements, seconds)?;
    let failure: Mutex<Option<std::io::Error>> = Mutex::new(None);
    let path = crate::table::table_path(out_dir, &name);
    crate::table::write_table_from(&path, &meta, n, &|r| {
        let len = r.len();
        read_parts(&files, r).unwrap_or_else(|e| {
            if let Ok(mut f) = failure.lock() {
                f.get_or_insert(e);
            }
            vec![REC_NONE; len]
        })
    })?;
    if let Some(e) = failure.into_inner().ok().flatten() {
        let _ = std::fs::remove_file(&path);
        return Err(Error::io(format!("reading the parts of tier {name}"), e));
    }
    for k in 0..parts {
        let p = part_path(out_dir, &name, k, parts);
        std::fs::remove_file(&p).map_err(|e| Error::io(format!("removing {}", p.display()), e))?;
    }
    Ok(TierSummary {
        tier: name,
        positions: placements,
        outcomes,
        seconds,
    })
}

/// Options of [`solve_split`].
#[derive(Clone, Debug, Default)]
pub struct SplitSolveOptions {
    /// Memory limit per part (`None`: no check).
    pub memory_limit: Option<u64>,
    /// The exchange rounds' size.
    pub split: SplitOptions,
}

/// What a split solve tells its caller as it goes (part 0 only).
#[derive(Clone, Debug)]
pub enum SplitEvent {
    /// The solve starts: tiers of the plan, kept from disk, parts.
    Started {
        /// Tiers of the scope.
        tiers: usize,
        /// Tiers whose tables were kept.
        kept: usize,
        /// Parts every tier is split into.
        parts: usize,
        /// The largest estimate of a part's memory over the tiers.
        memory_per_part: u64,
    },
    /// Every part starts on this tier.
    Solving {
        /// Tier name.
        tier: String,
    },
    /// A tier was solved in parts and joined.
    Solved {
        /// Tier name.
        tier: String,
        /// Its slots.
        slots: u64,
        /// Seconds from its start to its table.
        seconds: f64,
        /// Every part's traffic, summed.
        traffic: Traffic,
        /// Only joined from part files an earlier run left.
        joined_only: bool,
        /// Tiers done, of `total`.
        done: usize,
        /// Tiers of the scope.
        total: usize,
    },
    /// A stop request (Ctrl-C, or the job ending because a process died)
    /// came while this tier was being solved; its table was not written.
    Stopped {
        /// Tier name.
        tier: String,
    },
}

/// Every part's `Ok(())`, or the first failure (see [`Net::agree`]).
fn agree_ok<T: Transport>(net: &mut Net<'_, T>, local: Result<()>) -> Result<()> {
    net.agree(local.map(|()| Vec::new())).map(|_| ())
}

/// Solves `scope` of `game` into `out_dir` with every tier split across the
/// parts of `transport` (every part calls it with the same arguments; they must
/// share `out_dir`). Part 0 takes the directory's lock, joins each tier's part
/// files into its table, writes `summary.json` and returns the report; the
/// other parts return `None`.
pub fn solve_split<G: Solvable, T: Transport>(
    game: &G,
    scope: &Scope,
    out_dir: &Path,
    transport: &mut T,
    options: &SplitSolveOptions,
    observe: &dyn Fn(&SplitEvent),
    progress: &dyn Progress,
) -> Result<Option<SolveReport>> {
    let mut net = Net::new(transport);
    match solve_split_in(game, scope, out_dir, &mut net, options, observe, progress) {
        Ok(r) => Ok(r),
        Err(e) => Err(net.fail(e)),
    }
}

fn solve_split_in<G: Solvable, T: Transport>(
    game: &G,
    scope: &Scope,
    out_dir: &Path,
    net: &mut Net<'_, T>,
    options: &SplitSolveOptions,
    observe: &dyn Fn(&SplitEvent),
    progress: &dyn Progress,
) -> Result<Option<SolveReport>> {
    let me = net.me();
    let parts = net.parts();
    let started = Instant::now();
    // Every part plans (deterministic) and checks its memory; part 0 locks the directory.
    let setup = (|| {
        check_index(game, options.memory_limit)?;
        let plan = plan(game, scope)?;
        let need = plan_part_memory(game, &plan, parts)?;
        if let Some(l) = options.memory_limit {
            if need > l {
                return Err(Error::Memory(format!(
                    "{} ({} scope) split into {parts} parts needs about {} a part for its largest tier (its share of the state, {} bytes a slot, and its children's records whole), but the limit is {}; use more ranks or raise --memory",
                    game.rules_string(),
                    scope.name(),
                    format_bytes(need),
                    SPLIT_STATE_BYTES_PER_SLOT + SPLIT_FRONTIER_BYTES_PER_SLOT,
                    format_bytes(l)
                )));
            }
        }
        let lock = if me == 0 {
            Some(open_out_dir(out_dir)?)
        } else {
            None
        };
        Ok((plan, need, lock))
    })();
    let lock_text = match &setup {
        Ok(_) if me == 0 => std::fs::read(out_dir.join(super::lock::LOCK_FILE))
            .map_err(|e| Error::io(format!("reading the lock of {}", out_dir.display()), e)),
        Ok(_) => Ok(Vec::new()),
        Err(_) => Ok(Vec::new()),
    };
    let setup = setup.and_then(|s| lock_text.map(|l| (s, l)));
    let ((plan, need, _lock), lock_text) = match setup {
        Ok(s) => s,
        Err(e) => return Err(net.fail(e)),
    };
    let texts = net.agree(Ok(lock_text))?;
    // Every part must see the directory part 0 locked.
    let seen = if me == 0 {
        Ok(())
    } else {
        match std::fs::read(out_dir.join(super::lock::LOCK_FILE)) {
            Ok(t) if t == texts[0] => Ok(()),
            Ok(_) => Err(Error::Cluster(format!(
                "part {me}: {} here is not the directory part 0 writes (its lock file differs): the output directory must be on a filesystem every node shares",
                out_dir.display()
            ))),
            Err(e) => Err(Error::Cluster(format!(
                "part {me}: cannot reach the shared output directory {}: {e}",
                out_dir.display()
            ))),
        }
    };
    agree_ok(net, seen)?;

    let order: Vec<G::Tier> = plan.waves.iter().flatten().copied().collect();
    let mut done: BTreeMap<G::Tier, TierSummary> = BTreeMap::new();
    let mut kept = 0;
    // Kept tables, decided by part 0 (all parts read the same directory).
    let kept_list = if me == 0 {
        (|| {
            let mut v = Vec::new();
            for (i, &t) in order.iter().enumerate() {
                if let Some(s) = kept_tier(game, t, out_dir)? {
                    // Part files left by a run killed between the join and their removal.
                    for k in 0..parts {
                        let p = part_path(out_dir, &game.tier_name(t), k, parts);
                        match std::fs::remove_file(&p) {
                            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                                return Err(Error::io(format!("removing {}", p.display()), e))
                            }
                            _ => {}
                        }
                    }
                    done.insert(t, s);
                    v.extend_from_slice(&(i as u64).to_le_bytes());
                }
            }
            Ok(v)
        })()
    } else {
        Ok(Vec::new())
    };
    let kept_list = net.agree(kept_list)?;
    let kept_set: std::collections::BTreeSet<usize> = kept_list[0]
        .chunks_exact(8)
        .map(|c| u64_at(c, 0) as usize)
        .collect();
    if me == 0 {
        kept = kept_set.len();
        observe(&SplitEvent::Started {
            tiers: order.len(),
            kept,
            parts,
            memory_per_part: need,
        });
    }
    let fingerprint = game.fingerprint();
    let mut cache: HashMap<G::Tier, Arc<Vec<u16>>> = HashMap::new();
    let (mut solved, mut slots_solved) = (0usize, 0u64);
    for (i, &t) in order.iter().enumerate() {
        if kept_set.contains(&i) {
            continue;
        }
        let tier_started = Instant::now();
        let name = game.tier_name(t);
        if me == 0 {
            observe(&SplitEvent::Solving { tier: name.clone() });
        }
        let size = game.tier_size(t);
        let part = Partition::new(size, parts)?;
        let range = part.range(me);
        let mine = part_path(out_dir, &name, me, parts);
        // Part files of an earlier run: join them again without solving.
        let have = valid_part(&mine, fingerprint, size, &range);
        let all = net.gather(have.map_or(vec![0], |l| {
            let mut v = vec![1];
            v.extend_from_slice(&l.to_le_bytes());
            v
        }))?;
        let resumed: Option<u32> = if all.iter().all(|b| b.first() == Some(&1)) {
            Some(u32_at(&all[0], 1))
        } else {
            None
        };
        let (levels, traffic) = match resumed {
            Some(levels) => (levels, Traffic::default()),
            None => {
                let solved_part = (|| {
                    // The children's records, whole, on every part.
                    let load = (|| {
                        let kids = game.stored_children(t);
                        cache.retain(|c, _| kids.contains(c));
                        let mut children = ChildValues::new();
                        for &c in &kids {
                            let r = match cache.get(&c) {
                                Some(r) => r.clone(),
                                None => {
                                    let r = Arc::new(load_records(game, out_dir, c)?);
                                    cache.insert(c, r.clone());
                                    r
                                }
                            };
                            children.insert(c, r);
                        }
                        Ok(children)
                    })();
                    let children = match load {
                        Ok(c) => c,
                        Err(e) => return Err(net.fail(e)),
                    };
                    let res = solve_part_in(game, t, &children, net, &options.split, progress)?;
                    drop(children);
                    let written = write_part(&mine, fingerprint, size, &res);
                    let levels = res.stats.levels;
                    let traffic = res.total_traffic;
                    drop(res);
                    agree_ok(net, written)?;
                    Ok((levels, traffic))
                })();
                match solved_part {
                    Err(Error::Interrupted) => {
                        if me == 0 {
                            observe(&SplitEvent::Stopped { tier: name });
                        }
                        return Err(Error::Interrupted);
                    }
                    other => other?,
                }
            }
        };
        // Part 0 joins; the others wait for the table before the next tier reads it.
        let joined = if me == 0 {
            join_parts(
                game,
                t,
                out_dir,
                parts,
                levels,
                tier_started.elapsed().as_secs_f64(),
            )
            .map(Some)
        } else {
            Ok(None)
        };
        let joined = match joined {
            Ok(s) => s,
            Err(e) => return Err(net.fail(e)),
        };
        agree_ok(net, Ok(()))?;
        solved += 1;
        slots_solved += size;
        if let Some(summary) = joined {
            done.insert(t, summary);
            observe(&SplitEvent::Solved {
                tier: name,
                slots: size,
                seconds: tier_started.elapsed().as_secs_f64(),
                traffic,
                joined_only: resumed.is_some(),
                done: done.len(),
                total: order.len(),
            });
        }
        progress.tiers_done(kept_set.len() + solved, order.len());
    }
    if me != 0 {
        return Ok(None);
    }
    let start_pos = game.start();
    let start_tier = game.tier_of(&start_pos);
    let start_record = if order.contains(&start_tier) {
        let records = load_records(game, out_dir, start_tier)?;
        records
            .get(game.rank(start_tier, &start_pos) as usize)
            .copied()
            .and_then(decode)
    } else {
        None
    };
    let summary = make_summary(game, &plan, &done, start_record);
    write_summary(out_dir, &summary)?;
    Ok(Some(SolveReport {
        summary,
        solved,
        resumed: kept,
        seconds: started.elapsed().as_secs_f64(),
        slots_solved,
    }))
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
                Err(Error::Input("part one cannot".into()))
            } else {
                Ok(Vec::new())
            };
            net.agree(local)?;
            Ok(())
        });
        assert!(matches!(&got[1], Err(Error::Input(_))));
        for k in [0, 2] {
            let e = got[k].as_ref().unwrap_err().to_string();
            assert!(e.contains("part 1") && e.contains("part one cannot"), "{e}");
        }
    }
}
