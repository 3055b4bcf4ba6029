//! The compact tier solver: one or two bytes a slot, for tiers whose solver words do
//! not fit in memory (the seed games' 8-cow tiers: 8.9 G slots on the
//! 37-point board, 36 GB of [`super::solver`] words, 9 GB of bytes).
//!
//! [`super::solver`] keeps a 32-bit word a slot: for an undecided position the
//! counter of its open in-tier moves, an escape flag and its best exit
//! distance. This solver keeps one byte (`St`): a decided slot's value and
//! distance; for an undecided one only whether some exit escapes to a draw
//! (then it never loses) or wins (a *pending* win at that distance). Without
//! counters a loss is found by a **forward re-check**: when a child class is
//! decided won (for its side to move), each undecided predecessor class
//! regenerates its representative's moves, and is lost when every child is a
//! decided win, at 1 + the longest of their distances. Wins come as in the
//! solver: a lost child at level `d` makes each undecided predecessor a win at
//! `d + 1`, levels in increasing order, so the first is the fastest.
//!
//! Phases:
//! 1. **Scan**: every slot unranked once ([`TierGame::for_each_slot`]);
//!    terminal positions and positions whose every move leaves the tier are
//!    final; the others are undecided, pending, or escaping by their exits.
//! 2. **Levels** `d = 0, 1, …`: the slots decided at distance `d` (and the pending
//!    wins at `d`, now final) are propagated: losses first (predecessors win at
//!    `d + 1`), then wins (predecessors re-checked). A level reads only the
//!    chunks of 2^12 slots whose distance set holds `d`; nothing is listed.
//! 3. What is left undecided is a draw.
//!
//! Values and distances are functions of the game graph, so the records equal
//! those of [`super::solver`] and [`super::reference`] with any number of
//! threads (the tests compare them on every small preset): a decided byte is
//! final when written (a win at the first level a lost child appears; a loss
//! once every child is a final win), and a re-check that misses a child decided
//! concurrently is repeated when that child's own level comes.
//!
//! Two kinds ([`CompactKind`]). **Plain**, one byte a slot: a re-check (move
//! generation and ranking of one position) per edge from a won child to an
//! undecided predecessor, where the solver decrements a counter: cheap where
//! few positions are decided (the seed endgames are 99.99 % draws), dear where
//! most are (0.42x the reference on cows-leopards-mogol's decisive 4-cow tier).
//! **Counted**, two bytes a slot: beside the state byte, a counter byte of an
//! undecided slot's open in-tier moves (set by the scan, at most 254; a
//! saturated counter falls back to re-checks). A won child takes its edges off
//! each predecessor's counter ([`super::solver`]'s edge counting), and only a
//! counter reaching zero triggers the re-check, which then finds the loss's
//! distance (the longest exit included): one re-check a lost position instead
//! of one an edge (1.59x the reference and 3.8x the plain kind on that tier). Distances above
//! [`MAX_COMPACT_DISTANCE`] are refused with an error, never approximated.
//! Checkpoints at level boundaries (`solve_tier_compact_checkpointed`,
//! format in [`checkpoint`]): a killed compact tier resumes from
//! its last checkpoint.

pub(crate) mod checkpoint;
mod levels;
pub(crate) mod ooc;

use super::kernel::{final_records, Settled};
use super::solver::checkpoint::{resume_state, Identity};
use super::solver::TierAt;
use super::solver::{
    scan_position, CheckpointReport, Checkpointing, ChildValues, Scanned, Scratch, TierStats,
};
use crate::error::{Error, Result};
use crate::game::Value;
use crate::progress::{stop_requested, Progress};
use crate::tier::{decode, encode, Outcomes, TierGame, REC_DRAW};
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::time::Instant;

/// Longest distance (plies) a compact byte holds, for wins and losses alike.
pub(crate) const MAX_COMPACT_DISTANCE: u32 = 83;
/// Bytes of working memory per slot in compact mode (the children's records,
/// 2 bytes a slot, are counted apart; the distance sets are 1/256 byte a slot).
pub(crate) const COMPACT_BYTES_PER_SLOT: u64 = 1;

