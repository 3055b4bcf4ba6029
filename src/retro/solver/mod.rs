//! The per-tier retrograde solver.
//!
//! Phases (each a sweep over the tier's index space, parallel with rayon for
//! large tiers, one job for tiny ones):
//!
//! 1. **Scan**, in two sweeps. Every slot is unranked once. Empty slots get
//!    [`REC_NONE`]. Terminal positions get their
//!    [`Game::outcome`](crate::game::Game::outcome) at distance 0. Moves that
//!    leave the tier are resolved from the solved child tiers (or, for a child
//!    tier whose every position is over, [`TierGame::tier_is_terminal`], from the
//!    child's outcome: such tiers are not stored). The **first sweep** takes the
//!    slots that [`TierGame::may_have_inner_moves`] rules out (in a placement
//!    tier, every position whose side to move must drop): all their moves leave
//!    the tier, so they are final at once. The **second sweep** takes the others:
//!    an in-tier child from the first sweep is *absorbed*, read forward and
//!    folded into the value (a lost child: a win at its distance + 1; a draw: an
//!    escape; a won child: a loss candidate); every other in-tier move is
//!    counted. A position with nothing counted is final after the scan. A
//!    position with a losing exit or absorbed child is a *pending* win at that
//!    distance (a counted child may still give a faster win). First-sweep slots
//!    are never propagated, since their predecessors have read them: in a
//!    placement tier that is half the slots, and the un-move generation, the
//!    unranking and a random atomic update per edge are saved for them.
//! 2. **Propagation by distance.** Level `d` holds every position whose value
//!    became final at distance `d` in the second sweep or later. First the
//!    losses of level `d` make each undetermined predecessor a win at `d + 1`; then the wins of level `d`
//!    decrement their predecessors' counters, and a counter reaching zero with
//!    no draw or win exit makes a loss at `max(d + 1, worst exit loss)`.
//!    Predecessors come from [`TierGame::unmoves`], never from a reverse graph;
//!    slots that [`TierGame::may_have_unmoves`] rules out are not even unranked.
//! 3. **Draws.** What is left undetermined is a draw (infinite play).
//!
//! Movement tiers (no slot must drop, [`TierGame::tier_has_moveless_slots`])
//! have no first sweep and count in-tier moves without ranking them.
//! Predecessors come ranked from [`TierGame::pred_ranks`]. The slots the scan
//! leaves for propagation are not listed: each segment of the state notes which
//! distances it holds, and a level sweeps those segments for them (`SWEPT`
//! marks a slot decided by the scan until its level); only the slots decided
//! during propagation are listed, 4 bytes an entry below 2^32 slots and 8 above.
//! The lists are bounded (2 bytes a slot, the plan's share beside the words): a
//! level larger than a part is processed in ranges of slots, and what is decided
//! while the lists are full is marked in its word (`SPILL`) and swept back at its
//! level, as the scan's share is (`levels::propagate`).
//!
//! Checkpoints (`solve_tier_checkpointed`, format in [`checkpoint`]): at
//! a level boundary of propagation (the first right after the scan) the whole
//! state is the words, the listed frontier, the scan's `ScanLevels`, the
//! next distance and the level count; it is written when
//! [`Checkpointing::every`] has passed since the last (or since the tier's
//! start), and on a stop request when it changed. A solve started with a valid
//! checkpoint skips the scan and continues from it with the same records. The
//! scan itself is not checkpointed.
//!
//! State: one 32-bit word per slot, in segments of 2^24 words freed one by one
//! as the records are written (see the constants `U`, `E`, `W`, `LATE`): a decided
//! slot holds its record; an undecided one its counter, escape flag and best
//! exit distance. One word means one cache miss per predecessor update (the
//! tiers are far larger than the caches) and 4 bytes a slot.
//!
//! Symmetry: a slot stands for a whole symmetry class and its counter counts
//! the in-tier moves of the class representative (`unrank`). When a child
//! class `c` is decided, the predecessor *classes* are collected (ranks of the
//! un-moves, deduplicated), and each is decremented by the number of moves of
//! its own representative that land in class `c`. That makes the counting exact
//! whatever the stabilisers of the two classes and whatever duplicates
//! `unmoves` returns: every (representative move → child class) edge is
//! either absorbed, or counted at the scan and removed once here.
//!
//! Determinism: absorption reads only first-sweep slots, which are complete
//! before the second sweep starts and never change; within a level, losses
//! are processed before wins and every decision depends only on the set of positions of the level, so the records
//! are the same with any number of threads; frontiers are sorted before use.
//! The records equal those of `reference::solve_tier_reference` (the
//! previous solver, kept as baseline and cross-check): a position's value and
//! distance are a function of the game graph.

