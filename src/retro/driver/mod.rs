//! The solve driver: the tier DAG of a scope in topological order, independent
//! tiers in parallel, resume from tables already on disk, a memory check before
//! starting, and `DIR/summary.json`.
//!
//! Resume: a tier whose table exists and opens with the same rules string,
//! fingerprint, index version and size is not solved again (its statistics come
//! from the table header). Tables are written by a temporary file and a
//! rename, so an interrupted run leaves only whole tables behind. Inside a tier,
//! a large tier ([`SolveOptions::checkpoint_min_slots`]) checkpoints its state into
//! `DIR/<tier>.ckpt` (`checkpoint_path`, at most every
//! [`SolveOptions::checkpoint_every`]); a rerun resumes from it, and it is removed
//! once the tier's table is written.

mod big;
mod plan;
mod summary;

pub(crate) use big::solve_and_write_tier_compact;
use big::{ooc_path, remove_ooc_dir, solve_and_write_tier_ooc};
use plan::batches;
pub use plan::part_memory;
pub(crate) use plan::{batch_memory, check_memory_serial};
pub use plan::{
    check_index, default_memory_limit, format_bytes, parse_size, plan, Plan, TierMethod,
};
use plan::{compact_bytes, compact_kind_loaded};
pub(crate) use plan::{method_memory, tier_method};
pub(crate) use plan::{
    plan_part_memory, round_records, SPLIT_FRONTIER_BYTES_PER_SLOT, SPLIT_STATE_BYTES_PER_SLOT,
};
use summary::tier_summary;
pub use summary::{make_summary, summary_path, MadeBy, StartValue, Summary, TierSummary};
pub(crate) use summary::{stored_start_record, write_summary};

use super::compact::CompactKind;
use super::scope::{Scope, Solvable};
use super::solver::{
    solve_tier_checkpointed, Absorb, Checkpointing, ChildRecords, ChildValues, SparseRecords,
    TierStats,
};
use crate::error::{Error, Result, TableFault};
use crate::progress::{stop_requested, Progress, Shared};
use crate::tier::{decode, TierGame, RECORD_ENCODING};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::table::{table_path, write_table, Table, TableMeta};

/// Version of the index schemes of [`TierGame`] implementations, written into table headers.
pub(crate) const INDEX_VERSION: u32 = 1;

/// Bytes of working memory per slot of a tier being solved (the children's
/// records, 2 bytes a slot, are counted apart): the solver's word (4; the final
/// records replace the words segment by segment) and the frontier lists of
/// propagation (2, a bound the solver keeps: the scan's frontier is found by
/// sweeps, not listed; a level larger than a part is processed in ranges of slots,
/// and what is decided when the lists are full is marked in the words). Measured
/// peak (resident set, children included): `solve cows-leopards-mogol --max-prey 6`,
/// 2.74 GB at the 616.8 M-slot tier h0p0c18 with 123.4 M child slots, 4.0 bytes a
/// slot with the children apart (the solver of 11 bytes a slot needed 5-10.4).
pub(crate) const WORK_BYTES_PER_SLOT: u64 = 6;

/// Options of [`solve`].
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Worker threads (0: rayon's default, one per core).
    pub threads: usize,
    /// Refuse to start when the estimate exceeds this many bytes (`None`: no check).
    pub memory_limit: Option<u64>,
    /// Least time between two checkpoints of a large tier (`DIR/<tier>.ckpt`, see
    /// `super::solver::checkpoint`); zero: at every level; `None`: no checkpoints.
    /// Default: `DEFAULT_CHECKPOINT_EVERY`.
    pub checkpoint_every: Option<Duration>,
    /// Tiers of at least this many slots are checkpointed (default
    /// `DEFAULT_CHECKPOINT_MIN_SLOTS`); smaller ones are quick to solve again.
    pub checkpoint_min_slots: u64,
    /// When a tier is solved by the one-byte-a-slot solver (`super::compact`).
    pub compact: Compact,
    /// Who asked for the solve, written into `summary.json` (the command-line
    /// tool sets it; `None`, the field is absent).
    pub made_by: Option<MadeBy>,
}