/// Whether the compact solver keeps a counter byte a slot beside its state byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum CompactKind {
    /// Two bytes a slot: the state and, for an undecided slot that may lose,
    /// the number of its open in-tier moves (up to 254). A won child
    /// decrements its predecessors' counters as in [`super::solver`], and a
    /// predecessor is re-checked from its moves only when its counter reaches
    /// zero (once a lost position) or is saturated: the speed of the full
    /// solver's propagation on decisive tiers at half its memory.
    #[default]
    Counted,
    /// One byte a slot: every undecided predecessor of a won child is re-checked
    /// from its moves (cheap on draw-heavy tiers, dear on decisive ones).
    Plain,
}

impl CompactKind {
    /// Bytes of working memory a slot (children's records and distance sets apart).
    pub(crate) fn bytes_per_slot(self) -> u64 {
        match self {
            CompactKind::Counted => 2,
            CompactKind::Plain => COMPACT_BYTES_PER_SLOT,
        }
    }

    /// Short description for messages.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            CompactKind::Counted => "two bytes a slot: state and counter",
            CompactKind::Plain => "one byte a slot",
        }
    }
}

/// A counter byte that no longer counts (more open moves than a byte holds):
/// its slot is re-checked at every won child, as in [`CompactKind::Plain`].
const SATURATED: u8 = u8::MAX;

/// Undecided; every exit (if any) is a win for the child's side to move.
const UNKNOWN: u8 = 0;
/// Undecided, never loses: some exit leads to a draw.
const ESCAPE: u8 = 1;
/// No position in the slot.
const NONE: u8 = 2;
/// Final draw found by the scan (every move leaves the tier, one to a draw).
const DRAW: u8 = 3;
/// `WIN + d`: won in `d` plies, `d` in `0..=MAX`.
const WIN: u8 = 4;
/// `LOSS + d`: lost in `d` plies.
const LOSS: u8 = WIN + MAX_COMPACT_DISTANCE as u8 + 1;
/// `PENDING + d - 1`: undecided, won in `d` plies through an exit unless a
/// faster win through an in-tier move comes first; `d` in `1..=MAX`.
const PENDING: u8 = LOSS + MAX_COMPACT_DISTANCE as u8 + 1;
/// The largest byte value of a state (a pending win at the longest distance).
pub(super) const MAX_BYTE: u8 = PENDING + MAX_COMPACT_DISTANCE as u8 - 1;

/// A compact byte, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum St {
    Unknown,
    Escape,
    Empty,
    Draw,
    Win(u32),
    Loss(u32),
    Pending(u32),
}

fn state(b: u8) -> St {
    match b {
        UNKNOWN => St::Unknown,
        ESCAPE => St::Escape,
        NONE => St::Empty,
        DRAW => St::Draw,
        b if b < LOSS => St::Win(u32::from(b - WIN)),
        b if b < PENDING => St::Loss(u32::from(b - LOSS)),
        b => St::Pending(u32::from(b - PENDING) + 1),
    }
}

fn checked(d: u32) -> Result<u8> {
    if d > MAX_COMPACT_DISTANCE {
        return Err(Error::Memory(format!(
            "a distance of {d} plies exceeds the compact solver's limit of {MAX_COMPACT_DISTANCE}; \
             solve this tier with the full solver (--compact never) and more memory"
        )));
    }
    Ok(d as u8)
}

fn win(d: u32) -> Result<u8> {
    Ok(WIN + checked(d)?)
}

fn loss(d: u32) -> Result<u8> {
    Ok(LOSS + checked(d)?)
}

/// The byte of a win at `d` plies through an exit, pending; `d` is at least 1
/// (an exit is a move), and 0 is a fault, never the byte below `PENDING`.
fn pending(d: u32) -> Result<u8> {
    if d == 0 {
        return Err(Error::Internal(
            "a pending win through an exit at distance 0 (an exit is a move, at least 1 ply)"
                .into(),
        ));
    }
    Ok(PENDING + checked(d)? - 1)
}