pub(crate) mod checkpoint;
mod levels;
mod preds;
mod scan;
mod sparse;
mod words;

use levels::propagate;
pub(super) use preds::{pred_classes, pred_edges, PredScratch};
use scan::scan_tier;
pub(super) use scan::{scan_position, terminal_outcome, Scanned, Scratch};
pub use sparse::SparseRecords;
pub(crate) use sparse::SPARSE_BYTES_PER_64_SLOTS;
use words::SEG_BITS;
pub(super) use words::{ScanLevels, Slot, Words};

use crate::error::{Error, Result};
use crate::game::Value;
use crate::progress::Progress;
use crate::retro::kernel::check_distance;
use crate::tier::{decode, Outcomes, TierGame, REC_NONE};
use checkpoint::Identity;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Tiers below this many slots are solved as one job (no rayon splitting):
/// the overhead of splitting would exceed the work.
const SMALL_TIER: usize = 1 << 14;
/// Slots per rayon job of the sweeps in large tiers.
const CHUNK: usize = 1 << 12;
/// Minimum number of frontier entries per rayon job of a propagation level.
const MIN_LEVEL_JOB: usize = 256;

/// Word bit: the slot holds an undecided position with in-tier moves.
const U: u32 = 1 << 31;
/// Undecided word bit: some exit (or absorbed child) leads to a draw or a win,
/// so the position never loses.
const E: u32 = 1 << 30;
/// Undecided word bit: [`DIST`] holds the best win distance through an exit or
/// absorbed child (a pending win); without it, the worst loss distance.
const W: u32 = 1 << 29;
/// Undecided word: the counter of in-tier moves to undecided children, bits 14..29.
const CNT_SHIFT: u32 = 14;
/// Largest counter a word holds.
const CNT_MAX: u32 = (1 << 15) - 1;
/// Undecided word: a distance (see [`W`]).
const DIST: u32 = (1 << 14) - 1;
/// Decided word bit: decided after the scan, so its predecessors counted it and
/// it is propagated (absorption must not read it).
const LATE: u32 = 1 << 30;

/// The records of one solved child tier: every slot's record (two bytes a
/// slot), or only its wins and losses ([`SparseRecords`], for tiers of billions
/// of slots that are almost all draws; an empty slot then reads as a draw).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum ChildRecords {
    /// Every slot's record.
    Dense(Arc<Vec<u16>>),
    /// A bit a slot and the decided slots' records.
    Sparse(Arc<SparseRecords>),
}

impl ChildRecords {
    /// Record of slot `index` ([`REC_NONE`] past the end).
    #[inline]
    pub(crate) fn get(&self, index: u64) -> u16 {
        match self {
            ChildRecords::Dense(v) => v.get(index as usize).copied().unwrap_or(REC_NONE),
            ChildRecords::Sparse(s) => s.get(index),
        }
    }

    /// Bytes held.
    pub(crate) fn bytes(&self) -> u64 {
        match self {
            ChildRecords::Dense(v) => v.len() as u64 * 2,
            ChildRecords::Sparse(s) => s.bytes(),
        }
    }

    /// Whether these are held sparse.
    pub(crate) fn is_sparse(&self) -> bool {
        matches!(self, ChildRecords::Sparse(_))
    }
}

/// Solved records of the child tiers of the tier being solved, indexed by rank.
#[derive(Debug)]
pub struct ChildValues<T> {
    /// A short list searched linearly: a tier has a handful of children, and this
    /// lookup runs once per exit move (a `HashMap` spent 7 % of a Bagh-Chal solve
    /// hashing the tier key).
    tables: Vec<(T, ChildRecords)>,
}

impl<T: Copy + Eq + std::hash::Hash + std::fmt::Debug> ChildValues<T> {
    /// No child tier loaded.
    pub fn new() -> Self {
        ChildValues { tables: Vec::new() }
    }

    /// Adds (or replaces) the records of one tier, every slot's.
    pub fn insert(&mut self, tier: T, records: Arc<Vec<u16>>) {
        self.insert_records(tier, ChildRecords::Dense(records));
    }