/// When [`solve`] solves a tier with `super::compact` (two bytes a slot where
/// that fits the limit, else one: `compact_kind`; checkpoints in
/// `DIR/<tier>.compact.ckpt`) instead of
/// `super::solver`. The records are the same.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Compact {
    /// For the tiers whose full estimate (`batch_memory`) exceeds the memory
    /// limit while the compact one fits; never without a limit.
    #[default]
    Auto,
    /// For every tier.
    Always,
    /// For no tier (a tier over the limit is refused).
    Never,
}

impl Compact {
    /// Parses `auto`, `always` or `never`.
    pub fn parse(text: &str) -> Result<Compact> {
        match text {
            "auto" => Ok(Compact::Auto),
            "always" => Ok(Compact::Always),
            "never" => Ok(Compact::Never),
            _ => Err(Error::Usage(format!(
                "--compact {text}: give auto, always or never"
            ))),
        }
    }

    /// Whether `tier` is solved compact under `limit`.
    pub(crate) fn applies<G: TierGame>(self, game: &G, tier: G::Tier, limit: Option<u64>) -> bool {
        match self {
            Compact::Always => true,
            Compact::Never => false,
            Compact::Auto => {
                limit.is_some_and(|l| batch_memory(game, &[tier]).unwrap_or(u64::MAX) > l)
            }
        }
    }
}

/// Default least time between two checkpoints of a tier: 10 minutes.
pub(crate) const DEFAULT_CHECKPOINT_EVERY: Duration = Duration::from_secs(600);
/// Default smallest tier checkpointed: 2^26 slots (256 MiB of solver words).
pub(crate) const DEFAULT_CHECKPOINT_MIN_SLOTS: u64 = 1 << 26;

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            threads: 0,
            memory_limit: None,
            checkpoint_every: Some(DEFAULT_CHECKPOINT_EVERY),
            checkpoint_min_slots: DEFAULT_CHECKPOINT_MIN_SLOTS,
            compact: Compact::Auto,
            made_by: None,
        }
    }
}

impl SolveOptions {
    /// The checkpointing of `tier` (`name`) into `out_dir`, if it is large
    /// enough: at `path(out_dir, name)` ([`checkpoint_path`] or
    /// [`compact_checkpoint_path`]).
    fn checkpointing(&self, size: u64, path: PathBuf) -> Option<Checkpointing> {
        let every = self.checkpoint_every?;
        (size >= self.checkpoint_min_slots).then(|| Checkpointing::new(path, every))
    }
}

/// Path of the checkpoint of tier `name` in a solve directory: `DIR/<name>.ckpt`.
pub(crate) fn checkpoint_path(out_dir: &Path, name: &str) -> PathBuf {
    out_dir.join(format!("{name}.ckpt"))
}

/// Path of the compact solver's checkpoint of tier `name`:
/// `DIR/<name>.compact.ckpt` (another file than the full solver's, so that a
/// rerun with other `--compact` or `--memory` leaves the other's work alone).
pub(crate) fn compact_checkpoint_path(out_dir: &Path, name: &str) -> PathBuf {
    out_dir.join(format!("{name}.compact.ckpt"))
}

/// What [`solve`] did besides the summary.
#[derive(Clone, Debug)]
pub struct SolveReport {
    /// The summary written to `DIR/summary.json`.
    pub summary: Summary,
    /// Tiers solved in this run.
    pub solved: usize,
    /// Tiers found on disk and kept.
    pub resumed: usize,
    /// Wall-clock seconds of this run.
    pub seconds: f64,
    /// Slots processed in this run (sum of the sizes of the solved tiers).
    pub slots_solved: u64,
}

/// Statistics stored in a table header's `extra` JSON.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct Extra {
    #[serde(flatten)]
    stats: TierStats,
    placements: u64,
    seconds: f64,
}

/// A table on disk that can be kept, or why not.
fn existing<G: TierGame>(game: &G, tier: G::Tier, path: &Path) -> Result<Option<(Table, Extra)>> {
    if !path.exists() {
        return Ok(None);
    }
    // A damaged table is solved again (tables are only ever replaced whole):
    // its header and index are checked on opening, every byte here, so a
    // damaged block is never kept as "kept from disk".
    // Something else named like the table (a FIFO, a directory) is not replaced.
    let table = match Table::open(path).and_then(|t| t.check_bytes().map(|()| t)) {
        Ok(t) => t,
        Err(
            e @ Error::Table {
                fault: TableFault::NotAFile,
                ..
            },
        ) => return Err(e),
        Err(Error::Table { .. }) => return Ok(None),
        Err(e) => return Err(e),
    };
    let m = table.meta();
    if m.rules != game.rules_string() || m.fingerprint != game.fingerprint() {
        return Err(Error::table(
            path,
            TableFault::WrongRules,
            format!(
                "belongs to rules '{}', not '{}'; use another output directory",
                m.rules,
                game.rules_string()
            ),
        ));
    }
    if m.index_version != INDEX_VERSION
        || m.encoding != RECORD_ENCODING
        || m.positions != game.tier_size(tier)
        || m.tier != game.tier_name(tier)
    {
        return Ok(None);
    }
    let extra: Extra = match serde_json::from_str(&m.extra) {
        Ok(e) => e,
        Err(_) => return Ok(None),
    };
    Ok(Some((table, extra)))
}

