//! Argument blocks shared by several subcommands, flattened into each one's `Args`
//! (`#[command(flatten)]`), so a flag means the same, is bounded the same and is
//! documented once: `--threads`, `--hash`, `--json`, `--tables`; and the bounded
//! parsers every numeric option of every subcommand goes through ([`whole`],
//! [`seconds`], [`real`], [`size`]), so that a value out of range (negative, NaN,
//! infinite, empty, huge) is refused while the arguments are parsed, with exit 2 and
//! a message naming the option and the accepted range, before any work: `bounds
//! --time 1e308` panicked in `Duration::from_secs_f64` because a new command had
//! parsed its own `f64`. tests/it/cli_bounds.rs walks every subcommand's options.

use clap::builder::TypedValueParser;
use huntsolve::retro::{default_memory_limit, format_bytes};
use std::marker::PhantomData;
use std::path::PathBuf;

/// A whole-number option bounded to `min..=max`, parsed as `T` (a clap value
/// parser: `#[arg(value_parser = whole::<u32>(1, 64, "plies"))]`).
pub(crate) struct Whole<T> {
    min: u64,
    max: u64,
    /// What is counted ("plies", "games"; empty for a seed or a port).
    unit: &'static str,
    of: PhantomData<fn() -> T>,
}

// By hand: derived impls would ask `T: Clone`/`T: Copy`, which `PhantomData` does not need.
impl<T> Clone for Whole<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Whole<T> {}

/// The value parser of a whole number of `unit` from `min` to `max` (inclusive; `max`
/// must fit `T`).
pub(crate) const fn whole<T>(min: u64, max: u64, unit: &'static str) -> Whole<T> {
    Whole {
        min,
        max,
        unit,
        of: PhantomData,
    }
}

impl<T: TryFrom<u64>> Whole<T> {
    fn parse(&self, text: &str) -> Result<T, String> {
        let of = if self.unit.is_empty() {
            String::new()
        } else {
            format!(" of {}", self.unit)
        };
        let range = format!(
            "expected a whole number{of} from {} to {}",
            self.min, self.max
        );
        match text.trim().parse::<u64>() {
            Ok(n) if (self.min..=self.max).contains(&n) => T::try_from(n).map_err(|_| range),
            _ => Err(range),
        }
    }
}

impl<T: TryFrom<u64> + Clone + Send + Sync + 'static> TypedValueParser for Whole<T> {
    type Value = T;
    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        // Through clap's parser of a function, for its message naming the option.
        let me = *self;
        (move |text: &str| me.parse(text)).parse_ref(cmd, arg, value)
    }
}

/// A real-number option bounded to `min < x <= max` (or `min <= x <= max` with
/// `min_included`): NaN and infinities are refused with the rest.
#[derive(Clone, Copy)]
pub(crate) struct Real {
    min: f64,
    min_included: bool,
    max: f64,
    unit: &'static str,
}

/// The value parser of a number of `unit` above `min` (at least `min` when
/// `min_included`) and at most `max`.
pub(crate) const fn real(min: f64, min_included: bool, max: f64, unit: &'static str) -> Real {
    Real {
        min,
        min_included,
        max,
        unit,
    }
}

/// The value parser of a time limit in seconds: above 0, at most
/// [`huntsolve::MAX_SECONDS`] (the README's bound of every time limit).
pub(crate) const fn seconds() -> Real {
    real(0.0, false, huntsolve::MAX_SECONDS, "seconds")
}

impl Real {
    fn parse(&self, text: &str) -> Result<f64, String> {
        let above = if self.min_included {
            "at least"
        } else {
            "above"
        };
        let range = format!(
            "expected {} {above} {} and at most {}",
            self.unit, self.min, self.max
        );
        let x: f64 = text.trim().parse().map_err(|_| range.clone())?;
        let low_ok = x > self.min || (self.min_included && x == self.min);
        if low_ok && x <= self.max {
            Ok(x)
        } else {
            Err(range)
        }
    }
}

impl TypedValueParser for Real {
    type Value = f64;
    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<f64, clap::Error> {
        let me = *self;
        (move |text: &str| me.parse(text)).parse_ref(cmd, arg, value)
    }
}

/// Search depth in plies: 1 to the search's `MAX_DEPTH` (deeper would be clamped).
pub(crate) const DEPTH: Whole<u32> = whole(1, huntsolve::search::MAX_DEPTH as u64, "plies");
/// A count of plies that may be 0 (quiescence, spread, verified distance), at most
/// the search's `MAX_DEPTH`.
pub(crate) const SEARCH_PLIES: Whole<u32> = whole(0, huntsolve::search::MAX_DEPTH as u64, "plies");
/// `verify --max-distance`: a decided sample is searched 2 plies past its distance,
/// and the search stops at `MAX_DEPTH`.
pub(crate) const CHECKED_DISTANCE: Whole<u32> =
    whole(0, huntsolve::search::MAX_DEPTH as u64 - 2, "plies");
/// Uniformly random opening plies of a game: more than any game's length plays it
/// at random throughout.
pub(crate) const RANDOM_PLIES: Whole<u32> = whole(0, 10_000, "plies");
/// A seed: every 64-bit value.
pub(crate) const SEED: Whole<u64> = whole(0, u64::MAX, "");
/// Games of a tournament or ladder: each game's record is kept in memory.
pub(crate) const GAMES: Whole<u64> = whole(1, huntsolve::stats::MAX_GAMES, "games");
/// A node limit: a million nodes a second for `MAX_SECONDS` (11.6 days).
pub(crate) const NODES: Whole<u64> = whole(1, 1_000_000_000_000, "nodes");