    /// Adds (or replaces) the records of one tier, in either form.
    pub(crate) fn insert_records(&mut self, tier: T, records: ChildRecords) {
        match self.tables.iter_mut().find(|(t, _)| *t == tier) {
            Some(slot) => slot.1 = records,
            None => self.tables.push((tier, records)),
        }
    }

    /// Bytes held by the records of every tier loaded.
    pub(crate) fn bytes(&self) -> u64 {
        self.tables.iter().map(|(_, r)| r.bytes()).sum()
    }

    /// Position of `tier` in the list, if loaded (for [`ChildValues::record`]).
    pub(super) fn slot(&self, tier: T) -> Option<usize> {
        self.tables.iter().position(|(t, _)| *t == tier)
    }

    /// Record `index` of the tier at list position `k` ([`REC_NONE`] past the end).
    #[inline]
    pub(super) fn record(&self, k: usize, index: u64) -> u16 {
        self.tables[k].1.get(index)
    }

    /// The tier at list position `k`.
    fn tier(&self, k: usize) -> T {
        self.tables[k].0
    }

    /// Whether the records of `tier` are loaded.
    pub(crate) fn has(&self, tier: T) -> bool {
        self.slot(tier).is_some()
    }

    /// The records of `tier`, if loaded.
    #[cfg(test)]
    pub(crate) fn records(&self, tier: T) -> Option<&ChildRecords> {
        self.slot(tier).map(|k| &self.tables[k].1)
    }

    /// Looks up the value of `pos` (which lies in `tier`).
    pub(super) fn probe<G: TierGame<Tier = T>>(
        &self,
        game: &G,
        tier: T,
        pos: &G::Pos,
    ) -> Result<(Value, u32)> {
        let k = self.slot(tier).ok_or_else(|| {
            Error::Internal(format!(
                "child tier {} is not solved (needed by a move of {})",
                game.tier_name(tier),
                game.format_position(pos)
            ))
        })?;
        let index = game.rank(tier, pos);
        decode(self.record(k, index)).ok_or_else(|| {
            Error::Internal(format!(
                "position {} ranks to empty slot {index} of tier {} (rank/unrank mismatch)",
                game.format_position(pos),
                game.tier_name(tier)
            ))
        })
    }
}

impl<T: Copy + Eq + std::hash::Hash + std::fmt::Debug> Default for ChildValues<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// Outcome counts of one solved tier (over symmetry classes).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TierStats {
    /// Won, lost and drawn classes, longest distance.
    #[serde(flatten)]
    pub outcomes: Outcomes,
    /// Number of propagation levels processed.
    pub levels: u32,
}

impl TierStats {
    /// Counts the records of a solved tier.
    pub(crate) fn of_records(records: &[u16]) -> TierStats {
        TierStats {
            outcomes: Outcomes::of_records(records),
            levels: 0,
        }
    }
}

/// A tier to solve: the game, the tier and its children's records, what every
/// method reads of it.
pub(crate) struct TierAt<'a, G: TierGame> {
    pub(crate) game: &'a G,
    pub(crate) tier: G::Tier,
    pub(crate) children: &'a ChildValues<G::Tier>,
}

impl<G: TierGame> Clone for TierAt<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: TierGame> Copy for TierAt<'_, G> {}

/// A solved tier: one record per slot, and its statistics.
#[derive(Clone, Debug)]
pub struct TierResult {
    /// Records ([`crate::tier::encode`]) indexed by rank.
    pub records: Vec<u16>,
    /// Outcome counts.
    pub stats: TierStats,
    /// Wall-clock seconds spent.
    pub seconds: f64,
    /// What checkpointing did (`solve_tier_checkpointed`; all zero without it).
    pub checkpoint: CheckpointReport,
    /// How propagation kept its lists within their budget (all zero when the
    /// levels fitted).
    pub lists: ListReport,
}

impl TierResult {
    /// The result of a tier whose `records` were found in `levels` levels of
    /// propagation, begun at `started` (no checkpoints, lists within budget).
    pub(crate) fn of(records: Vec<u16>, levels: u32, started: Instant) -> Self {
        let mut stats = TierStats::of_records(&records);
        stats.levels = levels;
        TierResult {
            records,
            stats,
            seconds: started.elapsed().as_secs_f64(),
            checkpoint: Default::default(),
            lists: Default::default(),
        }
    }
}