/// Solves `scope` of `game` into `out_dir` (one table per tier and `summary.json`).
///
/// Refuses with [`Error::Memory`] when the plan's estimate exceeds
/// `options.memory_limit`. Returns [`Error::Interrupted`] when a stop is
/// requested; finished tiers stay on disk and a rerun resumes.
pub fn solve<G: Solvable>(
    game: &G,
    scope: &Scope,
    out_dir: &Path,
    options: &SolveOptions,
    progress: &dyn Progress,
) -> Result<SolveReport> {
    check_index(game, options.memory_limit)?;
    let plan = plan(game, scope)?;
    check_memory_serial(game, scope, &plan, options.memory_limit, options.compact)?;
    let _lock = open_out_dir(out_dir)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .map_err(|e| Error::io("cannot start worker threads", std::io::Error::other(e)))?;
    pool.install(|| run_plan(game, scope, &plan, out_dir, options, progress))
}

/// Creates `out_dir`, takes its lock (one writer per directory) and removes the
/// debris of a killed run; the lock is released when the value is dropped.
pub(crate) fn open_out_dir(out_dir: &Path) -> Result<super::lock::DirLock> {
    std::fs::create_dir_all(out_dir)
        .map_err(|e| Error::io(format!("creating {}", out_dir.display()), e))?;
    let lock = super::lock::DirLock::acquire(out_dir)?;
    super::lock::remove_stale_temporaries(out_dir)?;
    Ok(lock)
}

/// The summary of `tier` when its table in `out_dir` can be kept (same rules,
/// index version, encoding and size, statistics readable); `None` when it must
/// be solved (absent, damaged or stale).
pub fn kept_tier<G: Solvable>(
    game: &G,
    tier: G::Tier,
    out_dir: &Path,
) -> Result<Option<TierSummary>> {
    let name = game.tier_name(tier);
    let path = table_path(out_dir, &name);
    Ok(existing(game, tier, &path)?.map(|(_table, extra)| {
        tier_summary(
            &name,
            game.tier_placements(tier),
            &extra.stats,
            extra.seconds,
        )
    }))
}

/// Solves `tier` with the full solver and writes its table (temporary file,
/// then rename), with checkpoints as `ckpt` says: a valid checkpoint
/// at `ckpt.path` is resumed from, and removed once the table is written.
pub(crate) fn solve_and_write_tier_with<G: Solvable>(
    game: &G,
    tier: G::Tier,
    children: &ChildValues<G::Tier>,
    out_dir: &Path,
    ckpt: Option<&Checkpointing>,
    progress: &dyn Progress,
) -> Result<(TierSummary, Vec<u16>)> {
    let name = game.tier_name(tier);
    let placements = game.tier_placements(tier);
    let res = solve_tier_checkpointed(game, tier, children, progress, Absorb::Hint, ckpt)?;
    if res.lists.split_levels > 0 || res.lists.spilled > 0 {
        progress.detail(&format!(
            "{name}: {} levels processed in parts, {} slots marked in the words past the lists' budget",
            res.lists.split_levels, res.lists.spilled
        ));
    }
    let meta = tier_meta(
        game,
        &name,
        res.records.len(),
        &res.stats,
        placements,
        res.seconds,
    )?;
    write_table(&table_path(out_dir, &name), &meta, &res.records)?;
    if let Some(c) = ckpt {
        remove_checkpoint(&c.path)?;
    }
    Ok((
        tier_summary(&name, placements, &res.stats, res.seconds),
        res.records,
    ))
}