/// The byte of a final record of the scan.
fn of_record(r: u16) -> Result<u8> {
    match decode(r) {
        None => Ok(NONE),
        Some((Value::Draw, _)) => Ok(DRAW),
        Some((Value::Win, d)) => win(d),
        Some((Value::Loss, d)) => loss(d),
    }
}

/// A byte after the last level as the final-records pass sees it
/// (undecided, or pending a win that never came: a draw).
fn settled(b: u8) -> Settled {
    match state(b) {
        St::Unknown | St::Escape | St::Pending(_) => Settled::Undecided,
        St::Draw => Settled::Decided(REC_DRAW),
        St::Empty => Settled::Empty,
        St::Win(d) => Settled::Decided(encode(Value::Win, d)),
        St::Loss(d) => Settled::Decided(encode(Value::Loss, d)),
    }
}

/// The record of a byte after the last level.
fn record(b: u8) -> u16 {
    settled(b).record()
}

/// The records of `len` bytes read by `byte(i)`: the kernel's final-records
/// pass over the compact state bytes.
fn records_of(len: usize, byte: impl Fn(usize) -> u8 + Sync) -> Vec<u16> {
    final_records(0..len, CHUNK, |i| settled(byte(i)))
}

/// The distance at which a byte is propagated (decided or pending), if any.
fn level_of(b: u8) -> Option<u32> {
    match state(b) {
        St::Win(d) | St::Loss(d) | St::Pending(d) => Some(d),
        _ => None,
    }
}

/// Slots per segment of the bytes (16 MiB).
const SEG_BITS: u32 = 24;
/// Slots per chunk: the unit of a sweep job and of the distance sets.
const CHUNK_BITS: u32 = 12;
const CHUNK: usize = 1 << CHUNK_BITS;
/// Words of a chunk's distance set (`0..=MAX_COMPACT_DISTANCE`).
pub(super) const SET_WORDS: usize = (MAX_COMPACT_DISTANCE as usize + 1).div_ceil(64);

/// One byte a slot in segments, and per chunk the set of distances its bytes
/// are propagated at.
pub(super) struct Bytes {
    pub(super) segs: Vec<Vec<AtomicU8>>,
    /// [`CompactKind::Counted`]: a counter byte a slot, in segments like `segs`
    /// (meaningful only while the slot's state is `UNKNOWN`).
    pub(super) counts: Option<Vec<Vec<AtomicU8>>>,
    len: usize,
    pub(super) sets: Vec<[AtomicU64; SET_WORDS]>,
}

impl Bytes {
    /// Chunks (distance sets) of a tier of `n` slots.
    pub(super) fn chunks_for(n: usize) -> usize {
        n.div_ceil(CHUNK)
    }

    /// `n` empty slots of `kind`, or a memory error.
    pub(super) fn new(n: usize, name: &str, kind: CompactKind) -> Result<Bytes> {
        let oom = || {
            Error::Memory(format!(
                "tier {name}: cannot allocate {} bytes of solver state",
                n as u64 * kind.bytes_per_slot()
            ))
        };
        let segs = Bytes::segments(n, NONE).ok_or_else(oom)?;
        let counts = match kind {
            CompactKind::Counted => Some(Bytes::segments(n, 0).ok_or_else(oom)?),
            CompactKind::Plain => None,
        };
        let chunks = Bytes::chunks_for(n);
        let mut sets = Vec::new();
        sets.try_reserve_exact(chunks).map_err(|_| oom())?;
        sets.extend((0..chunks).map(|_| std::array::from_fn(|_| AtomicU64::new(0))));
        Ok(Bytes {
            segs,
            counts,
            len: n,
            sets,
        })
    }