/// `solve --checkpoint-minutes`: 0 (no checkpoints) to 16,666 minutes, the
/// 1,000,000 s of every time limit.
pub(crate) const CHECKPOINT_MINUTES: Real = real(0.0, true, 16_666.0, "minutes");

/// A memory size (`512M`, `8G`, `1.5G`, bytes): checked here, kept as the text the
/// user gave (the commands quote it back in their reproduce lines).
pub(crate) fn size(text: &str) -> Result<String, String> {
    huntsolve::retro::parse_size(text)
        .map(|_| text.to_string())
        .map_err(|e| format!("{e}; expected a size such as 512M or 8G, at most 16 EiB"))
}

/// The largest accepted `--threads` ([`huntsolve::max_threads`]: 256, or four per core).
pub(crate) fn max_threads() -> usize {
    huntsolve::max_threads()
}

fn parse_threads(text: &str) -> Result<usize, String> {
    let max = max_threads();
    let range = || {
        format!(
            "expected a whole number of threads from 1 to {max} (256, or 4 per core; \
             the machine has {} cores)",
            std::thread::available_parallelism().map_or(1, |n| n.get())
        )
    };
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(range()),
    }
}

/// `--threads N`.
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub(crate) struct Threads {
    /// Worker threads, 1 to 256 (or 4 per core); default: 1 for a search, one per core
    /// for solve, verify, analyze, compare and sweep.
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    pub threads: Option<usize>,
}

impl Threads {
    /// The given count, or `default`.
    pub(crate) fn or(self, default: usize) -> usize {
        self.threads.unwrap_or(default)
    }
}

/// Parses `--hash` (MiB) and refuses a table larger than the memory this machine
/// has available (80 % of MemAvailable, as `solve --memory` assumes): allocating it
/// would abort the process instead of returning an error.
fn parse_hash(text: &str) -> Result<usize, String> {
    // Without /proc/meminfo: 1 TiB, more than the machines this tool targets have.
    let avail = default_memory_limit().unwrap_or(1 << 40);
    let range = format!(
        "expected a whole number of MiB from 1 to {} ({} = 80 % of MemAvailable)",
        avail >> 20,
        format_bytes(avail)
    );
    let mib = match text.trim().parse::<u64>() {
        Ok(m) if m >= 1 => m,
        _ => return Err(range),
    };
    let bytes = mib.checked_mul(1 << 20).ok_or_else(|| range.clone())?;
    if bytes > avail {
        return Err(range);
    }
    usize::try_from(mib).map_err(|_| format!("{mib} MiB does not fit this platform"))
}

/// `--hash MiB`: the transposition table of a search.
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub(crate) struct Hash {
    /// Transposition table size in MiB, at most the available memory (default: 64,
    /// 256 for openings).
    #[arg(long, value_name = "MiB", value_parser = parse_hash)]
    pub hash: Option<usize>,
}

impl Hash {
    /// The given size in MiB, or `default`.
    pub(crate) fn or(self, default: usize) -> usize {
        self.hash.unwrap_or(default)
    }
}

/// The options of a search: `--threads`, `--hash` and `--eval`.
#[derive(clap::Args, Debug, Clone, Default)]
pub(crate) struct SearchOptions {
    #[command(flatten)]
    pub threads: Threads,
    #[command(flatten)]
    pub hash: Hash,
    /// Evaluation weight `key=value` (repeatable).
    #[arg(long)]
    pub eval: Vec<String>,
}

/// `--json`.
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub(crate) struct Json {
    /// Machine-readable output (JSON); errors are then a JSON object on stdout too.
    #[arg(long)]
    pub json: bool,
}

/// `--tables DIR`, required.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct Tables {
    /// Directory holding solved tables (`*.hst` and `summary.json`).
    #[arg(long, value_name = "DIR")]
    pub tables: PathBuf,
}

/// `--tables DIR` of solved tables and the `--rules` they must belong to.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct SolvedTables {
    /// Directory holding solved tables (`*.hst` and `summary.json`).
    #[arg(long, value_name = "DIR")]
    pub tables: PathBuf,
    /// Rules the tables must belong to (default: the rules in their headers).
    #[arg(long)]
    pub rules: Option<String>,
}

impl SolvedTables {
    /// The game of `--rules`, or of the rules in the tables' headers.
    pub(crate) fn game(&self) -> huntsolve::Result<huntsolve::AnyGame> {
        let rules = match &self.rules {
            Some(r) => r.clone(),
            None => huntsolve::table::rules_of_dir(&self.tables)?,
        };
        huntsolve::AnyGame::parse(&rules)
    }
}

/// `--tables DIR`, optional.
#[derive(clap::Args, Debug, Clone, Default)]
pub(crate) struct MaybeTables {
    /// Directory holding solved tables (`*.hst` and `summary.json`).
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
}

/// The position a command starts from: `position` (default: the start), then
/// the space-separated `moves` played from it.
pub(super) fn position_after<G: huntsolve::game::FullGame>(
    g: &G,
    position: Option<&str>,
    moves: Option<&str>,
) -> huntsolve::Result<G::Pos> {
    let pos = match position {
        Some(t) => g.parse_position(t)?,
        None => g.start(),
    };
    match moves {
        Some(line) => huntsolve::game::play_line(g, &pos, line),
        None => Ok(pos),
    }
}