/// How propagation kept its frontier lists within the memory plan: levels
/// processed in parts, slots not listed but marked in the words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ListReport {
    /// Levels processed in more than one part.
    pub split_levels: u32,
    /// Slots decided when the lists were full: marked in the words and swept
    /// back at their level.
    pub spilled: u64,
}

/// Where and how often `solve_tier_checkpointed` saves the state of a tier
/// (format: `checkpoint`).
#[derive(Clone, Debug)]
pub struct Checkpointing {
    /// The checkpoint file (written by a temporary file beside it and a rename).
    pub path: PathBuf,
    /// Least time between two checkpoints; zero: at every level boundary.
    /// The first is due once this much time has passed since the tier's start
    /// (so right after a scan that took that long).
    pub every: Duration,
    /// Test hook: stop with [`Error::Interrupted`] (after checkpointing) at
    /// the first level boundary with this many levels processed.
    pub stop_after_levels: Option<u32>,
    /// Test hook of the compact solver, whose scan is checkpointed too: stop
    /// (after checkpointing) at the first boundary of a scan pass with at
    /// least this many slots scanned.
    pub stop_after_slots: Option<u64>,
}

impl Checkpointing {
    /// Checkpoints at `path` at most every `every`.
    pub(crate) fn new(path: impl Into<PathBuf>, every: Duration) -> Checkpointing {
        Checkpointing {
            path: path.into(),
            every,
            stop_after_levels: None,
            stop_after_slots: None,
        }
    }
}

/// What checkpointing did during one tier's solve.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CheckpointReport {
    /// Checkpoints written.
    pub written: u32,
    /// Bytes of the last checkpoint written.
    pub bytes: u64,
    /// Seconds spent writing checkpoints, in all.
    pub write_seconds: f64,
    /// The levels already processed when the solve resumed from a checkpoint
    /// (`None`: it started from the scan).
    pub resumed_at: Option<u32>,
    /// Why a checkpoint found at the path was not used (damaged, truncated, of
    /// another tier or format version): the tier was then solved from the start.
    pub ignored: Option<String>,
}

/// How `solve_tier_with` goes about a tier. The records never depend on it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Absorb {
    /// Use [`TierGame::may_have_inner_moves`]: the slots it rules out are scanned
    /// first and absorbed by the others (every placement tier of a hunt game).
    #[default]
    Hint,
    /// Ignore the hint: every decided slot is propagated (the previous solver's order).
    Never,
}

/// Children of one level handled together by a propagation job: their
/// predecessors' words are first read with plain loads, which overlap as cache
/// misses, and only the undecided ones are then updated by compare-and-swap
/// (a locked instruction waits for its cache line and keeps later loads
/// waiting). Under `perf` on a 20 M-slot mogol tier the one load of each
/// predecessor's word was the hottest instruction of the solve.
const LEVEL_BATCH: usize = 64;

/// Solves one tier whose child tiers are solved (their records in `children`).
///
/// Runs on the current rayon pool; tiers below a few thousand slots run as one job.
/// Returns [`Error::Interrupted`] when a stop is requested.
pub fn solve_tier<G: TierGame>(
    game: &G,
    tier: G::Tier,
    children: &ChildValues<G::Tier>,
    progress: &dyn Progress,
) -> Result<TierResult> {
    solve_tier_with(game, tier, children, progress, Absorb::Hint)
}

/// [`solve_tier`] with the game's hint used or ignored (the records are the
/// same; tests and benchmarks compare the two).
pub(crate) fn solve_tier_with<G: TierGame>(
    game: &G,
    tier: G::Tier,
    children: &ChildValues<G::Tier>,
    progress: &dyn Progress,
    absorb: Absorb,
) -> Result<TierResult> {
    solve_tier_checkpointed(game, tier, children, progress, absorb, None)
}