    /// `n` bytes holding `fill` in segments of 2^SEG_BITS; `None` when memory is short.
    fn segments(n: usize, fill: u8) -> Option<Vec<Vec<AtomicU8>>> {
        let seg = 1usize << SEG_BITS;
        let sizes: Vec<usize> = (0..n.div_ceil(seg)).map(|s| seg.min(n - s * seg)).collect();
        sizes
            .into_par_iter()
            .map(|k| {
                let mut v: Vec<AtomicU8> = Vec::new();
                v.try_reserve_exact(k).ok()?;
                v.extend((0..k).map(|_| AtomicU8::new(fill)));
                Some(v)
            })
            .collect()
    }

    /// The kind these bytes are.
    pub(super) fn kind(&self) -> CompactKind {
        match self.counts {
            Some(_) => CompactKind::Counted,
            None => CompactKind::Plain,
        }
    }

    /// The counter byte of slot `i` (counted bytes only).
    #[inline]
    fn count_at(&self, i: usize) -> Option<&AtomicU8> {
        self.counts
            .as_ref()
            .map(|c| &c[i >> SEG_BITS][i & ((1 << SEG_BITS) - 1)])
    }

    #[inline]
    fn at(&self, i: usize) -> &AtomicU8 {
        &self.segs[i >> SEG_BITS][i & ((1 << SEG_BITS) - 1)]
    }

    #[inline]
    fn load(&self, i: usize) -> u8 {
        self.at(i).load(Ordering::Relaxed)
    }

    /// The byte of slot `i`, or `None` past the end.
    #[inline]
    fn get(&self, i: u64) -> Option<u8> {
        (i < self.len as u64).then(|| self.load(i as usize))
    }

    /// Notes that slot `i` is propagated at distance `d`.
    #[inline]
    fn mark(&self, i: usize, d: u32) {
        let d = d as usize;
        self.sets[i >> CHUNK_BITS][d / 64].fetch_or(1 << (d % 64), Ordering::Relaxed);
    }

    /// Sets slot `i` from `from` to `to`; `false` if it no longer held `from`.
    #[inline]
    fn swap(&self, i: usize, from: u8, to: u8) -> bool {
        self.at(i)
            .compare_exchange(from, to, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
    }

    /// The smallest distance at or above `from` that some chunk holds.
    fn next_level(&self, from: u32) -> Option<u32> {
        let all = self
            .sets
            .par_iter()
            .with_min_len(1 << 12)
            .map(|s| std::array::from_fn::<u64, SET_WORDS, _>(|k| s[k].load(Ordering::Relaxed)))
            .reduce(
                || [0; SET_WORDS],
                |a, b| std::array::from_fn(|k| a[k] | b[k]),
            );
        (from..=MAX_COMPACT_DISTANCE).find(|&d| all[d as usize / 64] >> (d % 64) & 1 != 0)
    }

    /// Chunks whose distance set holds `d`.
    fn chunks_at(&self, d: u32) -> Vec<usize> {
        let (k, bit) = (d as usize / 64, 1u64 << (d % 64));
        (0..self.sets.len())
            .into_par_iter()
            .filter(|&c| self.sets[c][k].load(Ordering::Relaxed) & bit != 0)
            .collect()
    }
}

/// A tier solved by `solve_tier_compact`: its bytes give the records block by block.
pub(crate) struct CompactTier {
    bytes: Bytes,
    /// Outcome counts and levels.
    pub stats: TierStats,
    /// Wall-clock seconds spent (this run's: a resumed tier's earlier runs are not counted).
    pub seconds: f64,
    /// What checkpointing did (`solve_tier_compact_checkpointed`; all zero without it).
    /// The driver reports a resume through its progress notes; the tests read this.
    #[cfg_attr(not(test), allow(dead_code))]
    pub checkpoint: CheckpointReport,
}

impl CompactTier {
    /// Number of slots.
    pub(crate) fn len(&self) -> usize {
        self.bytes.len
    }

    /// The records ([`crate::tier::encode`]) of the slots in `range`.
    pub(crate) fn records(&self, range: Range<usize>) -> Vec<u16> {
        let lo = range.start;
        records_of(range.len(), |i| self.bytes.load(lo + i))
    }