/// The header of a freshly solved tier's table: rules, index, and the
/// statistics (`Extra`) a rerun keeps the tier by.
pub(crate) fn tier_meta<G: Solvable>(
    game: &G,
    name: &str,
    records: usize,
    stats: &TierStats,
    placements: u64,
    seconds: f64,
) -> Result<TableMeta> {
    let extra = Extra {
        stats: stats.clone(),
        placements,
        seconds,
    };
    Ok(TableMeta {
        rules: game.rules_string(),
        fingerprint: game.fingerprint(),
        tier: name.to_string(),
        index_version: INDEX_VERSION,
        encoding: RECORD_ENCODING,
        positions: records as u64,
        extra: serde_json::to_string(&extra)
            .map_err(|e| Error::Internal(format!("encoding statistics: {e}")))?,
    })
}

/// A finished tier of a wave: summary, records when freshly solved, whether fresh.
type Done<T> = (T, TierSummary, Option<Arc<Vec<u16>>>, bool);

/// Removes a checkpoint whose tier's table is safe on disk (absent: nothing to do).
pub(crate) fn remove_checkpoint(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(Error::io(format!("removing {}", path.display()), e))
        }
        _ => Ok(()),
    }
}

fn run_plan<G: Solvable>(
    game: &G,
    scope: &Scope,
    plan: &Plan<G::Tier>,
    out_dir: &Path,
    options: &SolveOptions,
    progress: &dyn Progress,
) -> Result<SolveReport> {
    let limit = options.memory_limit;
    let started = Instant::now();
    // How many tiers of the scope still need each tier's records.
    let mut parents_left: HashMap<G::Tier, usize> = HashMap::new();
    for w in &plan.waves {
        for &t in w {
            for c in game.stored_children(t) {
                *parents_left.entry(c).or_default() += 1;
            }
        }
    }
    let mut loaded: HashMap<G::Tier, ChildRecords> = HashMap::new();
    let mut done: BTreeMap<G::Tier, TierSummary> = BTreeMap::new();
    let (mut solved, mut resumed, mut slots_solved) = (0, 0, 0u64);
    let start_pos = game.start();
    let start_tier = game.tier_of(&start_pos);
    let mut start_record = None;

    // A wave too big for the memory limit is solved in consecutive batches.
    let batched: Vec<Vec<G::Tier>> = plan
        .waves
        .iter()
        .flat_map(|w| batches(game, w, limit))
        .collect();
    // When batching, no records are kept from one batch to the next (children are
    // read again from disk), so a batch's memory is exactly what its estimate counts.
    let batching = batched.len() > plan.waves.len();
    for wave in &batched {
        if stop_requested() {
            return Err(Error::Interrupted);
        }
        let children = wave_children(game, wave, out_dir, options, &mut loaded, progress)?;
        // Independent tiers of the wave in parallel; each tier parallel inside.
        let results: Mutex<Vec<Done<G::Tier>>> = Mutex::new(Vec::new());
        let shared = Shared::new(progress);
        wave.par_iter()
            .enumerate()
            .try_for_each(|(i, &t)| -> Result<()> {
                let job = shared.job(i);
                let progress: &dyn Progress = &job;
                let (summary, records, fresh) =
                    solve_one_tier(game, t, &children, out_dir, options, progress)?;
                if let Ok(mut r) = results.lock() {
                    r.push((t, summary, records, fresh));
                }
                Ok(())
            })?;
        let results = results
            .into_inner()
            .map_err(|_| Error::Internal("a solver thread panicked".into()))?;
        for (t, summary, records, fresh) in results {
            if fresh {
                solved += 1;
                slots_solved += game.tier_size(t);
            } else {
                resumed += 1;
            }
            if parents_left.get(&t).copied().unwrap_or(0) > 0 {
                if let Some(r) = records {
                    loaded.insert(t, ChildRecords::Dense(r));
                }
            }
            if t == start_tier {
                let index = game.rank(t, &start_pos);
                let rec = match loaded.get(&t) {
                    Some(r) => r.get(index),
                    None => Table::open(&table_path(out_dir, &game.tier_name(t)))?.get(index)?,
                };
                start_record = decode(rec);
            }
            done.insert(t, summary);
        }
        progress.tiers_done(done.len(), plan.waves.iter().map(Vec::len).sum());
        // Drop child records no tier still needs (all of them when batching).
        if batching {
            loaded.clear();
        }
        for &t in wave {
            for c in game.stored_children(t) {
                if let Some(n) = parents_left.get_mut(&c) {
                    *n -= 1;
                    if *n == 0 {
                        loaded.remove(&c);
                    }
                }
            }
        }
    }
    let summary = Summary {
        made_by: options.made_by.clone(),
        ..make_summary(game, plan, &done, start_record)
    };
    let _ = scope;
    write_summary(out_dir, &summary)?;
    Ok(SolveReport {
        summary,
        solved,
        resumed,
        seconds: started.elapsed().as_secs_f64(),
        slots_solved,
    })
}