/// `solve_tier_with` that checkpoints its state at level boundaries of
/// propagation as `ckpt` says, and starts from the checkpoint at `ckpt.path`
/// when there is a valid one (the records are those of an uninterrupted solve).
///
/// A checkpoint of other rules is refused with an [`Error::Table`]
/// ([`crate::TableFault::WrongRules`]); a damaged, truncated or foreign-tier one is
/// ignored (the tier is solved from the start, and
/// [`CheckpointReport::ignored`] says why). The checkpoint file is left in
/// place when the tier is done: the caller removes it once the records are safe.
pub(crate) fn solve_tier_checkpointed<G: TierGame>(
    game: &G,
    tier: G::Tier,
    children: &ChildValues<G::Tier>,
    progress: &dyn Progress,
    absorb: Absorb,
    ckpt: Option<&Checkpointing>,
) -> Result<TierResult> {
    let size = game.tier_size(tier);
    if size < u32::MAX_SLOTS {
        solve_tier_sized::<G, u32>(game, tier, children, progress, absorb, ckpt)
    } else {
        solve_tier_sized::<G, u64>(game, tier, children, progress, absorb, ckpt)
    }
}

/// Decided word bit: decided by the scan's second sweep and not yet propagated;
/// its level finds it by a sweep over the words (bits 16..30 of a decided word
/// are free: its record is the low 16).
const SWEPT: u32 = 1 << 16;

/// Decided word bit: decided during propagation when the frontier lists were
/// at their budget, so not listed; its level finds it by a sweep over the
/// words, as the scan's share (`levels::Spills` notes where).
const SPILL: u32 = 1 << 17;

/// The level whose scan share the word of a slot belongs to, if any: a
/// pending win at `d` still undecided, or a non-draw record of distance `d`
/// decided by the second sweep and not yet propagated.
#[inline]
fn swept_distance(w: u32) -> Option<u32> {
    if w & U != 0 {
        (w & W != 0).then_some(w & DIST)
    } else if w & SWEPT != 0 {
        decode(w as u16).map(|x| x.1)
    } else {
        None
    }
}

/// `solve_tier_with` with frontier entries of type `S` (wide enough for the tier).
fn solve_tier_sized<G: TierGame, S: Slot>(
    game: &G,
    tier: G::Tier,
    children: &ChildValues<G::Tier>,
    progress: &dyn Progress,
    absorb: Absorb,
    ckpt: Option<&Checkpointing>,
) -> Result<TierResult> {
    let started = Instant::now();
    let size = game.tier_size(tier);
    let n = usize::try_from(size).map_err(|_| {
        Error::Memory(format!(
            "tier {} has {size} slots, more than this machine can address",
            game.tier_name(tier)
        ))
    })?;
    let name = game.tier_name(tier);
    let rules = game.rules_string();
    let id = Identity {
        rules: &rules,
        fingerprint: game.fingerprint(),
        tier: &name,
        size,
    };
    let mut report = CheckpointReport::default();
    let resumed = checkpoint::resume_state(ckpt, &name, &mut report, progress, |path| {
        checkpoint::read::<S>(path, &id)
    })?;
    let (words, scan_levels, mut buckets, from, levels) = match resumed {
        Some(st) => {
            report.resumed_at = Some(st.levels);
            progress.note(&format!(
                "{name}: resumed from its checkpoint after {} levels",
                st.levels
            ));
            (st.words, st.scan, st.buckets, st.from, st.levels)
        }
        None => {
            let (words, scan) = scan_tier(game, tier, children, progress, absorb, n)?;
            (words, scan, BTreeMap::new(), 0, 0)
        }
    };

    // Phase 2: propagation by distance.
    progress.stage_in(&format!("{name} propagate"), 0, "levels");
    let saver = ckpt.map(|c| Saver {
        config: c,
        id: &id,
        // After a fresh scan the first checkpoint is due `every` after the start.
        last: if report.resumed_at.is_some() {
            Instant::now()
        } else {
            started
        },
        dirty: report.resumed_at.is_none(),
    });
    let (levels, lists) = propagate(
        game,
        tier,
        &words,
        &scan_levels,
        &mut buckets,
        (from, levels),
        saver,
        &mut report,
        progress,
    )?;
    progress.finish_stage();

    // Phase 3: what is left is a draw.
    let records = words.into_records(&name)?;
    Ok(TierResult {
        checkpoint: report,
        lists,
        ..TierResult::of(records, levels, started)
    })
}

/// When and where propagation writes checkpoints.
struct Saver<'a> {
    config: &'a Checkpointing,
    id: &'a Identity<'a>,
    /// When the last checkpoint was written (or the tier started).
    last: Instant,
    /// Whether the state changed since the last checkpoint.
    dirty: bool,
}