    /// Every record (tests; a large tier's records are written block by block
    /// instead, see `crate::table::write_table_from`).
    pub(crate) fn all_records(&self) -> Vec<u16> {
        self.records(0..self.len())
    }
}

/// Solves one tier whose child tiers are solved (their records in `children`),
/// one byte a slot (see the module documentation). Runs on the current rayon
/// pool; returns [`Error::Interrupted`] when a stop is requested.
pub(crate) fn solve_tier_compact<G: TierGame>(
    game: &G,
    tier: G::Tier,
    children: &ChildValues<G::Tier>,
    kind: CompactKind,
    progress: &dyn Progress,
) -> Result<CompactTier> {
    let tier_at = TierAt {
        game,
        tier,
        children,
    };
    solve_tier_compact_checkpointed(tier_at, kind, progress, None)
}

/// [`solve_tier_compact`] with checkpoints at level boundaries as `ckpt` says
/// (format: [`checkpoint`]), as
/// [`super::solver::solve_tier_checkpointed`] does for the full solver: a valid
/// checkpoint at `ckpt.path` is resumed from; a damaged one or one of another
/// tier is ignored (noted, and the tier solved from its scan); one of other
/// rules is refused. A stop request is answered by a checkpoint (when the state
/// changed since the last) and [`Error::Interrupted`]. A checkpoint resumes in
/// its own kind where `kind` allows: a counted one as plain when `kind` is
/// [`CompactKind::Plain`] (its counters are dropped), a plain one stays plain.
pub(crate) fn solve_tier_compact_checkpointed<G: TierGame>(
    tier_at: TierAt<G>,
    kind: CompactKind,
    progress: &dyn Progress,
    ckpt: Option<&Checkpointing>,
) -> Result<CompactTier> {
    let (game, tier) = (tier_at.game, tier_at.tier);
    let started = Instant::now();
    let size = game.tier_size(tier);
    let name = game.tier_name(tier);
    let n = usize::try_from(size).map_err(|_| {
        Error::Memory(format!(
            "tier {name} has {size} slots, more than this machine can address"
        ))
    })?;
    let rules = game.rules_string();
    let id = Identity {
        rules: &rules,
        fingerprint: game.fingerprint(),
        tier: &name,
        size,
    };
    let mut report = CheckpointReport::default();
    let resumed = resume_state(ckpt, &name, &mut report, progress, |path| {
        checkpoint::read(path, &id, kind)
    })?;
    let (bytes, at) = match resumed {
        Some(st) => {
            report.resumed_at = Some(st.at.levels);
            progress.note(&format!(
                "{name}: resumed from its compact checkpoint ({}, {})",
                st.at.describe(n),
                st.bytes.kind().describe()
            ));
            (st.bytes, st.at)
        }
        None => (Bytes::new(n, &name, kind)?, Boundary::default()),
    };
    let mut saver = ckpt.map(|c| Saver {
        config: c,
        id: &id,
        // The first checkpoint is due `every` after the start.
        last: if report.resumed_at.is_some() {
            Instant::now()
        } else {
            started
        },
        dirty: false,
    });
    if (at.scanned as usize) < n {
        scan(
            tier_at,
            &bytes,
            at.scanned as usize,
            &mut saver,
            &mut report,
            progress,
        )?;
    }
    progress.stage(&format!("{name} propagate (compact)"), 0);
    let levels = levels::propagate(
        tier_at,
        &bytes,
        (at.from, at.levels),
        saver,
        &mut report,
        progress,
    )?;
    progress.finish_stage();
    let outcomes = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut o = Outcomes::default();
            for i in c * CHUNK..((c + 1) * CHUNK).min(n) {
                if let Some((v, d)) = decode(record(bytes.load(i))) {
                    o.add(v, d);
                }
            }
            o
        })
        .reduce(Outcomes::default, |mut a, b| {
            a.merge(&b);
            a
        });
    Ok(CompactTier {
        bytes,
        stats: TierStats { outcomes, levels },
        seconds: started.elapsed().as_secs_f64(),
        checkpoint: report,
    })
}