/// Solves tier `t` alone into `out_dir` as [`solve`] solves it within its
/// wave: kept when its table is already there, else by the solver `options`
/// choose for it under their memory limit (the compact solver, its children
/// held sparse, checkpoints), its children's records taken from `loaded` or
/// read from their tables (and kept in `loaded`; records `t` does not need
/// are dropped first). A cluster worker solves each tier it is given so.
pub fn solve_tier_alone<G: Solvable>(
    game: &G,
    t: G::Tier,
    out_dir: &Path,
    options: &SolveOptions,
    loaded: &mut HashMap<G::Tier, ChildRecords>,
    progress: &dyn Progress,
) -> Result<TierSummary> {
    let kids = game.stored_children(t);
    loaded.retain(|c, _| kids.contains(c));
    let children = wave_children(game, &[t], out_dir, options, loaded, progress)?;
    let (summary, _, _) = solve_one_tier(game, t, &children, out_dir, options, progress)?;
    Ok(summary)
}

/// The records of the stored children of `wave`'s tiers: from `loaded`, or
/// read from their tables in `out_dir` (and kept in `loaded`). Held sparse
/// when a tier of the wave needs it under the memory limit
/// ([`sparse_children`]), and then checked against the limit with their
/// decided records counted.
fn wave_children<G: Solvable>(
    game: &G,
    wave: &[G::Tier],
    out_dir: &Path,
    options: &SolveOptions,
    loaded: &mut HashMap<G::Tier, ChildRecords>,
    progress: &dyn Progress,
) -> Result<ChildValues<G::Tier>> {
    let limit = options.memory_limit;
    let sparse = wave
        .iter()
        .any(|&t| tier_method(game, t, options.compact, limit).sparse_children());
    let mut children = ChildValues::new();
    for &t in wave {
        for c in game.stored_children(t) {
            let recs = match loaded.remove(&c) {
                Some(r) if r.is_sparse() == sparse => r,
                // Every record was kept (the child was solved in this run).
                Some(ChildRecords::Dense(v)) => {
                    ChildRecords::Sparse(Arc::new(SparseRecords::from_records(&v)))
                }
                _ => {
                    let path = table_path(out_dir, &game.tier_name(c));
                    let table = Table::open(&path)?;
                    if sparse {
                        let s = SparseRecords::from_table(&table, progress)?;
                        ChildRecords::Sparse(Arc::new(s))
                    } else {
                        ChildRecords::Dense(Arc::new(table.read_all()?))
                    }
                }
            };
            loaded.insert(c, recs.clone());
            children.insert_records(c, recs);
        }
    }
    if sparse {
        // An out-of-core tier chooses its parts on the loaded children.
        let in_memory: Vec<G::Tier> = wave
            .iter()
            .copied()
            .filter(|&t| {
                !matches!(
                    tier_method(game, t, options.compact, limit),
                    TierMethod::OutOfCore { .. }
                )
            })
            .collect();
        check_loaded(game, &in_memory, &children, limit, progress)?;
    }
    Ok(children)
}

/// The sparse children's real size against `limit`, for each tier of `wave`
/// solved compact beside them (the plan counted them before their decided
/// records): refuses before the tier's state is allocated.
fn check_loaded<G: Solvable>(
    game: &G,
    wave: &[G::Tier],
    children: &ChildValues<G::Tier>,
    limit: Option<u64>,
    progress: &dyn Progress,
) -> Result<()> {
    let kids = children.bytes();
    for &t in wave {
        let fits = compact_kind_loaded(game, t, limit, kids);
        let kind = fits.unwrap_or(CompactKind::Plain);
        let need = compact_bytes(game.tier_size(t), kind, kids).unwrap_or(u64::MAX);
        progress.message(&format!(
            "{}: child records held sparse ({} for {} slots); with the compact solver ({}) about {} in all",
            game.tier_name(t),
            format_bytes(kids),
            game.stored_children(t)
                .iter()
                .map(|&c| game.tier_size(c))
                .sum::<u64>(),
            kind.describe(),
            format_bytes(need)
        ));
        if let Some(l) = limit.filter(|_| fits.is_none()) {
            return Err(Error::Memory(format!(
                "tier {} needs about {} with the compact solver and its children's records held sparse ({} of them: their wins and losses are more than planned), but the limit is {}; raise --memory or choose a smaller scope",
                game.tier_name(t),
                format_bytes(need),
                format_bytes(kids),
                format_bytes(l)
            )));
        }
    }
    Ok(())
}