/// Where the compact solver is between two steps: the scan's progress, then
/// propagation's (a checkpoint holds one).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Boundary {
    /// Slots scanned (from slot 0; the tier's size once the scan is done).
    pub scanned: u64,
    /// The next distance to propagate.
    pub from: u32,
    /// Levels propagated.
    pub levels: u32,
}

impl Boundary {
    fn describe(&self, n: usize) -> String {
        if (self.scanned as usize) < n {
            format!("{} of {n} slots scanned", self.scanned)
        } else {
            format!("after {} levels", self.levels)
        }
    }
}

/// When and where the scan and propagation write checkpoints.
struct Saver<'a> {
    config: &'a Checkpointing,
    id: &'a Identity<'a>,
    /// When the last checkpoint was written (or the tier started).
    last: Instant,
    /// Whether the state changed since the last checkpoint.
    dirty: bool,
}

impl Saver<'_> {
    /// At a boundary `at` (of a scan pass or a level): writes a checkpoint
    /// when one is due, or on a stop (`stop`) when the state changed since the
    /// last; then [`Error::Interrupted`] on a stop. Marks the state changed
    /// (the caller goes on to change it).
    fn boundary(
        &mut self,
        bytes: &Bytes,
        at: Boundary,
        stop: bool,
        report: &mut CheckpointReport,
        progress: &dyn Progress,
    ) -> Result<()> {
        let due = self.last.elapsed() >= self.config.every;
        if self.dirty && (due || stop) {
            let t = Instant::now();
            progress.message(&format!("checkpoint ({})", at.describe(bytes.len)));
            report.bytes = checkpoint::write(&self.config.path, self.id, bytes, at)?;
            report.written += 1;
            report.write_seconds += t.elapsed().as_secs_f64();
            self.last = Instant::now();
            self.dirty = false;
        }
        if stop {
            return Err(Error::Interrupted);
        }
        self.dirty = true;
        Ok(())
    }
}

/// Phase 1: every slot's byte after its own moves, and the chunks' distance sets.
fn scan<G: TierGame>(
    tier_at: TierAt<G>,
    bytes: &Bytes,
    from_slot: usize,
    saver: &mut Option<Saver>,
    report: &mut CheckpointReport,
    progress: &dyn Progress,
) -> Result<()> {
    let (game, tier) = (tier_at.game, tier_at.tier);
    let n = bytes.len;
    let name = game.tier_name(tier);
    progress.stage(&format!("{name} scan (compact)"), n as u64);
    progress.advance(from_slot as u64);
    // In passes of whole chunks (a 64th of the tier, at most 2^26 slots), each
    // a checkpoint boundary: the scan is nearly all of a draw-heavy tier's time.
    let chunks = n.div_ceil(CHUNK);
    let pass = (chunks / 64).clamp(1, (1 << 26) / CHUNK);
    let mut c0 = from_slot / CHUNK;
    // With checkpoints, a stop request ends the pass (seconds) and checkpoints
    // it, as the full solver finishes its level; without, it stops at once.
    let at_once = saver.is_none();
    while c0 < chunks {
        let c1 = (c0 + pass).min(chunks);
        (c0..c1)
            .into_par_iter()
            .try_for_each_init(Scratch::new, |scratch, c| -> Result<()> {
                if at_once && stop_requested() {
                    return Err(Error::Interrupted);
                }
                scan_chunk(tier_at, bytes, (c, 0), false, scratch)?;
                progress.advance((((c + 1) * CHUNK).min(n) - c * CHUNK) as u64);
                Ok(())
            })?;
        c0 = c1;
        if let Some(s) = saver.as_mut() {
            let scanned = (c0 * CHUNK).min(n) as u64;
            let stop = stop_requested() || s.config.stop_after_slots.is_some_and(|k| scanned >= k);
            let at = Boundary {
                scanned,
                from: 0,
                levels: 0,
            };
            s.dirty = true;
            s.boundary(bytes, at, stop, report, progress)?;
        }
    }
    progress.finish_stage();
    Ok(())
}