/// A tier's summary, its records when solved in full, and whether it was solved now.
type TierOutcome = (TierSummary, Option<Arc<Vec<u16>>>, bool);

/// Tier `t` kept from an earlier run, or solved (compact where `options` say)
/// and written: its summary, its records when solved in full, and whether it
/// was solved now.
fn solve_one_tier<G: Solvable>(
    game: &G,
    t: G::Tier,
    children: &ChildValues<G::Tier>,
    out_dir: &Path,
    options: &SolveOptions,
    progress: &dyn Progress,
) -> Result<TierOutcome> {
    let limit = options.memory_limit;
    let name = game.tier_name(t);
    if let Some(summary) = kept_tier(game, t, out_dir)? {
        // Left by a run killed between the table's rename and this removal.
        remove_checkpoint(&checkpoint_path(out_dir, &name))?;
        remove_checkpoint(&compact_checkpoint_path(out_dir, &name))?;
        remove_ooc_dir(&ooc_path(out_dir, &name))?;
        return Ok((summary, None, false));
    }
    let summary = match tier_method(game, t, options.compact, limit) {
        TierMethod::OutOfCore { .. } => {
            solve_and_write_tier_ooc(game, t, children, out_dir, limit, progress)?
        }
        TierMethod::Compact {
            kind,
            sparse_children,
        } => {
            // Held sparse, the children's real size decides the kind (the plan
            // counted them before their wins and losses; `check_loaded` refused
            // what fits neither kind).
            let kind = if sparse_children {
                compact_kind_loaded(game, t, limit, children.bytes()).unwrap_or(CompactKind::Plain)
            } else {
                kind
            };
            progress.message(&format!("{name}: compact solver ({})", kind.describe()));
            let ckpt =
                options.checkpointing(game.tier_size(t), compact_checkpoint_path(out_dir, &name));
            solve_and_write_tier_compact(
                game,
                t,
                children,
                out_dir,
                (kind, ckpt.as_ref()),
                progress,
            )?
        }
        TierMethod::Full => {
            let ckpt = options.checkpointing(game.tier_size(t), checkpoint_path(out_dir, &name));
            let (summary, records) =
                solve_and_write_tier_with(game, t, children, out_dir, ckpt.as_ref(), progress)?;
            return Ok((summary, Some(Arc::new(records)), true));
        }
    };
    Ok((summary, None, true))
}

/// Reads the records of one solved tier from `dir`, checking that the table
/// belongs to `game`'s rules and has the tier's size.
pub fn load_records<G: TierGame>(game: &G, dir: &Path, tier: G::Tier) -> Result<Vec<u16>> {
    let path = table_path(dir, &game.tier_name(tier));
    let table = Table::open(&path)?;
    let m = table.meta();
    if m.fingerprint != game.fingerprint() || m.rules != game.rules_string() {
        return Err(Error::table(
            &path,
            TableFault::WrongRules,
            format!(
                "belongs to rules '{}', not '{}'",
                m.rules,
                game.rules_string()
            ),
        ));
    }
    if m.positions != game.tier_size(tier) {
        return Err(Error::table(
            &path,
            TableFault::WrongTier,
            format!(
                "{} slots, the tier has {}",
                m.positions,
                game.tier_size(tier)
            ),
        ));
    }
    table.read_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("100").unwrap(), 100);
        assert_eq!(parse_size("2K").unwrap(), 2048);
        assert_eq!(parse_size("1.5G").unwrap(), 3 << 29);
        assert_eq!(parse_size("8GiB").unwrap(), 8 << 30);
        assert!(parse_size("lots").is_err());
        assert!(parse_size("5Q").is_err());
        assert!(parse_size("-1G").is_err());
    }
}

#[cfg(test)]
mod tests_loaded;