/// The scan of chunk `c` of `bytes`, which hold the tier's slots from `lo`
/// (0 in memory, a part's first slot out of core): each slot's byte after its
/// own moves, and the chunk's distance set. A counter past a byte saturates
/// (re-checked at every won child), or with `exact` is refused (the
/// out-of-core solver cannot re-check: another part may hold the children).
pub(super) fn scan_chunk<G: TierGame>(
    tier_at: TierAt<G>,
    bytes: &Bytes,
    (c, lo): (usize, usize),
    exact: bool,
    scratch: &mut Scratch<G>,
) -> Result<()> {
    let (game, tier, children) = (tier_at.game, tier_at.tier, tier_at.children);
    let (start, end) = (c * CHUNK, ((c + 1) * CHUNK).min(bytes.len));
    let mut set = [0u64; SET_WORDS];
    let mut visit = |index: u64, pos: &G::Pos| -> Result<()> {
        let i = index as usize - lo;
        let b = match scan_position(game, tier, pos, children, scratch, None)? {
            Scanned::Final(r) => of_record(r)?,
            Scanned::Inner(count, exits) => match exits.win {
                Some(w) => pending(w)?,
                None if exits.draw => ESCAPE,
                None => {
                    if exact && count >= u32::from(SATURATED) {
                        return Err(Error::Memory(format!(
                            "position {} has {count} in-tier moves; the out-of-core solver keeps a counter byte (at most 254): solve tier {} in memory",
                            game.format_position(pos),
                            game.tier_name(tier)
                        )));
                    }
                    if let Some(k) = bytes.count_at(i) {
                        // `count` >= 1 (an inner node has an in-tier move).
                        k.store(count.min(u32::from(SATURATED)) as u8, Ordering::Relaxed);
                    }
                    UNKNOWN
                }
            },
        };
        if let Some(d) = level_of(b) {
            set[d as usize / 64] |= 1 << (d % 64);
        }
        bytes.at(i).store(b, Ordering::Relaxed);
        Ok(())
    };
    let range = (lo + start) as u64..(lo + end) as u64;
    game.for_each_slot(tier, range, None, &mut visit)?;
    for (k, &w) in set.iter().enumerate() {
        bytes.sets[c][k].fetch_or(w, Ordering::Relaxed);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tier::REC_NONE;

    #[test]
    fn bytes_round_trip_every_state() {
        for d in 0..=MAX_COMPACT_DISTANCE {
            assert_eq!(state(win(d).unwrap()), St::Win(d));
            assert_eq!(state(loss(d).unwrap()), St::Loss(d));
            assert_eq!(record(win(d).unwrap()), encode(Value::Win, d));
            assert_eq!(record(loss(d).unwrap()), encode(Value::Loss, d));
            if d > 0 {
                assert_eq!(state(pending(d).unwrap()), St::Pending(d));
            }
        }
        assert_eq!(PENDING as u32 + MAX_COMPACT_DISTANCE - 1, 254);
        for b in [UNKNOWN, ESCAPE, DRAW] {
            assert_eq!(record(b), REC_DRAW);
        }
        assert_eq!(record(NONE), REC_NONE);
        assert!(win(MAX_COMPACT_DISTANCE + 1).is_err());
        assert!(loss(MAX_COMPACT_DISTANCE + 1).is_err());
        assert!(pending(MAX_COMPACT_DISTANCE + 1).is_err());
        assert!(
            pending(0).is_err(),
            "pending(0) wrapped to {:?}",
            pending(0)
        );
    }
}

#[cfg(test)]
mod tests_checkpoint;

#[cfg(test)]
mod tests_ooc;

#[cfg(test)]
mod tests_distance;
